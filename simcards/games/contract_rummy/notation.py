"""Card-type notation for Contract Rummy: core card names plus ``JK`` for a joker."""
from __future__ import annotations

import numpy as np

from simcards.core.cards import RANKS, SUITS, format_card, parse_card
from simcards.core.errors import SimcardsError
from simcards.games.contract_rummy.melds import JOKER, NT

SUIT_NAMES = "CDHS"


def parse_type(text: str) -> int:
    """``7S``, ``10H``, ``JK`` (also ``JK1``/``JK2``) -> card type."""
    t = text.strip().upper()
    if t in ("JK", "JK1", "JK2", "JOKER"):
        return JOKER
    return parse_card(t)


def parse_types(text: str) -> list[int]:
    return [parse_type(x) for x in text.replace(",", " ").split()]


def counts(text_or_types) -> np.ndarray:
    """A hand as int64[53] counts from notation or a list of types."""
    types = parse_types(text_or_types) if isinstance(text_or_types, str) else list(text_or_types)
    c = np.zeros(NT, np.int64)
    for t in types:
        c[t] += 1
    return c


def type_name(t: int) -> str:
    t = int(t)
    if t == JOKER:
        return "JK"
    if not 0 <= t < 52:
        raise SimcardsError(f"not a card type: {t}")
    return format_card(t)


def hand_text(cnt) -> str:
    """Cards of a count vector, by suit (S H D C) and rank, jokers last."""
    out = []
    for s in (3, 2, 1, 0):
        for r in range(13):
            out += [type_name(s * 13 + r)] * int(cnt[s * 13 + r])
    out += ["JK"] * int(cnt[JOKER])
    return " ".join(out) if out else "(empty)"


def rank_char(r: int) -> str:
    return RANKS[r]


def suit_char(s: int) -> str:
    return SUITS[s]
