"""Readable trace of one record: every deal's hands, draws, melds, lay-offs, discards, scores."""
from __future__ import annotations

import numpy as np

from simcards.games.contract_rummy import rules as R
from simcards.games.contract_rummy.melds import JOKER, NT
from simcards.games.contract_rummy.notation import hand_text, type_name
from simcards.core.cards import RANKS, SUITS

_EXH = {R.EXH_CAP: "turn cap reached", R.EXH_NO_DRAW: "no legal draw", R.EXH_EMPTY_STOCK: "stock empty (end_deal)"}


def pos_name(ace_wrap: bool, pos: int) -> str:
    if ace_wrap:
        return RANKS[pos % 13]
    return "A" if pos in (1, 14) else RANKS[pos - 2]


def card_in_meld(kind: int, key: int, t: int, slot: int, wrap: bool) -> str:
    """``7H`` or ``JK=7H`` for a card placed at ``slot`` of a set (suit) or run (position)."""
    if t != JOKER:
        return type_name(t)
    if kind == 0:
        return f"JK={RANKS[key]}{SUITS[slot]}"
    return f"JK={pos_name(wrap, slot)}{SUITS[key]}"


class MeldText:
    """A meld being rebuilt from the trace, for printing."""

    def __init__(self, kind, key, owner, contract, wrap):
        self.kind, self.key, self.owner, self.contract, self.wrap = kind, key, owner, contract, wrap
        self.cards: dict = {}  # run: pos -> text; set: list
        self.set_cards: list = []

    def add(self, t, slot):
        text = card_in_meld(self.kind, self.key, t, slot, self.wrap)
        if self.kind == 1:
            self.cards[slot] = text
        else:
            self.set_cards.append(text)

    def text(self):
        if self.kind == 1:
            return "{" + " ".join(self.cards[p] for p in run_order(self.cards, self.wrap)) + "}"
        return "{" + " ".join(self.set_cards) + "}"


def run_order(positions, wrap: bool) -> list[int]:
    """A run's positions in playing order. Under ``ace_mode=wrap`` positions are cyclic
    (mod 13), so the run starts after the largest gap: K A 2 3 4, not A 2 3 4 K."""
    order = sorted(positions)
    if not wrap or len(order) < 2:
        return order
    gaps = [(order[(i + 1) % len(order)] - order[i]) % 13 for i in range(len(order))]
    if gaps[-1] == max(gaps):  # the largest gap is already between the last and the first
        return order
    start = gaps.index(max(gaps)) + 1
    return order[start:] + order[:start]


def format_trace(events, variant) -> str:
    """Turn trace events (``rules.EVENTS.read``) into text."""
    wrap = variant.ace_mode == "wrap"
    lines: list[str] = []
    melds: list[MeldText] = []
    hands: dict[int, np.ndarray] = {}
    open_meld = -1  # meld whose cards are being listed (printed when complete)
    for ev in events:
        kind = ev.kind
        if open_meld >= 0 and not (kind == "mcard" and ev.meld == open_meld):
            m = melds[open_meld]
            lines.append(f"      {'contract' if m.contract else 'new'} meld {m.text()}")
            open_meld = -1
        if kind == "deal":
            melds, hands = [], {}
            lines += ["", f"=== Deal {ev.deal_no}: contract {ev.sets} set(s) + {ev.runs} run(s), "
                          f"{ev.hand_size} cards each, dealer seat {ev.dealer} ==="]
        elif kind == "hand":
            hands.setdefault(ev.seat, np.zeros(NT, np.int64))[ev.card] += ev.count
        elif kind == "upcard":
            lines += [f"  seat {q}: {hand_text(hands[q])}" for q in sorted(hands)]
            lines.append(f"  first discard: {type_name(ev.card)}")
        elif kind == "turn":
            lines.append(f"turn {ev.turn:>3} seat {ev.seat}:")
        elif kind == "draw_stock":
            lines.append(f"    draws {type_name(ev.card)} from the stock")
        elif kind == "refill":
            lines.append(f"    (stock empty: {ev.cards} pile cards reshuffled into the stock)")
        elif kind == "take_top":
            lines.append(f"    takes {type_name(ev.card)} from the pile")
        elif kind == "deep":
            lines.append(f"    deep take, depth {ev.depth}, target {type_name(ev.target)}:")
        elif kind == "deep_card":
            lines.append(f"      takes {type_name(ev.card)}")
        elif kind == "buy":
            lines.append(f"    seat {ev.seat} buys {type_name(ev.card)}")
        elif kind == "buy_stock":
            lines.append(f"      and takes {type_name(ev.card)} from the stock")
        elif kind == "contract":
            lines.append("    lays down the contract" + (" and goes out" if ev.goes_out else "") + ":")
        elif kind == "meld":
            melds.append(MeldText(ev.is_run, ev.key, ev.seat, ev.contract, wrap))
            open_meld = ev.meld
        elif kind == "mcard":
            melds[ev.meld].add(ev.card, ev.slot)
        elif kind == "layoff":
            m = melds[ev.meld]
            before = m.text()
            m.add(ev.card, ev.slot)
            lines.append(f"    lays off {card_in_meld(m.kind, m.key, ev.card, ev.slot, wrap)} on {before} "
                         f"(seat {m.owner}'s) -> {m.text()}")
        elif kind == "swap":
            m = melds[ev.meld]
            if m.kind == 1:
                m.cards[ev.slot] = type_name(ev.card)
            else:
                m.set_cards[m.set_cards.index(card_in_meld(0, m.key, JOKER, ev.slot, wrap))] = type_name(ev.card)
            lines.append(f"    swaps {type_name(ev.card)} for the joker in {m.text()}; the joker goes to his hand")
        elif kind == "discard":
            lines.append(f"    discards {type_name(ev.card)}")
        elif kind == "out":
            lines.append(f"    seat {ev.seat} goes out" + (" by discarding" if ev.by_discard else " without a discard"))
        elif kind == "exhausted":
            lines.append(f"  deal exhausted after {ev.turns} turns: {_EXH.get(ev.why, ev.why)}")
        elif kind == "score":
            if ev.seat == 0:
                lines.append("  table: " + (" ".join(m.text() for m in melds) or "(no melds)"))
            lines.append(f"  seat {ev.seat}: {ev.points} penalty points (total {ev.total})")
        elif kind == "game_end":
            winners = [q for q in range(8) if (ev.winners >> q) & 1]
            lines += ["", "Game over; winner(s): " + ", ".join(f"seat {q}" for q in winners)]
        elif kind == "engine_fallback":
            lines.append("    (engine: no legal meld phase found; nothing laid)")
    return "\n".join(lines)


def replay_text(unit, variant, table, seed, index) -> str:
    """The ``simcards replay`` text of record ``index`` of ``seed``."""
    from simcards.games.contract_rummy.sim import run_chunk

    name = getattr(unit, "name", unit)
    _, events = run_chunk(name, variant, table, seed, index, 1, trace_rows=50_000)
    head = (f"Contract Rummy, {name} {index} of seed {seed}: {variant.num_players} players, "
            f"{variant.decks()} deck(s), {variant.jokers()} joker(s)")
    return head + "\n" + format_trace(events, variant)
