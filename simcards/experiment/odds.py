"""Odds for the hand a player holds: deal around it, play every option, stop when precise.

The game's :class:`~simcards.core.game.OddsSupport` deals the unknown cards around the
known ones and plays each option (each legal bid, each trump suit...) on the same
deals. This module runs those simulations in batches on all cores and, with
``precision``, keeps adding batches until every reported rate's 95 % half-width is at
most ``precision`` (or ``max_deals`` is reached). The precision is checked after a fixed
schedule of deal counts (:func:`check_points`), never after an amount of work that
depends on the thread count, so the same command gives the same table on any machine.
"""
from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from simcards.core.errors import SimcardsError
from simcards.core.game import Game, OddsRequest, get_game
from simcards.core.policy import seat_policies
from simcards.core import stats
from simcards.experiment.spec import Setup

DEFAULT_DEALS = 20_000
DEFAULT_MAX_DEALS = 2_000_000
MIN_ROUND_BATCHES = 4  # the first precision check comes after this many batches


@dataclass
class OddsResult:
    game: str
    command: str
    table: pd.DataFrame  # one row per option, as presented
    summary: pd.DataFrame  # every tallied estimate with its interval
    deals: int
    seconds: float
    precision: float | None
    resolved: bool
    query: Any = None
    figure: Any = None

    def widest_half_width(self) -> float:
        rates = self.summary[(self.summary.kind == "rate") & (self.summary.n > 0)]
        return float(stats.half_width(rates).max()) if len(rates) else 0.0


def odds(game: str | Game, command: str, request: OddsRequest, *, setup: Setup = Setup(), seed: int = 0,
         deals: int | None = None, precision: float | None = None, max_deals: int | None = None,
         threads: int | None = None, plot: str | None = None, progress: bool = False) -> OddsResult:
    """Answer ``simcards <command> <game> ...`` for ``request``, at the table ``setup`` (the
    house rules and the policies that play the deals out, :class:`~simcards.experiment.spec.Setup`).

    ``progress`` shows a tqdm bar of deals done out of the target (with ``precision``,
    the target is ``max_deals``: the run usually stops well before it)."""
    g = game if isinstance(game, Game) else get_game(game)
    if threads is not None and (isinstance(threads, bool) or threads < 1):
        raise SimcardsError(f"--threads must be a positive integer, got {threads!r}")
    # every check of the arguments before the policies' table, which compiles (a minute cold)
    if deals is not None and (isinstance(deals, bool) or deals <= 0):
        raise SimcardsError(f"the number of deals must be a positive integer, got {deals!r}")
    if precision is not None and not 0 < precision < 1:
        raise SimcardsError(f"precision is a half-width of a rate, between 0 and 1; got {precision}")
    if precision is not None and deals is not None:
        raise SimcardsError("give either --deals or --precision")
    support = g.odds_support(command)
    v = g.variant(setup.preset, setup.variant, list(setup.settings))
    query = support.prepare(v, request)
    table = g.policies.table(seat_policies(setup.policy or g.default_policy, setup.seat_policy, g.seats(v)))
    target = deals if deals is not None else (max_deals or DEFAULT_MAX_DEALS if precision else DEFAULT_DEALS)
    threads = threads or os.cpu_count() or 1
    batch = max(1, min(support.batch, target))
    acc = stats.Accumulator()
    done = 0
    started = time.perf_counter()

    def run_batch(start: int) -> pd.DataFrame:
        n = min(batch, target - start)
        rows = support.simulate(query, v, table, seed, start, n)
        frame = pd.DataFrame(np.asarray(rows), columns=[c.name for c in support.columns])
        return support.tally(query, frame, v)

    resolved = precision is None
    bar = _progress_bar(g.name, command, target, progress)
    try:
        with ThreadPoolExecutor(max_workers=threads) as pool:
            for stop in check_points(target, batch, precision is not None):
                # pool.map keeps the batches' order: the sums do not depend on the threads
                for tally in pool.map(run_batch, range(done, stop, batch)):
                    acc.add(tally)
                    if bar is not None:
                        bar.update(min(batch, target - done))
                    done = min(target, done + batch)
                if precision is not None:
                    summary = stats.finalize(acc.frame())
                    rates = summary[(summary.kind == "rate") & (summary.n > 0)]
                    if len(rates) and float(stats.half_width(rates).max()) <= precision:
                        resolved = True
                        break
    finally:
        if bar is not None:
            bar.close()
    summary = stats.finalize(acc.frame())
    result = OddsResult(game=g.name, command=command, table=support.present(query, summary, v), summary=summary,
                        deals=done, seconds=time.perf_counter() - started, precision=precision, resolved=resolved,
                        query=query)
    if plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig = support.figure(query, summary, v)
        try:
            fig.savefig(plot, dpi=110, bbox_inches="tight")
        except OSError as exc:
            raise SimcardsError(f"cannot write plot {plot}: {exc.strerror or exc}") from None
        finally:
            plt.close(fig)
        result.figure = plot
    return result


def check_points(target: int, batch: int, sequential: bool) -> list[int]:
    """Deal counts after which the precision is checked: a fixed schedule (about 25 %
    more deals each round, in whole batches, at least ``MIN_ROUND_BATCHES``), the same
    whatever the threads or the machine. Without ``sequential``, one round of ``target``."""
    if not sequential:
        return [target]
    points, done = [], 0
    while done < target:
        step = max(MIN_ROUND_BATCHES, done // batch // 4) * batch
        done = min(target, done + step)
        points.append(done)
    return points


def _progress_bar(game: str, command: str, target: int, enabled: bool):
    if not enabled:
        return None
    from tqdm import tqdm

    return tqdm(total=target, unit=" deals", unit_scale=True, desc=f"{command} {game}", smoothing=0.1,
                dynamic_ncols=True, leave=False)