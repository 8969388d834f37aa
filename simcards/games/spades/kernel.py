"""Python-side entry to the compiled kernels: parameter packing, policy tables, errors."""
from __future__ import annotations

import numpy as np

from simcards.core.cards import format_card
from simcards.core.errors import IllegalAnswer, SimcardsError, kernel_errors
from simcards.games.spades import rules
from simcards.games.spades.policies import DECISIONS
from simcards.games.spades.variant import SpadesVariant

DECISION_ORDER = ("blind", "bid", "exchange", "play", "misdeal")


def prepared(variant: SpadesVariant):
    """(params row, deck, effective suit masks) for ``variant``."""
    params = variant.to_params()
    deck, masks = rules.deck_setup(params)
    return params, deck, masks


def run_kernel(unit: str, variant: SpadesVariant, table, seed: int, start: int, count: int,
               trace_rows: int = 0, fixed=None):
    """Run unit ``deal`` or ``game`` records; returns (records, trace or None)."""
    params, deck, masks = prepared(variant)
    fixed = np.zeros(4, np.uint64) if fixed is None else np.asarray(fixed, dtype=np.uint64)
    funcs = [table[name] for name in DECISION_ORDER]
    if unit == "deal":
        kernel, ncols = rules.simulate_deals, rules.N_DEAL_COLS
    elif unit == "game":
        kernel, ncols = rules.simulate_games, rules.N_GAME_COLS
    else:
        raise SimcardsError(f"spades has no unit {unit!r} (units: deal, game)")
    out = np.zeros((count, ncols), dtype=np.int64)
    trace = np.zeros((max(trace_rows, 1), rules.TRACE_LEN), dtype=np.int64)
    err = np.zeros(4, dtype=np.int64)
    with kernel_errors("spades", DECISIONS, table, formats=FORMATS, where=f"seed {seed}, records {start}..{start + count - 1}"):
        try:
            kernel(params, deck, masks, fixed, np.uint64(seed), np.int64(start), np.int64(count),
                   *funcs, out, trace, trace_rows > 0, err)
        except ValueError as exc:
            if isinstance(exc, IllegalAnswer) or not err[0]:
                raise  # a policy's answer or exception: kernel_errors words it
            raise SimcardsError(error_text(err)) from None  # the kernel's own limits, recorded in err
    return out, (trace if trace_rows > 0 else None)


FORMATS = {"play": format_card}  # how the error channel shows an answer


def error_text(err) -> str:
    """One line for a limit the kernel recorded in ``err`` before raising."""
    code = int(err[0])
    if code == rules.E_REDEALS:
        return f"spades: more than {rules.MAX_REDEALS} redeals in a row (misdeal_condition too strict?)"
    return "spades: kernel error"
