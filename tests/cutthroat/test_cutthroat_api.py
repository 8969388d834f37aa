"""Variant validation, presets, determinism, user policies, units, tallies, figures, replay."""
import textwrap

import numpy as np
import pandas as pd
import pytest

from simcards.core.errors import SimcardsError
from simcards.core.game import get_game
from simcards.core import stats
from simcards.games.cutthroat import GAME, rules
from simcards.games.cutthroat.policies import CATALOG
from simcards.games.cutthroat.variant import CutthroatVariant, form_of


def test_registry_and_shortcuts():
    assert get_game("cutthroat") is GAME and get_game("cutthroat-spades") is GAME
    assert GAME.shortcuts == {"players": "num_players"}
    assert [u.name for u in GAME.units] == ["deal", "game", "tournament"]
    assert GAME.seats(CutthroatVariant(num_players=4)) == 4
    for unit, cols in zip(GAME.units, rules.UNIT_COLUMNS):
        assert unit.column_names() == cols


@pytest.mark.parametrize("pairs, message", [
    (["jokers=2"], "needs num_players=5"),
    (["num_players=5", "jokers=1"], "0, 2 or 3"),
    (["num_players=6"], "num_players"),
    (["blind_six_tricks=14", "num_players=4"], "1..13"),
    (["first_dealer=3"], "0..2"),
    (["prize_jacks=JS"], "not allowed"),
    (["bag_mode=sometimes"], "must be one of"),
    (["shoot_moon_min_tricks=18"], "1..17"),
])
def test_bad_variants_are_one_line_errors(pairs, message):
    with pytest.raises(SimcardsError, match=message) as err:
        GAME.variant(pairs=pairs)
    assert "\n" not in str(err.value)


def test_presets_by_name():
    assert set(GAME.presets) == {"official", "short_bag5", "short_per_bag", "long_three_jacks"}
    v = GAME.variant("short_per_bag", pairs=["num_players=4"])
    assert (v.target_score, v.bag_mode, v.prize_jacks, v.tournament_wins, v.num_players) == (300, "per_bag", ("JC",), 3, 4)
    v = GAME.variant("long_three_jacks")
    assert v.blind_six_max_per_game is None and set(v.prize_jacks) == {"JD", "JC", "JH"}
    assert GAME.variant("short_bag5").bag_limit == 5


@pytest.mark.parametrize("n, j, tricks, smt, mob, lead, deck", [
    (3, 0, 17, 14, 13, "left_of_dealer", 51), (4, 0, 13, 11, 10, "left_of_dealer", 52),
    (5, 0, 10, 8, 7, "left_of_dealer", 50), (5, 2, 11, 9, 8, "lowest_club", 54),
    (5, 3, 11, 9, 8, "lowest_club", 55),
])
def test_derived_per_form_defaults(n, j, tricks, smt, mob, lead, deck):
    f = form_of(CutthroatVariant(num_players=n, jokers=j))
    assert (f.tricks, f.shoot_moon_min_tricks, f.max_ordinary_bid, f.first_lead) == (tricks, smt, mob, lead)
    assert bin(f.deck).count("1") == deck
    assert form_of(CutthroatVariant(num_players=n, jokers=j, shoot_moon_allowed=False)).max_ordinary_bid == tricks
    assert form_of(CutthroatVariant(num_players=n, jokers=j, shoot_moon_min_tricks=6)).max_ordinary_bid == 5


@pytest.mark.parametrize("unit, count", [("deal", 300), ("game", 12), ("tournament", 3)])
def test_determinism_whatever_the_chunking(unit, count):
    v = CutthroatVariant(target_score=200, tournament_wins=2)
    table = CATALOG.table(["expert", "random", "basic"])
    whole = rules.simulate(unit, v, table, 42, 5, count)
    cut = count // 3
    parts = np.vstack([rules.simulate(unit, v, table, 42, 5, cut), rules.simulate(unit, v, table, 42, 5 + cut, count - cut)])
    assert np.array_equal(whole, parts)
    assert not np.array_equal(whole, rules.simulate(unit, v, table, 43, 5, count))


