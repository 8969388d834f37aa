"""What `simcards dd` and `replay --dd` print, for any trick-taking game (docs/double-dummy.md).

A game adapter supplies the deal (hands at the start of play, first leader, the cards in
play order, trick winners), the solver's rules row and suit masks, and how seats form
sides: partnerships (zero-sum: one side's tricks are the rest's) or every seat alone
against all the others (the paranoid bound).
"""
from __future__ import annotations

import sys
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

import numpy as np

from simcards.core import dd
from simcards.core.cards import format_card
from simcards.core.errors import SimcardsError
from simcards.core.dd_text import marked_cards, play_text, table_text


@dataclass(frozen=True)
class Sides:
    """How a game's seats are measured: ``members[i]`` the seats of side ``i``."""

    members: tuple[tuple[int, ...], ...]
    names: tuple[str, ...]
    seat_names: tuple[str, ...]

    @property
    def zero_sum(self) -> bool:
        return len(self.members) == 2 and sum(len(m) for m in self.members) == len(self.seat_names) \
            and all(len(m) > 1 for m in self.members)

    def side_of(self, seat: int) -> int:
        return next(i for i, m in enumerate(self.members) if seat in m)


_PROGRESS: ContextVar[bool] = ContextVar("dd_progress", default=False)


@contextmanager
def progress(enabled: bool = True):
    """Within the block, the analyses below show a progress bar on stderr (one step per
    position solved): ``simcards dd`` and ``replay --dd`` on a terminal."""
    token = _PROGRESS.set(bool(enabled))
    try:
        yield
    finally:
        _PROGRESS.reset(token)


class _NoBar:
    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def _bar(total: int, desc: str):
    return _make_bar(total, desc) if _PROGRESS.get() else _NoBar()


def _make_bar(total: int, desc: str):
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit=" positions", file=sys.stderr, leave=False, mininterval=0.5)


def check_from_trick(deal: dict, from_trick: int) -> None:
    """``from_trick`` names a trick of the played ``deal`` (1 .. its number of tricks)."""
    tricks = len(deal["winners"])
    if not 1 <= from_trick <= tricks:
        raise SimcardsError(f"--from-trick must be a trick of this deal, 1 to {tricks}, got {from_trick}")


def leader_table(hands, rules, masks, sides: Sides, leaders, *, trick1: bool = True, broken: bool = False,
                 solver: dd.Table | None = None, bar=None) -> list[list[int]]:
    """[[tricks of each side] for each seat on lead]: best play by all (paranoid for a lone seat).
    ``bar``: advanced by one for each seat on lead."""
    solver = solver or dd.Table()
    solver.fresh()
    total = max(bin(int(h)).count("1") for h in hands)
    rows = []
    for ld in leaders:  # the previous leader's answer is the first guess for the next
        if sides.zero_sum:
            first = dd.solve(hands, rules, sides.members[0], masks, leader=ld, trick1=trick1, broken=broken, table=solver,
                             guess=rows[-1][0] if rows else -1)
            rows.append([first, total - first])
        else:
            rows.append([dd.solve(hands, rules, m, masks, leader=ld, trick1=trick1, broken=broken, table=solver,
                                  guess=rows[-1][i] if rows else -1)
                         for i, m in enumerate(sides.members)])
        if bar is not None:
            bar.update(1)
    return rows


def costs(deal: dict, rules, masks, sides: Sides, *, first_trick: int = 0, solver: dd.Table | None = None, bar=None):
    """Per card of ``deal``'s play: what it cost the side of the seat that played it (``bar``:
    advanced by one a card analysed)."""
    per_seat = [sides.members[sides.side_of(s)] for s in range(len(sides.seat_names))]
    return dd.play_costs(deal["hands"], rules, masks, per_seat, deal["leader"], deal["cards"], table=solver,
                         zero_sum=sides.zero_sum, first_trick=first_trick,
                         tick=None if bar is None else lambda: bar.update(1))


def _cards_from(deal: dict, rules, from_trick: int) -> int:
    """How many cards of the play lie in trick ``from_trick`` (1-based) and the later ones."""
    n = int(rules[dd.R_SEATS])
    before = 0 if from_trick == 1 else (n - (int(rules[dd.R_SITOUT_T1]) >= 0)) + n * (from_trick - 2)
    return max(len(deal["cards"]) - before, 0)


