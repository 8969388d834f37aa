"""Contract Rummy decisions and the built-in policies: ``random``, ``basic`` (= ``greedy``),
``expert`` and the strategy families of rules 9.4 with their parameters (``greedy_deep``,
``defensive``, ``hold_back``).

Every decision function has the signature ``SIG``::

    f(hand int64[53], pub int64[PUB_SIZE], melds int64[MAX_MELDS, MF], opts int64[OPT_SIZE],
      cfg int64[NCFG], rng uint64[1]) -> int64

(state view layout: ``view.py``; ``cfg``: the house rules, slots ``melds.CFG``; meld fields
and helpers: ``melds.py``). A policy's parameters are in the view's ``params`` slots: the
k-th declared one is ``param_value(pub, P_PARAMS + k)``. Decisions:

- ``draw``: ``opts[0]`` = n, ``opts[1..n]`` legal draws: 0 stock, 1 top of the pile,
  d >= 2 a deep take of depth d (already checked: the target can reach the table this
  turn). Return one of them. Working out the legal deep takes is costly, so the first
  call lists -1 ("ask for deep takes") instead of them when some may exist; returning -1
  makes the engine list them and call ``draw`` again (without -1); returning -k (k >= 2)
  lists only the deep takes down to depth k.
- ``go_down``: asked when the player may lay down his contract now and nothing forces
  it. ``opts[0]`` cards he would still hold after laying down and disposing of what he
  can, ``opts[1]`` their penalty, ``opts[2]`` 1 if that empties his hand (goes out).
  Return 1 to go down, 0 to wait.
- ``discard``: ``opts[0]`` = n, ``opts[1..n]`` legal discard types. Return one.
- ``buy`` (only with buying_enabled): ``opts[0]`` the top discard type. Return 1 to buy.

The engine itself plays the meld phase once a player is down (lay-offs, extra melds,
joker swaps: as many cards as possible, keeping a legal discard), so these four are
the strategic choices.
"""
from numba import types

from simcards.core.policy import PARAM_SCALE, Decision, Policy, PolicyCatalog, PolicyParam, param_value
from simcards.core.rng import below
from simcards.core.scratch import stack_int64, stack_int64_2d
from simcards.core.jit import helper, inline, policy
from simcards.games.contract_rummy.melds import (
    C_MIN_RUN, C_PEN, JOKER, M_HI, M_KEY, M_KIND, M_LO, M_NAT, NT, contract_missing, contract_within,
    deficiency, deficiency_solution, final_combine, final_costs, final_missing, final_window_cost, find_contract, natural_slot, pos_type,
    penalty, MAX_SOL, MF,
)
from simcards.games.contract_rummy.view import (
    MAX_SEATS, P_DOWN, P_FINAL_ALL, P_HLEN, P_NMELDS, P_NPL, P_OWN_TURN, P_PILE,
    P_PARAMS, P_PILE_LEN, P_R, P_S, P_SEAT, P_TURN,
)

SIG = types.int64(types.int64[:], types.int64[:], types.int64[:, :], types.int64[:], types.int64[:], types.uint64[:])
DECISIONS = (
    Decision("draw", SIG, "Choose a draw: 0 stock, 1 top discard, d>=2 deep take (opts lists the legal ones)."),
    Decision("go_down", SIG, "1 to lay down the contract now, 0 to wait (opts: cards left, penalty left, goes out)."),
    Decision("discard", SIG, "Choose the card type to discard among opts[1..opts[0]]."),
    Decision("buy", SIG, "1 to buy the top discard out of turn (opts[0] = its type)."),
)

CAP = 3     # deficiency search depth used by the heuristics
NOISE = 8000         # stalled deal: random key spread (penalty points x 1000)
FINAL_NOISE = 30000  # ... in the all-at-once final deal: wider than any penalty gap


# ------------------------------------------------------------------ helpers


@helper(alloc=False)
def missing(hand, pub, cfg):
    """Cards still needed for this deal's contract (9.3), or the final-deal measure."""
    if pub[P_FINAL_ALL]:
        return final_missing(hand, pub[P_R], cfg)
    return contract_missing(hand, pub[P_S], pub[P_R], cfg, CAP)


