"""Double-dummy analysis of partnership Spades (docs/double-dummy.md).

Turns a simulated deal (regenerated from seed and index by the game's own kernel, as
``replay`` does) or a deal written as text into the solver's input with Spades' trick
rules (4.1-4.4): spades trump (jokers the two highest), spades must be broken, the
forced opening club and ``first_trick_trump_allowed``.
"""
from __future__ import annotations

import threading

import numpy as np

from simcards.core import dd, dd_report, stats
from simcards.core.dd_text import parse_deal
from simcards.core.errors import SimcardsError
from simcards.core.game import Column, DoubleDummySupport
from simcards.games.spades import rules
from simcards.games.spades.kernel import prepared, run_kernel
from simcards.games.spades.replay import traced_hands
from simcards.games.spades.replay import SEAT_NAMES, TEAM_NAMES, hand_text, replay

TEAMS = ((0, 2), (1, 3))


def solver_rules(variant, hands, trick1: bool = True):
    """(rules row, effective suit masks) of ``variant`` for a deal whose hands are ``hands``."""
    t = prepared(variant)
    params, deck, masks = t.params, t.deck, t.suit_masks
    forced = -1
    if variant.first_lead == "lowest_club" and variant.first_lead_card_forced:
        forced = min(int(c) for c in deck if int(c) < 13)  # the lowest club of the deck in use
    row = dd.rules_row(4, 3, lead_restrict=bool(variant.spades_must_be_broken), forced_lead=forced,
                       no_trump_trick1=not variant.first_trick_trump_allowed)
    return row, masks


def played_deal(variant, table, seed: int, index: int, fixed=None) -> dict:
    """Deal ``index`` of ``seed`` as the bots played it: hands at the start of play (after any
    exchange), first leader, the 52 cards in order, bids and tricks (``fixed``: a given deal)."""
    return played_deals(variant, table, seed, index, 1, fixed)[0]


def played_deals(variant, table, seed: int, start: int, count: int, fixed=None) -> list[dict]:
    """:func:`played_deal` of deals ``start .. start+count-1``, from one run of the kernel
    (a run per deal spent 4 ms typing the policy table: an eighth of ``run --records dd``)."""
    out, events = run_kernel("deal", variant, table, seed, start, count, trace=True, fixed=fixed)
    traced = traced_hands(events)
    assert len(traced) == count, f"{len(traced)} traced hands for {count} deals"
    deals = []
    for h, record in zip(traced, out):
        hands = [0, 0, 0, 0]
        for k in range(13):
            for i in range(4):
                hands[(h.leaders[k] + i) % 4] |= 1 << h.plays[4 * k + i]
        row = {name: int(v) for (name, _), v in zip(rules.DEAL_COLUMNS, record)}
        deals.append({"hands": hands, "leader": h.first_leader, "cards": list(h.plays), "record": row,
                      "dealer": h.dealer, "winners": list(h.winners)})
    return deals


SIDES = dd_report.Sides(TEAMS, TEAM_NAMES, SEAT_NAMES)
_local = threading.local()  # one solver table per thread (the odds runner's threads)


def opening_leader(variant, hands, dealer: int) -> int:
    """The seat that leads trick 1 (4.1): left of the dealer, or the holder of the lowest club."""
    if variant.first_lead == "lowest_club":
        clubs = sum(1 << int(c) for c in prepared(variant).deck if int(c) < 13)
        low = clubs & -clubs
        return next(s for s in range(4) if int(hands[s]) & low)
    return (dealer + 1) % 4


def team_tricks(variant, hands, dealer: int, team: int) -> int:
    """Tricks team ``team`` takes double dummy from the actual opening lead of a full deal
    (``bid --dd``: the hands as dealt)."""
    solver = getattr(_local, "table", None)
    if solver is None:
        solver = _local.table = dd.Table()
    row, masks = solver_rules(variant, hands)
    solver.fresh()
    return dd.solve(hands, row, TEAMS[team], masks, leader=opening_leader(variant, hands, dealer), trick1=True,
                    table=solver)


def play_costs(variant, deal: dict, solver: dd.Table | None = None, first_trick: int = 0) -> list[dict]:
    """Per card of the bots' play: the tricks it cost its partnership (``core.dd.play_costs``)."""
    row, masks = solver_rules(variant, deal["hands"])
    return dd_report.costs(deal, row, masks, SIDES, first_trick=first_trick, solver=solver)


