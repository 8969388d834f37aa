"""A slow, plain-Python referee for partnership Spades, written from the rules text.

It shares no rule code with the compiled kernel, so the two check each other:

- :func:`score_hand` is the **differential entry point**: give it explicit hands,
  dealer, bids, exchanges and the 52 cards in play order; it validates every bid,
  exchange card and play against sections 3-4 (raising :class:`SimcardsError` on the
  first illegal one) and scores the hand by section 5.1.
- :func:`check_trace` replays one kernel trace row through :func:`score_hand` and
  compares every move, trick winner, leader and score with what the kernel recorded.

Cards may be written as notation (``"AS KH 2C"``), lists of card numbers or masks.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from simcards.core.cards import cards_of, format_card, parse_card, parse_cards
from simcards.core.errors import SimcardsError

SPADES = 3
LJ, BJ = 52, 54


def effective_suit(c: int) -> int:
    """Section 0: a joker is a spade."""
    return SPADES if c >= 52 else c // 13


def rank_value(c: int) -> int:
    """Section 0 numeric rank: 2..14 for 2..A, LJ 15, BJ 17."""
    if c == LJ:
        return 15
    if c == BJ:
        return 17
    return c % 13 + 2


def deck_of(variant) -> set[int]:
    """Section 1.3: the 52 cards in use."""
    cards = set(range(52))
    if variant.jokers == 2:
        for name in variant.joker_removed_cards:
            cards.discard(parse_card(name))
        cards |= {LJ, BJ}
    return cards


def _cards(x) -> list[int]:
    if x is None:
        return []
    if isinstance(x, str):
        return parse_cards(x)
    if isinstance(x, (int, np.integer)):
        return cards_of(int(x))
    return [int(c) if not isinstance(c, str) else parse_card(c) for c in x]


def legal_cards(hand: set[int], trick: list[int], trick_number: int, spades_broken: bool,
                variant, opening_club: int | None) -> set[int]:
    """Section 4.3, line by line (``trick_number`` counts from 1)."""
    if not trick:
        if trick_number == 1 and variant.first_lead == "lowest_club" and variant.first_lead_card_forced:
            return {opening_club}
        if variant.spades_must_be_broken and not spades_broken:
            non_trumps = {c for c in hand if effective_suit(c) != SPADES}
            if non_trumps:
                return non_trumps
        return set(hand)
    led = effective_suit(trick[0])
    same = {c for c in hand if effective_suit(c) == led}
    if same:
        return same
    if trick_number == 1 and not variant.first_trick_trump_allowed:
        non_trumps = {c for c in hand if effective_suit(c) != SPADES}
        if non_trumps:
            return non_trumps
    return set(hand)


def trick_winner(plays: list[tuple[int, int]]) -> int:
    """Section 4.4: seat of the highest trump, else of the highest card of the led suit."""
    trumps = [(s, c) for s, c in plays if effective_suit(c) == SPADES]
    if trumps:
        return max(trumps, key=lambda sc: rank_value(sc[1]))[0]
    led = effective_suit(plays[0][1])
    return max(((s, c) for s, c in plays if effective_suit(c) == led), key=lambda sc: rank_value(sc[1]))[0]


def legal_bid_set(variant, seat: int, dealer: int, bids: dict, scores, looked: bool) -> set:
    """Section 3: legal bids of ``seat`` given earlier ``bids`` {seat: (number, blind)};
    ``"BN"`` stands for Blind Nil, 0 for Nil."""
    team = seat % 2
    legal = set(range(1, 14))
    if variant.nil_allowed:
        legal.add(0)
    if variant.blind_nil_allowed and not looked:
        d = variant.blind_nil_min_deficit
        if d is None or scores[1 - team] - scores[team] >= d:
            legal.add("BN")
    partner = (seat + 2) % 4
    if variant.min_team_bid > 0 and partner in bids:
        need = variant.min_team_bid - bids[partner][0]
        if need > 0:
            legal = {b for b in legal if b != "BN" and b != 0 and b >= need}
    if variant.forbid_total_bids_13 and seat == dealer:
        others = sum(b for s, (b, _) in bids.items() if s != seat)
        forbidden = 13 - others
        restricted = {b for b in legal if (0 if b == "BN" else b) != forbidden}
        if any(b != "BN" for b in restricted):
            legal = restricted
    return legal


def score_team(variant, bid_p, blind_p, t_p, bid_q, blind_q, t_q, bags):
    """Section 5.1 for one team; returns a dict of the results."""
    nil_points = 0
    failed = 0
    for b, bl, t in ((bid_p, blind_p, t_p), (bid_q, blind_q, t_q)):
        if b == 0:
            v = variant.blind_nil_value if bl else variant.nil_value
            if t == 0:
                nil_points += v
            else:
                nil_points -= v
                failed += t
    C = sum(b for b in (bid_p, bid_q) if b > 0)
    W = sum(t for b, t in ((bid_p, t_p), (bid_q, t_q)) if b > 0)
    if variant.failed_nil_tricks == "partner" and C > 0:
        W += failed
    made = None
    if C > 0:
        mult = 2 if (variant.ten_for_two_hundred and C >= variant.ten_for_two_hundred_min_bid) else 1
        set_mult = mult if variant.ten_for_two_hundred_set_doubled else 1
        if W >= C:
            contract_points, over, made = 10 * C * mult, W - C, True
        else:
            contract_points, over, made = -10 * C * set_mult, 0, False
    else:
        contract_points, over = 0, 0
    if variant.failed_nil_tricks == "bags" or (variant.failed_nil_tricks == "partner" and C == 0):
        nil_bags = failed
    else:
        nil_bags = 0
    new_bags = over + nil_bags
    bag_points = variant.bag_point_value * new_bags
    boston = variant.boston_bonus if (variant.boston_bonus > 0 and bid_p > 0 and bid_q > 0
                                       and t_p + t_q == 13) else 0
    penalty = 0
    penalties = 0
    G = bags
    if variant.bag_mode == "accumulate":
        G += new_bags
        if variant.bag_overflow == "carry":
            while G >= variant.bag_limit:
                penalty += variant.bag_limit_penalty
                penalties += 1
                G -= variant.bag_limit
        elif G >= variant.bag_limit:
            penalty, penalties, G = variant.bag_limit_penalty, 1, 0
    elif variant.bag_mode == "per_bag":
        penalty = variant.per_bag_penalty * new_bags
        penalties = new_bags
    else:
        G += new_bags
    delta = contract_points + nil_points + bag_points + boston - penalty
    return {"delta": delta, "bags_after": G, "new_bags": new_bags, "penalties": penalties,
            "contract": C, "made": made}


def deficient(hand: set[int], condition: str) -> bool:
    """Section 2.4 deficient-hand conditions."""
    spades = sum(1 for c in hand if effective_suit(c) == SPADES)
    if condition == "no_spades":
        return spades == 0
    if condition == "at_most_one_spade":
        return spades <= 1
    if condition == "no_face_cards":
        return not any(c < 52 and c % 13 in (9, 10, 11) for c in hand)
    return False


@dataclass
class HandResult:
    """What :func:`score_hand` found: per seat, per trick and per team."""

    tricks: list[int]
    leaders: list[int]
    winners: list[int]
    first_leader: int
    broken_trick: int
    hands_after_exchange: list[set]
    exchange_counts: list[int]
    team: list[dict] = field(default_factory=list)  # score_team results + score_after
    nil: list[int] = field(default_factory=list)  # -1 no Nil, 0 failed, 1 made


def score_hand(hands, dealer, bids, blind, exchanges, plays, variant, scores=None, bags=None,
               looked=None) -> HandResult:
    """Referee one hand from explicit moves; raise SimcardsError on the first illegal one.

    - ``hands``: the four 13-card hands as dealt (before any exchange), seat 0..3.
    - ``dealer``: seat 0..3; bidding starts at its left.
    - ``bids``: four bids by seat (0 = Nil/BN, 1..13); ``blind``: four flags (BN).
    - ``exchanges``: cards each seat passed to its partner ({seat: cards} or four
      entries; empty where no exchange). For the sequential orders a seat may pass
      cards it has just received.
    - ``plays``: the 52 cards in play order (the seat is implied by the turn).
    - ``scores``, ``bags``: team scores and bag counters before the hand (default 0).
    - ``looked``: seats that saw their cards before bidding (optional misdeal call);
      by default derived from the variant's optional misdeal rule.
    """
    scores = list(scores) if scores is not None else [0, 0]
    bags = list(bags) if bags is not None else [0, 0]
    hands = [set(_cards(h)) for h in hands]
    deck = deck_of(variant)
    seen: set[int] = set()
    for s, h in enumerate(hands):
        if len(h) != 13:
            raise SimcardsError(f"seat {s} holds {len(h)} cards, not 13")
        if not h <= deck:
            raise SimcardsError(f"seat {s} holds {format_card(min(h - deck))}, which is not in the deck")
        if seen & h:
            raise SimcardsError(f"{format_card(min(seen & h))} is dealt twice")
        seen |= h
    if not 0 <= dealer <= 3:
        raise SimcardsError(f"dealer must be a seat 0..3, got {dealer}")
    if looked is None:
        looked = set()
        if variant.misdeal_condition != "none" and variant.misdeal_optional:
            looked = {s for s in range(4) if deficient(hands[s], variant.misdeal_condition)}

    # ---- bids in order, each legal when made (section 3)
    made_bids: dict[int, tuple[int, bool]] = {}
    for i in range(4):
        s = (dealer + 1 + i) % 4
        b, bl = int(bids[s]), bool(blind[s])
        legal = legal_bid_set(variant, s, dealer, made_bids, scores, s in looked)
        if (("BN" if bl else b) not in legal) or (bl and b != 0):
            raise SimcardsError(f"seat {s} may not bid {'BN' if bl else b} "
                                f"(legal: {sorted(legal, key=lambda x: -1 if x == 'BN' else x)})")
        made_bids[s] = (b, bl)

    # ---- exchange (section 3.5)
    if isinstance(exchanges, dict):
        given = [set(_cards(exchanges.get(s))) for s in range(4)]
    else:
        given = [set(_cards(e)) for e in (exchanges or [None] * 4)]
    now = [set(h) for h in hands]
    counts = [0, 0]
    for team in (0, 1):
        a, q = team, team + 2
        k = 0
        if (bids[a] == 0) != (bids[q] == 0):
            z = a if bids[a] == 0 else q
            k = variant.blind_nil_exchange_count if blind[z] else variant.nil_exchange_count
        counts[team] = k
        if k == 0:
            if given[a] or given[q]:
                raise SimcardsError(f"team {team} may not exchange cards in this hand")
            continue
        p = (z + 2) % 4
        gz, gp = given[z], given[p]
        if len(gz) != k or len(gp) != k:
            raise SimcardsError(f"team {team} must exchange exactly {k} cards each way")
        order = variant.exchange_order
        first, second = (z, p) if order == "nil_first" else (p, z)
        if order == "simultaneous":
            for s in (z, p):
                if not given[s] <= now[s]:
                    raise SimcardsError(f"seat {s} passes cards it does not hold")
            now[z] = (now[z] - gz) | gp
            now[p] = (now[p] - gp) | gz
        else:
            if not given[first] <= now[first]:
                raise SimcardsError(f"seat {first} passes cards it does not hold")
            now[first] -= given[first]
            now[second] |= given[first]
            if not given[second] <= now[second]:
                raise SimcardsError(f"seat {second} passes cards it does not hold")
            now[second] -= given[second]
            now[first] |= given[second]
    after_exchange = [set(h) for h in now]

    # ---- play (section 4)
    plays = _cards(plays)
    if len(plays) != 52:
        raise SimcardsError(f"a hand has 52 plays, got {len(plays)}")
    opening_club = None
    leader = (dealer + 1) % 4
    if variant.first_lead == "lowest_club":
        opening_club = min((c for c in deck if c < 52 and c // 13 == 0), key=rank_value)
        leader = next(s for s in range(4) if opening_club in now[s])
    first_leader = leader
    broken = False
    broken_trick = 0
    tricks = [0, 0, 0, 0]
    leaders, winners = [], []
    for k in range(13):
        trick: list[int] = []
        seats = []
        for pos in range(4):
            s = (leader + pos) % 4
            c = plays[4 * k + pos]
            legal = legal_cards(now[s], trick, k + 1, broken, variant, opening_club)
            if c not in legal:
                raise SimcardsError(f"trick {k + 1}: seat {s} may not play {format_card(c)}"
                                    f" (legal: {' '.join(format_card(x) for x in sorted(legal))})")
            now[s].discard(c)
            trick.append(c)
            seats.append(s)
            if effective_suit(c) == SPADES and not broken:
                broken, broken_trick = True, k + 1
        w = trick_winner(list(zip(seats, trick)))
        tricks[w] += 1
        leaders.append(leader)
        winners.append(w)
        leader = w

    # ---- score (section 5)
    result = HandResult(tricks, leaders, winners, first_leader, broken_trick, after_exchange, counts)
    for team in (0, 1):
        a, q = team, team + 2
        r = score_team(variant, bids[a], blind[a], tricks[a], bids[q], blind[q], tricks[q], bags[team])
        r["score_after"] = scores[team] + r["delta"]
        result.team.append(r)
    result.nil = [-1 if bids[s] != 0 else int(tricks[s] == 0) for s in range(4)]
    return result


def check_trace(variant, t, rec_row=None) -> np.ndarray:
    """Referee one traced hand (``replay.TracedHand``); compare with ``rec_row`` (deal
    columns) if given.

    Returns the deal record recomputed by the referee. Raises AssertionError on a
    disagreement and SimcardsError on an illegal move.
    """
    from simcards.games.spades import rules

    hands, bids, blind, given, plays = t.hands, t.bids, t.blinds, t.given, t.plays
    dealer = t.dealer
    res = score_hand(hands, dealer, bids, blind, given, plays, variant, t.scores, t.bags)
    assert res.first_leader == t.first_leader, "first leader differs"
    assert res.leaders == t.leaders, "trick leaders differ"
    assert res.winners == t.winners, "trick winners differ"
    assert res.exchange_counts == t.exchange, "exchange counts differ"
    row = np.zeros(rules.N_DEAL_COLS, dtype=np.int64)
    col = {name: i for i, (name, _) in enumerate(rules.DEAL_COLUMNS)}
    row[col["dealer"]] = dealer
    row[col["redeals"]] = t.redeals
    row[col["first_leader"]] = res.first_leader
    row[col["broken_trick"]] = res.broken_trick
    for s in range(4):
        row[col[f"bid{s}"]] = bids[s]
        row[col[f"blind{s}"]] = blind[s]
        row[col[f"tricks{s}"]] = res.tricks[s]
        row[col[f"nil{s}"]] = res.nil[s]
    for team in (0, 1):
        r = res.team[team]
        row[col[f"exchange{team}"]] = res.exchange_counts[team]
        row[col[f"contract{team}"]] = r["contract"]
        row[col[f"won{team}"]] = res.tricks[team] + res.tricks[team + 2]
        row[col[f"made{team}"]] = -1 if r["made"] is None else int(r["made"])
        row[col[f"set{team}"]] = int(r["made"] is False)
        row[col[f"points{team}"]] = r["delta"]
        row[col[f"bags{team}"]] = r["new_bags"]
        row[col[f"penalties{team}"]] = r["penalties"]
        row[col[f"score{team}"]] = r["score_after"]
        row[col[f"bag_count{team}"]] = r["bags_after"]
    if rec_row is not None:
        rec = np.asarray(rec_row)
        diff = [name for name, i in col.items() if rec[i] != row[i]]
        assert not diff, f"kernel and referee disagree on {diff}"
    return row
