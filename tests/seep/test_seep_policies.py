"""Seep built-in policies: basic does not give away the sweeps a beginner would see."""
import importlib.util
import os

import numpy as np
from scipy import stats
from seep_util import make_state, variant

from simcards.core.cards import parse_cards
from simcards.games.seep import GAME
from simcards.games.seep import policies as sp
from simcards.games.seep.layout import CAPTURE, M_CARD, M_KIND, S_BIDDER, S_PLAY, ST_SIZE
from simcards.games.seep.rules import legal_moves_of, make_view

GREEDY_BOTS = os.path.join(os.path.dirname(__file__), "seep_greedy_bots.py")


def _greedy_move():
    """The pre-issue-14 basic mover (tests/seep/seep_greedy_bots.py), as plain Python."""
    spec = importlib.util.spec_from_file_location("seep_greedy_bots", GREEDY_BOTS)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.greedy_move


def _choice(move, state, seat, policy="basic"):
    """(index chosen by the move function ``move`` for ``seat``, the moves, the view with
    ``policy``'s default parameters)."""
    moves = legal_moves_of(state, seat, variant().to_params())
    view = np.zeros(ST_SIZE, np.int64)
    make_view(state, seat, view, GAME.policies.table([policy] * 4).params)
    return move(view, moves, len(moves), np.array([7], np.uint64)), moves, view


def test_basic_does_not_leave_a_lone_card_to_sweep():
    """Floor 3H 7S, hand 3C KD: capturing 3H with 3C (the old greedy choice) leaves 7S alone
    for the next player, who may hold one of the three unseen sevens; basic plays a safe move."""
    seat = 1
    state = make_state(seat, {seat: "3C KD", 2: "7C 7D 2H", 3: "4C 5C", 0: "6C 8C"}, loose="3H 7S", play=20)
    assert (state[S_BIDDER] + state[S_PLAY] - 1) % 4 == seat
    i, moves, view = _choice(_greedy_move(), state, seat)
    assert moves[i, M_KIND] == CAPTURE and moves[i, M_CARD] == parse_cards("3C")[0]
    assert sp.gives_lone_sweep(view, moves, i, sp.unseen_cards(view), sp.houses_mask(view))
    i, moves, view = _choice(sp.basic_move, state, seat)
    assert not sp.gives_lone_sweep(view, moves, i, sp.unseen_cards(view), sp.houses_mask(view))


def test_basic_still_moves_when_every_move_leaves_a_sweep():
    """Empty floor, one card in hand: the only move leaves it alone; basic plays it."""
    seat = 1
    state = make_state(seat, {seat: "7H", 2: "7C", 3: "4C", 0: "6C"}, play=45)
    i, moves, view = _choice(sp.basic_move, state, seat)
    assert len(moves) == 1 and i == 0
    assert sp.gives_lone_sweep(view, moves, i, sp.unseen_cards(view), sp.houses_mask(view))


def test_basic_sweeps_at_most_one_and_a_half_times_per_deal():
    """Issue 14: basic used to concede 8.6 sweeps per deal (expert 0.35). Target <= 1.5,
    with the whole 99.9 % interval of the mean below it (2,000 deals, fixed seed)."""
    out = GAME.simulate("deal", variant(), GAME.policies.table(["basic"]), 14, 0, 2000)
    cols = GAME.unit("deal").column_names()
    sweeps = sum(out[:, cols.index(c)] for c in ("sweeps_early", "sweeps_normal", "sweeps_last")).astype(float)
    mean, se = sweeps.mean(), sweeps.std(ddof=1) / np.sqrt(len(sweeps))
    high = mean + stats.t.ppf(0.9995, len(sweeps) - 1) * se
    assert high <= 1.5, (mean, high)
