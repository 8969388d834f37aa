"""Helpers for the Seep tests: build kernel states from the rules' notation, parse moves."""
from __future__ import annotations

import re

import numpy as np

from simcards.core.cards import mask_of, parse_card, parse_cards
from simcards.games.seep import GAME
from simcards.games.seep import referee
from simcards.games.seep.layout import (
    ADD, BREAK, BUILD, CAPTURE, S_BID, S_BIDDER, S_HANDS, S_HOUSE, S_LAST_CAPTURE, S_LOOSE,
    S_NCARDS, S_OWNERS, S_PLAY, ST_SIZE, THROW,
)
from simcards.games.seep.rules import legal_moves_of, start_deal


def variant(**settings):
    return GAME.variant(settings=settings)


def make_state(mover: int, hands: dict, loose: str = "", houses=(), play: int = 20, bid: int = 9,
               v=None) -> np.ndarray:
    """A kernel state with ``mover`` to make play ``play``; houses as (value, "cards", {owners})."""
    v = v or variant()
    dealer = (mover - (play - 1) - 1) % 4
    st = np.zeros(ST_SIZE, np.int64)
    start_deal(st, v.to_params(), dealer, 0)
    assert st[S_BIDDER] == (dealer + 1) % 4
    st[S_BID] = bid
    st[S_PLAY] = play
    for seat, text in hands.items():
        st[S_HANDS + seat] = mask_of(parse_cards(text))
        st[S_NCARDS + seat] = len(parse_cards(text))
    st[S_LOOSE] = mask_of(parse_cards(loose)) if loose else 0
    for value, text, owners in houses:
        st[S_HOUSE + value] = mask_of(parse_cards(text.replace("|", " ")))
        st[S_OWNERS + value] = sum(1 << s for s in owners)
    st[S_LAST_CAPTURE] = -1
    return st


def parse_move(text: str, st) -> tuple:
    """A move in the rules' notation as the referee tuple (kind, card, target, loose, takes_house)."""
    text = text.strip()
    head, _, body = text.partition(":")
    words = head.split()
    if words[0] == "THROW":
        return (THROW, parse_card(words[1]), 0, frozenset(), False)
    if words[0] == "CAPTURE":
        card = parse_card(words[1])
        take = "{" in body
        body = re.sub(r"H\d+\{[^}]*\}", " ", body)
        from simcards.games.seep.cards import VAL
        return (CAPTURE, card, int(VAL[card]), frozenset(parse_cards(body)) if body.strip() else frozenset(), take)
    if words[0] == "BREAK":
        m = re.match(r"BREAK H(\d+)(?:→|->)(\d+)", head)
        return (BREAK, parse_card(body), int(m.group(2)), frozenset(), False)
    card_text, _, rest = body.partition("+")
    rest = rest.replace(",", " ")
    target = int(words[1].lstrip("H"))
    kind = BUILD if words[0] == "BUILD" else ADD
    return (kind, parse_card(card_text), target, frozenset(parse_cards(rest)) if rest.strip() else frozenset(), False)


def kernel_moves(st, v=None) -> list:
    v = v or variant()
    rows = legal_moves_of(st, int((st[S_BIDDER] + st[S_PLAY] - 1) % 4), v.to_params())
    return [referee.move_of_row(r) for r in rows]


def check_moves(st, expected_texts, v=None):
    """Kernel and referee both produce exactly the listed moves (no duplicates)."""
    v = v or variant()
    got = kernel_moves(st, v)
    assert len(got) == len(set(got)), "duplicate moves"
    expected = {parse_move(t, st) for t in expected_texts}
    assert len(expected) == len(expected_texts)
    assert set(got) == expected, (set(got) - expected, expected - set(got))
    ref = referee.legal_moves(referee.from_kernel(st), referee.Rules.of(v))
    assert ref == expected, (ref - expected, expected - ref)
