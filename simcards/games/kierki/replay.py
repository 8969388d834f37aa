"""Readable text of one Kierki record, from the kernel's trace."""
from __future__ import annotations

import numpy as np

from simcards.core.cards import RANKS, cards_of, format_card
from simcards.games.kierki import rules as R
from simcards.games.kierki.variant import DEAL_TYPES

SEATS = "NESW"
SUIT_NAMES = {3: "S", 2: "H", 1: "D", 0: "C"}


def format_hand(mask: int) -> str:
    """``S: A K 6  H: ...`` in the canonical S, H, D, C order, high to low."""
    cards = cards_of(int(mask))
    parts = []
    for s in (3, 2, 1, 0):
        ranks = [RANKS[c % 13] for c in sorted(cards, reverse=True) if c // 13 == s]
        parts.append(f"{SUIT_NAMES[s]}: {' '.join(ranks) if ranks else '-'}")
    return "  ".join(parts)


def trace_events(trace: np.ndarray) -> np.ndarray:
    """The used rows ``[event, a .. e]`` of a trace buffer (ValueError if it overflowed)."""
    R.EVENTS.read(trace)  # checks the buffer held every event
    return R.EVENTS.rows(trace)


def run_trace(unit, variant, table, seed, index):
    """(record, named events ``R.EVENTS``) of record ``index`` with its full trace."""
    out, events = R.EVENTS.collect(lambda buf: R.run_records(unit, variant, table, seed, index, 1, trace=buf),
                                   rows=R.trace_buffer(variant, unit).shape[0])
    return out[0], events


def format_events(events) -> list[str]:
    """Text lines of a record's named trace events (``R.EVENTS.read``)."""
    lines: list[str] = []
    totals = np.zeros(4, np.int64)
    trick: list[str] = []
    deal_type = 0
    for ev in events:
        kind = ev.kind
        if kind == "deal":
            deal_type = ev.type
            first = f", {SEATS[ev.first]} leads" if ev.first >= 0 else ""
            lines.append("")
            lines.append(f"Deal {ev.deal_no}: {DEAL_TYPES[ev.type]}, dealer {SEATS[ev.dealer]}{first}")
        elif kind == "hand":
            lines.append(f"  {SEATS[ev.seat]}  {format_hand(ev.hand)}")
        elif kind == "trump":
            seen = " ".join(format_card(x) for x in cards_of(int(ev.seen)))
            what = "no trumps" if ev.suit < 0 else f"trumps {SUIT_NAMES[ev.suit]}"
            lines.append(f"  {SEATS[ev.chooser]} sees [{seen}] and announces {what}")
        elif kind == "play":
            if deal_type == R.LOTTERY:
                lines.append(f"  turn {ev.trick + 1}: {SEATS[ev.seat]} plays {format_card(ev.card)}")
            else:
                trick.append(f"{SEATS[ev.seat]} {format_card(ev.card)}")
        elif kind == "pass":
            lines.append(f"  turn {ev.turn + 1}: {SEATS[ev.seat]} passes")
        elif kind == "trick":
            lines.append(f"  trick {ev.trick:2d}: {', '.join(trick)}  -> {SEATS[ev.winner]} {ev.charge:+d}")
            trick = []
        elif kind == "out":
            lines.append(f"  {SEATS[ev.seat]} is out, place {ev.place}: {ev.award:+d}")
        elif kind == "early":
            lines.append(f"  early stop after trick {ev.tricks}: every penalty card is taken")
        elif kind == "score":
            pts = np.array([ev.s0, ev.s1, ev.s2, ev.s3])
            totals += pts
            lines.append("  scores: " + "  ".join(f"{SEATS[s]} {pts[s]:+d}" for s in range(4))
                         + "   totals: " + "  ".join(f"{SEATS[s]} {totals[s]:+d}" for s in range(4)))
    return lines


def replay(unit, variant, table, seed, index) -> str:
    """Text trace of game (or deal) ``index`` of ``seed``: hands, choices, every move, the scores."""
    rec, events = run_trace(unit, variant, table, seed, index)
    what = "game" if unit == "game" else "deal"
    head = [f"Kierki {what} {index} (seed {seed})"]
    if unit == "game":
        head.append(f"first dealer {SEATS[rec[R.G_FIRST_DEALER]]}")
    lines = head + format_events(events)
    if unit == "game":
        totals = rec[R.G_TOTAL:R.G_TOTAL + 4]
        best = totals.max()
        winners = ", ".join(SEATS[s] for s in range(4) if totals[s] == best)
        lines += ["", "Final: " + "  ".join(f"{SEATS[s]} {totals[s]:+d}" for s in range(4)) + f"   winner: {winners}"]
    return "\n".join(lines) + "\n"
