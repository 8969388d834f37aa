"""Compiled meld logic shared by the rules kernel and the policies (section 9.3).

Card *types*: 0..51 are core card numbers (``suit*13 + rank``, clubs=0 .. spades=3,
rank 0 = deuce .. 12 = ace); 52 is the joker. Copies from several decks share a
type, so a hand is ``cnt[53]`` (count per type).

Run positions: with ``ace_mode`` low/high/both a run covers positions 1..14 where
1 is the low ace, 2..13 are the deuce..king and 14 the high ace. With ``wrap``
positions are 0..25 and position p holds rank ``p % 13`` (a run is at most 13
long and its ``lo`` is kept in 0..12).

A meld (on the table or in a solution) is ``MF`` integers: kind (0 set, 1 run),
owner, key (rank of a set, suit of a run), lo, hi (runs), nat, jok, contract
flag. For runs ``nat``/``jok`` are position bitmasks of naturals / jokers; for
sets they hold 4-bit counts per suit (suit s in bits 4s..4s+3) of naturals and of
jokers declared as that suit.

``cfg`` is the int64 rule array built by ``sim.variant_config``; its slots (``C_*``) are
declared once below (``CFG``), their offsets generated.
"""
import numpy as np

from simcards.core.cards import popcount
from simcards.core.policy import Layout
from simcards.core.scratch import stack_int64, stack_int64_2d
from simcards.core.jit import helper, inline
from simcards.games.contract_rummy.variant import MAX_DEALS, ContractRummyVariant

JOKER = 52
NT = 53
INF = 1 << 30

# ---- cfg: one slot per rule, in this order (sim.variant_config says which variant field fills each);
# CFG.export makes the constants C_NPL, C_DECKS, ..., C_HANDS and NCFG (the length)
CFG = Layout("contract-rummy cfg",
             npl=1, decks=1, jokers=1, min_set=1, max_set=1, set_dup=1, min_run=1, ace=1, min_nat=1, max_jok=1,
             run_suits=1, sets_distinct=1, extra_cards=1, extra_melds=1, layoff_same=1, final_all=1, final_disc=1,
             go_out_disc=1, no_return=1, take_after=1, deep=1, deep_before=1, deep_use=1, max_depth=1, buy=1,
             buy_pen=1, max_buys=1, buy_after=1, swap=1, swap_prior=1, swap_sets=1, swap_scope=1, swap_place=1,
             exhaust=1, max_turns=1, tie=1, ndeals=1, first_dealer=1, unit_deal=1,
             pen=14,  # penalty of one card: core rank 0..12 (2..A), then the joker
             contracts=2 * MAX_DEALS,  # (sets, runs) of deal k at C_CONTRACTS + 2k
             hands=MAX_DEALS)  # cards dealt in deal k
CFG.export(globals(), "C_", size="NCFG")

# the enum rules' choices as named constants (IntEnums from the variant: ACE_MODE.WRAP is the packed
# index of "wrap"); numba compiles them as constants
ACE_MODE = ContractRummyVariant.choice_enum("ace_mode")
RUN_SUITS = ContractRummyVariant.choice_enum("contract_runs_suits")
GO_OUT_DISCARD = ContractRummyVariant.choice_enum("go_out_discard")
FINAL_DISCARD = ContractRummyVariant.choice_enum("final_deal_go_out_discard")  # SAME, then GO_OUT_DISCARD's + 1
DEEP_USE = ContractRummyVariant.choice_enum("deep_take_target_use")
SWAP_SCOPE = ContractRummyVariant.choice_enum("joker_swap_scope")
EXHAUSTION = ContractRummyVariant.choice_enum("stock_exhaustion")

# ---- meld fields
MF = 8
M_KIND, M_OWNER, M_KEY, M_LO, M_HI, M_NAT, M_JOK, M_CONTRACT = 0, 1, 2, 3, 4, 5, 6, 7
SET, RUN = 0, 1
MAX_SOL = 16  # melds in one contract or solution, at most

# _nrt=False: these helpers never allocate (scratch lives on the stack, core/scratch.py), so
# numba emits no reference-count calls for the arrays they pass around
@inline(alloc=False)
def penalty(cfg, t):
    """Penalty of one card of type ``t``."""
    if t == JOKER:
        return cfg[C_PEN + 13]
    return cfg[C_PEN + t % 13]


@helper(alloc=False)
def hand_penalty(cnt, cfg):
    s = 0
    for t in range(NT):
        if cnt[t]:
            s += cnt[t] * penalty(cfg, t)
    return s


@inline(alloc=False)
def pos_rank(cfg, p):
    """Rank (0 = deuce .. 12 = ace) at run position ``p``."""
    if cfg[C_ACE] == ACE_MODE.WRAP:
        return p % 13
    if p == 1 or p == 14:
        return 12
    return p - 2


@inline(alloc=False)
def pos_type(cfg, s, p):
    return s * 13 + pos_rank(cfg, p)


@inline(alloc=False)
def pos_bounds(cfg):
    """(lowest position, highest position, longest run) for the ace mode."""
    a = cfg[C_ACE]
    if a == ACE_MODE.LOW:
        return 1, 13, 13
    if a == ACE_MODE.HIGH:
        return 2, 14, 13
    if a == ACE_MODE.BOTH:
        return 1, 14, 14
    return 13, 50, 13  # wrap: runs are stored with 13 <= lo <= 25


