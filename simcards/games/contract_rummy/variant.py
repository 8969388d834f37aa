"""Contract Rummy house rules (docs/games/contract-rummy.md, section 5) and presets."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from simcards.core.errors import SimcardsError
from simcards.core.variant import Variant, param

MAX_SEATS = 8
MAX_DEALS = 10
# contract codes "S-R": S sets and R runs (at most 4 of each kind)
CONTRACT_CODES = tuple(f"{s}-{r}" for s in range(5) for r in range(5) if s + r >= 1)
DEFAULT_CONTRACTS = ("2-0", "1-1", "0-2", "3-0", "2-1", "1-2", "0-3")
# penalty_values order: A 2 3 4 5 6 7 8 9 T J Q K JK
PENALTY_ORDER = "A 2 3 4 5 6 7 8 9 T J Q K JK".split()
DEFAULT_PENALTIES = (15, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 15)
JOKER_CHOICES = ("auto", "players_minus_1", "0", "1", "2", "3", "4", "5", "6")


def _normalise_contracts(value):
    """Accept ``[(2,0),(1,1)]``, ``"(2,0),(1,1)"`` or ``"2-0,1-1"``; return codes."""
    if isinstance(value, str):
        pairs = re.findall(r"\(\s*(\d+)\s*,\s*(\d+)\s*\)", value)
        if pairs:
            return tuple(f"{int(a)}-{int(b)}" for a, b in pairs)
        return value
    out = []
    for item in value:
        if isinstance(item, (tuple, list)) and len(item) == 2:
            out.append(f"{int(item[0])}-{int(item[1])}")
        else:
            out.append(str(item).strip())
    return tuple(out)


@dataclass(frozen=True)
class ContractRummyVariant(Variant):
    """Every parameter of section 5, named and defaulted as in the rules."""

    game_name: ClassVar[str] = "contract-rummy"

    # setup
    num_players: int = param(4, min=3, max=MAX_SEATS, help="Number of seats (3-8).")
    num_decks: str = param("auto", choices=("auto", "1", "2", "3"),
                           help="52-card decks: auto = 1 for <= 4 players, 2 for >= 5.")
    num_jokers: str = param("auto", choices=JOKER_CHOICES,
                            help="Jokers: auto = number of decks used; players_minus_1 (pagat).")
    contracts: tuple = param(DEFAULT_CONTRACTS, kind="codes", choices=CONTRACT_CODES, count=MAX_DEALS,
                             help="One contract per deal, as sets-runs: 2-0 = two sets, 1-2 = a set and two runs.")
    hand_sizes: tuple = param((10, 10, 10, 10, 12, 12, 12), kind="ints", min=3, max=20, count=MAX_DEALS,
                              help="Cards dealt in each deal (same length as contracts).")
    first_dealer: object = param("random", kind="seat", seats=MAX_SEATS, help="First dealer: random or a seat.")
    # melds
    min_set_size: int = param(3, min=3, max=4, help="Smallest set.")
    max_set_size: int = param(4, min=3, max=12, help="Largest set (<= 4 unless set_duplicate_suits).")
    set_duplicate_suits: bool = param(False, help="Allow two cards of one suit in a set (Liverpool).")
    min_run_length: int = param(3, min=3, max=5, help="Shortest run.")
    ace_mode: str = param("both", choices=("low", "high", "both", "wrap"), help="Where an ace sits in a run.")
    min_naturals_per_meld: int = param(1, min=1, max=3, help="Natural cards each meld needs.")
    max_jokers_per_meld: object = param(None, min=1, max=2, nullable=True, help="Joker cap per meld (null = none).")
    # contract
    contract_runs_suits: str = param("distinct", choices=("distinct", "not_all_same", "non_contiguous", "any"),
                                     help="Suit rule for contract runs.")
    contract_sets_distinct_ranks: bool = param(False, help="Contract sets must have different ranks.")
    contract_meld_extra_cards: bool = param(True, help="Contract melds may be longer than the minimum.")
    extra_melds_after_contract: bool = param(True, help="A down player may lay down new melds.")
    layoff_same_turn_as_contract: bool = param(True, help="Lay-offs/extra melds allowed in the contract turn.")
    final_deal_all_at_once: bool = param(True, help="Final deal: contract only when going out (3.6).")
    final_deal_go_out_discard: str = param("same", choices=("same", "optional", "required", "forbidden"),
                                           help="Discard rule when going out in the final deal.")
    # drawing and discarding
    go_out_discard: str = param("optional", choices=("optional", "required", "forbidden"),
                                help="Whether going out needs a final discard.")
    no_return_discard: bool = param(True, help="A card taken alone from the pile top may not be discarded that turn.")
    discard_take_after_contract: bool = param(True, help="Down players may take from the discard pile.")
    deep_take_enabled: bool = param(True, help="Deep takes from the pile allowed.")
    deep_take_before_contract: bool = param(True, help="A player not down may deep-take if he goes down using the target.")
    deep_take_target_use: str = param("meld_or_layoff", choices=("meld_or_layoff", "meld_only"),
                                      help="How a deep-take target may reach the table.")
    max_deep_take_depth: object = param(None, min=2, nullable=True, help="Deepest take (null = whole pile).")
    buying_enabled: bool = param(False, help="'May I' buying of the top discard.")
    buy_penalty_cards: int = param(1, min=0, max=2, help="Extra stock cards a buyer takes.")
    max_buys_per_deal: int = param(3, min=0, max=20, help="Buys per player per deal.")
    buy_after_contract: bool = param(False, help="A down player may buy.")
    # jokers
    joker_swap_enabled: bool = param(True, help="Joker swap (3.3.4).")
    joker_swap_requires_prior_contract: bool = param(True, help="Swapper must have gone down in an earlier turn.")
    joker_swap_from_sets: bool = param(False, help="Allow swaps from sets.")
    joker_swap_scope: str = param("any", choices=("any", "others_only"), help="Whose runs may be swapped from.")
    joker_swap_must_place: bool = param(True, help="A swapped joker must go back on the table this turn.")
    # stock, termination, scoring
    stock_exhaustion: str = param("reshuffle", choices=("reshuffle", "end_deal"), help="Empty stock handling.")
    max_turns_per_deal: int = param(1000, min=3, max=100000, help="Safety cap on turns per deal.")
    penalty_values: tuple = param(DEFAULT_PENALTIES, kind="ints", min=0, max=1000, count=14,
                                  help="Penalties for A 2 3 4 5 6 7 8 9 T J Q K JK, in that order.")
    tie_break: str = param("shared", choices=("shared", "most_deals_won"), help="Game ties.")
    # simulation only
    contract: int = param(1, min=1, max=MAX_DEALS,
                          help="Simulation only: which deal (1-based) the `deal` unit plays.")

    def __post_init__(self):
        object.__setattr__(self, "contracts", _normalise_contracts(self.contracts))
        super().__post_init__()

    # ----- resolved values
    def decks(self) -> int:
        return (1 if self.num_players <= 4 else 2) if self.num_decks == "auto" else int(self.num_decks)

    def jokers(self) -> int:
        if self.num_jokers == "auto":
            return self.decks()
        if self.num_jokers == "players_minus_1":
            return self.num_players - 1
        return int(self.num_jokers)

    def contract_pairs(self) -> list[tuple[int, int]]:
        return [tuple(int(x) for x in c.split("-")) for c in self.contracts]

    def check(self) -> None:
        where = "contract-rummy parameter"
        n, decks, jokers = self.num_players, self.decks(), self.jokers()
        if len(self.contracts) == 0:
            raise SimcardsError(f"{where} contracts may not be empty")
        if len(self.hand_sizes) != len(self.contracts):
            raise SimcardsError(f"{where} hand_sizes has {len(self.hand_sizes)} entries but contracts has "
                                f"{len(self.contracts)}; give one hand size per deal")
        if len(self.penalty_values) != 14:
            raise SimcardsError(f"{where} penalty_values needs 14 numbers (A 2 .. K JK), got {len(self.penalty_values)}")
        if self.min_set_size > self.max_set_size:
            raise SimcardsError(f"{where} min_set_size ({self.min_set_size}) exceeds max_set_size ({self.max_set_size})")
        for k, ((s, r), h) in enumerate(zip(self.contract_pairs(), self.hand_sizes), start=1):
            need = s * self.min_set_size + r * self.min_run_length
            if h < need:
                raise SimcardsError(f"{where} hand_sizes: deal {k} deals {h} cards but its contract "
                                    f"{s}-{r} needs {need}")
        if self.max_set_size > 4 and not self.set_duplicate_suits:
            raise SimcardsError(f"{where} max_set_size > 4 needs set_duplicate_suits=true")
        if self.max_set_size > 4 * decks:
            raise SimcardsError(f"{where} max_set_size ({self.max_set_size}) exceeds 4 x {decks} decks")
        if n >= 6 and decks < 2:
            raise SimcardsError(f"{where} num_decks: {n} players need at least 2 decks")
        if jokers > 6:
            raise SimcardsError(f"{where} num_jokers: at most 6 jokers, got {jokers}")
        cards = 52 * decks + jokers
        if cards < n * max(self.hand_sizes) + 2:
            raise SimcardsError(f"{where} num_decks: {cards} cards cannot deal {n} x {max(self.hand_sizes)} "
                                f"plus a discard and a stock card")
        if self.max_turns_per_deal < n:
            raise SimcardsError(f"{where} max_turns_per_deal must be >= num_players ({n})")
        if self.first_dealer != "random" and int(self.first_dealer) >= n:
            raise SimcardsError(f"{where} first_dealer must be random or a seat 0..{n - 1}; got {self.first_dealer!r}")
        self._check_final_deal(where)
        if self.contract > len(self.contracts):
            raise SimcardsError(f"{where} contract must be 1..{len(self.contracts)} (the deal to simulate)")

    def _check_final_deal(self, where: str) -> None:
        """Refuse an all-at-once final deal (3.6) in which nobody could ever go out: its runs
        (one per suit, at most 14 cards with ace_mode=both, else 13) cannot hold the cards
        that must be melded (the hand, plus the drawn card when no discard is allowed)."""
        sets, runs = self.contract_pairs()[-1]
        if not self.final_deal_all_at_once or sets:
            return  # a final contract with sets is played as an ordinary deal (docs)
        rule = self.go_out_discard if self.final_deal_go_out_discard == "same" else self.final_deal_go_out_discard
        meld = self.hand_sizes[-1] + (1 if rule == "forbidden" else 0)
        longest = 14 if self.ace_mode == "both" else 13
        if meld > runs * longest:
            raise SimcardsError(
                f"{where} hand_sizes: in the all-at-once final deal (deal {len(self.contracts)}) a player must "
                f"meld {meld} cards into {runs} run(s) of at most {longest} cards, so nobody could go out; "
                f"deal fewer cards or set final_deal_all_at_once=false")


PRESETS = {
    "seed_default": {},
    "pagat_like": {
        "num_decks": "2", "num_jokers": "players_minus_1", "min_run_length": 4,
        "hand_sizes": (10, 10, 10, 12, 12, 12, 12), "deep_take_enabled": False,
    },
    "liverpool_like": {
        "num_decks": "2", "num_jokers": "4", "min_run_length": 4, "set_duplicate_suits": True,
        "max_set_size": 8, "extra_melds_after_contract": False, "discard_take_after_contract": False,
        "buying_enabled": True, "final_deal_go_out_discard": "forbidden", "deep_take_enabled": False,
    },
}
