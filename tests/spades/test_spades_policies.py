"""Built-in policies: legality under every preset, the expert-vs-basic duel, the user example."""
import os

import pytest
from spades_util import table, variant
from statsmodels.stats.proportion import proportion_confint

from simcards.games.spades import GAME, rules

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
G = {name: i for i, (name, _) in enumerate(rules.GAME_COLUMNS)}
D = {name: i for i, (name, _) in enumerate(rules.DEAL_COLUMNS)}


@pytest.mark.parametrize("preset", ["standard", "classic_book", "club_rules", "online_common"])
def test_builtins_play_complete_games_under_every_preset(preset):
    """Illegal answers would raise; every game ends (or is counted unfinished)."""
    v = GAME.variant(preset)
    out = GAME.simulate("game", v, table("expert", "basic", "random", "expert"), 4, 0, 60)
    assert (out[:, G["hands"]] >= 1).all()
    assert ((out[:, G["winner"]] >= 0) | (out[:, G["hands"]] == v.max_hands)).all()


def test_expert_bids_nil_and_blind_nil_sometimes_and_makes_nil_mostly():
    out = GAME.simulate("game", variant(), table("expert"), 6, 0, 400)
    nil_bids = out[:, G["nil_bids0"]].sum() + out[:, G["nil_bids1"]].sum()
    nil_made = out[:, G["nil_made0"]].sum() + out[:, G["nil_made1"]].sum()
    assert nil_bids > 100 and nil_made / nil_bids > 0.6
    assert out[:, G["bn_bids0"]].sum() + out[:, G["bn_bids1"]].sum() > 0


def _expert_win_rate(n_games, seed):
    half = n_games // 2
    v = variant()
    a = GAME.simulate("game", v, table("expert", "basic", "expert", "basic"), seed, 0, half)
    b = GAME.simulate("game", v, table("basic", "expert", "basic", "expert"), seed, half, half)
    wins = int((a[:, G["winner"]] == 0).sum() + (b[:, G["winner"]] == 1).sum())
    finished = int((a[:, G["winner"]] >= 0).sum() + (b[:, G["winner"]] >= 0).sum())
    return wins, finished


@pytest.mark.slow
def test_expert_partnership_beats_basic_over_20000_games():
    """Seats 0/2 expert vs 1/3 basic for 10,000 games, then swapped for 10,000 more."""
    wins, finished = _expert_win_rate(20_000, seed=2024)
    low, high = proportion_confint(wins, finished, alpha=0.05, method="wilson")
    assert finished >= 19_900
    assert low > 0.5, (wins, finished, low, high)


def test_user_policy_example_loads_and_runs():
    spec = os.path.join(ROOT, "docs", "examples", "my_bots.py") + ":cautious"
    t = GAME.policies.table(["basic", "basic", "basic", spec])
    out = GAME.simulate("deal", variant(), t, 3, 0, 2000)
    assert (out[:, D["tricks0"]:D["tricks0"] + 4].sum(axis=1) == 13).all()
    # cautious never bids Nil and bids at most what basic would plus nothing: it under-bids
    assert (out[:, D["bid3"]] >= 1).all()
    basic = GAME.simulate("deal", variant(), table("basic"), 3, 0, 2000)
    assert out[:, D["bid3"]].mean() < basic[:, D["bid3"]].mean()


def test_policies_doc_shows_the_example_file():
    """The code block of docs/policies.md 'A complete example' is the example file's code."""
    doc = open(os.path.join(ROOT, "docs", "policies.md")).read()
    block = doc.split("## A complete example", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    source = open(os.path.join(ROOT, "docs", "examples", "my_bots.py")).read()
    assert block.strip() in source
