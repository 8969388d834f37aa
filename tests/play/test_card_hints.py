"""Card hints (`?` during card play): rollouts on sampled worlds, reproducible, no peeking.

Each case plays a record with the bots' own answers up to one of the person's card
decisions, then asks for hints on a few worlds (fixed seed: the record's). The worlds
must hold every card the seat knows where it knows it, the table has one row per legal
card with the best one marked, the same call gives the same numbers, and two deals that
differ only in cards the seat has not seen give the same hints.
"""
from __future__ import annotations

import numpy as np
import pytest

from simcards.app.play import new_session
from simcards.core.cards import cards_of
from simcards.core.interactive import Pending, card_hints, hint_text

WORLDS = 12

CASES = [  # game, settings, seat, seed, card decisions of the seat to pass first
    ("spades", [], 2, 1, 2),
    ("cutthroat", ["num_players=3"], 1, 1, 3),
    ("kierki", ["deal_type=trumps"], 2, 1, 8),  # 5 cards left: the double-dummy column too
]


def at_card(game, settings, seat, seed, passed, unit="deal"):
    """A session at the seat's card decision after ``passed`` earlier ones (the bots' answers)."""
    s = new_session(game, seat=seat, settings=settings, seed=seed, unit=unit)
    s.script.prime({}, -1)
    s.game.simulate(s.unit, s.variant, s.script.table, s.seed, s.index, 1)
    mine = [e.answer for e in s.script.log() if e.seat == seat]
    state, k, plays = s.advance(), 0, 0
    while not (state.decision == "play" and plays == passed):
        plays += state.decision == "play"
        state = s.play(mine[k])
        k += 1
    assert isinstance(state, Pending)
    return s, state


@pytest.mark.parametrize("game, settings, seat, seed, passed", CASES, ids=lambda x: str(x))
def test_card_hints_one_row_per_legal_card_reproducible(game, settings, seat, seed, passed):
    s, state = at_card(game, settings, seat, seed, passed)
    moves = s.adapter.choices(state, s.variant).moves
    log = s.history()
    h = card_hints(s, state, worlds=WORLDS)
    assert s.history() == log  # the worlds ran in the shared buffer; the record's log is back
    assert [m.value for m in h.cards] == [m.value for m in moves] and len(moves) > 1
    assert h.worlds == WORLDS and h.tried >= WORLDS
    means = {v: np.nanmean(col[h.best_column]) for v, col in h.values.items()}
    assert h.best in means and means[h.best] == max(means.values())
    for col in h.values.values():
        assert all(len(x) == WORLDS for x in col.values())
    text = hint_text(h, "expert")
    rows = [line for line in text.splitlines() if line.split(" ")[0] in {m.label for m in moves}]
    assert len(rows) == len(moves) and sum(" * " in r or r.split()[1] == "*" for r in rows) == 1
    again = card_hints(s, state, worlds=WORLDS)
    assert hint_text(again, "expert") == text  # same record, same position: same worlds, same numbers
    if game == "kierki":
        assert h.dd is not None and "DD cost" in text
        costs = {v: max(x.mean() for x in h.dd.values()) - d.mean() for v, d in h.dd.items()}
        assert min(costs.values()) == 0 and all(0 <= d.min() and d.max() <= 5 for d in h.dd.values())
    else:
        assert h.dd is None and "DD cost skipped" in text


@pytest.mark.parametrize("game, settings, seat, seed, passed", CASES[:2], ids=lambda x: str(x))
def test_worlds_hold_what_the_seat_knows_and_vary_the_rest(game, settings, seat, seed, passed):
    s, state = at_card(game, settings, seat, seed, passed)
    spec = s.adapter.card_worlds(s, state)
    h = card_hints(s, state, worlds=WORLDS)
    hidden = set()
    for world in h.kept:
        assert int(np.bitwise_or.reduce(world)) == sum(1 << int(c) for c in spec.deck)  # a whole deal
        for seat_, known in enumerate(spec.known):
            assert int(world[seat_]) & int(known) == int(known)  # own hand, cards played where played
            for k in range(4):
                assert bin(int(world[seat_]) & int(spec.suit_masks[k])).count("1") <= spec.max_len[seat_, k]
        hidden.add(tuple(int(x) for x in world))
    assert len(hidden) > WORLDS // 2  # the unseen cards really are dealt anew


def test_deals_that_differ_only_in_unseen_cards_give_the_same_hints(monkeypatch):
    """Spades deal 0 of seed 1, and the same deal with two cards South has not seen swapped
    between East and West: the bots bid and play the same up to South's card, so everything
    South sees is equal, and so must be the hint."""
    from simcards.games.spades import kernel
    from simcards.games.spades import policies as P
    from simcards.games.spades.replay import traced_hands

    s, state = at_card("spades", [], 2, 1, 0)
    _, events = kernel.run_kernel("deal", s.variant, s.game.policies.table(s.specs), 1, 0, 1, trace=True)
    dealt = list(traced_hands(events)[0].hands)
    played = set(cards_of(int(state.args[0][P.V_PLAYED]) & (2**64 - 1)))  # on the table before South's card
    east = [c for c in cards_of(dealt[1]) if c not in played]
    west = [c for c in cards_of(dealt[3]) if c not in played]
    pair = next((a, b) for a in east for b in west if a // 13 == b // 13 and abs(a - b) == 1)
    other = list(dealt)
    other[1] = dealt[1] ^ (1 << pair[0]) ^ (1 << pair[1])
    other[3] = dealt[3] ^ (1 << pair[0]) ^ (1 << pair[1])
    original = kernel.prepared

    def given(variant, fixed=None):
        return original(variant, np.array(other, np.uint64) if fixed is None else fixed)

    monkeypatch.setattr(kernel, "prepared", given)
    t, state2 = at_card("spades", [], 2, 1, 0)
    assert s.adapter.screen(state2, t.variant, t.names) == s.adapter.screen(state, s.variant, s.names)
    assert [(e.seat, e.decision, e.answer) for e in t.history()] == [(e.seat, e.decision, e.answer) for e in s.history()]
    _, events2 = kernel.run_kernel("deal", t.variant, t.game.policies.table(t.specs), 1, 0, 1, trace=True)
    assert list(traced_hands(events2)[0].hands) == other != dealt  # it is the other deal
    monkeypatch.setattr(kernel, "prepared", original)
    first = hint_text(card_hints(s, state, worlds=WORLDS), "expert")
    monkeypatch.setattr(kernel, "prepared", given)
    assert hint_text(card_hints(t, state2, worlds=WORLDS), "expert") == first
