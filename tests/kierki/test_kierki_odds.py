"""`simcards trump kierki`: trump options played on the same deals around the seen cards."""
import numpy as np
import pytest

from simcards.api import hand_odds
from simcards.core.cards import parse_cards
from simcards.core.errors import SimcardsError
from simcards.core.game import OddsRequest
from simcards.games.kierki import GAME
from simcards.games.kierki import odds as O

TABLE = GAME.policies.table(["basic"] * 4)


def run(v, cards, n=300, **kw):
    q = O.prepare(v, OddsRequest(hand=tuple(parse_cards(cards)), **kw))
    return q, GAME.odds["trump"].simulate(q, v, TABLE, 3, 0, n)


def test_all_thirteen_trumps_take_every_trick():
    v = GAME.variant(pairs=["trump_choice_cards=13"])
    q, rows = run(v, "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S")
    assert (rows[:, O._col(3)] == 13).all()
    assert (rows[:, O._col(2)] < 13).any()  # with hearts trump the others can ruff
    assert (rows[:, -1] == 3).all()  # basic announces spades
    assert (rows[:, O._col(-1)] == -1).all()  # no-trumps is not an option by default


def test_seen_cards_stay_with_the_chooser_and_constraints_hold():
    v = GAME.variant()
    q, _ = run(v, "AS KS 5H 2D 9C", seat=2, constraints=("E:void=S",))
    assert q["chooser"] == 2 and q["dealer"] == 2
    assert int(q["constraints"].fixed[2]) == sum(1 << c for c in parse_cards("AS KS 5H 2D 9C"))
    assert q["constraints"].max_len[1, 3] == 0


def test_records_are_deterministic_and_include_no_trumps_when_allowed():
    v = GAME.variant(pairs=["allow_no_trump=true"])
    _, a = run(v, "AS KS 5H 2D 9C", n=200)
    _, b = run(v, "AS KS 5H 2D 9C", n=200)
    assert np.array_equal(a, b)
    assert (a[:, :5] >= 0).all() and (a[:, :5] <= 13).all()


def test_api_table_and_errors():
    result = hand_odds("kierki", "trump", hand="AS KS QS 2D 9C", deals=2000, threads=1)
    t = result.table
    assert list(t.columns[:2]) == ["trumps", "mean points"] and len(t) == 4
    assert t.iloc[0]["trumps"] == "S" and t.iloc[0]["recommended"] == "yes"
    with pytest.raises(SimcardsError, match="5 cards"):
        hand_odds("kierki", "trump", hand="AS KS", deals=10)
    with pytest.raises(SimcardsError, match="implies dealer"):
        hand_odds("kierki", "trump", hand="AS KS 5H 2D 9C", seat="N", dealer="E", deals=10)
