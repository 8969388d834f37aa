"""Seep house rules (rules section 6) and presets."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from simcards.core.errors import SimcardsError
from simcards.core.variant import Variant, param


@dataclass(frozen=True)
class SeepVariant(Variant):
    """Every parameter of the Seep variants table, named and defaulted as in the rules."""

    game_name: ClassVar[str] = "seep"

    num_players: int = param(4, values=(2, 4), help="4 (the partnership game) or 2 (the optional two-player game, 6.2).")
    min_bid_value: int = param(9, min=9, max=13, help="Lowest bid; redeal if the bidder holds no card of value min_bid_value..13.")
    min_house_value: int = param(9, min=2, max=9, help="Experimental: lowest house value (at most min_bid_value).")
    capture_sums: bool = param(True, help="Groups of loose cards summing to the played value may be captured.")
    capture_maximal: bool = param(True, help="A capture must take the house of that value and a maximal set of groups.")
    throw_requires_no_capture: bool = param(True, help="A card may be thrown only if it cannot capture.")
    owner_may_throw: bool = param(True, help="false: a player who owns any house may not throw.")
    absorption_mode: str = param("optional", choices=("optional", "mandatory", "forbidden"),
                                 help="Further whole groups of loose cards joining a build or addition.")
    allow_direct_cemented_build: bool = param(True, help="false: a new house must be one group with the played card below its value.")
    partner_add_free: bool = param(True, help="false: adding to a partner's house also needs a card of its value.")
    sweep_value: int = param(50, min=0, help="Bonus for a sweep.")
    early_sweep_value: int = param(25, min=0, help="Bonus for a sweep within the first early_sweep_plays plays.")
    early_sweep_plays: int = param(1, min=0, max=48, help="Plays that count as early (1 = the opening only).")
    last_play_sweep_value: int = param(0, min=0, help="Bonus for a sweep on play 48.")
    min_points_rule: bool = param(True, help="Enable the 9-point minimum.")
    min_points_threshold: int = param(9, min=0, max=50, help="A team scoring fewer points loses the baazi.")
    min_points_includes_sweeps: bool = param(True, help="false: the threshold is tested on card points only.")
    baazi_lead: int = param(100, min=1, help="Lead in the running difference that wins a baazi.")
    baazi_lead_inclusive: bool = param(True, help="true: a lead of exactly baazi_lead wins.")
    match_baazis: int = param(1, min=1, help="Number of baazis in a match (see match_mode).")
    match_mode: str = param("fixed_count", choices=("fixed_count", "first_to"), help="How the match ends.")
    first_dealer: str = param("random", kind="seat", seats=4, help="First dealer of a match: random or 0..3.")
    dealer_rule: str = param("losing_team", choices=("losing_team", "rotate"), help="rotate: the deal passes right after every deal.")
    losing_team_basis: str = param("running_difference", choices=("running_difference", "last_deal"),
                                   help="Which team is losing: behind in D, or lower score in the last deal.")
    tie_dealer: str = param("same", choices=("same", "rotate"), help="Dealer when neither team is losing.")
    dealer_after_baazi: str = param("partner_of_next", choices=("partner_of_next", "dealer_partner", "left_of_dealer", "no_shift"),
                                    help="Dealer of the first deal of a new baazi.")
    end_house_policy: str = param("error", choices=("error", "last_capturer"),
                                  help="A house after play 48 (an engine bug): raise, or give it to the last capturer.")
    max_deals_per_baazi: int = param(None, min=1, nullable=True, help="Simulation safety cap on deals per baazi (not a rule).")

    def check(self) -> None:
        if self.num_players == 3:
            raise SimcardsError("seep parameter num_players must be 4 or 2; got 3")
        if self.num_players == 2 and self.first_dealer not in ("random", 0, 1):
            raise SimcardsError(f"seep parameter first_dealer must be random, 0 or 1 with num_players=2; got {self.first_dealer}")
        if self.min_house_value > self.min_bid_value:
            raise SimcardsError(
                f"seep parameter min_house_value ({self.min_house_value}) must not exceed min_bid_value ({self.min_bid_value})"
            )


PRESETS = {
    "standard": {},
    "pure-matching": {"capture_sums": False},
    "first-round-early-sweeps": {"early_sweep_plays": 4},
    "last-sweep-counts": {"last_play_sweep_value": 50},
    "strict-throw-owner": {"owner_may_throw": False},
    "rotate-dealer": {"dealer_rule": "rotate"},
    "best-of-3": {"match_baazis": 2, "match_mode": "first_to"},
    "two-player": {"num_players": 2},
}
