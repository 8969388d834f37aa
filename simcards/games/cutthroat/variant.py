"""Cutthroat Spades house rules (rules section 6), presets, and the per-form derived values.

Every field is named and defaulted as in the rules' variants table. Per-form defaults
("per form" / "derived" in the table) are ``None`` here and resolved by :func:`form_of`:
``shoot_moon_min_tricks`` = round(14 T / 17), ``max_ordinary_bid`` = SM threshold - 1 (or
T without SM), ``first_lead`` = ``lowest_club`` in the joker forms, else ``left_of_dealer``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, NamedTuple

import numpy as np

from simcards.core.cards import BIG_JOKER, LITTLE_JOKER, MIDDLE_JOKER, mask_of, parse_card
from simcards.core.errors import SimcardsError
from simcards.core.variant import Variant, param

FIRST_LEAD_CHOICES = ("left_of_dealer", "lowest_club")


@dataclass(frozen=True)
class CutthroatVariant(Variant):
    """House rules of Cutthroat Spades (see docs/games/cutthroat.md)."""

    game_name: ClassVar[str] = "cutthroat"

    num_players: int = param(3, min=3, max=5, help="Game form: 3, 4 or 5 players (1.3).")
    jokers: int = param(0, values=(0, 2, 3), help="0; 2 or 3 jokers only with 5 players (1.3).")
    target_score: int = param(500, min=1, help="Score that ends a game (5.7).")
    tournament_wins: int = param(5, min=1, help="Win tokens needed to win a tournament (5.8).")
    bag_mode: str = param("accumulate", choices=("accumulate", "per_bag", "none"),
                          help="Bag system (5.3); per_bag = -10 per bag every hand.")
    bag_limit: int = param(10, min=1, help="Counter value that causes a bag-out.")
    bag_out_penalty: str = param("per_accumulated_bag", choices=("per_accumulated_bag", "fixed_carry"),
                                 help="Bag-out: 10 per bag held and reset, or 10 x bag_limit with carry-over.")
    bag_penalty_per_bag: int = param(10, min=0, help="Points per bag in penalties.")
    bag_point_value: int = param(1, min=0, max=1, help="Points scored for each bag when taken.")
    failed_nil_tricks_as_bags: bool = param(True, help="Tricks of a failed Nil/BN count as bags.")
    nil_allowed: bool = param(True, help="Nil available.")
    nil_value: int = param(100, min=0, help="Nil bonus/penalty.")
    blind_nil_allowed: bool = param(True, help="Blind nil available.")
    blind_nil_value: int = param(200, min=0, help="Blind nil bonus/penalty.")
    blind_nil_min_deficit: int | None = param(None, min=0, nullable=True,
                                              help="Deficit needed for BN; null = always.")
    one_for_fifty_allowed: bool = param(True, help="1F available.")
    one_for_fifty_value: int = param(50, min=0, help="1F value when exact and penalty when set.")
    two_for_forty_allowed: bool = param(True, help="2F available.")
    two_for_forty_value: int = param(40, min=0, help="2F value when exact and penalty when set.")
    blind_six_allowed: bool = param(True, help="B6 available at all.")
    blind_six_value: int = param(100, min=0, help="B6 bonus/penalty.")
    blind_six_tricks: int = param(6, min=1, help="Tricks a B6 must reach (1..T).")
    blind_six_min_deficit: int = param(50, min=0, help="Required deficit behind the leader for B6 (3.3).")
    blind_six_max_per_game: int | None = param(1, min=0, nullable=True,
                                               help="B6 bids per player per game; null = unlimited.")
    shoot_moon_allowed: bool = param(True, help="Shoot the moon (SM) available.")
    shoot_moon_value: int = param(150, min=0, help="SM bonus when made.")
    shoot_moon_fail_value: int = param(150, min=0, help="SM penalty when failed.")
    shoot_moon_min_tricks: int | None = param(None, min=1, nullable=True,
                                              help="Tricks an SM must reach; null = per form 14/11/8/9/9.")
    shoot_moon_overtricks_score: bool = param(False, help="SM tricks above the threshold earn bag points (never bags).")
    max_ordinary_bid: int | None = param(None, min=1, nullable=True,
                                         help="Highest ordinary bid; null = derived (SM threshold - 1, or T).")
    prize_jacks: tuple = param(("JD", "JC"), kind="cards", choices=("JD", "JC", "JH"),
                               help="Prize jacks in use (subset of JD JC JH; empty = off).")
    prize_jack_points: int = param(10, min=0, help="Points for capturing JD or JC.")
    jack_of_hearts_bag_relief: int = param(1, min=0, help="Bags removed by capturing JH.")
    first_lead: str | None = param(None, choices=FIRST_LEAD_CHOICES, nullable=True,
                                   help="Who leads trick 1; null = left_of_dealer (joker forms: lowest_club).")
    first_lead_card_forced: bool = param(True, help="With lowest_club: that club must be led.")
    spades_must_be_broken: bool = param(True, help="If false, spades may be led any time.")
    first_trick_trump_allowed: bool = param(True, help="If false, a void player may not trump trick 1 while holding a non-trump.")
    forbid_total_bids_equal_tricks: bool = param(False, help="Dealer may not make the bids total T (3.4).")
    misdeal_condition: str = param("none", choices=("none", "no_spades", "at_most_one_spade", "no_face_cards"),
                                   help="Deficient-hand redeal (2).")
    misdeal_optional: bool = param(False, help="Redeal at the affected player's choice.")
    first_dealer: int | str = param("random", kind="seat", seats=5, help="First dealer: seat or random.")
    max_hands: int = param(1000, min=1, help="Simulation guard: hands before a game counts as unfinished.")

    def derived(self) -> dict:
        """The per-form defaults of the parameters left null (packed by ``to_params``)."""
        f = form_of(self)
        return {"shoot_moon_min_tricks": f.shoot_moon_min_tricks, "max_ordinary_bid": f.max_ordinary_bid,
                "first_lead": f.first_lead}

    def check(self) -> None:
        n, j = self.num_players, self.jokers
        if j not in (0, 2, 3):
            raise SimcardsError(f"cutthroat parameter jokers must be 0, 2 or 3; got {j}")
        if j and n != 5:
            raise SimcardsError(f"cutthroat: jokers={j} needs num_players=5 (got num_players={n})")
        if self.first_dealer != "random" and self.first_dealer >= n:
            raise SimcardsError(f"cutthroat parameter first_dealer must be random or a seat 0..{n - 1}; got {self.first_dealer}")
        t = tricks_per_hand(n, j)
        for name in ("blind_six_tricks", "shoot_moon_min_tricks", "max_ordinary_bid"):
            v = getattr(self, name)
            if v is not None and v > t:
                raise SimcardsError(f"cutthroat parameter {name} must be 1..{t} with {n} players"
                                    f"{f' and {j} jokers' if j else ''}; got {v}")


PRESETS = {
    "official": {},
    "short_bag5": {"target_score": 300, "bag_limit": 5, "prize_jacks": ("JC",), "tournament_wins": 3},
    "short_per_bag": {"target_score": 300, "bag_mode": "per_bag", "prize_jacks": ("JC",), "tournament_wins": 3},
    "long_three_jacks": {"blind_six_max_per_game": None, "prize_jacks": ("JD", "JC", "JH")},
}


def tricks_per_hand(num_players: int, jokers: int) -> int:
    """T of section 1.3."""
    return {3: 17, 4: 13}.get(num_players, 11 if jokers else 10)


class Form(NamedTuple):
    """A variant's form and derived values, as the kernel uses them."""

    n: int  # players
    tricks: int  # T
    deck: int  # card mask of the form's deck
    dealer_sits_out: bool  # 5 players, 2 jokers: dealer skips trick 1
    shoot_moon_min_tricks: int
    max_ordinary_bid: int
    first_lead: str