@inline(alloc=False)
def nib(x, s):
    return (x >> (4 * s)) & 15


@helper(alloc=False)
def nib_sum(x):
    return nib(x, 0) + nib(x, 1) + nib(x, 2) + nib(x, 3)


@inline(alloc=False)
def popcount64(x):
    """Set bits of a non-negative int64 (compiles to one popcnt instruction)."""
    return popcount(np.uint64(x))


@helper(alloc=False)
def max_jokers(cfg):
    return cfg[C_MAX_JOK]


# ------------------------------------------------------------------ sets


@inline(alloc=False)
def set_nat_count(cnt, cfg, r, k):
    """N_r(k): naturals of rank r usable by k minimum-size sets (9.3)."""
    L = cfg[C_MIN_SET]
    n = 0
    for s in range(4):
        c = cnt[s * 13 + r]
        if cfg[C_SET_DUP] == 0 and c > k:
            c = k
        n += c
    if n > L * k:
        n = L * k
    return n


@helper(alloc=False)
def sets_deficiency(cnt, S, cfg, force_rank, kr):
    """Missing cards for S minimum sets from ``cnt`` (naturals only); fills ``kr[r]`` = sets of rank r.

    With ``force_rank`` >= 0 one set must be of that rank. Returns INF if impossible.
    """
    for r in range(13):
        kr[r] = 0
    if S == 0:
        return 0 if force_rank < 0 else INF
    L = cfg[C_MIN_SET]
    need = cfg[C_MIN_NAT]
    if L - cfg[C_MAX_JOK] > need:
        need = L - cfg[C_MAX_JOK]
    kmax = 1 if cfg[C_SETS_DISTINCT] else S
    # naturals usable by one set of each rank (the first pick of a rank), computed once
    first = stack_int64(13)
    for r in range(13):
        first[r] = set_nat_count(cnt, cfg, r, 1)
    total = 0
    picked = 0
    if force_rank >= 0:
        n1 = first[force_rank]
        if n1 < need:
            return INF
        kr[force_rank] = 1
        total = n1
        picked = 1
    while picked < S:
        best_r = -1
        best_m = -1
        best_pen = -1
        for r in range(13):
            k = kr[r] + 1
            if k > kmax:
                continue
            if k == 1:
                nk = first[r]
                if nk < need:
                    continue
                m = nk
            else:
                nk = set_nat_count(cnt, cfg, r, k)
                if nk < k * need:
                    continue
                m = nk - set_nat_count(cnt, cfg, r, k - 1)
            pen = cfg[C_PEN + r]
            if m > best_m or (m == best_m and pen > best_pen):
                best_m = m
                best_r = r
                best_pen = pen
        if best_r < 0:
            return INF
        kr[best_r] += 1
        total += best_m
        picked += 1
    return L * S - total


@helper(alloc=False)
def build_sets(cnt, cfg, kr, force_type, sol, nsol):
    """Append the sets chosen in ``kr`` to ``sol`` (jokers fill), removing naturals from ``cnt``."""
    L = cfg[C_MIN_SET]
    dup = cfg[C_SET_DUP]
    for r in range(13):
        k = kr[r]
        if k == 0:
            continue
        base = nsol
        for i in range(k):
            m = sol[nsol]
            m[:] = 0
            m[M_KIND] = SET
            m[M_KEY] = r
            nsol += 1
        tok = 0
        first = -1
        if force_type >= 0 and force_type < 52 and force_type % 13 == r:
            first = force_type // 13
        for si in range(5):
            if si == 0:
                s = first
                if s < 0:
                    continue
            else:
                s = si - 1
                if s == first:
                    continue
            c = cnt[s * 13 + r]
            if dup == 0 and c > k:
                c = k
            for _ in range(c):
                if tok >= L * k:
                    break
                m = sol[base + tok % k]
                m[M_NAT] += 1 << (4 * s)
                cnt[s * 13 + r] -= 1
                tok += 1
        for i in range(k):
            m = sol[base + i]
            size = nib_sum(m[M_NAT])
            while size < L:
                js = 0
                if dup == 0:
                    for s2 in range(4):
                        if nib(m[M_NAT], s2) == 0 and nib(m[M_JOK], s2) == 0:
                            js = s2
                            break
                m[M_JOK] += 1 << (4 * js)
                cnt[JOKER] -= 1
                size += 1
    return nsol


# ------------------------------------------------------------------ runs


