"""Deals in and out as PBN (Portable Bridge Notation 2.1), the text format card players use.

Plain Python, no numba: a deal of four 13-card hands (seats 0..3 are North, East, South,
West; cards are ``simcards.core.cards`` numbers, 0..51, no jokers) written as a PBN game::

    [Event "simcards spades, seed 7"]
    [Site "simcards"]
    [Date "????.??.??"]
    [Board "123"]
    ...
    [Dealer "W"]
    [Vulnerable "None"]
    [Deal "N:AK73.Q95.J2.T842 ..."]

and read back from any PBN file (export or import format: ``%`` lines, ``;`` and ``{}``
comments, ``#`` for "the previous game's value", sections after a tag). What is supported:
four seats and the 52 ordinary cards, so Spades (without jokers), Kierki and Cutthroat with
four players and no jokers; other tables are refused with one line (``PbnError``).

No ``[Play]`` section is written: PBN takes the trump suit of the play from the bridge
``[Contract]``, which Spades and Kierki do not have; what the bots bid and took goes in
a ``{...}`` comment instead, which readers skip.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from simcards.core.errors import SimcardsError

SEATS = "NESW"  # seat s of a four-seat game is SEATS[s]
SUITS = "CDHS"  # suit numbers of simcards.core.cards; PBN writes a hand spades first
RANKS = "23456789TJQKA"
FULL_DECK = (1 << 52) - 1
VULNERABLE = {"none": "None", "love": "None", "-": "None", "ns": "NS", "ew": "EW", "all": "All", "both": "All"}
TAG_ORDER = ("Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer", "Vulnerable", "Deal",
             "Scoring", "Declarer", "Contract", "Result")  # PBN 2.1's mandatory tag set, in export order


class PbnError(SimcardsError):
    """A PBN file or deal we cannot read (one line, exit status 2)."""


@dataclass
class PbnGame:
    """One game (board) of a PBN file: its tags in file order and its hands."""

    tags: dict[str, str]
    hands: list[int | None]  # per seat N, E, S, W: a card mask, or None where the deal leaves it out ("-")
    line: int = 0  # line of the file where the game starts, for messages

    @property
    def board(self) -> str:
        return self.tags.get("Board", "")

    @property
    def dealer(self) -> int | None:
        """The dealer's seat (0..3), or None when the file does not say."""
        d = self.tags.get("Dealer", "").strip().upper()[:1]
        return SEATS.index(d) if d and d in SEATS else None

    def name(self) -> str:
        return f"board {self.board}" if self.board else f"the game at line {self.line}"


# ----------------------------------------------------------------------------- writing

