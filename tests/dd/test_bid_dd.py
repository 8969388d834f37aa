"""`simcards bid spades --dd`: the double-dummy columns are the solver's answers on the very
deals the bots bid and play (deal i of seed s), the same for any thread count, and the
table's rates are those of the records; the partner's bid per option is the one his bot makes
after the forced bid, and makeable DD counts that deal's team contract; bad input is one line
and exit 2."""
import io
import json
import os

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from simcards.cli import main
from simcards.core import dd
from simcards.core.cards import parse_cards
from simcards.core.game import OddsRequest, get_game
from simcards.core.policy import seat_policies
from simcards.core.deal import accept_all
from simcards.games.spades import dd as sdd, rules
from simcards.games.spades.kernel import prepared, seats
from simcards.games.spades.odds import COLUMNS, DD_COLUMN
from simcards.games.spades.policies import BN_BIT

HAND = "AS KS 7S 4S AH QH 9H 5D 4D 3D KC 8C 2C"
# South holds HAND, West deals: North and East bid first (North, the partner, 3)
ASK = ["bid", "spades", "--hand", HAND, "--seat", "S", "--dealer", "W", "--bids", "N=3,E=4", "--seed", "4",
       "--deals", "5", "--format", "json", "--quiet", "--policy", "expert"]  # the fixtures' bots
# North holds HAND, West deals: North bids first, South (the partner) after him
FIRST = ["bid", "spades", "--hand", HAND, "--seat", "N", "--dealer", "W", "--seed", "4", "--deals", "6", "--quiet",
         "--policy", "expert"]
PARTNER_BOTS = os.path.join(os.path.dirname(__file__), "spades_partner_bots.py")
INDEX = {c.name: i for i, c in enumerate(COLUMNS)}
SPADES = sum(1 << c for c in range(39, 52))


def partner_col(out, b):
    return out[:, INDEX[f"partner_bid_{'nil' if b == 0 else ('bn' if b == BN_BIT else b)}"]]


@pytest.fixture(scope="module")
def spades():
    g = get_game("spades")
    v = g.variant(None, None, [])
    table = g.policies.table(seat_policies("expert", None, 4))
    support = g.odds["bid"]
    request = OddsRequest(hand=tuple(parse_cards(HAND)), seat=2, dealer=3, bids={0: "3", 1: "4"}, options={"dd": True})
    return support, v, table, support.prepare(v, request)


@pytest.fixture(scope="module")
def first(spades):
    """North asks (West deals, so North bids first and South after him), expert bots, --dd."""
    support, v, table, _ = spades
    request = OddsRequest(hand=tuple(parse_cards(HAND)), seat=0, dealer=3, options={"dd": True})
    query = support.prepare(v, request)
    return query, support.simulate(query, v, table, 4, 0, 6)


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
    assert (records[:, rules.ODDS_PARTNER + 4] == 3).all()  # North bid 3 before South: on every replay
    assert all(rows[str(b)]["P(partner Nil)"] == 0 for b in (1, 4, 7))
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


def test_partner_bid_columns_are_the_bots_bid_after_the_forced_one(spades, first):
    """Each deal replayed alone (the whole deal given, one option at a time, the same seat
    streams) gives the partner's bid of the column; it follows the forced bid."""
    support, v, table, _ = spades
    query, out = first
    assert (out[:, :DD_COLUMN] == support.simulate({**query, "dd": False}, v, table, 4, 0, 6)[:, :DD_COLUMN]).all()
    kernel_seats = seats(table)
    varies = False
    for i, row in enumerate(out):
        hands = np.array([int(h) for h in row[rules.ODDS_HANDS:rules.ODDS_HANDS + 4]], np.uint64)
        seen = set()
        for b in query["options"]:
            one = np.full((1, len(COLUMNS)), -99, np.int64)
            rules.simulate_bid_options(prepared(v, hands), kernel_seats, np.zeros((4, 4), np.int64),
                                       np.full((4, 4), 99, np.int64), (accept_all,), 0, 3, np.full(4, -1, np.int64),
                                       np.array([b], np.int64), np.zeros(2, np.int64), np.zeros(2, np.int64), False,
                                       np.uint64(4), np.int64(i), np.int64(1), one, np.zeros(4, np.int64))
            assert one[0, rules.ODDS_PARTNER + b] == row[rules.ODDS_PARTNER + b], (i, b)
            assert (one[0, b * 7:b * 7 + 7] == row[b * 7:b * 7 + 7]).all(), (i, b)
            seen.add(int(row[rules.ODDS_PARTNER + b]))
        varies = varies or len(seen) > 1
        assert seen <= set(range(14)) | {BN_BIT}
    assert varies  # on some deal the partner's bid depends on North's: the case the old rule missed


