"""Python side of the kernel: variant -> cfg array, chunk simulation, traces."""
from __future__ import annotations

import numpy as np

from simcards.core.errors import kernel_errors
from simcards.core.trace import NO_TRACE
from simcards.games.contract_rummy import melds as M
from simcards.games.contract_rummy.policies import DECISIONS
from simcards.games.contract_rummy import rules
from simcards.games.contract_rummy.variant import ContractRummyVariant

# the variant field behind each one-value cfg slot (melds.CFG), packed by its kind (Layout.pack: booleans
# 0/1, an enum the index of its choice in the field's own `choices`, a random seat -1), None (no limit) INF
CFG_FIELDS = {
    "npl": "num_players", "min_set": "min_set_size", "max_set": "max_set_size",
    "set_dup": "set_duplicate_suits", "min_run": "min_run_length", "ace": "ace_mode",
    "min_nat": "min_naturals_per_meld", "max_jok": "max_jokers_per_meld", "run_suits": "contract_runs_suits",
    "sets_distinct": "contract_sets_distinct_ranks", "extra_cards": "contract_meld_extra_cards",
    "extra_melds": "extra_melds_after_contract", "layoff_same": "layoff_same_turn_as_contract",
    "final_all": "final_deal_all_at_once", "final_disc": "final_deal_go_out_discard", "go_out_disc": "go_out_discard",
    "no_return": "no_return_discard", "take_after": "discard_take_after_contract", "deep": "deep_take_enabled",
    "deep_before": "deep_take_before_contract", "deep_use": "deep_take_target_use",
    "max_depth": "max_deep_take_depth", "buy": "buying_enabled", "buy_pen": "buy_penalty_cards",
    "max_buys": "max_buys_per_deal", "buy_after": "buy_after_contract", "swap": "joker_swap_enabled",
    "swap_prior": "joker_swap_requires_prior_contract", "swap_sets": "joker_swap_from_sets",
    "swap_scope": "joker_swap_scope", "swap_place": "joker_swap_must_place", "exhaust": "stock_exhaustion",
    "max_turns": "max_turns_per_deal", "tie": "tie_break", "first_dealer": "first_dealer",
}
# the one-value slots computed from several fields
CFG_DERIVED = {
    "decks": ContractRummyVariant.decks,
    "jokers": ContractRummyVariant.jokers,
    "ndeals": lambda v: len(v.contracts),
    "unit_deal": lambda v: v.contract - 1,
}


def variant_config(v: ContractRummyVariant) -> np.ndarray:
    """The int64 rule array (slots ``melds.CFG``) the kernel and the policies read."""
    c = M.CFG.pack(v, CFG_FIELDS, none=M.INF)
    for slot, value in CFG_DERIVED.items():
        c[M.CFG.offset[slot]] = value(v)
    pv = v.penalty_values  # A 2 .. K JK  ->  core ranks 2..A, joker
    c[M.C_PEN:M.C_PEN + 12] = pv[1:13]
    c[M.C_PEN + 12] = pv[0]
    c[M.C_PEN + 13] = pv[13]
    for k, (s, r) in enumerate(v.contract_pairs()):
        c[M.C_CONTRACTS + 2 * k] = s
        c[M.C_CONTRACTS + 2 * k + 1] = r
        c[M.C_HANDS + k] = v.hand_sizes[k]
    return c


def run_chunk(unit: str, variant: ContractRummyVariant, table, seed: int, start: int, count: int,
              trace_rows: int = 0, known=None, seat: int = -1, totals=None):
    """Records start..start+count-1 as an int64 array; with ``trace_rows`` (the trace buffer's
    first size; it grows until the trace fits) also the trace, as ``rules.EVENTS`` events.

    ``known`` (int64[NT] card-type counts) and ``seat``: seat ``seat`` is dealt exactly
    ``known`` in deal ``variant.contract`` and the rest is dealt uniformly around it
    (odds.py); the ``game`` unit then starts at that deal from the penalty ``totals`` (one
    per seat) and plays to the game's end."""
    cfg = variant_config(variant)
    if known is None or seat < 0:
        known, seat = np.zeros(M.NT, np.int64), -1
    totals0 = np.zeros(rules.MAX_SEATS, np.int64)
    if totals is not None:
        totals0[: len(totals)] = totals
    game = unit == "game"
    ncols = rules.GAME_NCOLS if game else rules.DEAL_NCOLS

    tab = rules.Table(cfg, np.asarray(known, np.int64))
    seats = rules.seats(table)

    def run(trace):
        out = np.zeros((count, ncols), np.int64)
        s = rules.new_state()
        with kernel_errors("contract-rummy", DECISIONS, table, record=s.st[rules.S_ERROR:rules.S_ERROR + 3],
                           where=f"seed {seed}, records {start}..{start + count - 1}"):
            rules.run_records(game, tab, seats, rules.board(s, trace), np.uint64(seed), start, count, out,
                              s.scratch, np.int64(seat), totals0)
        return out

    if trace_rows:
        return rules.EVENTS.collect(run, trace_rows)
    return run(NO_TRACE)
