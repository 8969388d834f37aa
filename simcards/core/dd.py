"""Double-dummy solver for trick-taking games: exact tricks against best defence.

Every card is visible; the *measured side* (a set of seats) tries to take as many of
the remaining tricks as it can, everybody else tries to stop it. In a partnership game
that is the usual double-dummy value; in a game without partnerships (Cutthroat,
Kierki) the measured player plays against all the others together, the "paranoid"
reduction of a many-player game to two sides: an exact bound on what the player can
guarantee, not a prediction of what self-interested opponents would let him take.

The search knows no game. A game describes its trick rules as plain numbers
(:data:`R_*` slots of an ``int64`` rules row, built by :func:`rules_row`) and the
effective suit of each card as four ``uint64`` masks (jokers folded into spades);
within an effective suit a higher card number is a higher card (``core.tricks``).

Techniques (each can be switched off with the ``features`` bits, for measurement):

- **null-window search** MTD(f)-style (``F_GUESS``): :func:`solve` asks boolean questions
  "can the side take ``t`` more tricks?" (an alpha-beta search whose window is one trick
  wide), first at a guess, then one trick up or down from the last answer; every answer
  leaves bounds in the transposition table, so later questions reuse earlier work;
- **transposition table** (``F_TT``) at trick boundaries: entries chained per hash of
  every hand's suit lengths, leader and side; with ``F_CLASSES`` an entry keeps only the
  owners of the cards its proof rested on (the winners that beat a card of their suit, and
  every card above them), numbered by rank among the live cards, so it serves every
  position that agrees on those (partition search). An entry holds a lower and an upper
  bound on the side's tricks and the best lead; a full pool keeps the entries of the positions
  with the most cards left (the costliest to search again) and frees the rest;
- **low-card skipping** (``F_LOWSKIP``): a card below every card of its suit that a refuted
  sibling's proof rests on is refuted by the same proof;
- **quick tricks** (``F_QUICK``): winners the leader can cash at once (with the partner
  unblocking, or after a low card to the partner's winner), the long cards of a suit whose
  opponents' cards fall under those winners, a ruff in the partner's hand, and top trumps in
  one hand prove or refute a question without search;
- **move ordering** (``F_ORDER``) by simple trick-play heuristics (cash winners, win
  cheaply, let partner's winner stand, discard low), and only one card of each run of
  equivalent cards is tried (cards adjacent once played cards are removed);
- **sure trump tricks** (``F_SURE``, from DDS's later tricks): a side that holds every trump
  still out takes at least as many tricks as its longest trump holding has cards, which
  proves or refutes a question at a trick start for either side;
- a **killer move** (``F_KILLER``, DDS's ``bestMove``): the lead that last made a cut-off at
  the same depth; with DDS's lead weights it gets DDS's bonus (as does the table's best lead),
  otherwise it is tried first, before the table's best lead; it is kept from one question to
  the next;
- **DDS's lead weights** (``F_WEIGHTS``): with four seats in two partnerships, the leads are
  ordered by DDS's weights, which look at the whole position (the opponents' lengths, who holds
  the top cards, ruffs for either side); they halved the nodes of full deals. Other games add
  DDS's penalty for the opponents' lengths in the suit to the simple scores. With four seats
  in two partnerships the second and third hand and a void fourth hand take DDS's weights
  (``WeightAlloc*Notvoid1/2``, ``*Void1/2/3``: play to win only when the side can win the
  trick, discard rather than ruff the partner's winner, force out the top card); otherwise the
  second and third hand (up to four seats) try first the cheapest card that no later opponent
  can beat (overtaking the partner's card when the opponents could beat it), else a low card;
- **later tricks** (``F_LATER``, DDS's ``LaterTricksMIN/MAX``, four seats in two partnerships):
  the top trumps held by the side not on lead give it one or two sure tricks, and with no trump
  left, its top cards one when the side on lead's own top-card suits are too short for every
  trick, or when every suit the leader holds is topped by the other side; they refute the side
  on lead when it needs all (or all but one) of the tricks left;
- **second hand's quick tricks** (``F_SECOND``, DDS's ``QuickTricksSecondHand``, four seats
  in two partnerships): at the second hand, when its side surely wins the trick in progress
  (a ruff the leader's partner cannot overruff, or its top card of the suit above the card led
  and the leader's partner's cards), that trick, and with no trump (left) the next ones the
  winning hand can cash (the suit's second card, its top cards of other suits, a suit nobody
  else holds), prove or refute the question before any card is tried.

All functions are compiled with ``cache=True`` and ``nogil=True``; a caller gives each
thread its own :class:`Table`. The search's functions are compiled without reference counting
(numba's ``_nrt=False``): numba's atomic increments and decrements of the arrays they take and
the views they make were most of the time of a solve (``docs/dev/double-dummy.md``, Speed). They
allocate nothing; :func:`solve_kernel` and :func:`card_values` allocate the buffers and keep
them alive while the search runs, and :func:`_sweep`, which allocates, keeps reference counting.
"""
from __future__ import annotations

import numba as nb
import numpy as np

from simcards.core.cards import bit, highest_card, lowest_card, nth_card, popcount
from simcards.core.jit import lazily

# rules row slots
R_SEATS, R_TRUMP, R_LEAD_RESTRICT, R_OBLIGATION, R_FORCED_LEAD, R_NO_TRUMP_T1, R_SITOUT_T1, R_FEATURES = range(8)
R_LEN = 8
# trump obligation of a player void in the suit led (Kierki variants)
OBLIGE_NONE, OBLIGE_TRUMP, OBLIGE_OVERTRUMP = 0, 1, 2
# features
F_TT, F_CLASSES, F_QUICK, F_ORDER, F_LOWSKIP, F_GUESS, F_SURE, F_KILLER = 1, 2, 4, 8, 16, 32, 64, 128
F_WEIGHTS, F_LATER, F_FOLLOW, F_SECOND, F_CROSS = 256, 512, 1024, 2048, 4096
F_ALL = F_TT | F_CLASSES | F_QUICK | F_ORDER | F_LOWSKIP | F_GUESS | F_SURE | F_KILLER | F_WEIGHTS | F_LATER | F_FOLLOW \
    | F_SECOND | F_CROSS

# state slots (int64 array ``st``)
S_NPL, S_LEADER, S_BROKEN, S_T1, S_BASE = 0, 1, 2, 3, 4  # S_BASE: where the trick starts in the play sequence
S_LEN = 5
# counters (int64 array ``ctr``)
C_NODES, C_TT_HITS, C_QUICK_CUTS, C_TT_STORES, C_CUTS, C_FIRST_CUTS, C_TT_RESETS, C_ENTERED = 0, 1, 2, 3, 4, 5, 6, 7
C_LEN = 8  # C_ENTERED: trick starts entered below the root (DDS's node count)
TT_FIRST = 6  # with this many tricks left or more, the table is probed before the quick tricks (DDS: depth >= 20)

KEY_WORDS = 3  # suit lengths of every hand, leader, broken, trump; measured side
ENTRY_WORDS = 9  # key, 5 canonical hands masked to the relevant ranks, the relevance pattern
K_BUCKET, K_HINT = 8, 9  # node scratch: table bucket and way of a best-lead hint
MAX_MOVES = 24  # candidates at one node (17-card hands at most)
MAX_DEPTH = 64  # cards in a deal plus one
EXACT = np.zeros(0, np.int64)  # card_values' utility for exact values
DEFAULT_TABLE_BITS = 16  # buckets; the pool holds 16 entries a bucket (2^20 entries, 88 MB, touched as used)
CHUNK = 8  # entries of one chain stored side by side (a chain is a list of chunks, newest first)
LINK_WORDS = 1 + CHUNK  # a chunk's header (``links`` row): its older chunk, then its entries' filter words
M_STAMP, M_USED, M_CHUNKS, M_CAP = 0, 1, 2, 3  # meta slots: problem stamp, entries used, chunks used, capacity
M_LEN = 4

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_NONE = np.uint64(0xFFFFFFFFFFFFFFFF)


def rules_row(seats: int, trump: int, *, lead_restrict: bool = False, obligation: int = OBLIGE_NONE,
              forced_lead: int = -1, no_trump_trick1: bool = False, sitout_trick1: int = -1,
              features: int = F_ALL) -> np.ndarray:
    """The ``int64`` rules row of a game (see the ``R_*`` slots).

    ``trump``: effective suit 0..3 or -1 (no trump). ``lead_restrict``: a trump may not
    be led before one was played unless the leader holds only trumps (spades broken).
    ``forced_lead``: card that must open trick 1; ``no_trump_trick1``: a void player may
    not trump on trick 1 while holding another card; ``sitout_trick1``: seat that plays
    no card to trick 1 (-1: none). The trick-1 rules apply while ``st[S_T1]`` is set.
    """
    if not 2 <= seats <= 5:
        raise ValueError("the solver handles 2 to 5 seats")
    row = np.zeros(R_LEN, np.int64)
    row[R_SEATS], row[R_TRUMP], row[R_LEAD_RESTRICT], row[R_OBLIGATION] = seats, trump, int(lead_restrict), obligation
    row[R_FORCED_LEAD], row[R_NO_TRUMP_T1], row[R_SITOUT_T1], row[R_FEATURES] = (
        forced_lead, int(no_trump_trick1), sitout_trick1, features)
    return row


class Table:
    """A transposition table (one per thread): a pool of entries chained by hash bucket.

    A bucket (hashed from the suit lengths of every hand, leader and side) heads a chain
    of the entries that share those lengths, newest first; each entry is one rank pattern
    with its bounds. A chain is a list of chunks of :data:`CHUNK` entries that lie side by
    side in memory (a probe reads a chunk in one sweep of the cache instead of one miss an
    entry); ``links``: each chunk's header, its older chunk and the filter word of each of its
    entries (:func:`_filter_word`, a one-word test that rejects most entries of a chain before
    their keys are read), ``heads``: each bucket's newest chunk, its
    stamp and how many entries that chunk holds. ``meta`` (:data:`M_STAMP` ...): the current
    problem's stamp, entries and chunks used, and the pool's capacity in entries (there are
    chunks enough for it whatever the chains' lengths). Buckets are valid for one stamp only;
    :meth:`fresh` starts a new problem (a new deal, rules or measured side) without clearing
    the arrays; a full pool keeps its half of the most cards (:func:`_sweep`, counted in
    ``C_TT_RESETS``) and goes on.
    """

    def __init__(self, bits: int = DEFAULT_TABLE_BITS, entries: int | None = None):
        size = entries or 1 << (bits + 4)  # the pool: 16 entries a bucket unless ``entries`` says
        chunks = table_chunks(size, 1 << bits)
        self.keys = np.zeros((chunks * CHUNK, ENTRY_WORDS), np.uint64)
        self.bounds = np.zeros((chunks * CHUNK, 4), np.int8)  # lower, upper, best lead: suit + 1 (0 = none), class
        self.links = np.zeros((chunks, LINK_WORDS), np.int64)
        self.heads = np.zeros((1 << bits, 3), np.int64)  # newest chunk, stamp, entries in that chunk
        self.meta = np.zeros(M_LEN, np.int64)
        self.meta[M_CAP] = size
        self.counters = np.zeros(C_LEN, np.int64)

    @property
    def stamp(self) -> int:
        return int(self.meta[M_STAMP])

    def fresh(self) -> int:
        self.meta[M_STAMP] += 1
        self.meta[M_USED] = 0
        self.meta[M_CHUNKS] = 0
        return int(self.meta[M_STAMP])


