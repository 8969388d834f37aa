"""Readable traces of one record: hands, bids, exchange, all 13 tricks, the score."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from simcards.core.cards import cards_of, format_card
from simcards.games.spades import rules
from simcards.games.spades.kernel import run_kernel

SEAT_NAMES = ("North", "East", "South", "West")
TEAM_NAMES = ("NS", "EW")


def hand_text(mask: int) -> str:
    """Cards of a mask grouped by suit, high to low: ``S: A K 3  H: ...``."""
    cards = cards_of(int(mask))
    parts = []
    for suit, name in ((3, "S"), (2, "H"), (1, "D"), (0, "C")):
        in_suit = [c for c in cards if (c >= 52 and suit == 3) or (c < 52 and c // 13 == suit)]
        text = " ".join(format_card(c)[:-1] if c < 52 else format_card(c) for c in sorted(in_suit, reverse=True))
        parts.append(f"{name}: {text or '-'}")
    return "  ".join(parts)


def bid_text(bid: int, blind: int) -> str:
    if bid == 0:
        return "BN" if blind else "Nil"
    return str(bid)


@dataclass
class TracedHand:
    """One hand as the kernel's trace events tell it (``rules.EVENTS``)."""

    dealer: int
    redeals: int
    hands_before: int  # hands already played in the game
    scores: list  # per team, before the hand
    bags: list  # per team, before the hand
    hands: list = field(default_factory=lambda: [0] * 4)  # masks as dealt (before the exchange)
    bids: list = field(default_factory=lambda: [-1] * 4)
    blinds: list = field(default_factory=lambda: [0] * 4)
    given: list = field(default_factory=lambda: [0] * 4)  # cards each seat passed
    exchange: list = field(default_factory=lambda: [0, 0])  # cards passed each way per team
    first_leader: int = -1
    plays: list = field(default_factory=list)  # cards in play order
    leaders: list = field(default_factory=list)  # per trick
    winners: list = field(default_factory=list)  # per trick


def traced_hands(events) -> list[TracedHand]:
    """Group a record's trace events into its hands (the one replay reader of Spades)."""
    hands: list[TracedHand] = []
    for ev in events:
        if ev.kind == "hand":
            hands.append(TracedHand(ev.dealer, ev.redeals, ev.hands_before, [0, 0], [0, 0]))
            continue
        h = hands[-1]
        if ev.kind == "scores":
            h.scores, h.bags = [ev.score0, ev.score1], [ev.bags0, ev.bags1]
        elif ev.kind == "dealt":
            h.hands[ev.seat] = ev.hand
        elif ev.kind == "bid":
            h.bids[ev.seat], h.blinds[ev.seat] = ev.bid, ev.blind
        elif ev.kind == "give":
            h.given[ev.seat] = ev.cards
        elif ev.kind == "exchange":
            h.exchange = [ev.count0, ev.count1]
        elif ev.kind == "lead":
            h.first_leader = ev.seat
        elif ev.kind == "play":
            h.plays.append(ev.card)
        elif ev.kind == "trick":
            h.leaders.append(ev.leader)
            h.winners.append(ev.winner)
    return hands