def test_game_hand_zero_is_the_deal_record():
    """Common random numbers: hand 0 of game i is deal i (same dealer, cards, bids)."""
    v = CutthroatVariant()
    table = CATALOG.table(["basic"] * 3)
    _, game_trace = rules.trace_record("game", v, table, 9, 4)
    _, deal_trace = rules.trace_record("deal", v, table, 9, 4)
    first_hand_end = next(i for i, ev in enumerate(game_trace) if ev.kind == "hand" and i > 0)
    assert game_trace[:first_hand_end] == deal_trace[:first_hand_end]


def test_user_policy_file(tmp_path):
    path = tmp_path / "my_bots.py"
    path.write_text(textwrap.dedent("""
        import simcards
        from simcards.games.cutthroat.policies import BUILTINS

        def always_two(view, masks, rng):
            if masks[1] & (1 << 2):
                return 2
            m = masks[1]
            c = 0
            while not (m >> c) & 1:
                c += 1
            return c

        cautious = simcards.Policy("cautious", base=BUILTINS["basic"], bid=always_two)
    """))
    table = CATALOG.table([f"{path}:cautious", "basic", "basic"])
    out = rules.simulate("deal", CutthroatVariant(), table, 1, 0, 50)
    assert (out[:, rules.DEAL_COLUMNS.index("bid_0")] == 2).all()
    with pytest.raises(SimcardsError):
        CATALOG.table([f"{path}:missing"])


def test_illegal_policy_action_is_one_line_error(tmp_path):
    path = tmp_path / "bad_bots.py"
    path.write_text(textwrap.dedent("""
        import simcards
        from simcards.games.cutthroat.policies import BUILTINS

        def bad_bid(view, masks, rng):
            return 63

        bad = simcards.Policy("bad", base=BUILTINS["basic"], bid=bad_bid)
    """))
    table = CATALOG.table([f"{path}:bad"] * 3)
    with pytest.raises(SimcardsError, match=r"cutthroat: seat \d \(policy .*:bad\): bid returned 63, which is not legal"):
        rules.simulate("deal", CutthroatVariant(), table, 1, 0, 5)


@pytest.fixture(scope="module")
def deal_df():
    table = CATALOG.table(["expert"] * 3)
    out = rules.simulate("deal", CutthroatVariant(blind_six_min_deficit=0), table, 3, 0, 4000)
    return pd.DataFrame(out, columns=rules.DEAL_COLUMNS)


def test_deal_tally_is_additive_and_complete(deal_df):
    v = CutthroatVariant(blind_six_min_deficit=0)
    whole = GAME.tally("deal", deal_df, v)
    halves = stats.merge(GAME.tally("deal", deal_df.iloc[:1500], v), GAME.tally("deal", deal_df.iloc[1500:], v))
    key = ["metric", "group", "kind"]
    a = whole.sort_values(key).reset_index(drop=True)
    b = halves.sort_values(key).reset_index(drop=True)
    pd.testing.assert_frame_equal(a[key + ["n"]], b[key + ["n"]])
    assert np.allclose(a["sum"], b["sum"]) and np.allclose(a["sumsq"], b["sumsq"])
    choice = whole[whole.metric == "bid_choice"]
    assert set(choice.group) == {"ordinary", "nil", "1F", "2F", "B6", "BN", "SM"}
    assert choice["sum"].sum() == 3 * len(deal_df)
    success = whole[whole.metric == "bid_success"].set_index("group")
    # recount success of ordinary bids directly from the records
    n = ok = 0
    for s in range(3):
        bid, tricks = deal_df[f"bid_{s}"], deal_df[f"tricks_{s}"]
        sel = (bid >= 1) & (bid <= 17)
        n += sel.sum()
        ok += (tricks[sel] >= bid[sel]).sum()
    assert success.loc["ordinary", "n"] == n and success.loc["ordinary", "sum"] == ok
    assert set(whole[whole.metric == "score"].group) == {"seat 0", "seat 1", "seat 2"}
    summary = stats.finalize(whole)
    figs = GAME.figures("deal", summary, v)
    assert "bid_success" in figs and "bid_choice" in figs


