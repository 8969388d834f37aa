"""`simcards trump kierki`: every trump option played on the same deals around the seen cards.

Exactness (the seen cards are the chooser's, every record is a deal, constraints and
accept functions hold), common random numbers (each option replayed from the record's
hands by the kernel's differential entry point gives the same tricks), statistics
against exact or independently simulated values, the CLI, refusals and --precision.
"""
import os
from math import comb

import numpy as np
import pytest
from click.testing import CliRunner

from simcards.api import hand_odds
from simcards.cli import main
from simcards.core.cards import parse_cards
from simcards.core.errors import SimcardsError
from simcards.core.game import OddsRequest
from simcards.core import stats
from simcards.games.kierki import GAME
from simcards.games.kierki import odds as O
from simcards.games.kierki import rules as R

TABLE = GAME.policies.table(["basic"] * 4)
SEEN = "AS KS 5H 2D 9C"
BOTS = os.path.join(os.path.dirname(__file__), "kierki_accept_bots.py")
SUIT = [np.uint64(((1 << 13) - 1) << (13 * s)) for s in range(4)]


def mask(text):
    return np.uint64(sum(1 << c for c in parse_cards(text)))


def length(hands, suit):
    return np.bitwise_count(np.asarray(hands, np.uint64) & SUIT[suit]).astype(np.int64)


def query(v, cards=SEEN, **kw):
    return O.prepare(v, OddsRequest(hand=tuple(parse_cards(cards)), **kw))


def run(v, cards=SEEN, n=300, seed=3, start=0, table=TABLE, **kw):
    q = query(v, cards, **kw)
    return q, O.simulate(q, v, table, seed, start, n)


def col(name):
    return [c.name for c in O.COLUMNS].index(name)


def hands_of(rows):
    return rows[:, col("hand_N"):col("hand_N") + 4].astype(np.uint64)


def tricks_of(rows, option, seat):
    return rows[:, col(O.column(option, seat))]


def assert_deals(hands):
    """Every record is a deal: four disjoint 13-card hands covering the pack."""
    assert (np.bitwise_count(hands) == 13).all()
    union = hands[:, 0] | hands[:, 1] | hands[:, 2] | hands[:, 3]
    assert (union == np.uint64((1 << 52) - 1)).all()


# ---------------------------------------------------------------- CLI and table


def test_cli_end_to_end(tmp_path):
    plot = tmp_path / "trump.png"
    res = CliRunner().invoke(main, ["trump", "kierki", "--cards", SEEN, "--seat", "E", "--deals", "600",
                                    "--threads", "1", "--plot", str(plot)])
    assert res.exit_code == 0, res.output
    for text in ("trumps", "mean points", "vs best", "trump length", "pts E*", "recommended", "600 deals"):
        assert text in res.output
    assert plot.stat().st_size > 10_000
    res = CliRunner().invoke(main, ["trump", "kierki", "--cards", "AS KS"])
    assert res.exit_code != 0 and "5 cards" in res.output and "Traceback" not in res.output


@pytest.mark.parametrize("args, text", [
    (["--bids", "E=3"], "--bids does not apply"),
    (["--scores", "100:0:-50:-50"], "--scores does not apply"),
    (["--deal", "3"], "--deal does not apply"),
])
def test_fields_the_command_cannot_use_are_refused_with_one_line(args, text):
    res = CliRunner().invoke(main, ["trump", "kierki", "--cards", SEEN, "--deals", "10"] + args)
    assert res.exit_code != 0 and text in res.output and "Traceback" not in res.output
    assert len([line for line in res.output.splitlines() if line.strip()]) == 1


