"""Example Cutthroat Spades policy (docs/games/cutthroat.md, docs/policies.md).

    simcards run cutthroat --deals 200000 --seat-policy 2=docs/examples/cutthroat_bots.py:cautious

Cutthroat's decisions take ``(view, masks, rng)``; a Spades policy (docs/examples/my_bots.py,
``(view, rng)``) is refused for Cutthroat with one line.
"""
import numpy as np

import simcards
from simcards.core.cards import lowest_card
from simcards.games.cutthroat.layout import M_LEGAL
from simcards.games.cutthroat.policies import BUILTINS


def two_or_less(view, masks, rng):
    """Bid 2 when legal, else the lowest legal bid code."""
    legal = masks[M_LEGAL]
    if legal & np.uint64(1 << 2):
        return 2
    return lowest_card(legal)


cautious = simcards.Policy("cautious", base=BUILTINS["expert"], bid=two_or_less)
