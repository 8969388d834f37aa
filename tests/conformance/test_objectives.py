"""A unit's declared objective (what `simcards sweep` and `simcards ladder` optimise by
default) is a metric and group its tally really produces."""
from types import SimpleNamespace

import pytest

from conformance_util import GAMES
from simcards.core.game import get_game
from simcards.core.policy import seat_policies
from test_records import frame


@pytest.mark.parametrize("game", GAMES)
def test_objectives_are_tallied(game):
    g = get_game(game)
    v = g.variant()
    table = g.policies.table(seat_policies(g.default_policy, None, g.seats(v)))
    for u in [u for u in g.units if u.objective is not None]:
        array = g.simulate(u.name, v, table, 5, 0, 8)
        tally = g.tally(u.name, frame(SimpleNamespace(game=g, unit=u.name), array), v)
        metric, group = u.objective
        rows = tally[(tally.metric == metric) & (tally.group.astype(str) == group)]
        assert len(rows) and rows.n.sum() > 0, f"{game} {u.name}: objective {u.objective} not in its tally"
