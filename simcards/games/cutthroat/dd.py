"""Double-dummy analysis of Cutthroat Spades (docs/double-dummy.md): 3, 4 and 5 players.

No partnerships: each player is measured alone against all the others together (the
paranoid bound). Trick rules of 4.1-4.5: spades (and jokers, the highest trumps) trump,
spades must be broken, the forced lowest club, ``first_trick_trump_allowed``, and in the
5-player 2-joker form the dealer sits out trick 1. The deal is regenerated from seed and
index by the game's own kernel trace, as ``replay`` does.
"""
from __future__ import annotations

from simcards.core import dd, dd_report
from simcards.core.dd_text import parse_deal
from simcards.core.errors import SimcardsError
from simcards.core.game import DoubleDummySupport
from simcards.core.tricks import SUIT_MASKS_JOKERS_AS_SPADES
from simcards.games.cutthroat import rules
from simcards.games.cutthroat.replay import SEAT_NAMES, _hand_text, replay
from simcards.games.cutthroat.variant import form_of


def _sides(n: int) -> dd_report.Sides:
    names = tuple(f"{SEAT_NAMES[s]}(seat {s})" for s in range(n))
    return dd_report.Sides(tuple((s,) for s in range(n)), tuple(SEAT_NAMES[:n]), names)


def solver_rules(variant, hands, sitout: int = -1):
    """(rules row, effective suit masks) for a deal of ``variant`` (``sitout``: the dealer who
    skips trick 1 in the 5-player 2-joker form)."""
    f = form_of(variant)
    forced = -1
    if f.first_lead == "lowest_club" and variant.first_lead_card_forced:
        clubs = 0
        for s, h in enumerate(hands):
            if s != sitout:
                clubs |= int(h) & 0x1FFF
        forced = (clubs & -clubs).bit_length() - 1 if clubs else -1
    row = dd.rules_row(f.n, 3, lead_restrict=bool(variant.spades_must_be_broken), forced_lead=forced,
                       no_trump_trick1=not variant.first_trick_trump_allowed, sitout_trick1=sitout)
    return row, SUIT_MASKS_JOKERS_AS_SPADES


def played_deal(variant, table, seed: int, index: int) -> dict:
    """The first hand of record ``index`` as the bots played it (hands at the start of play)."""
    n = variant.num_players
    _, trace = rules.trace_record("deal", variant, table, seed, index)
    hands, cards, winners = [0] * n, [], []
    dealer, leader = -1, -1
    for ev, a, b, c, d, e in _rows(trace):
        if ev == rules.EV_HAND and dealer < 0:
            dealer = b
        elif ev == rules.EV_PLAY:
            if leader < 0:
                leader = a
            hands[a] |= 1 << b
            cards.append(b)
        elif ev == rules.EV_TRICK:
            winners.append(a)
            if len(winners) == form_of(variant).tricks:
                break
    sitout = dealer if form_of(variant).dealer_sits_out else -1
    return {"hands": hands, "leader": leader, "cards": cards, "winners": winners, "dealer": dealer,
            "sitout": sitout}


def analyse(variant, table, *, seed=None, index=None, hands=None, from_trick: int = 1) -> str:
    """The text of ``simcards dd cutthroat``."""
    f = form_of(variant)
    sides = _sides(f.n)
    if hands is not None:
        masks = parse_deal(hands, f.n, f.deck, sides.seat_names)
        if f.dealer_sits_out:
            raise SimcardsError("--hand: the 5-player 2-joker form deals unequal hands (the dealer sits out "
                                "trick 1); analyse a simulated deal with --deal")
        row, suit_masks = solver_rules(variant, masks)
        full = bin(masks[0]).count("1") == f.tricks
        return dd_report.table_only_text(f"Cutthroat Spades ({f.n} players), deal given as text (paranoid bound: "
                                         "each player alone against the others)", masks, row, suit_masks, sides,
                                         _hand_text, full=full)
    deal = played_deal(variant, table, seed, index)
    row, suit_masks = solver_rules(variant, deal["hands"], deal["sitout"])
    head = (f"Cutthroat Spades ({f.n} players), seed {seed}, deal {index}: dealer {sides.seat_names[deal['dealer']]},"
            f" first lead {sides.seat_names[deal['leader']]}")
    won = [deal["winners"].count(s) for s in range(f.n)]
    return dd_report.analysis_text(head, deal, row, suit_masks, sides, _hand_text, from_trick=from_trick,
                                   result_line="Bots' play: tricks won " + ", ".join(
                                       f"{SEAT_NAMES[s]} {won[s]}" for s in range(f.n)), paranoid_note=True)


def replay_dd(unit, variant, table, seed: int, index: int, from_trick: int = 1) -> str:
    """``replay --dd``: the replay, then every card that cost its player a trick (paranoid bound)."""
    if (unit or "deal") != "deal":
        raise SimcardsError("replay --dd analyses one deal: use --deal N")
    deal = played_deal(variant, table, seed, index)
    row, suit_masks = solver_rules(variant, deal["hands"], deal["sitout"])
    return dd_report.marked_text(replay(unit, variant, table, seed, index), deal, row, suit_masks,
                                 _sides(variant.num_players), from_trick=from_trick)


SUPPORT = DoubleDummySupport(analyse=analyse, replay=replay_dd)


def _rows(events) -> list[tuple]:
    """Trace events (named tuples of their declared fields) as full-width rows ``(event, a .. e)``."""
    return [tuple(int(x) for x in ev) + (0,) * (6 - len(ev)) for ev in events]