def analyse(variant, table, *, seed: int | None = None, index: int | None = None, hands: str | None = None,
            from_trick: int = 1) -> str:
    """The text of ``simcards dd spades``: the double-dummy table, then the cost of each card played
    (from trick ``from_trick`` on; later tricks solve fast)."""
    if hands is not None:
        deck = prepared(variant).deck
        masks = parse_deal(hands, 4, sum(1 << int(c) for c in deck), SEAT_NAMES)
        row, suit_masks = solver_rules(variant, masks)
        return dd_report.table_only_text("Spades, deal given as text", masks, row, suit_masks, SIDES, hand_text,
                                         full=bin(masks[0]).count("1") == 13)
    deal = played_deal(variant, table, seed, index)
    r = deal["record"]
    row, suit_masks = solver_rules(variant, deal["hands"])
    head = (f"Spades, seed {seed}, deal {index}: dealer {SEAT_NAMES[deal['dealer']]}, "
            f"first lead {SEAT_NAMES[deal['leader']]}")
    result = "Bots' play: " + ", ".join(f"{TEAM_NAMES[t]} contract {r[f'contract{t}']}, won {r[f'won{t}']}"
                                        for t in range(2))
    return dd_report.analysis_text(head, deal, row, suit_masks, SIDES, hand_text, from_trick=from_trick,
                                   result_line=result)


def replay_dd(unit, variant, table, seed: int, index: int, from_trick: int = 1, fixed=None,
              title: str | None = None) -> str:
    """``replay --dd``: the replay, then every card that cost its partnership a trick
    (``fixed``/``title``: a given deal and its heading, as :func:`replay`)."""
    if (unit or "deal") != "deal":
        raise SimcardsError("replay --dd analyses one deal: use --deal N")
    deal = played_deal(variant, table, seed, index, fixed)
    row, masks = solver_rules(variant, deal["hands"])
    return dd_report.marked_text(replay(unit, variant, table, seed, index, fixed, title), deal, row, masks, SIDES,
                                 from_trick=from_trick)


def play_given(variant, table, seed: int, hands, title: str, dd: bool = False, from_trick: int = 1) -> str:
    """``replay --pbn``: the bots bid and play the given deal (``hands``: cards per seat, 0 for
    a seat dealt from ``seed``); with ``dd`` every card that cost a trick marked."""
    deck = sum(1 << int(c) for c in prepared(variant).deck)
    given = [int(h) for h in hands]
    if any(h & ~deck for h in given):
        raise SimcardsError("the deal holds cards this Spades deck has not (the house rules remove or add cards: "
                            "jokers, big/little joker decks); PBN deals play the standard 52 cards")
    fixed = np.array(given, np.uint64)
    if dd:
        return replay_dd("deal", variant, table, seed, 0, from_trick, fixed, title)
    return replay("deal", variant, table, seed, 0, fixed, title)


COLUMNS = (
    *(Column(f"dd_tricks{t}", f"Tricks team {t} takes double dummy from the actual opening lead "
                              "(hands at the start of play).") for t in range(2)),
    *(Column(f"dd_lost{t}", f"Tricks the cards of team {t} cost it against double-dummy play.") for t in range(2)),
    *(Column(f"dd_lost_seat{s}", f"Tricks the cards of seat {s} cost its team.") for s in range(4)),
    *(Column(f"dd_pts_{k}", f"Points (x10) the {k} decisions of the deal cost their team against the best card "
                            "double dummy (points_lost)") for k in dd_report.DECISION_KINDS),
    *(Column(f"dd_dec_{k}", f"{k.capitalize()} decisions scored (two or more legal cards, no Nil in play for "
                            "the seat's team)") for k in dd_report.DECISION_KINDS),
    Column("dd_dec_nil", "Decisions left unscored: a Nil is alive (a Nil bidder without a trick, either team's)."),
)


def points_lost(deal: dict, steps: list[dict], rules, masks) -> tuple[list[int], list[int], int]:
    """Points (x10) the decisions of a played deal cost their team, by kind
    (:data:`dd_report.DECISION_KINDS`), the decisions scored of each kind, and the decisions
    left unscored (a Nil alive, either team's).

    A decision's cost is ``U(best) - U(after)``: ``best`` the team's remaining tricks (the
    trick in progress included) with the best card, ``after`` with the card played (both
    double dummy, :func:`dd_report.costs`), ``U`` the points of ``pimc``'s scoring of a world
    (``pimc._utility`` with ``bag_cost=1``: both teams' number contracts, made 10 a bid
    trick, set minus that, an overtrick worth its point less one for its bag, ours minus
    theirs). ``U`` never falls as our tricks rise, so the best card's points are ``U(best)``:
    a card that gives up a trick costs nothing unless that trick made or set a contract, and
    a ducked overtrick costs nothing. The solver maximises tricks, so it cannot value keeping
    a Nil bidder off tricks or putting one on it: decisions made while a Nil is alive (either
    team's) are counted apart.
    """
    pts = [0] * len(dd_report.DECISION_KINDS)
    dec = [0] * len(dd_report.DECISION_KINDS)
    nil = 0
    for step, pos, cost in decision_points(deal, steps, rules, masks):
        if cost is None:
            nil += 1
            continue
        for kind in (pos, 4 if step["trick"] < dd_report.LATE_FROM else 5):
            pts[kind] += cost
            dec[kind] += 1
    return pts, dec, nil


