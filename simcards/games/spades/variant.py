"""Partnership Spades house rules (rules section 6) and the named presets."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from simcards.core.errors import SimcardsError
from simcards.core.variant import Variant, param

NON_SPADE_DEUCES = ("2C", "2D", "2H")


@dataclass(frozen=True)
class SpadesVariant(Variant):
    """Every parameter of rules section 6, with its default and allowed values."""

    game_name: ClassVar[str] = "spades"

    target_score: int = param(500, min=1, help="Score that ends the game (5.8).")
    losing_score: int | None = param(None, max=0, nullable=True,
                                     help="Game also ends when a team is at or below it (5.8); null = off.")
    nil_allowed: bool = param(True, help="Whether Nil (0) is a legal bid.")
    nil_value: int = param(100, min=0, help="Nil bonus when made, penalty when failed.")
    blind_nil_allowed: bool = param(True, help="Whether Blind Nil (BN) is a legal bid.")
    blind_nil_value: int = param(200, min=0, help="Blind Nil bonus/penalty.")
    blind_nil_min_deficit: int | None = param(
        None, min=0, nullable=True,
        help="BN only when the team trails by at least this many points at the start of the hand; null = always.")
    blind_nil_exchange_count: int = param(
        3, min=0, max=4, help="Cards exchanged between a BN bidder and a number-bidding partner; 0 = none.")
    nil_exchange_count: int = param(0, min=0, max=4, help="Cards exchanged for ordinary Nil; 0 = none.")
    exchange_order: str = param("simultaneous", choices=("simultaneous", "nil_first", "partner_first"),
                                help="Card exchange procedure (3.5).")
    failed_nil_tricks: str = param("bags", choices=("bags", "partner", "ignored"),
                                   help="Treatment of tricks won by a failed Nil/BN bidder (5.4).")
    bag_mode: str = param("accumulate", choices=("accumulate", "per_bag", "none"),
                          help="Bag penalty system (5.3).")
    bag_limit: int = param(10, min=1, help="Bag counter value that triggers a penalty.")
    bag_limit_penalty: int = param(100, min=0, help="Points lost per bag overflow.")
    bag_overflow: str = param("carry", choices=("carry", "reset"),
                              help="Whether surplus bags carry over after a penalty.")
    per_bag_penalty: int = param(10, min=0, help="Points lost per bag in per_bag mode.")
    bag_point_value: int = param(1, min=0, max=1, help="Points scored per bag when it is taken.")
    spades_must_be_broken: bool = param(True, help="If false, spades may be led at any time.")
    first_lead: str = param("left_of_dealer", choices=("left_of_dealer", "lowest_club"),
                            help="Who leads trick 1 (4.1).")
    first_lead_card_forced: bool = param(True, help="With lowest_club: that club must be led.")
    first_trick_trump_allowed: bool = param(
        True, help="If false, a player void in the led suit on trick 1 may not trump unless holding only trumps.")
    min_team_bid: int = param(0, min=0, max=13, help="Minimum team contract; 0 = off (3.4).")
    forbid_total_bids_13: bool = param(False, help="Dealer may not make the four bids total 13 (3.4).")
    ten_for_two_hundred: bool = param(False, help="Doubled value for contracts of 10 or more (5.5).")
    ten_for_two_hundred_min_bid: int = param(10, min=10, max=13, help="Smallest contract that is doubled.")
    ten_for_two_hundred_set_doubled: bool = param(True, help="Whether a set of such a contract is also doubled.")
    boston_bonus: int = param(0, min=0, help="Bonus for a team of two number bidders winning all 13 tricks; 0 = off.")
    jokers: int = param(0, values=(0, 2), help="2 = joker deck of 1.3.2 (BJ, LJ replace two deuces); 0 = standard.")
    joker_removed_cards: tuple = param(("2C", "2D"), kind="cards", count=2, choices=NON_SPADE_DEUCES,
                                       help="Two distinct non-spade deuces removed when jokers are added.")
    misdeal_condition: str = param("none", choices=("none", "no_spades", "at_most_one_spade", "no_face_cards"),
                                   help="Deficient-hand redeal (section 2).")
    misdeal_optional: bool = param(False, help="Whether the affected player chooses to call the redeal.")
    match_wins: int = param(1, min=1, help="Games needed to win a match (5.9).")
    first_dealer: object = param("random", kind="seat", seats=4, help="First dealer: seat 0-3 or random.")
    max_hands: int = param(1000, min=1, help="Simulation guard: a game still running after this many hands is unfinished.")

    def check(self) -> None:
        if self.jokers not in (0, 2):
            raise SimcardsError(f"spades parameter jokers must be 0 or 2; got {self.jokers}")


PRESETS = {
    "standard": {},
    "classic_book": {"nil_exchange_count": 3},
    "club_rules": {"blind_nil_min_deficit": 100, "blind_nil_exchange_count": 2, "exchange_order": "nil_first"},
    "online_common": {"losing_score": -200, "ten_for_two_hundred": True, "first_lead": "lowest_club"},
}
