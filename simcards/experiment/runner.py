"""Run an experiment: cut it into chunks, compute them (threads or Dask), keep them.

The runner knows no game rules. A chunk is ``records start .. start+count-1`` of the
spec's seed; :func:`compute_chunk` turns ``(spec, start, count)`` into the chunk's
records and tally by calling the game's compiled ``simulate`` and ``tally``. It is
a plain function of plain data, so Dask ships it to workers unchanged, and the
records of a chunk never depend on where, alongside what, or in which chunk they ran.

Chunks are planned lazily (:class:`ChunkPlanner`): only the chunks in flight exist,
whatever the count. Unless the spec fixes ``chunk_size``, each chunk is sized from the
measured speed so that it takes about :data:`TARGET_SECONDS` (starting small, so a slow
user policy never makes a chunk of hours). Ctrl-C or SIGTERM stops the run within a
fraction of a second, keeping every finished chunk.
"""
from __future__ import annotations

import os
import queue
import signal
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np
import pandas as pd

from simcards.core.errors import SimcardsError
from simcards.core.game import get_game
from simcards.core import stats
from simcards.experiment.spec import KEEPS_RECORDS, ExperimentSpec
from simcards.experiment.store import ResultsFolder

BACKENDS = ("local", "dask")
TARGET_SECONDS = 2.0  # wanted time of one chunk
FIRST_CHUNK = 32  # records of the first chunks, before any speed is known
MAX_CHUNK_BYTES = 48 << 20  # a chunk's records in memory (int64 columns), whatever its time
POLL_SECONDS = 0.2  # how often the collecting loop looks at Ctrl-C
SCHEDULER_GRACE = 10.0  # seconds without a Dask scheduler before giving up

_table_cache: dict[tuple, Any] = {}
_cache_lock = threading.Lock()


def _context(spec: ExperimentSpec):
    """(game, variant, policy table) for a spec, cached per process."""
    key = (spec.game, tuple(sorted((k, str(v)) for k, v in spec.variant.items())), spec.policies, spec.bidding)
    with _cache_lock:
        if key not in _table_cache:
            game = get_game(spec.game)
            variant = game.variant_type.from_mapping(spec.variant)
            _table_cache[key] = (game, variant, game.policies.table(list(spec.policies), bidding=spec.bidding or None))
        return _table_cache[key]


def simulate_records(spec: ExperimentSpec, start: int, count: int) -> pd.DataFrame:
    """Records ``start .. start+count-1`` of ``spec`` as a DataFrame."""
    game, variant, table = _context(spec)
    unit = game.unit(spec.unit)
    array = game.simulate(spec.unit, variant, table, spec.seed, start, count)
    frame = pd.DataFrame(np.asarray(array), columns=unit.column_names())
    frame.insert(0, "index", np.arange(start, start + count, dtype=np.int64))
    if spec.records == "dd":  # double-dummy columns (docs/double-dummy.md)
        dd = game.double_dummy
        extra = dd.records(spec.unit, variant, table, spec.seed, start, count)
        for j, column in enumerate(dd.columns):
            frame[column.name] = np.asarray(extra)[:, j]
    return frame


def compute_chunk(spec_dict: dict, start: int, count: int) -> tuple[pd.DataFrame | None, pd.DataFrame, float]:
    """Records (when kept), tally and seconds of one chunk. Picklable: used by every backend."""
    t0 = time.perf_counter()
    spec = ExperimentSpec.from_dict(spec_dict)
    game, variant, _ = _context(spec)
    records = simulate_records(spec, start, count)
    tally = game.tally(spec.unit, records, variant) if spec.records != "none" else stats.empty()
    if spec.records == "dd":
        tally = stats.combine([tally, game.double_dummy.tally(spec.unit, records, variant)])
    return (records if spec.records in KEEPS_RECORDS else None), tally, time.perf_counter() - t0


