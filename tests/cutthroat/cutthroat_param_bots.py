"""A user policy with a parameter (docs/policies.md): bids its ``bid`` parameter when legal."""
from simcards.core.policy import Policy, PolicyParam, param_value
from simcards.games.cutthroat.layout import DECLINE, M_LEGAL, V_PARAMS
from simcards.games.cutthroat.policies import BUILTINS, nearest_legal


def fixed_bid(view, masks, rng):
    return nearest_legal(masks[M_LEGAL], int(param_value(view, V_PARAMS + 0)))


def never_blind(view, masks, rng):  # expert's blind decision reads expert's parameters
    return DECLINE


fixed = Policy("fixed", base=BUILTINS["expert"], blind=never_blind, bid=fixed_bid,
               params=(PolicyParam("bid", 3, 1, 17, "the ordinary bid it makes", integer=True),))
