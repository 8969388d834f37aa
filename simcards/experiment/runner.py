"""Run an experiment: split it into chunks, compute them (threads or Dask), keep them.

The runner knows no game rules. A chunk is ``records start .. start+n-1`` of the
spec's seed; :func:`compute_chunk` turns ``(spec, chunk id)`` into the chunk's
records and tally by calling the game's compiled ``simulate`` and ``tally``. It is
a plain function of plain data, so Dask ships it to workers unchanged, and the
records of a chunk never depend on where or alongside what it ran.
"""
from __future__ import annotations

import os
import signal
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

import numpy as np
import pandas as pd

from simcards.core.errors import SimcardsError
from simcards.core.game import get_game
from simcards.experiment import stats
from simcards.experiment.spec import ExperimentSpec
from simcards.experiment.store import ResultsFolder

BACKENDS = ("local", "dask")

_table_cache: dict[tuple, Any] = {}
_cache_lock = threading.Lock()


def _context(spec: ExperimentSpec):
    """(game, variant, policy table) for a spec, cached per process."""
    key = (spec.game, tuple(sorted((k, str(v)) for k, v in spec.variant.items())), spec.policies)
    with _cache_lock:
        if key not in _table_cache:
            game = get_game(spec.game)
            variant = game.variant_type.from_mapping(spec.variant)
            _table_cache[key] = (game, variant, game.policies.table(list(spec.policies)))
        return _table_cache[key]


def simulate_records(spec: ExperimentSpec, start: int, count: int) -> pd.DataFrame:
    """Records ``start .. start+count-1`` of ``spec`` as a DataFrame."""
    game, variant, table = _context(spec)
    unit = game.unit(spec.unit)
    array = game.simulate(spec.unit, variant, table, spec.seed, start, count)
    frame = pd.DataFrame(np.asarray(array), columns=unit.column_names())
    frame.insert(0, "index", np.arange(start, start + count, dtype=np.int64))
    return frame


def compute_chunk(spec_dict: dict, chunk: int) -> tuple[pd.DataFrame | None, pd.DataFrame]:
    """Records (when kept) and tally of one chunk. Picklable: used by every backend."""
    spec = ExperimentSpec.from_dict(spec_dict)
    game, variant, _ = _context(spec)
    start, count = spec.chunk_range(chunk)
    records = simulate_records(spec, start, count)
    tally = game.tally(spec.unit, records, variant) if spec.records != "none" else stats.empty()
    return (records if spec.records == "all" else None), tally


@dataclass
class RunResult:
    """What a run produced. ``records`` is None unless records were kept."""

    spec: ExperimentSpec
    summary: pd.DataFrame
    tally: pd.DataFrame
    records: pd.DataFrame | None = None
    out: Path | None = None
    seconds: float = 0.0
    resumed_chunks: int = 0
    computed_chunks: int = 0
    meta: dict = field(default_factory=dict)
    chunk_tallies: dict = field(default_factory=dict)  # chunk -> tally (in-memory runs)

    @property
    def rate(self) -> float:
        """Records per second of this invocation's computing."""
        done = self.computed_chunks * self.spec.chunk_size
        return min(done, self.spec.count) / self.seconds if self.seconds > 0 else float("nan")


class Interrupted(Exception):
    """The run was interrupted; finished chunks are kept."""

    def __init__(self, done: int, total: int, out: Path | None):
        super().__init__(f"interrupted: {done} of {total} chunks kept")
        self.done, self.total, self.out = done, total, out


def _local_chunks(spec: ExperimentSpec, pending: list[int], threads: int) -> Iterable[tuple[int, Any]]:
    """Yield (chunk, result) as threads finish them, at most 2 x threads in flight."""
    spec_dict = spec.to_dict()
    pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="simcards")
    todo = list(pending)
    running: dict[Any, int] = {}
    try:
        while todo or running:
            while todo and len(running) < 2 * threads:
                c = todo.pop(0)
                running[pool.submit(compute_chunk, spec_dict, c)] = c
            finished, _ = wait(list(running), return_when=FIRST_COMPLETED)
            for f in finished:
                c = running.pop(f)
                yield c, f.result()
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def _dask_chunks(spec: ExperimentSpec, pending: list[int], client) -> Iterable[tuple[int, Any]]:
    from distributed import as_completed

    spec_dict = spec.to_dict()
    futures = {client.submit(compute_chunk, spec_dict, c, key=f"simcards-{spec.digest()}-{c}", retries=3): c
               for c in pending}
    try:
        for f in as_completed(futures):
            yield futures[f], f.result()
    finally:
        for f in futures:
            f.cancel()


