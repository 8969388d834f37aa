"""Say so when numba compiles: once, on stderr, what is compiled and about how long it takes.

simcards' kernels are compiled by numba the first time they run on a machine (or after an
edit or an upgrade) and kept in numba's on-disk cache; later runs load them in a fraction of
a second. A first run would otherwise sit silent for a minute. :func:`compile_notice` listens
to numba's compile events: once compiling has taken two seconds it prints one line
(``compiling the Spades kernels, first run only, about 35 s``) and, on a terminal, a counter
of the functions compiled and the seconds spent, which ends when compiling does. Cache loads
are not compile events, so a warm run prints nothing, and neither does a short compile (a
user's small policy), so a bad policy's one-line error stays one line.

Every function numba finishes is written to the cache at once, so a run interrupted while
compiling keeps what it compiled; the next run starts from there.
"""
from __future__ import annotations

import contextlib
import sys
import threading
import time

# CPU seconds of a cold compile of `simcards run GAME` with the default policy on the 2-core
# development machine (scripts/compile_times.py GAME measures them; the notice says "about").
ESTIMATE_SECONDS = {
    "spades": 35,
    "cutthroat": 25,
    "seep": 25,
    "contract_rummy": 130,
    "kierki": 25,
}
# CPU seconds of a cold compile of the double-dummy solver (simcards.core.dd), which `pimc`, `dd`,
# `--dd` and `--records dd` add to a game's kernels (scripts/compile_times.py spades -- dd spades ...)
SOLVER_SECONDS = 180
PIMC_GAMES = ("spades", "cutthroat", "kierki")  # the games with a built-in pimc (a default ladder runs it)
TITLES = {
    "spades": "Spades",
    "cutthroat": "Cutthroat Spades",
    "seep": "Seep",
    "contract_rummy": "Contract Rummy",
    "kierki": "Kierki",
}


def game_in(words) -> str | None:
    """The first built-in game named among command-line ``words`` (``contract-rummy`` ->
    ``contract_rummy``), without importing any game."""
    for word in words:
        key = str(word).strip().lower().replace("-", "_")
        if key in TITLES:
            return key
    return None


def uses_solver(command: str, params: dict) -> bool:
    """Whether a command with these click ``params`` runs the double-dummy solver: the ``dd``
    command, a ``pimc`` policy anywhere in its options, ``--dd``, ``--dd-deals``, ``--records dd``
    or a ladder of every built-in policy of a game with ``pimc``."""
    if command == "dd" or params.get("double_dummy") is True or params.get("dd_deals"):
        return True
    if command == "ladder" and not params.get("policies"):  # every built-in: pimc where the game has it
        return str(params.get("game") or "").lower() in PIMC_GAMES
    values = []
    for value in params.values():
        values.extend(value if isinstance(value, (list, tuple)) else [value])
    return any(isinstance(v, str) and ("pimc" in v.lower() or v.lower() == "dd") for v in values)


def what_compiles(module: str, game: str | None = None, solver: bool = False) -> tuple[str, int | None]:
    """``("the Spades kernels", 35)`` for ``game``, else for the module of the first function
    compiled (``simcards.games.spades.policies``); with ``solver`` the double-dummy solver's
    compile is named and counted too."""
    parts = module.split(".")
    if game is None and len(parts) > 2 and parts[:2] == ["simcards", "games"]:
        game = parts[2]
    if game is not None:
        what = f"the {TITLES.get(game, game.replace('_', ' ').title())} kernels"
        seconds = ESTIMATE_SECONDS.get(game)
        if solver:
            return f"{what} and the double-dummy solver", (seconds or 0) + SOLVER_SECONDS
        return what, seconds
    if module == "simcards.core.dd" or solver:
        return "the double-dummy solver", SOLVER_SECONDS
    if module.startswith("simcards."):
        return "simcards' shared kernels", None
    return "your policy", None


