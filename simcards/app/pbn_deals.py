"""Simulated deals out as PBN, PBN deals in (``replay --format pbn``, ``run --pbn``, ``dd``/``bid --pbn``).

The text format is ``simcards.core.pbn``; this module joins it to the games: a deal is
regenerated from seed and index by the game's own kernel, as ``replay`` does (the
``deal`` callable of its double-dummy support), and written with the hands at the start
of play (after any exchange), the dealer, the policy of each seat as the player's name,
and what happened (first lead, tricks won) as a comment. Four-seat tables only: Spades
(without jokers), Kierki and Cutthroat with four players; seat 0..3 is N, E, S, W.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Sequence

from simcards.core import pbn
from simcards.core.errors import SimcardsError
from simcards.core.game import Game


def _support(g: Game):
    dd = g.double_dummy
    if dd is None or dd.deal is None:
        raise SimcardsError(f"{g.name} has no PBN deals (PBN is for the trick-taking games: spades, cutthroat, kierki)")
    return dd


def check_table(g: Game, variant) -> None:
    """PBN holds four hands: refuse another table with one line."""
    n = g.seats(variant)
    if n != 4:
        raise pbn.PbnError(f"PBN holds four hands (North, East, South, West); this {g.name} table has {n} seats "
                           "(use four players)")


def event_name(g: Game, variant, seed: int) -> str:
    """``simcards spades, seed 7`` and the house rules that differ from the defaults."""
    changed = ", ".join(f"{k}={v}" for k, v in variant.changed().items())
    return f"simcards {g.name}, seed {seed}" + (f" ({changed})" if changed else "")


def deal_game(g: Game, variant, table, seed: int, index: int, policies: Sequence[str] = ()) -> str:
    """Deal ``index`` of ``seed`` as one PBN game (``[Board]`` is the deal number)."""
    check_table(g, variant)
    deal = _support(g).deal(variant, table, seed, index)
    hands = [int(h) for h in deal["hands"]]
    counts = [bin(h).count("1") for h in hands]
    if len(set(counts)) != 1:
        raise pbn.PbnError(f"{g.name} deal {index}: the play does not show every card (hands of "
                           f"{', '.join(map(str, counts))} cards), so it cannot be written as PBN")
    won = [list(deal["winners"]).count(s) for s in range(4)]
    note = (f"simcards {g.name} deal {index} of seed {seed}: hands at the start of play; first lead "
            f"{pbn.SEATS[deal['leader']]}; tricks won " + ", ".join(f"{pbn.SEATS[s]} {won[s]}" for s in range(4)))
    players = tuple(policies) if len(policies) == 4 else ("", "", "", "")
    return pbn.game_text(hands, dealer=int(deal["dealer"]), board=index, event=event_name(g, variant, seed),
                         players=players, comments=[note])


def write_deals(g: Game, variant, table, seed: int, start: int, count: int, path: str | Path,
                policies: Sequence[str] = (), progress: Callable[[int], None] | None = None) -> Path:
    """Deals ``start .. start+count-1`` of ``seed`` into the PBN file ``path`` (one board each)."""
    check_table(g, variant)
    games = []
    for i in range(start, start + count):
        games.append(deal_game(g, variant, table, seed, i, policies))
        if progress is not None:
            progress(i - start + 1)
    path = Path(path)
    try:
        path.write_text(pbn.file_text(games))
    except OSError as exc:
        raise SimcardsError(f"cannot write {path}: {exc.strerror or exc}") from None
    return path


def check_run(g: Game, unit: str, variant) -> None:
    """Refuse, before it runs, a run whose records ``run --pbn`` cannot write."""
    _support(g)
    if unit != "deal":
        raise SimcardsError(f"--pbn writes deals: use --unit deal (--deals N), not {unit}")
    check_table(g, variant)


def write_run_deals(spec, path: str | Path, progress: Callable[[int], None] | None = None) -> Path:
    """The deals of a run (``run --pbn FILE``): its spec's records, which must be deals."""
    from simcards.core.game import get_game

    g = get_game(spec.game)
    variant = g.variant_type.from_mapping(spec.variant)
    check_run(g, spec.unit, variant)
    table = g.policies.table(list(spec.policies), bidding=spec.bidding or None)
    return write_deals(g, variant, table, spec.seed, spec.start, spec.count, path, spec.policies, progress)


