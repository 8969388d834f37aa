"""Seep for ``simcards play``: the bid, the numbered list of captures, builds and throws, the floor;
hints: ``simcards bid seep`` at the bid, rollouts on sampled worlds at a move (``worlds.py``)."""
from __future__ import annotations

from types import SimpleNamespace

from simcards.core.cards import cards_of, format_card
from simcards.core.game import OddsRequest
from simcards.core.interactive import Adapter, Choices, Move
from simcards.games.seep.cards import VAL
from simcards.games.seep.layout import (
    ADD, BREAK, BUILD, CAPTURE, S_BID, S_BIDDER, S_D, S_DEALER, S_HAND, S_MIN_BID, S_NCARDS, S_NPLAYERS, S_PILE,
    S_PLAY, S_SEAT, S_SWEEP_PTS,
)
from simcards.games.seep.replay import cards_text, floor_text, move_text


def _short(kind, card, target, loose, house) -> str:
    """A move without the state before it (history lines): ``CAPTURE 9S: H9 + 4D 5C``."""
    c = format_card(card)
    if kind == CAPTURE:
        items = ([f"H{target}"] if house else []) + ([cards_text(loose)] if loose else [])
        return f"CAPTURE {c}: " + " + ".join(items)
    if kind in (BUILD, ADD):
        head = f"BUILD {target}" if kind == BUILD else f"ADD H{target}"
        return f"{head}: {c}" + (f" + {cards_text(loose)}" if loose else "")
    if kind == BREAK:
        return f"BREAK H{target - VAL[card]}->{target}: {c}"
    return f"THROW {c}"


def _as_move(row) -> SimpleNamespace:
    """A legal-move row of the policy's table with the field names of a ``legal`` trace event
    (what ``replay.move_text`` reads)."""
    kind, card, target, loose, house = (int(x) for x in row[:5])
    return SimpleNamespace(move=kind, card=card, target=target, loose=loose, house=house)


class SeepAdapter(Adapter):
    hints_cover = "hints cover the bid and every move (captures, builds, adds, breaks, throws)"
    seat_at = {"bid": (0, S_SEAT), "move": (0, S_SEAT)}
    log_rows = {"move": 1}

    def seat_names(self, variant):
        return [f"P{s}" for s in range(4)]

    def choices(self, pending, variant):
        v = pending.args[0]
        hand = int(v[S_HAND])
        if pending.decision == "bid":
            held = {int(VAL[c]) for c in cards_of(hand)}
            moves = [Move(b, str(b)) for b in range(int(v[S_MIN_BID]), 14) if b in held]
            return Choices(moves, "Your bid (a house value you hold):", numbered=False)
        table, n = pending.args[1], pending.args[2]
        moves, by_card = [], {}
        for i in range(n):
            label = move_text(v, _as_move(table[i])).replace("\u2192", "->")
            moves.append(Move(i, label))
            by_card.setdefault(format_card(int(table[i][1])), []).append(i)
        for card, rows in by_card.items():  # a card with a single move may be typed alone
            if len(rows) == 1:
                moves[rows[0]].keys = (card,)
        return Choices(moves, "Your move (its number, or a card that has a single move):")

    def screen(self, pending, variant, names):
        v = pending.args[0]
        n = int(v[S_NPLAYERS])
        teams = "team A = P0+P2, B = P1+P3" if n == 4 else "P0 against P1"
        bid = int(v[S_BID])
        lines = [f"Dealer {names[int(v[S_DEALER])]}, bidder {names[int(v[S_BIDDER])]}"
                 + (f" bid {bid}" if bid else "") + f"   ({teams}; running difference D = {int(v[S_D]):+d})"]
        if pending.decision == "move":
            lines.append(f"Play {int(v[S_PLAY])} of 48   cards in hand: "
                         + "  ".join(f"{names[s]} {int(v[S_NCARDS + s])}" for s in range(n)))
            lines.append(f"Captured: A {len(cards_of(int(v[S_PILE])))} cards (+{int(v[S_SWEEP_PTS])} sweeps), "
                         f"B {len(cards_of(int(v[S_PILE + 1])))} cards (+{int(v[S_SWEEP_PTS + 1])} sweeps)")
            lines.append("Floor:  " + floor_text(v))
        lines.append(f"Your hand ({names[pending.seat]}): " + cards_text(int(v[S_HAND])))
        return "\n".join(lines)

    def describe(self, entry, variant, names):
        if entry.decision == "bid":
            return f"{names[entry.seat]} bids {entry.answer}"
        return f"{names[entry.seat]} {_short(*entry.row[:5])}"

    def odds_request(self, pending, variant):
        if pending.decision != "bid":
            return None
        return OddsRequest(hand=tuple(cards_of(int(pending.args[0][S_HAND]))))

    def card_worlds(self, session, pending):
        from simcards.games.seep.worlds import seep_worlds

        return seep_worlds(session, pending)


ADAPTER = SeepAdapter()
