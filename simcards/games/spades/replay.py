"""Readable traces of one record: hands, bids, exchange, all 13 tricks, the score."""
from __future__ import annotations

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


def format_hand_trace(trace_row, rec_row) -> str:
    """One traced hand as text (``trace_row``: ``rules.T_*`` layout; ``rec_row``: deal columns)."""
    t = [int(x) for x in trace_row]
    r = {name: int(v) for (name, _), v in zip(rules.DEAL_COLUMNS, rec_row)}
    dealer = t[rules.T_DEALER]
    lines = [f"Dealer: {SEAT_NAMES[dealer]} ({dealer})"
             + (f"   redeals: {t[rules.T_REDEALS]}" if t[rules.T_REDEALS] else "")
             + f"   scores before: NS {t[rules.T_SCORE_BEFORE]} ({t[rules.T_BAGS_BEFORE]} bags),"
             f" EW {t[rules.T_SCORE_BEFORE + 1]} ({t[rules.T_BAGS_BEFORE + 1]} bags)"]
    lines.append("Hands as dealt:")
    for s in range(4):
        lines.append(f"  {SEAT_NAMES[s]:5} {hand_text(t[rules.T_HANDS + s])}")
    order = [(dealer + 1 + i) % 4 for i in range(4)]
    lines.append("Bids: " + ", ".join(
        f"{SEAT_NAMES[s]} {bid_text(t[rules.T_BID + s], t[rules.T_BLIND + s])}" for s in order))
    for team in range(2):
        k = t[rules.T_EXCH + team]
        if k:
            a, b = team, team + 2
            lines.append(f"Exchange {TEAM_NAMES[team]} ({k} cards): "
                         f"{SEAT_NAMES[a]} gives {' '.join(format_card(c) for c in cards_of(t[rules.T_GIVE + a]))}, "
                         f"{SEAT_NAMES[b]} gives {' '.join(format_card(c) for c in cards_of(t[rules.T_GIVE + b]))}")
    lines.append("Tricks:")
    for k in range(13):
        leader = t[rules.T_LEADERS + k]
        cards = t[rules.T_PLAYS + 4 * k: rules.T_PLAYS + 4 * k + 4]
        played = "  ".join(f"{SEAT_NAMES[(leader + i) % 4][0]} {format_card(c)}" for i, c in enumerate(cards))
        lines.append(f"  {k + 1:2}. {played:32} won by {SEAT_NAMES[t[rules.T_WINNERS + k]]}")
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


def trace_record(unit: str, variant, table, seed: int, index: int):
    """(record row, list of (trace row, deal row) per hand) of record ``index``."""
    if unit != "game":
        out, trace = run_kernel(unit, variant, table, seed, index, 1, trace_rows=1)
        return out[0], [(trace[0], out[0])]
    rows = variant.max_hands * variant.match_wins
    out, trace = run_kernel("game", variant, table, seed, index, 1, trace_rows=rows)
    hands = int(out[0][rules.G_HANDS])
    return out[0], [(trace[h], deal_row_from_trace(variant, trace[h])) for h in range(min(hands, rows))]


def deal_row_from_trace(variant, trace_row) -> np.ndarray:
    """Recompute the deal columns of a traced hand with the referee (for game replays)."""
    from simcards.games.spades.referee import check_trace

    return check_trace(variant, trace_row)


def replay(unit: str, variant, table, seed: int, index: int) -> str:
    """Text trace of record ``index`` of ``seed``: every hand, bid, exchange, trick and score."""
    unit = unit or "deal"
    record, hands = trace_record(unit, variant, table, seed, index)
    head = f"Spades, seed {seed}, {unit} {index}"
    if variant.changed():
        head += "  (" + ", ".join(f"{k}={v}" for k, v in variant.changed().items()) + ")"
    blocks = [head]
    for h, (trace_row, deal_row) in enumerate(hands):
        if unit == "game":
            blocks.append(f"\n=== Hand {h + 1} ===")
        blocks.append(format_hand_trace(trace_row, deal_row))
    if unit == "game":
        r = {name: int(v) for (name, _), v in zip(rules.GAME_COLUMNS, record)}
        who = {0: "NS win", 1: "EW win", -1: "unfinished (max_hands)"}[r["winner"]]
        blocks.append(f"\nResult: {who}; {r['hands']} hands; final score NS {r['score0']}, EW {r['score1']}"
                      + (f"; games NS {r['games_won0']} - EW {r['games_won1']}" if r["games"] > 1 else ""))
    return "\n".join(blocks)
