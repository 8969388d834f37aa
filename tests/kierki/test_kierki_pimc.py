"""Kierki pimc: searches every deal's card play by play-outs (trump deals: double dummy late); reproducible."""
import textwrap

import numpy as np
import pytest

from simcards.core.errors import SimcardsError
from simcards.games.kierki import GAME


def records(policy, deal_type, count=6):
    v = GAME.variant(None, pairs=[f"deal_type={deal_type}"])
    return GAME.simulate("deal", v, GAME.policies.table([policy] * 4), 3, 0, count)


def test_pimc_searches_trump_deals_reproducibly():
    one = records("pimc:worlds=4:dd_cards=5", "trumps")
    assert np.array_equal(one, records("pimc:worlds=4:dd_cards=5", "trumps"))
    assert not np.array_equal(one, records("expert", "trumps"))


@pytest.mark.parametrize("deal_type", ["no_tricks", "no_king_of_hearts"])
def test_pimc_searches_the_negative_deals_reproducibly(deal_type):
    one = records("pimc:worlds=4", deal_type)
    assert np.array_equal(one, records("pimc:worlds=4", deal_type))
    assert not np.array_equal(one, records("expert", deal_type))


def test_pimc_parameters_are_validated_in_one_line():
    with pytest.raises(SimcardsError) as err:
        GAME.policies.resolve("pimc:worlds=300")
    assert "worlds must be in 1..256" in str(err.value) and "\n" not in str(err.value)


def _rollout_tricks(world, trump, first):
    """Seat 0 leads trick 1 of a trump deal with ``first``; the tricks each seat takes in pimc's play-out."""
    from simcards.games.kierki import pimc as K
    from simcards.games.kierki import policies as P
    info = np.zeros(P.INFO_LEN, np.int64)
    info[P.I_DEAL_TYPE] = P.TRUMPS_CODE
    info[P.I_TRUMP] = trump
    info[P.I_TRICK] = 1
    info[P.I_WIN_CARD] = info[P.I_WIN_SEAT] = -1
    info[P.I_PARAMS:P.I_PARAMS + len(K.PIMC_PARAMS)] = [p.fixed(p.default) for p in K.PIMC_PARAMS]
    masks = np.zeros(P.MASKS_LEN, np.uint64)
    masks[P.M_HAND] = masks[P.M_LEGAL] = world[0]
    tricks = np.zeros(4, np.int64)
    K.rollout(info, masks, world, first, info.copy(), masks.copy(), np.zeros(4, np.uint64), tricks, np.zeros(4, np.int64))
    return tricks


def _negative_rollout(deal_type, trick, world, first, pairs=()):
    """Seat 0 leads trick ``trick`` of a negative deal with ``first``, every seat holding
    ``world[s]``; (tricks, points) each seat takes in pimc's play-out."""
    from simcards.games.kierki import pimc as K
    from simcards.games.kierki import policies as P
    from simcards.games.kierki.rules import kernel_tables
    tab = kernel_tables(GAME.variant(None, pairs=list(pairs)))
    info = np.zeros(P.INFO_LEN, np.int64)
    info[P.I_DEAL_TYPE] = deal_type
    info[P.I_TRUMP] = -1
    info[P.I_TRICK] = trick
    info[P.I_WIN_CARD] = info[P.I_WIN_SEAT] = -1
    info[P.I_PEN:P.I_PEN + 52] = tab.card_pen[deal_type]
    info[P.I_TRICK_PEN:P.I_TRICK_PEN + 14] = tab.trick_pen[deal_type]
    info[P.I_PARAMS:P.I_PARAMS + len(K.PIMC_PARAMS)] = [p.fixed(p.default) for p in K.PIMC_PARAMS]
    masks = np.zeros(P.MASKS_LEN, np.uint64)
    masks[P.M_HAND] = masks[P.M_LEGAL] = world[0]
    masks[P.M_PLAYED] = np.uint64((1 << 52) - 1) & ~np.bitwise_or.reduce(world)
    tricks, points = np.zeros(4, np.int64), np.zeros(4, np.int64)
    K.rollout(info, masks, world, first, info.copy(), masks.copy(), np.zeros(4, np.uint64), tricks, points)
    return list(tricks), list(points)


