"""``simcards play``: a person takes one seat, the bots the others, in a terminal (docs/play.md).

This module knows no game rule: it draws what the game's adapter says
(``simcards/games/<game>/interactive.py``) and steps the game through
:class:`simcards.core.interactive.Session`, which runs the game's own compiled kernel.
Output goes through ``rich`` (plain text when not on a terminal); input is a plain line
prompt, so a pseudo-terminal or a pipe can drive it.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Callable, Sequence

from simcards.app.compiling import settle
from simcards.core.errors import SimcardsError
from simcards.core.game import Game, get_game
from simcards.core.interactive import Finished, Pending, Session, adapter_for, card_hints, hint_text, match_move
from simcards.core.policy import seat_policies

HELP = "?: hints   h: history   u: undo your last move   s: save   q: quit"
HINT_DEALS = 2000  # deals per hint table: a few seconds, intervals about +-2 points


def new_session(game: str | Game, *, seat: int | str = 0, policy: str | None = None,
                seat_policy: dict[int, str] | None = None, preset: str | None = None,
                settings: Sequence[str] = (), variant: dict | None = None, seed: int = 0, index: int = 0,
                unit: str | None = None, answers: Sequence[int] = ()) -> Session:
    """A session of record ``index`` of ``seed`` with the person at ``seat``."""
    g = game if isinstance(game, Game) else get_game(game)
    u = g.unit(unit)
    if index < 0:
        raise SimcardsError(f"{u.name} number must be >= 0, got {index}")
    v = g.variant(preset, variant, list(settings))
    if isinstance(seat, str):
        from simcards.core.deal import seat_number

        seat = seat_number(seat, g.seats(v))
    specs = seat_policies(policy or g.default_policy, seat_policy, g.seats(v))
    g.policies.table(specs)  # unknown policy names fail here, with one line
    return Session(g, adapter_for(g), v, u.name, int(seed), int(index), int(seat), specs, list(answers))


def load_session(path: str | Path) -> Session:
    """The session saved in ``path`` (``--save``), its moves replayed up to where it stopped."""
    p = Path(path)
    try:
        data = json.loads(p.read_text())
    except FileNotFoundError:
        raise SimcardsError(f"no saved game {str(p)!r}") from None
    except (OSError, ValueError) as exc:
        raise SimcardsError(f"cannot read saved game {str(p)!r}: {exc}") from None
    if not isinstance(data, dict) or data.get("simcards_play") != 1:
        raise SimcardsError(f"{str(p)!r} is not a game saved by `simcards play --save`")
    try:
        return new_session(data["game"], seat=data["seat"], seat_policy=dict(enumerate(data["policies"])),
                           variant=data["variant"], seed=data["seed"], index=data["index"], unit=data["unit"],
                           answers=data["answers"])
    except KeyError as exc:
        raise SimcardsError(f"saved game {str(p)!r} lacks {exc}") from None


def save_session(session: Session, path: str | Path) -> Path:
    p = Path(path)
    try:
        p.write_text(json.dumps(session.to_dict(), indent=1) + "\n")
    except OSError as exc:
        raise SimcardsError(f"cannot write {str(p)!r}: {exc.strerror or exc}") from None
    return p


def replay_file(path: str | Path) -> str:
    """``simcards replay --file``: the saved record as the game's replay shows any record."""
    s = load_session(path)
    head = f"(played by a person at {s.names[s.seat]}, seat {s.seat}; {len(s.answers)} moves saved)\n"
    state = s.advance()
    if isinstance(state, Pending):
        return head + f"The saved game stops before its end ({s.names[state.seat]} to {state.decision}); " \
                      "the rest below is played by the bots.\n" + s.replay_text()
    return head + s.replay_text()


def hints(session: Session, state: Pending, deals: int = HINT_DEALS, worlds: int | None = None,
          progress: Callable[[int, int], None] | None = None) -> str:
    """What the simulator thinks of each legal move: the `simcards bid` table where the game
    has one, the card hints (:func:`simcards.core.interactive.card_hints`) during card play."""
    if state.decision == "blind" and hasattr(session.adapter, "blind_request"):
        return blind_hint(session, state, deals)
    request = session.adapter.odds_request(state, session.variant)
    if request is None:
        try:
            hint = card_hints(session, state, worlds, progress=progress)
        except SimcardsError as exc:
            return f"No hint: {exc}."
        bots = ", ".join(dict.fromkeys(p for i, p in enumerate(session.specs) if i != session.seat))
        return hint_text(hint, bots)
    import textwrap

    from simcards.experiment.odds import odds

    command = next(iter(session.game.odds))
    result = odds(session.game, command, request, setup=_setup(session), seed=session.seed, deals=deals)
    table, left_out = fit_columns(result.table, WIDTH)
    note = ("\n" + textwrap.fill(f"(more columns: {', '.join(left_out)}: `simcards {command} {session.game.name}`)",
                                 WIDTH)) if left_out else ""
    return f"`simcards {command}` for your hand, what you know of the table, {result.deals:,} deals:\n{table}{note}"