def deal_record(deal: dict, rules, masks, sides: Sides, solver: dd.Table | None = None,
                steps: list[dict] | None = None) -> tuple[list[int], list[int]]:
    """(tricks of each side double dummy from the actual opening lead, tricks each seat's cards
    cost its side) of a played deal: the numbers of ``run --records dd``. ``steps``: the
    deal's :func:`costs`, when the caller has them already."""
    solver = solver or dd.Table()
    steps = steps if steps is not None else costs(deal, rules, masks, sides, solver=solver)
    lead = sides.side_of(deal["leader"])
    tricks = [0] * len(sides.members)
    tricks[lead] = steps[0]["best"]
    if sides.zero_sum:
        tricks[1 - lead] = len(deal["winners"]) - tricks[lead]
    else:  # each other side alone against the rest, on the table the costs filled (keyed by side)
        for i, members in enumerate(sides.members):
            if i != lead:
                tricks[i] = dd.solve(deal["hands"], rules, members, masks, leader=deal["leader"], trick1=True,
                                     table=solver, guess=tricks[lead])
    lost = [0] * len(sides.seat_names)
    for step in steps:
        lost[step["seat"]] += step["cost"]
    return tricks, lost


DECISION_KINDS = ("lead", "second", "third", "fourth", "early", "late")  # early: tricks 1-8
LATE_FROM = 8  # 0-based trick from which a decision is "late" (the last five of 13)


def decisions(deal: dict, steps: list[dict], rules, masks):
    """The cards of ``steps`` (:func:`costs` of the whole play) chosen from two or more legal
    cards, each as ``(step, position in the trick (0 lead .. 3 fourth hand), tricks each
    seat had taken before it, cards in the hand of the seat to play before it plays)``."""
    n = int(rules[dd.R_SEATS])
    R = np.asarray(rules, np.int64)
    suit_masks = np.asarray(masks, np.uint64)
    hands = [int(h) for h in deal["hands"]]
    taken = [0] * n
    tc = np.zeros(8, np.int64)
    trump = dd.trump_of(rules)
    broken = False
    k = 0  # cards of the trick in progress
    if steps and steps[0]["trick"] != 0:
        raise ValueError("decisions() reads the play from the first trick (costs with first_trick=0)")
    out = []
    for step in steps:
        seat, c, t = step["seat"], step["card"], step["trick"]
        legal = int(dd.legal_mask(R, np.uint64(hands[seat]), suit_masks, np.int64(k), tc, np.int64(broken),
                                  np.int64(t == 0)))
        if bin(legal).count("1") >= 2:
            out.append((step, k, list(taken), bin(hands[seat]).count("1")))
        hands[seat] &= ~(1 << c)
        broken = broken or (trump >= 0 and int(masks[trump]) >> c & 1 == 1)
        tc[k] = c
        k += 1
        players = n - 1 if (t == 0 and int(rules[dd.R_SITOUT_T1]) >= 0) else n
        if k == players:
            taken[deal["winners"][t]] += 1
            k = 0
    return out


def seat_columns(width: int, lone: str = "alone against all the others (paranoid bound)") -> tuple:
    """The ``run --records dd`` columns of a game without partnerships: per seat (``width``
    seats, -1 beyond the table) the double-dummy tricks and the tricks its cards cost."""
    from simcards.core.game import Column

    return (tuple(Column(f"dd_tricks_{s}", f"seat {s}: tricks it takes double dummy from the actual opening lead, "
                                           f"{lone} (-1: no such seat)") for s in range(width))
            + tuple(Column(f"dd_lost_{s}", f"seat {s}: tricks its cards cost it against double-dummy play "
                                           "(-1: no such seat)") for s in range(width)))


def seat_records(deals, sides: Sides, width: int) -> np.ndarray:
    """The :func:`seat_columns` of ``deals`` (an iterable of ``(deal, rules row, suit masks)``)."""
    rows = []
    solver = dd.Table()
    for deal, rules, masks in deals:
        tricks, lost = deal_record(deal, rules, masks, sides, solver)
        pad = [-1] * (width - len(tricks))
        rows.append(tricks + pad + lost + pad)
    return np.array(rows, np.int64).reshape(len(rows), 2 * width)


