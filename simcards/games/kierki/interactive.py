"""Kierki for ``simcards play``: cards for tricks, the trump announcement, the Fan Tan layout."""
from __future__ import annotations

import numpy as np

from simcards.core.cards import SUIT_MASKS, cards_of, format_card
from simcards.core.game import OddsRequest
from simcards.core.interactive import Adapter, Choices, Move, TrickState, plays_since, trick_worlds
from simcards.games.kierki import policies as P
from simcards.games.kierki.replay import SEATS, SUIT_NAMES, format_hand
from simcards.games.kierki.variant import DEAL_TYPES

U64 = 2**64 - 1


def _public(pending) -> tuple:
    """What the seat sees of the play (a world must show it the same)."""
    info, masks = pending.args[:2]
    slots = (P.I_SEAT, P.I_LEADER, P.I_TRICK, P.I_N_IN_TRICK, P.I_TRUMP, P.I_WIN_CARD, P.I_WIN_SEAT)
    spans = tuple(int(info[i + s]) for i in (P.I_TRICK_CARDS, P.I_DEAL_PTS) for s in range(4))
    m = tuple(int(masks[i]) for i in (P.M_HAND, P.M_LEGAL, P.M_PLAYED, P.M_TRICK, P.M_VOIDS))
    return (pending.decision,) + tuple(int(info[i]) for i in slots) + spans + m + tuple(
        int(masks[P.M_BY_SEAT + s]) for s in range(4))


def kierki_worlds(session, pending):
    """Card hints for Kierki's trick deals: the deal in play replayed in sampled worlds by
    ``rules.play_given_hands`` (the deal given whole; its policy stream is fixed)."""
    from simcards.core.trace import NO_TRACE
    from simcards.games.kierki import rules as R
    from simcards.games.kierki.dd import solver_rules

    if pending.decision != "play":
        return None  # the trump announcement has its own hint; the lottery has none
    info, masks = pending.args[:2]
    variant, seat, table = session.variant, pending.seat, session.script.table
    rows = session.traced(lambda trace: R.run_records(session.unit, variant, table, session.seed, session.index,
                                                      1, trace=trace))
    first = [r for r in rows if int(r[0]) == R.EV_DEAL][-1]
    deal_type, dealer, leader = int(first[2]), int(first[3]), int(first[4])
    trump = int(info[P.I_TRUMP])
    tab, kernel_seats = R.kernel_tables(variant), R.seats(table)

    def play(hands, number):
        res = np.zeros(R.RES_LEN, np.int64)
        R.play_given_hands(tab, kernel_seats, deal_type, dealer, leader, trump, hands, res, R.NO_SCRIPT, NO_TRACE)
        return {"deal points": float(res[R.R_SCORE + seat]), "tricks": float(res[R.R_TRICKS + seat])}

    voids = int(masks[P.M_VOIDS])
    k = int(info[P.I_N_IN_TRICK])
    trumps = deal_type == R.TRUMPS
    name = DEAL_TYPES[deal_type] if deal_type < len(DEAL_TYPES) else "trumps"
    return trick_worlds(
        seats=4, seat=seat, deck=np.arange(52), sizes=np.full(4, 13, np.int64), suit_masks=SUIT_MASKS,
        own_hand=int(masks[P.M_HAND]) & U64, plays=plays_since(rows, (R.EV_DEAL,), R.EV_PLAY),
        voids=[voids >> (4 * s) & 15 for s in range(4)], bids={}, play=play, public=_public, best="deal points",
        note=f"Deal points and tricks: yours in this {name} deal (penalties negative); the bots' "
             "random stream in the worlds is one fixed stream.",
        dd_rules=(lambda hands: solver_rules(variant, trump)) if trumps else None, side=(seat,),
        state=TrickState(int(info[P.I_LEADER]), [int(info[P.I_TRICK_CARDS + j]) for j in range(k)]))


