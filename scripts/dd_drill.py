"""Drill a slow deal of `bench.py --dd`: one null-window question at a time, ours beside DDS.

`bench.py --dd --dd-slow 8` lists the deals of the worst ratios to DDS; this asks where such a
deal's time goes, the way the cross-to-partner quick tricks (docs/dev/double-dummy.md) were
found: each question "does the side on lead take T?" alone, then the position after some
cards and each legal next card's question, trick starts entered by ours (fresh table) beside
DDS's node count (its trick starts; DDS keeps its table between calls on the same deal, so an
unrelated deal is solved before each call). DDS takes no quick tricks at its own root, so a
position asked alone costs it more than inside its parent's search: compare a child's figures
with the parent's, not with DDS's total.

    python scripts/dd_drill.py questions 271 --strain N           # every target alone
    python scripts/dd_drill.py children 232 --strain N --target 8 # each opening lead
    python scripts/dd_drill.py children 232 --strain N --target 8 9S KS 3S

Deals are the bench's (`--seed` 2026, `--cards` 13 a hand), seat on lead = deal number mod 4.
Needs the test extra (endplay).
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "dd"))
from test_against_dds import pbn, random_hands  # noqa: E402

from simcards.core import dd  # noqa: E402
from simcards.core.cards import SUIT_MASKS  # noqa: E402

RANKS = "23456789TJQKA"
STRAINS = {"N": -1, "S": 3, "H": 2, "D": 1, "C": 0}


def _fail(text: str) -> None:
    """One error line on stderr and exit status 2 (bad input)."""
    print(f"dd_drill: error: {text}", file=sys.stderr)
    raise SystemExit(2)


def card_name(c: int) -> str:
    return RANKS[c % 13] + "CDHS"[c // 13]


def parse_card(text: str) -> int:
    text = text.upper()
    if len(text) != 2 or text[0] not in RANKS or text[1] not in "CDHS":
        _fail(f"{text!r} is not a card (rank then suit: 9S, TD, AH)")
    return "CDHS".index(text[1]) * 13 + RANKS.index(text[0])


def bench_deal(index: int, cards: int = 13, seed: int = 2026) -> list[int]:
    """Deal ``index`` of `bench.py --dd` (the same generator and seed)."""
    rng = np.random.default_rng(seed)
    hands = None
    for _ in range(index + 1):
        hands = random_hands(rng, cards)
    return hands


class Position:
    """A position of a deal after some cards: hands left, the trick so far, its leader, and the
    tricks the side measured (the opening leader's) has won."""

    def __init__(self, hands, trump: int, leader: int):
        self.hands, self.trump, self.leader = list(hands), trump, leader
        self.side = {leader, (leader + 2) % 4}
        self.trick: list[int] = []
        self.won = 0

    def mover(self) -> int:
        return (self.leader + len(self.trick)) % 4

    def left(self) -> int:
        """Tricks left, the one in progress included."""
        return max(bin(h).count("1") for h in self.hands)

    def legal(self) -> list[int]:
        hand = self.hands[self.mover()]
        if self.trick:
            follow = hand & (((1 << 13) - 1) << (13 * (self.trick[0] // 13)))
            hand = follow or hand
        return [c for c in range(52) if hand >> c & 1]

    def _winner(self) -> int:
        best, seat = self.trick[0], self.leader
        for i, c in enumerate(self.trick[1:], 1):
            ruff = self.trump >= 0 and c // 13 == self.trump and best // 13 != self.trump
            if ruff or (c // 13 == best // 13 and c % 13 > best % 13):
                best, seat = c, (self.leader + i) % 4
        return seat

    def play(self, c: int) -> "Position":
        seat = self.mover()
        if c not in self.legal():
            _fail(f"{card_name(c)} is not a legal card for seat {seat} here")
        p = Position(self.hands, self.trump, self.leader)
        p.side, p.trick, p.won = self.side, self.trick + [c], self.won
        p.hands[seat] &= ~(1 << c)
        if len(p.trick) == 4:
            w = p._winner()
            p.won += w in p.side
            p.leader, p.trick = w, []
        return p


def _settled(p: Position, need: int) -> tuple[bool, int] | None:
    """The answer without a search: every target up to 0 is made, none above the tricks left."""
    if need <= 0 or need > p.left():
        return need <= 0, 0
    return None


def ours(p: Position, need: int) -> tuple[bool, int]:
    """Whether the side takes ``need`` of the tricks left, and the trick starts ours entered
    (one null-window question on a fresh table)."""
    if _settled(p, need):
        return _settled(p, need)
    table = dd.Table()
    table.fresh()
    rules = dd.rules_row(4, p.trump)
    got = dd.solve(p.hands, rules, sorted(p.side), SUIT_MASKS, leader=p.leader, trick=p.trick, table=table,
                   lower=need - 1, upper=need, guess=need)
    return got >= need, int(table.counters[dd.C_ENTERED])


_DUMMY = random_hands(np.random.default_rng(999), 13)


def dds(p: Position, need: int) -> tuple[bool, int]:
    """The same question to DDS (SolveBoard with a target for the side to play), and its nodes."""
    import endplay._dds as _dds
    from endplay.types import Deal, Denom, Player

    if _settled(p, need):
        return _settled(p, need)
    denom = {-1: Denom.nt, 0: Denom.clubs, 1: Denom.diamonds, 2: Denom.hearts, 3: Denom.spades}[p.trump]

    def board(hands, first, trick=()):
        deal = Deal(pbn(hands))
        deal.first, deal.trump = Player(first), denom
        for i, c in enumerate(trick):
            deal._data.currentTrickSuit[i] = 3 - c // 13  # DDS numbers the suits from spades
            deal._data.currentTrickRank[i] = c % 13 + 2
        return deal

    fut = _dds.futureTricks()
    _dds.SolveBoard(board(_DUMMY, 0)._data, -1, 1, 0, fut, 0)  # a new deal: DDS empties its table
    ours_to_play = p.mover() in p.side
    target = need if ours_to_play else p.left() - need + 1  # DDS's target is the side to play's
    fut = _dds.futureTricks()
    _dds.SolveBoard(board(p.hands, p.leader, p.trick)._data, target, 1, 1, fut, 0)  # mode 1: search a forced card too
    reached = fut.cards > 0 and fut.score[0] >= target
    return reached if ours_to_play else not reached, int(fut.nodes)


def questions(p: Position) -> list[dict]:
    rows = []
    for need in range(1, p.left() + 1):
        (a, n), (b, m) = ours(p, need), dds(p, need)
        rows.append({"target": need, "ours": a, "entered": n, "dds": b, "dds_nodes": m})
    return rows


def children(p: Position, target: int) -> list[dict]:
    rows = []
    for c in p.legal():
        q = p.play(c)
        need = target - q.won
        (a, n), (b, m) = ours(q, need), dds(q, need)
        rows.append({"card": card_name(c), "ours": a, "entered": n, "dds": b, "dds_nodes": m})
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("questions", "children"))
    parser.add_argument("deal", type=int, help="deal number of bench.py --dd")
    parser.add_argument("path", nargs="*", help="cards played from the opening lead (children)")
    parser.add_argument("--strain", default="N", choices=sorted(STRAINS), help="trump suit, N for no trump")
    parser.add_argument("--target", type=int, help="children: tricks of the opening leader's side in the deal")
    parser.add_argument("--cards", type=int, default=13, help="cards a hand (bench.py --dd-cards)")
    parser.add_argument("--seed", type=int, default=2026, help="bench.py --dd-seed")
    args = parser.parse_intermixed_args()
    p = Position(bench_deal(args.deal, args.cards, args.seed), STRAINS[args.strain], args.deal % 4)
    print(pbn(p.hands), "leader", p.leader, "strain", args.strain)
    for text in args.path:
        p = p.play(parse_card(text))
    if args.what == "questions":
        for r in questions(p):
            print(f"question {r['target']:>2}: ours {'yes' if r['ours'] else 'no '} entered {r['entered']:>8,}"
                  f"   DDS {'yes' if r['dds'] else 'no '} nodes {r['dds_nodes']:>8,}")
        return 0
    if args.target is None:
        _fail("children needs --target (the tricks asked of the opening leader's side)")
    need = args.target - p.won
    (a, n), (b, m) = ours(p, need), dds(p, need)
    print(f"after {' '.join(args.path) or 'nothing'} (seat {p.mover()} to play): side makes {args.target}: "
          f"ours {a} entered {n:,}, DDS {b} nodes {m:,}")
    for r in children(p, args.target):
        print(f"  {r['card']}: ours {'yes' if r['ours'] else 'no '} entered {r['entered']:>8,}"
              f"   DDS {'yes' if r['dds'] else 'no '} nodes {r['dds_nodes']:>8,}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
