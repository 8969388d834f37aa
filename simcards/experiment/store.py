"""The results folder: ``meta.json`` with its chunk manifest, chunk files, final files.

Every file is written to a temporary name and renamed into place, so a run killed
at any moment leaves either the old or the new version of each file, never half of
one. A chunk counts as finished once its files exist and the manifest names it.

Layout::

    <out>/meta.json         spec, versions, machine, timings, manifest
    <out>/chunks/           records-NNNNNN.parquet, tally-NNNNNN.parquet (while running)
    <out>/deals.parquet     per-record rows (records=all), written at the end
    <out>/tally.parquet     the merged tally (what summary.csv is computed from)
    <out>/summary.csv       estimates with 95 % intervals
    <out>/figures/*.png
"""
from __future__ import annotations

import json
import os
import platform
import subprocess
import time
from pathlib import Path
from typing import Any

import pandas as pd

from simcards.core.errors import SimcardsError
from simcards.experiment.spec import ExperimentSpec

META = "meta.json"
FORMAT = "simcards-results-1"


def atomic_write_bytes(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def atomic_write_parquet(path: Path, frame: pd.DataFrame) -> None:
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    frame.to_parquet(tmp, index=False)
    os.replace(tmp, path)


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


class ResultsFolder:
    """One experiment's folder; created or reopened for resume."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.chunks_dir = self.path / "chunks"
        self.meta: dict[str, Any] = {}

    # ----- opening
    def open(self, spec: ExperimentSpec, *, force: bool = False) -> list[int]:
        """Prepare the folder for ``spec``; return the finished chunk ids (for resume)."""
        meta_path = self.path / META
        if self.path.exists() and not self.path.is_dir():
            raise SimcardsError(f"output {self.path} exists and is not a folder")
        existing = None
        if meta_path.exists():
            existing = self._read_meta(meta_path)
        elif self.path.is_dir() and _has_foreign_files(self.path) and not force:
            raise SimcardsError(
                f"output folder {self.path} is not empty and holds no simcards results; "
                f"choose another --out or pass --force"
            )
        if existing is not None and existing.get("spec") != spec.to_dict():
            if not force:
                raise SimcardsError(
                    f"output folder {self.path} holds a different experiment "
                    f"({_describe(existing.get('spec'))}); choose another --out or pass --force to replace it"
                )
            self._clear()
            existing = None
        try:
            self.chunks_dir.mkdir(parents=True, exist_ok=True)
            probe = self.path / f".write-test-{os.getpid()}"
            probe.write_bytes(b"")
            probe.unlink()
        except OSError as exc:
            raise SimcardsError(f"cannot write to output folder {self.path}: {exc.strerror or exc}") from None
        if existing is None:
            self.meta = {"format": FORMAT, "spec": spec.to_dict(), "status": "running",
                         "simcards_version": _version(), "git_commit": git_commit(), "machine": machine(),
                         "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                         "manifest": {"chunk_size": spec.chunk_size, "n_chunks": spec.n_chunks(), "done": []},
                         "timings": {"compute_seconds": 0.0, "runs": []}}
            self.save_meta()
            return []
        self.meta = existing
        done = [c for c in existing["manifest"]["done"] if self._chunk_ok(c, spec)]
        self.meta["manifest"]["done"] = done
        return done

    def _read_meta(self, meta_path: Path) -> dict[str, Any]:
        try:
            meta = json.loads(meta_path.read_text())
        except (OSError, ValueError) as exc:
            raise SimcardsError(f"{meta_path} is corrupt ({type(exc).__name__}); move the folder away or pass --force") from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT or "manifest" not in meta:
            raise SimcardsError(f"{meta_path} is not a simcards results file; choose another --out or pass --force")
        return meta

    def _chunk_ok(self, chunk: int, spec: ExperimentSpec) -> bool:
        if not self.tally_path(chunk).exists():
            return False
        return spec.records != "all" or self.records_path(chunk).exists() or (self.path / "deals.parquet").exists()

    def _clear(self) -> None:
        import shutil

        for name in ("chunks", "figures"):
            shutil.rmtree(self.path / name, ignore_errors=True)
        for name in (META, "deals.parquet", "tally.parquet", "summary.csv", "report.md", "report.html"):
            (self.path / name).unlink(missing_ok=True)

    # ----- chunks
    def records_path(self, chunk: int) -> Path:
        return self.chunks_dir / f"records-{chunk:06d}.parquet"

    def tally_path(self, chunk: int) -> Path:
        return self.chunks_dir / f"tally-{chunk:06d}.parquet"

    def save_chunk(self, chunk: int, records: pd.DataFrame | None, tally: pd.DataFrame) -> None:
        if records is not None:
            atomic_write_parquet(self.records_path(chunk), records)
        atomic_write_parquet(self.tally_path(chunk), tally)
        self.meta["manifest"]["done"].append(chunk)
        self.save_meta()

    def load_tally(self, chunk: int) -> pd.DataFrame:
        return pd.read_parquet(self.tally_path(chunk))

    def save_meta(self) -> None:
        atomic_write_bytes(self.path / META, json.dumps(self.meta, indent=2, default=str).encode())

    # ----- final files
    def finish(self, spec: ExperimentSpec, tally: pd.DataFrame, summary: pd.DataFrame) -> None:
        """Merge chunk records into deals.parquet, write tally and summary, mark complete."""
        if spec.records == "all" and not (self.path / "deals.parquet").exists():
            import pyarrow.parquet as pq

            tmp = self.path / ".deals.parquet.tmp"
            writer = None
            for chunk in range(spec.n_chunks()):
                table = pq.read_table(self.records_path(chunk))
                if writer is None:
                    writer = pq.ParquetWriter(tmp, table.schema)
                writer.write_table(table)
            if writer is not None:
                writer.close()
                os.replace(tmp, self.path / "deals.parquet")
        atomic_write_parquet(self.path / "tally.parquet", tally)
        tmp = self.path / ".summary.csv.tmp"
        summary.to_csv(tmp, index=False)
        os.replace(tmp, self.path / "summary.csv")
        self.meta["status"] = "complete"
        self.save_meta()
        import shutil

        shutil.rmtree(self.chunks_dir, ignore_errors=True)


def load_meta(path: str | Path) -> dict[str, Any]:
    """``meta.json`` of a results folder, with one-line errors."""
    p = Path(path)
    meta_path = p / META
    if not meta_path.exists():
        raise SimcardsError(f"{p} is not a simcards results folder (no meta.json)")
    return ResultsFolder(p)._read_meta(meta_path)


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
    from simcards import __version__

    return __version__
