"""Test helpers: build a mid-deal kernel state from rules notation and play one turn."""
from __future__ import annotations

import numba as nb
import numpy as np

from simcards.core.policy import Policy
from simcards.games.contract_rummy import melds as M
from simcards.games.contract_rummy import rules as R
from simcards.games.contract_rummy import view as V
from simcards.games.contract_rummy.notation import counts, parse_type
from simcards.games.contract_rummy.policies import BUILTINS, CATALOG, SIG
from simcards.games.contract_rummy.sim import variant_config
from simcards.games.contract_rummy.variant import ContractRummyVariant

_jit = nb.njit(SIG, cache=True, nogil=True)


@_jit
def draw_stock(hand, pub, melds, opts, cfg, rng):
    return 0


@_jit
def draw_top(hand, pub, melds, opts, cfg, rng):
    return 1


@_jit
def draw_deep3(hand, pub, melds, opts, cfg, rng):
    """DEEP(3), asking the engine for the deep takes first."""
    for i in range(1, opts[0] + 1):
        if opts[i] == 3:
            return 3
    return -1


@_jit
def say_yes(hand, pub, melds, opts, cfg, rng):
    return 1


@_jit
def say_no(hand, pub, melds, opts, cfg, rng):
    return 0


def table_with(draw=None, buy=None, discard=None):
    """A policy table: ``basic`` with some decisions replaced."""
    funcs = {}
    if draw is not None:
        funcs["draw"] = draw
    if buy is not None:
        funcs["buy"] = buy
    if discard is not None:
        funcs["discard"] = discard
    pol = Policy("test", base=BUILTINS["basic"], **funcs)
    CATALOG.builtins["_test"] = pol
    CATALOG._compiled.pop("_test", None)
    t = CATALOG.table(["_test"])
    del CATALOG.builtins["_test"]
    CATALOG._compiled.pop("_test", None)
    return t


