"""Shared numbers of the Seep kernel: state layout, move encoding, configuration slots.

State (``int64`` array of ``ST_SIZE``). A policy receives a *view*: a copy of the
public part (indices below ``S_PRIVATE``) with ``S_SEAT`` set to the deciding seat and
``S_HAND`` to that seat's own hand; nothing private to other seats is visible (3.7).
Masks are card masks over the core card numbers (``simcards.core.cards``).

==================  =====================================================================
index               meaning
==================  =====================================================================
S_SEAT              the seat deciding (0..3)
S_DEALER            dealer of this deal
S_BIDDER            bidder = right(dealer) = dealer + 1
S_BID               the bid value (0 before the bid)
S_PLAY              number of the next play, 1..48 (49 = deal over)
S_HAND              the deciding seat's own hand (mask)
S_LOOSE             loose floor cards (mask)
S_PILE + t          capture pile of team t (0 = A = seats 0, 2; 1 = B) (mask)
S_SWEEP_PTS + t     sweep bonus earned this deal by team t
S_LAST_CAPTURE      team that captured last, -1 if none yet
S_NCARDS + s        number of cards in seat s's hand
S_HOUSE + v         cards of the house of value v (mask; 0 = no house), v = 0..13
S_OWNERS + v        owners of the house of value v (bit s = seat s)
S_PLAYED + s        cards seat s has played this deal (mask)
S_D                 running difference D (team A minus team B) before this deal
S_SWEEP_VALUE ...   sweep_value, early_sweep_value, early_sweep_plays, last_play_sweep_value
S_MIN_HOUSE         min_house_value;  S_MIN_BID: min_bid_value;  S_PARTNER_FREE: 0/1
S_NPLAYERS          4, or 2 in the two-player game (seats 0, 1; a seat is its own team)
==================  =====================================================================

Moves: ``int64[n, 5]`` rows ``(kind, card, target, loose, house)``: ``kind`` one of
CAPTURE, BUILD, ADD, BREAK, THROW; ``card`` the card played; ``target`` the played
card's value for CAPTURE, the house value for BUILD/ADD, the new value for BREAK, 0 for
THROW; ``loose`` the mask of loose cards taken (CAPTURE) or put into the house
(BUILD/ADD, auto-merged cards excluded); ``house`` 1 when a CAPTURE takes the house of
its value (always, when there is one, under ``capture_maximal``).
"""
S_SEAT, S_DEALER, S_BIDDER, S_BID, S_PLAY, S_HAND, S_LOOSE = 0, 1, 2, 3, 4, 5, 6
S_PILE = 7
S_SWEEP_PTS = 9
S_LAST_CAPTURE = 11
S_NCARDS = 12
S_HOUSE = 16
S_OWNERS = 30
S_PLAYED = 44
S_D = 48
S_SWEEP_VALUE, S_EARLY_VALUE, S_EARLY_PLAYS, S_LAST_VALUE = 49, 50, 51, 52
S_MIN_HOUSE, S_MIN_BID, S_PARTNER_FREE = 53, 54, 55
S_NPLAYERS = 56       # 4, or 2 for the two-player game (then seat = team, no partners)
S_PRIVATE = 60
# kernel-private bookkeeping
S_HANDS = 60          # + seat
S_STOCK = 64
S_HIDDEN = 65
S_SWEEPS = 66         # + 0 early, 1 normal, 2 last play (counts)
S_BUILT, S_BROKEN, S_ADDED = 69, 70, 71
S_TRACK_VALUE = 72    # current value of the house built by the opening (-1 if none / gone)
S_TRACK_TEAM = 73     # team that captured the opening house (-1)
S_TRACK_AT = 74       # value at which it was captured (-1)
S_OPEN_CARD, S_OPEN_KIND = 75, 76
S_MAX_MOVES, S_SUM_MOVES = 77, 78
S_LEFTOVER = 79       # mask of loose cards collected at the end
S_REDEALS = 80
S_CARD_PTS = 81       # + team
S_SCORE = 83          # + team
S_OPEN_HAND = 85      # the bidder's first four cards
S_OPEN_FLOOR = 86     # the four floor cards
S_LEFTOVER_TEAM = 87
S_ERROR = 88          # + 0, 1, 2: decision + 1, seat, value of an illegal policy answer (0: none)
ST_SIZE = 92

CAPTURE, BUILD, ADD, BREAK, THROW = 0, 1, 2, 3, 4
KIND_NAMES = ("CAPTURE", "BUILD", "ADD", "BREAK", "THROW")
M_KIND, M_CARD, M_TARGET, M_LOOSE, M_HOUSE = 0, 1, 2, 3, 4
M_COLS = 5

# configuration slots (int64 array built from the variant by rules.cfg_of)
(C_CAP_SUMS, C_CAP_MAX, C_THROW_NC, C_OWNER_THROW, C_ABSORB, C_DIRECT, C_PARTNER_FREE,
 C_MIN_HOUSE, C_MIN_BID, C_SWEEP, C_EARLY, C_EARLY_PLAYS, C_LAST, C_MIN_RULE, C_MIN_THR,
 C_MIN_SWEEPS, C_LEAD, C_LEAD_INCL, C_MATCH_N, C_MATCH_MODE, C_FIRST_DEALER, C_DEALER_RULE,
 C_LOSING_BASIS, C_TIE, C_AFTER_BAAZI, C_END_HOUSE, C_MAX_DEALS, C_NPLAYERS) = range(28)
C_SIZE = 32
ABSORB_OPTIONAL, ABSORB_MANDATORY, ABSORB_FORBIDDEN = 0, 1, 2
