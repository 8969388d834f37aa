"""Golden digests: a fingerprint of the records of every game x unit x policy x preset.

A change that is not a deliberate rules change must leave every record bit-identical.
``tests/golden/digests.json`` holds, for each configuration, the SHA-256 of the records
(``int64``, little-endian, with the column names) of a few hundred records of one seed;
``tests/golden/replay-<game>.txt`` holds the replay text of one record per unit.
``python scripts/golden.py`` regenerates them (a deliberate rules change does so in its
own commit, saying why); ``tests/test_golden.py`` compares.
"""
from __future__ import annotations

import hashlib
from typing import Iterator

import numpy as np

from simcards.core.game import builtin_game_names, get_game
from simcards.core.policy import seat_policies

SEED = 20261201
BUILTIN_GAMES = tuple(builtin_game_names())  # the registry's games of this package (not plug-ins)


def count_for(unit, searching: bool = False) -> int:
    """Records per configuration: a few hundred cheap records, fewer of the long units, a few
    deals of a policy that searches (:attr:`Policy.searching`)."""
    if searching:
        return 6 if unit.name == "deal" else 1
    return 300 if unit.name == "deal" else 40


def configurations(games=BUILTIN_GAMES) -> Iterator[tuple[str, str, str, str | None]]:
    """(game, unit, policy, preset) for every unit, built-in policy and preset (None: defaults)."""
    for name in games:
        g = get_game(name)
        for unit in g.units:
            for policy in g.policies.names():
                for preset in (None, *g.presets):
                    yield g.name, unit.name, policy, preset


def key(game: str, unit: str, policy: str, preset: str | None) -> str:
    return f"{game}/{unit}/{policy}/{preset or 'defaults'}"


def records_digest(game: str, unit: str, policy: str, preset: str | None) -> str:
    """SHA-256 of the records of one configuration."""
    g = get_game(game)
    u = g.unit(unit)
    v = g.variant(preset)
    table = g.policies.table(seat_policies(policy, None, g.seats(v)))
    count = count_for(u, g.policies.builtins[policy].searching)
    array = np.ascontiguousarray(np.asarray(g.simulate(u.name, v, table, SEED, 0, count), dtype="<i8"))
    h = hashlib.sha256(",".join(u.column_names()).encode())
    h.update(array.tobytes())
    return h.hexdigest()


def replay_text(game: str) -> str:
    """Replay of record 3 of each unit under the defaults and the default policy."""
    g = get_game(game)
    v = g.variant()
    table = g.policies.table(seat_policies(g.default_policy, None, g.seats(v)))
    parts = []
    for u in g.units:
        parts.append(f"===== {g.name} {u.name} 3 of seed {SEED} ({g.default_policy}) =====\n")
        parts.append(g.replay(u.name, v, table, SEED, 3).rstrip("\n") + "\n")
    return "".join(parts)


def all_digests(games=BUILTIN_GAMES) -> dict[str, str]:
    return {key(*c): records_digest(*c) for c in configurations(games)}