def board(path: str | Path, number=None) -> pbn.PbnGame:
    """Board ``number`` of the PBN file ``path`` (the first with a deal by default)."""
    return pbn.pick(pbn.read_file(path), number, str(path))


def deal_hands_text(g: Game, path: str | Path, number=None) -> tuple[str, pbn.PbnGame]:
    """(the hands as ``dd --hand`` text, seat order N/E/S/W; the game) of a PBN board."""
    _support(g)
    game = board(path, number)
    hands = pbn.full_deal(game, str(path))
    return " / ".join(pbn.cards_text(h) for h in hands), game


def held_hand(path: str | Path, number, seat: str | int | None) -> tuple[str, str | None]:
    """(the cards of ``seat``'s hand as ``--hand`` text, the dealer's seat letter or None) of a PBN board."""
    from simcards.core.deal import seat_number

    if seat is None:
        raise SimcardsError("--pbn needs --seat: whose hand of the deal you hold (N/E/S/W)")
    s = seat_number(str(seat), 4)
    game = board(path, number)
    mask = pbn.seat_hand(game, s, str(path))
    dealer = game.dealer
    return pbn.cards_text(mask), (None if dealer is None else pbn.SEATS[dealer])


def check_play(g: Game):
    """The game's support for playing a given deal (``replay --pbn``), or a one-line refusal."""
    support = _support(g)
    if support.play is None:
        raise SimcardsError(f"replay --pbn plays a given deal in spades and cutthroat; {g.name} deals from the seed only "
                            f"(analyse a PBN deal with `simcards dd {g.name} --pbn FILE`)")
    return support


def known_cards(path: str | Path, number, seat: str | int) -> list[str]:
    """The other hands a PBN board gives, as ``--require SEAT:has=...`` constraints (``bid --pbn
    --known``): a hand of fewer cards is the cards known to be in that seat."""
    from simcards.core.deal import seat_number

    s = seat_number(str(seat), 4)
    game = board(path, number)
    return [f"{pbn.SEATS[o]}:has=" + ",".join(pbn.cards_text(h).split())
            for o, h in enumerate(game.hands) if o != s and h]


def replay_given(g: Game, variant, table, path: str | Path, number=None, *, seed: int = 0, dd: bool = False,
                 from_trick: int = 1) -> str:
    """``replay GAME --pbn FILE``: the bots bid and play board ``number`` of a PBN file.

    Hands the file leaves out (``-``) are dealt from ``seed``, around the ones it gives; the
    file's dealer deals (else the house rules' ``first_dealer``)."""
    support = check_play(g)
    check_table(g, variant)
    game = board(path, number)
    pbn.require_deal(game, str(path))
    given = [h or 0 for h in game.hands]
    sizes = [bin(h).count("1") for h in given]
    short = [f"{pbn.SEATS[s]} {n}" for s, n in enumerate(sizes) if 0 < n != 13]
    if short or not any(sizes):
        raise pbn.PbnError(f"{path}, {game.name()}: replay plays a whole deal, hands of 13 cards "
                           f"({', '.join(short) if short else 'no hand given'}); "
                           f"an ending is for `simcards dd {g.name} --pbn FILE`")
    changed = variant.changed()
    if game.dealer is not None:
        variant = variant.replace(first_dealer=game.dealer)
    dealt = [pbn.SEATS[s] for s in range(4) if not sizes[s]]
    title = (f"{g.title}, {path}, {game.name()}" + (f" ({', '.join(dealt)} dealt from seed {seed})" if dealt else "")
             + (f"  ({', '.join(f'{k}={v}' for k, v in changed.items())})" if changed else ""))
    return support.play(variant, table, seed, given, title, dd=dd, from_trick=from_trick)