@inline(alloc=False)
def isolated(hand, cfg, t):
    """True if natural t has no same-rank card and no same-suit card within reach of a run."""
    if t >= 52:
        return False
    s = t // 13
    r = t % 13
    for s2 in range(4):
        if s2 != s and hand[s2 * 13 + r]:
            return False
    if hand[t] > 1:
        return False
    reach = cfg[C_MIN_RUN] - 1
    base = s * 13
    for d in range(1, reach + 1):
        # cyclic neighbours (ace next to both 2 and K); explicit wrap, no modulo
        up = r + d if r + d < 13 else r + d - 13
        down = r - d if r >= d else r - d + 13
        if hand[base + up] or hand[base + down]:
            return False
    return True


@inline(alloc=False)
def connectivity(hand, t):
    if t >= 52:
        return 99
    s = t // 13
    r = t % 13
    c = hand[t] - 1
    for s2 in range(4):
        if s2 != s:
            c += hand[s2 * 13 + r]
    base = s * 13
    for d in (1, 2):
        up = r + d if r + d < 13 else r + d - 13
        down = r - d if r >= d else r - d + 13
        c += hand[base + up] + hand[base + down]
    return c


@helper(alloc=False)
def placeable(hand, pub, melds, cfg, t):
    """Whether natural t fits a table meld end/slot now, or makes a meld with the hand."""
    if t >= 52:
        return True
    for i in range(pub[P_NMELDS]):
        if natural_slot(cfg, melds[i], t) >= 0:
            return True
    sol = stack_int64_2d(2, MF)
    hand[t] += 1
    ok = find_contract(hand, 1, 0, cfg, 0, t, True, sol) >= 0 or find_contract(hand, 0, 1, cfg, 0, t, True, sol) >= 0
    hand[t] -= 1
    return ok


@helper(alloc=False)
def solution_naturals(cfg, m, used):
    """Add the natural cards of solution meld m to ``used`` (count per type)."""
    if m[M_KIND] == 1:
        for pos in range(m[M_LO], m[M_HI] + 1):
            if (m[M_NAT] >> pos) & 1:
                used[pos_type(cfg, m[M_KEY], pos)] += 1
    else:
        for s in range(4):
            used[s * 13 + m[M_KEY]] += (m[M_NAT] >> (4 * s)) & 15


@helper(alloc=False)
def pile_type(pub, depth):
    return pub[P_PILE + pub[P_PILE_LEN] - depth]


@helper(alloc=False)
def better_draw(hand, pub, melds, opts, cfg, allow_deep, theta):
    """Greedy draw: top if it lowers ``missing`` (not down) or can be placed (down); with
    ``allow_deep`` the shallowest listed deep take whose other cards cost <= ``theta``."""
    seat = pub[P_SEAT]
    has_stock = False
    has_top = False
    for i in range(1, opts[0] + 1):
        if opts[1 + i - 1] == 0:
            has_stock = True
        elif opts[1 + i - 1] == 1:
            has_top = True
    if allow_deep:
        # deep takes (listed ones are legal): the shallowest one whose other cards are cheap
        for i in range(1, opts[0] + 1):
            d = opts[i]
            if d < 2:
                continue
            extra = 0
            for k in range(1, d):
                extra += penalty(cfg, pile_type(pub, k))
            if extra <= theta:
                return d
    if has_top:
        top = pile_type(pub, 1)
        if pub[P_DOWN + seat]:
            if placeable(hand, pub, melds, cfg, top) or not isolated(hand, cfg, top):
                return 1
        elif top == JOKER:
            return 1
        elif pub[P_FINAL_ALL] or not isolated(hand, cfg, top):
            if pub[P_FINAL_ALL]:
                # final_missing before and after taking top: only top's suit changes
                fbest = stack_int64(4)
                fnat = stack_int64(4)
                fheld = stack_int64(4)
                m0 = final_costs(hand, cfg, pub[P_R], fbest, fnat, fheld)
                s_t = top // 13
                fnat[s_t] += 1
                fbest[s_t] = final_window_cost(cfg, fheld[s_t] | (1 << (top % 13)), fnat[s_t])
                better = final_combine(fbest, fnat, pub[P_R], hand[JOKER]) < m0
            else:
                # missing drops  <=>  D(hand + top) <= max(D, J) - 1
                d0 = deficiency(hand, pub[P_S], pub[P_R], cfg, CAP + hand[JOKER])
                goal = (d0 if d0 > hand[JOKER] else hand[JOKER]) - 1
                hand[top] += 1
                better = goal >= 0 and d0 > hand[JOKER] and contract_within(hand, pub[P_S], pub[P_R], cfg, goal)
                hand[top] -= 1
            if better:
                return 1
        if not has_stock:
            return 1
    if has_stock:
        return 0
    for i in range(1, opts[0] + 1):
        if opts[i] >= 0:
            return opts[i]
    return opts[1]


