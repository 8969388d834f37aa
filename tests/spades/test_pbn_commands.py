"""PBN through the commands: `replay --format pbn` and `run --pbn` write deals that endplay reads
back unchanged (the hands the bots played); `dd --pbn` and `bid --pbn` read them; bad files and
tables PBN cannot hold get one line and exit status 2."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from simcards.cli import main
from simcards.core import pbn
from simcards.core.game import get_game
from simcards.core.policy import seat_policies
from simcards.games.spades import dd as sdd

endplay_pbn = pytest.importorskip("endplay.parsers.pbn")
GAME = get_game("spades")


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def one_error(r) -> str:
    """The one line of a refusal: nothing on stdout, one ``error:`` line on stderr (a compile
    notice may come before it on a cold cache)."""
    errors = [ln for ln in r.stderr.splitlines() if ln.startswith("error:")]
    assert not r.stdout and len(errors) == 1, r.output
    return errors[0]


def endplay_masks(deal) -> list[int]:
    """endplay's hands N, E, S, W as our card masks (endplay: suit 0 = spades, rank R2 = 1 << 2)."""
    from endplay.types import Player

    out = []
    for player in (Player.north, Player.east, Player.south, Player.west):
        out.append(sum(1 << (13 * (3 - int(c.suit)) + int(c.rank).bit_length() - 3) for c in deal[player]))
    return out


def played(seed: int, index: int) -> dict:
    v = GAME.variant()
    return sdd.played_deal(v, GAME.policies.table(seat_policies("expert", None, 4)), seed, index)


def test_replay_format_pbn_is_the_played_deal_and_endplay_reads_it_unchanged():
    r = invoke("replay", "spades", "--seed", 7, "--deal", 123, "--format", "pbn")
    assert r.exit_code == 0, r.output
    board, = endplay_pbn.loads(r.stdout)
    deal = played(7, 123)
    assert endplay_masks(board.deal) == deal["hands"]
    assert board.board_num == 123
    game, = pbn.read(r.stdout)
    assert game.hands == deal["hands"] and game.dealer == deal["dealer"]
    assert game.tags["Event"] == "simcards spades, seed 7" and game.tags["North"] == GAME.default_policy  # fitted


def test_run_pbn_writes_every_deal_of_the_run(tmp_path):
    out, path = tmp_path / "run", tmp_path / "deals.pbn"
    r = invoke("run", "spades", "--deals", 50, "--seed", 3, "--threads", 1, "--out", out, "--pbn", path, "--quiet")
    assert r.exit_code == 0, r.output
    assert f"deals (PBN): {path}" in r.stdout
    boards = endplay_pbn.loads(path.read_text())
    assert [b.board_num for b in boards] == list(range(50))
    for i, b in enumerate(boards):
        assert endplay_masks(b.deal) == played(3, i)["hands"], i
    assert [g.dealer for g in pbn.read_file(path)] == [played(3, i)["dealer"] for i in range(50)]


def test_run_pbn_refuses_before_running_what_it_cannot_write(tmp_path):
    r = invoke("run", "spades", "--games", 5, "--pbn", tmp_path / "x.pbn", "--out", tmp_path / "run")
    assert r.exit_code == 2 and one_error(r) == "error: --pbn writes deals: use --unit deal (--deals N), not game"
    assert not (tmp_path / "run").exists()
    r = invoke("run", "cutthroat", "--players", 3, "--deals", 5, "--pbn", tmp_path / "x.pbn", "--out", tmp_path / "r")
    assert r.exit_code == 2 and "PBN holds four hands" in one_error(r)


ENDING = ('[Board "1"]\n[Deal "N:A... KQ... - -"]\n\n'  # a board with unknown hands comes first
          '[Board "2"]\n[Dealer "W"]\n[Deal "N:A.2.. .KQ.. ..A.3 ...AT"]\n')


def test_dd_pbn_analyses_the_board_as_dd_hand_does(tmp_path):
    path = tmp_path / "ending.pbn"
    path.write_text(ENDING)
    r = invoke("dd", "spades", "--pbn", path, "--board", 2)
    assert r.exit_code == 0, r.output
    given = invoke("dd", "spades", "--hand", "AS 2H / KH QH / AD 3C / AC TC")
    assert given.exit_code == 0, given.output
    assert r.stdout.splitlines() == [f"{path}, board 2"] + given.stdout.splitlines()
    r = invoke("dd", "spades", "--pbn", path, "--board", 1)
    assert r.exit_code == 2 and "leaves out S, W" in one_error(r)
    r = invoke("dd", "spades", "--pbn", path)  # the first board with a deal: board 1, which lacks hands
    assert r.exit_code == 2


