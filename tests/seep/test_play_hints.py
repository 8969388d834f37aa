"""Seep move hints (`?` at a move in `simcards play seep`): rollouts on sampled worlds.

As the trick games' card hints (tests/play/test_card_hints.py): a session is played with
the bots' own answers up to one of the person's moves, then hints run on a few worlds.
The table has one row per legal move, the same call gives the same numbers, a world holds
every card the seat knows where it knows it and replays the deal to what the seat sees
(the real deal too), two deals that differ only in cards the seat has not seen give the
same hints, a sweep on the floor in front of the seat shows in every world, and `?` in a
session prints the table.
"""
from __future__ import annotations

import io

import numpy as np
import pytest

from simcards.app.play import Terminal, hints, new_session
from simcards.core import interactive
from simcards.core.interactive import AwaitingMove, Pending, card_hints, hint_text
from simcards.games.seep import worlds
from simcards.games.seep.cards import PTS, VAL
from simcards.games.seep.layout import (
    CAPTURE, M_COLS, S_D, S_DEALER, S_HAND, S_HANDS, S_HOUSE, S_LOOSE, S_OPEN_FLOOR, S_OPEN_HAND, S_PLAYED,
    S_SWEEP_PTS, S_SWEEP_VALUE,
)

WORLDS = 8

CASES = [  # settings, seat, seed, moves of the seat to pass first
    ([], 1, 1, 2),  # play 10; the bidder is another seat (its first four are drawn per world)
    ([], 0, 1, 0),  # the bidder's opening play
    ([], 0, 1, 3),  # the bidder, later: its first four come from its view at the bid
    (["num_players=2"], 1, 1, 14),  # the second half of a two-player deal
    (["num_players=2"], 0, 1, 13),  # the bidder in the second half
]


def at_move(settings, seat, seed, passed, unit="deal"):
    """A session at the seat's move after ``passed`` earlier ones (the bots' answers)."""
    s = new_session("seep", seat=seat, settings=settings, seed=seed, unit=unit)
    s.script.prime({}, -1)
    s.game.simulate(s.unit, s.variant, s.script.table, s.seed, s.index, 1)
    mine = [e.answer for e in s.script.log() if e.seat == seat]
    state, k, moves = s.advance(), 0, 0
    while not (state.decision == "move" and moves == passed):
        moves += state.decision == "move"
        state = s.play(mine[k])
        k += 1
    assert isinstance(state, Pending)
    return s, state


def true_world(s, holders: worlds.Holders) -> np.ndarray:
    """The record's real deal as a world (cards per holder), from its full trace (tests only)."""
    from simcards.games.seep.replay import trace

    tr, _ = trace(s.variant, s.game.policies.table(s.specs), s.seed, s.index)
    world = np.zeros(holders.count, np.uint64)
    world[holders.floor] = tr[0][S_OPEN_FLOOR]
    after = 2 if holders.n == 2 else 1  # the state before play 3 (2 players) or 2: every first-half card dealt
    for seat in range(holders.n):
        world[holders.seat(seat, 1)] = int(tr[after][S_HANDS + seat]) | int(tr[after][S_PLAYED + seat])
        if holders.n == 2:
            world[holders.seat(seat, 2)] = tr[24][S_HANDS + seat]  # before play 25: the second half, all of it
    if holders.open is not None:
        world[holders.open] = tr[0][S_OPEN_HAND]
        world[holders.seat(holders.bidder, 1)] &= ~np.uint64(int(tr[0][S_OPEN_HAND]))
    return world


