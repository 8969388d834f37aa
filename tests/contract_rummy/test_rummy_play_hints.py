"""Move hints in `simcards play contract-rummy` (`?`): sampled worlds of the deal in play.

Each case plays a record with the bots' own answers up to one of the person's decisions,
then asks for hints on a few worlds. The table lists every legal move, the same call gives
the same numbers, a kept world replayed with the deal's public answers forced shows the
seat exactly what it sees, and two deals that differ only in cards the seat has not seen
give the same hints. Few worlds, shared compiled kernels.
"""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from simcards.app.play import hints, new_session
from simcards.core.interactive import AwaitingMove, Pending, card_hints, hint_text
from simcards.games.contract_rummy import rules as R
from simcards.games.contract_rummy import worlds as W
from simcards.games.contract_rummy.melds import JOKER, NT

WORLDS = 10

CASES = [  # settings, unit, seat, seed, decision, how many of them the seat passes first
    (["num_players=3"], "deal", 1, 2, "discard", 3),
    ([], "game", 1, 2, "discard", 12),  # deal 2 of a game: the log of the deal in play starts mid-record
    (["num_players=3"], "deal", 0, 5, "draw", 4),
]


def at_move(settings, unit, seat, seed, decision, passed):
    """A session at the seat's ``decision`` after ``passed`` earlier ones (the bots' answers)."""
    s = new_session("contract-rummy", seat=seat, settings=settings, seed=seed, unit=unit)
    s.script.prime({}, -1)
    s.game.simulate(s.unit, s.variant, s.script.table, s.seed, s.index, 1)
    mine = [e.answer for e in s.script.log() if e.seat == seat]
    state, k, seen = s.advance(), 0, 0
    while not (state.decision == decision and seen == passed and s.adapter.odds_request(state, s.variant) is None):
        seen += state.decision == decision
        state = s.play(mine[k])
        k += 1
    assert isinstance(state, Pending)
    return s, state


@pytest.mark.parametrize("settings, unit, seat, seed, decision, passed", CASES, ids=lambda x: str(x))
def test_every_legal_move_is_a_row_and_the_hint_is_reproducible(settings, unit, seat, seed, decision, passed):
    s, state = at_move(settings, unit, seat, seed, decision, passed)
    moves = s.adapter.choices(state, s.variant).moves
    log = s.history()
    h = card_hints(s, state, worlds=WORLDS)
    assert s.history() == log  # the worlds ran in the shared buffer; the record's log is back
    assert [m.value for m in h.cards] == [m.value for m in moves] and len(moves) > 1
    assert h.worlds == WORLDS and h.tried >= WORLDS and h.item == "move"
    means = {v: col["lead"].mean() for v, col in h.values.items()}
    assert means[h.best] == max(means.values())
    for col in h.values.values():
        assert set(col) == {"penalty", "P(you go out)", "lead"} and all(len(x) == WORLDS for x in col.values())
        assert set(np.unique(col["P(you go out)"])) <= {0.0, 1.0} and (col["penalty"] >= 0).all()
    text = hint_text(h, "expert")
    assert text.startswith("Move hints: each legal move played on the same 10 sampled worlds")
    rows = [line for line in text.splitlines() if any(line.startswith(m.label + " ") for m in moves)]
    assert len(rows) == len(moves) and sum(" * " in r for r in rows) == 1
    assert hint_text(card_hints(s, state, worlds=WORLDS), "expert") == text  # same position, same numbers


def test_kept_worlds_hold_what_the_seat_has_seen_and_replay_to_its_view():
    s, state = at_move(*CASES[1])
    spec = s.adapter.card_worlds(s, state)
    pack = Counter({t: s.variant.decks() for t in range(52)}) + Counter({JOKER: s.variant.jokers()})
    seen = W.Seen(W.traced(s), state.seat, 4, pack)
    h = card_hints(s, state, worlds=WORLDS)
    hidden = set()
    for world in h.kept:
        cards = Counter()
        for q in range(4):
            cards.update({t: int(c) for t, c in enumerate(world.hands[q]) if c})
        cards.update([world.upcard, *map(int, world.stock)])
        assert cards == pack  # a whole deal
        assert all(world.hands[seat_, t] == seen.own[t] for seat_ in [state.seat] for t in range(NT))  # own hand
        assert world.upcard == seen.upcard
        for j, (_, who, card) in enumerate(seen.segments[0]):
            if who == state.seat:
                assert world.stock[j] == card  # each card the seat drew, where it drew it
        s.script.prime(spec.forced, state.seat, cards=True)
        with pytest.raises(AwaitingMove):
            spec.play(world, 0)
        assert spec.public(s.script.pending()) == spec.public(state)
        hidden.add(world.hands.tobytes() + world.stock.tobytes())
    assert len(hidden) == len(h.kept)  # the unseen cards really are dealt anew
    s.run()