@helper(alloc=False)
def greedy_discard(hand, pub, melds, opts, cfg, defensive, dump_at, rng):
    """Discard a card whose loss keeps ``missing`` lowest: highest penalty, least connected.

    ``defensive`` (expert, defensive(k)): in dump mode (an opponent down with <= ``dump_at``
    cards) throw the highest penalty card; avoid cards that fit a table meld while an
    opponent is down.
    Once the deal has lasted 6 rounds the choice among equally good cards gets random
    noise: with one deck nearly every card is in a hand and deterministic greedy
    players can pass the same few cards round forever. In the all-at-once final deal,
    where nobody melds until he goes out, the noise spans every penalty value: with
    the narrower noise of the other deals each player kept giving up his highest cards
    and keeping the same low ones, and 16 % of 4-player final deals ran into the
    1000-turn safety cap (now none; mean length 497 -> 158 turns).
    """
    seat = pub[P_SEAT]
    n = opts[0]
    if n == 1:
        return opts[1]
    down = pub[P_DOWN + seat]
    opp_down = False
    dump = False
    if defensive:
        for q in range(pub[P_NPL]):
            if q != seat and pub[P_DOWN + q]:
                opp_down = True
                if pub[P_HLEN + q] <= dump_at:
                    dump = True
    stalled = pub[P_TURN] > 6 * pub[P_NPL]
    fbest = stack_int64(4)
    fnat = stack_int64(4)
    fheld = stack_int64(4)
    # deadwood: cards outside one best contract arrangement keep ``missing`` where it is
    used = stack_int64(NT)
    if not down and not dump and not pub[P_FINAL_ALL]:
        for t in range(NT):
            used[t] = 0
        S = pub[P_S]
        R = pub[P_R]
        sol = stack_int64_2d(MAX_SOL, MF)
        if deficiency_solution(hand, S, R, cfg, CAP + hand[JOKER], sol) <= CAP + hand[JOKER]:
            for k in range(S + R):
                solution_naturals(cfg, sol[k], used)
    m0 = -1
    best = -1
    best_key = -(1 << 40)
    for i in range(1, n + 1):
        t = opts[i]
        if t == JOKER:
            key = -(1 << 39)
        else:
            keeps = True
            if not down and not dump and not isolated(hand, cfg, t):
                if pub[P_FINAL_ALL]:
                    # only t's suit changes: reuse the other suits' costs
                    if m0 < 0:
                        m0 = final_costs(hand, cfg, pub[P_R], fbest, fnat, fheld)
                    s_t = t // 13
                    keep_best = fbest[s_t]
                    held = fheld[s_t] if hand[t] > 1 else fheld[s_t] & ~(1 << (t % 13))
                    fnat[s_t] -= 1
                    fbest[s_t] = final_window_cost(cfg, held, fnat[s_t])
                    keeps = final_combine(fbest, fnat, pub[P_R], hand[JOKER]) <= m0
                    fnat[s_t] += 1
                    fbest[s_t] = keep_best
                else:
                    keeps = hand[t] > used[t]
            if down:
                # a down player collects pairs and run pieces for extra melds and lay-offs
                key = (1 << 20 if isolated(hand, cfg, t) else 0) + penalty(cfg, t) * 1000 - 50 * connectivity(hand, t)
            else:
                key = (0 if keeps else -(1 << 30)) + penalty(cfg, t) * 1000 - 50 * connectivity(hand, t)
            key += t % 13  # ties: the higher rank goes
            if stalled:
                key += below(rng, FINAL_NOISE if pub[P_FINAL_ALL] else NOISE)
            if defensive and opp_down and not dump:
                for k in range(pub[P_NMELDS]):
                    if natural_slot(cfg, melds[k], t) >= 0:
                        key -= 1 << 16
                        break
        if key > best_key:
            best_key = key
            best = t
    return best


