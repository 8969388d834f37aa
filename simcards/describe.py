"""A cache for the texts of ``simcards games`` and ``simcards rules GAME``, and for the
registry's command-line options (``command_options``), so they start fast.

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


def cached(key: str, build: Callable[[], str], *, plugins_matter: bool = True) -> str:
    """``build()``'s text, from the cache when simcards' sources are unchanged.

    ``plugins_matter=False``: the text depends on this package's games alone, so it is
    cached even while plug-in games (``SIMCARDS_GAMES``) are registered.
    """
    if plugins_matter and os.environ.get("SIMCARDS_GAMES", "").strip():
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


def command_options() -> dict:
    """The options the registry's games give the CLI, derived from their declarations.

    ``{"plurals": [...], "records": [...], "shortcuts": {option: {"kind": "int" | "text",
    "fields": {game: field}, "focus": {game: unit}}}}``, over every registered game in
    registry order: a unit's plural counts its records (``--deals``), its name picks one record
    (``replay --deal N``), a shortcut stands for ``--set field=VALUE`` (``Game.shortcuts``)
    and is refused outside the unit it is the focus of (``Unit.focus``). The part of this
    package's games is cached (importing them costs seconds); plug-in games are read live.
    """
    from simcards.core.game import builtin_game_names, game_names

    builtin = builtin_game_names()
    entries = json.loads(cached("options " + ",".join(builtin),
                                lambda: json.dumps({n: _declared_options(n) for n in builtin}),
                                plugins_matter=False))
    for name in game_names():
        if name not in entries:
            entries[name] = _declared_options(name)
    merged: dict = {"plurals": [], "records": [], "shortcuts": {}}
    for name, entry in entries.items():
        if entry is None:
            continue
        for unit, plural in entry["units"]:
            merged["records"] += [unit] if unit not in merged["records"] else []
            merged["plurals"] += [plural] if plural not in merged["plurals"] else []
        for option, (field, kind, focus) in entry["shortcuts"].items():
            shortcut = merged["shortcuts"].setdefault(option, {"kind": kind, "fields": {}, "focus": {}})
            if kind != "int":
                shortcut["kind"] = "text"  # an option several games share takes what all of them take
            shortcut["fields"][name] = field
            if focus:
                shortcut["focus"][name] = focus
    return merged


def _declared_options(name: str) -> dict | None:
    """One game's units and shortcuts (None: a package that does not load, left to its own commands)."""
    from simcards.core.errors import SimcardsError
    from simcards.core.game import get_game

    try:
        g = get_game(name)
    except SimcardsError:
        return None
    specs = g.variant_type.param_specs()
    return {"units": [(u.name, u.plural) for u in g.units],
            "shortcuts": {option: (field, "int" if specs[field].kind == "int" else "text", g.shortcut_unit(option))
                          for option, field in g.shortcuts.items()}}
