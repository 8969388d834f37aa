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


def dds_play_costs(hands, trump_denom, leader, cards, seats):
    """What each card of a played deal cost its side by DDS's AnalysePlayBin (``seats``: the
    seat of each card). DDS analyses up to the last trick, whose cards are forced: they cost 0."""
    import endplay._dds as _dds
    from endplay.types import Deal, Player

    deal = Deal(pbn(hands))
    deal.first = Player(leader)
    deal.trump = trump_denom
    play = _dds.playTraceBin()
    play.number = len(cards)
    for i, c in enumerate(cards):
        play.suit[i] = 3 - c // 13  # DDS numbers the suits from spades, we from clubs
        play.rank[i] = c % 13 + 2
    solved = _dds.solvedPlay()
    _dds.AnalysePlayBin(deal._data, play, solved, 0)  # endplay raises on DDS's errors
    assert solved.number == min(len(cards), 48) + 1
    tricks = [solved.tricks[i] for i in range(solved.number)]  # the declarer's side's (not on lead)
    declarer = (leader + 3) % 4
    costs = [tricks[k] - tricks[k + 1] if seats[k] % 2 == declarer % 2 else tricks[k + 1] - tricks[k]
             for k in range(len(tricks) - 1)]
    return costs + [0] * (len(cards) - len(costs))


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


def test_costs_of_a_played_deal_agree_with_dds_analyse_play():
    """``dd.play_costs`` (every card of a played deal, each position bounded by the next) gives
    each card the cost DDS's AnalysePlayBin gives it: random legal play, so many cards cost a
    trick; no trump and spades, two deals each."""
    from endplay.types import Denom

    from simcards.core import dd_ref

    rng = np.random.default_rng(2031)
    for trump, denom in ((-1, Denom.nt), (3, Denom.spades)):
        rules = dd.rules_row(4, trump)
        for _ in range(2):
            hands = random_hands(rng)
            leader = int(rng.integers(4))
            H, trick, seat, cards, seats = list(hands), [], leader, [], []
            for _ in range(52):
                hand = tuple(c for c in range(52) if H[seat] >> c & 1)
                c = int(rng.choice(dd_ref.legal(rules, SUIT_MASKS, hand, tuple(x for _, x in trick), True,
                                                False)))
                cards.append(c)
                seats.append(seat)
                H[seat] &= ~(1 << c)
                trick.append((seat, c))
                if len(trick) == 4:
                    seat = trick[dd._winner_py([x for _, x in trick], rules, SUIT_MASKS)][0]
                    trick = []
                else:
                    seat = (seat + 1) % 4
            steps = dd.play_costs(hands, rules, SUIT_MASKS, [(0, 2), (1, 3), (0, 2), (1, 3)], leader, cards,
                                  trick1=False)
            assert [s["seat"] for s in steps] == seats
            want = dds_play_costs(hands, denom, leader, cards, seats)
            assert [s["cost"] for s in steps] == want, pbn(hands)
            assert sum(want) > 0
