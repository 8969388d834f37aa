"""The import layers of docs/architecture.md hold: imports point down, games stay apart, no cycles.

    core  <-  games  <-  experiment  <-  report  <-  api, cli (and simcards/__init__)

Every import statement of the package counts, at module level or inside a function (a
lazy import is still a dependency; it only hides a cycle). An AST scan, so nothing is
imported and the test takes well under a second. ``KNOWN`` lists today's exceptions;
each is to be removed by the change named beside it, so the graph cannot drift further.
"""
from __future__ import annotations

import ast
from pathlib import Path


PACKAGE = Path(__file__).resolve().parents[1] / "simcards"
LAYERS = {"core": 0, "games": 1, "experiment": 2, "report": 3, "app": 4, "api": 5, "cli": 5, "describe": 5}
TOP = 6  # simcards/__init__.py: the package's face

# (importing module prefix, imported module prefix): allowed for now, each with its way out.
KNOWN: set[tuple[str, str]] = set()  # no exceptions left: stats and the workflows moved (issue 15, step 4)


def module_name(path: Path) -> str:
    parts = ("simcards",) + path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def imports_of(name: str) -> set[str]:
    """Modules of the package that ``name`` imports (``from a import b``: a.b when it is a module)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in MODULES:  # `import simcards.x.y` names a module; trim attributes
                t = t.rpartition(".")[0]
            if t.startswith("simcards") and t != name:
                found.add(t)
    return found


def _edges(name: str) -> set[str]:
    """Imports of ``name`` minus its own ancestor packages (Python runs those first whatever
    the module imports, so ``from simcards import __version__`` adds no dependency)."""
    return {b for b in imports_of(name) if not name.startswith(b + ".")}


GRAPH = {name: _edges(name) for name in MODULES}


def layer(name: str) -> int:
    parts = name.split(".")
    return TOP if len(parts) == 1 else LAYERS[parts[1]]


def known(importer: str, imported: str) -> bool:
    return any(importer.startswith(a) and imported.startswith(b) for a, b in KNOWN)


def test_every_module_is_in_a_layer():
    assert {n.split(".")[1] for n in MODULES if "." in n} <= set(LAYERS)


def test_imports_point_down():
    upward = sorted(f"{a} imports {b}" for a, deps in GRAPH.items() for b in deps
                    if layer(b) > layer(a) and not known(a, b))
    assert not upward, "imports that point up (docs/architecture.md, Layers):\n" + "\n".join(upward)


def test_experiment_imports_neither_api_nor_report():
    bad = sorted(f"{a} imports {b}" for a, deps in GRAPH.items() if a.startswith("simcards.experiment")
                 for b in deps if layer(b) >= LAYERS["report"] and not known(a, b))
    assert not bad, "\n".join(bad)


def test_no_game_imports_another_game():
    def game(name):
        parts = name.split(".")
        return parts[2] if len(parts) > 2 and parts[1] == "games" else None

    crossing = sorted(f"{a} imports {b}" for a, deps in GRAPH.items() for b in deps
                      if game(a) and game(b) and game(a) != game(b))
    assert not crossing, "\n".join(crossing)


def test_no_import_cycles():
    """No cycle among modules, lazy imports included (KNOWN edges aside)."""
    def edges(a):
        return {b for b in GRAPH[a] if not known(a, b)}

    cycles, state = [], {}

    def visit(node, stack):
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges(node)):
            if state.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, stack)
        stack.pop()
        state[node] = 2

    for name in sorted(GRAPH):
        if name not in state:
            visit(name, [])
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_known_exceptions_still_exist():
    """An exception that no longer occurs must leave KNOWN (so it cannot come back unnoticed)."""
    for a, b in sorted(KNOWN):
        assert any(x.startswith(a) and y.startswith(b) for x, deps in GRAPH.items() for y in deps), \
            f"{a} no longer imports {b}: delete this entry of KNOWN"


def test_the_scan_sees_lazy_imports():
    assert "simcards.app.workflows" in GRAPH["simcards.cli"]  # imported inside a function