class ChunkPlanner:
    """The chunks still to compute, cut one at a time from the gaps the finished chunks leave.

    ``fixed``: every chunk has that many records (boundaries at multiples of it from the
    spec's start). Otherwise sizes follow the measured records/s (:meth:`observe`) toward
    :data:`TARGET_SECONDS` per chunk, growing at most 4x per finished chunk. ``align``:
    no chunk crosses a multiple of it (a comparison's batches).
    """

    def __init__(self, start: int, count: int, done: list[tuple[int, int]], *, fixed: int | None = None,
                 align: int | None = None, max_size: int = 1_000_000):
        self.start, self.end = start, start + count
        self.fixed, self.align, self.max_size = fixed, align, max_size
        self.size = fixed or FIRST_CHUNK
        self._gaps = self._gap_iter(sorted(done))
        self._cursor, self._gap_end = None, None

    def _gap_iter(self, done: list[tuple[int, int]]) -> Iterator[tuple[int, int]]:
        pos = self.start
        for s, n in done:
            if s > pos:
                yield pos, min(s, self.end)
            pos = max(pos, s + n)
        if pos < self.end:
            yield pos, self.end

    def next(self) -> tuple[int, int] | None:
        """(start, count) of the next chunk, or None when everything is planned."""
        while self._cursor is None or self._cursor >= self._gap_end:
            gap = next(self._gaps, None)
            if gap is None:
                return None
            self._cursor, self._gap_end = gap
        s = self._cursor
        stop = min(self._gap_end, s + self.size)
        if self.fixed:
            stop = min(stop, self.start + ((s - self.start) // self.fixed + 1) * self.fixed)
        if self.align:
            stop = min(stop, (s // self.align + 1) * self.align)
        self._cursor = stop
        return s, stop - s

    def observe(self, count: int, seconds: float) -> None:
        """A chunk of ``count`` records took ``seconds`` on one thread."""
        if self.fixed:
            return
        wanted = TARGET_SECONDS * count / max(seconds, 1e-6)
        self.size = int(max(1, min(self.max_size, 4 * self.size, wanted)))


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
    computed_records: int = 0
    meta: dict = field(default_factory=dict)
    batch_tallies: dict = field(default_factory=dict)  # batch -> tally (with batch_size)

    @property
    def total_chunks(self) -> int:
        return self.resumed_chunks + self.computed_chunks

    @property
    def rate(self) -> float:
        """Records per second of this invocation's computing."""
        return self.computed_records / self.seconds if self.seconds > 0 else float("nan")

    def resume_note(self) -> str:
        """``", 13 of 40 chunks already done"`` when part of the run was already done, else ``""``."""
        if not self.resumed_chunks:
            return ""
        return f", {self.resumed_chunks} of {self.total_chunks} chunks already done"


class Interrupted(SimcardsError):
    """The run was interrupted; finished chunks are kept."""

    exit_status = 130  # what a shell expects after Ctrl-C

    def __init__(self, done: int, records: int, total_records: int, unit: str, out: Path | None):
        where = f"kept in {out}; run the same command again to resume" if out else "not kept (no --out)"
        super().__init__(f"interrupted: {done} finished chunk{'s' * (done != 1)} ({records:,} of "
                         f"{total_records:,} {unit}s) {where}")
        self.done, self.records, self.total_records, self.out = done, records, total_records, out
        self.total = total_records  # kept for callers of the old attribute


class _LocalPool:
    """Daemon worker threads (never joined at exit, so Ctrl-C ends the process at once)."""

    def __init__(self, spec_dict: dict, threads: int):
        self.capacity = 2 * threads
        self._tasks: queue.Queue = queue.Queue()
        self._results: queue.Queue = queue.Queue()
        self._threads = [threading.Thread(target=self._work, args=(spec_dict,), daemon=True,
                                          name=f"simcards-{i}") for i in range(threads)]
        for t in self._threads:
            t.start()

    def _work(self, spec_dict: dict) -> None:
        while True:
            task = self._tasks.get()
            if task is None:
                return
            try:
                self._results.put((task, compute_chunk(spec_dict, *task), None))
            except BaseException as exc:  # handed to the collecting thread
                self._results.put((task, None, exc))

    def submit(self, start: int, count: int) -> None:
        self._tasks.put((start, count))

    def next(self, timeout: float):
        try:
            task, result, exc = self._results.get(timeout=timeout)
        except queue.Empty:
            return None
        if exc is not None:
            raise exc
        return task, result

    def close(self) -> None:
        while True:  # drop queued work; running chunks finish in their daemon threads
            try:
                self._tasks.get_nowait()
            except queue.Empty:
                break
        for _ in self._threads:
            self._tasks.put(None)


class _DaskPool:
    """Chunks as Dask tasks; a lost scheduler becomes one :class:`SchedulerLost` error."""

    def __init__(self, spec: ExperimentSpec, client, scheduler: str | None):
        self.client, self.scheduler = client, scheduler
        self.spec_dict, self.digest = spec.to_dict(), spec.digest()
        try:
            workers = sum(client.nthreads().values())
        except Exception:
            workers = 0
        self.capacity = max(4, 2 * workers)
        self.futures: dict[Any, tuple[int, int]] = {}
        self._lost_since: float | None = None

    def submit(self, start: int, count: int) -> None:
        f = self.client.submit(compute_chunk, self.spec_dict, start, count,
                               key=f"simcards-{self.digest}-{start}-{count}", retries=3)
        self.futures[f] = (start, count)

    def next(self, timeout: float):
        from distributed import wait as dask_wait

        self._check_scheduler()
        try:
            done, _ = dask_wait(list(self.futures), timeout=timeout, return_when="FIRST_COMPLETED")
        except TimeoutError:
            return None
        except Exception:
            raise SchedulerLost(self.scheduler) from None
        for f in done:
            task = self.futures.pop(f)
            if f.status == "error":
                f.result()  # the task's own error (e.g. a user policy): re-raised as is
            try:
                return task, f.result(timeout=SCHEDULER_GRACE)
            except Exception:
                raise SchedulerLost(self.scheduler) from None
        return None

    def _check_scheduler(self) -> None:
        status = getattr(self.client, "status", "running")
        if status == "running":
            self._lost_since = None
            return
        if status in ("closed", "failed", "closing"):
            raise SchedulerLost(self.scheduler)
        self._lost_since = self._lost_since or time.monotonic()
        if time.monotonic() - self._lost_since > SCHEDULER_GRACE:
            raise SchedulerLost(self.scheduler)

    def close(self) -> None:
        for f in self.futures:
            try:
                f.cancel()
            except Exception:
                pass


class SchedulerLost(SimcardsError):
    def __init__(self, scheduler: str | None):
        super().__init__(f"lost the Dask scheduler {scheduler or '(local cluster)'}")


def _connect(scheduler: str | None, workers: int | None, timeout: float):
    """A Dask client: to ``scheduler`` or to a new local cluster (bounded in time either way)."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:  # pragma: no cover - a dependency
        raise SimcardsError("the dask backend needs the 'distributed' package") from None
    _quiet_dask()
    if scheduler:
        box: dict[str, Any] = {}

        def connect():
            try:
                box["client"] = Client(scheduler, timeout=timeout)
            except BaseException as exc:
                box["error"] = exc

        t = threading.Thread(target=connect, daemon=True, name="simcards-connect")
        t.start()
        t.join(timeout + 5)
        if t.is_alive() or "client" not in box:
            exc = box.get("error")
            if isinstance(exc, ValueError):
                raise SimcardsError(f"bad Dask scheduler address {scheduler!r}: {exc}") from None
            why = type(exc).__name__ if exc is not None else "no answer"
            raise SimcardsError(f"cannot reach Dask scheduler {scheduler} within {timeout:g} s ({why}); "
                                f"is it a Dask scheduler address (tcp://host:8786, not the dashboard)?") from None
        return box["client"], None
    cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                           dashboard_address=None)
    return Client(cluster), cluster


def _quiet_dask() -> None:
    """Dask logs every reconnection attempt; simcards says what happened in one line instead."""
    import logging

    for name in ("distributed", "tornado", "asyncio"):
        logging.getLogger(name).setLevel(logging.CRITICAL)


def _close_client(client, cluster) -> None:
    """Close without waiting long for a scheduler that may be gone."""
    def close():
        try:
            client.close(timeout=3)
        except Exception:
            pass
        if cluster is not None:
            try:
                cluster.close(timeout=5)
            except Exception:
                pass

    t = threading.Thread(target=close, daemon=True)
    t.start()
    t.join(10)


def _stderr(line: str) -> None:
    print(f"note: {line}", file=sys.stderr, flush=True)


@dataclass(frozen=True)
class Execution:
    """Where and how an experiment computes: the settings that never change its records
    (deal i of seed s is the same on any thread count, backend or folder).

    ``run_options()`` gives the keywords of :func:`execute`; a comparison, a sweep and a
    ladder pass it on to every run they make, each in its own folder under ``out``."""

    out: str | Path | None = None
    """Results folder (None: in memory, unless ``default_out``)."""
    default_out: bool = False
    """Without ``out``, write to the default folder ``results/compare-<game>-<unit>-<hash>`` (a
    comparison or a sweep; a run or a ladder without ``out`` has none)."""
    force: bool = False
    """Replace a folder that holds a different experiment."""
    threads: int | None = None
    """Threads of the local backend (None: all cores)."""
    backend: str = "local"
    """``local`` (threads) or ``dask``."""
    scheduler: str | None = None
    """Address of a running Dask scheduler (``backend="dask"``)."""
    workers: int | None = None
    """Worker processes of a local Dask cluster (None: all cores)."""
    progress: bool = False
    """Show progress bars on stderr."""
    echo: Callable[[str], None] | None = None
    """Receives the one-line messages of rounds and pairs (compare, sweep, ladder); None: silent."""

    def run_options(self) -> dict[str, Any]:
        """The keywords of :func:`execute` (``out`` aside: each run has its own folder)."""
        return dict(threads=self.threads, backend=self.backend, scheduler=self.scheduler, workers=self.workers,
                    force=self.force, progress=self.progress)


def execute(spec: ExperimentSpec, *, out: str | Path | None = None, threads: int | None = None,
            backend: str = "local", scheduler: str | None = None, workers: int | None = None,
            force: bool = False, progress: bool = False, connect_timeout: float = 10.0,
            on_chunk: Callable[[int, int], None] | None = None, batch_size: int | None = None,
            notify: Callable[[str], None] = _stderr) -> RunResult:
    """Run ``spec`` and return its summary (and records when kept).

    With ``out`` the run is durable: finished chunks are written as they complete and
    a rerun of the same spec computes only the missing records. Without ``out`` it runs
    in memory. ``backend`` is ``local`` (threads, default all cores) or ``dask``
    (``scheduler`` address, or a local cluster of ``workers`` processes). With
    ``batch_size`` no chunk crosses a multiple of it and ``batch_tallies`` holds the
    tally of each batch (record index // batch_size). ``notify`` receives one-line notes.
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
    try:
        for note in folder.notes if folder else ():
            notify(note)
        if folder and folder.meta.get("status") == "complete":
            return _load_complete(spec, folder, len(done))
        return _execute(spec, folder, done, threads=threads, backend=backend, scheduler=scheduler,
                        workers=workers, progress=progress, connect_timeout=connect_timeout, on_chunk=on_chunk,
                        batch_size=batch_size)
    finally:
        if folder:
            folder.close()


def _execute(spec, folder, done, *, threads, backend, scheduler, workers, progress, connect_timeout, on_chunk,
             batch_size) -> RunResult:
    accumulated = stats.Accumulator()
    pieces: list[tuple[int, pd.DataFrame]] = []  # (start, tally) for batch tallies
    for entry in done:
        t = folder.load_tally(entry)
        accumulated.add(t)
        if batch_size:
            pieces.append((entry["start"], t))
    kept: dict[int, pd.DataFrame] = {}
    columns = len(get_game(spec.game).unit(spec.unit).column_names()) + 1
    planner = ChunkPlanner(spec.start, spec.count, [(e["start"], e["count"]) for e in done], fixed=spec.chunk_size,
                           align=batch_size, max_size=max(1, MAX_CHUNK_BYTES // (8 * columns)))
    bar = _progress_bar(spec, sum(e["count"] for e in done), progress)
    client = cluster = pool = None
    started = time.perf_counter()
    computed = computed_records = 0
    stop = threading.Event()
    restore = _stop_on_signals(stop)
    try:
        if backend == "dask" and spec.count > sum(e["count"] for e in done):
            client, cluster = _connect(scheduler, workers, connect_timeout)
            pool = _DaskPool(spec, client, scheduler)
        else:
            pool = _LocalPool(spec.to_dict(), threads)
        in_flight, exhausted = 0, False
        while True:
            while not exhausted and in_flight < pool.capacity and not stop.is_set():
                task = planner.next()
                if task is None:
                    exhausted = True
                    break
                pool.submit(*task)
                in_flight += 1
            if stop.is_set():
                raise KeyboardInterrupt
            if in_flight == 0:
                break
            item = pool.next(POLL_SECONDS)
            if item is None:
                continue
            (start, count), (records, chunk_tally, seconds) = item
            in_flight -= 1
            planner.observe(count, seconds)
            if folder:
                try:
                    folder.save_chunk(start, count, records, chunk_tally)
                except SimcardsError as exc:
                    raise SimcardsError(f"{exc}; {folder.done_chunks} finished chunks are kept: "
                                        f"make room and run the same command again to resume") from None
            elif records is not None:
                kept[start] = records
            if batch_size:
                pieces.append((start, chunk_tally))
            accumulated.add(chunk_tally)
            computed += 1
            computed_records += count
            if bar is not None:
                bar.update(count)
            if on_chunk:
                on_chunk(start, count)
    except KeyboardInterrupt:
        if bar is not None:
            bar.close()
            bar = None
        n_done = folder.done_chunks if folder else len(done) + computed
        records_done = folder.done_records if folder else sum(e["count"] for e in done) + computed_records
        raise Interrupted(n_done, records_done, spec.count, spec.unit, folder.path if folder else None) from None
    except SchedulerLost as exc:
        where = (f"{folder.done_chunks} finished chunks are kept in {folder.path}: run the same command again "
                 f"to resume (with --backend local to go on without Dask)") if folder else "nothing was kept (no --out)"
        raise SimcardsError(f"{exc}; {where}") from None
    finally:
        restore()
        if pool is not None:
            pool.close()
        if client is not None:
            _close_client(client, cluster)
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - started
    tally = accumulated.frame()
    summary = stats.finalize(tally)
    batch_tallies = _batch_tallies(pieces, batch_size) if batch_size else {}
    records = None
    if folder:
        folder.meta["timings"]["compute_seconds"] += seconds
        folder.meta["timings"]["runs"].append({"computed_chunks": computed, "computed_records": computed_records,
                                               "seconds": round(seconds, 3), "backend": backend, "threads": threads})
        try:
            folder.finish(spec, tally, summary, _batch_frame(batch_tallies) if batch_size else None)
        except SimcardsError as exc:
            raise SimcardsError(f"{exc}; every chunk is kept: make room and run the same command again") from None
        if spec.records in KEEPS_RECORDS:
            records = pd.read_parquet(folder.path / "deals.parquet")
    elif spec.records in KEEPS_RECORDS and kept:
        records = pd.concat([kept[s] for s in sorted(kept)], ignore_index=True)
    return RunResult(spec=spec, summary=summary, tally=tally, records=records,
                     out=folder.path if folder else None, seconds=seconds, resumed_chunks=len(done),
                     computed_chunks=computed, computed_records=computed_records,
                     meta=folder.meta if folder else {}, batch_tallies=batch_tallies)


def _batch_tallies(pieces: list[tuple[int, pd.DataFrame]], batch_size: int) -> dict[int, pd.DataFrame]:
    """Tally of each batch, its chunks added in record order (so sums do not depend on timing)."""
    by_batch: dict[int, list[pd.DataFrame]] = {}
    for start, t in sorted(pieces, key=lambda p: p[0]):
        by_batch.setdefault(start // batch_size, []).append(t)
    return {b: stats.merge(*ts) for b, ts in sorted(by_batch.items())}


def _batch_frame(batch_tallies: dict[int, pd.DataFrame]) -> pd.DataFrame:
    frames = [t.assign(batch=b) for b, t in batch_tallies.items() if len(t)]
    return pd.concat(frames, ignore_index=True) if frames else stats.empty().assign(batch=pd.Series(dtype="int64"))


def _load_complete(spec: ExperimentSpec, folder: ResultsFolder, n_chunks: int) -> RunResult:
    tally = pd.read_parquet(folder.path / "tally.parquet")
    records = pd.read_parquet(folder.path / "deals.parquet") if spec.records in KEEPS_RECORDS else None
    batch_tallies = {}
    if (folder.path / "batches.parquet").exists():
        frame = pd.read_parquet(folder.path / "batches.parquet")
        batch_tallies = {int(b): g.drop(columns="batch").reset_index(drop=True) for b, g in frame.groupby("batch")}
    return RunResult(spec=spec, summary=stats.finalize(tally), tally=tally, records=records, out=folder.path,
                     resumed_chunks=n_chunks, meta=folder.meta, batch_tallies=batch_tallies)


def _stop_on_signals(stop: threading.Event) -> Callable[[], None]:
    """Ctrl-C and SIGTERM set ``stop`` (the run ends at the next poll, keeping finished chunks);
    a second one interrupts at once. Main thread only; returns the function that restores the handlers."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def handler(signum, frame):
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()

    previous = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}

    def restore():
        for s, h in previous.items():
            signal.signal(s, h)

    return restore


def _progress_bar(spec: ExperimentSpec, already: int, enabled: bool):
    if not enabled:
        return None
    from tqdm import tqdm

    return tqdm(total=spec.count, initial=already, unit=" " + spec.unit + "s", unit_scale=True,
                desc=f"{spec.game} {spec.unit}s", smoothing=0.1, dynamic_ncols=True)
