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


def format_trace(events, variant) -> str:
    """Text of a record's trace events (``rules.trace_record``: ``rules.EVENTS`` named tuples)."""
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
    for ev in events:
        kind = ev.kind
        if kind == "hand":
            lines.append("")
            lines.append(f"== Game {game}, hand {ev.hand_in_game + 1}: dealer {seat(ev.dealer)}")
        elif kind == "deal":
            lines.append(f"  {seat(ev.seat)}: {_hand_text(ev.hand)}")
        elif kind == "redeal":
            who = "automatic" if ev.caller < 0 else f"called by {seat(ev.caller)}"
            lines.append(f"  redeal {ev.number} ({who}); new hands:")
        elif kind == "bid":
            bids[ev.seat] = bid_name(ev.bid)
            lines.append(f"  bid {seat(ev.seat)}: {bid_name(ev.bid)}" + (" (blind)" if ev.blind else ""))
        elif kind == "play":
            if ev.pos == 0:
                trick_cards = []
            trick_cards.append(f"{SEAT_NAMES[ev.seat]} {format_card(ev.card)}")
        elif kind == "trick":
            w = ev.winner
            won[w] += 1
            captured[w] += [t.split()[1] for t in trick_cards if t.split()[1] in variant.prize_jacks]
            lines.append(f"  trick {ev.trick + 1:2d}: {', '.join(trick_cards):<40s} -> {SEAT_NAMES[w]} "
                         f"({format_card(ev.card)})")
        elif kind == "score":
            s = ev.seat
            pen = f", bag penalty {ev.penalty}" if ev.penalty else ""
            jacks = f", captured {' '.join(captured[s])}" if captured[s] else ""
            lines.append(f"  score {seat(s)}: bid {bids.get(s, '?')}, {won[s]} tricks{jacks}: "
                         f"{ev.delta:+d} -> {ev.score} (bags {ev.bags}{pen})")
            if s == n - 1:
                won = [0] * n
                captured = [[] for _ in range(n)]
        elif kind == "game":
            result = f"won by {seat(ev.winner)}" if ev.winner >= 0 else "unfinished (max_hands)"
            lines.append(f"== Game {ev.game + 1} {result} after {ev.hands} hands")
            game = ev.game + 2
        elif kind == "tournament":
            result = f"won by {seat(ev.winner)}" if ev.winner >= 0 else "unfinished"
            lines.append(f"== Tournament {result} after {ev.games} games")
    return "\n".join(lines)


def replay(unit: str, variant, table, seed: int, index: int) -> str:
    """Readable trace of record ``index`` of ``seed``."""
    _, events = rules.trace_record(unit, variant, table, seed, index)
    return format_trace(events, variant)
