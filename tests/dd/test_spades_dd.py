"""Spades double dummy: the adapter rebuilds the deal the bots played and feeds the solver
Spades' trick rules; the commands print the table and the marked cards."""
import numpy as np
import pytest
from click.testing import CliRunner

from simcards.cli import main
from simcards.core import dd, dd_ref
from simcards.core.game import get_game
from simcards.core.policy import seat_policies
from simcards.games.spades import dd as sdd
from simcards.games.spades import rules
from simcards.games.spades.kernel import run_kernel
from simcards.games.spades.replay import traced_hands

GAME = get_game("spades")


def _table(variant):
    return GAME.policies.table(seat_policies("expert", None, 4))


@pytest.mark.parametrize("settings", [(), ("jokers=2", "spades_must_be_broken=false"),
                                      ("first_lead=lowest_club", "first_trick_trump_allowed=false")])
def test_late_positions_of_real_deals_match_the_reference(settings):
    """From trick 10 of simulated deals (4 cards each, any leader), solver == minimax with Spades' rules."""
    v = GAME.variant(None, None, list(settings))
    table = _table(v)
    for index in range(3):
        deal = sdd.played_deal(v, table, 11, index)
        _, events = run_kernel("deal", v, table, 11, index, 1, trace=True)
        assert traced_hands(events)[0].plays == deal["cards"]
        assert sum(bin(h).count("1") for h in deal["hands"]) == 52
        row, masks = sdd.solver_rules(v, deal["hands"])
        hands = list(deal["hands"])
        for c in deal["cards"][:36]:
            for s in range(4):
                hands[s] &= ~(1 << c)
        leader = deal["winners"][8]
        broken = any(int(masks[3]) >> c & 1 for c in deal["cards"][:36])
        got = dd.solve(hands, row, [0, 2], masks, leader=leader, broken=broken)
        assert got == dd_ref.solve(hands, row, [0, 2], masks, leader=leader, broken=broken)


def test_played_deal_starts_from_the_dealt_hands_without_exchange():
    v = GAME.variant()
    table = _table(v)
    deal = sdd.played_deal(v, table, 7, 5)
    _, events = run_kernel("deal", v, table, 7, 5, 1, trace=True)
    assert deal["hands"] == traced_hands(events)[0].hands


@pytest.mark.parametrize("settings", [(), ("nil_exchange_count=2",)])
def test_played_deals_of_one_kernel_run_are_the_deals_one_by_one(settings):
    """``run --records dd`` reads a chunk's deals from one traced run of the kernel: each is the
    deal :func:`played_deal` rebuilds alone (hands, leader, cards, record), with Nil exchanges."""
    v = GAME.variant(None, None, list(settings))
    table = _table(v)
    together = sdd.played_deals(v, table, 13, 4, 6)
    assert together == [sdd.played_deal(v, table, 13, i) for i in range(4, 10)]
    assert len({tuple(d["cards"]) for d in together}) == 6


def test_dd_command_hand_ending_and_deal_from_late_trick():
    runner = CliRunner()
    r = runner.invoke(main, ["dd", "spades", "--hand", "AS 2H / KH QH / AD 3C / AC 2C"])
    assert r.exit_code == 0, r.output
    # N leads: AS, then 2H to partner? S holds no heart: NS take AS only if ... check the table rows
    assert "Double-dummy tricks by seat on lead" in r.output
    lines = [ln.split() for ln in r.output.splitlines() if ln.strip().startswith(("North", "East", "South", "West"))]
    table_rows = {ln[0]: (int(ln[1]), int(ln[2])) for ln in lines if len(ln) == 3 and ln[1].isdigit()}
    assert set(table_rows) == {"North", "East", "South", "West"}
    assert all(a + b == 2 for a, b in table_rows.values())
    r = runner.invoke(main, ["dd", "spades", "--seed", "7", "--deal", "123", "--from-trick", "11"])
    assert r.exit_code == 0, r.output
    assert "Tricks lost to double-dummy play" in r.output and "11." in r.output and " 1." not in r.output
    # the play is expert's (the default policy's play moves with its changes; this checks the report)
    r = runner.invoke(main, ["replay", "spades", "--seed", "7", "--deal", "123", "--dd", "--from-trick", "9",
                             "--policy", "expert"])
    assert r.exit_code == 0, r.output
    assert "trick  9: West 3S cost 1" in r.output


@pytest.mark.parametrize("args, message", [
    (["dd", "spades", "--seed", "1"], "name one deal"),
    (["dd", "spades", "--hand", "AS / KS / QS"], "needs 4 hands"),
    (["dd", "spades", "--hand", "AS / KS / QS / AS"], "two hands"),
    (["dd", "spades", "--hand", "AS KS / QS / JS / TS"], "same number of cards"),
    (["dd", "seep", "--deal", "1"], "offers no double-dummy"),
    (["dd", "spades", "--deal", "1", "--from-trick", "0"], "--from-trick"),
    (["dd", "spades", "--seed", "7", "--deal", "1", "--from-trick", "14"], "1 to 13, got 14"),
    (["replay", "spades", "--seed", "7", "--deal", "1", "--dd", "--from-trick", "14"], "1 to 13, got 14"),
])
def test_dd_command_mistakes_are_one_line(args, message):
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2 and message in r.output, r.output
    assert len(r.output.strip().splitlines()) == 1, r.output


class _Bar:
    """Records what an analysis does with its progress bar."""

    made: list = []

    def __init__(self, total, desc):
        self.total, self.done, self.closed = total, 0, False
        _Bar.made.append(self)

    def update(self, n=1):
        self.done += n

    def close(self):
        self.closed = True


def test_dd_analysis_shows_progress_only_when_asked(monkeypatch, capsys):
    """One step a position solved (the table's leaders, then each card analysed); the bar ends full."""
    from simcards.api import double_dummy_text, replay_text
    from simcards.core import dd_report

    text = double_dummy_text("spades", seed=7, index=123, from_trick=12, progress=True)
    assert "0/8" in capsys.readouterr().err  # a real tqdm bar on stderr: 2 tricks of 4 cards
    monkeypatch.setattr(dd_report, "_make_bar", _Bar)
    _Bar.made = []
    assert double_dummy_text("spades", seed=7, index=123, from_trick=12) == text
    assert _Bar.made == []
    double_dummy_text("spades", seed=7, index=123, from_trick=12, progress=True)
    double_dummy_text("spades", hands="AS 2H / KH QH / AD 3C / AC 2C", progress=True)
    double_dummy_text("spades", seed=7, index=123, from_trick=1, progress=True)
    replay_text("spades", seed=7, index=123, dd=True, from_trick=10, progress=True)
    assert [(b.total, b.done, b.closed) for b in _Bar.made] == [(8, 8, True), (4, 4, True), (56, 56, True),
                                                                (16, 16, True)]
