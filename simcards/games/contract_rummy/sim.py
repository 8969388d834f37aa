"""Python side of the kernel: variant -> cfg array, chunk simulation, traces."""
from __future__ import annotations

import numpy as np

from simcards.core.errors import kernel_errors
from simcards.games.contract_rummy import melds as M
from simcards.games.contract_rummy.policies import DECISIONS
from simcards.games.contract_rummy import rules
from simcards.games.contract_rummy.variant import ContractRummyVariant

_ENUM = {
    "ace_mode": ("low", "high", "both", "wrap"),
    "contract_runs_suits": ("distinct", "not_all_same", "non_contiguous", "any"),
    "final_deal_go_out_discard": ("same", "optional", "required", "forbidden"),
    "go_out_discard": ("optional", "required", "forbidden"),
    "deep_take_target_use": ("meld_or_layoff", "meld_only"),
    "joker_swap_scope": ("any", "others_only"),
    "stock_exhaustion": ("reshuffle", "end_deal"),
    "tie_break": ("shared", "most_deals_won"),
}


def variant_config(v: ContractRummyVariant) -> np.ndarray:
    """The int64 rule array (melds.C_*) the kernel and the policies read."""
    c = np.zeros(M.NCFG, np.int64)
    e = lambda name: _ENUM[name].index(getattr(v, name))  # noqa: E731
    c[M.C_NPL] = v.num_players
    c[M.C_DECKS] = v.decks()
    c[M.C_JOKERS] = v.jokers()
    c[M.C_MIN_SET] = v.min_set_size
    c[M.C_MAX_SET] = v.max_set_size
    c[M.C_SET_DUP] = int(v.set_duplicate_suits)
    c[M.C_MIN_RUN] = v.min_run_length
    c[M.C_ACE] = e("ace_mode")
    c[M.C_MIN_NAT] = v.min_naturals_per_meld
    c[M.C_MAX_JOK] = M.INF if v.max_jokers_per_meld is None else v.max_jokers_per_meld
    c[M.C_RUN_SUITS] = e("contract_runs_suits")
    c[M.C_SETS_DISTINCT] = int(v.contract_sets_distinct_ranks)
    c[M.C_EXTRA_CARDS] = int(v.contract_meld_extra_cards)
    c[M.C_EXTRA_MELDS] = int(v.extra_melds_after_contract)
    c[M.C_LAYOFF_SAME] = int(v.layoff_same_turn_as_contract)
    c[M.C_FINAL_ALL] = int(v.final_deal_all_at_once)
    c[M.C_FINAL_DISC] = e("final_deal_go_out_discard")
    c[M.C_GO_OUT_DISC] = e("go_out_discard")
    c[M.C_NO_RETURN] = int(v.no_return_discard)
    c[M.C_TAKE_AFTER] = int(v.discard_take_after_contract)
    c[M.C_DEEP] = int(v.deep_take_enabled)
    c[M.C_DEEP_BEFORE] = int(v.deep_take_before_contract)
    c[M.C_DEEP_USE] = e("deep_take_target_use")
    c[M.C_MAX_DEPTH] = M.INF if v.max_deep_take_depth is None else v.max_deep_take_depth
    c[M.C_BUY] = int(v.buying_enabled)
    c[M.C_BUY_PEN] = v.buy_penalty_cards
    c[M.C_MAX_BUYS] = v.max_buys_per_deal
    c[M.C_BUY_AFTER] = int(v.buy_after_contract)
    c[M.C_SWAP] = int(v.joker_swap_enabled)
    c[M.C_SWAP_PRIOR] = int(v.joker_swap_requires_prior_contract)
    c[M.C_SWAP_SETS] = int(v.joker_swap_from_sets)
    c[M.C_SWAP_SCOPE] = e("joker_swap_scope")
    c[M.C_SWAP_PLACE] = int(v.joker_swap_must_place)
    c[M.C_EXHAUST] = e("stock_exhaustion")
    c[M.C_MAX_TURNS] = v.max_turns_per_deal
    c[M.C_TIE] = e("tie_break")
    c[M.C_NDEALS] = len(v.contracts)
    c[M.C_FIRST_DEALER] = -1 if v.first_dealer == "random" else int(v.first_dealer)
    c[M.C_UNIT_DEAL] = v.contract - 1
    pv = v.penalty_values  # A 2 .. K JK  ->  core ranks 2..A, joker
    for r in range(12):
        c[M.C_PEN + r] = pv[r + 1]
    c[M.C_PEN + 12] = pv[0]
    c[M.C_PEN + 13] = pv[13]
    for k, (s, r) in enumerate(v.contract_pairs()):
        c[M.C_CONTRACTS + 2 * k] = s
        c[M.C_CONTRACTS + 2 * k + 1] = r
        c[M.C_HANDS + k] = v.hand_sizes[k]
    return c


def run_chunk(unit: str, variant: ContractRummyVariant, table, seed: int, start: int, count: int,
              trace_rows: int = 0, known=None, seat: int = -1, totals=None):
    """Records start..start+count-1 as an int64 array; with ``trace_rows`` also the trace.

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
    out = np.zeros((count, ncols), np.int64)
    s = rules.new_state(trace_rows)
    with kernel_errors("contract-rummy", DECISIONS, table, record=s.st[rules.S_ERROR:rules.S_ERROR + 3],
                       where=f"seed {seed}, records {start}..{start + count - 1}"):
        rules.run_records(game, cfg, np.uint64(seed), start, count, out, table["draw"], table["go_down"],
                          table["discard"], table["buy"], s.hands, s.pub, s.melds, s.stock, s.pile_who,
                          s.st, s.tr, s.trn, s.scratch,
                          np.asarray(known, np.int64), np.int64(seat), totals0)
    if trace_rows:
        return out, s.tr[: s.trn[0]].copy()
    return out
