"""simcards: Monte Carlo strategy analysis for card games.

The Python API mirrors the CLI::

    import simcards
    df = simcards.run("spades", deals=100_000, seed=7, variant={"bag_limit": 5})
    df.attrs["summary"]        # estimates with 95 % intervals

The names below are imported on first use, so that ``import simcards.cli`` (and
``simcards --help``) does not pay for numba and pandas.
"""
from __future__ import annotations

import importlib

from simcards.core.version import VERSION as __version__  # noqa: E402,F401

_LAZY = {
    "compare": "simcards.api", "hand_odds": "simcards.api", "list_games": "simcards.api",
    "replay_text": "simcards.api", "rules": "simcards.api", "run": "simcards.api",
    "sweep": "simcards.api", "policies": "simcards.api", "ladder": "simcards.api",
    "SimcardsError": "simcards.core.errors", "Policy": "simcards.core.policy", "PolicyParam": "simcards.core.policy",
}
__all__ = sorted(_LAZY)


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'simcards' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