def _setup(session: Session):
    """The session's table for the odds hints: its house rules, every seat's policy."""
    from simcards.experiment.spec import Setup

    return Setup(variant=session.variant.to_dict(), seat_policy=dict(enumerate(session.specs)))


WIDTH = 80  # the hint tables fit an 80-column terminal
BLIND_HANDS = 40  # hands sampled for the Blind Nil hint (the deals shared among them)


def blind_hint(session: Session, state: Pending, deals: int = HINT_DEALS, hands: int = BLIND_HANDS) -> str:
    """The hint at "Bid Blind Nil before looking at your cards?": Blind Nil against looking.

    The seat has seen no card, so the hint samples ``hands`` hands it might hold and plays
    each through the `bid` odds (the table as it stands: earlier bids, scores) on
    ``deals / hands`` deals: Blind Nil against the best bid after looking at that hand. The
    difference is paired by hand and deal; its interval comes from the spread over hands.
    """
    import numpy as np

    from simcards.experiment.odds import odds

    adapter, variant = session.adapter, session.variant
    deck = adapter.blind_deck(variant)
    size = len(deck) // session.game.seats(variant)
    rng = np.random.default_rng([int(session.seed), int(state.seat), 0xB11D])  # the same hint every time
    per_hand = max(1, deals // hands)
    rows = []
    for _ in range(hands):
        hand = sorted(rng.choice(deck, size, replace=False).tolist())
        result = odds(session.game, "bid", adapter.blind_request(state, variant, hand), setup=_setup(session),
                      seed=session.seed, deals=per_hand)
        values = adapter.blind_values(result)
        if values is None:
            return "No hint: Blind Nil is not an option here."
        rows.append(values)
    bn, made, look = (np.array(col) for col in zip(*rows))
    diff = bn - look
    half = 1.96 * diff.std(ddof=1) / np.sqrt(len(diff))
    verdict = ("bid Blind Nil" if diff.mean() - half > 0 else "look at your cards" if diff.mean() + half < 0
               else "no clear difference")
    return "\n".join([
        f"Blind Nil or look? {hands} hands you might hold, {per_hand * hands:,} deals, these bots:",
        f"  Blind Nil made in {made.mean():.0%} of the deals",
        f"  team points this hand: Blind Nil {bn.mean():+.1f}, looking and bidding best {look.mean():+.1f}",
        f"  Blind Nil minus looking: {diff.mean():+.1f} [{diff.mean() - half:+.1f}, {diff.mean() + half:+.1f}] "
        f"(95 %): {verdict}",
    ])


def fit_columns(frame, width: int = WIDTH) -> tuple[str, list[str]]:
    """``frame`` as text within ``width`` columns, and the names of the columns left out.

    Empty columns go first. Then columns are taken in order of use to a player deciding, as
    many as fit: the option itself, ``recommended``, points (the score, with its interval),
    the rates of making it, then the rest; they are shown in the table's own order.
    """
    blank = [c for c in frame.columns if frame[c].astype(str).str.strip().isin(["", "nan", "None"]).all()]
    kept = frame.drop(columns=blank)
    cols = list(kept.columns)

    def rank(c: str) -> tuple:
        name = str(c).lower()
        order = (0 if c == cols[0] else 1 if name == "recommended" else 2 if "points" in name
                 else 3 if name.startswith("p(") else 4)
        return order, cols.index(c)

    chosen: list = []
    for c in sorted(cols, key=rank):
        trial = [x for x in cols if x in chosen or x == c]
        if not chosen or max(map(len, kept[trial].to_string(index=False).splitlines())) <= width:
            chosen.append(c)
    shown = [c for c in cols if c in chosen]
    return kept[shown].to_string(index=False), [str(c) for c in cols if c not in chosen]


class Terminal:
    """The screen and the prompt; ``read`` and ``console`` are replaceable for tests."""

    def __init__(self, session: Session, *, save: str | Path | None = None, read: Callable[[str], str] = input,
                 console=None):
        from rich.console import Console

        self.s = session
        self.save = save
        self.read = read
        self.console = console or Console(highlight=False, soft_wrap=True, emoji=False)
        self.notice = ""

    def say(self, text: str = "") -> None:
        self.console.print(text, markup=False)

    def header(self) -> str:
        s = self.s
        changed = s.variant.changed()
        rules = ("  (" + ", ".join(f"{k}={v}" for k, v in changed.items()) + ")") if changed else ""
        return (f"{s.game.title}, seed {s.seed}, {s.unit} {s.index}{rules}   [simcards play]\n"
                f"You: {s.names[s.seat]} (seat {s.seat}); bots: " +
                ", ".join(f"{s.names[i]} {p}" for i, p in enumerate(s.specs) if i != s.seat))

    def recent(self) -> list[str]:
        """History lines since the person's last move (what the bots did meanwhile)."""
        log = self.s.history()
        own = [i for i, e in enumerate(log) if e.seat == self.s.seat]
        start = own[-1] + 1 if own else 0
        return self.lines(log[start:])

    def lines(self, entries) -> list[str]:
        """History lines of log entries (the adapter leaves out the silent ones: a pass, a wait)."""
        return [x for x in (self.s.adapter.describe(e, self.s.variant, self.s.names) for e in entries) if x]

    def draw(self, state: Pending) -> None:
        s = self.s
        if self.console.is_terminal:
            self.console.clear()
        self.say(self.header())
        self.say("")
        recent = self.recent()
        if recent:
            self.say("Since your last move: " + "; ".join(recent[-16:]))
        self.say(s.adapter.screen(state, s.variant, s.names))
        choices = s.adapter.choices(state, s.variant)
        if choices.moves and not choices.numbered:
            self.say("Legal: " + " ".join(m.label for m in choices.moves))
        elif choices.moves:
            width = max(len(m.label) for m in choices.moves) + 5
            cells = [f"{i + 1:>2}) {m.label}".ljust(width) for i, m in enumerate(choices.moves)]
            per_line = max(1, 78 // max(width, 1)) if width < 30 else 1
            self.say("Moves:")
            for k in range(0, len(cells), per_line):
                self.say("  " + " ".join(cells[k:k + per_line]).rstrip())
        self.say(HELP)
        if self.notice:
            self.say(self.notice)
            self.notice = ""
        self.prompt = choices.prompt or "Your move:"
        self.choices = choices

    def progress(self, done: int, total: int) -> None:
        """A progress line while card hints play their worlds (on a terminal only)."""
        if self.console.is_terminal and done % 10 == 0 and done < total:
            self.console.print(f"  {done} of {total} worlds played", end="\r", markup=False)

    def ask(self, prompt: str) -> str | None:
        settle()  # a compile's counter line ends before the prompt, never after it
        try:
            return self.read(prompt + " > ")
        except EOFError:
            return None

    def do_save(self, target: str | None) -> None:
        path = target or self.save
        if not path:
            self.notice = "! name a file: s game.json (or start with --save game.json)"
            return
        save_session(self.s, path)
        self.save = path
        self.notice = f"saved to {path}"

    def run(self) -> Finished | None:
        """Play until the record ends or the person quits; returns the end, or None on quit."""
        state = self.s.advance()
        while True:
            if isinstance(state, Finished):
                self.say("")
                self.say(self.s.replay_text())
                if self.save:
                    save_session(self.s, self.save)
                    self.say(f"saved to {self.save}")
                text = self.ask("Over. u takes back your last move; Enter quits:")
                if text is not None and text.strip().lower() == "u" and self.s.undo():
                    state = self.s.advance()
                    continue
                return state
            self.draw(state)
            while True:
                text = self.ask(self.prompt)
                if text is None or text.strip().lower() in ("q", "quit"):
                    if self.save:
                        save_session(self.s, self.save)
                        self.say(f"saved to {self.save}")
                    return None
                t = text.strip()
                low = t.lower()
                if not t:
                    continue
                if t == "?":
                    self.say("thinking ...")
                    self.say(hints(self.s, state, progress=self.progress))
                    continue
                if low == "h":
                    lines = self.lines(self.s.history())
                    self.say("History:\n" + ("\n".join(f"  {i + 1:3}. {x}" for i, x in enumerate(lines)) or "  (none)"))
                    continue
                if low == "u":
                    if self.s.undo():
                        state = self.s.advance()
                        self.notice = "took back your last move"
                        break
                    self.say("! nothing to take back")
                    continue
                if low == "s" or low.startswith("s "):
                    self.do_save(t[2:].strip() or None)
                    self.say(self.notice)
                    self.notice = ""
                    continue
                try:
                    value = match_move(t, self.choices)
                    state = self.s.play(value)
                except SimcardsError as exc:
                    self.say(f"! {exc}")
                    continue
                break


def play(game: str, *, load: str | Path | None = None, save: str | Path | None = None, **options) -> None:
    """``simcards play``: a new session (``options`` as :func:`new_session`) or a loaded one."""
    session = load_session(load) if load else new_session(game, **options)
    Terminal(session, save=save).run()