def _cards(mask: int) -> list[Move]:
    return [Move(c, format_card(c)) for c in sorted(cards_of(mask & U64), key=lambda c: (-(c // 13), -c))]


class KierkiAdapter(Adapter):
    hints_cover = "hints cover the trump announcement and the cards of the trick deals, not the lottery"
    seat_at = {"play": (0, P.I_SEAT), "trump": (0, P.T_SEAT), "lottery": (0, P.L_SEAT)}
    card_legal = {"play": (1, P.M_LEGAL)}

    def seat_names(self, variant):
        return ["North", "East", "South", "West"]

    def choices(self, pending, variant):
        info, masks = pending.args[:2]
        if pending.decision == "trump":
            allowed = int(info[P.T_ALLOWED])
            moves = [Move(s, SUIT_NAMES[s], ()) for s in (3, 2, 1, 0) if allowed >> s & 1]
            if allowed & P.NO_TRUMP_BIT:
                moves.append(Move(-1, "NT", ("no trumps", "none")))
            return Choices(moves, "Trumps (S, H, D, C or NT):")
        return Choices(_cards(int(masks[P.M_LEGAL])), "Your card:")

    def screen(self, pending, variant, names):
        info, masks = pending.args[:2]
        d = pending.decision
        if d == "trump":
            return (f"Deal {int(info[P.T_DEAL_NO])}: trumps, dealer {names[int(info[P.T_DEALER])]}\n"
                    "Totals: " + "  ".join(f"{names[s]} {int(info[P.T_TOTALS + s]):+d}" for s in range(4)) + "\n"
                    f"You have seen ({names[pending.seat]}): {format_hand(int(masks[0]) & U64)}")
        if d == "lottery":
            rows = []
            for s in (3, 2, 1, 0):
                lo, hi = int(info[P.L_LO + s]), int(info[P.L_HI + s])
                rows.append(f"{SUIT_NAMES[s]} " + ("-" if lo < 0 else f"positions {lo}..{hi}"))
            return (f"Deal {int(info[P.L_DEAL_NO])}: lottery (Fan Tan), turn {int(info[P.L_TURN]) + 1}\n"
                    "Layout: " + format_hand(int(masks[P.M_PLAYED]) & U64) + "\n"
                    "Cards left: " + "  ".join(f"{names[s]} {int(info[P.L_LEFT + s])}" for s in range(4)) + "\n"
                    f"Your hand ({names[pending.seat]}): {format_hand(int(masks[P.M_HAND]) & U64)}")
        trump = int(info[P.I_TRUMP])
        deal_type = int(info[P.I_DEAL_TYPE])
        name = DEAL_TYPES[deal_type] if deal_type < len(DEAL_TYPES) else "trumps"
        lines = [f"Deal {int(info[P.I_DEAL_NO])}: {name}" + (f", trumps {SUIT_NAMES[trump]}" if trump >= 0 else "")
                 + f", dealer {names[int(info[P.I_DEALER])]}, trick {int(info[P.I_TRICK])} of 13",
                 "This deal: " + "  ".join(f"{names[s]} {int(info[P.I_DEAL_PTS + s]):+d}" for s in range(4))
                 + "   totals before: " + "  ".join(f"{names[s]} {int(info[P.I_TOTALS + s]):+d}" for s in range(4))]
        leader = int(info[P.I_LEADER])
        played = [f"{names[(leader + j) % 4]} {format_card(int(info[P.I_TRICK_CARDS + j]))}"
                  for j in range(int(info[P.I_N_IN_TRICK]))]
        lines.append("Table:  " + ("  ".join(played) if played else "(you lead)"))
        lines.append(f"Your hand ({names[pending.seat]}): {format_hand(int(masks[P.M_HAND]) & U64)}")
        return "\n".join(lines)

    def describe(self, entry, variant, names):
        if entry.decision == "trump":
            return f"{names[entry.seat]} announces " + ("no trumps" if entry.answer < 0 else
                                                        f"trumps {SUIT_NAMES[entry.answer]}")
        return f"{names[entry.seat]} plays {format_card(entry.answer)}"

    def odds_request(self, pending, variant):
        if pending.decision != "trump":
            return None
        info, masks = pending.args[:2]
        return OddsRequest(hand=tuple(cards_of(int(masks[0]) & U64)), seat=pending.seat,
                           dealer=int(info[P.T_DEALER]))


    def card_worlds(self, session, pending):
        return kierki_worlds(session, pending)


ADAPTER = KierkiAdapter()
