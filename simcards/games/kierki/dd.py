"""Double-dummy analysis of Kierki's trump deals (docs/double-dummy.md).

Only the trump deals (odgrywka, rules 3.1-3.4) are trick races; the negative deals and the
lottery are not. Each player is measured alone against the other three together (the
paranoid bound). Trick rules: follow suit; the trump obligation of the variant
(``none``, ``must_trump``, ``must_overtrump``); no lead restriction. A trump deal is one
``deal`` record with ``deal_type = trumps``, regenerated from seed and index by the
game's own kernel trace, as ``replay`` does.
"""
from __future__ import annotations

import numpy as np

from simcards.core import dd, dd_report
from simcards.core.cards import SUIT_MASKS
from simcards.core.errors import SimcardsError
from simcards.core.game import DoubleDummySupport
from simcards.games.kierki import rules as R
from simcards.games.kierki.replay import SEATS, format_hand, replay, run_trace

SIDES = dd_report.Sides(((0,), (1,), (2,), (3,)), tuple(SEATS), ("North", "East", "South", "West"))
OBLIGATIONS = {"none": dd.OBLIGE_NONE, "must_trump": dd.OBLIGE_TRUMP, "must_overtrump": dd.OBLIGE_OVERTRUMP}


def solver_rules(variant, trump: int):
    """(rules row, suit masks) of a trump deal with trump suit ``trump`` (-1: no trumps)."""
    return dd.rules_row(4, trump, obligation=OBLIGATIONS[variant.trump_obligation]), SUIT_MASKS


def _check(variant, unit):
    if (unit or "deal") != "deal" or variant.deal_type != "trumps":
        raise SimcardsError("kierki double dummy covers the trump deals: use --deal N --deal-type trumps")


def played_deal(variant, table, seed: int, index: int) -> dict:
    """Trump deal ``index`` as the bots played it: hands, trump suit, leader, cards, winners."""
    _, events = run_trace("deal", variant, table, seed, index)
    hands, cards, winners = [0, 0, 0, 0], [], []
    trump, leader, dealer = -1, -1, -1
    for ev, a, b, c, d, _ in dd_report.event_rows(events):
        if ev == R.EV_DEAL:
            dealer = c
        elif ev == R.EV_TRUMP:
            trump = b
        elif ev == R.EV_PLAY:
            if leader < 0:
                leader = a
            hands[a] |= 1 << b
            cards.append(b)
        elif ev == R.EV_TRICK:
            winners.append(b)
    return {"hands": hands, "leader": leader, "cards": cards, "winners": winners, "trump": trump, "dealer": dealer}


def analyse(variant, table, *, seed=None, index=None, hands=None, from_trick: int = 1) -> str:
    """The text of ``simcards dd kierki --deal-type trumps``."""
    _check(variant, "deal")
    if hands is not None:
        raise SimcardsError("kierki --hand: the trump suit is chosen in play; analyse a simulated deal with --deal")
    deal = played_deal(variant, table, seed, index)
    row, masks = solver_rules(variant, deal["trump"])
    trump = "no trumps" if deal["trump"] < 0 else "trumps " + "CDHS"[deal["trump"]]
    head = (f"Kierki trump deal, seed {seed}, deal {index}: dealer {SIDES.seat_names[deal['dealer']]}, {trump}, "
            f"first lead {SIDES.seat_names[deal['leader']]}")
    won = [deal["winners"].count(s) for s in range(4)]
    return dd_report.analysis_text(head, deal, row, masks, SIDES, format_hand, from_trick=from_trick,
                                   result_line="Bots' play: tricks won " + ", ".join(
                                       f"{SEATS[s]} {won[s]}" for s in range(4)), paranoid_note=True)


def replay_dd(unit, variant, table, seed: int, index: int, from_trick: int = 1) -> str:
    """``replay --dd`` of a trump deal: the replay, then every card that cost its player a trick."""
    _check(variant, unit)
    deal = played_deal(variant, table, seed, index)
    row, masks = solver_rules(variant, deal["trump"])
    return dd_report.marked_text(replay(unit, variant, table, seed, index), deal, row, masks, SIDES,
                                 from_trick=from_trick)


COLUMNS = dd_report.seat_columns(4, "alone against the other three (paranoid bound)")


def dd_records(unit, variant, table, seed: int, start: int, count: int) -> np.ndarray:
    """The ``COLUMNS`` of trump deals ``start .. start+count-1`` (``run --records dd``)."""
    _check(variant, unit)

    def deals():
        for i in range(count):
            deal = played_deal(variant, table, seed, start + i)
            yield (deal, *solver_rules(variant, deal["trump"]))

    return dd_report.seat_records(deals(), SIDES, 4)


def dd_tally(unit, df, variant):
    """Mean double-dummy tricks and trick loss per seat; the trump chooser's double-dummy
    tricks against the tricks he took."""
    rows = dd_report.seat_tally(df, 4)
    chooser = df["chooser"].to_numpy()
    at = np.arange(len(df))
    dd_tricks = np.stack([df[f"dd_tricks_{s}"].to_numpy() for s in range(4)], axis=1)[at, chooser]
    taken = np.stack([df[f"tricks_{s}"].to_numpy() for s in range(4)], axis=1)[at, chooser]
    rows.mean("dd_chooser_tricks", "chooser", dd_tricks)
    rows.mean("chooser_tricks", "chooser", taken)
    rows.mean("chooser_minus_dd", "chooser", taken - dd_tricks)
    rows.rate("chooser_below_dd", "chooser", taken < dd_tricks)
    return rows.frame()


SUPPORT = DoubleDummySupport(analyse=analyse, replay=replay_dd, units=("deal",), columns=COLUMNS,
                             records=dd_records, tally=dd_tally, deal=played_deal)