def _connect(scheduler: str | None, workers: int | None, timeout: float):
    """A Dask client: to ``scheduler`` or to a new local cluster."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:  # pragma: no cover - a dependency
        raise SimcardsError("the dask backend needs the 'distributed' package") from None
    import logging

    logging.getLogger("distributed").setLevel(logging.ERROR)
    if scheduler:
        try:
            return Client(scheduler, timeout=timeout), None
        except (OSError, TimeoutError) as exc:
            raise SimcardsError(f"cannot reach Dask scheduler {scheduler} within {timeout:g} s ({type(exc).__name__})") from None
        except ValueError as exc:
            raise SimcardsError(f"bad Dask scheduler address {scheduler!r}: {exc}") from None
    cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                           dashboard_address=None)
    return Client(cluster), cluster


def execute(spec: ExperimentSpec, *, out: str | Path | None = None, threads: int | None = None,
            backend: str = "local", scheduler: str | None = None, workers: int | None = None,
            force: bool = False, progress: bool = False, connect_timeout: float = 10.0,
            on_chunk: Callable[[int, int], None] | None = None) -> RunResult:
    """Run ``spec`` and return its summary (and records when kept).

    With ``out`` the run is durable: finished chunks are written as they complete and
    a rerun of the same spec computes only the missing ones. Without ``out`` it runs
    in memory. ``backend`` is ``local`` (threads, default all cores) or ``dask``
    (``scheduler`` address, or a local cluster of ``workers`` processes).
    """
    if backend not in BACKENDS:
        raise SimcardsError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if scheduler and backend != "dask":
        raise SimcardsError("--scheduler needs --backend dask")
    if threads is not None and threads < 1:
        raise SimcardsError(f"threads must be at least 1, got {threads}")
    threads = threads or os.cpu_count() or 1
    folder = ResultsFolder(out) if out is not None else None
    done = folder.open(spec, force=force) if folder else []
    if folder and folder.meta.get("status") == "complete":
        return _load_complete(spec, folder)

    n_chunks = spec.n_chunks()
    done_set = set(done)
    pending = [c for c in range(n_chunks) if c not in done_set]
    accumulated = stats.Accumulator()
    for c in done:
        accumulated.add(folder.load_tally(c))
    kept: dict[int, pd.DataFrame] = {}
    chunk_tallies: dict[int, pd.DataFrame] = {}
    bar = _progress_bar(spec, done, progress)
    client = cluster = None
    started = time.perf_counter()
    computed = 0
    previous_sigterm = _raise_on_sigterm()
    try:
        if backend == "dask" and pending:
            client, cluster = _connect(scheduler, workers, connect_timeout)
            source = _dask_chunks(spec, pending, client)
        else:
            source = _local_chunks(spec, pending, threads)
        for chunk, (records, chunk_tally) in source:
            if folder:
                folder.save_chunk(chunk, records, chunk_tally)
            else:
                chunk_tallies[chunk] = chunk_tally
                if records is not None:
                    kept[chunk] = records
            accumulated.add(chunk_tally)
            computed += 1
            if bar is not None:
                bar.update(spec.chunk_range(chunk)[1])
            if on_chunk:
                on_chunk(chunk, n_chunks)
    except KeyboardInterrupt:
        if bar is not None:
            bar.close()
        raise Interrupted(len(done) + computed, n_chunks, folder.path if folder else None) from None
    finally:
        signal.signal(signal.SIGTERM, previous_sigterm) if previous_sigterm is not None else None
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
    seconds = time.perf_counter() - started
    if bar is not None:
        bar.close()
    tally = accumulated.frame()
    summary = stats.finalize(tally)
    records = None
    if spec.records == "all":
        if folder:
            folder.meta["timings"]["compute_seconds"] += seconds
            folder.meta["timings"]["runs"].append({"computed_chunks": computed, "seconds": round(seconds, 3),
                                                   "backend": backend, "threads": threads})
            folder.finish(spec, tally, summary)
            records = pd.read_parquet(folder.path / "deals.parquet")
        else:
            records = pd.concat([kept[c] for c in sorted(kept)], ignore_index=True) if kept else None
    elif folder:
        folder.meta["timings"]["compute_seconds"] += seconds
        folder.meta["timings"]["runs"].append({"computed_chunks": computed, "seconds": round(seconds, 3),
                                               "backend": backend, "threads": threads})
        folder.finish(spec, tally, summary)
    return RunResult(spec=spec, summary=summary, tally=tally, records=records,
                     out=folder.path if folder else None, seconds=seconds, resumed_chunks=len(done),
                     computed_chunks=computed, meta=folder.meta if folder else {}, chunk_tallies=chunk_tallies)


def _load_complete(spec: ExperimentSpec, folder: ResultsFolder) -> RunResult:
    tally = pd.read_parquet(folder.path / "tally.parquet")
    records = pd.read_parquet(folder.path / "deals.parquet") if spec.records == "all" else None
    return RunResult(spec=spec, summary=stats.finalize(tally), tally=tally, records=records, out=folder.path,
                     resumed_chunks=spec.n_chunks(), meta=folder.meta)


def _raise_on_sigterm():
    """Turn SIGTERM into KeyboardInterrupt (main thread only) so finished chunks are kept."""
    if threading.current_thread() is not threading.main_thread():
        return None

    def handler(signum, frame):
        raise KeyboardInterrupt

    return signal.signal(signal.SIGTERM, handler)


def _progress_bar(spec: ExperimentSpec, done: list[int], enabled: bool):
    if not enabled:
        return None
    from tqdm import tqdm

    already = sum(spec.chunk_range(c)[1] for c in done)
    return tqdm(total=spec.count, initial=already, unit=" " + spec.unit + "s", unit_scale=True,
                desc=f"{spec.game} {spec.unit}s", smoothing=0.1, dynamic_ncols=True)