def table_chunks(size: int, buckets: int) -> int:
    """Chunks for a pool of ``size`` entries in ``buckets`` chains: a chain of ``k`` entries
    takes ``ceil(k / CHUNK)`` chunks, so the pool never runs out of chunks before entries."""
    return -(-size // CHUNK) + buckets


# ---------------------------------------------------------------- compiled search


@lazily(nb.int64(nb.int64, nb.uint64[:]), cache=True, inline="always", _nrt=False)
def _suit(c, suit_masks):
    """The effective suit of card ``c`` (which must be in one of ``suit_masks``), without a
    branch: the suit of a card is hard to predict, and a mispredicted branch costs more than
    the three tests."""
    u = np.uint64(c)
    return np.int64((suit_masks[1] >> u) & _ONE) + 2 * np.int64((suit_masks[2] >> u) & _ONE) \
        + 3 * np.int64((suit_masks[3] >> u) & _ONE)


@lazily(nb.boolean(nb.int64, nb.int64, nb.int64, nb.uint64[:]), cache=True, inline="always", _nrt=False)
def _beats(c, best, trump, suit_masks):
    """Card ``c`` beats ``best`` (the card winning the trick so far)."""
    sc = _suit(c, suit_masks)
    sb = _suit(best, suit_masks)
    if sc == sb:
        return c > best
    return trump >= 0 and sc == trump


@nb.njit(cache=True, inline="always", _nrt=False)
def _live(H, n):
    """The cards still held (hands ``H[:n]``, 2 to 5), one word at a time: a loop over the
    hands was vectorized into one wide load of the words just stored one by one (a card
    played), which cannot be forwarded from those stores and stalled on every node."""
    a = H[0] | H[1]
    if n > 2:
        a |= H[2]
    if n > 3:
        a |= H[3]
    if n > 4:
        a |= H[4]
    return a


@nb.njit(cache=True, nogil=True, _nrt=False)
def legal_mask(R, hand, suit_masks, npl, tc, broken, t1):
    """Cards of ``hand`` the player to act may play (rules row ``R``; ``tc[:npl]`` the trick)."""
    return _legal(R, hand, suit_masks, npl, tc, broken, t1)


@nb.njit(cache=True, inline="always", _nrt=False)
def _legal(R, hand, suit_masks, npl, tc, broken, t1):
    """:func:`legal_mask`, inlined into the search's move generation."""
    trump = R[R_TRUMP]
    if npl == 0:
        if t1 and R[R_FORCED_LEAD] >= 0 and hand & bit(R[R_FORCED_LEAD]):
            return bit(R[R_FORCED_LEAD])
        if R[R_LEAD_RESTRICT] and not broken and trump >= 0:
            side = hand & ~suit_masks[trump]
            if side:
                return side
        return hand
    led = _suit(tc[0], suit_masks)
    same = hand & suit_masks[led]
    if same:
        return same
    if trump < 0:
        return hand
    trumps = hand & suit_masks[trump]
    if t1 and R[R_NO_TRUMP_T1]:
        side = hand & ~suit_masks[trump]
        if side:
            return side
    if trumps and R[R_OBLIGATION] != OBLIGE_NONE:
        if R[R_OBLIGATION] == OBLIGE_OVERTRUMP:
            top = np.int64(-1)
            for i in range(npl):
                if suit_masks[trump] & bit(tc[i]) and tc[i] > top:
                    top = tc[i]
            if top >= 0:
                over = trumps & ~((bit(top) << _ONE) - _ONE)
                if over:
                    return over
        return trumps
    return hand


@nb.njit(cache=True, inline="always", _nrt=False)
def _next_seat(R, seat, t1):
    n = R[R_SEATS]
    s = seat + 1
    if s == n:
        s = 0  # no division: the modulo by a run-time seat count was a ``div`` on every card played
    if t1 and s == R[R_SITOUT_T1]:
        s += 1
        if s == n:
            s = 0
    return s


@nb.njit(cache=True, inline="always", _nrt=False)
def _lengths_key(H, n, suit_masks, leader, broken, trump, side, out):
    """The table's hash key (``out[:3]``): every hand's suit lengths, leader, spades broken,
    trump and measured side. Entries under one key differ in their rank patterns."""
    a = _ZERO
    b = _ZERO
    for p in range(n):
        for s in range(4):
            length = np.uint64(popcount(H[p] & suit_masks[s]))
            pos = 4 * p + s
            if pos < 12:
                a |= length << np.uint64(5 * pos)
            else:
                b |= length << np.uint64(5 * (pos - 12))
    b |= (np.uint64(leader) << np.uint64(40)) | (np.uint64(broken) << np.uint64(43)) \
        | (np.uint64(trump + 1) << np.uint64(44))
    out[0] = a
    out[1] = b
    out[2] = np.uint64(side)


def _pext8_table() -> np.ndarray:
    """``T[m, x]``: the bits of ``x`` selected by ``m``, packed low (PEXT on 8 bits)."""
    t = np.zeros((256, 256), np.uint8)
    for m in range(256):
        pos = [b for b in range(8) if m >> b & 1]
        for x in range(256):
            t[m, x] = sum(1 << i for i, b in enumerate(pos) if x >> b & 1)
    return t


_PEXT8 = _pext8_table()
_POP8 = np.array([bin(i).count("1") for i in range(256)], np.uint8)


@nb.njit(cache=True, inline="always", _nrt=False)
def _canonical(H, n, suit_masks, out):
    """Canonical hands into ``out[:5]``: in each suit (16 bits) the cards still held are
    numbered from the bottom (0 = the lowest still out), so only the order of the live cards
    counts, not which cards were played. A suit spans 16 bits at most (``check_suit_masks``)."""
    for p in range(5):
        out[p] = _ZERO
    alive = _live(H, n)
    for s in range(4):
        sh = np.uint64(lowest_card(suit_masks[s]))
        live = (alive & suit_masks[s]) >> sh
        llo = live & np.uint64(0xFF)
        lhi = (live >> np.uint64(8)) & np.uint64(0xFF)
        plo = np.uint64(_POP8[llo])
        shift = np.uint64(16 * s)
        for p in range(n):
            h = (H[p] & suit_masks[s]) >> sh
            v = np.uint64(_PEXT8[llo, h & np.uint64(0xFF)]) \
                | (np.uint64(_PEXT8[lhi, (h >> np.uint64(8)) & np.uint64(0xFF)]) << plo)
            out[p] |= v << shift


@nb.njit(cache=True, inline="always", _nrt=False)
def _hash3(words):
    h = np.uint64(0x9E3779B97F4A7C15)
    for i in range(3):
        h ^= words[i]
        h *= np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(31)
    return h


@nb.njit(cache=True, inline="always", _nrt=False)
def _top_mask_of(rel, alive, suit_masks):
    """The relevance pattern of a card set: per suit the classes from the top down to the
    lowest relevant card (16 bits a suit, numbered from the bottom as in :func:`_canonical`)."""
    top = _ZERO
    for s in range(4):
        live = alive & suit_masks[s]
        rs = rel & live
        if rs:
            low = rs & (~rs + _ONE)
            b = np.uint64(popcount(live & (low - _ONE)))
            cnt = np.uint64(popcount(live))
            top |= (((_ONE << cnt) - _ONE) & ~((_ONE << b) - _ONE)) << np.uint64(16 * s)
    return top


@nb.njit(cache=True, inline="always", _nrt=False)
def _cards_of_top_mask(top, alive, suit_masks):
    """The live cards a pattern covers (inverse of :func:`_top_mask_of`)."""
    out = _ZERO
    for s in range(4):
        seg = (top >> np.uint64(16 * s)) & np.uint64(0xFFFF)
        if seg:
            live = alive & suit_masks[s]
            c = nth_card(live, lowest_card(seg))
            out |= live & ~(bit(c) - _ONE)
    return out


@nb.njit(cache=True, inline="always", _nrt=False)
def _top_trumps(H, R, suit_masks):
    """(holder, k, cards): the seat holding the highest trump still out, how many of the top
    trumps in a row it holds (each wins a trick whenever it is played) and those trumps."""
    n = R[R_SEATS]
    trumps = _ZERO
    for p in range(n):
        trumps |= H[p] & suit_masks[R[R_TRUMP]]
    if trumps == _ZERO:
        return -1, 0, _ZERO
    top = bit(highest_card(trumps))
    holder = -1
    for p in range(n):
        if H[p] & top:
            holder = p
    k = 0
    used = _ZERO
    while trumps:
        top = bit(highest_card(trumps))
        if H[holder] & top:
            k += 1
            trumps ^= top
            used |= top
        else:
            break
    return holder, k, used


@nb.njit(cache=True, inline="always", _nrt=False)
def _sure_trump_tricks(H, R, side, suit_masks):
    """Tricks a side is sure of when it holds every trump still out: each trump of its longest
    trump holding falls in a trick of its own, which a trump of the side wins (DDS's later
    tricks). > 0: the measured side's; < 0: minus the other side's; 0: both hold trumps (or
    none is left). The proof rests on suit lengths only (part of the table's key)."""
    n = R[R_SEATS]
    tm = suit_masks[R[R_TRUMP]]
    mine = 0
    theirs = 0
    for p in range(n):
        k = popcount(H[p] & tm)
        if (side >> p) & 1:
            if k > mine:
                mine = k
        elif k > theirs:
            theirs = k
    if theirs == 0:
        return mine
    if mine == 0:
        return -theirs
    return 0


@nb.njit(cache=True, inline="always", _nrt=False)
def _later_tricks(H, R, side, suit_masks, leader, left):
    """(k, cards): tricks the side *not* on lead is sure of while the side on lead takes all
    tricks but ``k - 1`` (DDS's ``LaterTricksMIN/MAX``, four seats in two partnerships, no trump
    obligation), and the cards that proof rests on. The top trump wins whichever trick it falls
    in (1); the top two in the side's hands, one of them with another trump, fall in different
    tricks (2). With the top trump on the side on lead, the second one behind it (its holder
    plays after the top trump's, and holds another trump) or the second and third (the second's
    holder with another trump) win a trick as long as the side never leads (1). With no trump
    (left), the side on lead takes every trick only if the suits whose top card it holds give
    it as many (each its longer holding in the two hands); else the other side takes one (1),
    resting on its own top cards (DDS's no-trump later tricks); and it takes this trick when
    every suit the leader holds has its top card on the other side (DDS's quick tricks, resting
    on those top cards). ``left``: tricks left."""
    trump = R[R_TRUMP]
    alive = H[0] | H[1] | H[2] | H[3]
    lside = (side >> leader) & 1
    trumps = alive & suit_masks[trump] if trump >= 0 else _ZERO
    if trumps == _ZERO:
        # no trump (left): the side on lead takes every trick only if the suits whose top card
        # it holds last long enough (their longer holding in its hands, summed); the top cards
        # of the other side that anyone else could lead to are what the proof rests on
        total = 0
        used = _ZERO
        lead_used = _ZERO  # the other side's top cards of the suits the leader holds
        lead_wins = False  # the leader holds a suit whose top card is his side's
        for s in range(4):
            live = alive & suit_masks[s]
            if live == _ZERO:
                continue
            top = highest_card(live)
            h = _holder(H, top)
            if ((side >> h) & 1) == lside:
                a = popcount(H[h] & suit_masks[s])
                b = popcount(H[(h + 2) & 3] & suit_masks[s])
                total += a if a > b else b
                if H[leader] & suit_masks[s]:
                    lead_wins = True
            elif live != bit(top):
                used |= bit(top)
                if H[leader] & suit_masks[s]:
                    lead_used |= bit(top)
        if not lead_wins:
            return 1, lead_used  # whatever he leads, the other side wins this trick (DDS's quick tricks)
        if total < left:
            return 1, used
        return 0, _ZERO
    tm = suit_masks[trump]
    c1 = highest_card(trumps)
    h1 = _holder(H, c1)
    rest = trumps ^ bit(c1)
    o1 = ((side >> h1) & 1) != lside
    if rest == _ZERO:
        return (1, bit(c1)) if o1 else (0, _ZERO)
    c2 = highest_card(rest)
    h2 = _holder(H, c2)
    o2 = ((side >> h2) & 1) != lside
    if o1:
        if o2 and (popcount(H[h2] & tm) > 1 or popcount(H[(h2 + 2) & 3] & tm) > 1):
            return 2, bit(c1) | bit(c2)
        return 1, bit(c1)
    if not o2 or popcount(H[h2] & tm) <= 1:
        return 0, _ZERO
    if h1 == ((h2 + 3) & 3):
        return 1, bit(c1) | bit(c2)  # the second trump sits behind the top one
    rest ^= bit(c2)
    if rest == _ZERO:
        return 0, _ZERO
    c3 = highest_card(rest)
    if ((side >> _holder(H, c3)) & 1) != lside:
        return 1, bit(c1) | bit(c2) | bit(c3)
    return 0, _ZERO


@nb.njit(cache=True, inline="always", _nrt=False)
def _second_hand_tricks(H, R, suit_masks, c0, leader):
    """(tricks, cards): DDS's ``QuickTricksSecondHand``, four seats in two partnerships, the
    second hand to play after ``c0`` was led by ``leader``: tricks its side is sure of, and the
    cards that proof rests on. 0 unless the side surely wins the trick in progress: it ruffs
    and the leader's partner (the only opponent still to play) cannot overruff (a proof on
    suit lengths only), or its highest card of the suit led beats the card led and every card
    of the leader's partner in it (who, void, cannot ruff) (resting on that card). With no
    trump (left), the hand that wins the trick then leads: its next card of the suit when it
    holds the two top ones, the top card of every other suit it holds, every card of a suit
    nobody else holds."""
    trump = R[R_TRUMP]
    hand = (leader + 1) & 3
    lho = (leader + 2) & 3
    pd = (leader + 3) & 3
    sm = suit_masks[_suit(c0, suit_masks)]
    tm = suit_masks[trump] if trump >= 0 else _ZERO
    if tm != _ZERO and (sm & tm) == _ZERO and (((H[hand] & sm) == _ZERO and H[hand] & tm)
                                             or ((H[pd] & sm) == _ZERO and H[pd] & tm)):
        if (H[lho] & sm) == _ZERO and H[lho] & tm:
            return 0, _ZERO
        return 1, _ZERO  # the side ruffs and the leader's partner cannot overruff
    ours = (H[hand] | H[pd]) & sm
    if ours == _ZERO:
        return 0, _ZERO
    rr = highest_card(ours)
    if rr < c0 or highest_card(H[lho] & sm) > rr:  # (highest_card of nothing is -1)
        return 0, _ZERO
    if tm != _ZERO and (sm & tm) == _ZERO and (H[lho] & sm) == _ZERO and H[lho] & tm:
        return 0, _ZERO
    used = bit(rr)
    alive = H[0] | H[1] | H[2] | H[3]
    if (tm != _ZERO and alive & tm) or R[R_LEAD_RESTRICT]:
        return 1, used
    # no trump (left): the winner of this trick leads the next ones
    hh = hand if H[hand] & bit(rr) else pd
    q = 1
    live = (alive | bit(c0)) & sm
    if highest_card(live) == rr:
        rest = live ^ bit(rr)
        if rest:
            c2 = highest_card(rest)
            if H[hh] & bit(c2):
                q += 1
                used |= bit(c2)
    for s in range(4):
        own = H[hh] & suit_masks[s]
        if own == _ZERO or suit_masks[s] == sm:
            continue
        live = alive & suit_masks[s]
        if live == own:
            q += popcount(own)  # a suit nobody else holds
        else:
            top = highest_card(live)
            if own & bit(top):
                q += 1
                used |= bit(top)
    return q, used


@nb.njit(cache=True, inline="always", _nrt=False)
def _last_trick(H, R, suit_masks, leader, t1):
    """(winner, rel) of the last trick, every player holding one card; ``rel``: the winning
    card if it beat a card of its own suit (its rank decided the trick), else nothing."""
    n = R[R_SEATS]
    trump = R[R_TRUMP]
    best = lowest_card(H[leader])
    winner = leader
    played = bit(best)
    s = leader
    for _ in range(n - 1):
        s = _next_seat(R, s, t1)
        if s == leader:
            break
        c = lowest_card(H[s])
        if c >= 0:
            played |= bit(c)
            if _beats(c, best, trump, suit_masks):
                best = c
                winner = s
    ws = _suit(best, suit_masks)
    if popcount(played & suit_masks[ws]) > 1:
        return winner, bit(best)
    return winner, _ZERO


@nb.njit(cache=True, inline="always", _nrt=False)
def _quick_tricks(H, R, side, suit_masks, leader, broken, need):
    """(tricks, cards): :func:`_cash` for the leader, or better, a low card led to the partner's
    winner (every opponent following or unable to ruff) and then the partner's own cash, after
    the leader's own winners of the other suits when no trump is left; with nothing to cash, one
    trick by a ruff in the partner's hand. It stops looking once it has ``need`` tricks."""
    q, used = _cash(H, R, side, suit_masks, leader, broken)
    if q >= need:
        return q, used
    n = R[R_SEATS]
    trump = R[R_TRUMP]
    mine = (side >> leader) & 1
    partner = -1
    for p in range(n):
        if p != leader and ((side >> p) & 1) == mine:
            if partner >= 0:
                return q, used  # more than one partner: the leader's own cash only
            partner = p
    if partner < 0 or q >= popcount(H[leader]):
        return q, used
    hand = H[leader]
    only_trumps = trump >= 0 and (hand & ~suit_masks[trump]) == _ZERO
    if q == 0 and trump >= 0 and H[partner] & suit_masks[trump]:
        # a ruff in the partner's hand (DDS's quick tricks): a side suit the leader holds and the
        # partner does not, each opponent following it or holding no trump that beats the
        # partner's top trump (the proof rests on the trumps from that one up when one is void)
        tm = suit_masks[trump]
        ptop = highest_card(H[partner] & tm)
        for s in range(4):
            if s == trump or (hand & suit_masks[s]) == _ZERO or H[partner] & suit_masks[s]:
                continue
            ok = True
            void_opp = False
            for p in range(n):
                if ((side >> p) & 1) != mine and (H[p] & suit_masks[s]) == _ZERO and H[p] & tm:
                    void_opp = True
                    if highest_card(H[p] & tm) > ptop:
                        ok = False
            if ok:
                q = 1
                used = _ZERO
                if void_opp:
                    alive = _live(H, n)
                    used = alive & tm & ~(bit(ptop) - _ONE)
                break
    for s in range(4):
        if q >= need:
            break
        own = hand & suit_masks[s]
        ps = H[partner] & suit_masks[s]
        if own == _ZERO or ps == _ZERO:
            continue
        if s == trump and R[R_LEAD_RESTRICT] and not broken and not only_trumps:
            continue
        ptop = highest_card(ps)
        low = lowest_card(own)
        if low > ptop:
            continue
        ok = True
        for p in range(n):
            if ((side >> p) & 1) != mine:
                o = H[p] & suit_masks[s]
                if o:
                    if highest_card(o) > ptop:
                        ok = False
                elif trump >= 0 and s != trump and H[p] & suit_masks[trump]:
                    ok = False  # he could ruff the partner's winner
        if not ok:
            continue
        # the trick: the leader's lowest, the partner's top, each opponent's lowest of the suit
        # (a void opponent discards: fewer opponent cards never cost the partner a winner)
        gone = bit(low) | bit(ptop)
        for p in range(n):
            if ((side >> p) & 1) != mine and H[p] & suit_masks[s]:
                gone |= bit(lowest_card(H[p] & suit_masks[s]))
        r0 = H[0] & gone
        r1 = H[1] & gone
        r2 = H[2] & gone if n > 2 else _ZERO
        r3 = H[3] & gone if n > 3 else _ZERO
        r4 = H[4] & gone if n > 4 else _ZERO
        for p in range(n):
            H[p] &= ~gone
        q2, used2 = _cash(H, R, side, suit_masks, partner, broken or s == trump)
        H[0] |= r0
        H[1] |= r1
        if n > 2:
            H[2] |= r2
        if n > 3:
            H[3] |= r3
        if n > 4:
            H[4] |= r4
        alive = _live(H, n)
        if 1 + q2 > q:
            q = 1 + q2
            used = used2 | (alive & suit_masks[s] & ~(bit(ptop) - _ONE))
        if q < need and R[R_FEATURES] & F_CROSS and (trump < 0 or (alive & suit_masks[trump]) == _ZERO):
            # the leader's own winners first, then the cross and the partner's cash (DDS's quick
            # tricks add them up): the leader cashes only in suits the rest leaves alone
            skip = suit_masks[s]
            for t in range(4):
                if used2 & suit_masks[t]:
                    skip |= suit_masks[t]
            q1, used1 = _cash_before_cross(H, side, suit_masks, leader, partner, mine, n, skip)
            if q1 > 0 and 1 + q2 + q1 > q and popcount(hand & ~skip) - q1 >= q2:
                q = q1 + 1 + q2
                used = used1 | used2 | (alive & suit_masks[s] & ~(bit(ptop) - _ONE))
    return q, used


@nb.njit(cache=True, inline="always", _nrt=False)
def _walk_winners(H, side, mine, n, ruff, sm, alive, own, wins, k, ps, cross, top_opp, cap, long_cards):
    """(tricks, lowest card cashed, over, partner's cards left, alt, alt_used): the leader's
    ``k`` highest ``wins`` of the suit ``sm`` led from the top, the partner (his cards ``ps``
    of the suit) unblocking under each: his highest card below it, or, when every card of his
    is higher, he overtakes (``over``) and the walk stops at that trick. With ``cross``
    (:func:`_cash_with`'s ``F_CROSS``) also ``alt``, the suit's count when it ends with the
    partner on lead cashing his own cards (his cards ``top_opp`` above every opponent's, at
    most ``cap`` tricks), and the cards that count rests on. With ``long_cards``, when every
    winner was cashed and every opponent's cards of the suit fell under them and the
    partner's too, with no opponent holding a card of ``ruff`` (the trumps, when the suit is
    not trump), the leader's other cards of the suit count as well (DDS's QtricksLeadHand*).
    Shared by :func:`_cash_with` and :func:`_cash_before_cross`; inlined (as functions of
    their own, called, the cross counts lost no trump's gain)."""
    n_own = popcount(own)
    alt = 0
    alt_used = _ZERO
    m = wins
    over = False
    j = 0
    low = np.int64(-1)
    while j < k:
        c = highest_card(m)
        m ^= bit(c)
        low = c
        j += 1
        if ps:
            under = ps & (bit(c) - _ONE)
            if cross and under and j == n_own:
                # the leader's last card of the suit: the partner may overtake it with his
                # lowest card above it and cash his cards above every opponent's, or every card
                # he has left once the opponents are out of the suit (QT762 opposite AJ against
                # 85: low to the ace, the jack overtaken by the queen, five tricks)
                hi = ps & ~((bit(c) << _ONE) - _ONE)
                if hi:
                    after = ps ^ bit(lowest_card(hi))
                    rest = after & top_opp
                    a = min(j + popcount(rest), cap)
                    if long_cards and after != rest and _suit_out(H, side, mine, n, sm, ruff, j):
                        # (the proof rests on the same cards: the lengths are in the table's key)
                        a = min(j + popcount(after), cap)
                    if a > alt:
                        alt = a
                        alt_used = alive & sm & ~(bit(min(c, lowest_card(rest) if rest else c)) - _ONE)
            if under:
                ps ^= bit(highest_card(under))
            else:
                over = True  # every card of his is higher: he wins this trick and leads
                if cross:
                    a = min(j + popcount(ps) - 1, cap)  # and cashes the rest, all above the leader's
                    if a > alt:
                        alt = a
                        alt_used = alive & sm & ~(bit(c) - _ONE)
                break
    if long_cards and not over and j == popcount(wins) and ps == _ZERO:
        # long cards: every opponent's cards of the suit fell under the winners and the
        # partner's under them too; with no trump among the opponents (or in the trump suit
        # itself) the leader's other cards of the suit win as well
        if _suit_out(H, side, mine, n, sm, ruff, j):
            j = n_own
    return j, low, over, ps, alt, alt_used


@nb.njit(cache=True, inline="always", _nrt=False)
def _suit_out(H, side, mine, n, sm, ruff, rounds):
    """Whether every opponent is out of the suit ``sm`` after ``rounds`` rounds of it and holds
    no card of ``ruff`` (the trumps, when the suit is not trump): the side's other cards of the
    suit then win."""
    for p in range(n):
        if ((side >> p) & 1) != mine and (popcount(H[p] & sm) > rounds or H[p] & ruff):
            return False
    return True


@nb.njit(cache=True, inline="always", _nrt=False)
def _cash_before_cross(H, side, suit_masks, leader, partner, mine, n, skip):
    """(tricks, cards): with no trump left, the winners the leader cashes before he crosses to
    his partner, in the suits outside ``skip`` (the crossing suit and the suits of the partner's
    cash, whose cards both keep). Per suit as :func:`_cash_with` counts them (the partner
    unblocking, long cards); a suit where the partner would have to overtake is left alone. The
    partner discards (void in a suit cashed) only cards of the suits the leader leaves alone,
    so (0, 0) when he has too few of them. The leader's discards during the partner's cash are
    the caller's to check."""
    hand = H[leader]
    opp = _ZERO
    for p in range(n):
        if ((side >> p) & 1) != mine:
            opp |= H[p]
    alive = _live(H, n)
    total = 0
    used = _ZERO
    discards = 0
    free = 0
    for s in range(4):
        sm = suit_masks[s]
        if sm & skip:
            continue
        own = hand & sm
        pcards = H[partner] & sm
        others = opp & sm
        wins = own
        if others:
            wins = own & ~((bit(highest_card(others)) << _ONE) - _ONE)
        k = popcount(wins)
        if k == 0:
            free += popcount(pcards)
            continue
        j, low, over, _, _, _ = _walk_winners(H, side, mine, n, _ZERO, sm, alive, own, wins, k, pcards,
                                              False, ~_ZERO, 99, True)
        if over:
            free += popcount(pcards)
            continue
        plen = popcount(pcards)
        if j > plen:
            discards += j - plen
        total += j
        used |= alive & sm & ~(bit(low) - _ONE)
    if discards > free:
        return 0, _ZERO
    return total, used


@nb.njit(cache=True, inline="always", _nrt=False)
def _cash(H, R, side, suit_masks, leader, broken):
    """(tricks, cards): :func:`_cash_with` for the leader. A partner who holds trumps and
    other cards, with no obligation to trump, is counted as unblocking like any partner (he
    discards a card of a side suit when void) as long as he has a side card for every trick
    counted; beyond that, the first tricks of the sequence (as many as his side cards), or
    the count with only the cards above everybody's, whichever is more."""
    q, used, spare = _cash_with(H, R, side, suit_masks, leader, broken, False)
    if q <= spare:
        return q, used
    q2, used2, _ = _cash_with(H, R, side, suit_masks, leader, broken, True)
    if q2 >= spare:
        return q2, used2
    return spare, used


@nb.njit(cache=True, inline="always", _nrt=False)
def _cash_with(H, R, side, suit_masks, leader, broken, force_simple):
    """(tricks, cards, spare): winners the leader can cash at once, the cards that proof rests
    on, and how many tricks of it hold without more (the partner's side cards when he holds
    trumps and is counted as unblocking; 99 otherwise).

    In each suit the leader's cards above every opponent's card win when led from the top,
    limited in a side suit by the length of every opponent who could ruff. A partner under
    them unblocks (plays his highest card below the leader's) or, when all his cards are
    higher, overtakes and takes the lead: such a suit is cashed last and counts up to that
    trick. A partner void in the suit discards his highest card of another suit, which never
    makes him overtake later. When every opponent's cards of the suit fall under the
    winners (and the partner's too), with no opponent able to ruff, the leader's other cards
    of the suit count as well (long cards). With more than one partner, a partner who must
    trump when void (``R_OBLIGATION``), or ``force_simple``, only the leader's cards above
    everybody's count.

    With ``F_CROSS`` a suit may also end with the partner on lead cashing his own cards (he
    overtakes the leader's last card of the suit, or every card of his is higher, or the leader
    leads a low card to his cards above every opponent's after cashing his own winners): he keeps
    those cards while the leader cashes the other suits, so that count stops at the hand's
    length."""
    n = R[R_SEATS]
    trump = R[R_TRUMP]
    mine = (side >> leader) & 1
    hand = H[leader]
    alive = _ZERO
    opp = _ZERO
    partner = -1
    partners = 0
    for p in range(n):
        alive |= H[p]
        if ((side >> p) & 1) != mine:
            opp |= H[p]
        elif p != leader:
            partners += 1
            partner = p
    ptrumps = partners == 1 and trump >= 0 and (H[partner] & suit_masks[trump]) != _ZERO
    simple = force_simple or partners > 1 or (ptrumps and R[R_OBLIGATION] != OBLIGE_NONE)
    spare = 99
    if ptrumps and not simple:
        spare = popcount(H[partner] & ~suit_masks[trump])  # side cards to discard, never ruffing
    total = 0
    last = 0  # the best count of a suit that ends with the partner on lead
    last_used = _ZERO
    bonus = 0  # or the extra tricks of a suit that ends with the partner cashing his own cards
    bonus_used = _ZERO
    used = _ZERO
    only_trumps = trump >= 0 and (hand & ~suit_masks[trump]) == _ZERO
    for s in range(4):
        own = hand & suit_masks[s]
        if own == _ZERO:
            continue
        if s == trump and R[R_LEAD_RESTRICT] and not broken and not only_trumps:
            continue
        others = (opp if not simple else alive & ~hand) & suit_masks[s]
        wins = own
        if others:
            wins = own & ~((bit(highest_card(others)) << _ONE) - _ONE)
        k = popcount(wins)
        if k == 0:
            continue
        cap = 99  # the rounds before an opponent who can ruff is void
        if trump >= 0 and s != trump:
            for p in range(n):
                # an opponent who can ruff; in the simple count a partner too: one who ruffs (he
                # must, void with only trumps or under an obligation to trump) takes the lead
                if p != leader and (((side >> p) & 1) != mine or simple) and H[p] & suit_masks[trump]:
                    length = popcount(H[p] & suit_masks[s])
                    if length < cap:
                        cap = length
            if cap < k:
                k = cap
            if k == 0:
                continue
        ps = H[partner] & suit_masks[s] if partner >= 0 and not simple else _ZERO
        cross = R[R_FEATURES] & F_CROSS and ps != _ZERO
        top_opp = ~_ZERO  # the cards above every opponent's
        if cross and others:
            top_opp = ~((bit(highest_card(others)) << _ONE) - _ONE)
        n_own = popcount(own)
        ruff = suit_masks[trump] if trump >= 0 and s != trump else _ZERO
        j, low, over, ps, alt, alt_used = _walk_winners(H, side, mine, n, ruff, suit_masks[s], alive, own, wins, k,
                                                        ps, cross, top_opp, cap, not simple)
        cards = alive & suit_masks[s] & ~(bit(low) - _ONE)
        if cross and not over and ps and n_own > j:
            # the partner's cards above every opponent's, which he keeps after unblocking, reached
            # with a low card (DDS's second best at the partner): this suit cashed first, the
            # crossing last, with the partner then on lead
            pt = ps & top_opp
            e = min(popcount(pt), cap - j)
            if e > 0 and j + e > alt:
                if (n_own == j + 1 and ps != pt and not simple
                        and _suit_out(H, side, mine, n, suit_masks[s], ruff, j + e)):
                    # the crossing card is the leader's last of the suit and the opponents are out
                    # of it once the partner's top cards are cashed: every card of his wins (A4
                    # opposite KQT76 against 85: the ace, the king unblocked, five tricks)
                    alt = min(j + popcount(ps), cap)
                else:
                    for _ in range(popcount(pt) - e):
                        pt ^= bit(lowest_card(pt))
                    alt = j + e
                alt_used = alive & suit_masks[s] & ~(bit(min(low, lowest_card(pt))) - _ONE)
        if over:
            if j > last:
                last = j
                last_used = cards
            if alt > bonus:
                bonus = alt
                bonus_used = alt_used
        else:
            total += j
            used |= cards
            if alt - j > bonus:
                bonus = alt - j
                bonus_used = alt_used | cards
    if bonus > last:
        # the partner keeps his cards of that suit while the leader cashes the rest: he has
        # cards enough for the other tricks only up to the hand's length
        bonus = min(bonus, popcount(hand) - total)
    if bonus > last:
        total += bonus
        used |= bonus_used
    else:
        total += last
        used |= last_used
    return total, used, spare


@nb.njit(cache=True, inline="always", _nrt=False)
def _holder(H, c):
    """The seat of four holding card ``c`` (which one of them must hold), without a branch."""
    u = np.uint64(c)
    return np.int64((H[1] >> u) & _ONE) + 2 * np.int64((H[2] >> u) & _ONE) + 3 * np.int64((H[3] >> u) & _ONE)


@nb.njit(cache=True, inline="always", _nrt=False)
def _bonus(c, kill, hint, a, b):
    """DDS's bonus for the killer move (``a``) or else the table's best lead (``b``)."""
    if c == kill:
        return a
    if c == hint:
        return b
    return 0


@nb.njit(cache=True, inline="always", _nrt=False)
def _lead_suit_facts(H, seat, sm, alive):
    """What :func:`_lead_weight` reads of a suit (mask ``sm``), the same for every card of it:
    the lengths of the leader, LHO, partner and RHO, the top live card and the seat holding
    it, the second one and its seat, the seat holding the third (-1: none)."""
    lho = (seat + 1) & 3
    pd = (seat + 2) & 3
    rho = (seat + 3) & 3
    live = alive & sm
    length = popcount(H[seat] & sm)
    len_l = popcount(H[lho] & sm)
    len_p = popcount(H[pd] & sm)
    len_r = popcount(H[rho] & sm)
    w_card = highest_card(live)
    w_h = _holder(H, w_card)
    rest = live ^ bit(w_card)
    s_card = np.int64(-1)
    s_h = np.int64(-1)
    t_h = np.int64(-1)
    if rest:
        s_card = highest_card(rest)
        s_h = _holder(H, s_card)
        rest ^= bit(s_card)
        if rest:
            t_h = _holder(H, highest_card(rest))
    return length, len_l, len_p, len_r, w_card, w_h, s_card, s_h, t_h


@nb.njit(cache=True, inline="always", _nrt=False)
def _lead_weight(H, seat, c, s, trump, alive, suit_masks, left, kill, hint,
                 length, len_l, len_p, len_r, w_card, w_h, s_card, s_h, t_h):
    """DDS's weight of leading card ``c`` (of suit ``s``) in a four-seat partnership game
    (``WeightAllocTrump0`` / ``WeightAllocNT0``, without their killer and table-move terms,
    which the search applies itself): it looks at the whole position, not at the card alone.
    Every suit starts from a penalty growing with the opponents' lengths in it (their replies
    make the subtree; a void opponent counts as a long suit), then: can the side win the trick
    (a top card, partner's top card, partner's ruff the opponents cannot overruff), who holds
    the top three cards (a finesse position: LHO's top card with partner's second one), ruffs
    for either side, and the card's rank among the live cards of its suit (``rr``: 1 for the
    top card). The suit's facts (lengths, top cards and their holders) come from
    :func:`_lead_suit_facts`, once a suit. ``kill``, ``hint``: the killer move and the table's
    best lead (cards, or -1), which get DDS's bonus (larger when the side wins the trick)."""
    lho = (seat + 1) & 3
    pd = (seat + 2) & 3
    rho = (seat + 3) & 3
    sm = suit_masks[s]
    live = alive & sm
    rr = 1 + popcount(live & ~((bit(c) << _ONE) - _ONE))
    below = live & (bit(c) - _ONE)
    seq = below != _ZERO and (H[seat] & bit(highest_card(below))) != _ZERO
    count_l = (len_l if len_l else left) * 4
    count_r = (len_r if len_r else left) * 4
    if trump < 0:
        delta = -(((count_l + count_r) * 32) // 19)
        if len_p == 0:
            delta -= 9
        if c == w_card or (H[pd] & sm) > ((H[lho] | H[rho]) & sm):
            if s_h == rho:
                if len_r != 1:
                    delta -= 1
            elif s_h == lho:
                delta += 22 if len_l != 1 else 16
            if (s_h != lho or len_l == 1) and (s_h != rho or len_r == 1):
                return delta + 45 + rr + _bonus(c, kill, hint, 126, 32)
            return delta + 18 + rr + _bonus(c, kill, hint, 126, 32)
        if w_h == rho or s_h == rho:
            if len_r != 1:
                delta -= 10
        elif w_h == lho and s_h == pd:
            if len_p != 1:
                delta += 31
        if s_h == pd and t_h == pd:
            delta += 35
        elif (s_h == seat and t_h == pd and len_p > 1) or (s_h == pd and t_h == seat and len_p > 1):
            delta += 25
        if (len_l == 1 and w_h == lho) or (len_r == 1 and w_h == rho):
            return delta + 28 + rr + _bonus(c, kill, hint, 47, 19)
        if w_h == seat:
            return delta - 17 + rr + _bonus(c, kill, hint, 47, 19)
        if not seq:
            return delta + 12 + rr + _bonus(c, kill, hint, 47, 19)
        if c == s_card:
            return delta + 48 + _bonus(c, kill, hint, 47, 19)
        return delta + 29 - rr + _bonus(c, kill, hint, 47, 19)
    tm = suit_masks[trump]
    t_l = H[lho] & tm
    t_p = H[pd] & tm
    t_r = H[rho] & tm
    side_suit = s != trump
    bonus = 0
    if side_suit and ((len_l == 0 and t_l) or (len_r == 0 and t_r)):
        bonus = -12  # an opponent can ruff
    if side_suit and len_p == 0 and t_p and len_r > 0:
        bonus += 17  # partner can ruff
    if w_h == rho or s_h == rho:
        if len_r != 1:
            bonus -= 12
    elif w_h == lho and s_h == pd:
        if len_p != 1:
            bonus += 27  # a finesse through LHO
    if side_suit and length == 1 and H[seat] & tm and len_p > 1 and w_h == pd:
        bonus += 19  # partner wins and returns the suit for a ruff
    delta = bonus - (((count_l + count_r) * 32) // 13)
    win = False
    if c == w_card:
        if side_suit:
            if len_p != 0 or t_p == _ZERO:
                win = (len_l != 0 or t_l == _ZERO) and (len_r != 0 or t_r == _ZERO)
            else:
                win = (len_l != 0 or t_p > t_l) and (len_r != 0 or t_p > t_r)
        else:
            win = True
    elif (H[pd] & sm) > ((H[lho] | H[rho]) & sm):
        if side_suit:
            win = (len_l != 0 or t_l == _ZERO) and (len_r != 0 or t_r == _ZERO)
        else:
            win = True
    elif side_suit and len_p == 0 and t_p:
        if len_l == 0 and t_l and len_r == 0 and t_r:
            win = t_p > (t_l | t_r)
        elif len_l == 0 and t_l:
            win = t_p > t_l
        elif len_r == 0 and t_r:
            win = t_p > t_r
        else:
            win = True
    if win:
        if (len_l == 1 and w_h == lho) or (len_r == 1 and w_h == rho):
            return delta + 35 + rr + _bonus(c, kill, hint, 55, 18)
        if w_h == seat:
            if s_h == pd:
                return delta + 48 + rr + _bonus(c, kill, hint, 55, 18)
            if c == w_card:
                return delta + 31 + _bonus(c, kill, hint, 55, 18)
            return delta - 3 + rr + _bonus(c, kill, hint, 55, 18)
        if w_h == pd:
            return delta + (42 if s_h == seat else 28) + rr + _bonus(c, kill, hint, 55, 18)
        if seq and c == s_card:
            return delta + 40 + _bonus(c, kill, hint, 55, 18)
        if seq:
            return delta + 22 + rr + _bonus(c, kill, hint, 55, 18)
        return delta + 11 + rr + _bonus(c, kill, hint, 55, 18)
    if s_h == pd and t_h == pd:
        delta += 20
    elif (s_h == seat and t_h == pd and len_p > 1) or (s_h == pd and t_h == seat and len_p > 1):
        delta += 13
    if (len_l == 1 and w_h == lho) or (len_r == 1 and w_h == rho):
        return delta + rr + 2 + _bonus(c, kill, hint, 18, 0)
    if w_h == seat:
        if s_h == pd:
            return delta + 33 + rr + _bonus(c, kill, hint, 18, 0)
        if c == w_card:
            return delta + 38 + _bonus(c, kill, hint, 18, 0)
        return delta - 14 + rr + _bonus(c, kill, hint, 18, 0)
    if w_h == pd:
        return delta + 34 + rr + _bonus(c, kill, hint, 18, 0)
    if seq and c == s_card:
        return delta + 35 + _bonus(c, kill, hint, 18, 0)
    return delta + 17 - (2 + popcount(sm & (bit(c) - _ONE))) + _bonus(c, kill, hint, 18, 0)


@nb.njit(cache=True, inline="always", _nrt=False)
def _rk(x, sm):
    """DDS's rank (2..14) of the highest card of ``x`` in suit mask ``sm``, 0 if none."""
    if x == _ZERO:
        return 0
    return 2 + popcount(sm & (bit(highest_card(x)) - _ONE))


@nb.njit(cache=True, inline="always", _nrt=False)
def _rk_low(x, sm):
    """DDS's rank (2..14) of the lowest card of ``x`` in suit mask ``sm``, 0 if none."""
    if x == _ZERO:
        return 0
    return 2 + popcount(sm & (bit(lowest_card(x)) - _ONE))


@nb.njit(cache=True, inline="always", _nrt=False)
def _second_weight(H, seat, c, lead_card, trump, trump_out, live, suit_masks):
    """DDS's weight of card ``c`` for the second hand following suit (``WeightAllocTrumpNotvoid1``,
    or ``WeightAllocNTNotvoid1`` in no trump or with no trump left), four seats in two
    partnerships: it plays to win only when its side can win the trick (its own card above the
    third hand's, or its partner's above the led card and the third hand's), else low; a card
    that beats the led card but falls to the third or fourth hand counts as low. ``live``: the
    cards of the suit still in the hands (DDS's ``aggr``)."""
    third = (seat + 1) & 3
    fourth = (seat + 2) & 3
    ls = _suit(lead_card, suit_masks)
    sm = suit_masks[ls]
    h3 = H[third] & sm
    h4 = H[fourth] & sm
    max3rd = _rk(h3, sm)
    maxpd = _rk(h4, sm)
    lead_r = 2 + popcount(sm & (bit(lead_card) - _ONE))
    rank = 2 + popcount(sm & (bit(c) - _ONE))
    r_rank = 1 + popcount(live & ~((bit(c) << _ONE) - _ONE))
    below = (live | bit(lead_card)) & (bit(c) - _ONE)
    seq = below != _ZERO and (H[seat] & bit(highest_card(below))) != _ZERO
    if trump < 0 or not trump_out:
        if maxpd > lead_r and maxpd > max3rd:
            return -rank  # partner beats both opponents: play low
        min3rd = _rk_low(h3, sm)
        minpd = _rk_low(h4, sm)
        if rank > lead_r and rank > max3rd:
            return 81 - rank
        if min3rd > rank or minpd > rank:
            return -3 + r_rank
        if rank < lead_r:
            return -11 + r_rank
        if seq:
            return 10 + r_rank
        return 13 - rank
    tm = suit_masks[trump]
    t3 = H[third] & tm
    t4 = H[fourth] & tm
    min3rd = _rk_low(h3, sm)
    minpd = _rk_low(h4, sm)
    win = False
    if ls == trump:
        if (maxpd > lead_r and maxpd > max3rd) or (rank > lead_r and rank > max3rd):
            win = True
    elif rank > lead_r and rank > max3rd:
        if max3rd != 0 or t3 == _ZERO:
            win = True
        elif maxpd == 0 and t4 != _ZERO and t4 > t3:
            win = True
    elif maxpd > lead_r and maxpd > max3rd:
        if max3rd != 0 or t3 == _ZERO:
            win = True
    elif lead_r > maxpd and lead_r > max3rd and lead_r > rank:
        if maxpd == 0 and t4 != _ZERO:
            if max3rd != 0 or t3 == _ZERO or t4 > t3:
                win = True
    elif maxpd == 0 and t4 != _ZERO:
        win = True
    if win:
        if min3rd > rank:
            return 40 + r_rank  # partner must be winning: we can't
        if maxpd > lead_r and (H[(seat + 3) & 3] & sm) > h4:
            return 41 + r_rank
        if rank > lead_r:
            if rank < maxpd:
                return 78 - rank
            if rank > max3rd:
                return 73 - rank
            if seq:
                return 62 - rank
            return 49 - rank
        if maxpd > 0:
            return 47 - rank
        return 40 - rank
    if rank < min3rd or rank < minpd:
        return -9 + r_rank  # beaten anyway
    if rank < lead_r:
        return -16 + r_rank  # already beaten
    if seq:
        return 22 - rank
    return 10 - rank


@nb.njit(cache=True, inline="always", _nrt=False)
def _discard_facts(H, seat, c, sm, alive):
    """What DDS's void weights ask of card ``c`` of suit ``sm`` in ``seat``'s hand: its rank in
    the suit (2 = the deuce), the seat's length there, and whether the seat holds the suit's
    highest live card and its second highest (``alive``: every live card)."""
    rank = 2 + popcount(sm & (bit(c) - _ONE))
    count = popcount(H[seat] & sm)
    live = alive & sm
    second_mine = False
    top_mine = False
    if live:
        top = highest_card(live)
        top_mine = (H[seat] & bit(top)) != _ZERO
        rest = live ^ bit(top)
        if rest:
            second_mine = (H[seat] & bit(highest_card(rest))) != _ZERO
    return rank, count, top_mine, second_mine


@nb.njit(cache=True, inline="always", _nrt=False)
def _second_void_weight(H, seat, c, lead_card, trump, trump_out, alive, suit_masks):
    """DDS's weight of card ``c`` for the second hand void in the suit led
    (``WeightAllocTrumpVoid1``, or ``WeightAllocNTVoid1`` in no trump or with no trump left),
    four seats in two partnerships: no ruff (a discard) when its partner, the fourth hand, will
    win the trick, a ruff only when it stands, discards from long suits and not from Kx or a
    singleton top card. ``alive``: every live card, the trick's included."""
    third = (seat + 1) & 3
    fourth = (seat + 2) & 3
    ls = _suit(lead_card, suit_masks)
    lsm = suit_masks[ls]
    s = _suit(c, suit_masks)
    sm = suit_masks[s]
    rank, count, top_mine, second_mine = _discard_facts(H, seat, c, sm, alive)
    h3 = H[third] & lsm
    h4 = H[fourth] & lsm
    partner_wins = h4 > (h3 | bit(lead_card))
    if trump < 0 or not trump_out:
        if partner_wins:
            add = (count << 6) // 23
            if count == 2 and second_mine:
                add -= 2
            elif count == 1 and top_mine:
                add -= 3
        else:
            add = (count << 6) // 33
            if count == 2 and second_mine:
                add -= 6
            elif count == 1 and top_mine:
                add -= 8
        return add - rank
    tm = suit_masks[trump]
    t3 = H[third] & tm
    t4 = H[fourth] & tm
    if ls == trump:  # a pitch
        if partner_wins:
            return (count << 6) // 44 - rank
        add = (count << 6) // 36
        if count == 2 and second_mine:
            add -= 4
        return add - rank
    if s != trump:  # a discard on a side suit
        if h3:
            good = partner_wins or (h4 == _ZERO and t4 != _ZERO)
        elif h4 == _ZERO and t4 > t3:
            good = True  # partner can overruff the third hand
        else:
            good = t3 == _ZERO and h4 > bit(lead_card)
        if good:
            return 60 + (count << 6) // 44 - rank
        add = -2 + (count << 6) // 36
        if count == 2 and second_mine:
            add -= 4
        return add - rank
    if h3 or (h4 == _ZERO and t4 != _ZERO and t4 > t3):  # a ruff: the third hand follows, or partner overruffs
        return 24 - rank + (count << 6) // 44
    if bit(c) > t3:  # the third hand cannot overruff
        return 24 - rank + (count << 6) // 44
    add = (count << 6) // 36
    if count == 2 and second_mine:
        add -= 4
    return 15 - rank + add


@nb.njit(cache=True, inline="always", _nrt=False)
def _late_void_weight(H, seat, npl, c, lead_card, win_card, partner_wins, trump, trump_out, alive, suit_masks):
    """DDS's weight of card ``c`` for the third (``npl`` 2) or fourth hand (3) void in the suit led
    (``WeightAllocTrumpVoid2/3``, ``WeightAllocNTVoid2/3`` in no trump or with no trump left),
    four seats in two partnerships: discard small from a long suit, not from Kx or a singleton
    top card; do not ruff the partner's sure winner nor underruff; ruff as cheaply as wins.
    ``win_card``: the trick's winning card so far; ``alive``: every live card, the trick's
    included."""
    ls = _suit(lead_card, suit_masks)
    lsm = suit_masks[ls]
    s = _suit(c, suit_masks)
    sm = suit_masks[s]
    rank, count, top_mine, second_mine = _discard_facts(H, seat, c, sm, alive)
    in_hands = H[0] | H[1] | H[2] | H[3]
    r_rank = 1 + popcount(in_hands & sm & ~((bit(c) << _ONE) - _ONE))
    ws = _suit(win_card, suit_masks)
    win_r = 2 + popcount(suit_masks[ws] & (bit(win_card) - _ONE))
    no_trump = trump < 0 or not trump_out
    if npl == 2:
        if no_trump:
            add = (count << 6) // 24
            if (count == 2 and second_mine) or (count == 1 and top_mine):
                add -= 4
            return add - rank
        if ls == trump or s != trump:
            return (count << 6) // 40 - rank  # discard small from a long suit
        fourth = (seat + 1) & 3
        leader = (seat + 2) & 3
        h4 = H[fourth] & lsm
        t4 = H[fourth] & suit_masks[trump]
        max4th = _rk(h4, lsm)
        lead_r = 2 + popcount(lsm & (bit(lead_card) - _ONE))
        if partner_wins and win_card == lead_card and lead_r > max4th and (max4th != 0 or t4 == _ZERO):
            return -rank - 50  # partner's sure winner: do not ruff it
        if ws == trump and rank < win_r:
            return -32 + r_rank + (count << 6) // 40  # no underruff
        add = (count << 6) // 50
        if partner_wins:
            if max4th != 0:
                lead_live = alive & lsm
                sec = lead_live ^ bit(highest_card(lead_live))
                if sec and (H[leader] & bit(highest_card(sec))) != _ZERO:
                    return 36 - rank + add
                return 48 - rank + add
            if bit(c) > t4:
                return 48 - rank + add
            return -12 - rank + add
        if max4th != 0:
            return 72 - rank + add  # ruff low
        if bit(c) > t4:
            return 48 - rank + add
        return 36 - rank + add
    if no_trump:
        val = (count << 6) // 27
        if count == 2 and second_mine:
            val -= 6
        elif count == 1 and top_mine:
            val -= 8
        return val - rank
    val = (count << 6) // 24
    if count == 2 and second_mine:
        val -= 2
    if ls == trump:
        return val - rank
    if partner_wins:
        if s == trump:
            return 2 - rank + val  # do not ruff
        return 25 - rank + val
    if ws == trump:  # they have ruffed
        if s == trump:
            return 33 + r_rank if rank > win_r else -13 + r_rank
        return 14 - rank + val
    if s == trump:
        return 33 + r_rank  # ruff and win
    return 14 - rank + val


@nb.njit(cache=True, inline="always", _nrt=False)
def _forces_top(H, seat, c, fourth, lsm, live, win_card, partner_wins):
    """DDS's ``RankForcesAce``: whether ``c`` is the third hand's cheapest card above the fourth
    hand's second group (the cards below its top sequence), or, when that group is no higher
    than the winning card and the second hand wins, its cheapest card above the winning card."""
    h4 = H[fourth] & lsm
    x = highest_card(h4)
    while True:  # the bottom of the fourth hand's top sequence (live cards, the trick's included)
        below = live & (bit(x) - _ONE)
        if below == _ZERO or (h4 & bit(highest_card(below))) == _ZERO:
            break
        x = highest_card(below)
    rest = h4 & (bit(x) - _ONE)
    if rest == _ZERO:
        return False
    second = highest_card(rest)
    if second > win_card:
        thr = second
    elif not partner_wins:
        thr = win_card
    else:
        return False
    mine = H[seat] & lsm & ~((bit(thr) << _ONE) - _ONE)
    if mine == _ZERO:
        return False
    z = lowest_card(mine)
    while True:  # the top of its run: the candidate that stands for it
        above = live & ~((bit(z) << _ONE) - _ONE)
        if above == _ZERO or (H[seat] & bit(lowest_card(above))) == _ZERO:
            break
        z = lowest_card(above)
    return z == c


@nb.njit(cache=True, inline="always", _nrt=False)
def _third_weight(H, seat, c, lead_card, win_card, partner_wins, trump, trump_out, alive, suit_masks):
    """DDS's weight of card ``c`` for the third hand following suit (``WeightAllocTrumpNotvoid2``,
    ``WeightAllocNTNotvoid2`` in no trump or with no trump left), four seats in two
    partnerships: low when the partner's card stands or ours cannot matter, the cheapest sure
    winner when we can win the trick, else low but force out the fourth hand's top card.
    ``win_card``: the trick's winning card so far; ``alive``: every live card, the trick's
    included."""
    ls = _suit(lead_card, suit_masks)
    lsm = suit_masks[ls]
    fourth = (seat + 1) & 3
    rank = 2 + popcount(lsm & (bit(c) - _ONE))
    h4 = H[fourth] & lsm
    max4th = _rk(h4, lsm)
    min4th = _rk_low(h4, lsm)
    max3rd = _rk(H[seat] & lsm, lsm)
    lead_r = 2 + popcount(lsm & (bit(lead_card) - _ONE))
    ws = _suit(win_card, suit_masks)
    win_r = 2 + popcount(suit_masks[ws] & (bit(win_card) - _ONE))
    live = alive & lsm
    if trump < 0 or not trump_out:
        if partner_wins and lead_r > max4th:
            return -rank
        if max3rd < min4th or max3rd < win_r:
            return -rank
        w = 60 - rank if rank > win_r and rank > max4th else -rank
        if max4th > max3rd and max4th > win_r and _forces_top(H, seat, c, fourth, lsm, live, win_card, partner_wins):
            w += 20
        return w
    if ls == trump:
        if partner_wins and lead_r > max4th:
            return -rank
    elif ws == trump:
        return -rank  # the second hand ruffed: follow low
    elif partner_wins:
        if max4th == 0 or lead_r > max4th:
            return -rank
    elif max4th == 0:
        return 20 - rank if rank > win_r else -rank
    if max3rd < min4th or max3rd < win_r:
        return -rank  # our cards are too low to matter
    if max3rd > max4th:
        return 58 - rank if rank > max4th and rank > win_r else -rank  # we can win the trick
    w = 60 - rank if rank > win_r and rank > max4th else -rank
    if _forces_top(H, seat, c, fourth, lsm, live, win_card, partner_wins):
        w += 20
    return w


@nb.njit(cache=True, inline="always", _nrt=False)
def _unbeaten(x, H, R, suit_masks, led, seat, later, side, mine, t1):
    """No opponent among the ``later`` players after ``seat`` can beat card ``x`` in this trick
    (led suit ``led``): one who follows suit holds no higher card of it, one who is void holds
    no trump that would win (every void opponent is assumed free to trump)."""
    trump = R[R_TRUMP]
    sx = _suit(x, suit_masks)
    above = ~((bit(x) << _ONE) - _ONE)
    q = seat
    for _ in range(later):
        q = _next_seat(R, q, t1)
        if ((side >> q) & 1) == mine:
            continue
        same = H[q] & suit_masks[led]
        if same:
            if sx == led and same & above:
                return False
        elif trump >= 0:
            tq = H[q] & suit_masks[trump]
            if tq and (sx != trump or tq & above):
                return False
    return True


@nb.njit(cache=True, inline="always", _nrt=False)
def _candidates(R, side, suit_masks, H, seat, npl, tc, ts, broken, t1, cards, scores, skipped, d, kill, hint):
    """Legal cards worth trying (one per run of equivalent cards), best first; returns the count.
    ``skipped[d]``: the cards left out as equivalent to a tried one. At a lead, ``kill`` (the
    killer move) and ``hint`` (the table's best lead), cards or -1: with DDS's lead weights they
    get DDS's bonuses, otherwise they go first (the killer before the hint)."""
    trump = R[R_TRUMP]
    n = R[R_SEATS]
    hand = H[seat]
    legal = _legal(R, hand, suit_masks, npl, tc, broken, t1)
    alive = _live(H, n)
    for i in range(npl):
        alive |= bit(tc[i])
    order = R[R_FEATURES] & F_ORDER
    mine = (side >> seat) & 1
    # the trick so far
    win_card = np.int64(-1)
    win_seat = np.int64(-1)
    if npl > 0:
        win_card = tc[0]
        win_seat = ts[0]
        for i in range(1, npl):
            if _beats(tc[i], win_card, trump, suit_masks):
                win_card = tc[i]
                win_seat = ts[i]
    players = n - 1 if (t1 and R[R_SITOUT_T1] >= 0) else n
    last = npl == players - 1
    partner_wins = npl > 0 and ((side >> win_seat) & 1) == mine
    # four seats in two partnerships (bridge, Spades): DDS's lead weights
    pairs = n == 4 and players == 4 and ((side >> ((seat + 2) & 3)) & 1) == mine \
        and ((side >> ((seat + 1) & 3)) & 1) != mine and ((side >> ((seat + 3) & 3)) & 1) != mine
    left = popcount(hand)
    count = 0
    skipped[d] = _ZERO
    f_suit = np.int64(-1)
    f_len = f_l = f_p = f_r = np.int64(0)
    f_w = f_wh = f_s = f_sh = f_th = np.int64(-1)
    m = legal
    while m:
        low = m & (~m + _ONE)
        m ^= low
        c = lowest_card(low)
        s = _suit(c, suit_masks)
        above = alive & suit_masks[s] & ~((low << _ONE) - _ONE)
        nxt = above & (~above + _ONE)
        if nxt and (nxt & legal):
            skipped[d] |= low
            continue  # the next higher live card is ours too: same value, keep the top one
        rank = popcount(suit_masks[s] & (low - _ONE))
        sc = np.int64(0)
        if order:
            if npl == 0 and pairs and R[R_FEATURES] & F_WEIGHTS:
                if s != f_suit:  # the suit's facts, once for its cards (they come in suit order)
                    f_suit = s
                    f_len, f_l, f_p, f_r, f_w, f_wh, f_s, f_sh, f_th = _lead_suit_facts(H, seat, suit_masks[s], alive)
                sc = _lead_weight(H, seat, c, s, trump, alive, suit_masks, left, kill, hint,
                                  f_len, f_l, f_p, f_r, f_w, f_wh, f_s, f_sh, f_th)
            elif npl == 0:
                top = highest_card(alive & suit_masks[s])
                top_mine = False
                ruff_them = False
                ruff_us = False
                for p in range(n):
                    if p != seat and H[p] & bit(top):
                        top_mine = ((side >> p) & 1) == mine
                    if p != seat and trump >= 0 and s != trump and (H[p] & suit_masks[s]) == _ZERO \
                            and H[p] & suit_masks[trump]:
                        if ((side >> p) & 1) == mine:
                            ruff_us = True
                        else:
                            ruff_them = True
                if above == _ZERO:
                    sc = 200 + rank  # a winner: cash it
                elif top_mine:
                    sc = 180 - rank  # to partner's winner
                else:
                    sc = 50 + 4 * popcount(hand & suit_masks[s]) - rank
                    if s == trump:
                        sc -= 30
                if ruff_them:
                    sc -= 120
                elif ruff_us:
                    sc += 60
                if R[R_FEATURES] & F_WEIGHTS:
                    # DDS's suit penalty: the opponents' replies in the suit (a void one counts as long)
                    opp = 0
                    k = 0
                    for p in range(n):
                        if p != seat and ((side >> p) & 1) != mine:
                            lp = popcount(H[p] & suit_masks[s])
                            opp += lp if lp else left
                            k += 1
                    if k:
                        sc -= (opp * 512) // (13 * k)
            elif R[R_FEATURES] & F_FOLLOW and npl == 1 and pairs:
                # second hand: DDS's weights (WeightAlloc*Notvoid1, *Void1)
                if s == _suit(tc[0], suit_masks):
                    sc = _second_weight(H, seat, c, tc[0], trump, trump >= 0 and (alive & suit_masks[trump]) != _ZERO,
                                        (alive & suit_masks[s]) & ~bit(tc[0]), suit_masks)
                else:
                    sc = _second_void_weight(H, seat, c, tc[0], trump,
                                             trump >= 0 and (alive & suit_masks[trump]) != _ZERO, alive, suit_masks)
            elif R[R_FEATURES] & F_FOLLOW and npl >= 2 and pairs and s != _suit(tc[0], suit_masks):
                # third or fourth hand void in the suit led: DDS's weights (WeightAlloc*Void2/3)
                sc = _late_void_weight(H, seat, npl, c, tc[0], win_card, partner_wins, trump,
                                       trump >= 0 and (alive & suit_masks[trump]) != _ZERO, alive, suit_masks)
            elif R[R_FEATURES] & F_FOLLOW and npl == 2 and pairs:
                # third hand following suit: DDS's weights (WeightAlloc*Notvoid2)
                sc = _third_weight(H, seat, c, tc[0], win_card, partner_wins, trump,
                                   trump >= 0 and (alive & suit_masks[trump]) != _ZERO, alive, suit_masks)
            elif R[R_FEATURES] & F_FOLLOW and not last and (pairs or n < 5):
                # second or third hand (DDS's WeightAlloc*Notvoid1/2): win with the cheapest card
                # that no later opponent can beat, else play low
                beats = _beats(c, win_card, trump, suit_masks)
                led = _suit(tc[0], suit_masks)
                later = players - npl - 1
                if partner_wins:
                    if beats and not _unbeaten(win_card, H, R, suit_masks, led, seat, later, side, mine, t1) \
                            and _unbeaten(c, H, R, suit_masks, led, seat, later, side, mine, t1):
                        sc = 110 - rank - (40 if s == trump and led != trump else 0)  # overtake: make it sure
                    elif beats:
                        sc = 20 - rank
                    else:
                        sc = 100 - rank - (40 if s == trump else 0)
                elif beats and _unbeaten(c, H, R, suit_masks, led, seat, later, side, mine, t1):
                    sc = 200 - rank - (40 if s == trump and led != trump else 0)
                elif beats:
                    sc = 70 - rank - (40 if s == trump and led != trump else 0)
                else:
                    sc = 60 - rank - (40 if s == trump else 0)
            else:
                beats = _beats(c, win_card, trump, suit_masks)
                if partner_wins:
                    sc = 100 - rank - (40 if s == trump else 0) if not beats else 20 - rank
                elif beats:
                    if last:
                        sc = 300 - rank - (40 if s == trump else 0)
                    else:
                        sc = 150 + (rank if s != trump else -rank)
                else:
                    sc = 60 - rank - (40 if s == trump else 0)
        # insertion, best first
        j = count
        while j > 0 and scores[j - 1] < sc:
            cards[j] = cards[j - 1]
            scores[j] = scores[j - 1]
            j -= 1
        cards[j] = c
        scores[j] = sc
        count += 1
    if npl == 0 and not (order and pairs and R[R_FEATURES] & F_WEIGHTS):
        if hint >= 0:
            _to_front(cards, count, hint)
        if kill >= 0:
            _to_front(cards, count, kill)
    return count


# _probe, _tt_lookup and _store are inlined into _search: numba passes each array as its seven
# to nine words, and these calls with a dozen arrays each spent more pushing their arguments than
# the work they did (docs/dev/double-dummy.md, "Cheaper nodes")
@nb.njit(cache=True, inline="always", _nrt=False)
def _probe(H, R, side, suit_masks, st, target, keys, bounds, links, heads, meta, ctr, kw, rel_out, d):
    """Cut-offs before any move at a node: 1 = the side makes ``target``, 0 = it does not
    (``rel_out[d]``: the cards whose ranks the answer rests on), -1 = search on (``kw`` then
    holds the node's key, canonical hands and bucket, or bucket -1 off the table)."""
    npl = st[S_NPL]
    leader = st[S_LEADER]
    broken = st[S_BROKEN]
    t1 = st[S_T1]
    feats = R[R_FEATURES]
    n = R[R_SEATS]
    left = popcount(H[leader]) + (1 if npl > 0 else 0)
    kw[K_BUCKET] = _NONE
    rel_out[d] = _ZERO
    if target <= 0:
        return 1
    if target > left:
        return 0
    if npl == 0 and left == 1:
        winner, lrel = _last_trick(H, R, suit_masks, leader, t1)
        rel_out[d] = lrel
        return 1 if (side >> winner) & 1 else 0
    if npl == 0 and not t1:
        ctr[C_ENTERED] += 1
        if feats & F_TT and left >= TT_FIRST:
            r = _tt_lookup(H, R, side, suit_masks, st, target, keys, bounds, links, heads, meta, ctr, kw, rel_out, d)
            if r >= 0:
                return r
        if feats & F_SURE and R[R_TRUMP] >= 0:
            sure = _sure_trump_tricks(H, R, side, suit_masks)
            if sure > 0 and sure >= target:
                ctr[C_QUICK_CUTS] += 1
                return 1
            if sure < 0 and left + sure < target:
                ctr[C_QUICK_CUTS] += 1
                return 0
        if feats & F_QUICK and R[R_TRUMP] >= 0:
            holder, k, used = _top_trumps(H, R, suit_masks)
            if holder >= 0:
                if (side >> holder) & 1:
                    if k >= target:
                        ctr[C_QUICK_CUTS] += 1
                        rel_out[d] = used
                        return 1
                elif left - k < target:
                    ctr[C_QUICK_CUTS] += 1
                    rel_out[d] = used
                    return 0
        if feats & F_QUICK:
            q, used = _quick_tricks(H, R, side, suit_masks, leader, broken,
                                    target if (side >> leader) & 1 else left - target + 1)
            if (side >> leader) & 1:
                if q >= target:
                    ctr[C_QUICK_CUTS] += 1
                    rel_out[d] = used
                    return 1
            elif left - q < target:
                ctr[C_QUICK_CUTS] += 1
                rel_out[d] = used
                return 0
        if feats & F_LATER and n == 4 and R[R_OBLIGATION] == OBLIGE_NONE \
                and ((side >> ((leader + 2) & 3)) & 1) == ((side >> leader) & 1) \
                and ((side >> ((leader + 1) & 3)) & 1) != ((side >> leader) & 1) \
                and ((side >> ((leader + 3) & 3)) & 1) != ((side >> leader) & 1):
            k, used = _later_tricks(H, R, side, suit_masks, leader, left)
            if k > 0:
                if (side >> leader) & 1:
                    if left - k < target:
                        ctr[C_QUICK_CUTS] += 1
                        rel_out[d] = used
                        return 0
                elif k >= target:
                    ctr[C_QUICK_CUTS] += 1
                    rel_out[d] = used
                    return 1
        if feats & F_TT and left < TT_FIRST:
            return _tt_lookup(H, R, side, suit_masks, st, target, keys, bounds, links, heads, meta, ctr, kw, rel_out, d)
    return -1


@nb.njit(cache=True, inline="always", _nrt=False)
def _top4(x, cnt, s):
    """The classes ``cnt - 4 .. cnt - 1`` (the four highest live cards) of suit ``s`` of a
    canonical word, as 4 bits (zeros below the lowest live card)."""
    seg = (x >> np.uint64(16 * s)) & np.uint64(0xFFFF)
    if cnt >= 4:
        return (seg >> np.uint64(cnt - 4)) & np.uint64(0xF)
    return (seg << np.uint64(4 - cnt)) & np.uint64(0xF)


@nb.njit(cache=True, inline="always", _nrt=False)
def _filter_word(C, n, top, alive, suit_masks):
    """The table's one-word test of the top ranks (DDS's test of the top ranks of every suit):
    for each suit (8 bits at ``8 * s``) the owners of its four highest live cards, as two bit
    planes of the seat number (canonical hands ``C[:n]``, :func:`_canonical`), and at ``32 + 8
    * s`` which of those four the pattern ``top`` covers. An entry can match a position only if
    ``(pos ^ f) & m == 0`` (``pos``: the position's word, ``f``: the entry's, ``m``: its covered
    classes in both planes, :func:`_filter_passes`); more than four seats: no test (``m`` = 0).
    The owners outside ``top`` are left out, so equal entries have equal words."""
    if n > 4:
        return _ZERO
    p0 = C[1] | (C[3] if n > 3 else _ZERO)
    p1 = (C[2] if n > 2 else _ZERO) | (C[3] if n > 3 else _ZERO)
    f = _ZERO
    for s in range(4):
        cnt = popcount(alive & suit_masks[s])
        m = _top4(top, cnt, s)
        f |= ((_top4(p0, cnt, s) | (_top4(p1, cnt, s) << np.uint64(4))) & (m | (m << np.uint64(4)))) \
            << np.uint64(8 * s)
        f |= m << np.uint64(32 + 8 * s)
    return f


@nb.njit(cache=True, inline="always", _nrt=False)
def _filter_passes(pos, f):
    """Whether an entry of filter word ``f`` can match a position of word ``pos``."""
    m = f >> np.uint64(32)
    return ((pos ^ f) & (m | (m << np.uint64(4)))) == _ZERO


@nb.njit(cache=True, inline="always", _nrt=False)
def _tt_lookup(H, R, side, suit_masks, st, target, keys, bounds, links, heads, meta, ctr, kw, rel_out, d):
    """The table's answer at a trick start (1, 0, or -1 = none); sets ``kw`` (key, canonical
    hands, bucket and the best-lead hint of a matching entry whose bounds do not decide)."""
    n = R[R_SEATS]
    leader = st[S_LEADER]
    broken = st[S_BROKEN]
    _lengths_key(H, n, suit_masks, leader, broken if R[R_LEAD_RESTRICT] else 0, R[R_TRUMP], side, kw)
    _canonical(H, n, suit_masks, kw[3:8])
    bucket = np.int64(_hash3(kw) & np.uint64(heads.shape[0] - 1))
    kw[K_BUCKET] = np.uint64(bucket)
    kw[K_HINT] = _NONE
    if heads[bucket, 1] != meta[M_STAMP]:
        return -1
    alive = _live(H, n)
    pos = _filter_word(kw[3:8], n, _NONE, alive, suit_masks)
    ch = heads[bucket, 0]
    fill = heads[bucket, 2]
    while ch >= 0:
        # a chunk's entries newest first (the chain's order: newest chunk first); the chunk's
        # filter words reject most of them before their keys are read
        for i in range(fill - 1, -1, -1):
            if not _filter_passes(pos, np.uint64(links[ch, 1 + i])):
                continue
            e = ch * CHUNK + i
            if keys[e, 0] == kw[0] and keys[e, 1] == kw[1] and keys[e, 2] == kw[2]:
                top = keys[e, 8]
                match = True
                for p in range(n):
                    if (kw[3 + p] & top) != keys[e, 3 + p]:
                        match = False
                        break
                if match:
                    if bounds[e, 0] >= target:
                        ctr[C_TT_HITS] += 1
                        rel_out[d] = _cards_of_top_mask(top, alive, suit_masks)
                        return 1
                    if bounds[e, 1] < target:
                        ctr[C_TT_HITS] += 1
                        rel_out[d] = _cards_of_top_mask(top, alive, suit_masks)
                        return 0
                    if bounds[e, 2] > 0 and kw[K_HINT] == _NONE:
                        kw[K_HINT] = np.uint64(e)
        ch = links[ch, 0]
        fill = CHUNK
    return -1


@nb.njit(cache=True, inline="always", _nrt=False)
def _key_cards(k0, k1):
    """Cards left in a position, from its key's suit lengths (:func:`_lengths_key`)."""
    t = 0
    for i in range(12):
        t += np.int64((k0 >> np.uint64(5 * i)) & np.uint64(31))
    for i in range(8):
        t += np.int64((k1 >> np.uint64(5 * i)) & np.uint64(31))
    return t


@nb.njit(cache=True, inline="always", _nrt=False)
def _append(links, heads, meta, bucket):
    """A new entry at the head of ``bucket``'s chain (a new chunk when the head chunk is full
    or the chain is of an older stamp); returns its index."""
    if heads[bucket, 1] != meta[M_STAMP]:
        heads[bucket, 0] = -1
        heads[bucket, 1] = meta[M_STAMP]
        heads[bucket, 2] = CHUNK
    if heads[bucket, 2] == CHUNK:
        ch = meta[M_CHUNKS]
        meta[M_CHUNKS] += 1
        links[ch, 0] = heads[bucket, 0]
        heads[bucket, 0] = ch
        heads[bucket, 2] = 0
    e = heads[bucket, 0] * CHUNK + heads[bucket, 2]
    heads[bucket, 2] += 1
    meta[M_USED] += 1
    return e


@nb.njit(cache=True, _nrt=True)  # it allocates (its callers run without reference counting)
def _sweep(keys, bounds, links, heads, meta):
    """Free at least half of a full pool: keep the entries of the positions with the most cards
    left (the costliest to search again) and rebuild the chains under a new stamp, each chain in
    its old order. Buckets do not move: a node's bucket stays valid."""
    stamp = meta[M_STAMP]
    count = np.zeros(MAX_DEPTH + 1, np.int64)
    for b in range(heads.shape[0]):
        if heads[b, 1] != stamp:
            continue
        ch = heads[b, 0]
        fill = heads[b, 2]
        while ch >= 0:
            for e in range(ch * CHUNK, ch * CHUNK + fill):
                count[_key_cards(keys[e, 0], keys[e, 1])] += 1
            ch = links[ch, 0]
            fill = CHUNK
    size = meta[M_CAP]
    keep_from = MAX_DEPTH + 1
    kept = 0
    while keep_from > 0 and kept + count[keep_from - 1] <= size // 2:
        keep_from -= 1
        kept += count[keep_from]
    # the kept entries, chain by chain, oldest first
    kk = np.empty((kept, ENTRY_WORDS), np.uint64)
    kb = np.empty((kept, 4), np.int8)
    kbucket = np.empty(kept, np.int64)
    kf = np.empty(kept, np.int64)
    chain = np.empty(links.shape[0], np.int64)
    j = 0
    for b in range(heads.shape[0]):
        if heads[b, 1] != stamp:
            continue
        m = 0
        ch = heads[b, 0]
        while ch >= 0:
            chain[m] = ch
            m += 1
            ch = links[ch, 0]
        for i in range(m - 1, -1, -1):
            ch = chain[i]
            fill = heads[b, 2] if i == 0 else CHUNK
            for e in range(ch * CHUNK, ch * CHUNK + fill):
                if _key_cards(keys[e, 0], keys[e, 1]) < keep_from:
                    continue
                for w in range(ENTRY_WORDS):
                    kk[j, w] = keys[e, w]
                for w in range(4):
                    kb[j, w] = bounds[e, w]
                kbucket[j] = b
                kf[j] = links[ch, 1 + e - ch * CHUNK]
                j += 1
    meta[M_STAMP] = stamp + 1
    meta[M_USED] = 0
    meta[M_CHUNKS] = 0
    for i in range(j):
        e = _append(links, heads, meta, kbucket[i])
        links[e // CHUNK, 1 + e % CHUNK] = kf[i]
        for w in range(ENTRY_WORDS):
            keys[e, w] = kk[i, w]
        for w in range(4):
            bounds[e, w] = kb[i, w]


@nb.njit(cache=True, inline="always", _nrt=False)
def _store(H, R, keys, bounds, links, heads, meta, ctr, kw, target, result, rel, best, suit_masks):
    """Record what a finished trick-start node proved, for every position that shares its suit
    lengths and the owners of its relevant cards (``rel``: the cards the proof rests on, with
    every card above them in their suits); ``best``: the lead that proved it, or -1."""
    if kw[K_BUCKET] == _NONE:
        return
    bucket = np.int64(kw[K_BUCKET])
    n = R[R_SEATS]
    alive = _live(H, n)
    if R[R_FEATURES] & F_CLASSES and R[R_OBLIGATION] != OBLIGE_OVERTRUMP:  # overtrumping: legality rests on ranks
        top = _top_mask_of(rel, alive, suit_masks)
    else:
        top = np.uint64(0xFFFFFFFFFFFFFFFF)  # every rank relevant: one entry per rank-class position
    f = np.int64(_filter_word(kw[3:8], n, top, alive, suit_masks))
    way = -1
    if heads[bucket, 1] == meta[M_STAMP]:
        ch = heads[bucket, 0]
        fill = heads[bucket, 2]
        while ch >= 0 and way < 0:
            for i in range(fill - 1, -1, -1):
                if links[ch, 1 + i] != f:
                    continue  # equal entries have equal filter words
                e = ch * CHUNK + i
                if keys[e, 8] == top and keys[e, 0] == kw[0] and keys[e, 1] == kw[1] and keys[e, 2] == kw[2]:
                    same = True
                    for p in range(n):
                        if (kw[3 + p] & top) != keys[e, 3 + p]:
                            same = False
                            break
                    if same:
                        way = e
                        break
            ch = links[ch, 0]
            fill = CHUNK
    if way < 0:
        if meta[M_USED] >= meta[M_CAP] or meta[M_CHUNKS] >= links.shape[0]:
            _sweep(keys, bounds, links, heads, meta)  # the pool is full: keep the entries of the most cards
            ctr[C_TT_RESETS] += 1
        way = _append(links, heads, meta, bucket)
        links[way // CHUNK, 1 + way % CHUNK] = f
        for i in range(3):
            keys[way, i] = kw[i]
        for p in range(5):
            keys[way, 3 + p] = kw[3 + p] & top
        keys[way, 8] = top
        bounds[way, 0] = 0
        bounds[way, 1] = popcount(H[0]) if n > 0 else 0
        for p in range(n):
            if popcount(H[p]) > bounds[way, 1]:
                bounds[way, 1] = popcount(H[p])
        bounds[way, 2] = 0
    if best >= 0:
        sb = _suit(best, suit_masks)
        bounds[way, 2] = sb + 1
        bounds[way, 3] = popcount(alive & suit_masks[sb] & ~((bit(best) << _ONE) - _ONE))
    if result:
        if bounds[way, 0] < target:
            bounds[way, 0] = target
    elif bounds[way, 1] > target - 1:
        bounds[way, 1] = target - 1
    ctr[C_TT_STORES] += 1


@nb.njit(cache=True, inline="always", _nrt=False)
def _hint_card(H, R, suit_masks, suit, rank):
    """The live card of class (``suit``, ``rank`` from the top), or -1."""
    alive = _live(H, R[R_SEATS])
    m = alive & suit_masks[suit]
    k = popcount(m) - 1 - np.int64(rank)
    if k < 0:
        return np.int64(-1)
    return np.int64(nth_card(m, k))


@nb.njit(cache=True, inline="always", _nrt=False)
def _to_front(cards, count, c):
    """Move card ``c`` to the front of ``cards[:count]`` if it is there."""
    for i in range(count):
        if cards[i] == c:
            for j in range(i, 0, -1):
                cards[j] = cards[j - 1]
            cards[0] = c
            return


@nb.njit(cache=True, inline="always", _nrt=False)
def _with_skipped(rel, skipped, alive, suit_masks):
    """``rel`` plus the cards skipped as equivalent to a tried card that the proof's pattern
    covers: a skipped card counts only when the card just above it (its representative, or a
    skipped card already added) is at or above the lowest relevant card of its suit."""
    for s in range(4):
        sk = skipped & suit_masks[s]
        if sk == _ZERO:
            continue
        live = alive & suit_masks[s]
        rs = rel & live
        if rs == _ZERO:
            continue
        low = rs & (~rs + _ONE)
        while True:
            below = live & (low - _ONE)
            if below == _ZERO:
                break
            nxt = bit(highest_card(below))
            if nxt & sk:
                rel |= nxt
                low = nxt
            else:
                break
    return rel


@nb.njit(cache=True, inline="always", _nrt=False)
def _low_skip(rel, c, H, n, tc, base, npl, suit_masks):
    """Cards of the refuted card ``c``'s suit that need no search of their own: when ``c`` is
    below every card of its suit that its refutation rests on (``rel``), any card below those
    is refuted by the same proof (the positions after it match the same pattern)."""
    s = _suit(c, suit_masks)
    alive = bit(c) | _live(H, n)
    for j in range(npl):
        alive |= bit(tc[base + j])
    live = alive & suit_masks[s]
    rs = rel & live
    if rs == _ZERO:
        return live & ~bit(c)
    low = rs & (~rs + _ONE)
    if bit(c) >= low:
        return _ZERO
    return live & (low - _ONE)


@nb.njit(cache=True, _nrt=False)
def _search(H, R, side, suit_masks, tc, ts, st, target0, keys, bounds, links, heads, meta, ctr, kbuf, mbuf, fr, rb):
    """Whether the side can take ``target0`` of the remaining tricks (the trick in progress
    included) against best play by the others. An explicit stack: ``fr`` one frame per card
    played below the root (seat, next candidate, count, target, saved state, the rank-relevant
    winner of a trick the card completes), ``rb`` the relevant cards (``R_*`` rows: answer,
    union over refuted moves, cards skipped as equivalent). Restores every array it changes."""
    n = R[R_SEATS]
    trump = R[R_TRUMP]
    F_SEAT, F_IDX, F_CNT, F_TGT, F_NPL, F_LEAD, F_BRK, F_T1, F_BASE, F_WREL, F_KILL = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
    d = 0
    target = target0
    entering = True
    value = False
    rel = _ZERO
    while True:
        if entering:
            ctr[C_NODES] += 1
            fr[d, F_TGT] = target
            if st[S_NPL] > 0:
                # inside a trick only the target's limits cut (``_probe``'s first tests)
                kbuf[d, K_BUCKET] = _NONE
                rb[0, d] = _ZERO
                r = -1
                lead = st[S_LEADER]
                left = popcount(H[lead]) + 1
                if target <= 0:
                    r = 1
                elif target > left:
                    r = 0
                elif st[S_NPL] == 1 and R[R_FEATURES] & F_SECOND and n == 4 and st[S_T1] == 0 \
                        and R[R_OBLIGATION] == OBLIGE_NONE \
                        and ((side >> ((lead + 2) & 3)) & 1) == ((side >> lead) & 1) \
                        and ((side >> ((lead + 1) & 3)) & 1) != ((side >> lead) & 1) \
                        and ((side >> ((lead + 3) & 3)) & 1) != ((side >> lead) & 1):
                    # second hand's quick tricks (DDS's QuickTricksSecondHand): the tricks its side
                    # needs for a cut-off; while trumps are left it counts only the trick in progress
                    need = left - target + 1 if (side >> lead) & 1 else target
                    if need <= 1 or trump < 0 or ((H[0] | H[1] | H[2] | H[3]) & suit_masks[trump]) == _ZERO:
                        q, used = _second_hand_tricks(H, R, suit_masks, tc[st[S_BASE]], lead)
                        if q >= need:
                            r = 0 if (side >> lead) & 1 else 1
                            ctr[C_QUICK_CUTS] += 1
                            rb[0, d] = used
            else:
                r = _probe(H, R, side, suit_masks, st, target, keys, bounds, links, heads, meta, ctr, kbuf[d], rb[0], d)
            if r >= 0:
                value = r == 1
                rel = rb[0, d]
                entering = False
                continue
            npl = st[S_NPL]
            base = st[S_BASE]
            seat = st[S_LEADER] if npl == 0 else _next_seat(R, ts[base + npl - 1], st[S_T1])
            fr[d, F_SEAT] = seat
            fr[d, F_IDX] = 0
            hint = np.int64(-1)
            if kbuf[d, K_BUCKET] != _NONE and kbuf[d, K_HINT] != _NONE:
                w = np.int64(kbuf[d, K_HINT])
                hint = _hint_card(H, R, suit_masks, bounds[w, 2] - 1, bounds[w, 3])
            kill = np.int64(-1)
            if npl == 0 and R[R_FEATURES] & F_KILLER:
                kill = fr[d, F_KILL]  # the last lead that cut at this depth
            cnt = _candidates(R, side, suit_masks, H, seat, npl, tc[base:], ts[base:], st[S_BROKEN],
                              st[S_T1], mbuf[d, :MAX_MOVES], mbuf[d, MAX_MOVES:], rb[2], d, kill, hint)
            fr[d, F_CNT] = cnt
            fr[d, F_NPL], fr[d, F_LEAD], fr[d, F_BRK], fr[d, F_T1] = npl, st[S_LEADER], st[S_BROKEN], st[S_T1]
            fr[d, F_BASE] = base
            rb[1, d] = _ZERO
            rb[3, d] = _ZERO
            value = not ((side >> seat) & 1)  # what the node is worth if no card refutes it
        else:
            # a child (or this node's own probe) answered ``value`` resting on ``rel``; climb
            if d == 0:
                return value
            d -= 1
            seat = fr[d, F_SEAT]
            i = fr[d, F_IDX] - 1
            c = mbuf[d, i]
            H[seat] ^= bit(c)
            st[S_NPL], st[S_LEADER], st[S_BROKEN], st[S_T1] = fr[d, F_NPL], fr[d, F_LEAD], fr[d, F_BRK], fr[d, F_T1]
            st[S_BASE] = fr[d, F_BASE]
            if fr[d, F_WREL] >= 0:
                rel |= bit(fr[d, F_WREL])
            mine = ((side >> seat) & 1) == 1
            if value == mine:
                ctr[C_CUTS] += 1
                if i == 0:
                    ctr[C_FIRST_CUTS] += 1
                if fr[d, F_NPL] == 0:
                    fr[d, F_KILL] = c  # a killer move: tried first at the next lead of this depth
                _store(H, R, keys, bounds, links, heads, meta, ctr, kbuf[d], fr[d, F_TGT], value, rel, c, suit_masks)
                continue  # cut-off: the node is worth ``value`` for the same reasons; climb again
            rb[1, d] |= rel
            value = not mine
            if R[R_FEATURES] & F_LOWSKIP and R[R_OBLIGATION] != OBLIGE_OVERTRUMP:  # overtrumping: ranks decide legality
                rb[3, d] |= _low_skip(rel, c, H, n, tc, fr[d, F_BASE], fr[d, F_NPL], suit_masks)
        # at node d with state restored: try its next candidate, or finish it
        while fr[d, F_IDX] < fr[d, F_CNT] and rb[3, d] & bit(mbuf[d, fr[d, F_IDX]]):
            fr[d, F_IDX] += 1  # below every card a refuted sibling's proof rests on: refuted the same way
        if fr[d, F_IDX] >= fr[d, F_CNT]:
            rel = rb[1, d]
            if rb[2, d]:
                alive = _live(H, n)
                for j in range(fr[d, F_NPL]):
                    alive |= bit(tc[fr[d, F_BASE] + j])
                rel = _with_skipped(rel, rb[2, d], alive, suit_masks)
            _store(H, R, keys, bounds, links, heads, meta, ctr, kbuf[d], fr[d, F_TGT], value, rel, -1, suit_masks)
            entering = False
            continue
        seat = fr[d, F_SEAT]
        i = fr[d, F_IDX]
        fr[d, F_IDX] = i + 1
        c = mbuf[d, i]
        b = bit(c)
        npl = fr[d, F_NPL]
        t1 = fr[d, F_T1]
        base = fr[d, F_BASE]
        H[seat] ^= b
        tc[base + npl] = c
        ts[base + npl] = seat
        if trump >= 0 and suit_masks[trump] & b:
            st[S_BROKEN] = 1
        players = n - 1 if (t1 and R[R_SITOUT_T1] >= 0) else n
        target = fr[d, F_TGT]
        fr[d, F_WREL] = -1
        if npl + 1 == players:
            w = base
            for j in range(base + 1, base + players):
                if _beats(tc[j], tc[w], trump, suit_masks):
                    w = j
            ws = _suit(tc[w], suit_masks)
            for j in range(base, base + players):
                if j != w and _suit(tc[j], suit_masks) == ws:
                    fr[d, F_WREL] = tc[w]  # the winner beat a card of its own suit: its rank counts
                    break
            winner = ts[w]
            st[S_NPL] = 0
            st[S_LEADER] = winner
            st[S_T1] = 0
            st[S_BASE] = base + players
            target -= (side >> winner) & 1
        else:
            st[S_NPL] = npl + 1
        d += 1
        entering = True




# the first guess's weights (``_estimate``), with a trump suit and without: the four highest live
# cards of a suit (highest first), a trump, a card of a side suit past the fourth, a ruff, then the
# bias added to the side's share of the tricks left
_EST_TRUMP = (2.69, 1.31, 0.29, -0.11, 0.69, -1.64, 2.68, 0.74)
_EST_NT = (6.63, 3.86, 1.57, -0.04, 0.0, -0.66, 0.0, 0.89)


@nb.njit(cache=True)
def _estimate(H, R, side, suit_masks, left):
    """A quick guess at the side's tricks: its share of points times the tricks left, plus a
    bias. Points: the four highest live cards of each suit, every trump, every card of a side
    suit past the fourth, and a ruff per card short of a doubleton in a side suit (up to the
    holder's trumps), weighted by a least-squares fit to DDS's answers (``_EST_*``; 2,000
    full deals in spades and 600 in no trump, 1,000 ten-card endings: it misses by 1.2 tricks
    on average, the old high-card count by 1.5, and it errs upwards, where a miss costs less)."""
    n = R[R_SEATS]
    trump = R[R_TRUMP]
    w = _EST_TRUMP if trump >= 0 else _EST_NT
    mine = 0.0
    total = 0.0
    alive = _live(H, n)
    for s in range(4):
        live = alive & suit_masks[s]
        for k in range(4):
            if live == _ZERO:
                break
            top = bit(highest_card(live))
            live ^= top
            for p in range(n):
                if H[p] & top:
                    total += w[k]
                    if (side >> p) & 1:
                        mine += w[k]
    for p in range(n):
        pts = 0.0
        tl = popcount(H[p] & suit_masks[trump]) if trump >= 0 else 0
        ruff = 0
        for s in range(4):
            ln = popcount(H[p] & suit_masks[s])
            if s == trump:
                pts += w[4] * ln
            else:
                if ln > 4:
                    pts += w[5] * (ln - 4)
                if ln < 2:
                    ruff += 2 - ln
        if tl > 0:
            pts += w[6] * min(ruff, tl)
        total += pts
        if (side >> p) & 1:
            mine += pts
    if total <= 0.0:
        return (left + 1) // 2
    g = np.int64(np.floor(mine * left / total + w[7] + 0.5))
    return min(max(g, 0), left)


@nb.njit(cache=True, nogil=True)
def solve_kernel(H, R, side, suit_masks, tc, npl, leader, broken, t1, keys, bounds, links, heads, meta, ctr, guess,
                 lower, upper):
    """The side's maximum number of the remaining tricks (the trick in progress included).

    ``H``: hands by seat (changed during the search, restored); ``tc[:npl]``: cards of the
    trick in progress, led by ``leader``; ``side``: bitmask of measured seats. Asks
    null-window questions that share the table, MTD(f)-style: the first at ``guess`` (-1: the
    estimate from the cards, :func:`_estimate`), then one trick up or down from the last answer.
    ``lower`` <= answer <= ``upper``: bounds the caller knows for certain (0 and the tricks left,
    or more, when it knows none); no question is asked outside them, so a bound that does not
    hold gives a wrong answer.
    """
    n = R[R_SEATS]
    tc2 = np.zeros(MAX_DEPTH + 8, np.int64)
    ts = np.zeros(MAX_DEPTH + 8, np.int64)
    s = leader
    for i in range(npl):
        tc2[i] = tc[i]
        ts[i] = s
        s = _next_seat(R, s, t1)
    st = np.zeros(S_LEN, np.int64)
    st[S_NPL], st[S_LEADER], st[S_BROKEN], st[S_T1] = npl, leader, broken, t1
    kbuf = np.zeros((MAX_DEPTH, 10), np.uint64)
    mbuf = np.zeros((MAX_DEPTH, 2 * MAX_MOVES), np.int64)
    fr = np.zeros((MAX_DEPTH, 11), np.int64)
    fr[:, 10] = -1  # no killer move yet (kept from one question to the next)
    rb = np.zeros((4, MAX_DEPTH), np.uint64)
    left = popcount(H[leader]) + (1 if npl > 0 else 0)
    lo = max(lower, 0)
    hi = min(upper, left)
    g = guess if guess >= 0 else _estimate(H, R, side, suit_masks, left)
    while lo < hi:
        t = min(max(g, lo + 1), hi)
        if not R[R_FEATURES] & F_GUESS:
            t = (lo + hi + 1) // 2  # bisection, for measurement
        if _search(H, R, side, suit_masks, tc2, ts, st, t, keys, bounds, links, heads, meta, ctr, kbuf, mbuf, fr, rb):
            lo = t
            g = t + 1
        else:
            hi = t - 1
            g = t - 1
    return lo


@nb.njit(cache=True, nogil=True, inline="always")
def _utility_at(utility, tricks):
    """``utility[tricks]``, clamped to its last entry (more tricks are worth the last step)."""
    return utility[min(tricks, utility.shape[0] - 1)]


@nb.njit(cache=True, nogil=True)
def _utility_value(H, R, side, suit_masks, tc, npl, leader, broken, t1, keys, bounds, links, heads, meta, ctr, guess,
                   utility, bonus, left):
    """The side's tricks ``v`` from the position (:func:`solve_kernel`), resolved only as far as
    ``utility[v + bonus]`` (clamped to its last entry) tells values apart; exact when
    ``utility`` is empty or rises at every trick; with more than two steps left, exact but
    for a flat run at either end.

    Where the utility is flat (a contract made or set either way: Spades' pimc counts an
    overtrick as nothing), one null-window question at each step in ``(lo, hi]`` settles the
    card, and questions far from the answer are cheap: pimc's full-hand worlds cost about a
    fifth of the nodes of exact values (docs/dev/pimc-weights.md). Returns a value with the
    true value's utility (the lowest of its flat run that the questions reached)."""
    n_u = utility.shape[0]
    lo, hi = np.int64(0), left
    if n_u == 0:
        return solve_kernel(H, R, side, suit_masks, tc, npl, leader, broken, t1, keys, bounds, links, heads, meta, ctr,
                            guess, lo, hi)
    g = guess if guess >= 0 else _estimate(H, R, side, suit_masks, left)
    while True:
        steps = 0
        ask = np.int64(-1)
        for q in range(lo + 1, hi + 1):
            if _utility_at(utility, q + bonus) != _utility_at(utility, q - 1 + bonus):
                steps += 1
                if ask < 0 or abs(q - g) < abs(ask - g):
                    ask = q
        if steps == 0:
            return lo
        if steps > 2 or steps == hi - lo:
            # many steps: the exact value, but not inside a flat run at either end (Cutthroat's
            # utility rises to the contract and stays flat above it); nothing flat: exact
            a, b = lo, hi
            while a < b and _utility_at(utility, a + 1 + bonus) == _utility_at(utility, a + bonus):
                a += 1
            while b > a and _utility_at(utility, b - 1 + bonus) == _utility_at(utility, b + bonus):
                b -= 1
            return solve_kernel(H, R, side, suit_masks, tc, npl, leader, broken, t1, keys, bounds, links, heads, meta,
                                ctr, g, a, b)
        if solve_kernel(H, R, side, suit_masks, tc, npl, leader, broken, t1, keys, bounds, links, heads, meta, ctr,
                        ask, ask - 1, ask) >= ask:
            lo = ask
        else:
            hi = ask - 1


@nb.njit(cache=True, nogil=True)
def card_values(H, R, side, suit_masks, tc, npl, leader, broken, t1, keys, bounds, links, heads, meta, ctr, out_cards,
                out_values, utility):
    """For each legal card of the player to act: the side's remaining tricks after it is
    played (best play afterwards), the trick in progress included. Returns the count.

    ``utility`` (int64, empty: exact values): what the caller makes of ``v`` tricks,
    ``utility[min(v, len - 1)]``; a card's value is then resolved only as far as the utility
    tells values apart (:func:`_utility_value`): any ``v`` with the true value's utility."""
    n = R[R_SEATS]
    s = leader
    for i in range(npl):
        s = _next_seat(R, s, t1)
    seat = s
    legal = legal_mask(R, H[seat], suit_masks, npl, tc, broken, t1)
    players = n - 1 if (t1 and R[R_SITOUT_T1] >= 0) else n
    trump = R[R_TRUMP]
    tc2 = np.zeros(8, np.int64)
    for i in range(npl):
        tc2[i] = tc[i]
    k = 0
    guess = np.int64(-1)  # the previous card's answer: siblings' values are close
    # int64 values, not literal constants: a literal argument types as Literal[int] and compiles
    # a specialization of its own (solve_kernel had three, each relinking the whole search)
    zero = np.int64(0)
    m = legal
    while m:
        low = m & (~m + _ONE)
        m ^= low
        c = lowest_card(low)
        H[seat] ^= low
        tc2[npl] = c
        nb_ = broken
        if trump >= 0 and suit_masks[trump] & low:
            nb_ = 1
        if npl + 1 == players:
            ts = np.zeros(8, np.int64)
            q = leader
            for i in range(players):
                ts[i] = q
                q = _next_seat(R, q, t1)
            w = 0
            for j in range(1, players):
                if _beats(tc2[j], tc2[w], trump, suit_masks):
                    w = j
            winner = ts[w]
            won = (side >> winner) & 1
            v = _utility_value(H, R, side, suit_masks, tc2, zero, winner, nb_, zero, keys, bounds, links, heads, meta,
                               ctr, guess, utility, won, popcount(H[winner]))
            guess = v
            v += won
        else:
            v = _utility_value(H, R, side, suit_masks, tc2, npl + 1, leader, nb_, t1, keys, bounds, links, heads, meta,
                               ctr, guess, utility, zero, popcount(H[leader]) + 1)
            guess = v
        H[seat] ^= low
        out_cards[k] = c
        out_values[k] = v
        k += 1
    return k


def solve(hands, rules, side, suit_masks, *, leader: int, trick=(), broken: bool = False, trick1: bool = False,
          table: Table | None = None, guess: int = -1, lower: int = 0, upper: int = MAX_DEPTH) -> int:
    """The measured side's maximum tricks of those remaining (the trick in progress included).

    ``hands``: card masks by seat (cards still held); ``side``: iterable of measured seats;
    ``trick``: cards already played to the current trick, in order from ``leader``.
    A ``table`` is reused across calls on the same deal (keep it per thread). ``guess``: a
    likely answer (a neighbouring position's), where the search starts (-1: estimate one).
    ``lower``, ``upper``: bounds on the answer known for certain (a neighbouring position's value
    through the card between them, as :func:`play_costs` uses): the search asks nothing outside
    them, so they must hold.
    """
    check_suit_masks(suit_masks)
    table = table or Table()
    if table.stamp == 0:
        table.fresh()
    H = np.array([int(h) for h in hands], dtype=np.uint64)
    tc = np.zeros(8, np.int64)
    for i, c in enumerate(trick):
        tc[i] = c
    return int(solve_kernel(H, rules, np.int64(side_mask(side)), suit_masks, tc, np.int64(len(trick)),
                            np.int64(leader), np.int64(broken), np.int64(trick1), table.keys, table.bounds,
                            table.links, table.heads, table.meta, table.counters, np.int64(guess),
                            np.int64(lower), np.int64(upper)))


def values(hands, rules, side, suit_masks, *, leader: int, trick=(), broken: bool = False, trick1: bool = False,
           table: Table | None = None, utility=None) -> dict[int, int]:
    """{legal card of the player to act: the side's remaining tricks after it}. ``utility``:
    resolve each only as far as ``utility[min(v, len - 1)]`` tells values apart
    (:func:`card_values`; a value with the true value's utility)."""
    check_suit_masks(suit_masks)
    table = table or Table()
    if table.stamp == 0:
        table.fresh()
    H = np.array([int(h) for h in hands], dtype=np.uint64)
    tc = np.zeros(8, np.int64)
    for i, c in enumerate(trick):
        tc[i] = c
    cards = np.zeros(MAX_MOVES, np.int64)
    vals = np.zeros(MAX_MOVES, np.int64)
    k = card_values(H, rules, np.int64(side_mask(side)), suit_masks, tc, np.int64(len(trick)), np.int64(leader),
                    np.int64(broken), np.int64(trick1), table.keys, table.bounds, table.links,
                    table.heads, table.meta, table.counters, cards, vals,
                    EXACT if utility is None else np.asarray(utility, np.int64))
    return {int(cards[i]): int(vals[i]) for i in range(k)}


def check_suit_masks(suit_masks) -> None:
    """The solver reads a suit as the 16 bits from its lowest card up: each suit must span at
    most 16 bits (the 52-card deck's suits, and spades with the jokers above them)."""
    for m in suit_masks:
        m = int(m)
        low = m & -m
        if m == 0 or m // low >= 1 << 16:
            raise ValueError(f"suit mask {m:#x} spans more than 16 bits")


def side_mask(seats) -> int:
    m = 0
    for s in seats:
        m |= 1 << int(s)
    return m


# ---------------------------------------------------------------- a played hand, card by card


def play_costs(hands, rules, suit_masks, sides, leader: int, cards, *, broken: bool = False, trick1: bool = True,
               table: Table | None = None, zero_sum: bool = True, first_trick: int = 0, tick=None) -> list[dict]:
    """What each card of a played hand cost its side against the best card, double dummy.

    ``hands``: masks by seat at the start of play; ``cards``: the cards in play order;
    ``sides[s]``: the seats measured for seat ``s`` (its partnership, or ``(s,)`` alone for
    the paranoid bound). For every card: ``seat``, ``card``, ``trick`` (0-based), ``best``
    (the side's tricks from then on with best play, the trick in progress included) and
    ``after`` (the same after this card, counting the trick it may complete) and
    ``cost = best - after``. ``zero_sum``: the seats split into two sides, so one side's
    value is the remaining tricks minus the other's (half the solves). ``first_trick``: analyse
    the cards from that trick (0-based) on only (the late positions solve fast). ``tick``:
    called once for each card analysed (a progress bar).
    """
    table = table or Table()
    table.fresh()
    n = int(rules[R_SEATS])
    H = [int(h) for h in hands]
    sitout = int(rules[R_SITOUT_T1])
    memo: dict[tuple[int, int], int] = {}
    positions = []  # (H, trick cards, leader, broken, t1) before card k
    trick: list[int] = []
    lead, brk, t1 = int(leader), bool(broken), bool(trick1)
    seats_of_trick: list[int] = []
    winners: list[int] = []
    card_seats: list[int] = []
    trick_of: list[int] = []  # 0-based trick of each card
    completed = 0  # tricks completed before the card
    for c in cards:
        positions.append((tuple(H), tuple(trick), lead, brk, t1))
        trick_of.append(completed)
        seat = lead if not trick else _next_py(seats_of_trick[-1], n, t1, sitout)
        card_seats.append(seat)
        if not H[seat] >> int(c) & 1:
            raise ValueError(f"card {c} is not in the hand of seat {seat}")
        H[seat] &= ~(1 << int(c))
        trick.append(int(c))
        seats_of_trick.append(seat)
        if trump_of(rules) >= 0 and int(suit_masks[trump_of(rules)]) >> int(c) & 1:
            brk = True
        players = n - 1 if (t1 and sitout >= 0) else n
        if len(trick) == players:
            w = _winner_py(trick, rules, suit_masks)
            winners.append(seats_of_trick[w])
            completed += 1
            lead, trick, seats_of_trick, t1 = seats_of_trick[w], [], [], False
        else:
            winners.append(-1)
    positions.append((tuple(H), tuple(trick), lead, brk, t1))
    all_seats = side_mask(range(n))

    def left_at(k: int) -> int:
        hs, tr, ld = positions[k][:3]
        return bin(hs[ld]).count("1") + (1 if tr else 0)

    def known(k: int, mask: int) -> int:
        """The value of position ``k`` for ``mask`` if already solved (or its other side's), else -1."""
        if (k, mask) in memo:
            return memo[(k, mask)]
        if zero_sum and k >= 0 and (k, all_seats & ~mask) in memo:
            return left_at(k) - memo[(k, all_seats & ~mask)]
        return -1

    canonical = side_mask(sides[0])

    def value(k: int, mask: int) -> int:
        v = known(k, mask)
        if v >= 0:
            memo[(k, mask)] = v
            return v
        if zero_sum and mask != canonical:
            # one side's searches only: the table's entries are keyed by the side measured, so
            # alternating sides would leave half of them unused (about 20 % more time a played deal)
            v = left_at(k) - value(k, canonical)
            memo[(k, mask)] = v
            return v
        hs, tr, ld, b, one = positions[k]
        near, lower, upper = -1, 0, MAX_DEPTH
        # a played card was its seat's choice: the position before it is worth at least the
        # position after it (plus the trick the card completes, if the side's) when the seat is
        # measured, at most when it is an opponent
        after = known(k + 1, mask) if k < len(cards) else -1
        if after >= 0:
            near = after + (1 if winners[k] >= 0 and mask >> winners[k] & 1 else 0)
            if mask >> card_seats[k] & 1:
                lower, near = near, near + 1  # first question: did the card cost a trick?
            else:
                upper = near
        v = solve(hs, rules, [s for s in range(n) if mask >> s & 1], suit_masks, leader=ld, trick=tr, broken=b,
                  trick1=one, table=table, guess=near, lower=lower, upper=upper)
        memo[(k, mask)] = v
        return v

    # From the last card back: each position is bounded by the one after it (a card that cost
    # nothing, the common case, takes one null-window question that fails), so only the position
    # after the last card is searched without a bound (the empty end of a whole hand; a play cut
    # off mid-hand solves it in full). Forward, the opening position took a full MTD(f) solve
    # from an estimate: 30 % more time a played deal.
    out = []
    for k in range(len(cards) - 1, -1, -1):
        if trick_of[k] < first_trick:
            break
        seat = card_seats[k]
        mask = side_mask(sides[seat])
        after = value(k + 1, mask) + (1 if winners[k] >= 0 and mask >> winners[k] & 1 else 0)
        best = value(k, mask)
        out.append({"seat": seat, "card": int(cards[k]), "trick": trick_of[k], "best": best, "after": after,
                    "cost": best - after})
        if tick is not None:
            tick()
    return out[::-1]


def trump_of(rules) -> int:
    return int(rules[R_TRUMP])


def _next_py(seat: int, n: int, t1: bool, sitout: int) -> int:
    s = (seat + 1) % n
    if t1 and s == sitout:
        s = (s + 1) % n
    return s


def _winner_py(trick, rules, suit_masks) -> int:
    """Position of the winning card of a finished trick (same rule as the search)."""
    def suit(c):
        return next(s for s in range(4) if int(suit_masks[s]) >> c & 1)
    trump = trump_of(rules)
    w = 0
    for i in range(1, len(trick)):
        c, b = trick[i], trick[w]
        if (suit(c) == suit(b) and c > b) or (suit(c) != suit(b) and trump >= 0 and suit(c) == trump):
            w = i
    return w


def table_by_leader(hands, rules, suit_masks, side, leaders, *, table: Table | None = None, trick1: bool = True,
                    broken: bool = False) -> dict[int, int]:
    """{seat on lead: the side's tricks from the opening lead}, one table shared by all leaders."""
    table = table or Table()
    table.fresh()
    out: dict[int, int] = {}
    for ld in leaders:  # the previous leader's answer is the next one's first guess
        out[int(ld)] = solve(hands, rules, side, suit_masks, leader=int(ld), broken=broken, trick1=trick1, table=table,
                             guess=out[next(reversed(out))] if out else -1)
    return out