def _cards(*names):
    from simcards.core.cards import parse_card
    return np.uint64(sum(1 << parse_card(n) for n in names))


def test_negative_playout_scores_the_deals_penalties():
    from simcards.games.kierki.rules import NO_HEARTS, NO_SEVENTH_LAST, NO_TRICKS
    suit = [np.uint64(((1 << 13) - 1) << (13 * s)) for s in range(4)]
    # seat 0 holds every club and leads them all: it wins every trick, the others discard
    world = np.array([suit[0], suit[2], suit[1], suit[3]], np.uint64)
    assert _negative_rollout(NO_TRICKS, 1, world, 0) == ([13, 0, 0, 0], [-260, 0, 0, 0])
    # seat 1 discards a heart on each club: 13 hearts at -20
    assert _negative_rollout(NO_HEARTS, 1, world, 0) == ([13, 0, 0, 0], [-260, 0, 0, 0])
    # the seventh and the last trick cost -75 each
    assert _negative_rollout(NO_SEVENTH_LAST, 1, world, 0) == ([13, 0, 0, 0], [-150, 0, 0, 0])


def test_negative_playout_keeps_the_heart_lead_rule():
    from simcards.games.kierki.rules import NO_KING_OF_HEARTS, NO_QUEENS
    from simcards.core.cards import parse_card
    world = np.array([_cards("2S", "3D", "4D"), _cards("3S", "KH", "4H"), _cards("4S", "5D", "6D"),
                      _cards("5S", "2H", "AC")], np.uint64)
    first = parse_card("2S")
    # seat 3 wins the spade; it may not lead its heart while it holds the club ace, leads it,
    # and seat 1, void in clubs, discards the king of hearts on it (then wins the last trick)
    assert _negative_rollout(NO_KING_OF_HEARTS, 11, world, first) == ([0, 1, 0, 2], [0, 0, 0, -150])
    # where hearts are free to lead (no queens) seat 3 leads the two of hearts and seat 1, sure
    # to win the trick, sheds the king on it, then wins the last (no queen falls: nothing to pay)
    assert _negative_rollout(NO_QUEENS, 11, world, first) == ([0, 2, 0, 1], [0, 0, 0, 0])


def test_playout_plays_the_deal_out_by_the_trick_rules():
    suit = [np.uint64(((1 << 13) - 1) << (13 * s)) for s in range(4)]
    # seat 0 holds every card of the trump suit (suit 0): it wins all 13 tricks
    world = np.array([suit[0], suit[1], suit[2], suit[3]], np.uint64)
    assert list(_rollout_tricks(world, 0, 12)) == [13, 0, 0, 0]
    # seat 1 holds every trump and is void in seat 0's suit: it ruffs, then wins every trick it leads
    world = np.array([suit[1], suit[0], suit[2], suit[3]], np.uint64)
    assert list(_rollout_tricks(world, 0, 13)) == [0, 13, 0, 0]
    # a shuffled deal: 13 tricks in all, whatever the play
    deck = np.random.default_rng(5).permutation(52)
    world = np.array([sum(np.uint64(1) << np.uint64(c) for c in deck[13 * s:13 * s + 13]) for s in range(4)], np.uint64)
    first = int(min(deck[:13]))
    assert _rollout_tricks(world, 2, first).sum() == 13


def test_pimc_searches_the_early_trump_tricks_by_playouts():
    # dd_cards=1: no double dummy (one card left is no choice), every decision is played out
    one = records("pimc:worlds=4:dd_cards=1", "trumps")
    assert np.array_equal(one, records("pimc:worlds=4:dd_cards=1", "trumps"))
    assert not np.array_equal(one, records("expert", "trumps"))


