"""Cutthroat Spades for ``simcards play``: blind offers, bids, cards, the table as the seat sees it."""
from __future__ import annotations

from simcards.core.cards import cards_of, format_card
from simcards.core.game import OddsRequest
from simcards.core.interactive import Adapter, Choices, Move
from simcards.games.cutthroat import layout as L
from simcards.games.cutthroat.replay import SEAT_NAMES, _hand_text

U64 = 2**64 - 1


def _bid_moves(legal: int) -> list[Move]:
    codes = [c for c in range(64) if legal >> c & 1]
    return [Move(c, L.bid_name(c), ("nil", "0") if c == L.NIL else ()) for c in codes]


def _card_key(c: int):
    return (-(3 if c >= 39 else c // 13), -c)  # spades (and jokers) first, high to low


class CutthroatAdapter(Adapter):
    seat_at = {name: (0, L.V_SEAT) for name in ("blind", "bid", "play", "redeal")}

    def seat_names(self, variant):
        return list(SEAT_NAMES)

    def choices(self, pending, variant):
        view, masks = pending.args[:2]
        legal = int(masks[L.M_LEGAL]) & U64
        d = pending.decision
        if d == "blind":
            return Choices([Move(L.DECLINE, "look", ("l", "no"))] + _bid_moves(legal),
                           "Bid blind before looking at your cards? (look, or a blind bid)", numbered=False)
        if d == "bid":
            return Choices(_bid_moves(legal), "Your bid:", numbered=False)
        if d == "play":
            return Choices([Move(c, format_card(c)) for c in sorted(cards_of(legal), key=_card_key)], "Your card:")
        return Choices([Move(0, "keep", ("no",)), Move(1, "redeal", ("yes",))], "Call a redeal?")

    def screen(self, pending, variant, names):
        v, masks = pending.args[:2]
        n = int(v[L.V_N])
        lines = [f"Dealer {names[int(v[L.V_DEALER])]}   hand {int(v[L.V_HAND_NO]) + 1}   target {int(v[L.V_TARGET])}",
                 "Scores: " + "  ".join(f"{names[s]} {int(v[L.V_SCORE + s])} ({int(v[L.V_BAGS + s])} bags)"
                                        for s in range(n)),
                 "Bids:   " + "  ".join(f"{names[s]} {'-' if v[L.V_BID + s] < 0 else L.bid_name(int(v[L.V_BID + s]))}"
                                        for s in range(n))]
        if pending.decision == "play":
            lines.append("Tricks: " + "  ".join(f"{names[s]} {int(v[L.V_TRICKS + s])}" for s in range(n))
                         + f"   (trick {int(v[L.V_TRICK]) + 1} of {int(v[L.V_T])}"
                         + (", spades broken)" if v[L.V_BROKEN] else ")"))
            played = [f"{names[int(v[L.V_TRICK_SEAT + i])]} {format_card(int(v[L.V_TRICK_CARD + i]))}"
                      for i in range(int(v[L.V_NPLAYED]))]
            lines.append("Table:  " + ("  ".join(played) if played else "(you lead)"))
        hand = int(masks[L.M_HAND]) & U64
        lines.append(f"Your hand ({names[pending.seat]}): " + (_hand_text(hand) if hand else "(not looked at yet)"))
        return "\n".join(lines)

    def describe(self, entry, variant, names):
        who, d, a = names[entry.seat], entry.decision, entry.answer
        if d == "play":
            return f"{who} plays {format_card(a)}"
        if d == "bid":
            return f"{who} bids {L.bid_name(a)}"
        if d == "blind":
            return f"{who} bids {L.bid_name(a)} blind" if a >= 0 else ""
        return f"{who} {'calls a redeal' if a else 'keeps the hand'}"

    def odds_request(self, pending, variant):
        if pending.decision not in ("bid", "blind"):
            return None
        v, masks = pending.args[:2]
        n = int(v[L.V_N])
        bids = {s: L.bid_name(int(v[L.V_BID + s])) for s in range(n) if v[L.V_BID + s] >= 0}
        hand = int(masks[L.M_HAND]) & U64
        return OddsRequest(hand=tuple(cards_of(hand)), seat=pending.seat, dealer=int(v[L.V_DEALER]), bids=bids,
                           scores=tuple(int(v[L.V_SCORE + s]) for s in range(n))
                           + tuple(int(v[L.V_BAGS + s]) for s in range(n)))


ADAPTER = CutthroatAdapter()