@helper(alloc=False)
def run_candidates(cnt, cfg, budget, force_type, cs, clo, clen, ccost, cforce):
    """Minimum-length run windows with at most ``budget`` missing cards; returns how many.

    ``cforce[i]`` is 1 when window i covers ``force_type``. Windows longer than
    min_run_length are listed only when min_naturals_per_meld needs them.
    """
    L = cfg[C_MIN_RUN]
    pmin, pmax, maxlen = pos_bounds(cfg)
    need = cfg[C_MIN_NAT]
    maxj = cfg[C_MAX_JOK]
    # min_naturals_per_meld = 1: some L-window of any valid run holds a natural, so
    # L-windows suffice; otherwise a run may need up to need + budget positions
    longest = L
    if need > 1 and need + budget > longest:
        longest = need + budget
    if longest > maxlen:
        longest = maxlen
    wrap = cfg[C_ACE] == ACE_MODE.WRAP
    if not wrap and longest == L:
        return _run_windows_by_cost(cnt, budget, force_type, L, pmin, pmax, need, maxj,
                                    cs, clo, clen, ccost, cforce)
    lo_hi = pmax if not wrap else 25
    p_end = pmax if not wrap else lo_hi + longest - 1  # last position any window reaches
    n = 0
    for s in range(4):
        # positions holding a natural, and those holding the forced card
        have = 0
        forced = 0
        if wrap:
            for p in range(pmin, p_end + 1):
                t = pos_type(cfg, s, p)
                if cnt[t] > 0:
                    have |= 1 << p
                    if t == force_type:
                        forced |= 1 << p
        else:
            have, forced = _suit_positions(cnt, s, force_type, pmin, pmax)
        if have == 0:
            continue  # every window needs a natural (min_naturals_per_meld >= 1)
        lo_first = pmin
        lo_last = lo_hi
        if not wrap:
            # only windows that reach a natural
            low_bit = popcount64((have & -have) - 1)
            if low_bit - longest + 1 > lo_first:
                lo_first = low_bit - longest + 1
            x = have
            x |= x >> 1
            x |= x >> 2
            x |= x >> 4
            x |= x >> 8
            if popcount64(x) - 1 < lo_last:
                lo_last = popcount64(x) - 1
        for lo in range(lo_first, lo_last + 1):
            for ln in range(L, longest + 1):
                hi = lo + ln - 1
                if not wrap and hi > pmax:
                    break
                w = ((1 << ln) - 1) << lo
                nat = popcount64(have & w)
                cost = ln - nat
                if cost > budget or nat < need or cost > maxj:
                    continue
                if n >= cs.shape[0]:
                    return n
                cs[n] = s
                clo[n] = lo
                clen[n] = ln
                ccost[n] = cost
                cforce[n] = 1 if forced & w else 0
                n += 1
    return n


@inline(alloc=False)
def _suit_positions(cnt, s, force_type, pmin, pmax):
    """(positions holding a natural of suit s, positions of ``force_type``) as bitmasks,
    without wrap: position = rank + 2 for deuce..king, the ace at 1 and at 14."""
    have = 0
    forced = 0
    for r in range(13):
        if cnt[s * 13 + r] > 0:
            bits = (1 << 1) | (1 << 14) if r == 12 else 1 << (r + 2)
            have |= bits
            if s * 13 + r == force_type:
                forced |= bits
    inside = ((1 << (pmax + 1)) - 1) ^ ((1 << pmin) - 1)
    return have & inside, forced & inside


@helper(alloc=False)
def _run_windows_by_cost(cnt, budget, force_type, L, pmin, pmax, need, maxj, cs, clo, clen, ccost, cforce):
    """run_candidates for L-long windows without wrap, already in the sorted order (cost,
    suit, lo): bit-sliced counts give every window's naturals at once, so there is no
    branch per window."""
    # masks of the natural positions (and the forced card's) per suit
    have = stack_int64(4)
    forced = stack_int64(4)
    for s in range(4):
        have[s], forced[s] = _suit_positions(cnt, s, force_type, pmin, pmax)
    starts = ((1 << (pmax - L + 2)) - 1) ^ ((1 << pmin) - 1)  # lo = pmin .. pmax - L + 1
    top = budget if budget < maxj else maxj
    if top > L - need:
        top = L - need
    n = 0
    for cost in range(top + 1):
        nat = L - cost
        for s in range(4):
            h = have[s]
            # bit lo of (c2 c1 c0) = naturals in positions lo .. lo + L - 1
            c0 = 0
            c1 = 0
            c2 = 0
            f = 0
            for i in range(L):
                x = h >> i
                k0 = c0 & x
                c0 ^= x
                k1 = c1 & k0
                c1 ^= k0
                c2 ^= k1
                f |= forced[s] >> i
            m = starts
            m &= c0 if nat & 1 else ~c0
            m &= c1 if nat & 2 else ~c1
            m &= c2 if nat & 4 else ~c2
            while m:
                lo = popcount64((m & -m) - 1)
                m &= m - 1
                cs[n] = s
                clo[n] = lo
                clen[n] = L
                ccost[n] = cost
                cforce[n] = (f >> lo) & 1
                n += 1
    return n


@helper(alloc=False)
def runs_suits_ok(cfg, R, level, cs, clo, clen, idx):
    """Whether the run chosen at ``level`` respects contract_runs_suits with earlier levels."""
    rule = cfg[C_RUN_SUITS]
    c = idx[level]
    if rule == RUN_SUITS.ANY:
        return True
    if rule == RUN_SUITS.NOT_ALL_SAME:
        if level == R - 1 and R >= 2:
            for j in range(level):
                if cs[idx[j]] != cs[c]:
                    return True
            return False
        return True
    for j in range(level):
        d = idx[j]
        if cs[d] != cs[c]:
            continue
        if rule == RUN_SUITS.DISTINCT:
            return False
        # non_contiguous: a free position between the two windows
        a_lo, a_hi = clo[d], clo[d] + clen[d] - 1
        b_lo, b_hi = clo[c], clo[c] + clen[c] - 1
        if cfg[C_ACE] == ACE_MODE.WRAP:
            # cyclic distance: both gaps between the arcs must be >= 1 position
            used = 0
            for p in range(a_lo, a_hi + 1):
                used |= 1 << (p % 13)
            for p in range(b_lo, b_hi + 1):
                bitp = 1 << (p % 13)
                if used & bitp:
                    return False
            # adjacency test: some position next to a's ends in b
            if ((used >> 0) & (1 << ((b_lo + 12) % 13))) or (used & (1 << ((b_hi + 1) % 13))):
                return False
            continue
        if not (a_hi + 1 < b_lo or b_hi + 1 < a_lo):
            return False
    return True


