"""Numba's cache never runs an edited helper's old code (simcards.core.jit)."""
import importlib
import inspect
import pkgutil
import subprocess
import sys
import textwrap

import pytest
from numba.core.registry import CPUDispatcher

import simcards
from simcards.core import jit

# modules whose import would compile or need optional tools are still walked: importing
# a module defines its kernels, it does not compile them
MODULES = [m.name for m in pkgutil.walk_packages(simcards.__path__, "simcards.")]


def test_every_cached_kernel_of_the_package_is_scope_stamped():
    checked = 0
    for name in MODULES:
        module = importlib.import_module(name)
        for value in vars(module).values():
            if isinstance(value, CPUDispatcher) and value._cache is not None and inspect.getmodule(value.py_func) is module:
                impl = getattr(value._cache, "_impl", None)
                if impl is None:  # caching disabled for this dispatcher
                    continue
                assert isinstance(impl.locator, jit.LOCATORS), f"{name}.{value.__name__} uses {type(impl.locator).__name__}"
                checked += 1
    assert checked > 50


def test_scope_of_a_game_file_is_core_and_its_game(tmp_path):
    stamp = jit.scope_digest(jit.PACKAGE / "games" / "spades" / "rules.py")
    assert stamp is not None and len(stamp.split("+")) == 2
    assert len(jit.scope_digest(jit.PACKAGE / "core" / "tricks.py").split("+")) == 1
    assert jit.scope_digest(tmp_path / "my_bots.py") is None  # user files keep numba's stamp


KERNEL = """
import sys
sys.path.insert(0, {root!r})
from simcards.core import jit
if {track}:
    jit.track({root!r})
from games.toy.kernel import kernel
print(kernel())
"""


def _run(root, track):
    code = KERNEL.format(root=str(root), track=track)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return int(out.stdout.split()[-1])


@pytest.mark.parametrize("track", [True, False])
def test_editing_a_helper_recompiles_its_callers(tmp_path, track):
    """The trap, shown with numba's own stamps (track=False), and closed by ours."""
    (tmp_path / "core").mkdir()
    (tmp_path / "games" / "toy").mkdir(parents=True)
    for d in ("core", "games", "games/toy"):
        (tmp_path / d / "__init__.py").write_text("")
    helper = tmp_path / "core" / "helper.py"
    helper.write_text(textwrap.dedent("""
        import numba as nb
        @nb.njit(cache=True)
        def value():
            return 1
    """))
    (tmp_path / "games" / "toy" / "kernel.py").write_text(textwrap.dedent("""
        import numba as nb
        from core.helper import value
        @nb.njit(cache=True)
        def kernel():
            return value() + 10
    """))
    assert _run(tmp_path, track) == 11
    helper.write_text(helper.read_text().replace("return 1", "return 2"))
    # numba's own stamp sees only kernel.py, unchanged: the stale 11 comes back
    assert _run(tmp_path, track) == (12 if track else 11)


def test_threads_racing_to_a_lazy_functions_first_use_all_get_it():
    """``lazily``'s first use compiles once under numba's compiler lock: threads that reach it
    together (the odds batches do) all get the compiled function, none 'compilation disabled'."""
    from concurrent.futures import ThreadPoolExecutor

    import numba as nb
    import numpy as np

    @jit.lazily(nb.types.int64(nb.types.int64[:]))
    def total(values):
        return values.sum()

    def first_use(_):
        total.ensure_compiled()
        return total(np.arange(4))

    with ThreadPoolExecutor(8) as pool:
        assert list(pool.map(first_use, range(16))) == [6] * 16
    assert len(total.overloads) == 1
