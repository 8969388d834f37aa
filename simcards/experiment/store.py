"""The results folder: ``meta.json`` with its chunk manifest, chunk files, final files.

Every file is written to a unique temporary name, flushed to disk (fsync) and renamed
into place, so a run killed at any moment leaves either the old or the new version of
each file, never half of one. A chunk counts as finished once its files exist, the
manifest names it and their SHA-256 matches the manifest. One process at a time
writes a folder: it holds an OS lock (``flock``) on ``<out>/.lock``, released by the
kernel when the process ends however it ends.

Layout::

    <out>/meta.json         spec, versions, machine, timings, manifest, checksums
    <out>/.lock             the lock (holds the writer's process id)
    <out>/chunks/           records-<start>.parquet, tally-<start>.parquet (while running)
    <out>/deals.parquet     per-record rows (records=all), written at the end
    <out>/tally.parquet     the merged tally (what summary.csv is computed from)
    <out>/batches.parquet   per-batch tallies (only for comparisons' arms)
    <out>/summary.csv       estimates with 95 % intervals
    <out>/figures/*.png

The manifest lists each finished chunk as ``{"start", "count", "files": {name: sha256}}``:
chunk boundaries are whatever the runner chose (records never depend on them), and a
resume computes exactly the records no listed chunk covers.
"""
from __future__ import annotations

import errno
import hashlib
import json
import os
import platform
import shutil
import subprocess
import time
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pandas as pd

from simcards.core.errors import SimcardsError
from simcards.experiment.spec import KEEPS_RECORDS, ExperimentSpec

META = "meta.json"
LOCK = ".lock"
FORMAT = "simcards-results-2"
OLD_FORMATS = ("simcards-results-1",)
COMPARE_FORMAT = "simcards-compare-1"
# everything a run or comparison writes (cleared by --force); foreign files are never touched
OWNED_FILES = (META, "deals.parquet", "tally.parquet", "batches.parquet", "summary.csv", "differences.csv",
               "report.md", "report.html", "sweep.csv", "ladder.csv", "ranking.csv")
OWNED_DIRS = ("chunks", "figures", "arms", "pairs")


# ----- files

def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _reason(exc: OSError) -> str:
    if exc.errno == errno.ENOSPC:
        return "the disk is full"
    return exc.strerror or str(exc)


def temp_name(path: Path) -> Path:
    """A temporary name next to ``path`` that no other process or thread uses."""
    return path.with_name(f".{path.name}.tmp-{os.getpid()}-{uuid.uuid4().hex[:8]}")


@contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """Yield a temporary path to write; on success fsync it and rename it to ``path``.

    On any failure the temporary file is removed; an ``OSError`` (disk full, read-only
    folder) becomes a one-line :class:`SimcardsError`.
    """
    tmp = temp_name(path)
    try:
        yield tmp
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
        _fsync_dir(path.parent)
    except OSError as exc:
        _unlink_quietly(tmp)
        raise SimcardsError(f"cannot write {path}: {_reason(exc)}") from None
    except BaseException:
        _unlink_quietly(tmp)
        raise


def _unlink_quietly(path: Path) -> None:
    try:
        path.unlink(missing_ok=True)
    except OSError:
        pass


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write_bytes(path: Path, data: bytes) -> str:
    """Write ``data`` atomically; return its SHA-256."""
    with atomic_path(path) as tmp:
        with open(tmp, "wb") as fh:
            fh.write(data)
    return hashlib.sha256(data).hexdigest()


def atomic_write_parquet(path: Path, frame: pd.DataFrame) -> str:
    """Write ``frame`` as Parquet atomically; return the file's SHA-256."""
    with atomic_path(path) as tmp:
        frame.to_parquet(tmp, index=False)
        digest = sha256_file(tmp)
    return digest


def atomic_write_csv(path: Path, frame: pd.DataFrame) -> str:
    with atomic_path(path) as tmp:
        frame.to_csv(tmp, index=False)
        digest = sha256_file(tmp)
    return digest


def atomic_write_text(path: Path, text: str) -> str:
    return atomic_write_bytes(path, text.encode())


