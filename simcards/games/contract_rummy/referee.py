"""A slow, plain-Python referee that re-checks kernel traces move by move.

It rebuilds the deal from the trace (hands, stock order, pile), keeps its own melds
(runs as position -> card, sets as suit -> card) and checks every event against the
rules: draws come from where they say, contracts have the right shape, every meld is
valid after every action (1.5), lay-offs only after the contract and at run ends or
free set suits, swaps only for the declared card, deep-take targets reach the table,
discards obey no-return, cards are conserved and every score is recomputed.

``check_trace(events, variant)`` (events as ``rules.EVENTS.read`` gives them) returns the list of problems found (empty = clean).
It does not import the kernel's meld code.
"""
from __future__ import annotations

from collections import Counter


JK = 52


def rank_of(t):
    return t % 13


def suit_of(t):
    return t // 13


class Ref:
    def __init__(self, v):
        self.v = v
        self.n = v.num_players
        self.decks = v.decks()
        self.jokers = v.jokers()
        self.wrap = v.ace_mode == "wrap"
        self.pairs = v.contract_pairs()
        self.problems: list[str] = []
        self.maxj = v.max_jokers_per_meld if v.max_jokers_per_meld is not None else 99

    def bad(self, msg):
        self.problems.append(f"deal {self.deal} turn {self.turn}: {msg}")

    # ---------------------------------------------------------------- positions
    def pos_rank(self, p):
        if self.wrap:
            return p % 13
        return 12 if p in (1, 14) else p - 2

    def pos_range(self):
        return {"low": (1, 13), "high": (2, 14), "both": (1, 14)}.get(self.v.ace_mode, (None, None))

    def penalty(self, t):
        pv = self.v.penalty_values
        if t == JK:
            return pv[13]
        r = rank_of(t)
        return pv[0] if r == 12 else pv[r + 1]

    # ---------------------------------------------------------------- melds
    def meld_ok(self, m):
        v = self.v
        if m["kind"] == "set":
            cards = m["cards"]  # list of (type, suit)
            if not v.min_set_size <= len(cards) <= v.max_set_size:
                return f"set of {len(cards)} cards"
            suits = [s for _, s in cards]
            for t, s in cards:
                if t != JK and (rank_of(t) != m["key"] or suit_of(t) != s):
                    return "set card of the wrong rank/suit"
            if not v.set_duplicate_suits and len(set(suits)) != len(suits):
                return "set repeats a suit"
            nat = sum(1 for t, _ in cards if t != JK)
        else:
            pos = m["cards"]  # pos -> type
            ps = sorted(pos)
            if ps != list(range(ps[0], ps[-1] + 1)):
                return "run with a gap"
            ln = len(ps)
            if ln < v.min_run_length or ln > (13 if v.ace_mode != "both" else 14):
                return f"run of length {ln}"
            if not self.wrap:
                lo, hi = self.pos_range()
                if ps[0] < lo or ps[-1] > hi:
                    return "run outside the ace-mode range"
            for p, t in pos.items():
                if t != JK and (suit_of(t) != m["key"] or rank_of(t) != self.pos_rank(p)):
                    return "run card does not match its position"
            nat = sum(1 for t in pos.values() if t != JK)
        jok = self.meld_jokers(m)
        if nat < v.min_naturals_per_meld:
            return "too few naturals"
        if jok > self.maxj:
            return "too many jokers"
        return None

    @staticmethod
    def meld_jokers(m):
        if m["kind"] == "set":
            return sum(1 for t, _ in m["cards"] if t == JK)
        return sum(1 for t in m["cards"].values() if t == JK)

    def meld_cards(self, m):
        return [t for t, _ in m["cards"]] if m["kind"] == "set" else list(m["cards"].values())

    # ---------------------------------------------------------------- checks
    def conservation(self):
        total = Counter()
        for h in self.hands:
            total.update(h)
        total.update(self.stock)
        total.update(self.pile)
        for m in self.melds:
            total.update(self.meld_cards(m))
        want = Counter({t: self.decks for t in range(52)})
        if self.jokers:
            want[JK] = self.jokers
        if +total != +want or any(c < 0 for h in self.hands for c in h.values()):
            self.bad("cards not conserved")

    def end_turn(self):
        p = self.seat
        if p is None:
            return
        if self.pending_jokers > 0 and self.v.joker_swap_must_place:
            self.bad("swapped joker not placed this turn")
        if self.target is not None:
            if self.target_placed < 1:
                self.bad("deep-take target not placed")
            if not self.down[p]:
                self.bad("deep take without going down")
        if not self.down[p]:
            want = self.hand_size + self.buys[p] * (1 + self.v.buy_penalty_cards)
            if sum(self.hands[p].values()) != want:
                self.bad(f"seat {p} not down but holds {sum(self.hands[p].values())} cards")
        if self.final_all and self.down[p] and sum(self.hands[p].values()) != 0:
            self.bad("final deal: contract laid without going out")
        self.conservation()
        self.seat = None

    def check_open_meld(self):
        if self.open_meld is not None:
            m = self.melds[self.open_meld]
            err = self.meld_ok(m)
            if err:
                self.bad(f"invalid meld: {err}")
            self.open_meld = None
            if self.contract_left == 0 and self.contract_melds is not None:
                self.check_contract()

    def check_contract(self):
        ms = [self.melds[i] for i in self.contract_melds]
        S, Rn = self.pairs[self.deal - 1]
        sets = [m for m in ms if m["kind"] == "set"]
        runs = [m for m in ms if m["kind"] == "run"]
        if len(sets) != S or len(runs) != Rn:
            self.bad("contract has the wrong number of sets/runs")
        rule = self.v.contract_runs_suits
        suits = [m["key"] for m in runs]
        if rule == "distinct" and len(set(suits)) != len(suits):
            self.bad("contract runs share a suit")
        if rule == "not_all_same" and len(suits) >= 2 and len(set(suits)) == 1:
            self.bad("contract runs all in one suit")
        if self.v.contract_sets_distinct_ranks and len({m["key"] for m in sets}) != len(sets):
            self.bad("contract sets share a rank")
        self.contract_melds = None

    def table_action(self, p, kind):
        if not self.down[p]:
            self.bad(f"{kind} by seat {p} who is not down")
        elif self.down_turn[p] == self.turn and not self.v.layoff_same_turn_as_contract:
            self.bad(f"{kind} in the contract turn")
        if self.final_all:
            self.bad(f"{kind} in the all-at-once final deal")

    def take_from_hand(self, p, t):
        if self.hands[p][t] <= 0:
            self.bad(f"seat {p} plays {t} that he does not hold")
        self.hands[p][t] -= 1

    def placed(self, p, t, layoff=False):
        if self.target is not None and t == self.target and p == self.seat:
            if not (layoff and self.v.deep_take_target_use == "meld_only"):
                self.target_placed += 1
        if t == JK and self.pending_jokers > 0 and p == self.seat:
            self.pending_jokers -= 1

    def run(self, events):
        v = self.v
        self.deal = 0
        self.turn = 0
        for ev in events:
            kind = ev.kind
            p = getattr(ev, "seat", None)
            if self.deal and kind != "mcard":
                self.check_open_meld()
            if kind == "deal":
                a, p = ev.deal_no, ev.dealer
                self.deal, self.dealer, self.hand_size = a, p, ev.hand_size
                self.hands = [Counter() for _ in range(self.n)]
                self.stock, self.pile, self.melds = [], [], []
                self.down = [False] * self.n
                self.down_turn = [None] * self.n
                self.buys = [0] * self.n
                self.turn, self.seat, self.open_meld, self.contract_melds = 0, None, None, None
                # 3.6 covers a final contract of runs only; one with sets is an ordinary deal
                self.final_all = (v.final_deal_all_at_once and a == len(v.contracts)
                                  and v.contract_pairs()[-1][0] == 0)
                self.ended = False
                self.expect_seat = (p + 1) % self.n
            elif kind == "hand":
                self.hands[p][ev.card] += ev.count
            elif kind == "upcard":
                self.pile = [ev.card]
            elif kind == "stock":
                if ev.depth == 0:
                    self.stock = []
                self.stock.append(ev.card)
            elif kind == "turn":
                a = ev.turn
                if self.ended:
                    self.bad("turn after the deal ended")
                self.end_turn()
                if a == 1:
                    self.conservation()
                    for q in range(self.n):
                        if sum(self.hands[q].values()) != self.hand_size:
                            self.bad(f"seat {q} dealt {sum(self.hands[q].values())} cards")
                if p != self.expect_seat or a != self.turn + 1:
                    self.bad(f"seat {p} plays turn {a} out of order")
                self.turn, self.seat = a, p
                self.expect_seat = (p + 1) % self.n
                self.single_top, self.target, self.target_placed, self.pending_jokers = None, None, 0, 0
                if a > v.max_turns_per_deal:
                    self.bad("turn cap exceeded")
            elif kind == "refill":
                if self.stock:
                    self.bad("refill with cards in the stock")
                if len(self.pile) != ev.cards + 1:
                    self.bad("refill size differs from the pile")
                self.refill_cards = Counter(self.pile[:-1])
                self.pile = self.pile[-1:]
                self.stock = []
            elif kind == "draw_stock":
                a = ev.card
                if not self.stock or self.stock[0] != a:
                    self.bad("stock draw is not the stock's top card")
                else:
                    self.stock.pop(0)
                self.hands[p][a] += 1
            elif kind == "take_top":
                a = ev.card
                if not self.pile or self.pile[-1] != a:
                    self.bad("top take is not the pile's top card")
                if self.down[p] and not v.discard_take_after_contract:
                    self.bad("down player takes from the pile")
                self.pile.pop()
                self.hands[p][a] += 1
                self.single_top = a
            elif kind == "deep":
                a, b = ev.depth, ev.target
                if not v.deep_take_enabled or a < 2 or a > len(self.pile):
                    self.bad(f"illegal deep take depth {a}")
                if not self.down[p] and not v.deep_take_before_contract:
                    self.bad("deep take before the contract")
                if v.max_deep_take_depth is not None and a > v.max_deep_take_depth:
                    self.bad("deep take beyond max depth")
                if self.pile[-a] != b:
                    self.bad("deep target is not at that depth")
                self.target = b
            elif kind == "deep_card":
                a = ev.card
                if self.pile[-1] != a:
                    self.bad("deep take card order")
                self.pile.pop()
                self.hands[p][a] += 1
            elif kind == "buy":
                a = ev.card
                if not v.buying_enabled or (self.down[p] and not v.buy_after_contract):
                    self.bad("illegal buy")
                if self.pile[-1] != a:
                    self.bad("bought card is not the top")
                self.pile.pop()
                self.hands[p][a] += 1
                self.buys[p] += 1
                if self.buys[p] > v.max_buys_per_deal:
                    self.bad("too many buys")
            elif kind == "buy_stock":
                a = ev.card
                if not self.stock or self.stock[0] != a:
                    self.bad("buy penalty card is not the stock top")
                else:
                    self.stock.pop(0)
                self.hands[p][a] += 1
            elif kind == "contract":
                if self.down[p]:
                    self.bad("second contract")
                S, Rn = self.pairs[self.deal - 1]
                if (ev.sets, ev.runs) != (S, Rn):
                    self.bad("contract shape differs from the deal's")
                self.down[p] = True
                self.down_turn[p] = self.turn
                self.contract_left = S + Rn
                self.contract_melds = []
            elif kind == "meld":
                a, b, c = ev.meld, ev.is_run, ev.key
                if ev.contract:
                    if self.contract_melds is None or self.contract_left <= 0:
                        self.bad("contract meld outside a contract action")
                    else:
                        self.contract_melds.append(a)
                        self.contract_left -= 1
                else:
                    self.table_action(p, "new meld")
                    if not v.extra_melds_after_contract:
                        self.bad("extra meld not allowed")
                if a != len(self.melds):
                    self.bad("meld numbering")
                self.melds.append({"kind": "run" if b == 1 else "set", "key": c, "owner": p,
                                   "cards": {} if b == 1 else []})
                self.open_meld = a
            elif kind == "mcard":
                a, b, c = ev.meld, ev.card, ev.slot
                m = self.melds[a]
                self.take_from_hand(p, b)
                self.placed(p, b)
                if m["kind"] == "run":
                    if c in m["cards"]:
                        self.bad("run position used twice")
                    m["cards"][c] = b
                    self.wrap_normalise(m)
                else:
                    m["cards"].append((b, c))
            elif kind == "layoff":
                a, b, c = ev.meld, ev.card, ev.slot
                self.table_action(p, "lay-off")
                m = self.melds[a]
                self.take_from_hand(p, b)
                self.placed(p, b, layoff=True)
                if m["kind"] == "run":
                    ps = m["cards"]
                    if c in ps or not (c == min(ps) - 1 or c == max(ps) + 1):
                        self.bad("run lay-off not at an end")
                    ps[c] = b
                    self.wrap_normalise(m)
                else:
                    m["cards"].append((b, c))
                err = self.meld_ok(m)
                if err:
                    self.bad(f"lay-off breaks a meld: {err}")
            elif kind == "swap":
                a, b, c = ev.meld, ev.card, ev.slot
                self.table_action(p, "joker swap")
                if not v.joker_swap_enabled:
                    self.bad("joker swap disabled")
                if v.joker_swap_requires_prior_contract and self.down_turn[p] == self.turn:
                    self.bad("joker swap in the contract turn")
                m = self.melds[a]
                if v.joker_swap_scope == "others_only" and m["owner"] == p:
                    self.bad("swap from own meld")
                self.take_from_hand(p, b)
                self.placed(p, b, layoff=True)
                if m["kind"] == "run":
                    if m["cards"].get(c) != JK or self.pos_rank(c) != rank_of(b) or suit_of(b) != m["key"]:
                        self.bad("swap card differs from the joker's declared card")
                    m["cards"][c] = b
                else:
                    if not v.joker_swap_from_sets:
                        self.bad("swap from a set")
                    if (JK, c) not in m["cards"] or b != c * 13 + m["key"]:
                        self.bad("set swap does not match the declaration")
                    else:
                        m["cards"][m["cards"].index((JK, c))] = (b, c)
                self.hands[p][JK] += 1
                self.pending_jokers += 1
                if self.target == JK:
                    self.target_placed -= 1
            elif kind == "discard":
                a = ev.card
                self.take_from_hand(p, a)
                if v.no_return_discard and self.single_top is not None and a == self.single_top:
                    self.bad("discarded the card just taken from the top")
                if a == JK and self.hands[p][JK] + 1 <= self.pending_jokers:
                    self.bad("discarded a swapped joker")
                self.pile.append(a)
                rule = self.discard_rule()
                if sum(self.hands[p].values()) == 0 and rule == "forbidden":
                    self.bad("went out by discarding under 'forbidden'")
            elif kind == "out":
                if sum(self.hands[p].values()) != 0 or not self.down[p]:
                    self.bad("goes out with cards or without being down")
                if not ev.by_discard and self.discard_rule() == "required":
                    self.bad("went out without the required discard")
                self.end_turn()
                self.ended = True
                self.out = p
            elif kind == "exhausted":
                self.end_turn()
                self.ended = True
                self.out = None
            elif kind == "score":
                want = 0 if p == self.out else sum(self.penalty(t) * k for t, k in self.hands[p].items())
                if ev.points != want:
                    self.bad(f"seat {p} scored {ev.points}, referee says {want}")
        return self.problems

    def wrap_normalise(self, m):
        """The kernel keeps a wrap run's lowest position in 13..25; follow its shifts."""
        if self.wrap and min(m["cards"]) < 13:
            m["cards"] = {q + 13: t for q, t in m["cards"].items()}

    def discard_rule(self):
        if self.final_all and self.v.final_deal_go_out_discard != "same":
            return self.v.final_deal_go_out_discard
        return self.v.go_out_discard


def check_trace(events, variant) -> list[str]:
    """Problems found in a kernel trace (``rules.EVENTS`` events; empty list when every move
    checks out)."""
    return Ref(variant).run(events)