def form_of(v: CutthroatVariant) -> Form:
    """Resolve the form and every derived default of ``v``."""
    n, j = v.num_players, v.jokers
    t = tricks_per_hand(n, j)
    deck = (1 << 52) - 1
    if n == 3:
        deck &= ~mask_of([parse_card("2C")])
    elif n == 5 and j == 0:
        deck &= ~mask_of([parse_card("2C"), parse_card("2D")])
    if j:
        deck |= mask_of([LITTLE_JOKER, BIG_JOKER] + ([MIDDLE_JOKER] if j == 3 else []))
    smt = v.shoot_moon_min_tricks if v.shoot_moon_min_tricks is not None else int(np.floor(14 * t / 17 + 0.5))
    if v.max_ordinary_bid is not None:
        mob = v.max_ordinary_bid
    else:
        mob = smt - 1 if v.shoot_moon_allowed else t
    first_lead = v.first_lead or ("lowest_club" if j else "left_of_dealer")
    return Form(n, t, deck, n == 5 and j == 2, smt, mob, first_lead)


def packed(v: CutthroatVariant) -> np.ndarray:
    """``v.to_params()``: the derived (null) defaults are resolved by :meth:`CutthroatVariant.derived`."""
    return v.to_params()


def form_array(v: CutthroatVariant) -> np.ndarray:
    """int64 array the kernel reads the form from: [N, T, deck mask, dealer sits out]."""
    f = form_of(v)
    return np.array([f.n, f.tricks, f.deck, int(f.dealer_sits_out)], dtype=np.int64)