class CompileNotice:
    """A numba ``numba:compile`` listener that prints the notice and the counter.

    The clock runs while simcards' own functions compile; nothing is said until it reaches
    ``delay`` seconds, and a user's policy never starts it: the notice is for the kernels'
    waits a person notices, and a bad policy's one-line error stays one line. A thread watches
    the clock; on a terminal (``ticker``) it then keeps a counter on one line, ended when
    compiling stops. :meth:`settle` ends that line at once and stops the thread, so that an
    interactive command's prompt is never followed by a counter line; a later compile starts
    a new stretch (counted afresh, the notice itself said once).
    """

    def __init__(self, stream=None, ticker: bool | None = None, interval: float = 0.5, game: str | None = None,
                 delay: float = 2.0, solver: bool = False):
        self.game = game
        self.solver = solver
        self.stream = stream if stream is not None else sys.stderr
        self.ticker = self.stream.isatty() if ticker is None else ticker
        self.interval = interval
        self.delay = delay
        self.lock = threading.Lock()
        self.active = 0
        self.compiled = 0  # functions compiled in this stretch (since the last settle)
        self.busy = 0.0  # seconds spent compiling, up to the last time compiling stopped
        self.busy_since: float | None = None  # when the current spell of compiling began
        self.busy_before = 0.0  # seconds of compiling before this stretch (a settle)
        self.started_at: float | None = None
        self.idle_since: float | None = None
        self.ours = 0  # simcards' own functions being compiled now (a user's policy does not count)
        self.module = ""  # the module of the first of them
        self.said = False  # the notice was written (once in a process)
        self.shown = False  # this stretch has reached the delay (notice said, counter running)
        self.line_open = False  # a counter line is on screen without its newline
        self.thread: threading.Thread | None = None
        self.stopped = threading.Event()

    def on_start(self, event) -> None:
        dispatcher = (event.data or {}).get("dispatcher")
        module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
        with self.lock:
            self.active += 1
            self.idle_since = None
            if module.startswith("simcards."):  # the clock runs while simcards' own code compiles
                if self.ours == 0:
                    self.busy_since = time.perf_counter()
                    self.module = self.module or module
                self.ours += 1
            if self.thread is None:
                self.started_at = time.perf_counter()
                self.thread = threading.Thread(target=self._watch, args=(self.stopped,), daemon=True)
                self.thread.start()

    def on_end(self, event) -> None:
        dispatcher = (event.data or {}).get("dispatcher")
        module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
        with self.lock:
            self.active -= 1
            self.compiled += 1
            if module.startswith("simcards."):
                self.ours -= 1
                if self.ours == 0:
                    self.busy += time.perf_counter() - self.busy_since
            if self.active == 0:
                self.idle_since = time.perf_counter()

    def _busy_total(self) -> float:
        """Seconds of simcards' compiling in this process, the current spell included."""
        return self.busy + (time.perf_counter() - self.busy_since if self.ours else 0.0)

    def _busy_now(self) -> float:
        """Seconds of simcards' compiling in this stretch."""
        return self._busy_total() - self.busy_before

    def _watch(self, stopped: threading.Event) -> None:
        while not stopped.wait(self.interval / 5 if not self.shown else self.interval):
            with self.lock:
                if stopped.is_set():  # settled while this thread waited for the lock
                    return
                if not self.shown:
                    if self._busy_now() < self.delay:
                        continue
                    self._say()
                    if not self.ticker:
                        return
                    continue
                idle = self.idle_since is not None and time.perf_counter() - self.idle_since > 2 * self.interval
                self._count(end=idle)
                if idle:
                    return

    def settle(self) -> None:
        """End the notice's output now: the notice if the delay was reached before the watcher
        looked, the counter's last line with its newline; nothing more is written until the
        next compile."""
        self.stopped.set()
        compiled = self.thread is not None  # something compiled in this stretch
        if compiled:
            self.thread.join()
        with self.lock:
            if compiled and not self.shown and self._busy_now() >= self.delay:  # ended before the watcher looked
                self._say()
            if self.line_open:
                self._count(end=True)
            self.thread = None
            self.stopped = threading.Event()
            self.shown = False
            self.compiled = 0
            self.busy_before = self._busy_total()

    close = settle

    def _say(self) -> None:
        """The notice, once: what is compiled (the command's game, or the user's policy) and about how long."""
        self.shown = True
        if self.said:
            return
        self.said = True
        what, seconds = what_compiles(self.module, self.game, self.solver)
        about = "" if not seconds else f", about {seconds} s" if seconds < 120 else f", about {round(seconds / 60)} min"
        self._write(f"simcards: compiling {what} (first run only{about}; kept for the next runs)\n")

    def _count(self, end: bool) -> None:
        """The counter line (a terminal only), rewritten in place; ``end`` closes it."""
        if not self.ticker:
            return
        elapsed = time.perf_counter() - self.started_at
        self._write(f"\rsimcards: compiled {self.compiled} functions in {elapsed:.0f} s" + ("\n" if end else ""))
        self.line_open = not end

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # a closed stream (pipe gone) never stops the run
            pass


_ACTIVE: list[CompileNotice] = []  # the notices of the commands running in this process


def settle() -> None:
    """Before an interactive prompt: end any compile notice's output, so nothing is written
    after the prompt (see :meth:`CompileNotice.settle`)."""
    for notice in _ACTIVE:
        notice.settle()


@contextlib.contextmanager
def compile_notice(stream=None, ticker: bool | None = None, game: str | None = None, delay: float = 2.0,
                   solver: bool = False):
    """Within the block, the first numba compile prints the notice (see the module doc);
    ``game`` (``"spades"``) names what is compiled, else the first compiled function's module;
    ``solver``: the command runs the double-dummy solver too (:func:`uses_solver`)."""
    from numba.core import event

    notice = CompileNotice(stream, ticker, game=game, delay=delay, solver=solver)
    listener = _Listener(notice)
    event.register("numba:compile", listener)
    _ACTIVE.append(notice)
    try:
        yield notice
    finally:
        _ACTIVE.remove(notice)
        event.unregister("numba:compile", listener)
        notice.close()


def _Listener(notice: CompileNotice):
    from numba.core import event

    class Listener(event.Listener):
        def on_start(self, ev):
            notice.on_start(ev)

        def on_end(self, ev):
            notice.on_end(ev)

    return Listener()