@pytest.mark.parametrize("settings, seat, seed, passed", CASES, ids=str)
def test_one_row_per_legal_move_reproducible(settings, seat, seed, passed):
    s, state = at_move(settings, seat, seed, passed)
    moves = s.adapter.choices(state, s.variant).moves
    log = s.history()
    h = card_hints(s, state, worlds=WORLDS)
    assert s.history() == log  # the worlds ran in the shared buffer; the record's log is back
    assert [m.value for m in h.cards] == [m.value for m in moves] and len(moves) > 1
    assert h.worlds == WORLDS and h.tried >= WORLDS and h.best_column == "margin"
    assert {"margin", "points", "sweep pts", "their sweep pts", "P(bid made)"} <= set(h.columns)
    means = {v: col["margin"].mean() for v, col in h.values.items()}
    assert means[h.best] == max(means.values())
    for col in h.values.values():
        assert all(len(x) == WORLDS for x in col.values())
        card_points = col["points"] - col["sweep pts"]  # the two sides' card points add up to 100
        assert (col["margin"] == 2 * card_points - 100 + col["sweep pts"] - col["their sweep pts"]).all()
    text = hint_text(h, "expert")
    lines = text.splitlines()
    head = next(i for i, x in enumerate(lines) if x.startswith("card "))
    rows = lines[head + 1:head + 1 + len(moves)]
    assert [r.startswith(m.label) for r, m in zip(rows, moves)] == [True] * len(moves)
    assert sum(r.startswith(m.label + " *") for r, m in zip(rows, moves)) == 1
    assert hint_text(card_hints(s, state, worlds=WORLDS), "expert") == text  # same position: same worlds, numbers


@pytest.mark.parametrize("settings, seat, seed, passed", CASES, ids=str)
def test_worlds_hold_what_the_seat_knows_and_replay_to_what_it_sees(settings, seat, seed, passed):
    s, state = at_move(settings, seat, seed, passed)
    spec = s.adapter.card_worlds(s, state)
    holders = worlds.Holders(s.variant, int(state.args[0][S_DEALER]), seat)
    real = true_world(s, holders)
    assert (real & spec.known == spec.known).all()  # what the seat knows is true of the real deal
    h = card_hints(s, state, worlds=WORLDS)
    for world in h.kept + [real]:
        assert int(np.bitwise_or.reduce(world)) == (1 << 52) - 1  # a whole deal
        assert [bin(int(x)).count("1") for x in world] == list(spec.sizes)
        assert (world & spec.known == spec.known).all()
    if holders.open is not None:  # no first four to draw: the real deal replays to exactly what the seat sees
        s.run()
        s.script.prime(spec.forced, seat, cards=True)
        with pytest.raises(AwaitingMove):
            spec.play(real, 0)
        assert spec.public(s.script.pending()) == spec.public(state)
    unseen = [int(n) - bin(int(k)).count("1") for n, k in zip(spec.sizes, spec.known)]
    if sum(u > 0 for u in unseen) > 1:  # (late in a two-player deal one hand holds every unseen card)
        assert len({tuple(int(x) for x in w) for w in h.kept}) > 1  # the unseen cards are dealt anew


def test_deals_that_differ_only_in_unseen_cards_give_the_same_hints(monkeypatch):
    """Deal 0 of seed 1, and the same deal with two cards P1 has not seen (same value, no
    points, neither played yet) swapped between P2 and P3: the bots play the same up to P1's
    move, so what P1 sees is equal, and so must be the hint. The deals are played from a
    given deck by the worlds' own engine (``worlds.play_world``, the bid asked)."""
    import simcards.games.seep as seep
    from simcards.games.seep.rules import MAX_MOVES, first_dealer, make_work

    used = []

    def from_deck(deck):
        def simulate_kernel(unit, params, seats, seed, start, count, out):
            used.append(deck)
            for r in range(count):
                worlds.play_world(params, seats, deck, first_dealer(params, seed, start + r), 0, 0, seed, start + r,
                                  make_work(), np.zeros((MAX_MOVES, M_COLS), np.int64), out[r])
        return simulate_kernel

    settings, seat, seed, passed = CASES[0]
    s, state = at_move(settings, seat, seed, passed)
    dealer = int(state.args[0][S_DEALER])
    layout = worlds.Holders(s.variant, dealer, (dealer + 1) % 4)  # the bidder's first four apart: the deck as dealt
    real = true_world(s, layout)
    deck = worlds.deck_of(layout, real, None)
    seen = int(state.args[0][S_HAND])
    played = 0
    for k in range(4):
        played |= int(state.args[0][S_PLAYED + k])
    screen, log = s.adapter.screen(state, s.variant, s.names), s.history()
    first = hint_text(card_hints(s, state, worlds=WORLDS), "expert")

    monkeypatch.setattr(seep, "simulate_kernel", from_deck(deck))
    t, state2 = at_move(settings, seat, seed, passed)  # the deck as dealt, played by the given-deck engine
    assert t.history() == log and t.adapter.screen(state2, t.variant, t.names) == screen

    free = lambda c: not (seen | played) >> c & 1 and PTS[c] == 0  # noqa: E731
    pairs = [(a, b) for a in range(52) for b in range(52)
             if int(real[2]) >> a & 1 and int(real[3]) >> b & 1 and VAL[a] == VAL[b] and free(a) and free(b)]
    for a, b in pairs:
        other = deck.copy()
        i, j = int(np.flatnonzero(deck == a)[0]), int(np.flatnonzero(deck == b)[0])
        other[i], other[j] = b, a
        monkeypatch.setattr(seep, "simulate_kernel", from_deck(other))
        t, state2 = at_move(settings, seat, seed, passed)
        if t.history() == log and t.adapter.screen(state2, t.variant, t.names) == screen:
            break
    else:
        pytest.fail("no swap of two unseen cards kept the bots' play")
    used.clear()
    assert hint_text(card_hints(t, state2, worlds=WORLDS), "expert") == first
    assert used and all(d is other for d in used)  # the session ran the other deal


