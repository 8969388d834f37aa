"""Double-dummy analysis of partnership Spades (docs/double-dummy.md).

Turns a simulated deal (regenerated from seed and index by the game's own kernel, as
``replay`` does) or a deal written as text into the solver's input with Spades' trick
rules (4.1-4.4): spades trump (jokers the two highest), spades must be broken, the
forced opening club and ``first_trick_trump_allowed``.
"""
from __future__ import annotations

from simcards.core import dd
from simcards.core.dd_text import marked_cards, parse_deal, play_text, table_text
from simcards.core.game import DoubleDummySupport
from simcards.games.spades import rules
from simcards.games.spades.kernel import prepared, run_kernel
from simcards.games.spades.replay import SEAT_NAMES, TEAM_NAMES, hand_text, replay

TEAMS = ((0, 2), (1, 3))


def solver_rules(variant, hands, trick1: bool = True):
    """(rules row, effective suit masks) of ``variant`` for a deal whose hands are ``hands``."""
    params, deck, masks = prepared(variant)
    forced = -1
    if variant.first_lead == "lowest_club" and variant.first_lead_card_forced:
        forced = min(int(c) for c in deck if int(c) < 13)  # the lowest club of the deck in use
    row = dd.rules_row(4, 3, lead_restrict=bool(variant.spades_must_be_broken), forced_lead=forced,
                       no_trump_trick1=not variant.first_trick_trump_allowed)
    return row, masks


def played_deal(variant, table, seed: int, index: int) -> dict:
    """Deal ``index`` of ``seed`` as the bots played it: hands at the start of play (after any
    exchange), first leader, the 52 cards in order, bids and tricks."""
    out, trace = run_kernel("deal", variant, table, seed, index, 1, trace_rows=1)
    t = [int(x) for x in trace[0]]
    hands = [0, 0, 0, 0]
    cards = []
    for k in range(13):
        leader = t[rules.T_LEADERS + k]
        for i in range(4):
            c = t[rules.T_PLAYS + 4 * k + i]
            hands[(leader + i) % 4] |= 1 << c
            cards.append(c)
    row = {name: int(v) for (name, _), v in zip(rules.DEAL_COLUMNS, out[0])}
    return {"hands": hands, "leader": t[rules.T_FIRST_LEADER], "cards": cards, "record": row,
            "dealer": t[rules.T_DEALER]}


def deal_table(variant, hands, trick1: bool = True, broken: bool = False, solver: dd.Table | None = None):
    """[[NS, EW] tricks for each seat on lead] of a deal."""
    row, masks = solver_rules(variant, hands, trick1)
    total = bin(hands[0]).count("1")
    ns = dd.table_by_leader(hands, row, masks, TEAMS[0], range(4), table=solver, trick1=trick1, broken=broken)
    return [[ns[s], total - ns[s]] for s in range(4)]


def play_costs(variant, deal: dict, solver: dd.Table | None = None) -> list[dict]:
    """Per card of the bots' play: the tricks it cost its partnership (``core.dd.play_costs``)."""
    row, masks = solver_rules(variant, deal["hands"])
    sides = [TEAMS[s % 2] for s in range(4)]
    return dd.play_costs(deal["hands"], row, masks, sides, deal["leader"], deal["cards"], table=solver)


def analyse(variant, table, *, seed: int | None = None, index: int | None = None, hands: str | None = None) -> str:
    """The text of ``simcards dd spades``: the double-dummy table, then the cost of each card played."""
    solver = dd.Table()
    lines = []
    if hands is not None:
        _, deck, _ = prepared(variant)
        deck_mask = sum(1 << int(c) for c in deck)
        masks = parse_deal(hands, 4, deck_mask, SEAT_NAMES)
        full = bin(masks[0]).count("1") == 13
        lines.append("Spades, deal given as text" + ("" if full else " (an ending: spades count as broken)"))
        for s in range(4):
            lines.append(f"  {SEAT_NAMES[s]:5} {hand_text(masks[s])}")
        rows = deal_table(variant, masks, trick1=full, broken=not full, solver=solver)
        lines.append(table_text("Double-dummy tricks by seat on lead:", list(TEAM_NAMES), list(SEAT_NAMES), rows))
        return "\n".join(lines)
    deal = played_deal(variant, table, seed, index)
    r = deal["record"]
    lines.append(f"Spades, seed {seed}, deal {index}: dealer {SEAT_NAMES[deal['dealer']]}, "
                 f"first lead {SEAT_NAMES[deal['leader']]}")
    lines.append("Hands at the start of play:")
    for s in range(4):
        lines.append(f"  {SEAT_NAMES[s]:5} {hand_text(deal['hands'][s])}")
    rows = deal_table(variant, deal["hands"], solver=solver)
    lines.append(table_text("Double-dummy tricks by seat on lead (trick 1):", list(TEAM_NAMES), list(SEAT_NAMES), rows))
    costs = play_costs(variant, deal, solver)
    lines.append("Bots' play: " + ", ".join(
        f"{TEAM_NAMES[t]} contract {r[f'contract{t}']}, won {r[f'won{t}']} "
        f"(double dummy from the actual lead: {rows[deal['leader']][t]})" for t in range(2)))
    lines.append(play_text(costs, [n[0] for n in SEAT_NAMES], lambda s: TEAM_NAMES[s % 2]))
    return "\n".join(lines)


def replay_dd(unit, variant, table, seed: int, index: int) -> str:
    """``replay --dd``: the replay, then every card that cost its partnership a trick."""
    if (unit or "deal") != "deal":
        from simcards.core.errors import SimcardsError

        raise SimcardsError("replay --dd analyses one deal: use --deal N")
    text = replay(unit, variant, table, seed, index)
    costs = play_costs(variant, played_deal(variant, table, seed, index))
    lines = [text, "", "Double dummy (every card seen, best play by all): cards that cost their side a trick"]
    lines.append(marked_cards(costs, SEAT_NAMES))
    return "\n".join(lines)


SUPPORT = DoubleDummySupport(analyse=analyse, replay=replay_dd)