def remove_temporary_files(folder: Path) -> None:
    """Temporary files left by killed processes (only the lock holder calls this)."""
    for d in (folder, folder / "chunks"):
        if d.is_dir():
            for p in d.glob(".*.tmp*"):
                _unlink_quietly(p)


# ----- the lock

class FolderLock:
    """An exclusive OS lock on ``<folder>/.lock`` (``flock``; the kernel drops it when the process dies)."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self._fh = None

    def acquire(self) -> "FolderLock":
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not a POSIX system: no lock
            return self
        path = self.folder / LOCK
        try:
            fh = open(path, "a+")
        except OSError as exc:
            raise SimcardsError(f"cannot write to output folder {self.folder}: {_reason(exc)}") from None
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            fh.seek(0)
            pid = fh.read().strip() or "?"
            fh.close()
            raise SimcardsError(f"{self.folder} is in use by process {pid}") from None
        try:
            fh.seek(0)
            fh.truncate()
            fh.write(str(os.getpid()))
            fh.flush()
        except OSError:
            pass  # a read-only folder: the probe after this says so in one line
        self._fh = fh
        return self

    def release(self) -> None:
        if self._fh is not None:
            self._fh.close()  # closing drops the flock
            self._fh = None


def prepare_folder(path: Path) -> FolderLock:
    """Create ``path`` if needed, lock it and check it can be written (one-line errors)."""
    if path.exists() and not path.is_dir():
        raise SimcardsError(f"output {path} exists and is not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SimcardsError(f"cannot write to output folder {path}: {_reason(exc)}") from None
    lock = FolderLock(path).acquire()
    try:
        check_writable(path)
        remove_temporary_files(path)
    except BaseException:
        lock.release()
        raise
    return lock


def check_writable(path: Path) -> None:
    probe = temp_name(path / "write-test")
    try:
        with open(probe, "wb") as fh:
            fh.write(b"x")
        probe.unlink()
    except OSError as exc:
        _unlink_quietly(probe)
        raise SimcardsError(f"cannot write to output folder {path}: {_reason(exc)}") from None


def clear_folder(path: Path) -> None:
    """Remove everything simcards wrote in ``path`` (runs and comparisons); keep other files."""
    for name in OWNED_DIRS:
        shutil.rmtree(path / name, ignore_errors=True)
    for name in OWNED_FILES:
        _unlink_quietly(path / name)


def read_meta_file(path: Path, *, force: bool = False) -> dict[str, Any] | None:
    """The folder's ``meta.json`` (None if absent, or unreadable and ``force``)."""
    meta_path = path / META
    if not meta_path.exists():
        return None
    try:
        meta = json.loads(meta_path.read_text())
    except (OSError, ValueError) as exc:
        if force:
            return None
        raise SimcardsError(f"{meta_path} is corrupt ({type(exc).__name__}); move the folder away or pass --force") from None
    if not isinstance(meta, dict) or meta.get("format") not in (FORMAT, COMPARE_FORMAT, *OLD_FORMATS):
        if force:
            return None
        raise SimcardsError(f"{meta_path} is not a simcards results file; choose another --out or pass --force")
    return meta


def verify_files(path: Path, meta: dict[str, Any]) -> list[str]:
    """Names of the final files whose SHA-256 does not match ``meta["files"]`` (or that are missing)."""
    bad = []
    for name, digest in (meta.get("files") or {}).items():
        p = path / name
        try:
            ok = sha256_file(p) == digest
        except OSError:
            ok = False
        if not ok:
            bad.append(name)
    return bad