def test_game_and_tournament_tallies():
    v = CutthroatVariant(target_score=200, tournament_wins=2)
    table = CATALOG.table(["expert", "basic", "random"])
    games = pd.DataFrame(rules.simulate("game", v, table, 1, 0, 30), columns=rules.GAME_COLUMNS)
    t = GAME.tally("game", games, v)
    wins = t[t.metric == "win_share"]
    assert wins["n"].eq(30).all() and wins["sum"].sum() == (games["winner"] >= 0).sum()
    assert t[(t.metric == "game_length")]["sum"].iloc[0] == games["hands"].sum()
    figs = GAME.figures("game", stats.finalize(t), v)
    assert {"bid_success", "win_share"} <= set(figs)
    tours = pd.DataFrame(rules.simulate("tournament", v, table, 1, 0, 4), columns=rules.TOURNAMENT_COLUMNS)
    tt = GAME.tally("tournament", tours, v)
    assert tt[tt.metric == "tournament_length"]["sum"].iloc[0] == tours["games"].sum()
    for s in range(3, 5):
        assert (tours[f"tokens_{s}"] == -1).all()


def test_replay_text():
    v = CutthroatVariant()
    text = GAME.replay("deal", v, CATALOG.table(["basic"] * 3), 1, 9)
    lines = text.splitlines()
    assert sum(line.startswith("  trick ") for line in lines) == 17
    assert sum(line.startswith("  bid ") for line in lines) == 3
    scores = [line for line in lines if line.startswith("  score ")]
    assert len(scores) == 3 and all(" tricks" in line for line in scores)
    text = GAME.replay("game", v.replace(target_score=100), CATALOG.table(["expert"] * 3), 1, 0)
    assert "Game 1 won by" in text or "unfinished" in text


def test_tournament_replay_numbers_its_games():
    """Every hand is labelled with its own game (it said "Game 1" for every hand)."""
    import re

    v = CutthroatVariant(target_score=100, tournament_wins=2)
    text = GAME.replay("tournament", v, CATALOG.table(["expert"] * 3), 3, 0)
    ended = [int(g) for g in re.findall(r"^== Game (\d+) (?:won|unfinished)", text, re.M)]
    assert len(ended) >= 2 and ended == list(range(1, len(ended) + 1))
    game = 1
    for line in text.splitlines():
        hand = re.match(r"== Game (\d+), hand (\d+):", line)
        if hand:
            assert int(hand.group(1)) == game, line
        over = re.match(r"== Game (\d+) (won|unfinished)", line)
        if over:
            game = int(over.group(1)) + 1


def test_deal_is_uniform_statistically(deal_df):
    """Mean trumps dealt per seat is 13 * 17 / 51 (tolerance: 4 standard errors of the sample)."""
    for s in range(3):
        x = deal_df[f"trumps_{s}"].to_numpy()
        se = x.std(ddof=1) / np.sqrt(len(x))
        assert abs(x.mean() - 13 * 17 / 51) < 4 * se
    dealer_share = np.bincount(deal_df["dealer"], minlength=3) / len(deal_df)
    assert np.all(np.abs(dealer_share - 1 / 3) < 4 * np.sqrt(2 / 9 / len(deal_df)))


def test_deal_around_known_cards():
    """deal_hands gives a seat its known cards and deals only the rest, one at a time."""
    from simcards.core.cards import mask_of, parse_cards
    from simcards.games.cutthroat.variant import form_array

    f = form_array(CutthroatVariant())
    known = np.uint64(mask_of(parse_cards("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AH KH QH JH")))
    hands = np.zeros(5, np.uint64)
    cards = np.zeros(64, np.int64)
    seen = set()
    for i in range(20):
        rng = np.array([i], np.uint64)
        rules.deal_hands(np.uint64(f[2]), 3, 2, 1, known, cards, hands, rng)
        assert hands[1] == known
        assert hands[0] & hands[2] == 0 and (hands[0] | hands[1] | hands[2]) == np.uint64(f[2])
        assert bin(int(hands[0])).count("1") == bin(int(hands[2])).count("1") == 17
        seen.add(int(hands[0]))
    assert len(seen) == 20
