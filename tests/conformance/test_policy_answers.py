"""Every decision of every game: reachable, checked, and its errors one clear line.

- a counting policy (basic with counters) sees every decision of the catalog asked;
- a user policy that answers 999 in one decision at seat 1 stops the run with one line
  naming the game, seat 1, its policy file, the decision and the value;
- a user policy that raises names the seat, policy and decision and keeps the message;
- a user policy written as docs/policies.md says (functions over a built-in's) plays
  exactly the built-in's records.
"""
from __future__ import annotations

import re

import numpy as np
import pytest

from simcards.core.errors import SimcardsError
from conformance_util import ALL_DECISIONS, GAMES, counting_table, write_policy_file

BAD = 999  # illegal in every decision of every game (no card, bid, move or option is 999)
SEAT = 1


def run_until_error(setup, table, count=None):
    """Simulate the profile's records in a few chunks; return the SimcardsError raised, or None."""
    count = count or setup.count
    step = max(1, count // 4)
    for start in range(0, count, step):
        try:
            setup.game.simulate(setup.unit, setup.variant, table, 11, start, min(step, count - start))
        except SimcardsError as exc:
            return exc
    return None


@pytest.mark.parametrize("game", GAMES)
def test_every_decision_is_asked_and_counting_changes_nothing(game, setups):
    s = setups(game)
    counts = np.zeros(len(s.game.policies.decisions), np.int64)
    counted = s.game.simulate(s.unit, s.variant, counting_table(s, counts), 11, 0, s.count)
    plain = s.game.simulate(s.unit, s.variant, s.table(), 11, 0, s.count)
    never = [d.name for d, n in zip(s.game.policies.decisions, counts) if n == 0]
    assert not never, f"{game}: decisions never asked in {s.count} {s.unit}s: {never}"
    np.testing.assert_array_equal(counted, plain)


@pytest.fixture(scope="module")
def bad_files(tmp_path_factory):
    """One policy file per game: ``bad_<decision>`` answers 999 there, ``raise_<decision>`` raises."""
    folder = tmp_path_factory.mktemp("bad_policies")
    files = {}
    for game in GAMES:
        from simcards.core.game import get_game

        bodies = {}
        for d in get_game(game).policies.decisions:
            bodies[f"bad_{d.name}"] = {d.name: f"return {BAD}"}
            bodies[f"raise_{d.name}"] = {d.name: f"if a0.shape[0] > 0:\n    raise ValueError('no idea what to {d.name}')\n"
                                                  "return 0"}
        files[game] = write_policy_file(folder / f"bad_{game.replace('-', '_')}.py", game, bodies)
    return files


@pytest.mark.parametrize("game,decision", ALL_DECISIONS)
def test_an_illegal_answer_stops_the_run_with_one_line(game, decision, setups, bad_files):
    s = setups(game)
    spec = f"{bad_files[game]}:bad_{decision}"
    exc = run_until_error(s, s.table(overrides={SEAT: spec}))
    assert exc is not None, f"{game}: {decision} answering {BAD} at seat {SEAT} ran cleanly"
    text = str(exc)
    assert "\n" not in text
    pattern = (rf"^{re.escape(game)}: seat {SEAT} \(policy {re.escape(spec)}\): {decision} returned "
               rf"{BAD}, which is not legal")
    assert re.match(pattern, text), text


@pytest.mark.parametrize("game", GAMES)
def test_a_raising_policy_names_seat_policy_decision_and_message(game, setups, bad_files):
    s = setups(game)
    decision = s.game.policies.decisions[-1].name if game == "toy" else _busiest(s)
    spec = f"{bad_files[game]}:raise_{decision}"
    exc = run_until_error(s, s.table(overrides={SEAT: spec}))
    assert exc is not None
    text = str(exc)
    assert "\n" not in text
    assert text.startswith(f"{game}: seat {SEAT} (policy {spec}): its {decision} function raised "
                           f"ValueError: no idea what to {decision}"), text


def _busiest(setup) -> str:
    """The decision asked most often (a card play, a move): the raise surely comes up."""
    counts = np.zeros(len(setup.game.policies.decisions), np.int64)
    setup.game.simulate(setup.unit, setup.variant, counting_table(setup, counts), 11, 0, 5)
    return setup.game.policies.decisions[int(np.argmax(counts))].name


@pytest.mark.parametrize("game", GAMES)
def test_a_user_policy_written_as_the_docs_say_plays_like_its_base(game, setups, tmp_path):
    """docs/policies.md, "Every game": plain functions over a built-in's, the rest from ``base``."""
    s = setups(game)
    from simcards.core.game import get_game

    bodies = {"mine": {d.name: f"return basic_{d.name}({', '.join(f'a{i}' for i in range(len(d.signature.args)))})"
                       for d in get_game(game).policies.decisions}}
    path = write_policy_file(tmp_path / f"mine_{game.replace('-', '_')}.py", game, bodies)
    table = s.table("basic", {0: f"{path}:mine", SEAT: f"{path}:mine"})  # two seats: guards are per seat
    mine = s.game.simulate(s.unit, s.variant, table, 5, 0, s.count // 2 or 1)
    basic = s.game.simulate(s.unit, s.variant, s.table("basic"), 5, 0, s.count // 2 or 1)
    np.testing.assert_array_equal(mine, basic)