def test_bid_pbn_takes_the_seat_s_hand_and_the_dealer(tmp_path):
    deal = played(7, 123)
    path = tmp_path / "deal.pbn"
    path.write_text(invoke("replay", "spades", "--seed", 7, "--deal", 123, "--format", "pbn").stdout)
    seat = (deal["dealer"] + 1) % 4  # the first to bid
    common = ["--seat", "NESW"[seat], "--deals", 300, "--threads", 1, "--quiet", "--format", "csv"]
    r = invoke("bid", "spades", "--pbn", path, *common)
    assert r.exit_code == 0, r.output
    hand = pbn.cards_text(deal["hands"][seat])
    given = invoke("bid", "spades", "--hand", hand, "--dealer", "NESW"[deal["dealer"]], *common)
    assert given.exit_code == 0, given.output
    table = r.stdout.splitlines()  # csv: the table alone on stdout
    assert table == given.stdout.splitlines()
    assert len(table) > 5


WHOLE = "A98.T9875.92.973 42.QJ643.KQ43.J6 .K2.T865.AKQT852 KQJT7653.A.AJ7.4"  # deal 0 of seed 7


def replay_lines(text: str) -> list[str]:
    """A replay without its heading (which names the seed and deal, or the file)."""
    return text.splitlines()[1:]


@pytest.mark.parametrize("seed", [7, 11])
@pytest.mark.parametrize("dd", [False, True])
def test_replay_pbn_plays_the_file_s_deal_as_the_bots_play_the_simulated_one(tmp_path, seed, dd):
    """Deal 0 of a seed written as PBN and played again with that seed: the same dealer, hands,
    bids, tricks and score (the bots draw from the seed's streams, not from the deal)."""
    path = tmp_path / "deal.pbn"
    path.write_text(invoke("replay", "spades", "--seed", seed, "--deal", 0, "--format", "pbn").stdout)
    extra = ["--dd", "--from-trick", 9] if dd else []
    r = invoke("replay", "spades", "--pbn", path, "--seed", seed, *extra)
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[0] == f"Spades (partnership), {path}, board 0"
    simulated = invoke("replay", "spades", "--seed", seed, "--deal", 0, *extra)
    assert replay_lines(r.stdout) == replay_lines(simulated.stdout)
    assert ("Double dummy" in r.stdout) == dd


@pytest.mark.parametrize("dd", [False, True])
def test_cutthroat_replay_pbn_plays_the_file_s_deal_as_the_simulated_one(tmp_path, dd):
    """Four players: deal 0 of seed 2 written as PBN and played again with seed 2 bids, plays and
    scores as it did (the replay's own heading line aside)."""
    path = tmp_path / "deal.pbn"
    common = ["--players", 4, "--seed", 2]
    path.write_text(invoke("replay", "cutthroat", *common, "--deal", 0, "--format", "pbn").stdout)
    extra = ["--dd", "--from-trick", 9] if dd else []
    r = invoke("replay", "cutthroat", *common, "--pbn", path, *extra)
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[0] == f"Cutthroat Spades, {path}, board 0  (num_players=4)"
    simulated = invoke("replay", "cutthroat", *common, "--deal", 0, *extra)
    assert r.stdout.splitlines()[1:] == simulated.stdout.splitlines()
    assert ("Double dummy" in r.stdout) == dd


def test_replay_pbn_deals_the_hands_the_file_leaves_out_from_the_seed(tmp_path):
    path = tmp_path / "north.pbn"
    north = WHOLE.split()[0]
    path.write_text(f'[Board "5"]\n[Dealer "E"]\n[Deal "N:{north} - - -"]\n')
    r = invoke("replay", "spades", "--pbn", path, "--seed", 3)
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0] == f"Spades (partnership), {path}, board 5 (E, S, W dealt from seed 3)"
    assert lines[1].startswith("Dealer: East (1)")
    hands = [pbn.parse_hand(ln.split(maxsplit=1)[1].replace("S: ", "").replace("  H: ", ".").replace("  D: ", ".")
                            .replace("  C: ", ".").replace(" ", "").replace("-", "")) for ln in lines[3:7]]
    assert hands[0] == pbn.parse_hand(north)
    assert sum(hands) == (1 << 52) - 1 and all(bin(h).count("1") == 13 for h in hands)
    assert invoke("replay", "spades", "--pbn", path, "--seed", 3).stdout == r.stdout  # the seed decides
    assert invoke("replay", "spades", "--pbn", path, "--seed", 4).stdout != r.stdout


