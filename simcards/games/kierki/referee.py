"""A slow, plain-Python Kierki referee, written from the rules text (Appendix A).

It shares no code with the numba kernel: cards are strings such as ``"QH"``, hands
are Python sets. Two entry points:

- :func:`score_trick_deal` -- the *differential entry point*: score one negative or
  trump deal from explicit hands, a leader and the full play order, checking every
  card is legal. Returns per-seat scores, tricks and trick winners.
- :func:`check_trace` -- re-check a kernel trace (``replay.trace_events``) move by
  move: hands, dealer schedule, trump choice, legal sets, trick winners, charges,
  early stop, lottery turns, passes and awards. Raises :class:`RefereeError`.
"""
from __future__ import annotations

from simcards.core.cards import cards_of, format_card

RANKS = "23456789TJQKA"
NEGATIVE = ("no_tricks", "no_hearts", "no_queens", "no_jacks_kings", "no_king_of_hearts",
            "no_seventh_and_last", "robber")
DEAL_TYPES = NEGATIVE + ("trumps", "lottery")
SUIT_OF_INDEX = "CDHS"  # suit numbers used by the kernel's trace (card = suit*13 + rank)
KH, AH = "KH", "AH"


class RefereeError(AssertionError):
    """A kernel trace broke a rule."""


def rank(c: str) -> int:
    return RANKS.index(c[0])


def suit(c: str) -> str:
    return c[1]


def hand_names(mask: int) -> set[str]:
    return {format_card(c) for c in cards_of(mask)}


# ---------------------------------------------------------------- Appendix A, transcribed

def legal_trick_cards(hand, trick, deal, trump, v, hearts_played_earlier):
    """Legal cards for a trick; ``trick`` lists the cards already in it, in order."""
    if not trick:
        if deal in v.heart_lead_restricted_deals and v.heart_lead_rule != "unrestricted":
            non_hearts = {c for c in hand if suit(c) != "H"}
            lifted = v.heart_lead_rule == "until_broken" and hearts_played_earlier
            if non_hearts and not lifted:
                return non_hearts
        return set(hand)
    led = suit(trick[0])
    same = {c for c in hand if suit(c) == led}
    kh_applies = deal in ("no_king_of_hearts", "robber") and KH in hand
    if same:
        if kh_applies and v.king_of_hearts_forced == "when_void_or_beaten" and led == "H" and AH in trick:
            return {KH}
        return same
    if kh_applies and v.king_of_hearts_forced != "off":
        return {KH}
    if deal == "trumps" and trump is not None and v.trump_obligation != "none":
        trumps = {c for c in hand if suit(c) == trump}
        if trumps:
            if v.trump_obligation == "must_overtrump":
                played = [c for c in trick if suit(c) == trump]
                if played:
                    top = max(rank(c) for c in played)
                    higher = {c for c in trumps if rank(c) > top}
                    if higher:
                        return higher
            return trumps
    return set(hand)


def trick_winner_index(trick, trump):
    best = 0
    for i in range(1, len(trick)):
        c, b = trick[i], trick[best]
        if trump is not None and suit(c) == trump and suit(b) != trump:
            best = i
        elif suit(c) == suit(b) and rank(c) > rank(b):
            best = i
    return best


def trick_charge(deal, cards, trick_no, v):
    if deal == "trumps":
        return v.points_per_trump_trick
    parts = {
        "no_tricks": v.penalty_per_trick,
        "no_hearts": v.penalty_per_heart * sum(suit(c) == "H" for c in cards),
        "no_queens": v.penalty_per_queen * sum(c[0] == "Q" for c in cards),
        "no_jacks_kings": v.penalty_per_jack_or_king * sum(c[0] in "JK" for c in cards),
        "no_king_of_hearts": v.penalty_king_of_hearts if KH in cards else 0,
        "no_seventh_and_last": v.penalty_per_seventh_last_trick if trick_no in v.seventh_last_tricks else 0,
    }
    return sum(parts.values()) if deal == "robber" else parts[deal]


def penalty_cards(deal):
    """Cards that carry a penalty in ``deal`` (for early stop)."""
    allc = {r + s for r in RANKS for s in "SHDC"}
    return {
        "no_hearts": {c for c in allc if suit(c) == "H"},
        "no_queens": {c for c in allc if c[0] == "Q"},
        "no_jacks_kings": {c for c in allc if c[0] in "JK"},
        "no_king_of_hearts": {KH},
    }.get(deal)


def lottery_sequence(v):
    return "A23456789TJQK" if v.lottery_ace == "low" else "23456789TJQKA"


def lottery_legal(hand, rows, base_rank, v):
    """``rows[suit]`` is None or (lo, hi) positions in the sequence."""
    seq = lottery_sequence(v)
    out = set()
    for c in hand:
        row = rows[suit(c)]
        if row is None:
            if base_rank is None or c[0] == base_rank:
                out.add(c)
        else:
            i = seq.index(c[0])
            if i == row[0] - 1 or i == row[1] + 1:
                out.add(c)
    return out


