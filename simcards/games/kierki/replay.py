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
    """The used rows of a trace buffer."""
    return trace[1:trace[0, 0] + 1]


def run_trace(unit, variant, table, seed, index):
    """(record, events) of record ``index`` with its full trace."""
    buf = R.trace_buffer(variant, unit)
    rec = R.run_records(unit, variant, table, seed, index, 1, trace=buf)[0]
    return rec, trace_events(buf)


def format_events(events: np.ndarray) -> list[str]:
    lines: list[str] = []
    totals = np.zeros(4, np.int64)
    trick: list[str] = []
    deal_type = 0
    for ev, a, b, c, d, _ in events:
        if ev == R.EV_DEAL:
            deal_type = b
            first = f", {SEATS[d]} leads" if d >= 0 else ""
            lines.append("")
            lines.append(f"Deal {a}: {DEAL_TYPES[b]}, dealer {SEATS[c]}{first}")
        elif ev == R.EV_HAND:
            lines.append(f"  {SEATS[a]}  {format_hand(b)}")
        elif ev == R.EV_TRUMP:
            seen = " ".join(format_card(x) for x in cards_of(int(c)))
            what = "no trumps" if b < 0 else f"trumps {SUIT_NAMES[b]}"
            lines.append(f"  {SEATS[a]} sees [{seen}] and announces {what}")
        elif ev == R.EV_PLAY:
            if deal_type == R.LOTTERY:
                lines.append(f"  turn {c + 1}: {SEATS[a]} plays {format_card(b)}")
            else:
                trick.append(f"{SEATS[a]} {format_card(b)}")
        elif ev == R.EV_PASS:
            lines.append(f"  turn {b + 1}: {SEATS[a]} passes")
        elif ev == R.EV_TRICK:
            lines.append(f"  trick {a:2d}: {', '.join(trick)}  -> {SEATS[b]} {c:+d}")
            trick = []
        elif ev == R.EV_OUT:
            lines.append(f"  {SEATS[a]} is out, place {b}: {c:+d}")
        elif ev == R.EV_EARLY:
            lines.append(f"  early stop after trick {a}: every penalty card is taken")
        elif ev == R.EV_SCORE:
            pts = np.array([a, b, c, d])
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
