"""Kierki house rules (docs/games/kierki.md section 6) and presets.

Every field is named and defaulted exactly as in the rules' parameter table, plus
one simulation-only field, ``deal_type``, which picks the deal played by the
``deal`` unit (not a rule of the game).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Mapping

from simcards.core.errors import SimcardsError
from simcards.core.variant import Variant, param

NEGATIVE = ("no_tricks", "no_hearts", "no_queens", "no_jacks_kings", "no_king_of_hearts",
            "no_seventh_and_last", "robber")
DEAL_TYPES = NEGATIVE + ("trumps", "lottery")
PRESET_NAMES = ("standard", "long_blocked", "long_cycled", "lottery_x4", "no_robber_trumps",
                "no_robber_lottery", "trump_left_full_hand")

_WITHOUT_ROBBER = tuple(c for c in NEGATIVE if c != "robber")

#: preset name -> the parameters it changes (section 6.2)
PRESET_SETTINGS: dict[str, dict[str, Any]] = {
    "standard": {},
    "long_blocked": {"deal_type_repetitions": 4, "deal_ordering": "blocked"},
    "long_cycled": {"deal_type_repetitions": 4, "deal_ordering": "cycled"},
    "lottery_x4": {"lotteries_per_cycle": 4, "lottery_awards": (200, 125)},
    "no_robber_trumps": {"negative_contracts": _WITHOUT_ROBBER, "lotteries_per_cycle": 0},
    "no_robber_lottery": {"negative_contracts": _WITHOUT_ROBBER, "trump_deals_per_cycle": 0},
    "trump_left_full_hand": {"trump_chooser": "left_of_dealer", "trump_leader": "left_of_dealer",
                             "trump_choice_cards": 13},
}
#: what ``Game.presets`` lists: each preset also records its own name
PRESETS = {name: {"preset": name, **settings} for name, settings in PRESET_SETTINGS.items()}

_NON_POSITIVE = dict(max=0)


@dataclass(frozen=True)
class KierkiVariant(Variant):
    """Kierki parameters. ``preset=...`` expands through ``from_mapping`` (explicit values win)."""

    game_name: ClassVar[str] = "kierki"

    preset: str = param("standard", choices=PRESET_NAMES,
                        help="Shorthand that sets several parameters; explicit parameters override it.")
    first_dealer: int | None = param(None, min=0, max=3, nullable=True,
                                     help="Seat (0=N..3=W) of the dealer of deal 1; null = uniform random.")
    negative_contracts: tuple = param(NEGATIVE, kind="codes", choices=NEGATIVE, count=7,
                                      help="Negative deals of one cycle, in play order (each at most once).")
    trump_deals_per_cycle: int = param(4, min=0, max=16, help="Trump deals in one cycle, after the negative deals.")
    lotteries_per_cycle: int = param(1, min=0, max=4, help="Lotteries in one cycle, played last.")
    deal_type_repetitions: int = param(1, min=1, max=8, help="How many times each cycle entry is played (4 = long form).")
    deal_ordering: str = param("blocked", choices=("blocked", "cycled"),
                               help="blocked: each entry r times in a row; cycled: the whole cycle r times.")
    require_balanced: bool = param(True, help="Reject a configuration whose nominal game total is not 0.")
    penalty_per_trick: int = param(-20, **_NON_POSITIVE, help="no_tricks and robber: per trick won.")
    penalty_per_heart: int = param(-20, **_NON_POSITIVE, help="no_hearts and robber: per heart captured.")
    penalty_per_queen: int = param(-60, **_NON_POSITIVE, help="no_queens and robber: per queen captured.")
    penalty_per_jack_or_king: int = param(-30, **_NON_POSITIVE, help="no_jacks_kings and robber: per J or K captured.")
    penalty_king_of_hearts: int = param(-150, **_NON_POSITIVE, help="no_king_of_hearts and robber: for KH.")
    seventh_last_tricks: tuple = param((7, 13), kind="ints", min=1, max=13, count=13,
                                       help="Tricks penalised in no_seventh_and_last and robber.")
    penalty_per_seventh_last_trick: int = param(-75, **_NON_POSITIVE, help="Charge per trick in seventh_last_tricks.")
    heart_lead_rule: str = param("only_hearts_left", choices=("only_hearts_left", "until_broken", "unrestricted"),
                                 help="Heart-lead restriction in heart_lead_restricted_deals (section 2.2).")
    heart_lead_restricted_deals: tuple = param(("no_hearts", "no_king_of_hearts", "robber"), kind="codes",
                                               choices=NEGATIVE, count=7,
                                               help="Deals in which heart_lead_rule applies.")
    king_of_hearts_forced: str = param("off", choices=("off", "when_void", "when_void_or_beaten"),
                                       help="Must the holder of KH play it (no_king_of_hearts, robber)?")
    early_stop: bool = param(False, help="End a deal once its penalty cards are all captured (speed only).")
    trump_chooser: str = param("dealer", choices=("dealer", "left_of_dealer"), help="Who announces trumps.")
    trump_choice_cards: int = param(5, min=0, max=13, help="Own cards the chooser has received when announcing.")
    allow_no_trump: bool = param(False, help="May the chooser announce no trumps?")
    trump_suits_distinct: bool = param(False, help="No suit twice within a group of four trump deals.")
    trump_leader: str = param("dealer", choices=("dealer", "left_of_dealer"), help="Who leads trick 1 of a trump deal.")
    trump_obligation: str = param("none", choices=("none", "must_trump", "must_overtrump"),
                                  help="Must a player void in the suit led play a trump (and overtrump)?")
    points_per_trump_trick: int = param(25, min=0, help="Score per trick in trump deals.")
    lottery_first_player: str = param("dealer", choices=("dealer", "left_of_dealer"),
                                      help="Who takes the first lottery turn.")
    lottery_opening_card: tuple | None = param(None, kind="cards", count=1, nullable=True,
                                               help="If set (e.g. 7D), its holder starts and must play it.")
    lottery_base_rank: str = param("7", choices=("7", "8", "first_card"), help="Rank that opens a row.")
    lottery_ace: str = param("low", choices=("low", "high"), help="Layout sequence A..K (low) or 2..A (high).")
    lottery_awards: tuple = param((800, 500), kind="ints", min=1, count=3,
                                  help="Award for the 1st, 2nd (, 3rd) player out; ends when all are given.")
    deal_type: str = param("robber", choices=DEAL_TYPES,
                           help="Not a rule: the deal type played by the `deal` unit (focused studies).")

    def __post_init__(self) -> None:
        if isinstance(self.lottery_opening_card, str) and self.lottery_opening_card.strip().lower() in ("null", "none", ""):
            object.__setattr__(self, "lottery_opening_card", None)
        for name in ("negative_contracts", "heart_lead_restricted_deals"):  # may be empty: "" means []
            value = getattr(self, name)
            if value is None or (isinstance(value, str) and value.strip().lower() in ("", "null", "none")):
                object.__setattr__(self, name, ())
        super().__post_init__()

    @classmethod
    def from_mapping(cls, settings: Mapping[str, Any] | None = None):
        """As Variant.from_mapping, but a ``preset`` fills in its parameters first."""
        settings = dict(settings or {})
        name = settings.get("preset")
        if name is not None:
            name = str(name).strip()
            if name not in PRESET_SETTINGS:
                raise SimcardsError(f"kierki parameter preset must be one of {', '.join(PRESET_NAMES)}; got {name!r}")
            settings = {**PRESET_SETTINGS[name], **settings, "preset": name}
        return super().from_mapping(settings)

    def check(self) -> None:
        if len(set(self.negative_contracts)) != len(self.negative_contracts):
            raise SimcardsError("kierki parameter negative_contracts lists a deal twice")
        if len(set(self.seventh_last_tricks)) != len(self.seventh_last_tricks):
            raise SimcardsError("kierki parameter seventh_last_tricks lists a trick twice")
        if not 1 <= len(self.lottery_awards) <= 3:
            raise SimcardsError("kierki parameter lottery_awards needs 1 to 3 awards")
        if self.lottery_opening_card is not None:
            rank = self.lottery_opening_card[0][0]
            if self.lottery_base_rank == "first_card" or rank != self.lottery_base_rank:
                raise SimcardsError(
                    f"kierki parameter lottery_opening_card {self.lottery_opening_card[0]} must be of the "
                    f"base rank (lottery_base_rank={self.lottery_base_rank})")
        if self.trump_suits_distinct and self.allow_no_trump:
            raise SimcardsError("kierki: trump_suits_distinct requires allow_no_trump=false")
        if not schedule(self):
            raise SimcardsError("kierki: the schedule has no deals (no contracts, trump deals or lotteries)")
        if self.require_balanced and nominal_game_total(self) != 0:
            raise SimcardsError(
                f"kierki: nominal game total is {nominal_game_total(self)}, not 0 "
                f"(set require_balanced=false to allow it)")


def nominal_deal_total(v: KierkiVariant, deal_type: str) -> int:
    """Points a deal of ``deal_type`` always distributes (section 6.3)."""
    parts = {
        "no_tricks": 13 * v.penalty_per_trick,
        "no_hearts": 13 * v.penalty_per_heart,
        "no_queens": 4 * v.penalty_per_queen,
        "no_jacks_kings": 8 * v.penalty_per_jack_or_king,
        "no_king_of_hearts": v.penalty_king_of_hearts,
        "no_seventh_and_last": len(v.seventh_last_tricks) * v.penalty_per_seventh_last_trick,
    }
    if deal_type in parts:
        return parts[deal_type]
    if deal_type == "robber":
        return sum(parts.values())
    if deal_type == "trumps":
        return 13 * v.points_per_trump_trick
    return sum(v.lottery_awards)


def schedule(v: KierkiVariant) -> list[tuple[str, int]]:
    """The game's deals as ``(deal_type, dealer offset from the first dealer)`` (Appendix A)."""
    cycle = list(v.negative_contracts) + ["trumps"] * v.trump_deals_per_cycle + ["lottery"] * v.lotteries_per_cycle
    r, out = v.deal_type_repetitions, []
    if v.deal_ordering == "blocked":
        for deal_type in cycle:
            for _ in range(r):
                out.append((deal_type, len(out) % 4))
    else:
        for c in range(r):
            for k, deal_type in enumerate(cycle):
                out.append((deal_type, (c + k) % 4))
    return out


def nominal_game_total(v: KierkiVariant) -> int:
    return sum(nominal_deal_total(v, t) for t, _ in schedule(v))


__all__ = ["KierkiVariant", "PRESETS", "PRESET_SETTINGS", "DEAL_TYPES", "NEGATIVE", "schedule",
           "nominal_deal_total", "nominal_game_total"]
