"""`simcards bid spades --dd`: the double-dummy columns are the solver's answers on the very
deals the bots bid and play (deal i of seed s), the same for any thread count, and the
table's rates are those of the records; bad input is one line and exit 2."""
import json

import numpy as np
import pytest
from click.testing import CliRunner

from simcards.cli import main
from simcards.core import dd
from simcards.core.cards import parse_cards
from simcards.core.game import OddsRequest, get_game
from simcards.core.policy import seat_policies
from simcards.games.spades import dd as sdd, rules
from simcards.games.spades.odds import DD_COLUMN

HAND = "AS KS 7S 4S AH QH 9H 5D 4D 3D KC 8C 2C"
# South holds HAND, West deals: North and East bid first (North, the partner, 3)
ASK = ["bid", "spades", "--hand", HAND, "--seat", "S", "--dealer", "W", "--bids", "N=3,E=4", "--seed", "4",
       "--deals", "5", "--format", "json", "--quiet"]


@pytest.fixture(scope="module")
def spades():
    g = get_game("spades")
    v = g.variant(None, None, [])
    table = g.policies.table(seat_policies("expert", None, 4))
    support = g.odds["bid"]
    request = OddsRequest(hand=tuple(parse_cards(HAND)), seat=2, dealer=3, bids={0: "3", 1: "4"}, options={"dd": True})
    return support, v, table, support.prepare(v, request)


@pytest.fixture(scope="module")
def records(spades):
    support, v, table, query = spades
    return support.simulate(query, v, table, 4, 0, 5)


def test_dd_column_is_the_solver_on_the_bots_deals(spades, records):
    support, v, table, query = spades
    plain = support.simulate({**query, "dd": False}, v, table, 4, 0, 5)
    # the bots' columns and deals do not change with --dd; without it the column is -99
    assert (plain[:, :DD_COLUMN] == records[:, :DD_COLUMN]).all() and (plain[:, DD_COLUMN] == -99).all()
    for row in records:
        hands = [int(h) for h in row[rules.ODDS_HANDS:rules.ODDS_HANDS + 4]]
        assert hands[2] == sum(1 << c for c in parse_cards(HAND))
        assert sum(bin(h).count("1") for h in hands) == 52 and (hands[0] | hands[1] | hands[2] | hands[3]) == (1 << 52) - 1
        rule_row, masks = sdd.solver_rules(v, hands)
        # West deals: North leads (left_of_dealer); the other side, solved on its own, takes the rest
        ew = dd.solve(hands, rule_row, (1, 3), masks, leader=0, trick1=True)
        assert row[DD_COLUMN] == 13 - ew


def test_dd_records_do_not_depend_on_chunking(spades, records):
    support, v, table, query = spades
    tail = support.simulate(query, v, table, 4, 3, 2)
    assert (tail == records[3:]).all()


def test_bid_dd_table_rates_and_threads(records):
    one = CliRunner().invoke(main, ASK + ["--dd", "--threads", "1"])
    assert one.exit_code == 0, one.output
    two = CliRunner().invoke(main, ASK + ["--dd", "--threads", "2"])
    assert two.exit_code == 0, two.output
    doc = json.loads(one.stdout)
    assert doc == json.loads(two.stdout) and doc["deals"] == 5
    tricks = records[:, DD_COLUMN]
    rows = {r["bid"]: r for r in doc["rows"]}
    for b in (1, 4, 7):
        assert rows[str(b)]["P(DD tricks>=bid)"] == pytest.approx(np.mean(tricks >= b))
        assert rows[str(b)]["makeable DD"] == pytest.approx(np.mean(tricks >= b + 3))  # partner North bid 3
    assert rows["Nil"]["makeable DD"] is None
    assert any(f"mean {tricks.mean():.2f} tricks" in n for n in doc["notes"])
    assert any("your bid plus partner's 3" in n for n in doc["notes"])
    # the bots' columns are the plain command's on the same deals
    plain = CliRunner().invoke(main, ASK)
    assert plain.exit_code == 0, plain.output
    for r in json.loads(plain.stdout)["rows"]:
        got = rows[r["bid"]]
        assert all(got[k] == v for k, v in r.items()), r["bid"]


@pytest.mark.parametrize("args, message", [
    (["bid", "seep", "--hand", "KS 9H 3D 5C", "--dd"], "no double-dummy columns"),
    (["bid", "spades", "--hand", HAND, "--dd", "--precision", "0.01"], "drop --precision"),
    (["bid", "spades", "--hand", HAND, "--dd", "--deals", "0"], "positive integer"),
])
def test_bid_dd_bad_input_is_one_line(args, message):
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2 and message in r.output and len(r.output.strip().splitlines()) == 1, r.output
