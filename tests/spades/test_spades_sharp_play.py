"""``fitted``'s card play: expert's with six spots sharpened (policies.card_play, ``sharp``).

Each test builds one play decision where the two rules part and checks both cards: expert's
stays as it always was (its golden digests pin the rest), fitted's is the sharpened one.
"""
import numpy as np

from simcards.core.cards import format_card, parse_cards
from simcards.games.spades import GAME
from simcards.games.spades import policies as P

SUIT = {"C": 0, "D": 1, "H": 2, "S": 3}


def m(text):
    return sum(1 << c for c in parse_cards(text)) if text else 0


def play_view(hand, *, seat=0, bids=(3, 3, 3, 3), tricks=(0, 0, 0, 0), trick=0, table=None,
              played="", voids=(0, 0, 0, 0), legal=None, broken=0):
    """A play decision of ``seat``: ``table`` maps seats to the cards already in this trick
    (in playing order), ``played`` the cards of earlier tricks."""
    table = table or {}
    v = np.zeros(P.VIEW_LEN, np.int64)
    v[P.V_SEAT], v[P.V_DEALER], v[P.V_HAND] = seat, 3, m(hand)
    v[P.V_DECK] = (1 << 52) - 1
    v[P.V_TRICK], v[P.V_BROKEN] = trick, broken
    for s in range(4):
        v[P.V_SUITS + s] = ((1 << 13) - 1) << (13 * s)
        v[P.V_TABLE + s] = -1
        v[P.V_BID + s], v[P.V_TRICKS + s], v[P.V_VOIDS + s] = bids[s], tricks[s], voids[s]
    v[P.V_LED_SUIT], v[P.V_WIN_SEAT], v[P.V_WIN_CARD] = -1, -1, -1
    v[P.V_LEADER] = seat
    on_table = 0
    for k, (s, text) in enumerate(table.items()):
        c = parse_cards(text)[0]
        v[P.V_TABLE + s] = c
        on_table |= 1 << c
        if k == 0:
            v[P.V_LEADER], v[P.V_LED_SUIT] = s, c // 13
            v[P.V_WIN_SEAT], v[P.V_WIN_CARD] = s, c
        elif c // 13 == v[P.V_WIN_CARD] // 13 and c > v[P.V_WIN_CARD] or c // 13 == 3 > v[P.V_WIN_CARD] // 13:
            v[P.V_WIN_SEAT], v[P.V_WIN_CARD] = s, c
    v[P.V_NPLAYED] = len(table)
    v[P.V_PLAYED] = m(played) | on_table
    if legal is None:
        h = m(hand)
        led = v[P.V_LED_SUIT]
        follow = h & v[P.V_SUITS + led] if led >= 0 else 0
        legal = follow or h
    else:
        legal = m(legal)
    v[P.V_LEGAL] = legal
    v[P.V_TARGET], v[P.V_BAG_LIMIT], v[P.V_NIL_VALUE], v[P.V_BN_VALUE] = 500, 10, 100, 200
    v[P.V_PARAMS:P.V_PARAMS + 8] = GAME.policies.param_row("fitted")
    return v


def cards(v):
    """(expert's card, fitted's card) for the view."""
    rng = np.array([1], np.uint64)
    return format_card(int(P.expert_play(v, rng))), format_card(int(P.fitted_play(v, rng)))


def test_nil_still_to_play_the_attacker_stays_under_even_wanting_tricks():
    # seat 1 bid Nil and plays after seat 0; its partner led the 9H; seat 0 wants tricks
    v = play_view("KH 5H 2H AC KC QC JC AD KD QD JD 10D", bids=(4, 0, 4, 5), table={3: "9H"})
    assert cards(v) == ("2H", "5H")  # expert: lowest; fitted: the highest under the 9, keeping the 2


def test_the_attack_lead_is_the_card_the_nil_can_least_duck_under():
    played = "2D 3D 4D 5D 2H 3H 4H 5H"  # every diamond under the 6 is gone: nothing to duck under it
    v = play_view("4C 6D 9D KH", bids=(4, 0, 4, 5), trick=2, played=played, legal="4C 6D 9D KH")
    assert cards(v) == ("4C", "6D")
    # with trumps broken the 2S, with nothing under it, is led too
    v = play_view("4C 6D 9D 2S", bids=(4, 0, 4, 5), trick=2, played=played, broken=1)
    assert cards(v) == ("4C", "2S")


def test_fitted_attacks_a_nil_unless_its_contract_needs_every_trick_left():
    # 3 tricks left, the team needs 2: expert cashes its ace, fitted attacks the Nil
    played = "2H 3H 4H"
    v = play_view("AC 5H 9D", bids=(3, 0, 1, 4), tricks=(2, 0, 0, 8), trick=10, played=played)
    assert cards(v) == ("AC", "5H")
    # needing all 3 it plays for tricks too
    v = play_view("AC 5H 9D", bids=(3, 0, 2, 4), tricks=(2, 0, 0, 8), trick=10, played=played)
    assert cards(v)[1] == "AC"


def test_fitted_tries_to_set_when_the_opponents_need_all_but_two_tricks():
    # 4 tricks left; the opponents (seats 1, 3) need 2 of them, seat 0's team has made its bid
    v = play_view("KH 5H 2C 3C", bids=(2, 3, 2, 3), tricks=(2, 2, 3, 2), trick=9, table={1: "9H", 2: "3H", 3: "4H"})
    assert cards(v) == ("5H", "KH")  # expert ducks (a bag saved), fitted takes the trick


def test_covering_a_nil_fitted_leads_a_suit_the_nil_bidder_is_void_in():
    # partner (seat 2) bid Nil and showed out of diamonds: a diamond lets it shed a card
    v = play_view("KC 4C QD 3D 7H", bids=(4, 3, 0, 3), voids=(0, 0, 1 << SUIT["D"], 0), trick=3,
                  played="2D 4D 5D 6D 2C 3C 5C 6C 2H 3H 4H 5H")
    assert cards(v) == ("KC", "QD")


def test_wanting_tricks_fitted_leads_a_suit_the_partner_ruffs():
    # partner void in hearts (and not in spades), opponents not: lead a heart for the ruff
    v = play_view("7H 8H 9H 2C QD JD 10D 5S 4S", bids=(5, 3, 4, 1), voids=(0, 0, 1 << SUIT["H"], 0), trick=4,
                  played="AH KH QH 2H 3D 4D 5D 6D 3C 4C 5C 6C 2S 3S 6S 7S")
    assert cards(v) == ("2C", "7H")  # expert: low from its shortest suit, to ruff itself later