def build_schedule(v, first_dealer):
    cycle = list(v.negative_contracts) + ["trumps"] * v.trump_deals_per_cycle + ["lottery"] * v.lotteries_per_cycle
    r, out = v.deal_type_repetitions, []
    if v.deal_ordering == "blocked":
        n = 0
        for deal_type in cycle:
            for _ in range(r):
                out.append((deal_type, (first_dealer + n) % 4))
                n += 1
    else:
        for c in range(r):
            for k, deal_type in enumerate(cycle):
                out.append((deal_type, (first_dealer + c + k) % 4))
    return out


# ---------------------------------------------------------------- differential entry point

def score_trick_deal(hands, deal, leader, plays, v, trump=None, early_stop=False):
    """Score a negative or trump deal from explicit hands and the full play order.

    ``hands``: four iterables of card names (seats N, E, S, W); ``plays``: every card in
    playing order; ``trump``: "S", "H", "D", "C" or None. Raises RefereeError on an
    illegal card. Returns ``(scores, tricks, winners)`` per seat / per trick.
    """
    hands = [set(h) for h in hands]
    scores, tricks, winners = [0] * 4, [0] * 4, []
    hearts_before = False
    captured: set[str] = set()
    k = 0
    for t in range(1, 14):
        trick, seats = [], []
        for j in range(4):
            seat = (leader + j) % 4
            if k >= len(plays):
                raise RefereeError(f"trick {t}: the play list ends early")
            c = plays[k]
            k += 1
            legal = legal_trick_cards(hands[seat], trick, deal, trump, v, hearts_before)
            if c not in legal:
                raise RefereeError(f"trick {t}: {'NESW'[seat]} plays {c}, legal {sorted(legal)}")
            hands[seat].remove(c)
            trick.append(c)
            seats.append(seat)
        w = seats[trick_winner_index(trick, trump)]
        scores[w] += trick_charge(deal, trick, t, v)
        tricks[w] += 1
        winners.append(w)
        hearts_before = hearts_before or any(suit(c) == "H" for c in trick)
        captured |= set(trick)
        leader = w
        pc = penalty_cards(deal)
        if early_stop and pc is not None and pc <= captured:
            break
    if k != len(plays):
        raise RefereeError("more cards listed than played")
    return scores, tricks, winners


# ---------------------------------------------------------------- trace checking

def _events(events):
    return [tuple(int(x) for x in row) for row in events]


def check_trace(events, v, first_dealer=None, deal_types=None):
    """Re-check every deal of a kernel trace; return the per-deal score lists.

    ``first_dealer`` (game records) checks the dealer schedule; ``deal_types`` lists the
    expected deal types in order (default: the game schedule).
    """
    evs = _events(events)
    sched = build_schedule(v, first_dealer) if first_dealer is not None else None
    out = []
    i = 0
    k = 0
    trump_count = 0
    used: set[str] = set()
    while i < len(evs):
        ev = evs[i]
        if ev[0] != 1:
            raise RefereeError(f"expected a deal header, got event {ev}")
        _, deal_no, tcode, dealer, first, _ = ev
        deal = DEAL_TYPES[tcode]
        if sched is not None:
            if (deal, dealer) != sched[k]:
                raise RefereeError(f"deal {deal_no}: {deal} dealt by {dealer}, schedule says {sched[k]}")
        elif deal_types is not None and deal != deal_types[k]:
            raise RefereeError(f"deal {deal_no}: type {deal}, expected {deal_types[k]}")
        hands = []
        for s in range(4):
            e = evs[i + 1 + s]
            if e[0] != 2 or e[1] != s:
                raise RefereeError(f"deal {deal_no}: missing hand of seat {s}")
            hands.append(hand_names(e[2]))
        if any(len(h) != 13 for h in hands) or len(set().union(*hands)) != 52:
            raise RefereeError(f"deal {deal_no}: hands are not four 13-card parts of the pack")
        i += 5
        if deal == "lottery":
            scores, i = _check_lottery(evs, i, hands, dealer, v, deal_no)
        else:
            trump = None
            if deal == "trumps":
                if v.trump_suits_distinct and trump_count % 4 == 0:
                    used = set()
                trump_count += 1
                e = evs[i]
                if e[0] != 3:
                    raise RefereeError(f"deal {deal_no}: no trump announcement")
                chooser = dealer if v.trump_chooser == "dealer" else (dealer + 1) % 4
                leader = dealer if v.trump_leader == "dealer" else (dealer + 1) % 4
                seen = hand_names(e[3])
                if e[1] != chooser or len(seen) != v.trump_choice_cards or not seen <= hands[chooser]:
                    raise RefereeError(f"deal {deal_no}: trump chosen by {e[1]} from {sorted(seen)}")
                trump = None if e[2] < 0 else SUIT_OF_INDEX[e[2]]
                if trump is None and not v.allow_no_trump:
                    raise RefereeError(f"deal {deal_no}: no trumps announced but not allowed")
                if v.trump_suits_distinct:
                    if trump in used:
                        raise RefereeError(f"deal {deal_no}: trump {trump} repeated within a group of four")
                    used.add(trump)
                i += 1
            else:
                leader = (dealer + 1) % 4
            if first != leader:
                raise RefereeError(f"deal {deal_no}: {first} leads, rules say {leader}")
            scores, i = _check_tricks(evs, i, hands, deal, leader, trump, v, deal_no)
        e = evs[i]
        if e[0] != 8 or list(e[1:5]) != scores:
            raise RefereeError(f"deal {deal_no}: kernel scores {e[1:5]}, referee {scores}")
        out.append(scores)
        i += 1
        k += 1
    if sched is not None and k != len(sched):
        raise RefereeError(f"{k} deals played, schedule has {len(sched)}")
    return out