@helper(alloc=False)
def find_contract(cnt, S, R, cfg, budget, force_type, limit_jokers, sol):
    """Search for S sets and R runs (minimum sizes) with at most ``budget`` missing cards.

    ``force_type`` >= 0: that card type must be used (deep-take target).
    ``limit_jokers``: apply max_jokers_per_meld (legality); otherwise it is a
    pure deficiency test. Returns the number of melds written to ``sol`` (S+R)
    or -1. ``cnt`` is left unchanged.
    """
    return _search(cnt, S, R, cfg, budget, force_type, limit_jokers, sol, False)


W_MAX = 4 * 14 * 14  # run windows: 4 suits x 14 starts x up to 14 lengths
WS_SIZE = 29 + 2 * NT + 5 * W_MAX  # _search's workspace


@helper(alloc=False)
def _search(cnt, S, R, cfg, budget, force_type, limit_jokers, sol, minimize):
    """find_contract (``minimize`` 0), or the least deficiency <= budget, else budget + 1
    (``minimize`` 1; 2 also writes to ``sol`` the arrangement find_contract would return
    with that deficiency as its budget when min_naturals_per_meld is 1)."""
    nlen = 1  # window lengths run_candidates may list (see there)
    if cfg[C_MIN_NAT] > 1 and cfg[C_MIN_NAT] + budget > cfg[C_MIN_RUN]:
        nlen = cfg[C_MIN_NAT] + budget - cfg[C_MIN_RUN] + 1
        if nlen > 14:
            nlen = 14
    W = 4 * 14 * nlen  # room for every (suit, lo, length) window
    ws = stack_int64(WS_SIZE)  # fixed part first, then the window columns (W each)
    kr = ws[0:13]
    idx = ws[13:21]
    taken = ws[21:29]
    work = ws[29:29 + NT]
    tmp = ws[29 + NT:29 + 2 * NT]
    b0 = 29 + 2 * NT
    cs = ws[b0:b0 + W]
    clo = ws[b0 + W:b0 + 2 * W]
    clen = ws[b0 + 2 * W:b0 + 3 * W]
    ccost = ws[b0 + 3 * W:b0 + 4 * W]
    cforce = ws[b0 + 4 * W:b0 + 5 * W]
    for t in range(NT):
        work[t] = cnt[t]
    save_maxj = cfg[C_MAX_JOK]
    if not limit_jokers:
        cfg[C_MAX_JOK] = INF
    force_rank = -1
    if force_type >= 0 and force_type < 52:
        force_rank = force_type % 13
    found = -1
    best = budget + 1
    if R == 0:
        d = sets_deficiency(work, S, cfg, force_rank, kr)
        cfg[C_MAX_JOK] = save_maxj
        if d <= budget and minimize != 1:
            found = build_sets(work, cfg, kr, force_type, sol, 0)
        if minimize:
            return d if d <= budget else budget + 1
        return found
    # Every leaf's sets part costs at least the sets deficiency of the whole hand: taking
    # cards for runs never helps the sets (the greedy of sets_deficiency is optimal, and the
    # optimum cannot improve with fewer cards; a forced rank only adds a constraint).
    sets_floor = sets_deficiency(work, S, cfg, -1, kr)
    if sets_floor > budget:
        cfg[C_MAX_JOK] = save_maxj
        return budget + 1 if minimize else -1
    nc = run_candidates(work, cfg, budget, force_type, cs, clo, clen, ccost, cforce)
    # cheapest windows first: a level stops at the first window over budget
    for i in range(1, nc):
        j = i
        while j > 0 and ccost[j - 1] > ccost[j]:
            for arr in (cs, clo, clen, ccost, cforce):
                x = arr[j]
                arr[j] = arr[j - 1]
                arr[j - 1] = x
            j -= 1
    level = 0
    idx[0] = -1
    for j in range(8):
        taken[j] = 0
    cost_sum = 0
    while level >= 0:
        if taken[level]:
            c = idx[level]
            _restore_window(work, cfg, cs[c], clo[c], clen[c], taken[level])
            taken[level] = 0
            cost_sum -= ccost[c]
        idx[level] += 1
        if idx[level] >= nc:
            level -= 1
            continue
        c = idx[level]
        # deeper levels take windows at or after index c: each costs at least ccost[c]
        if cost_sum + ccost[c] * (R - level) + sets_floor > budget:
            idx[level] = nc
            continue
        if not runs_suits_ok(cfg, R, level, cs, clo, clen, idx):
            continue
        got = _take_window(work, cfg, cs[c], clo[c], clen[c])
        # re-check the cost with the cards left (a duplicate window may lose naturals)
        nat = popcount64(got)
        if nat < cfg[C_MIN_NAT] or clen[c] - nat != ccost[c]:
            _restore_window(work, cfg, cs[c], clo[c], clen[c], got)
            continue
        taken[level] = got | (1 << 40)  # marker bit so an all-joker mask still counts as taken
        cost_sum += ccost[c]
        if level < R - 1:
            level += 1
            idx[level] = idx[level - 1] - 1
            continue
        # leaf: runs chosen; sets on the rest
        forced_in_run = False
        if force_type >= 0:
            for j in range(R):
                if cforce[idx[j]]:
                    forced_in_run = True
        fr = -1 if (forced_in_run or force_rank < 0) else force_rank
        d = sets_deficiency(work, S, cfg, fr, kr)
        if cost_sum + d <= budget and (force_type < 0 or force_type == JOKER or forced_in_run or fr >= 0):
            if minimize == 1:
                best = cost_sum + d
                budget = best - 1
                if budget < 0:
                    break
                continue
            nsol = 0
            for j in range(R):
                c2 = idx[j]
                m = sol[nsol]
                m[:] = 0
                m[M_KIND] = RUN
                m[M_KEY] = cs[c2]
                m[M_LO] = clo[c2]
                m[M_HI] = clo[c2] + clen[c2] - 1
                natm = 0
                for p in range(clo[c2], clo[c2] + clen[c2]):
                    if (taken[j] >> (p - clo[c2])) & 1:
                        natm |= 1 << p
                m[M_NAT] = natm
                m[M_JOK] = 0
                for p in range(clo[c2], clo[c2] + clen[c2]):
                    if not (natm >> p) & 1:
                        m[M_JOK] |= 1 << p
                nsol += 1
            for t in range(NT):
                tmp[t] = work[t]
            nsol = build_sets(tmp, cfg, kr, force_type if fr >= 0 else -1, sol, nsol)
            found = nsol
            if minimize:
                # the first leaf reaching the final minimum is the one find_contract
                # stops at with that budget: the same cheapest-first order
                best = cost_sum + d
                budget = best - 1
                if budget < 0:
                    break
                continue
            break
    cfg[C_MAX_JOK] = save_maxj
    if minimize:
        return best
    return found


