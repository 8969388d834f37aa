"""Text in and out of double-dummy analysis, shared by the trick-taking games.

No numba here: parsing a deal written as text, and the tables ``simcards dd`` prints.
"""
from __future__ import annotations

from simcards.core.cards import format_card, mask_of, parse_cards
from simcards.core.errors import SimcardsError


def parse_deal(text: str, seats: int, deck_mask: int, names) -> list[int]:
    """Hands written ``"AS KS ... / QH ... / ..."`` (one group per seat, in seat order) as masks.

    Every hand holds the same number of cards (an ending is fine), no card twice, every
    card in the deck in use.
    """
    groups = [g for g in text.split("/")]
    if len(groups) != seats:
        raise SimcardsError(f"--hand needs {seats} hands separated by '/', in seat order "
                            f"({', '.join(names[:seats])}); got {len(groups)}")
    hands = []
    seen = 0
    for name, g in zip(names, groups):
        cards = parse_cards(g)
        m = mask_of(cards)
        if m & ~deck_mask:
            bad = [format_card(c) for c in cards if not deck_mask >> c & 1]
            raise SimcardsError(f"{name}'s hand holds {' '.join(bad)}, not in the deck of these rules")
        if m & seen:
            dup = [format_card(c) for c in cards if seen >> c & 1]
            raise SimcardsError(f"{' '.join(dup)} written in two hands")
        seen |= m
        hands.append(m)
    counts = {bin(h).count("1") for h in hands}
    if len(counts) != 1 or 0 in counts:
        raise SimcardsError("every hand of --hand must hold the same number of cards, at least one "
                            f"(got {', '.join(str(bin(h).count('1')) for h in hands)})")
    return hands


def table_text(title: str, sides: list[str], leaders: list[str], rows: list[list[int]]) -> str:
    """The double-dummy table: one row per seat on lead, one column per side."""
    width = max(len(x) for x in leaders + ["on lead"])
    lines = [title, "  " + "on lead".ljust(width) + "".join(f"{s:>6}" for s in sides)]
    for name, row in zip(leaders, rows):
        lines.append("  " + name.ljust(width) + "".join(f"{v:>6}" for v in row))
    return "\n".join(lines)


def play_text(costs: list[dict], short_names, side_name) -> str:
    """The played hand trick by trick; a card that cost its side tricks carries ``(-k)``.

    ``short_names[s]``: one letter for seat ``s``; ``side_name(s)``: the side a seat's cost
    is counted for (its partnership, or the seat itself).
    """
    lines = ["The bots' play; a card marked (-k) cost its side k tricks against the best card at that point",
             "(double dummy: every card seen, best play by all from then on)."]
    by_trick: dict[int, list[dict]] = {}
    for step in costs:
        by_trick.setdefault(step["trick"], []).append(step)
    for t, steps in by_trick.items():
        cards = "  ".join(f"{short_names[s['seat']]} {format_card(s['card'])}"
                          + (f"(-{s['cost']})" if s["cost"] > 0 else "") for s in steps)
        lines.append(f"  {t + 1:2}. {cards}")
    lost: dict[str, int] = {}
    for step in costs:
        key = side_name(step["seat"])
        lost[key] = lost.get(key, 0) + step["cost"]
    lines.append("Tricks lost to double-dummy play: " + ", ".join(f"{k} {v}" for k, v in lost.items()))
    return "\n".join(lines)


def marked_cards(costs: list[dict], names) -> str:
    """One line per card that cost a trick: where, who (``names[seat]``), what, how much."""
    bad = [s for s in costs if s["cost"] > 0]
    if not bad:
        return "No card cost a trick double dummy."
    return "\n".join(f"  trick {s['trick'] + 1:2}: {names[s['seat']]} {format_card(s['card'])} cost {s['cost']}"
                     f" (could take {s['best']}, took {s['after']} with best play after it)" for s in bad)
