"""Spades for ``simcards play``: legal moves, the table as the seat sees it, history lines."""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from simcards.core.cards import cards_of, format_card, parse_cards
from simcards.core.errors import SimcardsError
from simcards.core.game import OddsRequest
from simcards.core.interactive import (
    HINT_SEED, Adapter, CardWorlds, Choices, Move, TrickState, bidding_block, dealt_sizes, plays_since, trick_worlds,
)
from simcards.games.spades import policies as P
from simcards.games.spades import rules
from simcards.games.spades.replay import SEAT_NAMES, bid_text, hand_text

U64 = 2**64 - 1

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


def _traced(session):
    """Trace rows of the record up to the pending decision (``Session.traced``)."""
    from simcards.games.spades.kernel import prepared, seats

    kernel, ncols = ((rules.simulate_deals, rules.N_DEAL_COLS) if session.unit == "deal"
                     else (rules.simulate_games, rules.N_GAME_COLS))
    out = np.zeros((1, ncols), np.int64)
    tab, funcs = prepared(session.variant), seats(session.script.table)
    return session.traced(lambda trace: kernel(tab, funcs, np.uint64(session.seed), np.int64(session.index),
                                               np.int64(1), out, trace, np.zeros(4, np.int64)))


def _public(pending) -> tuple:
    """What the seat sees of the play (a world must show it the same)."""
    v = pending.args[0]
    slots = (P.V_SEAT, P.V_HAND, P.V_LEGAL, P.V_TRICK, P.V_LEADER, P.V_NPLAYED, P.V_PLAYED, P.V_BROKEN)
    spans = (P.V_TABLE, P.V_BID, P.V_BLIND, P.V_TRICKS, P.V_VOIDS)
    return (pending.decision,) + tuple(int(v[i]) for i in slots) + tuple(int(v[i + s]) for i in spans for s in range(4))


def spades_worlds(session, pending) -> CardWorlds | None:
    """Card hints for Spades: the hand in play replayed in sampled worlds by the ``bid`` odds
    kernel (one deal given whole, the seat's bid forced, the scores of the hand)."""
    from simcards.core.deal import accept_all
    from simcards.games.spades.dd import solver_rules
    from simcards.games.spades.kernel import prepared, seats
    from simcards.games.spades.odds import COLUMNS, bid_name

    if pending.decision != "play":
        return None
    v = pending.args[0]
    if v[P.V_EXCHANGE] or v[P.V_EXCHANGE + 1]:
        raise SimcardsError("no card hints in a hand with a Nil card exchange (who holds a passed card is not "
                            "known from the play)")
    variant, seat = session.variant, pending.seat
    table = prepared(variant)
    rows = _traced(session)  # (it reruns the record: the log below is this record's)
    bids: dict[int, list[int]] = {}
    for e in bidding_block(session.history()):
        if e.decision in ("blind", "bid") and e.seat != seat:  # the seat's own bid is given to the kernel
            bids.setdefault(e.seat, []).append(e.answer)
    dealer = int(v[P.V_DEALER])
    option = P.BN_BIT if v[P.V_BLIND + seat] else int(v[P.V_BID + seat])
    f = {name: option * len(rules.ODDS_FIELDS) + i for i, name in enumerate(rules.ODDS_FIELDS)}
    scores = np.array([v[P.V_SCORE], v[P.V_SCORE + 1]], np.int64)
    bags = np.array([v[P.V_BAGS], v[P.V_BAGS + 1]], np.int64)
    policy_seats = seats(session.script.table)
    seed = np.uint64(session.seed) ^ np.uint64(HINT_SEED)

    def play(hands, number):
        out = np.full((1, len(COLUMNS)), -99, np.int64)
        rules.simulate_bid_options(prepared(variant, hands), policy_seats, np.zeros((4, 4), np.int64),
                                   np.full((4, 4), 99, np.int64), (accept_all,), seat, dealer,
                                   np.full(4, -1, np.int64), np.array([option], np.int64), scores, bags, False,
                                   seed, np.int64(number), np.int64(1), out, np.zeros(4, np.int64))
        r = out[0]
        made, nil = int(r[f["made"]]), int(r[f["nil"]])
        return {"team points": float(r[f["points"]]), "team tricks": float(r[f["team_tricks"]]),
                "P(contract made)": float(made) if made >= 0 else np.nan,
                "P(your Nil made)": float(nil) if nil >= 0 else np.nan}

    leader, n = int(v[P.V_LEADER]), int(v[P.V_NPLAYED])
    trick1 = int(v[P.V_TRICK]) == 0
    state = TrickState(leader, [int(v[P.V_TABLE + (leader + i) % 4]) for i in range(n)], bool(v[P.V_BROKEN]), trick1)
    return trick_worlds(
        seats=4, seat=seat, deck=table.deck, sizes=dealt_sizes(len(table.deck), 4, dealer), suit_masks=table.suit_masks,
        own_hand=int(v[P.V_HAND]) & U64, plays=plays_since(rows, (rules.EV_HAND,), rules.EV_PLAY),
        voids=[int(v[P.V_VOIDS + s]) for s in range(4)], bids=bids, play=play, public=_public, best="team points",
        note=f"Your bid {bid_name(option)}; team points and tricks: your side's score and tricks this hand.",
        dd_rules=lambda hands: solver_rules(variant, hands, trick1=trick1), side=(seat, seat ^ 2), state=state)


class SpadesAdapter(Adapter):
    hints_cover = "hints cover the bids and the card play, not the exchange nor a redeal call"
    seat_at = SEATS
    card_legal = {"play": (0, P.V_LEGAL)}

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


    def card_worlds(self, session, pending):
        return spades_worlds(session, pending)

    def blind_request(self, pending, variant, hand):
        """At "Bid Blind Nil before looking?": the `bid` odds request had the seat held ``hand``."""
        if pending.decision != "blind":
            return None
        request = self.odds_request(replace(pending, decision="bid"), variant)
        return replace(request, hand=tuple(hand))

    def blind_deck(self, variant) -> list[int]:
        """The cards the seat may hold (it has seen none of them)."""
        from simcards.games.spades.kernel import prepared

        return [int(c) for c in prepared(variant).deck]

    def blind_values(self, result) -> tuple[float, float, float] | None:
        """(team points bidding Blind Nil, P(Blind Nil made), team points of the best bid after
        looking) from one hand's `bid` odds, or None when Blind Nil is not an option."""
        from simcards.games.spades.odds import BN_LABEL

        s = result.summary
        points = s[s.metric == "team_points"].set_index("group").estimate
        made = s[s.metric == "nil_made"].set_index("group").estimate
        if BN_LABEL not in points.index:
            return None
        looked = points.drop(BN_LABEL)
        return float(points[BN_LABEL]), float(made.get(BN_LABEL, float("nan"))), float(looked.max())


ADAPTER = SpadesAdapter()
