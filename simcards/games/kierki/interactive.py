"""Kierki for ``simcards play``: cards for tricks, the trump announcement, the Fan Tan layout."""
from __future__ import annotations

from simcards.core.cards import cards_of, format_card
from simcards.core.game import OddsRequest
from simcards.core.interactive import Adapter, Choices, Move
from simcards.games.kierki import policies as P
from simcards.games.kierki.replay import SEATS, SUIT_NAMES, format_hand
from simcards.games.kierki.variant import DEAL_TYPES

U64 = 2**64 - 1


def _cards(mask: int) -> list[Move]:
    return [Move(c, format_card(c)) for c in sorted(cards_of(mask & U64), key=lambda c: (-(c // 13), -c))]


class KierkiAdapter(Adapter):
    seat_at = {"play": (0, P.I_SEAT), "trump": (0, P.T_SEAT), "lottery": (0, P.L_SEAT)}

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


ADAPTER = KierkiAdapter()