# ------------------------------------------------------------------ random


@policy(SIG, alloc=False)
def random_draw(hand, pub, melds, opts, cfg, rng):
    """Uniform among all legal draws (deep takes included: ask for them first)."""
    for i in range(1, opts[0] + 1):
        if opts[i] == -1:
            return -1
    return opts[1 + below(rng, opts[0])]


@policy(SIG, alloc=False)
def always_go_down(hand, pub, melds, opts, cfg, rng):
    return 1


@policy(SIG, alloc=False)
def random_discard(hand, pub, melds, opts, cfg, rng):
    return opts[1 + below(rng, opts[0])]


@policy(SIG, alloc=False)
def random_buy(hand, pub, melds, opts, cfg, rng):
    return below(rng, 2)


# ------------------------------------------------------------------ basic (9.4 greedy)


@policy(SIG, alloc=False)
def basic_draw(hand, pub, melds, opts, cfg, rng):
    return better_draw(hand, pub, melds, opts, cfg, False, 0)


@policy(SIG, alloc=False)
def basic_discard(hand, pub, melds, opts, cfg, rng):
    return greedy_discard(hand, pub, melds, opts, cfg, False, 0, rng)


@policy(SIG, alloc=False)
def basic_buy(hand, pub, melds, opts, cfg, rng):
    """Buy when the card lowers ``missing`` and costs at most one extra stock card."""
    t = opts[0]
    if t == JOKER:
        return 1
    if pub[P_FINAL_ALL] or isolated(hand, cfg, t):
        return 0
    m0 = missing(hand, pub, cfg)
    hand[t] += 1
    m1 = missing(hand, pub, cfg)
    hand[t] -= 1
    return 1 if m1 < m0 else 0


# ------------------------------------------------------------------ shared pieces of the families


@helper(alloc=False)
def deep_draw(hand, pub, melds, opts, cfg, theta, look):
    """greedy_deep's draw: ask for the deep takes down to depth ``look`` when a card there
    shares a rank with the hand or sits next to a hand card of its suit; then greedy, plus
    the shallowest deep take whose other cards cost at most ``theta`` penalty points."""
    for i in range(1, opts[0] + 1):
        if opts[i] == -1:
            pl = pub[P_PILE_LEN]
            for d in range(2, min(pl, look) + 1):
                t = pile_type(pub, d)
                if t == JOKER or not isolated(hand, cfg, t):
                    return -look
    return better_draw(hand, pub, melds, opts, cfg, True, theta)


@helper(alloc=False)
def hold_back_answer(pub, opts, hold_cards, from_turn):
    """hold_back's go_down: go down when that goes out, leaves at most ``hold_cards`` cards,
    an opponent is already down, or (``from_turn`` >= 1) from own turn ``from_turn`` on."""
    if opts[2] or opts[0] <= hold_cards:
        return 1
    seat = pub[P_SEAT]
    for q in range(pub[P_NPL]):
        if q != seat and pub[P_DOWN + q]:
            return 1
    return 1 if from_turn >= 1 and pub[P_OWN_TURN] >= from_turn else 0


@inline(alloc=False)
def int_param(pub, k):
    """Whole-number policy parameter k of the deciding seat (declared ``integer=True``: its
    fixed-point value is an exact multiple of PARAM_SCALE)."""
    return pub[P_PARAMS + k] // PARAM_SCALE


# ------------------------------------------------------------------ expert