@helper(alloc=False)
def _take_window(work, cfg, s, lo, ln):
    """Remove one natural per covered position that has one; bit i set = position lo+i taken."""
    got = 0
    for i in range(ln):
        t = pos_type(cfg, s, lo + i)
        if work[t] > 0:
            work[t] -= 1
            got |= 1 << i
    return got


@helper(alloc=False)
def _restore_window(work, cfg, s, lo, ln, got):
    for i in range(ln):
        if (got >> i) & 1:
            work[pos_type(cfg, s, lo + i)] += 1


@helper(alloc=False)
def deficiency(cnt, S, R, cfg, cap):
    """Contract deficiency D(H) (9.3, jokers not counted), at most ``cap + 1``."""
    return _search(cnt, S, R, cfg, cap, -1, False, stack_int64_2d(1, MF), True)


@helper(alloc=False)
def deficiency_solution(cnt, S, R, cfg, cap, sol):
    """deficiency(cnt, S, R, cfg, cap) and, when it is <= cap, the arrangement
    find_contract(cnt, S, R, cfg, deficiency, -1, False, sol) writes, in one search."""
    if cfg[C_MIN_NAT] > 1:  # the window list depends on the budget: two searches
        d = deficiency(cnt, S, R, cfg, cap)
        if d <= cap:
            _search(cnt, S, R, cfg, d, -1, False, sol, 0)
        return d
    return _search(cnt, S, R, cfg, cap, -1, False, sol, 2)


@helper(alloc=False)
def contract_within(cnt, S, R, cfg, budget):
    """Whether the deficiency D(H) is at most ``budget`` (one pruned search)."""
    return _search(cnt, S, R, cfg, budget, -1, False, stack_int64_2d(MAX_SOL, MF), False) >= 0


@helper(alloc=False)
def contract_missing(cnt, S, R, cfg, cap):
    """Cards still missing after the jokers held: max(0, D - J), at most cap + 1."""
    d = deficiency(cnt, S, R, cfg, cap + cnt[JOKER])
    d -= cnt[JOKER]
    return d if d > 0 else 0


# ------------------------------------------------------------------ final deal (3.6)


@helper(alloc=False)
def _suit_run_need(cfg, s, cnt, lo_out):
    """Jokers a single run holding every natural of suit ``s`` needs; -1 if impossible.

    Writes the run's lo/hi (without extra jokers) to ``lo_out[0:2]``. Tries the ace low
    and high (both when two aces are held).
    """
    L = cfg[C_MIN_RUN]
    pmin, pmax, maxlen = pos_bounds(cfg)
    wrap = cfg[C_ACE] == ACE_MODE.WRAP
    nat = 0
    for r in range(13):
        nat += cnt[s * 13 + r]
    best = -1
    if wrap:
        ranks = 0
        for r in range(13):
            c = cnt[s * 13 + r]
            if c > 1:
                return -1
            if c == 1:
                ranks |= 1 << r
        for start in range(13):
            if not (ranks >> start) & 1:
                continue
            span = 0
            for d in range(13):
                if (ranks >> ((start + d) % 13)) & 1:
                    span = d + 1
            need = span - nat
            if span < L:
                need += L - span
            if best < 0 or need < best:
                best = need
                lo_out[0] = start + 13
                lo_out[1] = start + 13 + span - 1
        return best
    held = 0
    for r in range(12):
        c = cnt[s * 13 + r]
        if c > 1:
            return -1
        if c:
            held |= 1 << (r + 2)
    aces = cnt[s * 13 + 12]
    if aces > 2:
        return -1
    for opt in range(3):  # 0: ace low, 1: ace high, 2: both
        if (aces == 1 and opt == 2) or (aces == 2 and opt != 2) or (aces == 0 and opt > 0):
            continue
        posmask = held
        if aces == 2 or (aces == 1 and opt == 0):
            posmask |= 1 << 1
        if aces == 2 or (aces == 1 and opt == 1):
            posmask |= 1 << 14
        if posmask == 0:
            lo = -1
            hi = -1
        else:
            lo = popcount64((posmask & -posmask) - 1)
            x = posmask
            x |= x >> 1
            x |= x >> 2
            x |= x >> 4
            x |= x >> 8
            hi = popcount64(x) - 1
        if lo < pmin or hi > pmax:
            continue
        span = hi - lo + 1
        need = span - nat
        if span < L:
            need += L - span
            # extension must stay inside bounds
            if maxlen < L:
                continue
        if best < 0 or need < best:
            best = need
            lo_out[0] = lo
            lo_out[1] = hi
    return best


