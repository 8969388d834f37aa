"""Readable trace of one Seep record: the bid, every move with the floor after it, the score."""
from __future__ import annotations

import numpy as np

from simcards.core.cards import cards_of, format_card
from simcards.core.errors import kernel_errors
from simcards.games.seep.cards import VAL, mask_sum
from simcards.games.seep.layout import (
    ADD, BREAK, BUILD, CAPTURE, EVENTS, S_BID, S_BIDDER, S_CARD_PTS, S_D, S_DEALER, S_HANDS,
    S_HOUSE, S_LEFTOVER, S_NPLAYERS, S_LEFTOVER_TEAM, S_LOOSE, S_OPEN_FLOOR, S_OPEN_HAND, S_OWNERS, S_REDEALS,
    S_SCORE, S_SWEEP_PTS, ST_SIZE, plays,
)
from simcards.games.seep.policies import DECISIONS
from simcards.games.seep.rules import seats, trace_kernel

TEAM = "AB"


def cards_text(mask: int) -> str:
    """Cards of a mask in notation, ascending by value then suit."""
    cs = sorted(cards_of(int(mask)), key=lambda c: (VAL[c], c))
    return " ".join(format_card(c) for c in cs)


def house_text(st, v: int) -> str:
    owners = ",".join(f"P{s}" for s in range(4) if int(st[S_OWNERS + v]) >> s & 1)
    kind = "cemented" if mask_sum(int(st[S_HOUSE + v])) > v else "ordinary"
    return f"H{v}{{{cards_text(st[S_HOUSE + v])}}} {kind} owner {owners}"


def floor_text(st) -> str:
    parts = [house_text(st, v) for v in range(14) if st[S_HOUSE + v]]
    loose = cards_text(st[S_LOOSE])
    parts.append(f"loose {loose}" if loose else "no loose cards")
    return "; ".join(parts)


def move_text(st, move) -> str:
    """A move (a ``legal`` trace event) in the rules' notation (section 9), given the state before it."""
    kind, card, target, loose, house = move.move, move.card, move.target, move.loose, move.house
    c = format_card(card)
    if kind == CAPTURE:
        items = []
        if house:
            items.append(f"H{target}{{{cards_text(st[S_HOUSE + target])}}}")
        if loose:
            items.append(cards_text(loose))
        return f"CAPTURE {c}: " + " ".join(items)
    if kind in (BUILD, ADD):
        head = f"BUILD {target}" if kind == BUILD else f"ADD H{target}"
        return f"{head}: {c}" + (f" + {cards_text(loose)}" if loose else "")
    if kind == BREAK:
        return f"BREAK H{target - VAL[card]}\u2192{target}: {c}"
    return f"THROW {c}"


def trace(variant, table, seed: int, index: int, deal: int = 0, dealer: int | None = None, D: int = 0):
    """Run deal ``deal`` of record ``index`` with a trace: (states[49], events).

    ``states[k]`` is the full state before play ``k + 1`` (``states[48]``: after scoring);
    ``events`` are the named ``layout.EVENTS`` (``layout.plays`` groups them by play).
    """
    from simcards.games.seep.rules import first_dealer

    params = variant.to_params()
    if dealer is None:
        dealer = int(first_dealer(params, int(seed), int(index)))
    tr_state = np.zeros((49, ST_SIZE), np.int64)

    def run(events):
        with kernel_errors("seep", DECISIONS, table):
            trace_kernel(params, seats(table), int(seed), int(index), int(deal), int(dealer), int(D),
                         np.zeros(ST_SIZE, np.int64), events, tr_state)

    return tr_state, EVENTS.collect(run, 8192)[1]