def test_table_marks_the_best_mean_and_points_add_up():
    v = GAME.variant(pairs=["allow_no_trump=true"])
    result = hand_odds(GAME, "trump", hand="AS KS QS 2D 9C", deals=2000, threads=1, settings=["allow_no_trump=true"])
    t = result.table
    assert list(t.trumps) and sorted(t.trumps) == ["C", "D", "H", "NT", "S"]
    assert t["mean points"].is_monotonic_decreasing
    assert t.iloc[0]["trumps"] == "S" and list(t.recommended) == ["yes"] + [""] * 4
    seats = [c for c in t.columns if c.startswith("pts ")]
    assert seats == ["pts N*", "pts E", "pts S", "pts W"]
    np.testing.assert_allclose(t[seats].sum(axis=1), 13 * v.points_per_trump_trick, atol=0.3)  # rounding only
    assert (t["pts N*"] == t["mean points"].round(1)).all()
    assert t.loc[t.trumps == "NT", "trump length"].iloc[0] == ""
    # the paired difference has the estimate of the difference of the means
    by = result.summary.set_index(["metric", "group"]).estimate
    for name in ("H", "D", "C", "NT"):
        assert by[("points_minus_S", name)] == pytest.approx(by[("chooser_points", name)] - by[("chooser_points", "S")])


def test_figure_shows_the_trick_distribution_with_the_recommendation_marked():
    v = GAME.variant()
    q, rows = run(v, n=800)
    import pandas as pd

    summary = stats.finalize(O.tally(q, pd.DataFrame(rows, columns=[c.name for c in O.COLUMNS]), v))
    best = O.recommended(q, summary)
    shares = summary[summary.metric.str.startswith("tricks=") & (summary.group == best)]
    assert len(shares) == 14 and shares.estimate.sum() == pytest.approx(1.0)
    fig = O.figure(q, summary, v)
    left, right = fig.axes
    assert len(left.patches) == 14  # one bar per trick count for the recommended option
    assert f"trumps {best} (recommended)" in [t.get_text() for t in left.get_legend().get_texts()]
    assert len(right.patches) == 4
    import matplotlib.pyplot as plt

    plt.close(fig)


# ---------------------------------------------------------------- exactness and common random numbers


@pytest.mark.parametrize("pairs, seat, chooser, dealer, leader", [
    ([], None, 0, 0, 0),
    ([], 2, 2, 2, 2),
    (["trump_chooser=left_of_dealer"], 1, 1, 0, 0),
    (["trump_chooser=left_of_dealer", "trump_leader=left_of_dealer"], 3, 3, 2, 3),
])
def test_seen_cards_are_the_choosers_and_every_record_is_a_deal(pairs, seat, chooser, dealer, leader):
    v = GAME.variant(pairs=pairs)
    q, rows = run(v, seat=seat)
    assert (q["chooser"], q["dealer"], q["leader"]) == (chooser, dealer, leader)
    hands = hands_of(rows)
    assert_deals(hands)
    assert ((hands[:, chooser] & mask(SEEN)) == mask(SEEN)).all()
    assert len({int(h) for h in hands[:, chooser]}) > 250  # the other 8 cards do vary


def test_dealer_alone_places_the_chooser():
    v = GAME.variant(pairs=["trump_chooser=left_of_dealer"])
    q = O.prepare(v, OddsRequest(hand=tuple(parse_cards(SEEN)), dealer=3))
    assert (q["chooser"], q["dealer"]) == (0, 3)


def test_every_option_is_played_on_the_same_deal():
    """CRN: replaying each record's four hands with each trump through the kernel's
    differential entry point (``play_given_hands``; basic play uses no randomness)
    gives every seat's recorded tricks, for every option."""
    v = GAME.variant(pairs=["allow_no_trump=true", "trump_leader=left_of_dealer"])
    q, rows = run(v, n=150, seat=2)
    tab = R.kernel_tables(v)
    res = np.zeros(R.RES_LEN, np.int64)
    for r in range(rows.shape[0]):
        hands = hands_of(rows[r:r + 1])[0].copy()
        for o in q["options"]:
            R.play_given_hands(tab, R.seats(TABLE), R.TRUMPS, q["dealer"], q["leader"],
                               o, hands, res, R.NO_SCRIPT, R.NO_TRACE)
            assert [tricks_of(rows, o, s)[r] for s in range(4)] == list(res[R.R_TRICKS:R.R_TRICKS + 4])