@helper(alloc=False)
def _final_suit_fit(cfg, s, work, fit):
    """One suit's run in the final deal: writes (jokers needed, lo, hi, room for spare
    jokers) to ``fit[0:4]``; returns the jokers needed, or -1 if no single run fits."""
    nat = 0
    for r in range(13):
        nat += work[s * 13 + r]
    if nat < cfg[C_MIN_NAT]:
        return -1
    need = _suit_run_need(cfg, s, work, fit[1:3])
    maxj = cfg[C_MAX_JOK]
    if need < 0 or need > maxj:
        return -1
    pmin, pmax, maxlen = pos_bounds(cfg)
    ln = fit[2] - fit[1] + 1
    if ln < cfg[C_MIN_RUN]:
        ln = cfg[C_MIN_RUN]
    room = maxlen - ln
    if maxj - need < room:
        room = maxj - need
    fit[0] = need
    fit[3] = room
    return need


@helper(alloc=False)
def final_fits(cnt, cfg, fits):
    """_final_suit_fit of every suit of ``cnt`` into ``fits[s, 0:4]`` (need -1: no run)
    and the suit's natural count into ``fits[s, 4]``."""
    for s in range(4):
        if _final_suit_fit(cfg, s, cnt, fits[s]) < 0:
            fits[s, 0] = -1
        n = 0
        for r in range(13):
            n += cnt[s * 13 + r]
        fits[s, 4] = n


@helper(alloc=False)
def final_go_out_ok(cnt, R, cfg, discard_type, fits):
    """Whether final_go_out(cnt, R, cfg, discard_type) succeeds, reusing ``fits``
    (final_fits of ``cnt``): only the discarded card's suit is worked out again."""
    if discard_type >= 0 and cnt[discard_type] == 0:
        return False
    ds = discard_type // 13 if 0 <= discard_type < 52 else -1
    suits = 0
    for s in range(4):
        if fits[s, 4] > (1 if s == ds else 0):
            suits |= 1 << s
    if popcount64(suits) != R:
        return False
    J = cnt[JOKER] - (1 if discard_type == JOKER else 0)
    need_tot = 0
    room_tot = 0
    one = stack_int64(4)
    for s in range(4):
        if not (suits >> s) & 1:
            continue
        if s == ds:
            cnt[discard_type] -= 1
            ok = _final_suit_fit(cfg, s, cnt, one) >= 0
            cnt[discard_type] += 1
            if not ok:
                return False
            need_tot += one[0]
            room_tot += one[3]
        else:
            if fits[s, 0] < 0:
                return False
            need_tot += fits[s, 0]
            room_tot += fits[s, 3]
    return need_tot <= J and J - need_tot <= room_tot


@helper(alloc=False)
def final_go_out(cnt, R, cfg, discard_type, sol):
    """All-at-once final deal (3.6), S = 0: can the hand minus ``discard_type`` (-1 none)
    form exactly R runs, one per suit holding naturals? Writes the runs to ``sol``.

    Returns the number of runs, or -1.
    """
    if discard_type >= 0 and cnt[discard_type] == 0:
        return -1
    work = stack_int64(NT)
    for t in range(NT):
        work[t] = cnt[t]
    if discard_type >= 0:
        work[discard_type] -= 1
    fits = stack_int64_2d(4, 5)
    final_fits(work, cfg, fits)
    if not final_go_out_ok(work, R, cfg, -1, fits):
        return -1
    pmin, pmax, maxlen = pos_bounds(cfg)
    wrap = cfg[C_ACE] == ACE_MODE.WRAP
    L = cfg[C_MIN_RUN]
    maxj = cfg[C_MAX_JOK]
    suits = 0
    need_tot = 0
    for s in range(4):
        if fits[s, 4] > 0:
            suits |= 1 << s
            need_tot += fits[s, 0]
    # build: gaps, then extend to L, then spare jokers
    spare = work[JOKER] - need_tot
    n = 0
    for s in range(4):
        if not (suits >> s) & 1:
            continue
        m = sol[n]
        m[:] = 0
        m[M_KIND] = RUN
        m[M_KEY] = s
        lo = fits[s, 1]
        hi = fits[s, 2]
        natm = 0
        for p in range(lo, hi + 1):
            t = pos_type(cfg, s, p)
            if work[t] > 0:
                natm |= 1 << p
                work[t] -= 1
        jok = 0
        for p in range(lo, hi + 1):
            if not (natm >> p) & 1:
                jok |= 1 << p
        used = popcount64(jok)
        while hi - lo + 1 < L or (spare > 0 and used < maxj and hi - lo + 1 < maxlen):
            if hi - lo + 1 >= L:
                spare -= 1
            if (not wrap and hi < pmax) or (wrap and hi - lo + 1 < 13):
                hi += 1
                jok |= 1 << hi
            else:
                lo -= 1
                jok |= 1 << lo
            used += 1
        m[M_LO] = lo
        m[M_HI] = hi
        m[M_NAT] = natm
        m[M_JOK] = jok
        n += 1
    return n