def _fixed_deal(monkeypatch, arrangement):
    """Every record played from ``arrangement`` (hands, up-card, stock as dealt; the policies'
    stream of the record as usual), through ``rules.play_arranged``."""
    hands, upcard, stock, dealer = arrangement

    def run_records(unit_game, tab, seats, board, seed, start, count, out, scratch, kseat, totals0):
        assert not unit_game and count == 1
        R.play_arranged(tab, seats, board, 0, dealer, hands, upcard, stock, totals0, np.zeros(1, np.uint64),
                        np.uint64(seed), start, scratch, np.zeros(0, np.int64), np.zeros(1, np.int64), 0,
                        np.zeros(0, np.int64), out)

    monkeypatch.setattr(R, "run_records", run_records)


def _dealt(s):
    """The record's deal as dealt (hands, up-card, stock in drawing order, dealer), from its trace."""
    from simcards.games.contract_rummy.sim import run_chunk

    _, events = run_chunk("deal", s.variant, s.game.policies.table(s.specs), s.seed, s.index, 1, trace_rows=20_000)
    hands = np.zeros((8, NT), np.int64)
    stock = {}
    for e in events:
        if e.kind == "deal":
            dealer = e.dealer
        elif e.kind == "hand":
            hands[e.seat, e.card] += e.count
        elif e.kind == "upcard":
            upcard = e.card
        elif e.kind == "stock" and len(stock) == e.depth:
            stock[e.depth] = e.card
        elif e.kind == "turn":
            break
    return hands, upcard, np.array([stock[i] for i in range(len(stock))], np.int64), dealer


def _seen(s, state):
    """What the seat sees: the screen and the history lines."""
    lines = [s.adapter.describe(e, s.variant, s.names) for e in s.history()]
    return s.adapter.screen(state, s.variant, s.names), [x for x in lines if x]


def test_deals_that_differ_only_in_unseen_cards_give_the_same_hints(monkeypatch):
    """A deal, and the same deal with the stock cards nobody has drawn yet reversed and two
    cards swapped between the other seats' hands (a swap after which the bots still do
    everything the seat sees the same): the seat sees the same, so the hint is the same."""
    case = CASES[0]
    s, state = at_move(*case)
    hands, upcard, stock, dealer = _dealt(s)
    _fixed_deal(monkeypatch, (hands, upcard, stock, dealer))
    s, state = at_move(*case)
    first = hint_text(card_hints(s, state, worlds=WORLDS), "expert")
    view = _seen(s, state)
    drawn = int(len(stock) - state.args[1][W.V.P_STOCK])
    other = stock.copy()
    other[drawn:] = other[drawn:][::-1]
    assert (other != stock).any()
    a, b = [q for q in range(3) if q != state.seat]
    for x in np.flatnonzero(hands[a]):
        for y in np.flatnonzero(hands[b]):
            if x == y:
                continue
            h2 = hands.copy()
            h2[a, x] -= 1
            h2[a, y] += 1
            h2[b, y] -= 1
            h2[b, x] += 1
            _fixed_deal(monkeypatch, (h2, upcard, other, dealer))
            t, state2 = at_move(*case)
            if _seen(t, state2) == view:
                assert hint_text(card_hints(t, state2, worlds=WORLDS), "expert") == first
                return
    pytest.fail("no swap of unseen cards keeps what the seat sees")


def test_question_mark_prints_the_move_table():
    s, state = at_move(*CASES[2])
    text = hints(s, state, worlds=WORLDS)
    assert "Move hints: each legal move played on the same 10 sampled worlds" in text
    for m in s.adapter.choices(state, s.variant).moves:
        assert any(line.startswith(m.label) for line in text.splitlines())
