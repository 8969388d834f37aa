"""Card notation, bit helpers and the parameter parser, fuzzed with hypothesis."""
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from simcards.core import cards as C
from simcards.core.errors import SimcardsError
from simcards.core.variant import Variant, param

ALL_CARDS = list(range(52)) + [C.LITTLE_JOKER, C.MIDDLE_JOKER, C.BIG_JOKER]


def test_notation_examples():
    assert C.parse_card("AS") == C.card(C.ACE, C.SPADES) == 51
    assert C.parse_card("10h") == C.parse_card("TH") == C.card(C.TEN, C.HEARTS)
    assert C.parse_card("2C") == 0
    assert [C.parse_card(j) for j in ("LJ", "MJ", "BJ")] == [52, 53, 54]
    assert C.format_cards(C.parse_cards("as, 10d 2c")) == "AS TD 2C"


@pytest.mark.parametrize("text,words", [("1S", "unknown card '1S'"), ("AX", "unknown card"), ("", "unknown card"),
                                        ("ASS", "unknown card"), ("XJ", "unknown card")])
def test_unknown_cards_are_named(text, words):
    with pytest.raises(SimcardsError, match=words):
        C.parse_card(text)


def test_duplicate_cards_are_named():
    with pytest.raises(SimcardsError, match="AS is written twice"):
        C.parse_cards("AS KS as")


@given(st.sampled_from(ALL_CARDS))
def test_format_then_parse_is_identity(c):
    assert C.parse_card(C.format_card(c)) == c
    assert C.parse_card(C.format_card(c).lower()) == c


@given(st.text(max_size=6))
def test_any_text_parses_or_raises_one_clear_error(text):
    try:
        c = C.parse_card(text)
    except SimcardsError as exc:
        assert "\n" not in str(exc)
    else:
        assert c in ALL_CARDS


@given(st.lists(st.sampled_from(ALL_CARDS), unique=True, max_size=20), st.sampled_from([" ", ", ", ",", "  "]))
def test_hands_round_trip(hand, sep):
    assert C.parse_cards(sep.join(C.format_card(c) for c in hand)) == hand
    assert C.cards_of(C.mask_of(hand)) == sorted(hand)


@given(st.integers(min_value=0, max_value=2**55 - 1))
def test_bit_helpers_agree_with_python(mask):
    m = np.uint64(mask)
    assert C.popcount(m) == bin(mask).count("1")
    assert C.lowest_card(m) == ((mask & -mask).bit_length() - 1 if mask else -1)
    assert C.highest_card(m) == (mask.bit_length() - 1 if mask else -1)
    cards = C.cards_of(mask)
    for n in range(len(cards) + 1):
        assert C.nth_card(m, n) == (cards[n] if n < len(cards) else -1)


@dataclass(frozen=True)
class Fuzz(Variant):
    game_name = "fuzz"
    limit: int = param(10, min=1, max=50, help="an int")
    mode: str = param("a", choices=("a", "b", "none"), help="an enum with a value called none")
    loss: int = param(None, nullable=True, max=0, help="int or null")
    flag: bool = param(True, help="a bool")
    removed: tuple = param(("2C", "2D"), kind="cards", count=2, help="two cards")
    order: tuple = param(("x",), kind="codes", choices=("x", "y", "z"), count=3, help="codes")
    tricks: tuple = param((7, 13), kind="ints", min=1, max=13, count=13, help="ints")
    seat: object = param("random", kind="seat", seats=4, help="a seat")


@given(st.sampled_from(["limit", "mode", "loss", "flag", "removed", "order", "tricks", "seat", "other"]),
       st.text(max_size=12))
@settings(max_examples=300)
def test_parameter_parser_accepts_or_raises_one_clear_error(name, value):
    try:
        v = Fuzz.from_pairs([f"{name}={value}"])
    except SimcardsError as exc:
        assert "\n" not in str(exc) and str(exc)
    else:
        v.to_params()  # every accepted value packs for the kernels
        assert Fuzz.from_mapping(v.to_dict()) == v  # and round-trips


def test_parameter_values_are_canonical_and_packed():
    v = Fuzz.from_pairs(["limit=5", "mode=none", "loss=-200", "flag=no", "removed=2H 2D", "order=z,x",
                         "tricks=[13]", "seat=2"])
    assert (v.limit, v.mode, v.loss, v.flag, v.removed, v.order, v.tricks, v.seat) == \
        (5, "none", -200, False, ("2H", "2D"), ("z", "x"), (13,), 2)
    p = v.to_params()[0]
    assert p["mode"] == 2 and p["flag"] == 0 and p["removed"] == (1 << 26) | (1 << 13)
    assert list(p["order"][:p["order_len"]]) == [2, 0] and p["seat"] == 2
    assert Fuzz.from_pairs(["loss=null"]).to_params()[0]["loss"] < -(10**18)
    assert Fuzz().changed() == {} and v.changed()["limit"] == 5
