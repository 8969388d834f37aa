"""Partnership Spades (rules: docs/games/spades.md; docs: docs/games/spades.md)."""
from simcards.core.game import Game
from simcards.core.policy import PolicyCatalog
from simcards.games.spades import dd, records
from simcards.games.spades.bid_model import FITTED
from simcards.games.spades.kernel import run_kernel
from simcards.games.spades.odds import BID
from simcards.games.spades.pimc import PIMC
from simcards.games.spades.policies import (AGGRESSIVE, BASIC, CONSERVATIVE, DECISIONS, EXPERT, QUICK_COUNT, RANDOM,
                                            V_PARAMS)
from simcards.games.spades.replay import replay
from simcards.games.spades.variant import PRESETS, SpadesVariant


def simulate(unit, variant, table, seed, start, count):
    """Records ``start .. start+count-1`` of ``seed`` (int64 array, columns of the unit)."""
    out, _ = run_kernel(unit or "deal", variant, table, seed, start, count)
    return out


GAME = Game(
    name="spades",
    title="Spades (partnership)",
    description="Four players in two partnerships bid tricks with spades as trumps; Nil, Blind Nil, bags.",
    variant_type=SpadesVariant,
    presets=PRESETS,
    units=records.UNITS,
    policies=PolicyCatalog("spades", DECISIONS, {p.name: p for p in (RANDOM, BASIC, EXPERT, AGGRESSIVE, CONSERVATIVE,
                                                                      QUICK_COUNT, PIMC, FITTED)}, 4,
                            params_at=V_PARAMS),
    seats=lambda variant: 4,
    simulate=simulate,
    tally=records.tally,
    figures=records.figures,
    replay=replay,
    aliases=("partnership-spades",),
    sides=lambda variant: ((0, 2), (1, 3)),  # partnerships: seat 0 with seat 2
    default_policy="fitted",  # the strongest at kernel speed: the ladder in docs/games/spades.md
    odds={"bid": BID},
    double_dummy=dd.SUPPORT,
)