def test_bid_pbn_known_takes_the_other_hands_the_file_shows_as_known_cards(tmp_path):
    """East shown holding KS and QS: with --known no deal gives partner or West those spades, so
    every option's odds move; the same as --require E:has=AS,KS."""
    north = WHOLE.split()[0]
    path = tmp_path / "shown.pbn"
    path.write_text(f'[Dealer "W"]\n[Deal "N:{north} KQ... - -"]\n')
    common = ["--seat", "N", "--deals", 300, "--threads", 1, "--quiet", "--format", "csv"]
    known = invoke("bid", "spades", "--pbn", path, "--known", *common)
    assert known.exit_code == 0, known.output
    required = invoke("bid", "spades", "--pbn", path, "--require", "E:has=KS,QS", *common)
    plain = invoke("bid", "spades", "--pbn", path, *common)
    assert known.stdout == required.stdout
    assert known.stdout != plain.stdout


@pytest.mark.parametrize("args, message", [
    (["dd", "spades", "--pbn", "{missing}"], "error: cannot read"),
    (["dd", "spades", "--pbn", "{bad}"], "error: {bad}, board 4: unknown rank 'X'"),
    (["dd", "spades", "--pbn", "{good}", "--board", "9"], "error: {good} has no board 9 (boards: 1, 2)"),
    (["dd", "spades", "--pbn", "{good}", "--deal", "3"], "error: name one deal"),
    (["dd", "spades", "--board", "2", "--deal", "3"], "error: --board picks a board of --pbn FILE"),
    (["bid", "spades", "--seat", "N", "--hand", "AS", "--known"], "error: --board and --known read a board of --pbn"),
    (["bid", "spades", "--pbn", "{good}"], "error: --pbn needs --seat"),
    (["bid", "spades", "--pbn", "{good}", "--seat", "S", "--board", "1"], "error: {good}, board 1: the deal leaves out S's hand"),
    (["bid", "spades", "--pbn", "{good}", "--seat", "N", "--hand", "AS"], "error: give --hand or --pbn, not both"),
    (["replay", "spades", "--game", "1", "--format", "pbn"], "error: --format pbn writes one deal"),
    (["replay", "seep", "--deal", "1", "--format", "pbn"], "error: seep has no PBN deals"),
    (["replay", "spades", "--pbn", "{good}", "--deal", "3"], "error: --pbn replays the file's deal: drop --deal"),
    (["replay", "spades", "--pbn", "{good}", "--board", "2"], "error: {good}, board 2: replay plays a whole deal, "
                                                              "hands of 13 cards (N 2, E 2, S 2, W 2)"),
    (["replay", "spades", "--pbn", "{good}", "--format", "pbn"], "error: --pbn replays a deal read from a PBN file"),
    (["replay", "spades", "--deal", "3", "--board", "2"], "error: --board picks a board of --pbn FILE"),
    (["replay", "kierki", "--pbn", "{good}"], "error: replay --pbn plays a given deal in spades and cutthroat; kierki"),
    (["replay", "spades", "--pbn", "{whole}", "--set", "jokers=2"], "error: the deal holds cards this Spades deck"),
    (["replay", "cutthroat", "--players", "4", "--pbn", "{north}"], "error: replay --pbn plays a whole Cutthroat deal"),
    (["replay", "cutthroat", "--players", "3", "--pbn", "{whole}"], "error: PBN holds four hands"),
])
def test_bad_input_gets_one_line_and_status_2(tmp_path, args, message):
    files = {"missing": tmp_path / "missing.pbn", "bad": tmp_path / "bad.pbn", "good": tmp_path / "good.pbn",
             "whole": tmp_path / "whole.pbn", "north": tmp_path / "north.pbn"}
    files["north"].write_text(f'[Deal "N:{WHOLE.split()[0]} - - -"]\n')
    files["bad"].write_text('[Board "4"]\n[Deal "N:AKQX.T98.765.432 - - -"]\n')
    files["whole"].write_text(f'[Deal "N:{WHOLE}"]\n')
    files["good"].write_text(ENDING)
    r = invoke(*[a.format(**files) for a in args])
    assert r.exit_code == 2, r.output
    assert one_error(r).startswith(message.format(**files)), r.output


@pytest.mark.parametrize("game, args", [("cutthroat", ["--players", "4"]), ("kierki", ["--deal-type", "trumps"])])
def test_the_other_four_seat_games_write_their_played_deals(game, args):
    """Cutthroat with four players and Kierki's trump deals: seats 0-3 are N, E, S, W."""
    r = invoke("replay", game, *args, "--seed", 2, "--deal", 4, "--format", "pbn")
    assert r.exit_code == 0, r.output
    g = get_game(game)
    v = g.variant(None, None, [f"{'num_players' if game == 'cutthroat' else 'deal_type'}={args[1]}"])
    deal = g.double_dummy.deal(v, g.policies.table(seat_policies(g.default_policy, None, 4)), 2, 4)
    board, = endplay_pbn.loads(r.stdout)
    assert endplay_masks(board.deal) == deal["hands"]
    assert pbn.read(r.stdout)[0].dealer == deal["dealer"]