def decision_points(deal: dict, steps: list[dict], rules, masks):
    """Each decision of :func:`dd_report.decisions` as ``(step, position in the trick, points
    (x10) it cost its team)`` (:func:`points_lost`'s measure); the cost ``None`` while a Nil
    is alive (either team's: the contracts alone do not score a Nil's defence or attack)."""
    from simcards.games.spades import pimc
    from simcards.games.spades.policies import V_BID, V_SEAT, V_TRICKS, VIEW_LEN

    r = deal["record"]
    view = np.zeros(VIEW_LEN, np.int64)
    for s in range(4):
        view[V_BID + s] = r[f"bid{s}"] if not r[f"blind{s}"] else 0
    for step, pos, taken, left in dd_report.decisions(deal, steps, rules, masks):
        view[V_SEAT] = step["seat"]
        for s in range(4):
            view[V_TRICKS + s] = taken[s]
        if any(view[V_BID + s] == 0 and view[V_TRICKS + s] == 0 for s in range(4)):  # a Nil alive
            yield step, pos, None
            continue
        u = np.zeros(left + 1, np.int64)
        pimc._utility(view, np.int64(left), 1.0, u)
        yield step, pos, int(u[step["best"]] - u[step["after"]])


def dd_records(unit, variant, table, seed: int, start: int, count: int) -> np.ndarray:
    """The ``COLUMNS`` of deals ``start .. start+count-1`` (``run --records dd``)."""
    out = np.zeros((count, len(COLUMNS)), np.int64)
    solver = dd.Table()
    for i, deal in enumerate(played_deals(variant, table, seed, start, count)):
        rules_row, masks = solver_rules(variant, deal["hands"])
        steps = dd_report.costs(deal, rules_row, masks, SIDES, solver=solver)
        tricks, lost = dd_report.deal_record(deal, rules_row, masks, SIDES, solver, steps=steps)
        pts, dec, nil = points_lost(deal, steps, rules_row, masks)
        out[i] = tricks + [lost[0] + lost[2], lost[1] + lost[3]] + lost + pts + dec + [nil]
    return out


def dd_tally(unit, df, variant):
    """Mean double-dummy tricks and trick loss per team and seat; contracts makeable double
    dummy against made (number contracts, by contract)."""
    rows = stats.TallyRows()
    n = len(df)
    teams = stats.record_index(n, 2)
    team = np.repeat(np.arange(2), n)
    per_team = lambda name: np.concatenate([df[f"{name}0"].to_numpy(), df[f"{name}1"].to_numpy()])  # noqa: E731
    rows.add("dd_tricks", "mean", per_team("dd_tricks"), by=team, labels=("team0", "team1"))
    rows.add("dd_lost", "mean", per_team("dd_lost"), by=team, labels=("team0", "team1"))
    rows.add("dd_lost_all", "mean", per_team("dd_lost"), record=teams)
    rows.add("dd_lost_seat", "mean", np.concatenate([df[f"dd_lost_seat{s}"].to_numpy() for s in range(4)]),
             by=np.repeat(np.arange(4), n), labels=("seat0", "seat1", "seat2", "seat3"))
    contract = per_team("contract")
    makeable = per_team("dd_tricks") >= contract
    has = contract > 0
    rows.add("dd_makeable", "rate", makeable, where=has, by=contract, record=teams)
    rows.add("dd_makeable_all", "rate", makeable, where=has, record=teams)
    rows.add("dd_makeable_set", "rate", per_team("made") == 0, where=has & makeable, record=teams)
    # per card: a team plays 26 cards a hand; bid accuracy: the team's number contract against
    # the tricks it takes double dummy (the bot-free answer to "how many should we bid")
    rows.add("dd_lost_per_card", "mean", per_team("dd_lost") / 26.0, record=teams)
    error = contract - per_team("dd_tricks")
    rows.add("dd_bid_error", "mean", error, where=has, record=teams)
    rows.add("dd_bid_within1", "rate", np.abs(error) <= 1, where=has, record=teams)
    # points a decision cost against the best card (points_lost), per decision, the deal the unit
    kinds = dd_report.DECISION_KINDS
    if "dd_pts_lead" in df:
        pts = np.stack([df[f"dd_pts_{k}"].to_numpy() for k in kinds]) / 10.0
        dec = np.stack([df[f"dd_dec_{k}"].to_numpy() for k in kinds])
        rows.add_ratio("dd_points_per_decision", "mean", pts[:4].sum(axis=0), dec[:4].sum(axis=0))
        rows.add_ratio("dd_points_per_decision", "mean", pts.ravel(), dec.ravel(),
                       by=np.repeat(np.arange(len(kinds)), n), labels=kinds)
        rows.add_ratio("dd_points_unscored_nil", "rate", df["dd_dec_nil"].to_numpy(),
                       dec[:4].sum(axis=0) + df["dd_dec_nil"].to_numpy())
    return rows.frame()


SUPPORT = DoubleDummySupport(analyse=analyse, replay=replay_dd, units=("deal",), columns=COLUMNS,
                             records=dd_records, tally=dd_tally, deal=played_deal, play=play_given)
