"""scripts/dd_drill.py asks ours and DDS the same question: on small endings their verdicts
agree for every target, and for every next card after 0 to 4 cards played (the target
arithmetic for the side to play, mid-trick and across a completed trick)."""
import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("endplay")

SPEC = importlib.util.spec_from_file_location("dd_drill", Path(__file__).resolve().parents[2] / "scripts" / "dd_drill.py")
drill = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(drill)


@pytest.mark.parametrize("strain", ["N", "S"])
def test_ours_and_dds_agree_on_every_question_and_child(strain):
    checked = 0
    for index in range(3):
        p = drill.Position(drill.bench_deal(index, cards=5), drill.STRAINS[strain], index % 4)
        for row in drill.questions(p):
            assert row["ours"] == row["dds"], (index, row)
        value = sum(row["ours"] for row in drill.questions(p))
        for played in range(5):  # the children of the position after `played` cards
            for row in drill.children(p, value + played % 2):
                assert row["ours"] == row["dds"], (index, played, row)
                checked += 1
            p = p.play(p.legal()[-1])
    assert checked > 30


def test_a_card_not_in_the_hand_is_one_line(capsys):
    p = drill.Position(drill.bench_deal(0, cards=5), -1, 0)
    missing = next(c for c in range(52) if not any(h >> c & 1 for h in p.hands))
    with pytest.raises(SystemExit) as exit_:
        p.play(missing)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "not a legal card" in err and err.count("\n") == 1
