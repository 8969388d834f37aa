"""A tiny game for the runner's tests: each record rolls dice, a policy decides rerolls.

It exercises the whole Game contract (variant, policies per seat, units, tally,
figures, replay) in a few lines, so the runner is tested without any real game.
"""
from dataclasses import dataclass

import numpy as np
from numba import types

from simcards.core.errors import IllegalAnswer, SimcardsError, kernel_errors
from simcards.core.game import Column, DoubleDummySupport, Game, OddsSupport, Unit
from simcards.core.jit import kernel, policy
from simcards.core.policy import PARAM_SLOTS, Decision, Layout, Policy, PolicyCatalog, PolicyParam, param_value
from simcards.core.rng import below, stream_start
from simcards.core.variant import Variant, param
from simcards.core import stats

KEEP_SIG = types.int64(types.int64[:], types.uint64[:])
VIEW = Layout("toy view", roll=1, sides=1, params=PARAM_SLOTS)  # the policy's view, declared once (core/policy.py)
VIEW.export(globals(), "V_", size="VIEW_LEN")


@dataclass(frozen=True)
class ToyVariant(Variant):
    game_name = "toy"
    sides: int = param(6, min=2, max=100, help="Sides of each die.")
    players: int = param(2, min=1, max=4, help="Players.")
    work: int = param(0, min=0, help="Busy-loop iterations per record (makes runs slow enough to interrupt).")


DECISIONS = (Decision("keep", KEEP_SIG, "keep the roll (1) or reroll (0)"),)


@policy(KEEP_SIG)
def keep_always(view, rng):
    return 1


@policy(KEEP_SIG)
def keep_high(view, rng):
    return 1 if view[V_ROLL] * 2 > view[V_SIDES] else 0


@policy(KEEP_SIG)
def keep_random(view, rng):
    return below(rng, 2)


@policy(KEEP_SIG)
def keep_at_least(view, rng):
    """Keep a roll of at least ``threshold`` (parameter 0); ``fraction`` (parameter 1)
    of the sides when ``threshold`` is 0."""
    threshold = param_value(view, V_PARAMS + 0)
    if threshold == 0:
        threshold = param_value(view, V_PARAMS + 1) * view[V_SIDES]
    return 1 if view[V_ROLL] >= threshold else 0


KEEP_AT_LEAST = Policy("keep_at_least", keep=keep_at_least, help="keep a roll of at least a threshold", params=(
    PolicyParam("threshold", 4, 0, 100, "lowest roll kept (0: use fraction)", integer=True),
    PolicyParam("fraction", 0.5, 0.0, 1.0, "lowest roll kept as a fraction of the sides, when threshold is 0"),
))


@kernel
def _simulate(params, seed, start, out, keep, policy_params):
    view = np.zeros(VIEW_LEN, np.int64)
    rng = np.zeros(1, np.uint64)
    p = params[0]
    for r in range(out.shape[0]):
        rng[0] = stream_start(np.uint64(seed), np.uint64(start + r), np.uint64(0))
        best = -1
        for seat in range(p.players):
            roll = below(rng, p.sides) + 1
            view[V_ROLL] = roll
            view[V_SIDES] = p.sides
            view[V_PARAMS:V_PARAMS + PARAM_SLOTS] = policy_params[seat]
            answer = keep[seat](view, rng)
            if answer != 0 and answer != 1:
                raise IllegalAnswer(0, seat, answer)  # the error channel (core/errors.py)
            if answer == 0:
                roll = below(rng, p.sides) + 1
            out[r, seat] = roll
            if roll > best:
                best = roll
        out[r, 4] = best
        acc = np.uint64(0)
        for _ in range(p.work):
            acc = acc * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
        if acc == np.uint64(1):  # keeps the loop from being optimised away
            out[r, 4] += 1


def simulate(unit, variant, table, seed, start, count):
    out = np.zeros((count, 5), np.int64)
    with kernel_errors("toy", DECISIONS, table):
        _simulate(variant.to_params(), seed, start, out, table["keep"], table.params)
    return out


