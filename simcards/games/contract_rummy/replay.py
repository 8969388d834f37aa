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


def format_trace(tr: np.ndarray, variant) -> str:
    """Turn trace rows into text."""
    wrap = variant.ace_mode == "wrap"
    lines: list[str] = []
    melds: list[MeldText] = []
    hands: dict[int, np.ndarray] = {}
    open_meld = -1  # meld whose cards are being listed (printed when complete)
    for row in tr:
        code, seat, a, b, c, d = (int(x) for x in row)
        if open_meld >= 0 and not (code == R.E_MCARD and a == open_meld):
            m = melds[open_meld]
            lines.append(f"      {'contract' if m.contract else 'new'} meld {m.text()}")
            open_meld = -1
        if code == R.E_DEAL:
            melds, hands = [], {}
            lines += ["", f"=== Deal {a}: contract {c} set(s) + {d} run(s), {b} cards each, dealer seat {seat} ==="]
        elif code == R.E_HAND:
            hands.setdefault(seat, np.zeros(NT, np.int64))[a] += b
        elif code == R.E_UPCARD:
            lines += [f"  seat {q}: {hand_text(hands[q])}" for q in sorted(hands)]
            lines.append(f"  first discard: {type_name(a)}")
        elif code == R.E_TURN:
            lines.append(f"turn {a:>3} seat {seat}:")
        elif code == R.E_DRAW_STOCK:
            lines.append(f"    draws {type_name(a)} from the stock")
        elif code == R.E_REFILL:
            lines.append(f"    (stock empty: {a} pile cards reshuffled into the stock)")
        elif code == R.E_TAKE_TOP:
            lines.append(f"    takes {type_name(a)} from the pile")
        elif code == R.E_DEEP:
            lines.append(f"    deep take, depth {a}, target {type_name(b)}:")
        elif code == R.E_DEEP_CARD:
            lines.append(f"      takes {type_name(a)}")
        elif code == R.E_BUY:
            lines.append(f"    seat {seat} buys {type_name(a)}")
        elif code == R.E_BUY_STOCK:
            lines.append(f"      and takes {type_name(a)} from the stock")
        elif code == R.E_CONTRACT:
            lines.append("    lays down the contract" + (" and goes out" if c else "") + ":")
        elif code == R.E_MELD:
            melds.append(MeldText(b, c, seat, d, wrap))
            open_meld = a
        elif code == R.E_MCARD:
            melds[a].add(b, c)
        elif code == R.E_LAYOFF:
            before = melds[a].text()
            melds[a].add(b, c)
            lines.append(f"    lays off {card_in_meld(melds[a].kind, melds[a].key, b, c, wrap)} on {before} "
                         f"(seat {melds[a].owner}'s) -> {melds[a].text()}")
        elif code == R.E_SWAP:
            m = melds[a]
            if m.kind == 1:
                m.cards[c] = type_name(b)
            else:
                m.set_cards[m.set_cards.index(card_in_meld(0, m.key, JOKER, c, wrap))] = type_name(b)
            lines.append(f"    swaps {type_name(b)} for the joker in {m.text()}; the joker goes to his hand")
        elif code == R.E_DISCARD:
            lines.append(f"    discards {type_name(a)}")
        elif code == R.E_OUT:
            lines.append(f"    seat {seat} goes out" + (" by discarding" if a else " without a discard"))
        elif code == R.E_EXHAUSTED:
            lines.append(f"  deal exhausted after {b} turns: {_EXH.get(a, a)}")
        elif code == R.E_SCORE:
            if seat == 0:
                lines.append("  table: " + (" ".join(m.text() for m in melds) or "(no melds)"))
            lines.append(f"  seat {seat}: {a} penalty points (total {b})")
        elif code == R.E_GAME_END:
            winners = [q for q in range(8) if (a >> q) & 1]
            lines += ["", "Game over; winner(s): " + ", ".join(f"seat {q}" for q in winners)]
        elif code == R.E_ENGINE_FALLBACK:
            lines.append("    (engine: no legal meld phase found; nothing laid)")
    return "\n".join(lines)


def replay_text(unit, variant, table, seed, index) -> str:
    """The ``simcards replay`` text of record ``index`` of ``seed``."""
    from simcards.games.contract_rummy.sim import run_chunk

    name = getattr(unit, "name", unit)
    _, tr = run_chunk(name, variant, table, seed, index, 1, trace_rows=400_000)
    head = (f"Contract Rummy, {name} {index} of seed {seed}: {variant.num_players} players, "
            f"{variant.decks()} deck(s), {variant.jokers()} joker(s)")
    return head + "\n" + format_trace(tr, variant)