# expert's parameters, in declaration order (column k of PolicyTable.params)
EX_THETA, EX_LOOK, EX_DUMP, EX_HOLD, EX_FROM_TURN = range(5)


@policy(SIG, alloc=False)
def expert_draw(hand, pub, melds, opts, cfg, rng):
    return deep_draw(hand, pub, melds, opts, cfg, param_value(pub, P_PARAMS + EX_THETA), int_param(pub, EX_LOOK))


@policy(SIG, alloc=False)
def expert_go_down(hand, pub, melds, opts, cfg, rng):
    """Hold the contract back (no lay-off targets for others) unless it goes out, leaves
    few cards, an opponent is already down, or the wait is getting long."""
    return hold_back_answer(pub, opts, int_param(pub, EX_HOLD), int_param(pub, EX_FROM_TURN))


@policy(SIG, alloc=False)
def expert_discard(hand, pub, melds, opts, cfg, rng):
    return greedy_discard(hand, pub, melds, opts, cfg, True, int_param(pub, EX_DUMP), rng)


# ------------------------------------------------------------------ the 9.4 families


@policy(SIG, alloc=False)
def greedy_deep_draw(hand, pub, melds, opts, cfg, rng):  # parameters: theta, look
    return deep_draw(hand, pub, melds, opts, cfg, param_value(pub, P_PARAMS + 0), int_param(pub, 1))


@policy(SIG, alloc=False)
def defensive_discard(hand, pub, melds, opts, cfg, rng):  # parameter: k
    return greedy_discard(hand, pub, melds, opts, cfg, True, int_param(pub, 0), rng)


@policy(SIG, alloc=False)
def hold_back_go_down(hand, pub, melds, opts, cfg, rng):  # parameter: x
    return hold_back_answer(pub, opts, int_param(pub, 0), 0)


THETA = PolicyParam("theta", 10, 0, 500, "most penalty points the cards above a deep-take target may cost",
                    integer=True)
LOOK = PolicyParam("look", 4, 2, 200, "deepest take considered (pile depth)", integer=True)
DUMP = PolicyParam("k", 3, 0, 30, "dump mode (highest penalty first) once an opponent is down with at most k cards",
                   integer=True)
HOLD = PolicyParam("x", 3, 0, 30, "go down at once when at most x cards would be left in hand", integer=True)
FROM_TURN = PolicyParam("from_turn", 3, 0, 1000, "go down at once from this own turn on (0: never by turns)",
                        integer=True)

BASIC = Policy("basic", draw=basic_draw, go_down=always_go_down, discard=basic_discard, buy=basic_buy,
               help="9.4 greedy: top card when it lowers `missing`, down at once, discards deadwood")
BUILTINS = {
    "random": Policy("random", draw=random_draw, go_down=always_go_down, discard=random_discard, buy=random_buy,
                     help="9.4 random_legal: uniform legal draws (deep takes too) and discards, always down"),
    "basic": BASIC,
    "expert": Policy("expert", base=BASIC, draw=expert_draw, go_down=expert_go_down, discard=expert_discard,
                     params=(THETA, LOOK, DUMP, HOLD, FROM_TURN),
                     help="greedy_deep + defensive + hold_back with a turn limit (the strongest built-in)"),
    "greedy": Policy("greedy", base=BASIC, help="9.4 greedy (the same play as basic)"),
    "greedy_deep": Policy("greedy_deep", base=BASIC, draw=greedy_deep_draw, params=(THETA, LOOK),
                          help="9.4 greedy_deep(theta): greedy plus deep takes whose other cards cost <= theta"),
    "defensive": Policy("defensive", base=BASIC, discard=defensive_discard, params=(DUMP,),
                        help="9.4 defensive(k): greedy, no feeding table melds, dump mode near an opponent's going out"),
    "hold_back": Policy("hold_back", base=BASIC, go_down=hold_back_go_down, params=(HOLD,),
                        help="9.4 hold_back(x): holds the contract until it goes out, leaves <= x cards "
                             "or an opponent is down"),
}
CATALOG = PolicyCatalog("contract-rummy", DECISIONS, BUILTINS, MAX_SEATS)
