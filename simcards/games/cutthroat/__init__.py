"""Cutthroat Spades (3 players; 4- and 5-player forms with jokers): docs/games/cutthroat.md."""
from simcards.core.game import Game
from simcards.games.cutthroat import dd as _dd, records, replay as _replay, rules
from simcards.games.cutthroat.bid_model import FITTED
from simcards.games.cutthroat.odds import BID
from simcards.games.cutthroat.pimc import PIMC
from simcards.games.cutthroat.policies import CATALOG
from simcards.games.cutthroat.variant import PRESETS, CutthroatVariant

CATALOG.builtins["pimc"] = PIMC  # built on policies.py's expert, so registered here (no import cycle)
CATALOG.builtins["fitted"] = FITTED  # likewise

GAME = Game(
    name="cutthroat",
    title="Cutthroat Spades",
    description="Solo Spades for 3 (or 4, 5) players: Nil, 1F, 2F, blind six, blind nil, "
                "shoot the moon, prize jacks, bags; games to 500 and tournaments of win tokens.",
    variant_type=CutthroatVariant,
    presets=PRESETS,
    units=records.UNITS,
    policies=CATALOG,
    seats=lambda v: v.num_players,
    simulate=rules.simulate,
    tally=records.tally,
    figures=records.figures,
    replay=_replay.replay,
    aliases=("cutthroat-spades",),
    shortcuts={"players": "num_players"},
    default_policy="fitted",  # the strongest at kernel speed: docs/games/cutthroat.md, "`fitted`"
    odds={"bid": BID},
    double_dummy=_dd.SUPPORT,
)
