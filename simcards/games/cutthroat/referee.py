"""A slow, plain-Python referee for Cutthroat Spades, written from the rules text.

It shares no rule code with the compiled kernel: cards are names (``AS``, ``BJ``),
ranks are the rules' numeric values (2..14, LJ 15, MJ 16, BJ 17), and every function
follows the pseudo-code of the rules section it names.

Two entry points:

- :func:`score_hand` — the **differential entry point**: play one hand from explicit
  hands, bids and the order in which cards are played, checking every move, and
  return tricks, captured jacks, each player's delta and bag counter.
- :func:`check_trace` — re-check a kernel trace (``rules.trace_record``) move by move:
  deck and deal, redeals, bidding order and legality, every card, trick winners,
  scores, game ends, tokens. Raises :class:`RefereeError` at the first disagreement.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from simcards.core.cards import cards_of, format_card
from simcards.games.cutthroat import rules
from simcards.games.cutthroat.layout import bid_name

RANK_VALUE = {r: i + 2 for i, r in enumerate("23456789TJQKA")}
RANK_VALUE.update({"LJ": 15, "MJ": 16, "BJ": 17})
JOKERS = ("LJ", "MJ", "BJ")


class RefereeError(AssertionError):
    """The kernel (or an explicit hand) broke a rule."""


def effective_suit(card: str) -> str:
    return "S" if card in JOKERS else card[-1]


def rank_value(card: str) -> int:
    return RANK_VALUE[card] if card in JOKERS else RANK_VALUE[card[0]]


# ---------------------------------------------------------------- form (1.3)


def tricks_in_hand(v) -> int:
    return {3: 17, 4: 13}[v.num_players] if v.num_players < 5 else (11 if v.jokers else 10)


def deck(v) -> set[str]:
    """The cards of the form (1.3)."""
    cards = {r + s for r in "23456789TJQKA" for s in "SHDC"}
    if v.num_players == 3:
        cards -= {"2C"}
    if v.num_players == 5 and v.jokers == 0:
        cards -= {"2C", "2D"}
    if v.jokers == 2:
        cards |= {"BJ", "LJ"}
    if v.jokers == 3:
        cards |= {"BJ", "MJ", "LJ"}
    return cards


def shoot_moon_min(v) -> int:
    if v.shoot_moon_min_tricks is not None:
        return v.shoot_moon_min_tricks
    return {17: 14, 13: 11, 10: 8, 11: 9}[tricks_in_hand(v)]


def max_ordinary(v) -> int:
    if v.max_ordinary_bid is not None:
        return v.max_ordinary_bid
    return shoot_moon_min(v) - 1 if v.shoot_moon_allowed else tricks_in_hand(v)


def first_lead_rule(v) -> str:
    return v.first_lead or ("lowest_club" if v.jokers else "left_of_dealer")


# ---------------------------------------------------------------- bids (3)


def bid_value_for_total(v, bid: str) -> int:
    """3.4: NIL/BN 0, k, 1F 1, 2F 2, B6 blind_six_tricks, SM its threshold."""
    return {"NIL": 0, "BN": 0, "1F": 1, "2F": 2, "B6": v.blind_six_tricks, "SM": shoot_moon_min(v)}.get(bid) \
        if not bid.isdigit() else int(bid)


def legal_bids(v, seat: int, dealer: int, scores: list[int], b6_used: list[int], bids_so_far: list[str],
               looked: bool) -> tuple[set[str], set[str]]:
    """(blind bids, other bids) the player may make (3.2-3.4)."""
    n = v.num_players
    others = set()
    if v.nil_allowed:
        others.add("NIL")
    others |= {str(k) for k in range(1, max_ordinary(v) + 1)}
    for name, on in (("1F", v.one_for_fifty_allowed), ("2F", v.two_for_forty_allowed), ("SM", v.shoot_moon_allowed)):
        if on:
            others.add(name)
    blind = set()
    if not looked:
        deficit = max(scores[o] for o in range(n) if o != seat) - scores[seat]
        if v.blind_nil_allowed and (v.blind_nil_min_deficit is None or deficit >= v.blind_nil_min_deficit):
            blind.add("BN")
        if v.blind_six_allowed and deficit >= v.blind_six_min_deficit and (
                v.blind_six_max_per_game is None or b6_used[seat] < v.blind_six_max_per_game):
            blind.add("B6")
    if seat == dealer and v.forbid_total_bids_equal_tricks:
        so_far = sum(bid_value_for_total(v, b) for b in bids_so_far)
        bad = {b for b in others | blind if so_far + bid_value_for_total(v, b) == tricks_in_hand(v)}
        if (others | blind) - bad:
            others -= bad
            blind -= bad
    return blind, others


# ---------------------------------------------------------------- play (4)


def legal_cards(v, hand: set[str], trick: list[str], trick_number: int, spades_broken: bool,
                opening_club: str | None) -> set[str]:
    """4.4. ``trick_number`` is 1-based; ``opening_club`` is the club trick 1 must open with."""
    trumps = {c for c in hand if effective_suit(c) == "S"}
    side_cards = set(hand) - trumps
    if trick:
        led = effective_suit(trick[0])
        following = {c for c in hand if effective_suit(c) == led}
        if following:
            return following
        no_ruff_on_trick_one = trick_number == 1 and not v.first_trick_trump_allowed
        return side_cards if (no_ruff_on_trick_one and side_cards) else set(hand)
    if trick_number == 1 and first_lead_rule(v) == "lowest_club" and v.first_lead_card_forced:
        return {opening_club}
    if v.spades_must_be_broken and not spades_broken and side_cards:
        return side_cards
    return set(hand)


def trick_winner(plays: list[tuple[int, str]]) -> int:
    """4.5: seat of the highest trump, else of the highest card of the led suit."""
    trumps = [(s, c) for s, c in plays if effective_suit(c) == "S"]
    if trumps:
        return max(trumps, key=lambda sc: rank_value(sc[1]))[0]
    led = effective_suit(plays[0][1])
    return max(((s, c) for s, c in plays if effective_suit(c) == led), key=lambda sc: rank_value(sc[1]))[0]


# ---------------------------------------------------------------- scoring (5.1)


def score_player(v, bid: str, t: int, captured: set[str], g: int) -> tuple[int, int, int, int]:
    """5.1 for one player: (delta, G after, bags added, penalty)."""
    bags = 0
    extra = 0
    if bid in ("NIL", "BN"):
        value = v.nil_value if bid == "NIL" else v.blind_nil_value
        if t == 0:
            base = value
        else:
            base = -value
            bags = t if v.failed_nil_tricks_as_bags else 0
    elif bid == "1F":
        base, bags = (v.one_for_fifty_value, 0) if t == 1 else ((10, t - 1) if t >= 2 else (-v.one_for_fifty_value, 0))
    elif bid == "2F":
        base, bags = (v.two_for_forty_value, 0) if t == 2 else ((20, t - 2) if t >= 3 else (-v.two_for_forty_value, 0))
    elif bid == "B6":
        base, bags = (v.blind_six_value, t - v.blind_six_tricks) if t >= v.blind_six_tricks else (-v.blind_six_value, 0)
    elif bid == "SM":
        smt = shoot_moon_min(v)
        if t >= smt:
            base = v.shoot_moon_value
            if v.shoot_moon_overtricks_score:
                extra = v.bag_point_value * (t - smt)
        else:
            base = -v.shoot_moon_fail_value
    else:
        k = int(bid)
        base, bags = (10 * k, t - k) if t >= k else (-10 * k, 0)
    bag_points = v.bag_point_value * bags + extra
    jack_points = v.prize_jack_points * len({"JD", "JC"} & set(v.prize_jacks) & captured)
    relief = v.jack_of_hearts_bag_relief if ("JH" in v.prize_jacks and "JH" in captured) else 0
    penalty = 0
    if v.bag_mode == "accumulate":
        g = max(0, g + bags - relief)
        if v.bag_out_penalty == "per_accumulated_bag":
            if g >= v.bag_limit:
                penalty, g = v.bag_penalty_per_bag * g, 0
        else:
            while g >= v.bag_limit:
                penalty += v.bag_penalty_per_bag * v.bag_limit
                g -= v.bag_limit
    elif v.bag_mode == "per_bag":
        penalty = v.bag_penalty_per_bag * max(0, bags - relief)
    else:
        g = max(0, g + bags - relief)
    return base + bag_points + jack_points - penalty, g, bags, penalty


def bid_made(v, bid: str, t: int) -> bool:
    if bid in ("NIL", "BN"):
        return t == 0
    if bid in ("1F", "2F"):
        return t == int(bid[0])
    if bid == "B6":
        return t >= v.blind_six_tricks
    if bid == "SM":
        return t >= shoot_moon_min(v)
    return t >= int(bid)


# ---------------------------------------------------------------- the differential entry point


@dataclass
class HandResult:
    tricks: list[int]
    captured: list[set[str]]
    deltas: list[int]
    bags_after: list[int]
    penalties: list[int]
    winners: list[int] = field(default_factory=list)  # winner of each trick
    leaders: list[int] = field(default_factory=list)  # leader of each trick


def score_hand(v, hands: dict[int, list[str]] | list[list[str]], dealer: int, bids: list[str],
               plays: list[str], bags_before: list[int] | None = None) -> HandResult:
    """Play and score one hand from explicit data, checking every move (differential entry point).

    ``hands[seat]`` are card names (``"AS"``, ``"10H"`` or ``"TH"``, ``"BJ"``); ``bids[seat]``
    are ``"NIL"``, ``"3"``, ``"1F"``, ``"2F"``, ``"B6"``, ``"BN"``, ``"SM"``; ``plays`` are all
    cards in the order played. Who plays each card follows from the rules (first leader of
    4.1, clockwise, the dealer skipping trick 1 in the 2-joker form, winners lead). Bid
    legality is not checked here (it depends on the game state; see :func:`legal_bids`).
    Raises :class:`RefereeError` on an illegal or impossible play.
    """
    n = v.num_players
    hands = [set(_norm(c) for c in (hands[s])) for s in range(n)]
    plays = [_norm(c) for c in plays]
    bags_before = list(bags_before or [0] * n)
    total = tricks_in_hand(v)
    sits_out = dealer if (n == 5 and v.jokers == 2) else None
    if len(plays) != sum(len(h) for h in hands):
        raise RefereeError(f"{len(plays)} plays for {sum(len(h) for h in hands)} dealt cards")
    opening = None
    if first_lead_rule(v) == "lowest_club":
        clubs = [(rank_value(c), c, s) for s in range(n) if s != sits_out for c in hands[s] if c[-1] == "C"
                 and c not in JOKERS]
        _, opening, leader = min(clubs)
    else:
        leader = (dealer + 1) % n
    broken = False
    tricks = [0] * n
    captured: list[set[str]] = [set() for _ in range(n)]
    result = HandResult(tricks, captured, [], [], [])
    k = 0
    for number in range(1, total + 1):
        order = [(leader + i) % n for i in range(n)]
        if number == 1 and sits_out is not None:
            order.remove(sits_out)
        trick: list[tuple[int, str]] = []
        for seat in order:
            card = plays[k]
            k += 1
            legal = legal_cards(v, hands[seat], [c for _, c in trick], number, broken, opening)
            if card not in legal:
                raise RefereeError(f"trick {number}: seat {seat} plays {card}, legal: {sorted(legal)}")
            if trick and effective_suit(card) != effective_suit(trick[0][1]) and any(
                    effective_suit(c) == effective_suit(trick[0][1]) for c in hands[seat]):
                raise RefereeError(f"trick {number}: seat {seat} revokes with {card}")
            if effective_suit(card) == "S":
                broken = True
            hands[seat].remove(card)
            trick.append((seat, card))
        win = trick_winner(trick)
        result.leaders.append(leader)
        result.winners.append(win)
        tricks[win] += 1
        captured[win] |= {c for _, c in trick if c in v.prize_jacks}
        leader = win
    if any(hands):
        raise RefereeError("cards left in hands after the last trick")
    for s in range(n):
        delta, g, _, penalty = score_player(v, bids[s], tricks[s], captured[s], bags_before[s])
        result.deltas.append(delta)
        result.bags_after.append(g)
        result.penalties.append(penalty)
    return result


def _norm(card: str) -> str:
    c = card.strip().upper()
    return c.replace("10", "T") if c not in JOKERS else c


# ---------------------------------------------------------------- kernel traces


def _deficient(v, hand: set[str]) -> bool:
    trumps = [c for c in hand if effective_suit(c) == "S"]
    if v.misdeal_condition == "no_spades":
        return not trumps
    if v.misdeal_condition == "at_most_one_spade":
        return len(trumps) <= 1
    if v.misdeal_condition == "no_face_cards":
        return not any(c[0] in "JQK" for c in hand if c not in JOKERS)
    return False


def _expect(cond: bool, message: str) -> None:
    if not cond:
        raise RefereeError(message)


def check_trace(events, v, unit: str = "deal") -> dict:
    """Re-check the trace events of one record (``rules.trace_record``); return a summary
    (hands, games, winners).

    For unit ``deal`` the record is one hand from 0-0 scores; ``game`` checks scores,
    bag counters, B6 uses and the end of the game (5.7); ``tournament`` also the tokens (5.8).
    """
    n = v.num_players
    events = list(events)
    pos = 0
    scores, bags, b6_used, tokens = [0] * n, [0] * n, [0] * n, [0] * n
    summary = {"hands": 0, "games": [], "tournament": None, "bids": [], "tricks": []}
    prev_dealer = None
    game_hands = 0
    full_deck = deck(v)

    def take(kind):
        nonlocal pos
        _expect(pos < len(events), f"trace ended, expected event {kind}")
        ev = events[pos]
        _expect(ev.kind == kind, f"event {pos}: expected kind {kind}, got {ev}")
        pos += 1
        return ev

    while pos < len(events):
        kind = events[pos].kind
        if kind == "game":
            ev = take("game")
            game_no, winner, played = ev.game, ev.winner, ev.hands
            top = max(scores)
            leaders = [s for s in range(n) if scores[s] == top]
            if top >= v.target_score and len(leaders) == 1:
                _expect(winner == leaders[0], f"game {game_no}: winner {winner}, rules say {leaders[0]}")
                tokens[winner] += 1
                _expect(tokens[winner] <= v.tournament_wins, "more tokens than tournament_wins")
            else:
                _expect(winner == -1 and played == v.max_hands, f"game {game_no}: ended without a winner")
            _expect(played == game_hands, f"game {game_no}: {played} hands, trace has {game_hands}")
            summary["games"].append((winner, played, list(scores)))
            scores, bags, b6_used, game_hands = [0] * n, [0] * n, [0] * n, 0
            continue
        if kind == "tournament":
            ev = take("tournament")
            winner, games = ev.winner, ev.games
            if winner >= 0:
                _expect(tokens[winner] == v.tournament_wins, "tournament winner without enough tokens")
            _expect(games == len(summary["games"]), "tournament game count")
            summary["tournament"] = (winner, games, list(tokens))
            continue
        # ---- one hand
        ev = take("hand")
        hand_in_game, dealer = ev.hand_in_game, ev.dealer
        _expect(hand_in_game == game_hands, f"hand number {hand_in_game}, expected {game_hands}")
        if prev_dealer is not None:
            _expect(dealer == (prev_dealer + 1) % n, f"dealer {dealer} after {prev_dealer}")
        elif v.first_dealer != "random":
            _expect(dealer == v.first_dealer, "first dealer")
        prev_dealer = dealer
        if unit != "deal" and game_hands > 0:
            # a game that should have ended must not go on
            top = max(scores)
            _expect(not (top >= v.target_score and scores.count(top) == 1), "game went on after a winner")
        looked = [False] * n
        while True:
            hands = []
            for s in range(n):
                ev = take("deal")
                seat, mask = ev.seat, ev.hand
                _expect(seat == s, "deal order")
                hands.append({format_card(c) for c in cards_of(mask)})
            _check_deal(v, hands, dealer, full_deck)
            if pos < len(events) and events[pos].kind == "redeal":
                caller = take("redeal").caller
                _expect(v.misdeal_condition != "none", "redeal without a misdeal condition")
                if caller < 0:
                    _expect(not v.misdeal_optional and any(_deficient(v, h) for h in hands), "automatic redeal")
                else:
                    _expect(v.misdeal_optional and _deficient(v, hands[caller]), f"seat {caller} called a redeal")
                continue
            if v.misdeal_condition != "none" and not v.misdeal_optional:
                _expect(not any(_deficient(v, h) for h in hands), "deficient deal was not redealt")
            if v.misdeal_optional:
                looked = [_deficient(v, h) for h in hands]  # asked, so seen (kept)
            break
        bids: list[str] = [""] * n
        made_so_far: list[str] = []
        for i in range(n):
            ev = take("bid")
            seat, code, blind_flag, blind_mask, open_mask = ev.seat, ev.bid, ev.blind, ev.blind_mask, ev.open_mask
            s = (dealer + 1 + i) % n
            _expect(seat == s, f"bid order: seat {seat}, expected {s}")
            blind, others = legal_bids(v, s, dealer, scores, b6_used, made_so_far, looked[s])
            names = lambda m: {bid_name(c) for c in cards_of(m)}  # noqa: E731
            _expect(names(blind_mask) == blind and names(open_mask) == others,
                    f"seat {s}: legal bids {names(blind_mask)}/{names(open_mask)}, rules say {blind}/{others}")
            b = bid_name(code)
            _expect(b in (blind if blind_flag else others), f"seat {s}: illegal bid {b}")
            if b == "B6":
                b6_used[s] += 1
            bids[s] = b
            made_so_far.append(b)
        plays = []
        kernel_winners = []
        total = tricks_in_hand(v)
        for _ in range(total):
            while events[pos].kind == "play":
                plays.append(format_card(take("play").card))
            w = take("trick").winner
            kernel_winners.append(w)
        result = score_hand(v, [sorted(h) for h in hands], dealer, bids, plays, bags)
        _expect(result.winners == kernel_winners, f"trick winners {kernel_winners}, rules say {result.winners}")
        for s in range(n):
            ev = take("score")
            seat, delta, score, g = ev.seat, ev.delta, ev.score, ev.bags
            _expect(seat == s, "score order")
            _expect(delta == result.deltas[s], f"seat {s} bid {bids[s]} tricks {result.tricks[s]}: "
                                               f"delta {delta}, rules say {result.deltas[s]}")
            scores[s] += delta
            bags[s] = result.bags_after[s]
            _expect(score == scores[s] and g == bags[s], f"seat {s}: score/bags {score}/{g}, rules say "
                                                         f"{scores[s]}/{bags[s]}")
            if v.bag_mode == "accumulate":
                _expect(0 <= g < v.bag_limit, "bag counter out of range")
            elif v.bag_mode == "per_bag":
                _expect(g == 0, "per-bag counter")
        summary["hands"] += 1
        summary["bids"].append(bids)
        summary["tricks"].append(result.tricks)
        game_hands += 1
    return summary


def _check_deal(v, hands: list[set[str]], dealer: int, full_deck: set[str]) -> None:
    n = v.num_players
    union = set().union(*hands)
    _expect(sum(len(h) for h in hands) == len(union), "a card dealt twice")
    _expect(union == full_deck, f"dealt cards differ from the deck: {sorted(union ^ full_deck)}")
    size = len(full_deck) // n
    for s in range(n):
        want = size
        if n == 5 and v.jokers == 2:
            want = 10 if s == dealer else 11
        _expect(len(hands[s]) == want, f"seat {s} holds {len(hands[s])} cards, expected {want}")