def card_text(c: int) -> str:
    """``SA``, ``HT``, ``C2``: PBN's card (suit, then rank)."""
    return SUITS[c // 13] + RANKS[c % 13]


def hand_text(mask: int) -> str:
    """A hand as PBN writes it: ``AK73.Q95.J2.T842`` (spades, hearts, diamonds, clubs)."""
    mask = int(mask)
    if mask & ~FULL_DECK:
        raise PbnError("PBN has no jokers: this deal holds one (play without jokers to export it)")
    return ".".join("".join(RANKS[r] for r in range(12, -1, -1) if mask >> (13 * s + r) & 1) for s in (3, 2, 1, 0))


def deal_text(hands, first: int = 0) -> str:
    """The ``[Deal]`` value: ``N:<north> <east> <south> <west>`` (from seat ``first``, clockwise);
    a hand given as None is written ``-`` (unknown)."""
    if len(hands) != 4:
        raise PbnError(f"PBN writes four hands (North, East, South, West); this deal has {len(hands)} "
                       "(PBN export covers four-seat games)")
    seen = 0
    for h in hands:
        if h is not None:
            if int(h) & seen:
                raise PbnError("a card is in two hands")
            seen |= int(h)
    order = [(first + i) % 4 for i in range(4)]
    return SEATS[first] + ":" + " ".join("-" if hands[s] is None else hand_text(hands[s]) for s in order)


def _quote(value) -> str:
    return str(value).replace("\\", "\\\\").replace('"', '\\"')


def game_text(hands, *, dealer: int | None = None, board="", event: str = "", site: str = "simcards",
              players=("", "", "", ""), comments=(), extra: dict | None = None) -> str:
    """One PBN game (export format: PBN 2.1's mandatory tags in their order, then ``extra`` tags).

    ``hands``: four card masks (None: an unknown hand); ``players``: a name per seat N, E, S, W
    (e.g. the policy that played it); ``comments``: lines written as ``{...}`` comments after
    the tags (what happened: bids, tricks; readers skip them).
    """
    deal = deal_text(hands, dealer if dealer is not None else 0)
    tags = {"Event": event, "Site": site, "Date": "????.??.??", "Board": str(board),
            "West": players[3], "North": players[0], "East": players[1], "South": players[2],
            "Dealer": SEATS[dealer] if dealer is not None else "?", "Vulnerable": "None", "Deal": deal,
            "Scoring": "", "Declarer": "?", "Contract": "?", "Result": "?"}
    lines = [f'[{k} "{_quote(tags[k])}"]' for k in TAG_ORDER]
    lines += [f'[{k} "{_quote(v)}"]' for k, v in (extra or {}).items()]
    lines += ["{" + c.replace("}", ")") + "}" for c in comments]
    return "\n".join(lines) + "\n"


def file_text(games) -> str:
    """A PBN file of game texts (from :func:`game_text`): the version line, games separated by a blank line."""
    return "% PBN 2.1\n% EXPORT\n%\n" + "\n".join(games)


# ----------------------------------------------------------------------------- reading

def parse_hand(text: str) -> int | None:
    """``AK73.Q95.J2.T842`` (spades first; ``10`` for ten is taken too) as a card mask;
    ``-`` (an unknown hand) as None."""
    t = text.strip()
    if t in ("-", ""):
        return None
    suits = t.split(".")
    if len(suits) != 4:
        raise PbnError(f"a PBN hand has four suits separated by dots (spades.hearts.diamonds.clubs), got {text!r}")
    mask = 0
    for suit, ranks in zip((3, 2, 1, 0), suits):
        ranks = ranks.upper().replace("10", "T")
        for r in ranks:
            if r not in RANKS:
                raise PbnError(f"unknown rank {r!r} in PBN hand {text!r} (ranks are AKQJT98765432)")
            bit = 1 << (13 * suit + RANKS.index(r))
            if mask & bit:
                raise PbnError(f"card {SUITS[suit]}{r} written twice in PBN hand {text!r}")
            mask |= bit
    return mask


def parse_deal(text: str) -> list[int | None]:
    """A ``[Deal]`` value (``N:... ... ... ...``; the first letter names the first hand's seat,
    the others follow clockwise) as four masks in seat order N, E, S, W (None: unknown)."""
    t = text.strip()
    m = re.match(r"^([NESWnesw])\s*:\s*(.*)$", t, re.S)
    if not m:
        raise PbnError(f"a PBN deal starts with the first hand's seat and a colon, e.g. \"N:AK73.Q95.J2.T842 ...\"; "
                       f"got {text!r}")
    parts = m.group(2).split()
    if len(parts) != 4:
        raise PbnError(f"a PBN deal has four hands (write '-' for an unknown one), got {len(parts)} in {text!r}")
    first = SEATS.index(m.group(1).upper())
    hands: list[int | None] = [None] * 4
    seen = 0
    for i, part in enumerate(parts):
        h = parse_hand(part)
        if h is not None:
            if h & seen:
                dup = [card_text(c) for c in range(52) if (h & seen) >> c & 1]
                raise PbnError(f"{' '.join(dup)} in two hands of deal {text!r}")
            seen |= h
        hands[(first + i) % 4] = h
    return hands


_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')


def _strip_comments(text: str) -> list[tuple[int, str, bool]]:
    """(line number, the line without comments, whether it is blank: a game's end) per line
    (an escape line ``%...`` holds nothing and ends nothing, nor does a line of a comment)."""
    out = []
    in_brace = False
    for number, line in enumerate(text.splitlines(), 1):
        blank = not in_brace and not line.strip()
        if not in_brace and line.startswith("%"):
            out.append((number, "", False))
            continue
        kept = []
        i = 0
        in_string = False
        while i < len(line):
            ch = line[i]
            if in_brace:
                if ch == "}":
                    in_brace = False
            elif in_string:
                kept.append(ch)
                if ch == "\\" and i + 1 < len(line):
                    kept.append(line[i + 1])
                    i += 1
                elif ch == '"':
                    in_string = False
            elif ch == '"':
                in_string = True
                kept.append(ch)
            elif ch == "{":
                in_brace = True
            elif ch == ";":
                break
            else:
                kept.append(ch)
            i += 1
        out.append((number, "".join(kept), blank))
    return out


def _unquote(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def read(text: str, source: str = "PBN") -> list[PbnGame]:
    """Every game of a PBN text, in order. A game starts with its first tag after a blank line
    (or at the file's start); ``#`` as a tag's value repeats the previous game's value."""
    games: list[PbnGame] = []
    tags: dict[str, str] = {}
    start = 0
    previous: dict[str, str] = {}

    def close():
        nonlocal tags, previous
        if tags:
            game = PbnGame(tags, [None] * 4, start)
            if "Deal" in tags:
                try:
                    game.hands = parse_deal(tags["Deal"])
                except PbnError as exc:
                    raise PbnError(f"{source}, {game.name()}: {exc}") from None
            games.append(game)
            previous = tags
        tags = {}

    for number, line, blank in _strip_comments(text):
        if blank:
            close()
            continue
        for m in _TAG.finditer(line):  # other text is a section's data (auction, play, tables): skipped
            name, value = m.group(1), _unquote(m.group(2))
            if not tags:
                start = number
            if value == "#":
                value = previous.get(name, "")
            if name in tags and name != "Note":
                close()  # a repeated tag starts the next game (files without blank lines between games)
                start = number
            tags[name] = value
    close()
    return games


def read_file(path) -> list[PbnGame]:
    """The games of PBN file ``path``; a file we cannot read, or one without a game, is a PbnError."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        text = p.read_bytes().decode("latin-1")  # PBN 2.1 files are ISO-8859-1
    except OSError as exc:
        raise PbnError(f"cannot read {p}: {exc.strerror or exc}") from None
    games = read(text, str(p))
    if not games:
        raise PbnError(f"{p} holds no PBN game (tags such as [Deal \"N:...\"])")
    return games


def pick(games: list[PbnGame], board=None, source: str = "the PBN file") -> PbnGame:
    """The game whose ``[Board]`` is ``board`` (when None: the first game with a deal)."""
    if board is None:
        return next((g for g in games if "Deal" in g.tags), games[0])
    want = str(board).strip()
    for g in games:
        if g.board.strip() == want:
            return g
    boards = [g.board for g in games if g.board]
    shown = ", ".join(boards[:8]) + (", ..." if len(boards) > 8 else "")
    raise PbnError(f"{source} has no board {want} (boards: {shown or 'none numbered'})")


def require_deal(game: PbnGame, source: str = "the PBN file") -> None:
    """Refuse, with one line, a game that has no ``[Deal]``."""
    if "Deal" not in game.tags:
        raise PbnError(f"{source}, {game.name()}: no [Deal] tag")


def full_deal(game: PbnGame, source: str = "the PBN file") -> list[int]:
    """The four hands of ``game``, all present and of one size (a deal, or an ending)."""
    require_deal(game, source)
    if any(h is None for h in game.hands):
        missing = ", ".join(SEATS[s] for s in range(4) if game.hands[s] is None)
        raise PbnError(f"{source}, {game.name()}: the deal leaves out {missing}; double dummy needs all four hands")
    sizes = {bin(h).count("1") for h in game.hands}
    if len(sizes) != 1 or 0 in sizes:
        raise PbnError(f"{source}, {game.name()}: the hands hold different numbers of cards "
                       f"({', '.join(str(bin(h).count('1')) for h in game.hands)})")
    return list(game.hands)  # type: ignore[arg-type]


def seat_hand(game: PbnGame, seat: int, source: str = "the PBN file") -> int:
    """The hand of ``seat`` (0..3) in ``game``."""
    require_deal(game, source)
    h = game.hands[seat]
    if h is None:
        raise PbnError(f"{source}, {game.name()}: the deal leaves out {SEATS[seat]}'s hand")
    return h


def cards_text(mask: int) -> str:
    """A mask as simcards' card list (``AS KS 7S ... 2C``), for ``--hand``-style inputs."""
    return " ".join(RANKS[c % 13] + SUITS[c // 13] for c in range(51, -1, -1) if mask >> c & 1)