def test_partner_bid_columns_match_a_known_partner_policy():
    """A partner whose bid is known (Nil after a bid of 5 or more, else his spade count):
    the columns are his bid after each forced bid."""
    g = get_game("spades")
    v = g.variant(None, None, [])
    table = g.policies.table(seat_policies("basic", {2: f"{PARTNER_BOTS}:echo"}, 4))
    support = g.odds["bid"]
    query = support.prepare(v, OddsRequest(hand=tuple(parse_cards(HAND)), seat=0, dealer=3))
    out = support.simulate(query, v, table, 3, 0, 40)
    count = np.array([bin(int(h) & SPADES).count("1") for h in out[:, rules.ODDS_HANDS + 2]])
    for b in query["options"]:
        expect = np.zeros(len(out), np.int64) if 5 <= b <= 13 else np.maximum(1, count)
        assert (partner_col(out, b) == expect).all(), b
    for b in range(rules.ODDS_SLOTS):
        if b not in query["options"]:
            assert (partner_col(out, b) == -99).all()


def test_makeable_dd_counts_the_partners_later_bid(first):
    """North bids before South: makeable DD per bid is the share of deals where the DD tricks
    reach North's bid plus South's number bid on that deal (North's alone where South bid Nil),
    P(partner Nil) the share of South's Nil bids; the note gives the recommended bid's rates."""
    query, out = first
    r = CliRunner().invoke(main, FIRST + ["--dd", "--format", "json", "--threads", "1"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    rows = {row["bid"]: row for row in doc["rows"]}
    tricks = out[:, DD_COLUMN]
    differs = False
    for b in query["options"]:
        mate = partner_col(out, b)
        nil = (mate == 0) | (mate == BN_BIT)
        name = "Nil" if b == 0 else ("BN (if blind)" if b == BN_BIT else str(b))
        assert rows[name]["P(partner Nil)"] == pytest.approx(nil.mean(), abs=1e-4), name
        if b in (0, BN_BIT):
            assert rows[name]["makeable DD"] is None
            continue
        contract = b + np.where(nil, 0, mate)
        assert rows[name]["makeable DD"] == pytest.approx(np.mean(tricks >= contract), abs=1e-4), name
        assert rows[name]["P(DD tricks>=bid)"] == pytest.approx(np.mean(tricks >= b), abs=1e-4), name
        differs = differs or np.mean(tricks >= contract) != np.mean(tricks >= b)
    assert differs  # the partner's later bid changed some rate (the old rule counted North's bid alone)
    assert any(0 < rows[n]["P(partner Nil)"] < 1 for n in rows)
    best = next(row for row in doc["rows"] if row["recommended"] == "yes")
    b = int(best["bid"])  # a number bid here
    mate = partner_col(out, b)
    makeable = np.mean(tricks >= b + np.where((mate == 0) | (mate == BN_BIT), 0, mate))
    made = np.mean(out[:, b * 7 + 2] == 1)
    assert f"bid {b}: makeable double dummy in {makeable:.1%} of deals, made in {made:.1%}" in doc["notes"]
    assert any("the bid your partner's bot makes after yours" in n for n in doc["notes"])
    assert any("optimistic" in n and "P(partner Nil)" in n for n in doc["notes"])
    csv = CliRunner().invoke(main, FIRST + ["--dd", "--format", "csv", "--threads", "1"])
    assert csv.exit_code == 0, csv.output
    table = pd.read_csv(io.StringIO(csv.stdout)).set_index("bid")
    for name, row in rows.items():
        assert table.loc[name, "P(partner Nil)"] == pytest.approx(row["P(partner Nil)"])
