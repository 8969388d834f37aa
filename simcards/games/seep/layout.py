"""Shared numbers of the Seep kernel: state layout, move encoding, enum constants of the rules.

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
S_PARAMS + k        the deciding seat's k-th policy parameter (fixed point: ``param_value``)
==================  =====================================================================

Moves: ``int64[n, 5]`` rows ``(kind, card, target, loose, house)``: ``kind`` one of
CAPTURE, BUILD, ADD, BREAK, THROW; ``card`` the card played; ``target`` the played
card's value for CAPTURE, the house value for BUILD/ADD, the new value for BREAK, 0 for
THROW; ``loose`` the mask of loose cards taken (CAPTURE) or put into the house
(BUILD/ADD, auto-merged cards excluded); ``house`` 1 when a CAPTURE takes the house of
its value (always, when there is one, under ``capture_maximal``).
"""
from simcards.core.policy import PARAM_SLOTS, Layout
from simcards.core.trace import TraceEvents
from simcards.games.seep.variant import SeepVariant

# the state, one slot per fact in this order (+ seat, + team, + value: slots of several values);
# STATE.export makes S_SEAT, S_DEALER, ..., S_ERROR and ST_SIZE
STATE = Layout("seep state",
               # public: what a policy's view holds
               seat=1, dealer=1, bidder=1, bid=1, play=1, hand=1, loose=1,
               pile=2, sweep_pts=2, last_capture=1, ncards=4, house=14, owners=14, played=4, d=1,
               sweep_value=1, early_value=1, early_plays=1, last_value=1,
               min_house=1, min_bid=1, partner_free=1,
               nplayers=1,  # 4, or 2 for the two-player game (then seat = team, no partners)
               # kernel-private bookkeeping
               hands=4,  # + seat
               stock=1, hidden=1,
               sweeps=3,  # + 0 early, 1 normal, 2 last play (counts)
               built=1, broken=1, added=1,
               track_value=1,  # current value of the house built by the opening (-1 if none / gone)
               track_team=1,  # team that captured the opening house (-1)
               track_at=1,  # value at which it was captured (-1)
               open_card=1, open_kind=1, max_moves=1, sum_moves=1,
               leftover=1,  # mask of loose cards collected at the end
               redeals=1,
               card_pts=2,  # + team
               score=2,  # + team
               open_hand=1,  # the bidder's first four cards
               open_floor=1,  # the four floor cards
               leftover_team=1,
               error=3,  # + 0, 1, 2: decision + 1, seat, value of an illegal policy answer (0: none)
               # the view's last slots: the deciding seat's policy parameters (param_value(view, S_PARAMS + k))
               params=PARAM_SLOTS)
STATE.export(globals(), "S_", size="ST_SIZE")
S_PRIVATE = STATE.offset["hands"]  # a policy's view: the slots below this one, and the params slots

CAPTURE, BUILD, ADD, BREAK, THROW = 0, 1, 2, 3, 4
KIND_NAMES = ("CAPTURE", "BUILD", "ADD", "BREAK", "THROW")
# the columns of a move row, declared once: MOVE.export makes M_KIND = 0, ..., M_HOUSE = 4 and M_COLS = 5
MOVE = Layout("seep move", kind=1, card=1, target=1, loose=1, house=1)
MOVE.export(globals(), "M_", size="M_COLS")

# trace events (core/trace.py): before play k, one ``legal`` per legal move (in list order),
# then ``play`` naming the chosen one; EV_LEGAL, EV_PLAY for the kernel
EVENTS = TraceEvents("seep", legal=("move", "card", "target", "loose", "house"),
                     play=("k", "seat", "choice", "legal"))
EVENTS.export(globals())


def plays(events) -> list:
    """``[(play event, [legal events])]`` per play, in order (the legal list it chose from)."""
    out, legal = [], []
    for ev in events:
        if ev.kind == "legal":
            legal.append(ev)
        else:
            out.append((ev, legal))
            legal = []
    return out

# the enum rules' choices as named constants (IntEnums from the variant, valued as packed: ABSORB.FORBIDDEN
# is the index of "forbidden"); numba compiles them as constants
ABSORB = SeepVariant.choice_enum("absorption_mode")
MATCH_MODE = SeepVariant.choice_enum("match_mode")
DEALER_RULE = SeepVariant.choice_enum("dealer_rule")
LOSING_BASIS = SeepVariant.choice_enum("losing_team_basis")
TIE_DEALER = SeepVariant.choice_enum("tie_dealer")
AFTER_BAAZI = SeepVariant.choice_enum("dealer_after_baazi")
END_HOUSE = SeepVariant.choice_enum("end_house_policy")
