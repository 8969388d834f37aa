"""Tally (additive, correct counts), figures, replay text and the deal with known cards."""
import numpy as np
import pandas as pd
from spades_util import table, variant

from simcards.core.cards import mask_of, parse_cards
from simcards.core.rng import stream_start
from simcards.core import stats
from simcards.games.spades import GAME, rules


def frame(unit, count, start=0, v=None, pols=("expert", "basic")):
    cols = GAME.unit(unit).column_names()
    return pd.DataFrame(GAME.simulate(unit, v or variant(), table(*pols), 5, start, count), columns=cols)


def test_deal_tally_is_additive_and_counts_right():
    df = frame("deal", 3000)
    whole = stats.finalize(GAME.tally("deal", df, variant()))
    parts = stats.finalize(stats.merge(GAME.tally("deal", df.iloc[:1000], variant()),
                                       GAME.tally("deal", df.iloc[1000:], variant())))
    key = ["metric", "group"]
    a = whole.sort_values(key).reset_index(drop=True)
    b = parts.sort_values(key).reset_index(drop=True)
    pd.testing.assert_frame_equal(a, b)
    row = a[(a.metric == "bid_success_all")].iloc[0]
    made = pd.concat([df.made0, df.made1])
    assert row.n == (made >= 0).sum() and np.isclose(row.estimate, (made == 1).sum() / (made >= 0).sum())
    levels = a[a.metric == "bid_success"]
    assert levels.n.sum() == row.n
    nil = a[(a.metric == "nil_success") & (a.group == "nil")].iloc[0]
    nils = pd.concat([df[f"nil{s}"][df[f"blind{s}"] == 0] for s in range(4)])
    assert nil.n == (nils >= 0).sum()


def test_game_tally_and_figures():
    df = frame("game", 200)
    summary = stats.finalize(GAME.tally("game", df, variant()))
    win = summary[summary.metric == "win_rate_team0"].iloc[0]
    assert win.n == (df.winner >= 0).sum() and win.ci_low <= win.estimate <= win.ci_high
    figs = GAME.figures("game", summary, variant())
    assert "win_rate" in figs
    deal_summary = stats.finalize(GAME.tally("deal", frame("deal", 2000), variant()))
    figs = GAME.figures("deal", deal_summary, variant())
    assert {"bid_success_by_level", "nil_success"} <= set(figs)
    ax = figs["bid_success_by_level"].axes[0]
    assert len(ax.lines[0].get_xdata()) == (deal_summary.metric == "bid_success").sum()


def test_replay_text():
    text = GAME.replay("deal", variant(), table("expert"), 7, 3)
    assert text.count(" won by ") == 13 and "Bids:" in text and "Hands as dealt:" in text
    assert "NS: contract" in text and "EW: contract" in text
    game = GAME.replay("game", variant(target_score=150), table("expert"), 7, 3)
    assert "=== Hand 1 ===" in game and "Result:" in game


def test_deal_around_known_cards():
    """deal_hands keeps fixed cards and deals the rest uniformly around them."""
    deck, masks = rules.deck_setup(variant().to_params())
    fixed = np.zeros(4, np.uint64)
    fixed[2] = np.uint64(mask_of(parse_cards("AS KS QS 2H 3H")))
    fixed[0] = np.uint64(mask_of(parse_cards("AC")))
    hands = np.zeros(4, np.uint64)
    buf = np.zeros(64, np.int64)
    state = np.zeros(1, np.uint64)
    has_js = 0
    for i in range(2000):
        state[0] = stream_start(np.uint64(1), np.uint64(i), np.uint64(0))
        rules.deal_hands(deck, fixed, 3, state, hands, buf)
        assert all(bin(int(h)).count("1") == 13 for h in hands)
        assert int(hands[0] | hands[1] | hands[2] | hands[3]) == (1 << 52) - 1
        assert int(hands[2]) & int(fixed[2]) == int(fixed[2]) and int(hands[0]) & int(fixed[0]) == int(fixed[0])
        has_js += bool(int(hands[2]) >> parse_cards("JS")[0] & 1)
    # JS is one of 46 unknown cards, 8 of which go to seat 2: p = 8/46; sd over 2000 ~ 17
    assert abs(has_js - 2000 * 8 / 46) < 5 * 17
