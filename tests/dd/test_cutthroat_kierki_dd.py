"""Cutthroat and Kierki double dummy: real deals' late positions against the reference
(paranoid bound: each player alone), and the commands."""
import pytest
from click.testing import CliRunner

from simcards.cli import main
from simcards.core import dd, dd_ref
from simcards.core.game import get_game
from simcards.core.policy import seat_policies
from simcards.games.cutthroat import dd as cdd
from simcards.games.kierki import dd as kdd


def _late(deal, row, masks, n, tricks_left):
    """Hands, leader and broken flag with ``tricks_left`` tricks to play."""
    played = len(deal["cards"]) - n * tricks_left
    hands = list(deal["hands"])
    for c in deal["cards"][:played]:
        for s in range(n):
            hands[s] &= ~(1 << c)
    leader = deal["winners"][len(deal["winners"]) - tricks_left - 1]
    broken = row[dd.R_TRUMP] >= 0 and any(int(masks[row[dd.R_TRUMP]]) >> c & 1 for c in deal["cards"][:played])
    return hands, leader, broken


@pytest.mark.parametrize("settings", [("num_players=3",), ("num_players=4",), ("num_players=5", "jokers=2"),
                                      ("num_players=5", "jokers=3")])
def test_cutthroat_late_positions_match_the_reference(settings):
    g = get_game("cutthroat")
    v = g.variant(None, None, list(settings))
    table = g.policies.table(seat_policies("expert", None, v.num_players))
    deal = cdd.played_deal(v, table, 5, 2)
    assert len(deal["cards"]) == sum(bin(h).count("1") for h in deal["hands"])
    row, masks = cdd.solver_rules(v, deal["hands"], deal["sitout"])
    n = v.num_players
    hands, leader, broken = _late(deal, row, masks, n, 3)
    for seat in range(n):
        got = dd.solve(hands, row, [seat], masks, leader=leader, broken=broken)
        assert got == dd_ref.solve(hands, row, [seat], masks, leader=leader, broken=broken)


@pytest.mark.parametrize("obligation", ["none", "must_trump", "must_overtrump"])
def test_kierki_trump_deal_late_positions_match_the_reference(obligation):
    g = get_game("kierki")
    v = g.variant(None, None, ["deal_type=trumps", f"trump_obligation={obligation}"])
    table = g.policies.table(seat_policies("expert", None, 4))
    deal = kdd.played_deal(v, table, 2, 4)
    assert len(deal["cards"]) == 52 and len(deal["winners"]) == 13
    row, masks = kdd.solver_rules(v, deal["trump"])
    hands, leader, _ = _late(deal, row, masks, 4, 4)
    for seat in range(4):
        assert dd.solve(hands, row, [seat], masks, leader=leader) == dd_ref.solve(hands, row, [seat], masks,
                                                                                   leader=leader)


def test_cutthroat_and_kierki_commands():
    r = CliRunner().invoke(main, ["dd", "cutthroat", "--players", "5", "--set", "jokers=2", "--seed", "3", "--deal",
                                  "1", "--from-trick", "10"])
    assert r.exit_code == 0, r.output
    assert "paranoid bound" in r.output and "Tricks lost to double-dummy play" in r.output
    r = CliRunner().invoke(main, ["dd", "cutthroat", "--hand", "AS 2H / KH QH / AD 3C"])
    assert r.exit_code == 0 and "Double-dummy tricks by seat on lead" in r.output, r.output
    r = CliRunner().invoke(main, ["replay", "kierki", "--deal-type", "trumps", "--seed", "2", "--deal", "4", "--dd",
                                  "--from-trick", "11"])
    assert r.exit_code == 0 and "cost their side a trick" in r.output, r.output
    r = CliRunner().invoke(main, ["dd", "kierki", "--seed", "2", "--deal", "4"])
    assert r.exit_code == 2 and "trump deals" in r.output, r.output


@pytest.mark.parametrize("args", [["cutthroat", "--players", "4"], ["kierki", "--deal-type", "trumps"]])
def test_from_trick_beyond_the_deal_is_one_line(args):
    r = CliRunner().invoke(main, ["dd", *args, "--seed", "3", "--deal", "1", "--from-trick", "99"])
    assert r.exit_code == 2 and "--from-trick must be a trick of this deal" in r.output, r.output
    assert len(r.output.strip().splitlines()) == 1


def test_progress_counts_every_position_with_a_seat_sitting_out(monkeypatch):
    """Cutthroat with 5 players (2 jokers) and the dealer out of trick 1: the bar ends full (its total is right)."""
    from simcards.api import double_dummy_text
    from simcards.core import dd_report

    done = []

    class Bar:
        def __init__(self, total, desc):
            self.total, self.n = total, 0

        def update(self, n=1):
            self.n += n

        def close(self):
            done.append((self.total, self.n))

    monkeypatch.setattr(dd_report, "_make_bar", Bar)
    for start in (1, 2, 9):
        double_dummy_text("cutthroat", settings=["num_players=5", "jokers=2"], seed=3, index=1, from_trick=start,
                          progress=True)
    assert len(done) == 3 and all(total == n > 0 for total, n in done), done