def _final_window_table():
    """Best run window per held-rank pattern, for every ace mode and min_run_length 3..5.

    ``FINAL_WINDOW[(ace_mode * 3 + L - 3) * 8192 + held]`` is the largest value of
    ``2 * (naturals inside) - length`` over the windows of length >= L (the empty window
    counts as -L), where ``held`` has bit r set when rank r (0 = deuce .. 12 = ace) is held.
    With ``ace_mode`` both, the 14-long window (one ace card at both ends) is left out:
    final_suit_cost adds it, since it depends on how many cards are held.
    """
    held = np.arange(8192)
    bits = (held[:, None] >> np.arange(13)[None, :]) & 1
    table = np.empty((4, 3, 8192), np.int8)
    for mode in range(4):
        if mode == ACE_MODE.WRAP:
            ranks = np.arange(26) % 13  # two laps; windows start in the first
        else:
            pmin, pmax = ((1, 13), (2, 14), (1, 14))[mode]
            ranks = np.array([12 if p in (1, 14) else p - 2 for p in range(pmin, pmax + 1)])
        pre = np.zeros((8192, len(ranks) + 1), np.int64)
        pre[:, 1:] = np.cumsum(2 * bits[:, ranks] - 1, axis=1)
        n = 13 if mode == ACE_MODE.WRAP else len(ranks)
        for L in range(3, 6):
            best = np.full(8192, -L)
            for lo in range(n):
                for ln in range(L, 14 if mode == ACE_MODE.WRAP else n - lo + 1):
                    if mode == ACE_MODE.BOTH and ln == 14:
                        continue
                    best = np.maximum(best, pre[:, lo + ln] - pre[:, lo])
            table[mode, L - 3] = best
    return table.reshape(-1)


FINAL_WINDOW = _final_window_table()


@inline(alloc=False)
def suit_held(cnt, s):
    """(held-rank bitmask, natural count) of suit ``s`` in ``cnt``."""
    held = 0
    nat = 0
    for r in range(13):
        c = cnt[s * 13 + r]
        nat += c
        if c:
            held |= 1 << r
    return held, nat


@inline(alloc=False)
def final_window_cost(cfg, held, nat):
    """final_suit_cost from the suit's held ranks and natural count (FINAL_WINDOW)."""
    best = np.int64(FINAL_WINDOW[(cfg[C_ACE] * 3 + cfg[C_MIN_RUN] - 3) * 8192 + held])
    if cfg[C_ACE] == ACE_MODE.BOTH:
        inside = popcount64(held) + ((held >> 12) & 1)
        if inside > nat:
            inside = nat
        if 2 * inside - 14 > best:
            best = 2 * inside - 14
    return nat - best


@helper(alloc=False)
def final_suit_cost(cnt, cfg, s):
    """Best single run window of suit s: missing positions + the suit's naturals outside it.

    That is ``nat - max(-L, max over windows of length >= L (2 * naturals inside - length))``,
    looked up in FINAL_WINDOW.
    """
    held, nat = suit_held(cnt, s)
    return final_window_cost(cfg, held, nat)


@helper(alloc=False)
def final_combine(best, natc, R, jokers):
    """final_missing from per-suit costs: the R best suits, strays from the others.

    The value is ``total naturals + the R smallest (best[s] - natc[s])``, less the jokers
    and the final discard.
    """
    tot_nat = natc[0] + natc[1] + natc[2] + natc[3]
    if R > 4:
        res = INF
    else:
        d0 = best[0] - natc[0]
        d1 = best[1] - natc[1]
        d2 = best[2] - natc[2]
        d3 = best[3] - natc[3]
        # sort the four differences (a small network), then take the R smallest
        if d0 > d1:
            d0, d1 = d1, d0
        if d2 > d3:
            d2, d3 = d3, d2
        if d0 > d2:
            d0, d2 = d2, d0
        if d1 > d3:
            d1, d3 = d3, d1
        if d1 > d2:
            d1, d2 = d2, d1
        res = tot_nat
        if R >= 1:
            res += d0
        if R >= 2:
            res += d1
        if R >= 3:
            res += d2
        if R >= 4:
            res += d3
    res -= jokers + 1
    return res if res > 0 else 0


@helper(alloc=False)
def final_costs(cnt, cfg, R, fbest, fnat, fheld):
    """final_missing(cnt), leaving each suit's best window cost, naturals and held ranks
    in fbest, fnat, fheld (policies change one suit and recombine)."""
    for s in range(4):
        held, n_s = suit_held(cnt, s)
        fbest[s] = final_window_cost(cfg, held, n_s)
        fnat[s] = n_s
        fheld[s] = held
    return final_combine(fbest, fnat, R, cnt[JOKER])


