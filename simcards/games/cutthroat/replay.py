"""Readable text trace of one Cutthroat record (hands, bids, every trick, the scores)."""
from __future__ import annotations

import numpy as np

from simcards.core.cards import cards_of, format_card
from simcards.games.cutthroat import rules
from simcards.games.cutthroat.layout import bid_name
from simcards.games.cutthroat.variant import form_of

SEAT_NAMES = "ABCDE"


def _hand_text(mask: int) -> str:
    """Cards by suit, spades (and jokers) first, high to low."""
    cards = cards_of(mask)
    groups = []
    for suit_cards in ([c for c in cards if c >= 39], [c for c in cards if 26 <= c < 39],
                       [c for c in cards if 13 <= c < 26], [c for c in cards if c < 13]):
        groups.append(" ".join(format_card(c) for c in sorted(suit_cards, reverse=True)) or "-")
    return " | ".join(groups)


def format_trace(trace: np.ndarray, variant) -> str:
    """Text of a kernel trace (rows [event, a, b, c, d, e])."""
    n = variant.num_players
    f = form_of(variant)
    lines = [f"Cutthroat Spades, {n} players" + (f", {variant.jokers} jokers" if variant.jokers else "")
             + f", {f.tricks} tricks per hand"]
    trick_cards: list[str] = []
    bids: dict[int, str] = {}
    won = [0] * n
    captured: list[list[str]] = [[] for _ in range(n)]
    seat = lambda s: f"{SEAT_NAMES[s]}(seat {s})"  # noqa: E731
    game = 1  # the hand events do not carry the game number: count the game events
    for ev, a, b, c, d, e in trace.tolist():
        if ev == rules.EV_HAND:
            lines.append("")
            lines.append(f"== Game {game}, hand {a + 1}: dealer {seat(b)}")
        elif ev == rules.EV_DEAL:
            lines.append(f"  {seat(a)}: {_hand_text(b)}")
        elif ev == rules.EV_REDEAL:
            who = "automatic" if a < 0 else f"called by {seat(a)}"
            lines.append(f"  redeal {b} ({who}); new hands:")
        elif ev == rules.EV_BID:
            bids[a] = bid_name(b)
            lines.append(f"  bid {seat(a)}: {bid_name(b)}" + (" (blind)" if c else ""))
        elif ev == rules.EV_PLAY:
            if d == 0:
                trick_cards = []
            trick_cards.append(f"{SEAT_NAMES[a]} {format_card(b)}")
        elif ev == rules.EV_TRICK:
            won[a] += 1
            captured[a] += [t.split()[1] for t in trick_cards if t.split()[1] in variant.prize_jacks]
            lines.append(f"  trick {b + 1:2d}: {', '.join(trick_cards):<40s} -> {SEAT_NAMES[a]} ({format_card(c)})")
        elif ev == rules.EV_SCORE:
            pen = f", bag penalty {e}" if e else ""
            jacks = f", captured {' '.join(captured[a])}" if captured[a] else ""
            lines.append(f"  score {seat(a)}: bid {bids.get(a, '?')}, {won[a]} tricks{jacks}: "
                         f"{b:+d} -> {c} (bags {d}{pen})")
            if a == n - 1:
                won = [0] * n
                captured = [[] for _ in range(n)]
        elif ev == rules.EV_GAME:
            result = f"won by {seat(b)}" if b >= 0 else "unfinished (max_hands)"
            lines.append(f"== Game {a + 1} {result} after {c} hands")
            game = a + 2
        elif ev == rules.EV_TOURNAMENT:
            result = f"won by {seat(a)}" if a >= 0 else "unfinished"
            lines.append(f"== Tournament {result} after {b} games")
    return "\n".join(lines)


def replay(unit: str, variant, table, seed: int, index: int) -> str:
    """Readable trace of record ``index`` of ``seed``."""
    _, trace = rules.trace_record(unit, variant, table, seed, index)
    return format_trace(trace, variant)
