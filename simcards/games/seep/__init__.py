"""Seep (Sweep, Sip): the four-player North Indian fishing game with houses and baazis.

Rules: docs/games/seep.md; docs: docs/games/seep.md.
"""
from __future__ import annotations

import numpy as np

from simcards.core.errors import kernel_errors
from simcards.core.game import Game
from simcards.core.policy import PolicyCatalog
from simcards.games.seep import policies as _policies
from simcards.games.seep.odds import BID
from simcards.games.seep.records import UNIT_CODES, UNITS, figures, tally
from simcards.games.seep.replay import replay
from simcards.games.seep.rules import seats, simulate_kernel
from simcards.games.seep.variant import PRESETS, SeepVariant


def simulate(unit: str, variant: SeepVariant, table, seed: int, start: int, count: int) -> np.ndarray:
    """Records ``start .. start+count-1`` of ``seed`` as an int64 array [count, ncols]."""
    u = GAME.unit(unit)
    out = np.zeros((count, len(u.columns)), dtype=np.int64)
    with kernel_errors("seep", _policies.DECISIONS, table, where=f"seed {seed}, records {start}..{start + count - 1}"):
        simulate_kernel(UNIT_CODES[u.name], variant.to_params(), seats(table),
                        int(seed), int(start), int(count), out)
    return out


CATALOG = PolicyCatalog("seep", _policies.DECISIONS,
                        {"random": _policies.RANDOM, "basic": _policies.BASIC, "expert": _policies.EXPERT},
                        max_seats=4)

GAME = Game(
    name="seep",
    title="Seep (Sweep)",
    description="Four-player partnership fishing game: bid a house 9-13, capture with sums, build, "
                "cement and break houses, 50-point sweeps, baazis won by a 100-point lead.",
    variant_type=SeepVariant,
    presets=PRESETS,
    units=UNITS,
    policies=CATALOG,
    seats=lambda variant: variant.num_players,
    simulate=simulate,
    tally=tally,
    figures=figures,
    replay=replay,
    aliases=("sweep", "sip"),
    # CLI options that set a variant field (only options the CLI has: --players, --deal-type,
    # --contract); --baazis is the record count of unit baazi, never match_baazis
    shortcuts={"players": "num_players"},
    sides=lambda variant: ((0, 2), (1, 3)) if variant.num_players == 4 else ((0,), (1,)),  # partnerships: seat 0 with seat 2
    default_policy="expert",  # the ladder in docs/games/<game>.md shows how it ranks
    odds={"bid": BID},
)
