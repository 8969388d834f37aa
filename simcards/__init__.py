"""simcards: Monte Carlo strategy analysis for card games.

The Python API mirrors the CLI::

    import simcards
    df = simcards.run("spades", deals=100_000, seed=7, variant={"bag_limit": 5})
    df.attrs["summary"]        # estimates with 95 % intervals
"""
__version__ = "0.1.0"

from simcards.api import compare, hand_odds, list_games, replay_text, rules, run  # noqa: E402,F401
from simcards.core.errors import SimcardsError  # noqa: E402,F401
from simcards.core.policy import Policy  # noqa: E402,F401
