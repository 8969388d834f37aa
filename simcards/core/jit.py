"""Numba's on-disk cache, made safe against edited helpers.

Numba's cache (``cache=True``) checks only the source file of the function it caches. A
kernel in ``games/spades/rules.py`` that calls a helper in ``core/tricks.py`` would keep
running the *old* helper after the helper is edited, until someone deletes ``__pycache__``
by hand (numba issue #6845, "stale cache"). The locators below stamp every cached function
of simcards with a hash of all the sources it can call: its own file, ``core/`` and its
own top-level package (``games/<game>/`` for a game; games never import each other). Edit
any of them and the affected kernels recompile; edit another game and they do not.

Importing this module installs the locators; ``simcards.core.cards`` imports it, so every
compiled module of simcards has it before its first ``@njit``. A test checks that every
cached dispatcher of the package uses them. It relies on numba's cache-locator classes,
one reason numba is pinned to the tested minor version in ``pyproject.toml``.
"""
from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from numba.core import caching

PACKAGE = Path(__file__).resolve().parents[1]
_ROOTS: list[Path] = [PACKAGE]


def track(root: str | Path) -> None:
    """Give the sources under ``root`` (laid out like the package: ``core/``, ``games/<g>/``)
    the same cache stamps as simcards' own (used by the tests)."""
    path = Path(root).resolve()
    if path not in _ROOTS:
        _ROOTS.append(path)


@functools.lru_cache(maxsize=None)
def _folder_digest(folder: Path) -> str:
    """sha256 over the names and contents of every ``.py`` file under ``folder``."""
    h = hashlib.sha256()
    for f in sorted(folder.rglob("*.py")):
        h.update(str(f.relative_to(folder)).encode())
        h.update(f.read_bytes())
    return h.hexdigest()


def scope_digest(py_file: str | Path) -> str | None:
    """Hash of the sources a compiled function in ``py_file`` may call, or None when the
    file is not under a tracked root (user policy files keep numba's own stamp)."""
    path = Path(py_file).resolve()
    for root in _ROOTS:
        try:
            parts = path.relative_to(root).parts
        except ValueError:
            continue
        folders = [root / "core"]
        if parts[0] == "games" and len(parts) > 2:
            folders.append(root / "games" / parts[1])
        elif parts[0] != "core" and len(parts) > 1:
            folders.append(root / parts[0])
        return "+".join(_folder_digest(f) for f in folders if f.is_dir())
    return None


class _ScopeStampMixin:
    """A numba cache locator whose source stamp covers the function's whole call scope."""

    def get_source_stamp(self):
        return (super().get_source_stamp(), scope_digest(self._py_file))

    @classmethod
    def from_function(cls, py_func, py_file):
        if scope_digest(py_file) is None:
            return None
        return super().from_function(py_func, py_file)


class UserProvidedScopeLocator(_ScopeStampMixin, caching.UserProvidedCacheLocator):
    """``NUMBA_CACHE_DIR`` when set."""


class InTreeScopeLocator(_ScopeStampMixin, caching.InTreeCacheLocator):
    """``__pycache__`` beside the source (the usual case)."""


class UserWideScopeLocator(_ScopeStampMixin, caching.UserWideCacheLocator):
    """The user-wide cache folder when the source tree is read-only."""


LOCATORS = (UserProvidedScopeLocator, InTreeScopeLocator, UserWideScopeLocator)


def install() -> None:
    """Put the scope-stamped locators first in numba's list (idempotent)."""
    classes = caching.CacheImpl._locator_classes
    for cls in reversed(LOCATORS):
        if cls not in classes:
            classes.insert(0, cls)


install()