def test_in_a_baazi_the_hint_says_whether_this_deal_ends_it():
    """Baazi 0 of seed 1, P2 in the second deal (D = -50): the baazi columns follow from the
    deal's scores by rules 5.2 and 5.3 (the 9-point minimum first, then the 100-point lead)."""
    s, state = at_move([], 2, 1, 15, unit="baazi")
    D = int(state.args[0][S_D])  # team A minus team B; P2 is team A
    assert D != 0
    h = card_hints(s, state, worlds=WORLDS)
    for col in h.values.values():
        ours, margin = col["points"], col["margin"]
        theirs = ours - margin
        lost = (ours < 9) | ((theirs >= 9) & (D + margin <= -100))
        won = (theirs < 9) | ((ours >= 9) & (D + margin >= 100))
        assert (col["P(baazi lost now)"] == lost).all() and (col["P(baazi won now)"] == won).all()
    assert "P(baazi won now)" in hint_text(h, "expert") and "from D = -50" in h.note
    assert "P(baazi won now)" not in hint_text(card_hints(*at_move(*CASES[0]), worlds=WORLDS), "expert")


def test_a_sweep_on_the_floor_shows_in_every_world():
    """Seed 2, P0's 11th move (play 41): one capture takes the whole floor, a 50-point sweep
    whatever the hidden hands; the other move does not sweep now."""
    s, state = at_move([], 0, 2, 10)
    v, table, n = state.args
    houses = sum(1 for w in range(14) if v[S_HOUSE + w])
    sweep = [i for i in range(n) if table[i][0] == CAPTURE and int(table[i][3]) == int(v[S_LOOSE])
             and int(table[i][4]) == houses]
    assert len(sweep) == 1 and n == 2  # the position the test is about
    h = card_hints(s, state, worlds=WORLDS)
    before = int(v[S_SWEEP_PTS])  # team A's sweep points so far
    bonus = int(v[S_SWEEP_VALUE])
    assert (h.values[sweep[0]]["sweep pts"] >= before + bonus).all()
    assert h.best == sweep[0]


def test_question_mark_prints_the_move_hints(monkeypatch):
    from rich.console import Console

    monkeypatch.setattr(interactive, "HINT_RUNS", 40)  # a small table: a few worlds
    monkeypatch.setattr(interactive, "MIN_WORLDS", 4)
    s = new_session("seep", seat=1, seed=1)
    keys = iter(["?", "q"])
    out = io.StringIO()
    Terminal(s, read=lambda prompt: next(keys), console=Console(file=out, width=200)).run()
    text = out.getvalue()
    assert "Card hints: each legal card played on the same" in text and "margin vs best" in text
    assert "not available" not in text
    state = s.advance()
    assert hints(s, state, worlds=4).startswith("Card hints")
