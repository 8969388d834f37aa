"""Every record bit-identical to the committed golden digests (tests/golden/).

A failure here means a change altered the records of some game. If the change is a
deliberate rules change, regenerate with ``python scripts/golden.py`` in its own commit
and say why; otherwise the change is a bug.
"""
import json
from pathlib import Path

import pytest

from simcards.experiment import golden

GOLDEN = Path(__file__).parent / "golden"
STORED = json.loads((GOLDEN / "digests.json").read_text())


@pytest.mark.parametrize("game", golden.BUILTIN_GAMES)
def test_records_match_golden_digests(game):
    configs = [c for c in golden.configurations([game])]
    assert configs, game
    changed = [golden.key(*c) for c in configs if STORED.get(golden.key(*c)) != golden.records_digest(*c)]
    assert not changed, f"records changed for {len(changed)} configurations, e.g. {changed[:5]}"


def test_golden_covers_every_configuration():
    assert set(STORED) == {golden.key(*c) for c in golden.configurations()}


@pytest.mark.parametrize("game", golden.BUILTIN_GAMES)
def test_replay_matches_golden_text(game):
    expected = (GOLDEN / f"replay-{game}.txt").read_text()
    assert golden.replay_text(game) == expected
