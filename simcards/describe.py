"""The texts of ``simcards games`` and ``simcards rules GAME``, cached so they start fast.

Building them imports every game (numba kernels, pandas): about two seconds. The texts
depend only on simcards' sources, so they are kept in a small cache keyed by a hash of
every ``.py`` file of the package, the Python executable and its version: an edit, an
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


def games_text() -> str:
    """One line per game: name, title, units, policies."""
    from simcards.api import list_games

    return "".join(f"{row.game:<16} {row.title}: units {row.units}; policies {row.policies}\n"
                   for row in list_games().itertuples(index=False))


def rules_text(game: str) -> str:
    """Every house-rule parameter, preset, shortcut, unit (with its columns) and policy of ``game``."""
    from simcards.api import rules as rule_table
    from simcards.core.game import get_game

    g = get_game(game)
    lines = [f"{g.title} ({g.name})", g.description, "", "Parameters (set with --set name=value):"]
    for row in rule_table(game).itertuples(index=False):
        lines += [f"  {row.parameter} = {row.default}", f"      allowed: {row.allowed}", f"      {row.meaning}"]
    lines += ["", "Presets (--preset NAME):"]
    for name, settings in g.presets.items():
        text = ", ".join(f"{k}={v}" for k, v in settings.items()) or "the defaults"
        lines.append(f"  {name}: {text}")
    if g.shortcuts:
        lines += ["", "Shortcuts: " + ", ".join(f"--{k} N means --set {v}=N" for k, v in g.shortcuts.items())]
    lines += ["", "Units (--unit NAME, count with --<plural>):"]
    for u in g.units:
        lines.append(f"  {u.name} (--{u.plural}): {u.help}")
        lines += [f"      {c.name}: {c.help}" for c in u.columns]
    lines.append("\nPolicies (--policy NAME, --seat-policy SEAT=NAME, or my_bots.py:name):")
    for name, p in g.policies.builtins.items():
        doc = (getattr(p, "doc", "") or "").strip().splitlines()
        lines.append(f"  {name}" + (f": {doc[0]}" if doc else ""))
    lines.append("  decisions (write a policy: docs/policies.md):")
    lines += [f"    {d.name}{signature_text(d.signature)}: {d.help}" for d in g.policies.decisions]
    return "\n".join(lines) + "\n"


def signature_text(signature) -> str:
    """``(int64[:], uint64[:]) -> int64`` rather than numba's verbose repr."""
    import re

    def array(m: re.Match) -> str:
        return f"{m.group(1)}[{', '.join(':' * int(m.group(2)))}]"

    return re.sub(r"Array\((\w+), (\d), '\w', \w+, aligned=\w+\)", array, str(signature))


def cached(key: str, build: Callable[[], str]) -> str:
    """``build()``'s text, from the cache when simcards' sources are unchanged."""
    if os.environ.get("SIMCARDS_GAMES", "").strip():
        return build()
    path = cache_dir() / f"describe-{_source_digest()[:20]}.json"
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