def parse_meld(text: str, owner: int = 0, contract: int = 1) -> np.ndarray:
    """``{9D JK=TD JD QD}`` or ``{7S 7H JK=7D}`` -> a meld row (melds.MF ints)."""
    toks = text.strip().strip("{}").split()
    cards = []  # (is_joker, declared type)
    for tok in toks:
        if tok.upper().startswith("JK="):
            cards.append((True, parse_type(tok[3:])))
        else:
            cards.append((False, parse_type(tok)))
    m = np.zeros(M.MF, np.int64)
    m[M.M_OWNER] = owner
    m[M.M_CONTRACT] = contract
    ranks = {t % 13 for _, t in cards}
    if len(ranks) == 1 and len(cards) <= 4 and len({t // 13 for _, t in cards}) == len(cards):
        m[M.M_KIND] = M.SET
        m[M.M_KEY] = ranks.pop()
        for j, t in cards:
            m[M.M_JOK if j else M.M_NAT] += 1 << (4 * (t // 13))
        return m
    m[M.M_KIND] = M.RUN
    m[M.M_KEY] = cards[0][1] // 13
    # positions in listed order (low to high); an ace first is low, otherwise high
    pos = []
    for i, (_, t) in enumerate(cards):
        r = t % 13
        if r == 12:
            pos.append(1 if i == 0 else 14)
        else:
            pos.append(r + 2)
    m[M.M_LO], m[M.M_HI] = min(pos), max(pos)
    for (j, _), p in zip(cards, pos):
        m[M.M_JOK if j else M.M_NAT] |= 1 << p
    return m


def meld_text(m) -> str:
    """Inverse of parse_meld (for assertions)."""
    from simcards.games.contract_rummy.replay import card_in_meld

    m = [int(x) for x in m]
    out = []
    if m[M.M_KIND] == M.SET:
        for s in (3, 2, 1, 0):
            for _ in range((m[M.M_NAT] >> (4 * s)) & 15):
                out.append(card_in_meld(0, m[M.M_KEY], s * 13 + m[M.M_KEY], s, False))
            for _ in range((m[M.M_JOK] >> (4 * s)) & 15):
                out.append(card_in_meld(0, m[M.M_KEY], M.JOKER, s, False))
        return "{" + " ".join(out) + "}"
    for p in range(m[M.M_LO], m[M.M_HI] + 1):
        if (m[M.M_JOK] >> p) & 1:
            out.append(card_in_meld(1, m[M.M_KEY], M.JOKER, p, False))
        else:
            out.append(card_in_meld(1, m[M.M_KEY], m[M.M_KEY] * 13 + (12 if p in (1, 14) else p - 2), p, False))
    return "{" + " ".join(out) + "}"


class Table:
    """A hand-built deal state around the kernel's arrays."""

    def __init__(self, variant=None, deal=1, hands=None, pile="", stock="", melds=(), down=None, turn=5,
                 trace=20000):
        self.v = variant or ContractRummyVariant()
        self.cfg = variant_config(self.v)
        s = R.new_state(trace)
        self.s = s
        n = self.v.num_players
        pub = s.pub
        pub[V.P_NPL] = n
        k = deal - 1
        S, Rn = self.v.contract_pairs()[k]
        pub[V.P_DEAL], pub[V.P_S], pub[V.P_R] = deal, S, Rn
        pub[V.P_HAND_SIZE] = self.v.hand_sizes[k]
        pub[V.P_FINAL_ALL] = int(self.v.final_deal_all_at_once and deal == len(self.v.contracts))
        for q in range(V.MAX_SEATS):
            pub[V.P_DOWN_TURN + q] = -1
        for q, text in (hands or {}).items():
            s.hands[q] = counts(text)
            pub[V.P_HLEN + q] = s.hands[q].sum()
        for q, t in (down or {}).items():
            pub[V.P_DOWN + q] = 1
            pub[V.P_DOWN_TURN + q] = t
        piles = [parse_type(x) for x in pile.split()]
        for i, t in enumerate(piles):
            pub[V.P_PILE + i] = t
            s.pile_who[i] = -1
        pub[V.P_PILE_LEN] = len(piles)
        st = [parse_type(x) for x in stock.split()]  # listed top first
        for j, t in enumerate(reversed(st)):
            s.stock[j] = t
        pub[V.P_STOCK] = len(st)
        for i, m in enumerate(melds):
            s.melds[i] = m
        pub[V.P_NMELDS] = len(melds)
        self.turn = turn
        self.opts = np.zeros(V.OPT_SIZE, np.int64)
        self.sol = np.zeros((16, M.MF), np.int64)
        self.rng = np.array([12345], np.uint64)
        self.rng2 = np.array([777], np.uint64)

    def play_turn(self, p, table):
        s = self.s
        w = R.work(self.rng, self.rng2, self.opts, s.scratch, self.sol)
        return R.play_turn(self.cfg, R.board(s), R.seats(table), w, p, self.turn)

    def draw_options(self, p):
        s = self.s
        half = s.scratch.shape[0] // 2
        n = R.draw_options(self.cfg, s.hands, s.pub, s.melds, p, self.turn, s.st, s.trace, self.opts,
                           s.scratch[:half], s.scratch[half:], self.sol, 1 << 30)
        return [int(x) for x in self.opts[1:n + 1]]

    def hand(self, p):
        from simcards.games.contract_rummy.notation import hand_text

        return hand_text(self.s.hands[p])

    def melds(self):
        return [meld_text(self.s.melds[i]) for i in range(self.s.pub[V.P_NMELDS])]

    def pile(self):
        from simcards.games.contract_rummy.notation import type_name

        return " ".join(type_name(self.s.pub[V.P_PILE + i]) for i in range(self.s.pub[V.P_PILE_LEN]))

    def down(self, p):
        return bool(self.s.pub[V.P_DOWN + p])

    def penalty(self, p):
        return int(M.hand_penalty(self.s.hands[p], self.cfg))

    def trace(self):
        """The events of the turns played so far (rules.EVENTS)."""
        return R.EVENTS.read(self.s.trace)


def cfg_of(**settings):
    return variant_config(ContractRummyVariant(**settings))


def sol_buf():
    return np.zeros((16, M.MF), np.int64)
