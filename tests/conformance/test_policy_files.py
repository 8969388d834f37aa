"""A user's policy file that cannot work is refused with one line before any record is played;
one that fails while playing stops the run with one line naming seat, policy and decision
(issue 13; docs/policies.md, "When a policy goes wrong")."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from simcards.cli import main
from simcards.core.errors import SimcardsError
from simcards.core.game import get_game

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"


def policy_file(tmp_path, text, name="bots.py"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def refused(game, spec):
    with pytest.raises(SimcardsError) as info:
        get_game(game).policies.table([spec])
    text = str(info.value)
    assert "\n" not in text
    return text


def test_a_decision_the_game_does_not_have_is_refused(tmp_path):
    path = policy_file(tmp_path, """
        from simcards import Policy
        from simcards.games.spades.policies import BASIC

        def bid(view, rng):
            return 1

        typo = Policy("typo", base=BASIC, bdi=bid)
    """)
    text = refused("spades", f"{path}:typo")
    assert "defines bdi, which spades does not decide" in text and "bid" in text


def test_a_decision_answering_a_float_is_refused(tmp_path):
    path = policy_file(tmp_path, """
        from simcards import Policy
        from simcards.games.spades.policies import BASIC

        def bid(view, rng):
            return 2.5

        floaty = Policy("floaty", base=BASIC, bid=bid)
    """)
    text = refused("spades", f"{path}:floaty")
    assert text.startswith(f"policy {path}:floaty: its bid function does not compile for bid")
    assert text.endswith(": it returns float64, but a bid answer is an integer (return int(...))")


def test_a_function_with_the_wrong_arguments_is_refused(tmp_path):
    path = policy_file(tmp_path, """
        from simcards import Policy
        from simcards.games.cutthroat.policies import BUILTINS

        def play(view, rng):
            return 0

        two = Policy("two", base=BUILTINS["basic"], play=play)
    """)
    text = refused("cutthroat", f"{path}:two")
    assert "its play function takes 2 arguments, but play is called with 3" in text


def test_the_spades_example_bot_is_refused_for_cutthroat_with_one_line():
    text = refused("cutthroat", f"{EXAMPLES / 'my_bots.py'}:cautious")
    assert "Signature mismatch" not in text
    assert "which cutthroat does not decide" in text and "another game" in text


def test_the_cutthroat_example_bot_plays_cutthroat():
    g = get_game("cutthroat")
    v = g.variant()
    table = g.policies.table(["expert", "expert", f"{EXAMPLES / 'cutthroat_bots.py'}:cautious"])
    bids = g.simulate("deal", v, table, 1, 0, 50)[:, g.unit("deal").column_names().index("bid_2")]
    assert (bids == 2).mean() > 0.5  # "bid 2 when legal"; blind bids still come from expert
    assert not ((bids > 2) & (bids < 21)).any()  # never an ordinary bid above 2 (21+: special bid codes)


def cli(*args):
    return CliRunner().invoke(main, list(args))


def test_an_illegal_discard_stops_contract_rummy_from_the_cli(tmp_path):
    """The bug of issue 15: a discard that always answers 999 used to run cleanly."""
    path = policy_file(tmp_path, """
        from simcards import Policy
        from simcards.games.contract_rummy.policies import CATALOG

        def discard(hand, pub, melds, opts, cfg, rng):
            return 999

        bad = Policy("bad", base=CATALOG.builtins["basic"], discard=discard)
    """)
    result = cli("run", "contract-rummy", "--games", "2", "--seat-policy", f"1={path}:bad", "--threads", "1",
                 "--quiet", "--out", str(tmp_path / "out"))
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert re.match(rf"^error: contract-rummy: seat 1 \(policy {re.escape(str(path))}:bad\): discard returned 999, "
                    r"which is not legal \(discard: .*\) \(seed 0, records 0\.\.1\)$", lines[0]), lines[0]


def test_a_raising_policy_from_the_cli_names_seat_policy_decision_and_message(tmp_path):
    path = policy_file(tmp_path, """
        from simcards import Policy
        from simcards.games.spades.policies import BASIC

        def bid(view, rng):
            if view[0] >= 0:
                raise ZeroDivisionError("my bidder divided by zero")
            return 1

        boom = Policy("boom", base=BASIC, bid=bid)
    """)
    result = cli("run", "spades", "--deals", "20", "--seat-policy", f"3={path}:boom", "--threads", "1", "--quiet",
                 "--out", str(tmp_path / "out"))
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert lines == [f"error: spades: seat 3 (policy {path}:boom): its bid function raised ZeroDivisionError: "
                     f"my bidder divided by zero (seed 0, records 0..19)"], result.output


def test_the_every_game_example_of_the_docs_plays_like_its_base(tmp_path):
    """The code block of docs/policies.md, "Every game", as a user would save it."""
    text = (ROOT / "docs" / "policies.md").read_text()
    section = text[text.index("## Every game"):]
    block = section[section.index("```python") + len("```python"):]
    path = policy_file(tmp_path, block[:block.index("```")], "mine.py")
    g = get_game("cutthroat")
    v = g.variant()
    mine = g.simulate("deal", v, g.policies.table([f"{path}:mine"]), 2, 0, 40)
    basic = g.simulate("deal", v, g.policies.table(["basic"]), 2, 0, 40)
    assert (mine == basic).all()
