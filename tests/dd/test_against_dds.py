"""Bridge mode (4 seats, 52 cards, no spades-broken rule): the solver agrees with DDS (endplay)
on a sample of endings (every strain, every seat on lead) and of full deals (every seat on
lead). scripts/dd_check.py runs the large checks."""
import numpy as np
import pytest

endplay = pytest.importorskip("endplay")

from simcards.core import dd  # noqa: E402
from simcards.core.cards import SUIT_MASKS  # noqa: E402


def pbn(hands):
    out = []
    for h in hands:
        out.append(".".join("".join("23456789TJQKA"[r] for r in range(12, -1, -1) if h >> (13 * s + r) & 1)
                            for s in (3, 2, 1, 0)))
    return "N:" + " ".join(out)


def random_hands(rng, cards_each=13):
    deck = rng.permutation(52)
    return [sum(1 << int(c) for c in deck[cards_each * s: cards_each * (s + 1)]) for s in range(4)]


def dds_leader_tricks(hands, trump_denom, leader):
    """DDS's tricks for the side on lead (SolveBoard, one optimal card)."""
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal, Player

    deal = Deal(pbn(hands))
    deal.first = Player(leader)
    deal.trump = trump_denom
    return max(t for _, t in solve_board(deal, SolveMode.OptimalOne))


def test_endings_agree_with_dds_every_strain_and_leader():
    """Seven-card endings."""
    from endplay.types import Denom

    rng = np.random.default_rng(17)
    table = dd.Table(16)
    strains = {Denom.clubs: 0, Denom.diamonds: 1, Denom.hearts: 2, Denom.spades: 3, Denom.nt: -1}
    for _ in range(5):
        hands = random_hands(rng, 7)
        for denom, trump in strains.items():
            rules = dd.rules_row(4, trump)
            table.fresh()
            for leader in range(4):
                got = dd.solve(hands, rules, [leader, (leader + 2) % 4], SUIT_MASKS, leader=leader, table=table)
                assert got == dds_leader_tricks(hands, denom, leader), (pbn(hands), denom, leader)


def test_ten_card_endings_agree_with_dds_every_leader():
    from endplay.types import Denom

    rng = np.random.default_rng(23)
    table = dd.Table()
    for _ in range(3):
        hands = random_hands(rng, 10)
        for denom, trump in ((Denom.nt, -1), (Denom.spades, 3)):
            rules = dd.rules_row(4, trump)
            table.fresh()
            for leader in range(4):
                got = dd.solve(hands, rules, [leader, (leader + 2) % 4], SUIT_MASKS, leader=leader, table=table)
                assert got == dds_leader_tricks(hands, denom, leader), (pbn(hands), denom, leader)


def test_full_deal_agrees_with_dds_every_leader():
    """One full deal, spades trump, the four leaders sharing a table (a quarter of a second a
    solve here; full deals vary a hundredfold, this one is cheap: the CI sample)."""
    from endplay.types import Denom

    rng = np.random.default_rng(2027)
    random_hands(rng)
    hands = random_hands(rng)
    rules = dd.rules_row(4, 3)
    table = dd.Table()
    table.fresh()
    for leader in range(4):
        got = dd.solve(hands, rules, [leader, (leader + 2) % 4], SUIT_MASKS, leader=leader, table=table)
        assert got == dds_leader_tricks(hands, Denom.spades, leader), (pbn(hands), leader)
