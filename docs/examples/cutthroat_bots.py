"""Example user policy for Cutthroat Spades: ``cautious``.

Run it for seat 2 with::

    simcards run cutthroat --deals 200000 --seat-policy 2=docs/examples/cutthroat_bots.py:cautious

Cutthroat decisions take ``f(view, masks, rng) -> int`` (Spades' take ``f(view, rng)``,
so docs/examples/my_bots.py does not fit this game): see ``simcards rules cutthroat``
and simcards/games/cutthroat/layout.py for the view, the masks and the bid codes.
"""
from simcards import Policy
from simcards.games.cutthroat.layout import M_HAND, M_LEGAL, V_MAX_BID, V_N, V_T
from simcards.games.cutthroat.policies import BUILTINS, expected_tricks, nearest_legal


def bid(view, masks, rng):
    """One trick below the estimate (at least 1), never Nil or a special bid."""
    est = expected_tricks(masks[M_HAND], view[V_N], view[V_T])
    want = max(1, int(est - 0.5) - 1)
    return nearest_legal(masks[M_LEGAL], min(want, view[V_MAX_BID]))


cautious = Policy("cautious", base=BUILTINS["basic"], bid=bid)