@helper(alloc=False)
def final_missing(cnt, R, cfg):
    """Policy metric for the all-at-once final deal: jokers/cards still needed to go out.

    Picks the best run window per suit (missing positions + the suit's naturals left
    outside it), keeps the R best suits, counts every natural of other suits as a
    stray, then credits the jokers held and the one final discard.
    """
    return final_costs(cnt, cfg, R, stack_int64(4), stack_int64(4), stack_int64(4))


# ------------------------------------------------------------------ lay-offs


@helper(alloc=False)
def run_len(m):
    return m[M_HI] - m[M_LO] + 1


@helper(alloc=False)
def meld_jokers(m):
    if m[M_KIND] == RUN:
        return popcount64(m[M_JOK])
    return nib_sum(m[M_JOK])


@helper(alloc=False)
def meld_size(m):
    if m[M_KIND] == RUN:
        return m[M_HI] - m[M_LO] + 1
    return nib_sum(m[M_NAT]) + nib_sum(m[M_JOK])


@helper(alloc=False)
def natural_slot(cfg, m, t):
    """Where natural type t can be laid off on meld m: run position, set suit, or -1."""
    if t >= 52:
        return -1
    s = t // 13
    r = t % 13
    if m[M_KIND] == SET:
        if r != m[M_KEY] or meld_size(m) >= cfg[C_MAX_SET]:
            return -1
        if cfg[C_SET_DUP] == 0 and (nib(m[M_NAT], s) or nib(m[M_JOK], s)):
            return -1
        return s
    if s != m[M_KEY]:
        return -1
    pmin, pmax, maxlen = pos_bounds(cfg)
    lo = m[M_LO]
    hi = m[M_HI]
    if hi - lo + 1 >= maxlen:
        return -1
    if cfg[C_ACE] == ACE_MODE.WRAP:
        if (hi + 1) % 13 == r:
            return hi + 1
        if (lo + 12) % 13 == r:
            return lo - 1
        return -1
    if lo - 1 >= pmin and pos_rank(cfg, lo - 1) == r:
        return lo - 1
    if hi + 1 <= pmax and pos_rank(cfg, hi + 1) == r:
        return hi + 1
    return -1


@helper(alloc=False)
def joker_slot(cfg, m, prefer_high):
    """A free joker slot on meld m (run position or set suit), or -1."""
    if meld_jokers(m) >= cfg[C_MAX_JOK]:
        return -1
    if m[M_KIND] == SET:
        if meld_size(m) >= cfg[C_MAX_SET]:
            return -1
        for s in range(4):
            if cfg[C_SET_DUP] or (nib(m[M_NAT], s) == 0 and nib(m[M_JOK], s) == 0):
                return s
        return -1
    pmin, pmax, maxlen = pos_bounds(cfg)
    lo = m[M_LO]
    hi = m[M_HI]
    if hi - lo + 1 >= maxlen:
        return -1
    if cfg[C_ACE] == ACE_MODE.WRAP:
        return hi + 1 if prefer_high else lo - 1
    if prefer_high and hi + 1 <= pmax:
        return hi + 1
    if lo - 1 >= pmin:
        return lo - 1
    if hi + 1 <= pmax:
        return hi + 1
    return -1


@helper(alloc=False)
def add_to_meld(cfg, m, slot, joker):
    """Put a card in ``slot`` (from natural_slot / joker_slot) of meld m."""
    if m[M_KIND] == SET:
        if joker:
            m[M_JOK] += 1 << (4 * slot)
        else:
            m[M_NAT] += 1 << (4 * slot)
        return
    if joker:
        m[M_JOK] |= 1 << slot
    else:
        m[M_NAT] |= 1 << slot
    if slot < m[M_LO]:
        m[M_LO] = slot
    if slot > m[M_HI]:
        m[M_HI] = slot
    if cfg[C_ACE] == ACE_MODE.WRAP and m[M_LO] < 13:
        # keep 13 <= lo <= 25 so that lo - 1 is never negative
        m[M_LO] += 13
        m[M_HI] += 13
        m[M_NAT] <<= 13
        m[M_JOK] <<= 13


@helper(alloc=False)
def meld_valid(cfg, m):
    """Full validity check of one meld (1.5); used by assertions and tests."""
    naturals = 0
    jokers = meld_jokers(m)
    if m[M_KIND] == SET:
        size = meld_size(m)
        if size < cfg[C_MIN_SET] or size > cfg[C_MAX_SET]:
            return False
        if m[M_KEY] < 0 or m[M_KEY] > 12:
            return False
        if cfg[C_SET_DUP] == 0:
            for s in range(4):
                if nib(m[M_NAT], s) + nib(m[M_JOK], s) > 1:
                    return False
        naturals = nib_sum(m[M_NAT])
    else:
        pmin, pmax, maxlen = pos_bounds(cfg)
        lo = m[M_LO]
        hi = m[M_HI]
        ln = hi - lo + 1
        if ln < cfg[C_MIN_RUN] or ln > maxlen:
            return False
        if cfg[C_ACE] == ACE_MODE.WRAP:
            if lo < 13 or lo > 25:
                return False
        elif lo < pmin or hi > pmax:
            return False
        full = ((1 << (hi + 1)) - 1) ^ ((1 << lo) - 1)
        if (m[M_NAT] & m[M_JOK]) != 0 or (m[M_NAT] | m[M_JOK]) != full:
            return False
        naturals = popcount64(m[M_NAT])
    if naturals < cfg[C_MIN_NAT] or jokers > cfg[C_MAX_JOK]:
        return False
    return True