def seat_tally(df, seats: int, rows=None):
    """Metrics of :func:`seat_columns` (additive tally rows): mean double-dummy tricks and trick
    loss per seat and over all seats, and the loss per card played."""
    from simcards.core import stats

    rows = rows or stats.TallyRows()
    n = len(df)
    seat = np.repeat(np.arange(seats), n)
    labels = tuple(f"seat{s}" for s in range(seats))
    per_seat = lambda name: np.concatenate([df[f"{name}_{s}"].to_numpy() for s in range(seats)])  # noqa: E731
    record = stats.record_index(n, seats)
    rows.add("dd_tricks", "mean", per_seat("dd_tricks"), by=seat, labels=labels)
    rows.add("dd_lost", "mean", per_seat("dd_lost"), by=seat, labels=labels)
    rows.add("dd_lost_all", "mean", per_seat("dd_lost"), record=record)
    return rows


def analysis_text(head: str, deal: dict, rules, masks, sides: Sides, hand_text, *, from_trick: int = 1,
                  result_line: str = "", paranoid_note: bool = False) -> str:
    """The table by seat on lead (from trick 1 only) and the marked play of a simulated deal."""
    check_from_trick(deal, from_trick)
    solver = dd.Table()
    n = len(sides.seat_names)
    leaders = [s for s in range(n) if deal.get("sitout", -1) != s]
    bar = _bar((len(leaders) if from_trick == 1 else 0) + _cards_from(deal, rules, from_trick), "double dummy")
    lines = [head, "Hands at the start of play:"]
    width = max(len(x) for x in sides.seat_names)
    for s in range(n):
        lines.append(f"  {sides.seat_names[s]:{width}} {hand_text(deal['hands'][s])}")
    if paranoid_note:
        lines.append("Each player is measured alone against all the others together (the paranoid bound).")
    try:
        if from_trick == 1:
            rows = leader_table(deal["hands"], rules, masks, sides, leaders, solver=solver, bar=bar)
            lines.append(table_text("Double-dummy tricks by seat on lead (trick 1):", list(sides.names),
                                    [sides.seat_names[s] for s in leaders], rows))
        steps = costs(deal, rules, masks, sides, first_trick=from_trick - 1, solver=solver, bar=bar)
    finally:
        bar.close()
    if result_line:
        lines.append(result_line)
    first = steps[0]
    side = sides.side_of(first["seat"])
    taken = sum(1 for k in range(from_trick - 1) if sides.side_of(deal["winners"][k]) == side)
    lines.append(f"From trick {from_trick} ({sides.seat_names[first['seat']]} to play): {sides.names[side]} "
                 f"can take {taken + first['best']} tricks in all double dummy ({taken} already won)")
    lines.append(play_text(steps, [x[0] for x in sides.seat_names], lambda s: sides.names[sides.side_of(s)]))
    return "\n".join(lines)


def table_only_text(head: str, hands, rules, masks, sides: Sides, hand_text, *, full: bool) -> str:
    """The table of a deal written as text (an ending when the hands hold fewer cards)."""
    n = len(sides.seat_names)
    width = max(len(x) for x in sides.seat_names)
    lines = [head + ("" if full else " (an ending: spades count as broken, no trick-1 rule applies)")]
    for s in range(n):
        lines.append(f"  {sides.seat_names[s]:{width}} {hand_text(hands[s])}")
    bar = _bar(n, "double dummy")
    try:
        rows = leader_table(hands, rules, masks, sides, range(n), trick1=full, broken=not full, bar=bar)
    finally:
        bar.close()
    lines.append(table_text("Double-dummy tricks by seat on lead:", list(sides.names), list(sides.seat_names), rows))
    return "\n".join(lines)


def marked_text(replay_text: str, deal: dict, rules, masks, sides: Sides, *, from_trick: int = 1) -> str:
    """A replay followed by every card that cost its side a trick double dummy."""
    check_from_trick(deal, from_trick)
    bar = _bar(_cards_from(deal, rules, from_trick), "double dummy")
    try:
        steps = costs(deal, rules, masks, sides, first_trick=from_trick - 1, bar=bar)
    finally:
        bar.close()
    head = "Double dummy (every card seen, best play by all): cards that cost their side a trick"
    return "\n".join([replay_text, "", head + (f", from trick {from_trick}" if from_trick > 1 else ""),
                      marked_cards(steps, sides.seat_names)])


def event_rows(events) -> list[tuple]:
    """Trace events (named tuples of their declared fields) as full-width rows ``(event, a .. e)``."""
    return [tuple(int(x) for x in ev) + (0,) * (6 - len(ev)) for ev in events]


def card_list(cards) -> str:
    return " ".join(format_card(c) for c in cards)