def tally(unit, records, variant):
    return stats.combine([stats.mean("best", records["best"]),
                          stats.rate("six_or_more", records["best"] >= 6),
                          stats.mean("roll", records["roll0"], by=np.zeros(len(records), int))])


def figures(unit, summary, variant):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    ax.bar(summary["metric"], summary["estimate"])
    return {"estimates": fig}


def replay(unit, variant, table, seed, index):
    row = simulate(unit, variant, table, seed, index, 1)[0]
    return f"toy {unit} {index}: rolls {row[:variant.players].tolist()} best {row[4]}"


@kernel
def _odds(params, known, seed, start, out):
    """Seat 0 holds ``known``; column 0: seat 0 wins if it keeps, column 1: if it rerolls."""
    rng = np.zeros(1, np.uint64)
    p = params[0]
    for r in range(out.shape[0]):
        rng[0] = stream_start(np.uint64(seed), np.uint64(start + r), np.uint64(1))
        reroll = below(rng, p.sides) + 1
        best_other = 0
        for seat in range(1, p.players):
            best_other = max(best_other, below(rng, p.sides) + 1)
        out[r, 0] = 1 if known > best_other else 0
        out[r, 1] = 1 if reroll > best_other else 0


def odds_prepare(variant, request):
    roll = request.options.get("roll")
    if roll is None or not 1 <= int(roll) <= variant.sides:
        raise SimcardsError(f"toy: give the roll you hold, 1..{variant.sides}")
    return int(roll)


def odds_simulate(query, variant, table, seed, start, count):
    out = np.zeros((count, 2), np.int64)
    _odds(variant.to_params(), query, seed, start, out)
    return out


def odds_tally(query, records, variant):
    return stats.combine([stats.rate("win", records["win_keep"] == 1, by="keep"),
                          stats.rate("win", records["win_reroll"] == 1, by="reroll")])


def odds_present(query, summary, variant):
    rows = summary[summary.metric == "win"]
    table = rows[["group", "estimate", "ci_low", "ci_high"]].rename(columns={"group": "option", "estimate": "P(win)"})
    return table.sort_values("P(win)", ascending=False).reset_index(drop=True)


def odds_figure(query, summary, variant):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    rows = summary[summary.metric == "win"]
    ax.bar(rows["group"], rows["estimate"])
    return fig


GAME = Game(
    name="toy", title="Toy dice", description="Dice for testing the runner.", variant_type=ToyVariant,
    presets={"big": {"sides": 20}},
    units=(Unit("deal", "deals", tuple(Column(n, n) for n in ("roll0", "roll1", "roll2", "roll3", "best")),
                "one roll", chunk_size=1000),),
    policies=PolicyCatalog("toy", DECISIONS,
                           {"random": Policy("random", keep=keep_random), "basic": Policy("basic", keep=keep_always),
                            "expert": Policy("expert", keep=keep_high), "keep_at_least": KEEP_AT_LEAST},
                           max_seats=4),
    seats=lambda v: v.players, simulate=simulate, tally=tally, figures=figures, replay=replay,
    odds={"bid": OddsSupport("bid", "keep or reroll the die you hold", odds_prepare, odds_simulate,
                             (Column("win_keep", "won keeping"), Column("win_reroll", "won rerolling")),
                             odds_tally, odds_present, odds_figure, batch=500)},
)


def _standin_dd_records(unit, variant, table, seed, start, count):
    """A stand-in for a solver: twice the best roll of each record (recomputed from seed, index)."""
    return simulate(unit, variant, table, seed, start, count)[:, 4:5] * 2


def _standin_dd_tally(unit, df, variant):
    rows = stats.TallyRows()
    rows.add("dd_value", "mean", df["dd_value"].to_numpy())
    rows.add("dd_lost_all", "mean", df["dd_value"].to_numpy())
    return rows.frame()


# double-dummy columns for the runner's tests (monkeypatched onto GAME where a test needs them)
STANDIN_DD = DoubleDummySupport(analyse=None, replay=None, units=("deal",), columns=(Column("dd_value", "test"),),
                                records=_standin_dd_records, tally=_standin_dd_tally)
