"""Contract Rummy: seven deals with rising contracts, penalty scoring (docs/games/contract-rummy.md)."""
from simcards.core.game import Game
from simcards.games.contract_rummy.odds import ODDS
from simcards.games.contract_rummy.policies import CATALOG
from simcards.games.contract_rummy.records import UNITS, figures, tally
from simcards.games.contract_rummy.replay import replay_text
from simcards.games.contract_rummy.variant import PRESETS, ContractRummyVariant


def _simulate(unit, variant, table, seed, start, count):
    """Records start..start+count-1 (int64 [count, ncols]); the kernel releases the GIL."""
    from simcards.games.contract_rummy.sim import run_chunk

    return run_chunk(getattr(unit, "name", unit), variant, table, seed, start, count)


GAME = Game(
    name="contract-rummy",
    title="Contract Rummy",
    description="Seven deals of rising contracts (sets and runs), jokers wild, deep discard takes, penalty scoring.",
    variant_type=ContractRummyVariant,
    presets=PRESETS,
    units=UNITS,
    policies=CATALOG,
    seats=lambda v: v.num_players,
    simulate=_simulate,
    tally=tally,
    figures=figures,
    replay=replay_text,
    aliases=("contract_rummy", "rummy"),
    shortcuts={"players": "num_players", "contract": "contract"},
    default_policy="expert",  # the ladder in docs/games/<game>.md shows how it ranks
    odds={"odds": ODDS},
)
