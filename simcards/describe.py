"""A cache for the texts of ``simcards games`` and ``simcards rules GAME``, so they start fast.

Building them (simcards.cli prints them) imports every game (numba kernels, pandas):
about two seconds. The texts depend only on simcards' sources, so they are kept in a
small cache keyed by a hash of every ``.py`` file of the package, the Python executable and its version: an edit, an
upgrade or another environment builds them afresh, and a warm call reads one JSON file
without importing numba, numpy or pandas (``scripts/bench.py --startup`` measures it).
Plug-in games (``SIMCARDS_GAMES``) are never cached. The cache lives in
``$SIMCARDS_CACHE_DIR``, else ``$XDG_CACHE_HOME/simcards``, else ``~/.cache/simcards``;
an unwritable cache is simply not used.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Callable

PACKAGE = Path(__file__).resolve().parent


def cached(key: str, build: Callable[[], str]) -> str:
    """``build()``'s text, from the cache when simcards' sources are unchanged."""
    if os.environ.get("SIMCARDS_GAMES", "").strip():
        return build()
    try:
        path = cache_dir() / f"describe-{_source_digest()[:20]}.json"
    except (OSError, RuntimeError):  # no home folder, unreadable sources: no cache
        return build()
    try:
        entries = json.loads(path.read_text())
        if isinstance(entries, dict) and isinstance(entries.get(key), str):
            return entries[key]
    except (OSError, ValueError):
        entries = {}
    text = build()  # errors (an unknown game) propagate and are never cached
    if not isinstance(entries, dict):
        entries = {}
    entries[key] = text
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(entries))
        os.replace(tmp, path)
        for old in path.parent.glob("describe-*.json"):  # texts of older sources
            if old != path:
                old.unlink(missing_ok=True)
    except OSError:
        pass
    return text


def cache_dir() -> Path:
    if os.environ.get("SIMCARDS_CACHE_DIR"):
        return Path(os.environ["SIMCARDS_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "simcards"


def _source_digest() -> str:
    h = hashlib.sha256(f"{sys.executable}\0{sys.version}".encode())
    for f in sorted(PACKAGE.rglob("*.py")):
        h.update(str(f.relative_to(PACKAGE)).encode() + b"\0")
        h.update(f.read_bytes())
    return h.hexdigest()