def test_records_do_not_depend_on_chunking_and_thirteen_trumps_take_everything():
    v = GAME.variant()
    _, whole = run(v, n=200)
    _, a = run(v, n=70)
    _, b = run(v, n=130, start=70)
    assert np.array_equal(whole, np.vstack([a, b]))
    v13 = GAME.variant(pairs=["trump_choice_cards=13"])
    _, rows = run(v13, "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", n=100)
    assert (tricks_of(rows, 3, 0) == 13).all()
    assert (tricks_of(rows, 2, 0) < 13).any()  # with hearts trump the others can ruff
    assert (rows[:, col("policy_choice")] == 3).all()  # basic announces spades
    assert (rows[:, col("tricks_NT_N")] == -1).all()  # no trumps is not an option by default


# ---------------------------------------------------------------- statistics


def test_choosers_full_suit_lengths_are_hypergeometric():
    """The chooser's other 8 cards are 8 of the 47 unseen: its final spade count minus
    the 2 seen is hypergeometric(47, 11 spades, 8). Each share within 4.5 sigma."""
    v = GAME.variant()
    n = 6000
    _, rows = run(v, n=n, seed=11)
    extra = length(hands_of(rows)[:, 0], 3) - 2
    counts = np.bincount(extra, minlength=9)
    for k in range(9):
        p = comb(11, k) * comb(36, 8 - k) / comb(47, 8)
        assert abs(counts[k] / n - p) <= 4.5 * np.sqrt(p * (1 - p) / n) + 1e-12, (k, counts[k] / n, p)


def test_tricks_agree_with_the_normal_kernel_dealing_in_the_order_of_section_3_1():
    """Independent check of the whole deal-and-play path. The normal kernel deals the
    pack in the order of section 3.1 and lets a random trump policy (blind to the cards)
    announce from the chooser's first card; among its deals where spades are trumps and
    that first card is a spade, the chooser's mean tricks must equal the odds command's
    spade-trump mean averaged over the 13 possible seen spades (each equally likely)."""
    v = GAME.variant(pairs=["deal_type=trumps", "trump_choice_cards=1"])
    table = GAME.policies.table(["random_suit"] * 4)  # basic play, random trumps
    out = R.run_records("deal", v, table, 5, 0, 160_000)
    keep = (out[:, R.R_TRUMP] == 3) & (out[:, R.R_TRUMP_SEEN] == 1)
    rows = out[keep]
    normal = rows[np.arange(len(rows)), R.R_TRICKS + rows[:, R.R_CHOOSER]]
    per_card = []
    for rank in "23456789TJQKA":
        _, odds_rows = run(v, rank + "S", n=3000, seed=17)
        per_card.append(tricks_of(odds_rows, 3, 0))
    odds_mean = np.mean([t.mean() for t in per_card])
    odds_var = np.sum([t.var() / t.size for t in per_card]) / 13 ** 2
    se = np.sqrt(normal.var() / normal.size + odds_var)
    assert normal.size > 8000
    assert abs(normal.mean() - odds_mean) <= 4.5 * se, (normal.mean(), odds_mean, se)
    # the seen spade matters (so the comparison is not trivially flat): the ace beats the two
    assert per_card[12].mean() > per_card[0].mean() + 10 * np.sqrt(per_card[12].var() / 3000)


def test_with_no_seen_card_the_four_suits_are_exchangeable():
    """trump_choice_cards=0: nothing distinguishes the suits, so every paired difference
    of the chooser's points is 0 within 4.5 of its standard errors."""
    v = GAME.variant(pairs=["trump_choice_cards=0"])
    _, rows = run(v, "", n=4000, seed=23)
    t = {o: tricks_of(rows, o, 0) for o in (3, 2, 1, 0)}
    for a in (3, 2, 1):
        for b in range(a):
            d = t[a] - t[b]
            assert abs(d.mean()) <= 4.5 * d.std() / np.sqrt(d.size), (a, b, d.mean())


# ---------------------------------------------------------------- --require and --accept