def format_hand_trace(t: TracedHand, rec_row) -> str:
    """One traced hand as text (``rec_row``: its deal columns)."""
    r = {name: int(v) for (name, _), v in zip(rules.DEAL_COLUMNS, rec_row)}
    dealer = t.dealer
    lines = [f"Dealer: {SEAT_NAMES[dealer]} ({dealer})"
             + (f"   redeals: {t.redeals}" if t.redeals else "")
             + f"   scores before: NS {t.scores[0]} ({t.bags[0]} bags),"
             f" EW {t.scores[1]} ({t.bags[1]} bags)"]
    lines.append("Hands as dealt:")
    for s in range(4):
        lines.append(f"  {SEAT_NAMES[s]:5} {hand_text(t.hands[s])}")
    order = [(dealer + 1 + i) % 4 for i in range(4)]
    lines.append("Bids: " + ", ".join(f"{SEAT_NAMES[s]} {bid_text(t.bids[s], t.blinds[s])}" for s in order))
    for team in range(2):
        k = t.exchange[team]
        if k:
            a, b = team, team + 2
            lines.append(f"Exchange {TEAM_NAMES[team]} ({k} cards): "
                         f"{SEAT_NAMES[a]} gives {' '.join(format_card(c) for c in cards_of(t.given[a]))}, "
                         f"{SEAT_NAMES[b]} gives {' '.join(format_card(c) for c in cards_of(t.given[b]))}")
    lines.append("Tricks:")
    for k in range(13):
        leader = t.leaders[k]
        cards = t.plays[4 * k: 4 * k + 4]
        played = "  ".join(f"{SEAT_NAMES[(leader + i) % 4][0]} {format_card(c)}" for i, c in enumerate(cards))
        lines.append(f"  {k + 1:2}. {played:32} won by {SEAT_NAMES[t.winners[k]]}")
    lines.append("Tricks won: " + ", ".join(f"{SEAT_NAMES[s]} {r[f'tricks{s}']}" for s in range(4)))
    for team in range(2):
        made = {1: "made", 0: "set", -1: "no contract"}[r[f"made{team}"]]
        nils = [f"{SEAT_NAMES[s]} {'made' if r[f'nil{s}'] == 1 else 'failed'} "
                f"{'Blind Nil' if r[f'blind{s}'] else 'Nil'}" for s in (team, team + 2) if r[f"nil{s}"] >= 0]
        lines.append(f"{TEAM_NAMES[team]}: contract {r[f'contract{team}']} {made}, won {r[f'won{team}']}"
                     + (f", {'; '.join(nils)}" if nils else "")
                     + f"; {r[f'points{team}']:+d} points, {r[f'bags{team}']} bags"
                     + (f", {r[f'penalties{team}']} bag penalties" if r[f"penalties{team}"] else "")
                     + f" -> score {r[f'score{team}']}, bag counter {r[f'bag_count{team}']}")
    return "\n".join(lines)


def trace_record(unit: str, variant, table, seed: int, index: int, fixed=None):
    """(record row, list of (traced hand, deal row) per hand) of record ``index``; ``fixed``:
    cards each seat is dealt (a given deal, ``replay --pbn``), the rest dealt from the seed."""
    out, events = run_kernel(unit, variant, table, seed, index, 1, trace=True, fixed=fixed)
    hands = traced_hands(events)
    if unit != "game":
        return out[0], [(hands[0], out[0])]
    return out[0], [(h, deal_row_from_trace(variant, h)) for h in hands]


def deal_row_from_trace(variant, hand: TracedHand) -> np.ndarray:
    """Recompute the deal columns of a traced hand with the referee (for game replays)."""
    from simcards.games.spades.referee import check_trace

    return check_trace(variant, hand)


def replay(unit: str, variant, table, seed: int, index: int, fixed=None, title: str | None = None) -> str:
    """Text trace of record ``index`` of ``seed``: every hand, bid, exchange, trick and score;
    ``fixed``/``title``: a given deal (cards per seat) and the heading that names it."""
    unit = unit or "deal"
    record, hands = trace_record(unit, variant, table, seed, index, fixed)
    head = title or f"Spades, seed {seed}, {unit} {index}"
    if variant.changed() and title is None:
        head += "  (" + ", ".join(f"{k}={v}" for k, v in variant.changed().items()) + ")"
    blocks = [head]
    for h, (hand, deal_row) in enumerate(hands):
        if unit == "game":
            blocks.append(f"\n=== Hand {h + 1} ===")
        blocks.append(format_hand_trace(hand, deal_row))
    if unit == "game":
        r = {name: int(v) for (name, _), v in zip(rules.GAME_COLUMNS, record)}
        who = {0: "NS win", 1: "EW win", -1: "unfinished (max_hands)"}[r["winner"]]
        blocks.append(f"\nResult: {who}; {r['hands']} hands; final score NS {r['score0']}, EW {r['score1']}"
                      + (f"; games NS {r['games_won0']} - EW {r['games_won1']}" if r["games"] > 1 else ""))
    return "\n".join(blocks)