def _check_tricks(evs, i, hands, deal, leader, trump, v, deal_no):
    scores = [0] * 4
    hearts_before = False
    captured: set[str] = set()
    for t in range(1, 14):
        trick, seats = [], []
        for j in range(4):
            seat = (leader + j) % 4
            e = evs[i]
            i += 1
            if e[0] != 4 or e[1] != seat or e[3] != t:
                raise RefereeError(f"deal {deal_no} trick {t}: expected a play by {seat}, got {e}")
            c = format_card(e[2])
            legal = legal_trick_cards(hands[seat], trick, deal, trump, v, hearts_before)
            if c not in legal or hand_names(e[4]) != legal:
                raise RefereeError(f"deal {deal_no} trick {t}: {c} by {seat}; legal {sorted(legal)}, "
                                   f"kernel offered {sorted(hand_names(e[4]))}")
            hands[seat].remove(c)
            trick.append(c)
            seats.append(seat)
        w = seats[trick_winner_index(trick, trump)]
        charge = trick_charge(deal, trick, t, v)
        e = evs[i]
        i += 1
        if e[0] != 5 or e[1] != t or e[2] != w or e[3] != charge:
            raise RefereeError(f"deal {deal_no} trick {t}: kernel says {e}, referee winner {w} charge {charge}")
        scores[w] += charge
        hearts_before = hearts_before or any(suit(c) == "H" for c in trick)
        captured |= set(trick)
        leader = w
        pc = penalty_cards(deal)
        done = v.early_stop and pc is not None and pc <= captured and t < 13
        if evs[i][0] == 9:
            if not done:
                raise RefereeError(f"deal {deal_no}: early stop after trick {t} with penalty cards left")
            i += 1
            break
        if done:
            raise RefereeError(f"deal {deal_no}: no early stop after trick {t}")
    return scores, i


def _check_lottery(evs, i, hands, dealer, v, deal_no):
    seq = lottery_sequence(v)
    rows = {s: None for s in "SHDC"}
    base = None if v.lottery_base_rank == "first_card" else v.lottery_base_rank
    opening = v.lottery_opening_card[0] if v.lottery_opening_card else None
    if opening:
        seat = next(s for s in range(4) if opening in hands[s])
    else:
        seat = dealer if v.lottery_first_player == "dealer" else (dealer + 1) % 4
    awards = list(v.lottery_awards)
    scores, out_order = [0] * 4, []
    turn = 0
    while len(out_order) < len(awards):
        while not hands[seat]:
            seat = (seat + 1) % 4
        legal = {opening} if (turn == 0 and opening) else lottery_legal(hands[seat], rows, base, v)
        e = evs[i]
        i += 1
        if not legal:
            if e[0] != 6 or e[1] != seat:
                raise RefereeError(f"lottery deal {deal_no} turn {turn}: {seat} must pass, kernel {e}")
        else:
            if e[0] != 4 or e[1] != seat or e[3] != turn:
                raise RefereeError(f"lottery deal {deal_no} turn {turn}: expected a play by {seat}, got {e}")
            c = format_card(e[2])
            if c not in legal or hand_names(e[4]) != legal:
                raise RefereeError(f"lottery deal {deal_no} turn {turn}: {c} not in {sorted(legal)}")
            hands[seat].remove(c)
            pos = seq.index(c[0])
            row = rows[suit(c)]
            if row is None:
                rows[suit(c)] = (pos, pos)
                if base is None:
                    base = c[0]
            else:
                rows[suit(c)] = (min(row[0], pos), max(row[1], pos))
            if not hands[seat]:
                award = awards[len(out_order)]
                out_order.append(seat)
                scores[seat] += award
                e = evs[i]
                i += 1
                if e[0] != 7 or e[1] != seat or e[2] != len(out_order) or e[3] != award:
                    raise RefereeError(f"lottery deal {deal_no}: {seat} out, kernel {e}")
        turn += 1
        if turn > 208:
            raise RefereeError("lottery ran past 208 turns")
        seat = (seat + 1) % 4
    return scores, i
