"""Test policies for Seep.

``greedy`` is the plain greedy mover that ``basic`` was before it learned to avoid
leaving sweepable floors: the capture worth most points (sweeps count), else a build,
else the cheapest throw. Its opening is simple enough to check against exact
combinatorics (tests/seep/test_seep_odds.py).
"""
from simcards import Policy
from simcards.games.seep import policies as sp
from simcards.games.seep.layout import S_PLAY


def greedy_move(view, moves, n, rng):
    houses = sp.houses_mask(view)
    bonus = sp.sweep_bonus(view, view[S_PLAY])
    best = -1e300
    ties = 0
    pick = 0
    for i in range(n):
        take, best, ties = sp.better(sp.basic_score(view, moves, i, houses, bonus), best, ties, rng)
        if take:
            pick = i
    return pick


greedy = Policy("greedy", move=greedy_move, base=sp.BASIC)
