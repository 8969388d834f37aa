"""Double-dummy analysis of Cutthroat Spades (docs/double-dummy.md): 3, 4 and 5 players.

No partnerships: each player is measured alone against all the others together (the
paranoid bound). Trick rules of 4.1-4.5: spades (and jokers, the highest trumps) trump,
spades must be broken, the forced lowest club, ``first_trick_trump_allowed``, and in the
5-player 2-joker form the dealer sits out trick 1. The deal is regenerated from seed and
index by the game's own kernel trace, as ``replay`` does.
"""
from __future__ import annotations

import numpy as np

from simcards.core import dd, dd_report, stats
from simcards.core.dd_text import parse_deal
from simcards.core.errors import SimcardsError
from simcards.core.game import DoubleDummySupport
from simcards.core.tricks import SUIT_MASKS_JOKERS_AS_SPADES
from simcards.games.cutthroat import rules
from simcards.games.cutthroat.layout import B_B6, B_SM, MAX_SEATS
from simcards.games.cutthroat.replay import SEAT_NAMES, _hand_text, format_trace, replay
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
    _, trace = rules.trace_record("deal", variant, table, seed, index)
    return _deal_of(trace, variant)


def _deal_of(trace, variant) -> dict:
    """The first hand of a record's trace as :func:`played_deal` gives it."""
    n = variant.num_players
    hands, cards, winners = [0] * n, [], []
    dealer, leader = -1, -1
    for ev, a, b, c, d, e in dd_report.event_rows(trace):
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


def play_given(variant, table, seed: int, hands, title: str, dd: bool = False, from_trick: int = 1) -> str:
    """``replay --pbn``: the bots bid and play the given deal (all hands, the whole deck), with
    ``dd`` every card that cost its player a trick marked (paranoid bound)."""
    f = form_of(variant)
    given = [int(h) for h in hands]
    if any(h & ~f.deck for h in given) or (all(given) and sum(given) != f.deck):
        raise SimcardsError(f"the deal is not this Cutthroat table's deck ({f.n} players"
                            + (f", {variant.jokers} jokers" if variant.jokers else "") + "); PBN deals play 52 cards")
    if not all(given):
        raise SimcardsError("replay --pbn plays a whole Cutthroat deal: give all four hands (in Spades missing "
                            "hands are dealt from the seed)")
    _, events = rules.trace_given(variant, table, seed, given)
    text = title + "\n" + format_trace(events, variant)
    if not dd:
        return text
    deal = _deal_of(events, variant)
    row, suit_masks = solver_rules(variant, deal["hands"], deal["sitout"])
    return dd_report.marked_text(text, deal, row, suit_masks, _sides(f.n), from_trick=from_trick)


COLUMNS = dd_report.seat_columns(MAX_SEATS)


def dd_records(unit, variant, table, seed: int, start: int, count: int) -> np.ndarray:
    """The ``COLUMNS`` of deals ``start .. start+count-1`` (``run --records dd``; paranoid bound)."""
    sides = _sides(variant.num_players)

    def deals():
        for i in range(count):
            deal = played_deal(variant, table, seed, start + i)
            yield (deal, *solver_rules(variant, deal["hands"], deal["sitout"]))

    return dd_report.seat_records(deals(), sides, MAX_SEATS)


def dd_need(bid: np.ndarray, variant) -> np.ndarray:
    """Tricks a bid must reach when it is an "at least" bid (ordinary, B6, SM); 0 for the bids
    of an exact count (Nil, BN, 1F, 2F), which a trick maximum does not decide."""
    f = form_of(variant)
    ordinary = (bid >= 1) & (bid <= f.tricks)
    return np.select([ordinary, bid == B_B6, bid == B_SM], [bid, variant.blind_six_tricks, f.shoot_moon_min_tricks], 0)


def dd_tally(unit, df, variant):
    """Mean double-dummy tricks and trick loss per seat; "at least" bids makeable double dummy
    (each player alone against the others) against made, by bid."""
    from simcards.games.cutthroat.records import made

    n = variant.num_players
    rows = dd_report.seat_tally(df, n)
    record = stats.record_index(len(df), n)
    per_seat = lambda name: np.concatenate([df[f"{name}_{s}"].to_numpy() for s in range(n)])  # noqa: E731
    bid, tricks, dd_tricks = per_seat("bid"), per_seat("tricks"), per_seat("dd_tricks")
    need = dd_need(bid, variant)
    has = need > 0
    makeable = dd_tricks >= need
    ok = made(bid, tricks, variant)
    labels = [f"{b:02d}" for b in range(B_SM + 1)]
    labels[B_B6], labels[B_SM] = "B6", "SM"
    rows.add("dd_makeable", "rate", makeable, where=has, by=bid, labels=labels, record=record)
    rows.add("dd_makeable_all", "rate", makeable, where=has, record=record)
    rows.add("dd_makeable_set", "rate", ~ok, where=has & makeable, record=record)
    error = need - dd_tricks
    rows.add("dd_bid_error", "mean", error, where=has, record=record)
    rows.add("dd_bid_within1", "rate", np.abs(error) <= 1, where=has, record=record)
    return rows.frame()


SUPPORT = DoubleDummySupport(analyse=analyse, replay=replay_dd, units=("deal",), columns=COLUMNS,
                             records=dd_records, play=play_given, tally=dd_tally, deal=played_deal)

