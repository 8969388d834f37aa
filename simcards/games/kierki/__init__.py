"""Kierki: the Polish compendium game (7 negative deals, 4 trump deals, the lottery).

Rules: docs/games/kierki.md; docs: docs/games/kierki.md.
"""
from simcards.core.game import Game
from simcards.games.kierki import dd as _dd, odds, records, replay as _replay
from simcards.games.kierki.pimc import PIMC
from simcards.games.kierki.policies import CATALOG
from simcards.games.kierki.rules import run_records
from simcards.games.kierki.variant import PRESETS, KierkiVariant

CATALOG.builtins["pimc"] = PIMC  # built on policies.py's expert, so registered here (no import cycle)


def simulate(unit, variant, table, seed, start, count):
    """int64 records ``start .. start+count-1`` of ``unit`` (runs in nogil numba)."""
    return run_records(unit, variant, table, seed, start, count)


GAME = Game(
    name="kierki",
    title="Kierki",
    description="Polish compendium: seven negative deals, four trump deals chosen from five cards, "
                "and the Fan Tan lottery; the four totals always sum to zero.",
    variant_type=KierkiVariant,
    presets=PRESETS,
    units=records.UNITS,
    policies=CATALOG,
    seats=lambda variant: 4,
    simulate=simulate,
    tally=records.tally,
    figures=records.figures,
    replay=_replay.replay,
    shortcuts={"deal-type": "deal_type"},
    default_policy="expert",  # the ladder in docs/games/<game>.md shows how it ranks
    odds={"trump": odds.TRUMP},
    double_dummy=_dd.SUPPORT,
)
