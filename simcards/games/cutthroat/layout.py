"""Constants shared by the Cutthroat kernel and its policies: bid codes and the state view.

Bid codes (also the record columns ``bid_<seat>``)::

    0        NIL          21  1F (one for fifty)     26  B6 (blind six)
    1 .. T   ordinary k   22  2F (two for forty)     30  BN (blind nil)
                          40  SM (shoot the moon)

All codes are below 64, so a set of bids is a ``uint64`` mask with bit ``code``.

**State view** handed to every policy call ``f(view, masks, rng) -> int64``. It holds
only what the acting player may know (docs/games/cutthroat.md, rule 3.5): public facts plus his own hand.

``view`` (int64), indices::

    V_SEAT        acting seat               V_N           players
    V_DEALER      dealer of this hand       V_T           tricks in the hand
    V_TRICK       current trick, 0-based    V_NPLAYED     cards already in this trick
    V_LEADER      leader of this trick      V_BROKEN      spades broken (0/1)
    V_SITOUT      seat sitting out this trick, or -1 (2-joker form, trick 1)
    V_HAND_NO     hand number within the game (0-based)
    V_MAX_BID     highest ordinary bid      V_SM_MIN      tricks a SM needs
    V_B6_TRICKS   tricks a B6 needs         V_TARGET      target score
    V_BAG_LIMIT   bag limit                 V_BAG_MODE    0 accumulate, 1 per_bag, 2 none
    V_WIN_SEAT    seat winning this trick so far, or -1
    V_WIN_CARD    card winning this trick so far, or -1
    V_LED_SUIT    effective suit led (0 C, 1 D, 2 H, 3 S = trumps), or -1
    V_PHASE       1 blind offer, 2 bid, 3 play, 4 redeal question
    V_SCORE+s     score of seat s at the start of the hand
    V_BAGS+s      bag counter G of seat s at the start of the hand
    V_B6USED+s    B6 bids of seat s this game      V_TOKENS+s  win tokens of seat s
    V_BID+s       bid code of seat s, -1 while not yet bid
    V_TRICKS+s    tricks won by seat s so far this hand
    V_JACKS+s     prize jacks seat s captured this hand (card bit mask)
    V_TRICK_CARD+i, V_TRICK_SEAT+i   i-th card of the current trick and who played it
    V_PARAMS+k    the acting seat's policy parameter k in fixed point: read it with
                  ``param_value(view, V_PARAMS + k)`` (its policy's k-th ``PolicyParam``)

``masks`` (uint64), indices::

    M_HAND    the acting player's hand (0 during the blind offer: he has not looked)
    M_LEGAL   legal cards (play), legal bid codes (blind offer, bid) or, for the
              redeal question, bit 0 = keep and bit 1 = redeal
    M_PLAYED  every card played so far this hand (the current trick included)
    M_DECK    the cards of this form's deck
    M_TRICK   cards of the current trick
    M_PRIZE   prize jacks in use
    M_VOID+s  cards of the effective suits seat s has shown void in (failed to follow)

A policy returns a card (play), a bid code (bid), a blind bid code or -1 to look at
the hand first (blind offer), 0 or 1 (redeal question). It draws randomness only from
``rng`` (the seat's own stream for this hand).
"""
import numpy as np

from simcards.core.policy import PARAM_SLOTS, Layout
from simcards.games.cutthroat.variant import CutthroatVariant

# enum parameters as named constants (their packed values): p.bag_mode == BAG_MODE.PER_BAG
BAG_MODE, BAG_OUT_PENALTY, FIRST_LEAD, MISDEAL_CONDITION = (
    CutthroatVariant.choice_enum(name) for name in ("bag_mode", "bag_out_penalty", "first_lead", "misdeal_condition"))

NIL = 0
B_1F = 21
B_2F = 22
B_B6 = 26
B_BN = 30
B_SM = 40
DECLINE = -1

BID_NAMES = {NIL: "NIL", B_1F: "1F", B_2F: "2F", B_B6: "B6", B_BN: "BN", B_SM: "SM"}

# bid kinds for records and statistics
K_ORDINARY, K_NIL, K_1F, K_2F, K_B6, K_BN, K_SM = range(7)
KIND_NAMES = ("ordinary", "nil", "1F", "2F", "B6", "BN", "SM")

PHASE_BLIND, PHASE_BID, PHASE_PLAY, PHASE_REDEAL = 1, 2, 3, 4

MAX_SEATS = 5

# the state view and the masks, declared once: offsets are generated in this order
VIEW = Layout("cutthroat view",
              seat=1, n=1, dealer=1, t=1, trick=1, nplayed=1, leader=1, broken=1, sitout=1, hand_no=1,
              max_bid=1, sm_min=1, b6_tricks=1, target=1, bag_limit=1, bag_mode=1, win_seat=1,
              win_card=1, led_suit=1, phase=1, score=MAX_SEATS, bags=MAX_SEATS, b6used=MAX_SEATS,
              tokens=MAX_SEATS, bid=MAX_SEATS, tricks=MAX_SEATS, jacks=MAX_SEATS,
              trick_card=MAX_SEATS, trick_seat=MAX_SEATS, params=PARAM_SLOTS)
VIEW.export(globals(), "V_", size="VIEW_SIZE")
MASKS = Layout("cutthroat masks", hand=1, legal=1, played=1, deck=1, trick=1, prize=1, void=MAX_SEATS)
MASKS.export(globals(), "M_", size="MASKS_SIZE")


def bid_name(code: int) -> str:
    """``NIL``, ``4``, ``1F``, ``B6``... for a bid code."""
    code = int(code)
    return BID_NAMES.get(code, str(code))


def parse_bid(text: str) -> int:
    """Bid code of ``NIL``/``0``/``k``/``1F``/``2F``/``B6``/``BN``/``SM`` (ValueError if unknown)."""
    t = str(text).strip().upper()
    for code, name in BID_NAMES.items():
        if t == name:
            return code
    k = int(t)
    if k < 0 or k > 17:
        raise ValueError(f"bid out of range: {text}")
    return k


# bid kind (K_*) of each bid code 0..63
KIND_OF_CODE = np.full(64, K_ORDINARY, dtype=np.int64)
for _code, _kind in ((NIL, K_NIL), (B_1F, K_1F), (B_2F, K_2F), (B_B6, K_B6), (B_BN, K_BN), (B_SM, K_SM)):
    KIND_OF_CODE[_code] = _kind