def test_require_constraints_hold_in_every_record():
    v = GAME.variant()
    _, rows = run(v, n=400, constraints=("E:void=S", "W:has=QS,JH", "N:len(H)>=4", "S:len(D)=2..3"))
    hands = hands_of(rows)
    assert_deals(hands)
    assert (length(hands[:, 1], 3) == 0).all()
    assert ((hands[:, 3] & mask("QS JH")) == mask("QS JH")).all()
    assert (length(hands[:, 0], 2) >= 4).all()
    d = length(hands[:, 2], 1)
    assert ((d >= 2) & (d <= 3)).all()
    assert ((hands[:, 0] & mask(SEEN)) == mask(SEEN)).all()


def test_accept_function_conditions_the_deal_and_compiles_once():
    from simcards.games.kierki.odds_kernel import simulate_trump_options

    v = GAME.variant()
    _, rows = run(v, "KS QS 5H 2D 9C", n=300, accept=f"{BOTS}:east_has_ace_of_spades")
    hands = hands_of(rows)
    assert_deals(hands)
    assert ((hands[:, 1] >> np.uint64(51)) & np.uint64(1) == 1).all()
    _, rows = run(v, n=300, accept=f"{BOTS}:west_has_four_hearts")
    assert (length(hands_of(rows)[:, 3], 2) == 4).all()
    _, plain = run(v, n=300)
    assert (length(hands_of(plain)[:, 3], 2) != 4).any()
    # one kernel specialization serves the default and every user accept function
    assert len(simulate_trump_options.overloads) == 1
    with pytest.raises(SimcardsError, match="no deal satisfies the accept function"):
        run(v, n=5, accept=f"{BOTS}:refuse_all")
    with pytest.raises(SimcardsError, match="FILE.py:NAME"):
        query(v, accept="not a spec")


def test_accept_through_the_cli():
    res = CliRunner().invoke(main, ["trump", "kierki", "--cards", "KS QS 5H 2D 9C", "--deals", "200", "--threads", "1",
                                    "--accept", f"{BOTS}:refuse_all"])
    assert res.exit_code != 0 and "accept function" in res.output and "Traceback" not in res.output


# ---------------------------------------------------------------- errors and --precision


@pytest.mark.parametrize("kw, text", [
    (dict(hand="AS KS"), "5 cards"),
    (dict(hand="AS KS 5H 2D BJ"), "not in the deck"),
    (dict(hand=SEEN, seat="N", dealer="E"), "implies dealer"),
    (dict(hand=SEEN, seat="X"), "unknown seat"),
    (dict(hand=SEEN, require=("E:has=AS",)), "cannot be in seat"),
    (dict(hand=SEEN, require=("E:void=S", "S:void=S", "W:void=S")), "no deal satisfies the --require"),
    (dict(hand=SEEN, require=("E:has=2S,3S,4S,5S,6S,7S,8S,9S,TS,JS,QS,2H,3H,4H",)), "14 known cards"),
    (dict(hand=SEEN, bids="E=3"), "--bids does not apply"),
])
def test_bad_input_is_one_line(kw, text):
    with pytest.raises(SimcardsError, match=text) as err:
        hand_odds(GAME, "trump", deals=10, threads=1, **kw)
    assert "\n" not in str(err.value)


def test_duplicate_seen_card_is_refused():
    with pytest.raises(SimcardsError):
        hand_odds(GAME, "trump", hand="AS AS 5H 2D 9C", deals=10, threads=1)


def test_precision_stops_when_every_rate_is_that_precise():
    result = hand_odds(GAME, "trump", hand=SEEN, precision=0.02, threads=1)
    assert result.resolved and result.widest_half_width() <= 0.02
    assert result.deals < 20_000  # p(1-p) <= 1/4 needs at most ~2,400 deals; steps of 4,000
    finer = hand_odds(GAME, "trump", hand=SEEN, precision=0.01, threads=1)
    assert finer.resolved and finer.widest_half_width() <= 0.01 < result.widest_half_width()
    assert finer.deals > result.deals
