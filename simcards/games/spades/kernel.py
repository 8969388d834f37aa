"""Python-side entry to the compiled kernels: parameter packing, policy tables, errors."""
from __future__ import annotations

import numpy as np

from simcards.core.cards import format_card
from simcards.core.trace import NO_TRACE
from simcards.core.errors import IllegalAnswer, SimcardsError, kernel_errors
from simcards.games.spades import rules
from simcards.games.spades.policies import DECISIONS
from simcards.games.spades.variant import SpadesVariant

DECISION_ORDER = ("blind", "bid", "exchange", "play", "misdeal")


def prepared(variant: SpadesVariant, fixed=None) -> rules.Table:
    """The kernels' :class:`rules.Table` for ``variant``: params row, deck, effective suit
    masks, known cards per seat (``fixed``, none by default)."""
    params = variant.to_params()
    deck, masks = rules.deck_setup(params)
    fixed = np.zeros(4, np.uint64) if fixed is None else np.asarray(fixed, dtype=np.uint64)
    return rules.Table(params, deck, masks, fixed)


def seats(table) -> rules.Seats:
    """The kernels' :class:`rules.Seats`: per decision, the tuple of each seat's function,
    then each seat's policy parameters (``table.params``) and whether they are all the same."""
    params = table.params
    return rules.Seats(*(table[name] for name in DECISION_ORDER), params, bool((params == params[0]).all()))


def run_kernel(unit: str, variant: SpadesVariant, table, seed: int, start: int, count: int,
               trace: bool = False, fixed=None):
    """Run unit ``deal`` or ``game`` records; returns (records, trace events or None).

    With ``trace`` the events are :data:`rules.EVENTS` named tuples (every record's, in order)."""
    if unit == "deal":
        kernel, ncols = rules.simulate_deals, rules.N_DEAL_COLS
    elif unit == "game":
        kernel, ncols = rules.simulate_games, rules.N_GAME_COLS
    else:
        raise SimcardsError(f"spades has no unit {unit!r} (units: deal, game)")
    tab, funcs = prepared(variant, fixed), seats(table)
    err = np.zeros(4, dtype=np.int64)

    def run(trace_buffer):
        out = np.zeros((count, ncols), dtype=np.int64)
        with kernel_errors("spades", DECISIONS, table, formats=FORMATS,
                           where=f"seed {seed}, records {start}..{start + count - 1}"):
            try:
                kernel(tab, funcs, np.uint64(seed), np.int64(start), np.int64(count), out, trace_buffer, err)
            except ValueError as exc:
                if isinstance(exc, IllegalAnswer) or not err[0]:
                    raise  # a policy's answer or exception: kernel_errors words it
                raise SimcardsError(error_text(err)) from None  # the kernel's own limits, recorded in err
        return out

    if not trace:
        return run(NO_TRACE), None
    return rules.EVENTS.collect(run, rows=128 * count if unit == "deal" else 4096)


FORMATS = {"play": format_card}  # how the error channel shows an answer


def error_text(err) -> str:
    """One line for a limit the kernel recorded in ``err`` before raising."""
    code = int(err[0])
    if code == rules.E_REDEALS:
        return f"spades: more than {rules.MAX_REDEALS} redeals in a row (misdeal_condition too strict?)"
    return "spades: kernel error"
