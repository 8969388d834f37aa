"""A slow, plain-Python Seep referee, written independently of the compiled kernel.

It keeps the state as sets and dicts, generates the legal moves by brute force over
subsets of the loose cards (docs/games/seep.md, rule 3.2-3.4 read literally), applies moves (3.5), ends
and scores the deal (4, 5.1). Tests use it to re-check kernel traces move by move:

- :func:`check_trace` rebuilds the state of every play from the kernel's snapshot,
  compares the kernel's legal-move set with :func:`legal_moves`, checks the chosen move
  is in it, applies the move here and compares the result with the next snapshot,
  then recomputes the score.
- :func:`play_out` is the *differential entry point*: given explicit hands, floor,
  stock, bid and a play order (a list of moves), it plays and scores the deal with the
  referee alone, so any other engine can be compared deal by deal.

Moves are tuples ``(kind, card, target, loose, takes_house)`` with ``loose`` a
frozenset of cards; kinds as in :mod:`simcards.games.seep.layout`.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from itertools import combinations

from simcards.core.cards import cards_of
from simcards.games.seep.cards import PTS, VAL
from simcards.games.seep.layout import (
    ADD, BREAK, BUILD, CAPTURE, S_BID, S_DEALER, S_HANDS, S_HOUSE, S_LAST_CAPTURE, S_LOOSE,
    S_NPLAYERS, S_OWNERS, S_PILE, S_PLAY, S_STOCK, S_SWEEP_PTS, THROW, plays,
)


class IllegalMove(Exception):
    """A move outside the legal move list."""


@dataclass
class House:
    cards: set
    owners: set

    def total(self) -> int:
        return sum(VAL[c] for c in self.cards)


@dataclass
class State:
    dealer: int
    bid: int
    hands: list                      # four sets of cards
    loose: set
    houses: dict = field(default_factory=dict)   # value -> House
    piles: list = field(default_factory=lambda: [set(), set()])
    sweep_points: list = field(default_factory=lambda: [0, 0])
    last_capture_team: int | None = None
    play_index: int = 1
    stock: list = field(default_factory=list)     # the 44 cards dealt after play 1, in order
    nplayers: int = 4                              # 2: the two-player game (6.2)

    @property
    def bidder(self) -> int:
        return (self.dealer + 1) % self.nplayers

    @property
    def to_move(self) -> int:
        return (self.bidder + self.play_index - 1) % self.nplayers


@dataclass(frozen=True)
class Rules:
    """The flags of section 6 the referee needs (defaults = the standard game)."""

    capture_sums: bool = True
    capture_maximal: bool = True
    throw_requires_no_capture: bool = True
    owner_may_throw: bool = True
    absorption_mode: str = "optional"
    allow_direct_cemented_build: bool = True
    partner_add_free: bool = True
    min_house_value: int = 9
    sweep_value: int = 50
    early_sweep_value: int = 25
    early_sweep_plays: int = 1
    last_play_sweep_value: int = 0

    @classmethod
    def of(cls, variant) -> "Rules":
        return cls(**{k: getattr(variant, k) for k in cls.__dataclass_fields__})


def partner(s: int) -> int:
    return (s + 2) % 4


def total(cards) -> int:
    return sum(VAL[c] for c in cards)


def subsets(cards):
    cards = sorted(cards)
    for r in range(len(cards) + 1):
        yield from (frozenset(x) for x in combinations(cards, r))


def packable(cards, t: int) -> bool:
    """Whether ``cards`` split into disjoint groups each summing to ``t``."""
    cards = sorted(cards)
    if not cards:
        return True
    if total(cards) % t:
        return False
    first, rest = cards[0], cards[1:]
    for r in range(len(rest) + 1):
        for other in combinations(rest, r):
            if VAL[first] + total(other) == t and packable(set(rest) - set(other), t):
                return True
    return False


def has_group(cards, t: int, sums: bool = True) -> bool:
    """Whether some non-empty subset of ``cards`` sums to ``t`` (a single card if not sums)."""
    if not sums:
        return any(VAL[c] == t for c in cards)
    return any(x and total(x) == t for x in subsets(cards))


def add_owner(owners: set, p: int) -> set:
    if p in owners or partner(p) in owners:
        return set(owners)
    return set(owners) | {p}


def holds_value(hand, v: int) -> bool:
    return any(VAL[c] == v for c in hand)


def retention_ok(p: int, hand_after, houses) -> bool:
    return all(holds_value(hand_after, v) for v, h in houses.items() if p in h.owners)


def legal_moves(s: State, r: Rules = Rules()) -> set:
    """Every legal move of the player to move (docs/games/seep.md, rule 3.3 and 3.4, by brute force)."""
    p = s.to_move
    opening = s.play_index == 1
    moves = set()
    loose_subsets = list(subsets(s.loose))
    for c in s.hands[p]:
        v = VAL[c]
        hand_after = s.hands[p] - {c}
        uses_bid = (not opening) or v == s.bid
        # CAPTURE
        if uses_bid:
            for x in loose_subsets:
                if r.capture_sums:
                    if not packable(x, v):
                        continue
                elif any(VAL[y] != v for y in x):
                    continue
                left = s.loose - x
                maximal = not has_group(left, v, r.capture_sums)
                for take in (True, False):
                    if take and v not in s.houses:
                        continue
                    if r.capture_maximal and (not maximal or take != (v in s.houses)):
                        continue
                    if not x and not take:
                        continue
                    after = {w: h for w, h in s.houses.items() if not (take and w == v)}
                    if retention_ok(p, hand_after, after):
                        moves.add((CAPTURE, c, v, x, take))
        # BUILD / ADD
        for V in range(max(r.min_house_value, v), 14):
            if opening and V != s.bid:
                continue
            eligible = {y for y in s.loose if VAL[y] != V}
            for x in loose_subsets:
                if not x <= eligible or (total(x) + v) % V or not packable(x | {c}, V):
                    continue
                if r.absorption_mode == "forbidden" and total(x) + v != V:
                    continue
                if r.absorption_mode == "mandatory" and has_group(eligible - x, V):
                    continue
                if V not in s.houses:
                    auto = {y for y in s.loose if VAL[y] == V}
                    if len({c} | x | auto) < 2:
                        continue
                    if not r.allow_direct_cemented_build and (v == V or v + total(x) != V):
                        continue
                    if not holds_value(hand_after, V):
                        continue
                    after = dict(s.houses)
                    after[V] = House({c} | x | auto, {p})
                    kind = BUILD
                else:
                    owners = add_owner(s.houses[V].owners, p)
                    must_hold = p in owners or not r.partner_add_free
                    if must_hold and not holds_value(hand_after, V):
                        continue
                    after = dict(s.houses)
                    after[V] = House(s.houses[V].cards | {c} | x, owners)
                    kind = ADD
                if retention_ok(p, hand_after, after):
                    moves.add((kind, c, V, x, False))
        # BREAK
        if not opening:
            for w, h in s.houses.items():
                if h.total() != w or p in h.owners:
                    continue
                v2 = w + v
                if v2 > 13 or not holds_value(hand_after, v2):
                    continue
                after = {u: g for u, g in s.houses.items() if u != w}
                owners = add_owner(after[v2].owners, p) if v2 in after else {p}
                after[v2] = House(set(), owners)
                if retention_ok(p, hand_after, after):
                    moves.add((BREAK, c, v2, frozenset(), False))
        # THROW
        if uses_bid and v not in s.houses:
            ok = True
            if r.throw_requires_no_capture and has_group(s.loose, v, r.capture_sums):
                ok = False
            if not r.owner_may_throw and any(p in h.owners for h in s.houses.values()):
                ok = False
            if ok and retention_ok(p, hand_after, s.houses):
                moves.add((THROW, c, 0, frozenset(), False))
    return moves


def sweep_value_for(k: int, r: Rules) -> int:
    if k == 48:
        return r.last_play_sweep_value
    return r.early_sweep_value if k <= r.early_sweep_plays else r.sweep_value


def apply(s: State, move, r: Rules = Rules(), check: bool = True) -> State:
    """The state after ``move`` (3.5), dealing the stock after play 1 (2.5)."""
    if check and move not in legal_moves(s, r):
        raise IllegalMove(f"illegal move {move} at play {s.play_index}")
    s = copy.deepcopy(s)
    kind, c, target, x, take = move
    p = s.to_move
    k = s.play_index
    s.hands[p].discard(c)
    if kind == CAPTURE:
        taken = {c} | set(x)
        s.loose -= x
        if take:
            taken |= s.houses.pop(target).cards
        s.piles[p % 2] |= taken
        s.last_capture_team = p % 2
        if not s.loose and not s.houses:
            s.sweep_points[p % 2] += sweep_value_for(k, r)
    elif kind in (BUILD, ADD):
        s.loose -= x
        if target in s.houses:
            h = s.houses[target]
            h.cards |= {c} | set(x)
            h.owners = add_owner(h.owners, p)
        else:
            s.houses[target] = House({c} | set(x), {p})
        merge_loose(s, target)
    elif kind == BREAK:
        h = s.houses.pop(target - VAL[c])
        h.cards.add(c)
        if target in s.houses:
            g = s.houses[target]
            g.cards |= h.cards
            g.owners = add_owner(g.owners, p)
        else:
            s.houses[target] = House(h.cards, {p})
        merge_loose(s, target)
    else:
        s.loose.add(c)
    s.play_index += 1
    if k == 1 or (k == 24 and s.nplayers == 2):
        for seat in packet_order(s, k):
            s.hands[seat] |= set(s.stock[:4])
            s.stock = s.stock[4:]
    return s


def packet_order(s: State, k: int) -> list:
    """Seats receiving the packets of four dealt after play ``k`` (2.5; 6.2 for two players)."""
    b, d = s.bidder, s.dealer
    if s.nplayers == 4:
        return [(b + i) % 4 for i in (0, 1, 2, 3, 0, 1, 2, 3, 1, 2, 3)]
    return [b, d, b, d, d] if k == 1 else [b, d] * 3


def merge_loose(s: State, V: int) -> None:
    same = {y for y in s.loose if VAL[y] == V}
    s.loose -= same
    s.houses[V].cards |= same


def finish(s: State) -> dict:
    """Section 4 and 5.1: leftovers to the last capturer, card points and deal scores."""
    if s.houses:
        raise AssertionError("a house survived the deal")
    team = s.last_capture_team if s.last_capture_team is not None else s.dealer % 2
    piles = [set(s.piles[0]), set(s.piles[1])]
    piles[team] |= s.loose
    points = [sum(PTS[c] for c in pile) for pile in piles]
    return {"points": points, "sweeps": list(s.sweep_points),
            "scores": [points[t] + s.sweep_points[t] for t in range(2)], "piles": piles,
            "leftover": set(s.loose), "leftover_team": team if s.loose else None}


def play_out(dealer: int, bid: int, hands, floor, stock, moves, rules: Rules = Rules(), nplayers: int = 4) -> dict:
    """Differential entry point: play explicit moves from explicit cards and score the deal.

    ``hands`` are the four starting hands (only the bidder's four cards before play 1),
    ``floor`` the four floor cards, ``stock`` the 44 remaining cards in dealing order
    (:func:`packet_order`), ``moves`` the 48 moves in play order. Raises IllegalMove on
    an illegal move.
    """
    s = State(dealer=dealer, bid=bid, hands=[set(h) for h in hands], loose=set(floor), stock=list(stock),
              nplayers=nplayers)
    for m in moves:
        s = apply(s, m, rules)
    return finish(s)


# ------------------------------------------------------------------ kernel traces

def from_kernel(st) -> State:
    """A referee State from a kernel state snapshot (see layout)."""
    houses = {}
    for v in range(14):
        if st[S_HOUSE + v]:
            houses[v] = House(set(cards_of(int(st[S_HOUSE + v]))),
                              {s for s in range(4) if int(st[S_OWNERS + v]) >> s & 1})
    last = int(st[S_LAST_CAPTURE])
    return State(dealer=int(st[S_DEALER]), bid=int(st[S_BID]),
                 hands=[set(cards_of(int(st[S_HANDS + s]))) for s in range(4)],
                 loose=set(cards_of(int(st[S_LOOSE]))), houses=houses,
                 piles=[set(cards_of(int(st[S_PILE + t]))) for t in range(2)],
                 sweep_points=[int(st[S_SWEEP_PTS + t]) for t in range(2)],
                 last_capture_team=None if last < 0 else last, play_index=int(st[S_PLAY]),
                 nplayers=int(st[S_NPLAYERS]))


def move_of_row(row, st=None):
    """The referee's move for a kernel move row ``[kind, card, target, loose, house]``."""
    kind, card, target, loose, house = (int(x) for x in row[:5])
    return (kind, card, target, frozenset(cards_of(loose)), bool(house))


def move_of_event(ev):
    """The referee's move for a ``legal`` trace event."""
    return (ev.move, ev.card, ev.target, frozenset(cards_of(ev.loose)), bool(ev.house))


def chosen_moves(events) -> list:
    """The referee's moves the trace's 48 plays chose, in order."""
    return [move_of_event(legal[play.choice]) for play, legal in plays(events)]


def same_state(a: State, b: State) -> bool:
    return (a.hands == b.hands and a.loose == b.loose and a.piles == b.piles
            and a.sweep_points == b.sweep_points and a.last_capture_team == b.last_capture_team
            and a.play_index == b.play_index
            and {v: (h.cards, h.owners) for v, h in a.houses.items()}
            == {v: (h.cards, h.owners) for v, h in b.houses.items()})


def check_trace(tr_state, events, rules: Rules = Rules()) -> dict:
    """Re-check a kernel trace (``replay.trace``'s states and events) play by play; return the
    referee's final score (raises on a mismatch)."""
    first = from_kernel(tr_state[0])
    bidder = first.bidder
    if not rules.min_house_value <= first.bid <= 13 or not holds_value(first.hands[bidder], first.bid):
        raise AssertionError(f"illegal bid {first.bid}")
    if len(first.hands[bidder]) != 4 or any(first.hands[s] for s in range(4) if s != bidder):
        raise AssertionError("wrong hands before the opening play")
    n = first.nplayers
    s = first
    by_play = plays(events)
    if [play.k for play, _ in by_play] != list(range(1, 49)):
        raise AssertionError("the trace does not hold plays 1 .. 48 in order")
    for play, legal in by_play:
        k = play.k
        if play.seat != (bidder + k - 1) % n or play.legal != len(legal):
            raise AssertionError(f"play {k}: wrong seat or legal count in the trace")
        kernel_state = from_kernel(tr_state[k - 1])
        if k > 1 and not same_state(s, kernel_state):
            raise AssertionError(f"play {k}: kernel state differs from the referee's")
        if k == 2:
            sizes = [len(h) for h in s.hands[:n]]
            if sizes[bidder] != 11 or any(sizes[t] != 12 for t in range(n) if t != bidder):
                raise AssertionError(f"wrong hand sizes after the deal: {sizes}")
        if k == 25 and n == 2 and [len(h) for h in s.hands[:2]] != [12, 12]:
            raise AssertionError("wrong hand sizes after the second deal")
        s = kernel_state if k == 1 else s
        kernel_moves = [move_of_event(ev) for ev in legal]
        if len(set(kernel_moves)) != len(kernel_moves):
            raise AssertionError(f"play {k}: duplicate moves in the kernel list")
        expected = legal_moves(s, rules)
        if set(kernel_moves) != expected:
            raise AssertionError(
                f"play {k}: kernel moves differ; missing {expected - set(kernel_moves)}, "
                f"extra {set(kernel_moves) - expected}")
        chosen = kernel_moves[play.choice]
        if k == 1 or (k == 24 and n == 2):
            # snapshots hold the stock as a set, not in dealing order: check the dealt
            # hands hold the old hands plus exactly the cards that left the stock, and
            # that every seat got as many as packet_order says, then adopt them
            after = apply(s, chosen, rules, check=False)
            dealt = from_kernel(tr_state[k])
            handed = set(cards_of(int(tr_state[k - 1][S_STOCK]) & ~int(tr_state[k][S_STOCK])))
            added = [dealt.hands[t] - after.hands[t] for t in range(4)]
            counts = [4 * packet_order(s, k).count(t) for t in range(4)]
            if (any(not after.hands[t] <= dealt.hands[t] for t in range(4))
                    or set().union(*added) != handed or [len(a) for a in added] != counts):
                raise AssertionError("the remainder deal does not hand out exactly the stock")
            after.hands = dealt.hands
            s = after
        else:
            s = apply(s, chosen, rules, check=False)
    result = finish(s)
    last = tr_state[48]
    for t in range(2):
        if result["piles"][t] != set(cards_of(int(last[S_PILE + t]))):
            raise AssertionError("final piles differ")
    if sum(result["points"]) != 100 or len(result["piles"][0] | result["piles"][1]) != 52:
        raise AssertionError("card points or cards not conserved")
    return result
