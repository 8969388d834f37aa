"""Spades for ``simcards play``: legal moves, the table as the seat sees it, history lines."""
from __future__ import annotations

from simcards.core.cards import cards_of, format_card, parse_cards
from simcards.core.errors import SimcardsError
from simcards.core.game import OddsRequest
from simcards.core.interactive import Adapter, Choices, Move
from simcards.games.spades import policies as P
from simcards.games.spades.replay import SEAT_NAMES, bid_text, hand_text

SEATS = {"blind": (0, P.V_SEAT), "bid": (0, P.V_SEAT), "exchange": (0, P.V_SEAT), "play": (0, P.V_SEAT),
         "misdeal": (0, P.V_SEAT)}


def card_moves(mask: int) -> list[Move]:
    """One move per card of ``mask``, spades first, high to low (as the hand is shown)."""
    cards = cards_of(int(mask))
    key = lambda c: (-(3 if c >= 52 else c // 13), -c)  # noqa: E731
    return [Move(c, format_card(c)) for c in sorted(cards, key=key)]


def exchange_parser(legal: int, count: int):
    def parse(text: str) -> int:
        try:
            cards = parse_cards(text)
        except SimcardsError as exc:
            raise SimcardsError(f"{exc}; give {count} cards of your hand, e.g. {format_card(cards_of(legal)[0])}")
        if len(set(cards)) != count:
            raise SimcardsError(f"give exactly {count} different cards, got {len(set(cards))}")
        mask = 0
        for c in cards:
            if not legal >> c & 1:
                raise SimcardsError(f"you do not hold {format_card(c)}")
            mask |= 1 << c
        return mask
    return parse


class SpadesAdapter(Adapter):
    seat_at = SEATS

    def seat_names(self, variant):
        return list(SEAT_NAMES)

    def choices(self, pending, variant):
        v = pending.args[0]
        legal = int(v[P.V_LEGAL]) & (2**64 - 1)
        d = pending.decision
        if d == "blind":
            return Choices([Move(0, "look", ("l", "no")), Move(1, "BN", ("blind", "yes"))],
                           "Bid Blind Nil before looking at your cards?")
        if d == "bid":
            moves = [Move(b, bid_text(b, 0), ("nil", "0") if b == 0 else ()) for b in range(14) if legal >> b & 1]
            return Choices(moves, "Your bid (a number, or Nil):", numbered=False)
        if d == "exchange":
            k = int(v[P.V_COUNT])
            return Choices([], f"Give {k} card{'s' if k > 1 else ''} to your partner (e.g. "
                               f"{' '.join(format_card(c) for c in cards_of(legal)[:k])}):",
                           exchange_parser(legal, k))
        if d == "play":
            return Choices(card_moves(legal), "Your card:")
        return Choices([Move(0, "keep", ("no",)), Move(1, "redeal", ("yes",))], "Call a redeal?")

    def screen(self, pending, variant, names):
        v = pending.args[0]
        seat = pending.seat
        lines = [f"Dealer {names[int(v[P.V_DEALER])]}   Score NS {v[P.V_SCORE]} ({v[P.V_BAGS]} bags), "
                 f"EW {v[P.V_SCORE + 1]} ({v[P.V_BAGS + 1]} bags)   target {v[P.V_TARGET]}"]
        bids = []
        for s in range(4):
            b = int(v[P.V_BID + s])
            bids.append(f"{names[s]} {'-' if b < 0 else bid_text(b, int(v[P.V_BLIND + s]))}")
        lines.append("Bids:   " + "  ".join(bids))
        if pending.decision == "play":
            lines.append(f"Tricks: " + "  ".join(f"{names[s]} {v[P.V_TRICKS + s]}" for s in range(4))
                         + f"   (trick {v[P.V_TRICK] + 1} of 13{', spades broken' if v[P.V_BROKEN] else ''})")
            leader = int(v[P.V_LEADER])
            table = [f"{names[(leader + i) % 4]} {format_card(int(v[P.V_TABLE + (leader + i) % 4]))}"
                     for i in range(int(v[P.V_NPLAYED]))]
            lines.append("Table:  " + ("  ".join(table) if table else "(you lead)"))
        if v[P.V_GIVEN] or v[P.V_RECEIVED]:
            lines.append(f"Exchange: gave {' '.join(map(format_card, cards_of(int(v[P.V_GIVEN]))))}, "
                         f"received {' '.join(map(format_card, cards_of(int(v[P.V_RECEIVED]))))}")
        hand = int(v[P.V_HAND]) & (2**64 - 1)
        lines.append(f"Your hand ({names[seat]}): " + (hand_text(hand) if hand else "(not looked at yet)"))
        return "\n".join(lines)

    def describe(self, entry, variant, names):
        who, d, a = names[entry.seat], entry.decision, entry.answer
        if d == "play":
            return f"{who} plays {format_card(a)}"
        if d == "bid":
            return f"{who} bids {bid_text(a, 0)}"
        if d == "blind":
            return f"{who} bids Blind Nil" if a else f"{who} looks at the cards"
        if d == "exchange":
            return f"{who} passes {' '.join(map(format_card, cards_of(a)))}"
        return f"{who} {'calls a redeal' if a else 'keeps the hand'}"

    def odds_request(self, pending, variant):
        if pending.decision != "bid":
            return None
        v = pending.args[0]
        bids = {s: bid_text(int(v[P.V_BID + s]), int(v[P.V_BLIND + s])) for s in range(4) if v[P.V_BID + s] >= 0}
        return OddsRequest(hand=tuple(cards_of(int(v[P.V_HAND]) & (2**64 - 1))), seat=pending.seat,
                           dealer=int(v[P.V_DEALER]), bids=bids,
                           scores=(int(v[P.V_SCORE]), int(v[P.V_SCORE + 1])))


ADAPTER = SpadesAdapter()