def git_commit() -> str | None:
    try:
        here = Path(__file__).resolve().parent
        out = subprocess.run(["git", "-C", str(here), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5)
        return out.stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def machine() -> dict[str, Any]:
    return {"host": platform.node(), "python": platform.python_version(), "platform": platform.platform(),
            "cpus": os.cpu_count()}


# ----- a run's folder

class ResultsFolder:
    """One experiment's folder; created or reopened for resume. Locked from :meth:`open` to :meth:`close`."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.chunks_dir = self.path / "chunks"
        self.meta: dict[str, Any] = {}
        self.notes: list[str] = []  # one-line messages for the user (dropped chunks, ...)
        self._lock: FolderLock | None = None

    # ----- opening
    def open(self, spec: ExperimentSpec, *, force: bool = False) -> list[dict[str, Any]]:
        """Lock and prepare the folder for ``spec``; return the finished chunks (for resume)."""
        self._lock = prepare_folder(self.path)
        try:
            return self._open(spec, force)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def _open(self, spec: ExperimentSpec, force: bool) -> list[dict[str, Any]]:
        existing = read_meta_file(self.path, force=force)
        if existing is None and _has_foreign_files(self.path):
            if not force:
                raise SimcardsError(f"output folder {self.path} is not empty and holds no simcards results; "
                                    f"choose another --out or pass --force")
            clear_folder(self.path)
        if existing is not None:
            problem = _mismatch(existing, spec, self.path)
            if problem:
                if not force:
                    raise SimcardsError(problem)
                clear_folder(self.path)
                existing = None
        if existing is not None and existing.get("status") == "complete":
            bad = verify_files(self.path, existing)
            if not bad:
                self.meta = existing
                return list(existing["manifest"]["done"])
            self.notes.append(f"{self.path}: {', '.join(bad)} damaged (checksum mismatch); computing the run again")
            clear_folder(self.path)
            existing = None
        try:
            self.chunks_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise SimcardsError(f"cannot write to output folder {self.path}: {_reason(exc)}") from None
        if existing is None:
            self.meta = {"format": FORMAT, "spec": spec.to_dict(), "status": "running",
                         "simcards_version": _version(), "git_commit": git_commit(), "machine": machine(),
                         "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                         "manifest": {"done": []}, "files": {},
                         "timings": {"compute_seconds": 0.0, "runs": []}}
            self.save_meta()
            return []
        self.meta = existing
        kept, dropped = [], 0
        for entry in existing["manifest"]["done"]:
            if self._chunk_ok(entry):
                kept.append(entry)
            else:
                dropped += 1
                self._remove_chunk(entry)
        if dropped:
            self.notes.append(f"{self.path}: {dropped} finished chunk{'s' * (dropped > 1)} failed the checksum "
                              f"check and will be computed again")
        self.meta["manifest"]["done"] = kept
        self.save_meta()
        return list(kept)

    def _chunk_ok(self, entry: dict[str, Any]) -> bool:
        for kind, digest in entry.get("files", {}).items():
            try:
                if sha256_file(self._chunk_path(kind, entry["start"])) != digest:
                    return False
            except OSError:
                return False
        return "tally" in entry.get("files", {})

    def _remove_chunk(self, entry: dict[str, Any]) -> None:
        for kind in entry.get("files", {}):
            _unlink_quietly(self._chunk_path(kind, entry["start"]))

    # ----- chunks
    def _chunk_path(self, kind: str, start: int) -> Path:
        return self.chunks_dir / f"{kind}-{start:012d}.parquet"

    def save_chunk(self, start: int, count: int, records: pd.DataFrame | None, tally: pd.DataFrame) -> None:
        """Write a finished chunk (fsynced), then name it in the manifest."""
        files = {}
        if records is not None:
            files["records"] = atomic_write_parquet(self._chunk_path("records", start), records)
        files["tally"] = atomic_write_parquet(self._chunk_path("tally", start), tally)
        self.meta["manifest"]["done"].append({"start": int(start), "count": int(count), "files": files})
        self.save_meta()

    def load_tally(self, entry: dict[str, Any]) -> pd.DataFrame:
        return pd.read_parquet(self._chunk_path("tally", entry["start"]))

    def save_meta(self) -> None:
        atomic_write_bytes(self.path / META, json.dumps(self.meta, indent=2, default=str).encode())

    @property
    def done_records(self) -> int:
        return sum(e["count"] for e in self.meta.get("manifest", {}).get("done", []))

    @property
    def done_chunks(self) -> int:
        return len(self.meta.get("manifest", {}).get("done", []))

    # ----- final files
    def finish(self, spec: ExperimentSpec, tally: pd.DataFrame, summary: pd.DataFrame,
               batches: pd.DataFrame | None = None) -> None:
        """Merge chunk records into deals.parquet, write tally and summary (checksummed), mark complete."""
        files = self.meta.setdefault("files", {})
        entries = sorted(self.meta["manifest"]["done"], key=lambda e: e["start"])
        if spec.records in KEEPS_RECORDS:
            files["deals.parquet"] = self._merge_records(entries)
        files["tally.parquet"] = atomic_write_parquet(self.path / "tally.parquet", tally)
        if batches is not None:
            files["batches.parquet"] = atomic_write_parquet(self.path / "batches.parquet", batches)
        files["summary.csv"] = atomic_write_csv(self.path / "summary.csv", summary)
        self.meta["status"] = "complete"
        self.save_meta()
        shutil.rmtree(self.chunks_dir, ignore_errors=True)

    def _merge_records(self, entries: list[dict[str, Any]]) -> str:
        import pyarrow.parquet as pq

        target = self.path / "deals.parquet"
        with atomic_path(target) as tmp:
            writer = None
            try:
                for entry in entries:
                    table = pq.read_table(self._chunk_path("records", entry["start"]))
                    if writer is None:
                        writer = pq.ParquetWriter(tmp, table.schema)
                    writer.write_table(table)
            finally:
                if writer is not None:
                    writer.close()
            digest = sha256_file(tmp)
        return digest


def _mismatch(existing: dict[str, Any], spec: ExperimentSpec, path: Path) -> str | None:
    """Why ``existing`` (a folder's meta) does not hold ``spec``, or None."""
    if existing.get("format") == COMPARE_FORMAT or existing.get("kind") == "compare":
        return (f"output folder {path} holds a comparison ({existing.get('game')}); "
                f"choose another --out or pass --force to replace it")
    old = existing.get("spec")
    if existing.get("format") in OLD_FORMATS and existing.get("status") != "complete":
        return f"output folder {path} holds an unfinished run of an older simcards; pass --force to start over"
    if not isinstance(old, dict):
        return f"output folder {path} holds a different experiment (unknown); choose another --out or pass --force"
    old_identity = {k: v for k, v in old.items() if k != "chunk_size"}
    new_identity = spec.identity()
    if old_identity == new_identity:
        return None
    if ({k: v for k, v in old_identity.items() if k != "code"}
            == {k: v for k, v in new_identity.items() if k != "code"}):
        return (f"{path} was started by other simcards code (its rules or policies differ from this "
                f"version's, so its records would too); pass --force to start over")
    same_but_files = ({k: v for k, v in old_identity.items() if k != "policy_files"}
                      == {k: v for k, v in new_identity.items() if k != "policy_files"})
    if same_but_files:
        changed = sorted(p for p in set(old.get("policy_files", {})) | set(spec.policy_files)
                         if old.get("policy_files", {}).get(p) != spec.policy_files.get(p))
        return (f"policy file {changed[0] if changed else '?'} changed since {path} was started; "
                f"pass --force to start over")
    return (f"output folder {path} holds a different experiment ({_describe(old)}); "
            f"choose another --out or pass --force to replace it")


def load_meta(path: str | Path) -> dict[str, Any]:
    """``meta.json`` of a results folder, with one-line errors."""
    p = Path(path)
    meta = read_meta_file(p)
    if meta is None:
        raise SimcardsError(f"{p} is not a simcards results folder (no meta.json)")
    return meta


def _has_foreign_files(path: Path) -> bool:
    """True if ``path`` holds anything but hidden files and an empty chunks folder."""
    for p in path.iterdir():
        if p.name.startswith("."):
            continue
        if p.name == "chunks" and p.is_dir() and not any(p.iterdir()):
            continue
        return True
    return False


def _describe(spec: Any) -> str:
    if not isinstance(spec, dict):
        return "unknown"
    return f"{spec.get('game')} {spec.get('unit')} x{spec.get('count')} seed {spec.get('seed')}"


def _version() -> str:
    from simcards.core.version import VERSION as __version__

    return __version__
