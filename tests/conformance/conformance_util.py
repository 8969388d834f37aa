"""Shared pieces of the conformance suite: the registry's games, a profile per game, policy files.

Every test of this folder is parametrised over ``game_names()`` (the five games and the
toy game of tests/experiment/toygame.py, which tests/conftest.py registers), so a new game
is checked by adding it to the registry. ``PROFILES`` says, per game, which unit and which
house rules make every decision of its policy catalog come up in a few hundred records
(Spades only asks ``misdeal`` under an optional misdeal rule, for instance); a game without
a profile is tested with its first unit and its defaults.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numba as nb

from simcards.core.game import game_names, get_game
from simcards.core.policy import PolicyTable, _int64_pointer, seat_policies


@dataclass(frozen=True)
class Profile:
    unit: str | None = None  # None: the game's first unit
    count: int = 200  # records enough for every decision to come up (a few seconds at most)
    settings: tuple[str, ...] = ()
    policy: str = "basic"  # the built-in at the other seats (and counted): one that makes every decision come up


PROFILES = {
    # basic seldom bids Nil, so random plays the other seats: its Nils bring the exchange
    "spades": Profile("deal", 300, ("misdeal_condition=at_most_one_spade", "misdeal_optional=true",
                                    "nil_exchange_count=3"), "random"),
    "cutthroat": Profile("deal", 300, ("misdeal_condition=at_most_one_spade", "misdeal_optional=true")),
    "seep": Profile("deal", 120),
    "contract-rummy": Profile("deal", 60, ("buying_enabled=true",)),
    "kierki": Profile("game", 6),  # a game has every deal type: negative, trump, lottery
    "toy": Profile("deal", 100),
}

GAMES = game_names()


def profile(name: str) -> Profile:
    return PROFILES.get(name, Profile())


def decisions_of(name: str) -> list[tuple[str, str]]:
    """(game, decision) for every decision of every registered game."""
    return [(name, d.name) for d in get_game(name).policies.decisions]


ALL_DECISIONS = [pair for name in GAMES for pair in decisions_of(name)]


@dataclass
class Setup:
    """A game with its profile's unit and variant (built once per test module)."""

    game: object
    unit: str
    variant: object
    count: int
    policy: str = "basic"

    def table(self, default=None, overrides=None):
        default = default or self.policy
        return self.game.policies.table(seat_policies(default, overrides, self.game.seats(self.variant)))


def setup_for(name: str) -> Setup:
    g = get_game(name)
    p = profile(name)
    return Setup(g, g.unit(p.unit).name, g.variant(pairs=list(p.settings)), p.count, p.policy)


def arguments(decision) -> str:
    return ", ".join(f"a{i}" for i in range(len(decision.signature.args)))


def write_policy_file(path: Path, game: str, bodies: dict[str, dict[str, str]]) -> Path:
    """A user policy file: for each policy name, {decision: body} (the rest from ``basic``).

    A body is the function's code (lines) over the decision's arguments ``a0, a1, ...``
    (the last one is the random stream) and ``basic_<decision>`` (the built-in's function).
    """
    g = get_game(game)
    lines = ["from simcards import Policy", "from simcards.core.game import get_game", "",
             f"BASIC = get_game({game!r}).policies.builtins['basic']"]
    for d in g.policies.decisions:
        lines.append(f"basic_{d.name} = BASIC.function({d.name!r})")
    for policy, functions in bodies.items():
        names = {}
        for decision, body in functions.items():
            d = next(x for x in g.policies.decisions if x.name == decision)
            fname = f"{policy}_{decision}"
            lines += ["", "", f"def {fname}({arguments(d)}):"] + [f"    {line}" for line in body.splitlines()]
            names[decision] = fname
        lines += ["", "", f"{policy} = Policy({policy!r}, base=BASIC, "
                  + ", ".join(f"{k}={v}" for k, v in names.items()) + ")"]
    path.write_text("\n".join(lines) + "\n")
    return path


_COUNTER_SOURCE = """
def counted({args}):
    counts = nb.carray(_int64_pointer(ADDRESS), SIZE)
    counts[INDEX] += 1
    return inner({args})
"""


def counting_table(setup: Setup, counts) -> PolicyTable:
    """The profile's built-in at every seat, each decision counting its calls in ``counts``.

    Compiled wrappers around the built-in functions (the same pointer trick as the error
    channel's guards, core/policy.py), so the records are the built-in's own.
    """
    catalog = setup.game.policies
    basic = catalog.compiled(setup.policy)
    functions = {}
    for i, d in enumerate(catalog.decisions):
        namespace = {"inner": basic[i], "nb": nb, "_int64_pointer": _int64_pointer,
                     "ADDRESS": counts.ctypes.data, "SIZE": len(counts), "INDEX": i}
        exec(_COUNTER_SOURCE.format(args=arguments(d)), namespace)
        f = nb.njit(d.signature, nogil=True)(namespace["counted"])
        functions[d.name] = (f,) * catalog.max_seats
    defaults = catalog.table([setup.policy] * catalog.max_seats).params  # the built-in's parameters
    return PolicyTable(functions, ["counting"] * catalog.max_seats, defaults)