def format_trace(tr_state, events) -> str:
    """The text of a traced deal (``trace``'s states and events)."""
    first, last = tr_state[0], tr_state[48]
    dealer, bidder = int(first[S_DEALER]), int(first[S_BIDDER])
    lines = [f"Dealer P{dealer}, bidder P{bidder}; running difference D = {int(first[S_D])}"]
    if first[S_REDEALS]:
        lines.append(f"{int(first[S_REDEALS])} redeal(s): the bidder held no card for a bid")
    lines.append(f"P{bidder} holds {cards_text(first[S_OPEN_HAND])} and bids {int(first[S_BID])}")
    lines.append(f"Floor turned up: {cards_text(first[S_OPEN_FLOOR])}")
    for play, legal in plays(events):
        k, p, n = play.k, play.seat, play.legal
        st = tr_state[k - 1]
        row = legal[play.choice]
        after = tr_state[k]
        if k == 2 or (k == 25 and first[S_NPLAYERS] == 2):
            lines.append("Cards dealt: " + "; ".join(
                f"P{s} {cards_text(st[S_HANDS + s])}" for s in range(int(first[S_NPLAYERS]))))
        text = f"{k:2d}. P{p} ({n:2d} legal) {move_text(st, row)}"
        if k < 48:
            text += f"  | {floor_text(after)}"
        swept = (row.move == CAPTURE and not any(after[S_HOUSE + v] for v in range(14))
                 and (not after[S_LOOSE] if k < 48 else not after[S_LEFTOVER]))
        if swept:
            gained = max(int(after[S_SWEEP_PTS + t] - st[S_SWEEP_PTS + t]) for t in range(2))
            text += f"  SWEEP (+{gained})"
        lines.append(text)
    if last[S_LEFTOVER]:
        lines.append(f"Leftover {cards_text(last[S_LEFTOVER])} to team {TEAM[int(last[S_LEFTOVER_TEAM])]}")
    lines.append(
        f"Card points A {int(last[S_CARD_PTS])}, B {int(last[S_CARD_PTS + 1])}; sweeps A {int(last[S_SWEEP_PTS])}, "
        f"B {int(last[S_SWEEP_PTS + 1])}; deal score A {int(last[S_SCORE])}, B {int(last[S_SCORE + 1])}")
    return "\n".join(lines)


def replay(unit: str, variant, table, seed: int, index: int) -> str:
    """Trace of record ``index``: one deal, or every deal of a baazi or match record."""
    from simcards.games.seep.rules import baazi_step, first_dealer, next_dealer

    if unit == "deal":
        return format_trace(*trace(variant, table, seed, index))
    params = variant.to_params()
    dealer = int(first_dealer(params, int(seed), int(index)))
    wins = [0, 0]
    parts = []
    j = baazis = capped = 0
    while True:
        D, deals = 0, 0
        baazis += 1
        parts.append(f"=== Baazi {baazis} ===")
        while True:
            states, events = trace(variant, table, seed, index, deal=j, dealer=dealer, D=D)
            parts.append(f"--- Deal {j + 1} ---")
            parts.append(format_trace(states, events))
            j += 1
            deals += 1
            D, loser, by_min = (int(x) for x in baazi_step(params, D, states[48]))
            last = states[48]
            dealer = int(next_dealer(params, dealer, D, int(last[S_SCORE]), int(last[S_SCORE + 1]), loser))
            if loser >= 0:
                winner = 1 - loser
                wins[winner] += 1
                how = "the 9-point rule" if by_min else "the lead"
                parts.append(f"Team {TEAM[winner]} wins baazi {baazis} by {how}; next dealer P{dealer}")
                break
            parts.append(f"D = {D:+d}; next dealer P{dealer}")
            if variant.max_deals_per_baazi and deals >= variant.max_deals_per_baazi:
                capped += 1
                parts.append(f"Baazi {baazis} stopped by max_deals_per_baazi")
                break
        if unit == "baazi":
            break
        n = variant.match_baazis
        if variant.match_mode == "fixed_count" and baazis >= n:
            break
        if variant.match_mode == "first_to" and (max(wins) >= n or baazis >= 1000 * n):
            break
    if unit == "match":
        parts.append(f"Match: team A {wins[0]} baazi(s), team B {wins[1]}")
    return "\n".join(parts)
