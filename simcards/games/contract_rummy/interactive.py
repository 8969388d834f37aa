"""Contract Rummy for ``simcards play``: draws, going down, discards and buys as numbered moves.

The kernel decides four things per turn (policies.py): the draw (stock, top discard, a deep
take), whether to lay the contract down now, the discard, and buying out of turn. The
melds, lay-offs and joker swaps of a player who is down are arranged by the engine, for a
person as for a bot (docs/play.md). ``?`` plays every legal answer out on sampled worlds
of the deal in play (worlds.py).
"""
from __future__ import annotations

from simcards.core.game import OddsRequest
from simcards.core.interactive import Adapter, Choices, Move
from simcards.games.contract_rummy import view as V
from simcards.games.contract_rummy.melds import JOKER, M_CONTRACT, M_HI, M_JOK, M_KEY, M_KIND, M_LO, M_NAT, M_OWNER
from simcards.games.contract_rummy.notation import hand_text, type_name
from simcards.games.contract_rummy.replay import pos_name
from simcards.core.cards import RANKS, SUITS


def _pile(pub) -> list[int]:
    n = int(pub[V.P_PILE_LEN])
    return [int(pub[V.P_PILE + i]) for i in range(n)]


def meld_text(m, wrap: bool) -> str:
    """``set of 7s (3 + 1 joker)`` or ``run 5H..9H (4 + 1 joker)``, its owner aside."""
    nat, jok = int(m[M_NAT]), int(m[M_JOK])
    if int(m[M_KIND]) == 0:  # a set: a count per suit, one nibble each
        n, j = (sum(x >> (4 * s) & 15 for s in range(8)) for x in (nat, jok))
    else:  # a run: bit masks of the positions
        n, j = bin(nat).count("1"), bin(jok).count("1")
    size = f"{n} card{'s' if n != 1 else ''}" + (f" + {j} joker{'s' if j > 1 else ''}" if j else "")
    if int(m[M_KIND]) == 0:
        return f"set of {RANKS[int(m[M_KEY])]}s ({size})"
    suit = SUITS[int(m[M_KEY])]
    return f"run {pos_name(wrap, int(m[M_LO]))}{suit}..{pos_name(wrap, int(m[M_HI]))}{suit} ({size})"


class ContractRummyAdapter(Adapter):
    seat_at = {"draw": (1, V.P_SEAT), "go_down": (1, V.P_SEAT), "discard": (1, V.P_SEAT), "buy": (1, V.P_SEAT)}
    hints_cover = "move hints cover every decision (the first draw of a deal: `simcards odds`)"

    def seat_names(self, variant):
        return [f"P{s}" for s in range(V.MAX_SEATS)]

    def choices(self, pending, variant):
        hand, pub, melds, opts = pending.args[:4]
        d = pending.decision
        pile = _pile(pub)
        top = type_name(pile[-1]) if pile else "-"
        if d == "draw":
            moves = []
            for i in range(1, int(opts[0]) + 1):
                o = int(opts[i])
                if o == 0:
                    moves.append(Move(0, "draw from the stock", ("stock",)))
                elif o == 1:
                    moves.append(Move(1, f"take the top discard {top}", ("top", top)))
                elif o == -1:
                    moves.append(Move(-1, "list the deep takes", ("deep",)))
                elif o < -1:
                    moves.append(Move(o, f"list the deep takes down to depth {-o}"))
                else:
                    target = type_name(pile[-o]) if o <= len(pile) else "?"
                    moves.append(Move(o, f"deep take: the top {o} discards, down to {target}"))
            return Choices(moves, "Your draw:")
        if d == "go_down":
            out = " and go out" if int(opts[2]) else ""
            return Choices([Move(1, f"lay down the contract now{out} ({int(opts[0])} cards left, "
                                    f"{int(opts[1])} penalty points)", ("y", "yes", "down")),
                            Move(0, "wait", ("n", "no"))], "Go down now?")
        if d == "discard":
            moves = [Move(int(opts[i]), type_name(int(opts[i]))) for i in range(1, int(opts[0]) + 1)]
            return Choices(moves, "Your discard:")
        return Choices([Move(1, f"buy {type_name(int(opts[0]))} (and a penalty card from the stock)", ("y", "yes")),
                        Move(0, "pass", ("n", "no"))], f"Buy the discard {type_name(int(opts[0]))} out of turn?")

    def screen(self, pending, variant, names):
        hand, pub, melds = pending.args[:3]
        n = int(pub[V.P_NPL])
        wrap = variant.ace_mode == "wrap"
        pile = _pile(pub)
        s, r = int(pub[V.P_S]), int(pub[V.P_R])
        contract = "all cards in melds (final deal)" if pub[V.P_FINAL_ALL] else f"{s} set(s) + {r} run(s)"
        lines = [f"Deal {int(pub[V.P_DEAL])}: contract {contract}; dealer {names[int(pub[V.P_DEALER])]}; "
                 f"turn {int(pub[V.P_TURN])}; stock {int(pub[V.P_STOCK])} cards",
                 "Discard pile (top last): " + (" ".join(type_name(t) for t in pile[-8:]) or "empty")
                 + (f"  (+{len(pile) - 8} below)" if len(pile) > 8 else ""),
                 "Players: " + "  ".join(
                     f"{names[p]} {int(pub[V.P_HLEN + p])} cards{' DOWN' if pub[V.P_DOWN + p] else ''}"
                     f" [{int(pub[V.P_TOTAL + p])}]" for p in range(n)) + "   ([penalty total])"]
        nm = int(pub[V.P_NMELDS])
        if nm:
            lines.append("Table melds:")
            for i in range(nm):
                m = melds[i]
                lines.append(f"  {names[int(m[M_OWNER])]}: {meld_text(m, wrap)}"
                             + (" (contract)" if m[M_CONTRACT] else ""))
        lines.append(f"Your hand ({names[pending.seat]}, {int(hand.sum())} cards): {hand_text(hand)}")
        return "\n".join(lines)

    def describe(self, entry, variant, names):
        who, d, a = names[entry.seat], entry.decision, entry.answer
        if d == "draw":
            if a == 0:
                return f"{who} draws from the stock"
            if a == 1:
                return f"{who} takes the top discard"
            if a < 0:
                return ""
            return f"{who} takes {a} discards deep"
        if d == "go_down":
            return f"{who} lays down the contract" if a else ""
        if d == "discard":
            return f"{who} discards {type_name(a)}"
        return f"{who} buys the discard" if a else ""

    def odds_request(self, pending, variant):
        hand, pub = pending.args[:2]
        if pending.decision != "draw" or int(hand.sum()) != int(pub[V.P_HAND_SIZE]) or int(pub[V.P_OWN_TURN]) > 1:
            return None  # the `odds` table is for the hand as dealt
        cards = [t for t in range(JOKER + 1) for _ in range(int(hand[t]))]
        return OddsRequest(hand=tuple(cards), seat=pending.seat, dealer=int(pub[V.P_DEALER]),
                           options={"deal": int(pub[V.P_DEAL])})


    def card_worlds(self, session, pending):
        from simcards.games.contract_rummy.worlds import rummy_worlds

        return rummy_worlds(session, pending)


ADAPTER = ContractRummyAdapter()
