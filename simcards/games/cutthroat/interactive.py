"""Cutthroat Spades for ``simcards play``: blind offers, bids, cards, the table as the seat sees it."""
from __future__ import annotations

import numpy as np

from simcards.core.cards import cards_of, format_card
from simcards.core.game import OddsRequest
from simcards.core.interactive import (
    HINT_SEED, Adapter, Choices, Move, TrickState, bidding_block, dealt_sizes, plays_since, trick_worlds,
)
from simcards.games.cutthroat import layout as L
from simcards.games.cutthroat.replay import SEAT_NAMES, _hand_text

U64 = 2**64 - 1


def _public(pending) -> tuple:
    """What the seat sees of the play (a world must show it the same)."""
    v, masks = pending.args[:2]
    n = int(v[L.V_N])
    view = tuple(int(v[i]) for i in (L.V_SEAT, L.V_TRICK, L.V_NPLAYED, L.V_LEADER, L.V_BROKEN))
    spans = tuple(int(v[i + s]) for i in (L.V_BID, L.V_TRICKS, L.V_TRICK_CARD, L.V_TRICK_SEAT) for s in range(n))
    m = tuple(int(masks[i]) for i in (L.M_HAND, L.M_LEGAL, L.M_PLAYED, L.M_TRICK)) + tuple(
        int(masks[L.M_VOID + s]) for s in range(n))
    return (pending.decision,) + view + spans + m


def cutthroat_worlds(session, pending):
    """Card hints for Cutthroat: the hand in play replayed in sampled worlds by the ``bid``
    odds kernel (one deal given whole, the seat's bid forced, the scores of the hand)."""
    from simcards.core.deal import accept_all
    from simcards.games.cutthroat import rules
    from simcards.games.cutthroat.dd import solver_rules
    from simcards.games.cutthroat.odds import COLUMNS, slot_of
    from simcards.games.cutthroat.variant import form_of

    if pending.decision != "play":
        return None
    v, masks = pending.args[:2]
    variant, seat, table = session.variant, pending.seat, session.script.table
    form, n = form_of(variant), int(v[L.V_N])
    tab, kernel_seats = rules.prepared(variant), rules.seats(table)
    out = np.zeros((1, len(rules.UNIT_COLUMNS[rules.UNIT_CODES[session.unit]])), np.int64)
    rows = session.traced(lambda trace: rules.run_records(  # (it reruns the record: the log below is this record's)
        rules.UNIT_CODES[session.unit], tab, kernel_seats, int(session.seed), int(session.index), 1, out, trace))
    bids: dict[int, list[int]] = {}
    for e in bidding_block(session.history()):
        if e.decision in ("blind", "bid") and e.seat != seat:  # the seat's own bid is given to the kernel
            bids.setdefault(e.seat, []).append(e.answer)
    dealer, code = int(v[L.V_DEALER]), int(v[L.V_BID + seat])
    f = {name: slot_of(code) * len(rules.ODDS_FIELDS) + i for i, name in enumerate(rules.ODDS_FIELDS)}
    pad = lambda base: np.array([int(v[base + s]) if s < n else 0 for s in range(L.MAX_SEATS)], np.int64)  # noqa: E731
    scores, bags, b6 = pad(L.V_SCORE), pad(L.V_BAGS), pad(L.V_B6USED)
    deck = np.array(cards_of(form.deck), np.int64)
    sizes = dealt_sizes(len(deck), n, dealer)
    seed = np.uint64(session.seed) ^ np.uint64(HINT_SEED)

    def play(hands, number):
        res = np.full((1, len(COLUMNS)), -99, np.int64)
        deal = rules.OddsDeal(deck, hands, sizes, np.zeros((n, 4), np.int64), np.full((n, 4), 99, np.int64))
        rules.simulate_bid_options(tab, kernel_seats, (accept_all,), deal, seat, dealer,
                                   np.full(L.MAX_SEATS, -1, np.int64), np.array([code], np.int64),
                                   np.array([slot_of(code)], np.int64), np.stack([scores, bags, b6]),
                                   False, seed, np.int64(number), np.int64(1), res, np.zeros(4, np.int64))
        r = res[0]
        return {"points": float(r[f["delta"]]), "tricks": float(r[f["tricks"]]), "P(bid made)": float(r[f["made"]])}

    suits = rules.SUITS
    voids = [sum(1 << k for k in range(4) if int(masks[L.M_VOID + s]) & int(suits[k])) for s in range(n)]
    leader, k = int(v[L.V_LEADER]), int(v[L.V_NPLAYED])
    trick1 = int(v[L.V_TRICK]) == 0
    sitout = dealer if form.dealer_sits_out else -1
    state = TrickState(leader, [int(v[L.V_TRICK_CARD + i]) for i in range(k)], bool(v[L.V_BROKEN]), trick1)
    return trick_worlds(
        seats=n, seat=seat, deck=deck, sizes=sizes, suit_masks=suits, own_hand=int(masks[L.M_HAND]) & U64,
        plays=plays_since(rows, (rules.EV_HAND,), rules.EV_PLAY), voids=voids, bids=bids, play=play,
        public=_public, best="points",
        note=f"Your bid {L.bid_name(code)}; points and tricks: your score and tricks this hand.",
        dd_rules=lambda hands: solver_rules(variant, hands, sitout if trick1 else -1), side=(seat,), state=state)


def _bid_moves(legal: int) -> list[Move]:
    codes = [c for c in range(64) if legal >> c & 1]
    return [Move(c, L.bid_name(c), ("nil", "0") if c == L.NIL else ()) for c in codes]


def _card_key(c: int):
    return (-(3 if c >= 39 else c // 13), -c)  # spades (and jokers) first, high to low


class CutthroatAdapter(Adapter):
    hints_cover = "hints cover the bids and the card play, not a redeal call"
    seat_at = {name: (0, L.V_SEAT) for name in ("blind", "bid", "play", "redeal")}
    card_legal = {"play": (1, L.M_LEGAL)}

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


    def card_worlds(self, session, pending):
        return cutthroat_worlds(session, pending)


ADAPTER = CutthroatAdapter()
