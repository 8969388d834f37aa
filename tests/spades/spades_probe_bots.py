"""A probe policy for the information test: bids Blind Nil exactly when it sees no card."""
from simcards.core.policy import Policy
from simcards.games.spades.policies import BASIC, V_HAND


def blind(view, rng):
    return 1 if view[V_HAND] == 0 else 0


probe = Policy("probe", base=BASIC, blind=blind)
