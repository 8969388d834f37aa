"""Helpers for the Spades tests: compiled tables once per session, hand builders."""
from __future__ import annotations

import functools

from simcards.games.spades import GAME


@functools.lru_cache(maxsize=None)
def table(*specs):
    """Policy table for seat policies (compiled once per test session)."""
    return GAME.policies.table(list(specs))


def variant(preset=None, **settings):
    return GAME.variant(preset, settings)


def build_hand(tricks, dealer=0):
    """(hands, plays) of a legal default-rules hand in which seat s wins ``tricks[s]`` tricks.

    Tricks 1-3 clubs, 4-6 diamonds, 7-9 hearts (all follow suit, the holder of the
    top card wins), trick 10 the four deuces (only the 2S holder can take it: every
    other seat is void in the led suit), tricks 11-13 spades. The 2S goes to a seat
    that must win at least one trick.
    """
    assert sum(tricks) == 13
    if max(tricks) == 13:  # one seat takes all: it holds every spade
        x = tricks.index(13)
        others = [s for s in range(4) if s != x]
        hands = [[] for _ in range(4)]
        hands[x] = list(range(39, 52))
        for i, c in enumerate(range(39)):
            hands[others[i % 3]].append(c)
        plays, leader = [], (dealer + 1) % 4
        spade = iter(range(39, 52))
        side = {s: iter(hands[s]) for s in others}
        for _ in range(13):
            plays += [next(spade) if (leader + pos) % 4 == x else next(side[(leader + pos) % 4]) for pos in range(4)]
            leader = x
        return hands, plays
    x = next(s for s in range(4) if tricks[s] > 0)
    left = list(tricks)
    left[x] -= 1
    winners = [s for s in range(4) for _ in range(left[s])]  # 12 group winners
    y = next(s for s in range(4) if s != x and left[s] > 0)  # trick 9's winner must not be x:
    winners.remove(y)                                        # x can only lead 2S from a hand
    winners.insert(8, y)                                     # of spades, which others follow
    hands = [set() for _ in range(4)]
    groups = []  # per trick: {seat: card}
    g = 0
    for suit in (0, 1, 2):
        for k in range(3):
            groups.append(_group(suit, k, winners[g]))
            g += 1
    deuce_seats = [s for s in range(4) if s != x]
    extras = {x: 3 * 13}
    for suit, s in zip((0, 1, 2), deuce_seats):
        extras[s] = suit * 13
    groups.append(extras)
    for k in range(3):
        groups.append(_group(3, k, winners[g]))
        g += 1
    for grp in groups:
        for s, c in grp.items():
            hands[s].add(c)
    plays = []
    leader = (dealer + 1) % 4
    for grp in groups:
        for pos in range(4):
            plays.append(grp[(leader + pos) % 4])
        leader = max(grp, key=lambda s: (grp[s] // 13 == 3, grp[s]))
    return [sorted(h) for h in hands], plays


def _group(suit, k, winner):
    ranks = [1 + 4 * k + i for i in range(4)]  # the top rank goes to the winner
    seats = [winner] + [s for s in range(4) if s != winner]
    return {s: suit * 13 + r for s, r in zip(seats, reversed(ranks))}