# ---------------------------------------------------------------- the decorators
#
# Every compiled function of simcards is made with one of these four, named for what the
# function is, so that one word means one set of numba options in every game:
#
#   @kernel             an entry point called from Python: cached, releases the GIL
#   @helper             a function called from compiled code (cached; nogil so tests
#                       and Python callers may call it too)
#   @inline             a small helper numba inlines into its caller at the IR level
#                       (no call, no reference counting of its array arguments)
#   @policy(SIG)        a built-in policy decision: compiled with the decision's
#                       signature, so it is a first-class function of that type
#
# A function given a signature is compiled for it at its first use, not at import
# (``lazily``): listing the games or reading --help compiles nothing.
#
# Each takes optional settings: a signature as first argument (``@helper(SIG)``) and
# ``alloc=False`` for code compiled without numba's runtime (numba's ``_nrt=False``: it may
# not allocate arrays nor raise with run-time values, and skips reference counting; see
# docs/architecture.md, "Speed habits"). Extra numba options pass through unchanged.


def _numba_options(base: dict, alloc: bool, extra: dict) -> dict:
    options = dict(base, **extra)
    if not alloc:
        options["_nrt"] = False
    return options


def lazily(sig, **options):
    """Like ``numba.njit(sig, **options)``, but compiled (or loaded from the cache) at first
    use instead of at import.

    numba compiles a function with a declared signature when it is decorated, so importing
    a game compiled every policy it has (Spades' ``pimc`` with the double-dummy solver: over
    a minute on a fresh clone), even for ``simcards games``. Here the first use (a call from
    Python, a call from compiled code being typed, a conversion to a first-class function)
    compiles the declared signature and then disables further compilation, exactly as an
    eager dispatcher is left: arguments of other types are converted to the declared ones,
    never given a specialization of their own.
    """
    import numba
    from numba.core.compiler_lock import global_compiler_lock

    def decorate(fn):
        dispatcher = numba.njit(**options)(fn)
        get_call_template = dispatcher.get_call_template
        get_compile_result = dispatcher.get_compile_result

        def ensure():
            # numba's compiler lock (re-entrant: typing a caller holds it when it calls here)
            # makes the check and the compile one step when threads race to the first use
            with global_compiler_lock:
                if dispatcher._can_compile:
                    dispatcher.compile(sig)
                    dispatcher.disable_compile()

        def lazy_call_template(args, kws):
            ensure()
            return get_call_template(args, kws)

        def lazy_compile_result(signature):
            ensure()
            return get_compile_result(signature)

        def lazy_compile_for_args(*args, **kws):  # numba calls what this returns with the arguments
            ensure()
            return dispatcher

        dispatcher.get_call_template = lazy_call_template
        dispatcher.get_compile_result = lazy_compile_result
        dispatcher._compile_for_args = lazy_compile_for_args
        dispatcher.ensure_compiled = ensure
        return dispatcher

    return decorate


def _decorator(base: dict, name: str, doc: str):
    def decorate(fn_or_sig=None, *, alloc: bool = True, **extra):
        import numba

        options = _numba_options(base, alloc, extra)
        if callable(fn_or_sig) and hasattr(fn_or_sig, "__code__"):  # bare @kernel
            return numba.njit(**options)(fn_or_sig)
        if fn_or_sig is None:  # @kernel(alloc=False)
            return numba.njit(**options)
        return lazily(fn_or_sig, **options)  # @kernel(SIG, ...): compiled at first use

    decorate.__name__ = decorate.__qualname__ = name
    decorate.__doc__ = doc
    return decorate


kernel = _decorator({"cache": True, "nogil": True}, "kernel",
                    "An entry point called from Python: cached, releases the GIL.")
helper = _decorator({"cache": True, "nogil": True}, "helper",
                    "A compiled helper called from kernels (and callable from Python).")
inline = _decorator({"cache": True, "nogil": True, "inline": "always"}, "inline",
                    "A small helper inlined into its compiled callers.")


def policy(sig, *, alloc: bool = True, **extra):
    """A built-in policy decision compiled with its decision's signature ``sig``."""
    return lazily(sig, **_numba_options({"cache": True, "nogil": True}, alloc, extra))
