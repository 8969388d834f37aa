"""A user policy with a parameter (docs/policies.md): bids its ``bid`` parameter when legal."""
import numpy as np

from simcards.core.policy import Policy, PolicyParam, param_value
from simcards.games.spades.policies import EXPERT, V_LEGAL, V_PARAMS, nearest_legal_bid


def fixed_bid(view, rng):
    want = int(param_value(view, V_PARAMS + 0))
    return nearest_legal_bid(np.uint64(view[V_LEGAL]) & np.uint64((1 << 14) - 1), want)


# expert's blind decision reads expert's parameters: this policy never bids blind
def never_blind(view, rng):
    return 0


fixed = Policy("fixed", base=EXPERT, blind=never_blind, bid=fixed_bid,
               params=(PolicyParam("bid", 3, 1, 13, "the bid it makes", integer=True),))
