"""Shared helpers for the Kierki tests (imported by file name; not a conftest)."""
from __future__ import annotations

import numpy as np

from simcards.core.cards import format_card, mask_of, parse_card, parse_cards
from simcards.games.kierki import GAME
from simcards.games.kierki import rules as R
from simcards.games.kierki.replay import trace_events
from simcards.games.kierki.variant import DEAL_TYPES, KierkiVariant

SEAT = {"N": 0, "E": 1, "S": 2, "W": 3}
SUIT_INDEX = {"C": 0, "D": 1, "H": 2, "S": 3}
TABLES = {name: GAME.policies.table([name] * 4) for name in ("random", "basic", "expert")}


def hand(spades="", hearts="", diamonds="", clubs="") -> list[str]:
    """Card names from a rules-style hand table row (``"A J 8"`` per suit, ``-`` for void)."""
    out = []
    for ranks, s in ((spades, "S"), (hearts, "H"), (diamonds, "D"), (clubs, "C")):
        out += [r + s for r in ranks.replace("-", "").split()]
    return out


def cards(text: str) -> list[str]:
    return [format_card(c) for c in parse_cards(text)]


def kmask(names) -> np.uint64:
    return np.uint64(mask_of(parse_card(c) for c in names))


def names(mask) -> set[str]:
    from simcards.games.kierki.referee import hand_names
    return hand_names(int(mask))


def variant(**kw) -> KierkiVariant:
    return KierkiVariant.from_mapping(kw)


def kernel_legal(v, deal, hand_names_, trick=(), trump=None, hearts_before=False) -> set[str]:
    """The kernel's legal set for one decision."""
    params = R.kernel_tables(v).params
    tm = kmask(trick)
    first = parse_card(trick[0]) if trick else -1
    t = -1 if trump is None else SUIT_INDEX[trump]
    code = DEAL_TYPES.index(deal)
    return names(R.trick_legal(kmask(hand_names_), tm, first, code, t, params, R.heart_restricted(params, code),
                               hearts_before))


def kernel_play(v, deal, hands, leader, plays, trump=None, dealer=None):
    """Play a scripted trick deal through the kernel; returns (res, trace events)."""
    hm = np.array([kmask(h) for h in hands], np.uint64)
    res = np.zeros(R.RES_LEN, np.int64)
    script = np.array([parse_card(c) for c in plays], np.int64)
    trace = np.zeros((200, R.TRACE_WIDTH), np.int64)
    R.play_given_hands(R.kernel_tables(v), R.seats(TABLES["basic"]), DEAL_TYPES.index(deal),
                       (leader - 1) % 4 if dealer is None else dealer, leader,
                       -1 if trump is None else SUIT_INDEX[trump], hm, res, script, trace)
    return res, trace_events(trace)


def traced_game(v, table, seed, index, unit="game"):
    buf = R.trace_buffer(v, unit)
    rec = R.run_records(unit, v, table, seed, index, 1, trace=buf)[0]
    return rec, trace_events(buf)