def _lottery_position():
    """A lottery near its end, North (seat 0) to play from KC QD; East holds KD, South KH,
    West QS KS; every other card is on the layout (each row from the ace up)."""
    from simcards.games.kierki import pimc as K
    from simcards.games.kierki import policies as P
    hands = [_cards("KC", "QD"), _cards("KD"), _cards("KH"), _cards("QS", "KS")]
    world = np.array(hands, np.uint64)
    info = np.zeros(P.INFO_LEN, np.int64)
    info[P.L_SEAT] = 0
    info[P.L_BASE] = 6  # the sevens, ace low
    info[P.L_LO:P.L_LO + 4] = 0
    info[P.L_HI:P.L_HI + 4] = [11, 10, 11, 10]  # clubs to the queen, diamonds to the jack, ...
    info[P.L_LEFT:P.L_LEFT + 4] = [2, 1, 1, 2]
    info[P.L_AWARDS:P.L_AWARDS + 3] = [800, 500, 0]
    info[P.L_PARAMS:P.L_PARAMS + len(K.PIMC_PARAMS)] = [p.fixed(p.default) for p in K.PIMC_PARAMS]
    masks = np.zeros(P.MASKS_LEN, np.uint64)
    masks[P.M_HAND] = hands[0]
    masks[P.M_LEGAL] = hands[0]
    masks[P.M_PLAYED] = np.uint64((1 << 52) - 1) & ~np.bitwise_or.reduce(world)
    return info, masks, world


def test_lottery_playout_plays_fan_tan_and_pays_the_award():
    from simcards.core.cards import parse_card
    from simcards.games.kierki import pimc as K
    info, masks, world = _lottery_position()

    def award(first):
        return K.lottery_rollout(info, masks, world, parse_card(first), info.copy(), masks.copy(),
                                 np.zeros(4, np.uint64))
    # QD frees East's KD: East out first, South second, the awards are gone
    assert award("QD") == 0
    # KC keeps KD blocked: East passes, South goes out first, West plays QS, North goes out second
    assert award("KC") == 500
    # the play-outs leave the position as it was
    assert award("QD") == 0 and award("KC") == 500
    assert K.pimc_lottery_card(info, masks, np.array([1, 2, 3, 4], np.uint64), np.zeros(64, np.int64))[0] == \
        parse_card("KC")


def test_lottery_view_carries_the_awards_and_what_a_pass_shows(tmp_path):
    path = tmp_path / "lottery_checks.py"
    path.write_text(textwrap.dedent('''
        from simcards.core.policy import Policy
        from simcards.games.kierki.policies import EXPERT, L_AWARDS, M_ABSENT, M_HAND, L_SEAT, expert_lottery

        def checked(info, masks, rng):
            # a card the kernel refuses (-1) when the view is wrong: the awards, or a card the seat
            # holds among those it showed it lacks by passing
            if info[L_AWARDS] != 800 or info[L_AWARDS + 1] != 500 or info[L_AWARDS + 2] != 0:
                return -1
            if masks[M_ABSENT + info[L_SEAT]] & masks[M_HAND]:
                return -1
            return expert_lottery(info, masks, rng)

        def shown(info, masks, rng):
            for s in range(4):
                if masks[M_ABSENT + s]:
                    return -1  # a pass has shown something
            return expert_lottery(info, masks, rng)

        checked_bot = Policy("checked", lottery=checked, base=EXPERT)
        shown_bot = Policy("shown", lottery=shown, base=EXPERT)
    '''))
    v = GAME.variant(None, pairs=["deal_type=lottery"])
    GAME.simulate("deal", v, GAME.policies.table([f"{path}:checked_bot"] * 4), 7, 0, 300)
    with pytest.raises(SimcardsError, match="lottery returned"):
        GAME.simulate("deal", v, GAME.policies.table([f"{path}:shown_bot"] * 4), 7, 0, 300)


def test_pimc_searches_the_lottery_reproducibly():
    one = records("pimc:worlds=4", "lottery")
    assert np.array_equal(one, records("pimc:worlds=4", "lottery"))
    assert not np.array_equal(records("pimc:worlds=4", "lottery", 60), records("expert", "lottery", 60))
