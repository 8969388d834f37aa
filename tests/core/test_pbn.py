"""PBN in and out (simcards.core.pbn): what we write, endplay reads back unchanged, and we read
what endplay writes; odd but legal files (comments, escapes, '#', unknown hands) and bad ones."""
from __future__ import annotations

import random

import pytest

from simcards.core import pbn
from simcards.core.cards import parse_cards, mask_of


def random_deal(rng: random.Random) -> list[int]:
    cards = list(range(52))
    rng.shuffle(cards)
    return [mask_of(cards[13 * s: 13 * s + 13]) for s in range(4)]


def endplay_masks(deal) -> list[int]:
    """endplay's hands N, E, S, W as our masks, card by card (endplay: suit 0 = spades, rank R2 = 1 << 2)."""
    from endplay.types import Player

    out = []
    for player in (Player.north, Player.east, Player.south, Player.west):
        m = 0
        for card in deal[player]:
            suit = 3 - int(card.suit)
            rank = int(card.rank).bit_length() - 1 - 2
            m |= 1 << (13 * suit + rank)
        out.append(m)
    return out


def test_hand_text_is_spades_first_high_to_low():
    hand = mask_of(parse_cards("AS KS 7S 4S AH QH 9H 5D 4D 3D KC TC 2C"))
    assert pbn.hand_text(hand) == "AK74.AQ9.543.KT2"
    assert pbn.parse_hand("AK74.AQ9.543.KT2") == hand
    assert pbn.parse_hand("ak74.aq9.543.k102") == hand  # lower case and 10 for ten are read too
    assert pbn.hand_text(mask_of(parse_cards("AS KS"))) == "AK..."
    assert pbn.parse_hand("-") is None


def test_deal_text_starts_at_the_given_seat_and_reads_back_in_seat_order():
    rng = random.Random(1)
    for first in range(4):
        hands = random_deal(rng)
        text = pbn.deal_text(hands, first)
        assert text.startswith("NESW"[first] + ":")
        assert text.split(":")[1].split()[0] == pbn.hand_text(hands[first])
        assert pbn.parse_deal(text) == hands


def test_endplay_reads_our_games_unchanged():
    endplay_pbn = pytest.importorskip("endplay.parsers.pbn")  # a test tool (scripts/test.sh installs it)

    rng = random.Random(7)
    deals = [random_deal(rng) for _ in range(50)]
    text = pbn.file_text([pbn.game_text(h, dealer=i % 4, board=i, event="test", players=("expert",) * 4,
                                        comments=[f"deal {i}"]) for i, h in enumerate(deals)])
    boards = endplay_pbn.loads(text)
    assert len(boards) == 50
    for i, (board, hands) in enumerate(zip(boards, deals)):
        assert board.board_num == i
        assert endplay_masks(board.deal) == hands
        assert board.info["Event"] == "test" and board.info["North"] == "expert"
    # and so do we, dealer included (endplay keeps a [Dealer] only beside a bridge contract)
    ours = pbn.read(text)
    assert [g.hands for g in ours] == deals
    assert [g.dealer for g in ours] == [i % 4 for i in range(50)]
    assert [g.board for g in ours] == [str(i) for i in range(50)]


def test_we_read_what_endplay_writes():
    endplay_pbn = pytest.importorskip("endplay.parsers.pbn")
    from endplay.types import Board, Deal, Player, Vul

    rng = random.Random(3)
    deals = [random_deal(rng) for _ in range(10)]
    boards = [Board(Deal(pbn.deal_text(h, 0)), board_num=i + 1, dealer=Player.west, vul=Vul.none)
              for i, h in enumerate(deals)]
    games = pbn.read(endplay_pbn.dumps(boards))
    assert [g.hands for g in games] == deals
    assert {g.dealer for g in games} == {3}
    assert pbn.pick(games, 4).hands == deals[3]


def test_comments_escapes_repeats_and_sections_are_read():
    text = """% PBN 2.1
% EXPORT
{ a comment
  over lines, with [Deal "N:bogus"] inside }
[Event "club night"] ; a line comment
[Board "1"]
[Dealer "E"]
[Deal "E:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]
[Auction "E"]
1S Pass 2S Pass
Pass Pass
{ a comment
between tags }
[Note "1:a note"]

[Event "#"]
[Board "2"]
[Dealer "S"]
[Deal "S:AKQJ.T98.765.432 - - -"]
"""
    first, second = pbn.read(text)
    assert first.tags["Event"] == "club night" and first.dealer == 1
    assert pbn.hand_text(first.hands[1]) == "AKQJ.T98.765.432"  # E: the first hand
    assert pbn.hand_text(first.hands[0]) == "432.AKQJ.T98.765"  # N: the fourth, clockwise
    assert second.tags["Event"] == "club night"
    assert second.hands[0] is None and pbn.hand_text(second.hands[2]) == "AKQJ.T98.765.432"
    assert pbn.seat_hand(second, 2) == second.hands[2]
    with pytest.raises(pbn.PbnError, match="leaves out N, E, W;"):
        pbn.full_deal(second)
    with pytest.raises(pbn.PbnError, match="leaves out W's hand"):
        pbn.seat_hand(second, 3)


def test_games_without_blank_lines_between_them_are_split_at_a_repeated_tag():
    text = '[Board "1"]\n[Deal "N:- - - -"]\n[Board "2"]\n[Deal "N:- - - -"]\n'
    assert [g.board for g in pbn.read(text)] == ["1", "2"]


def test_an_ending_is_a_full_deal_of_fewer_cards():
    game, = pbn.read('[Deal "N:AK... QJ... T9... 87..."]')
    assert [bin(h).count("1") for h in pbn.full_deal(game)] == [2, 2, 2, 2]


@pytest.mark.parametrize("deal, message", [
    ("AKQJ.T98.765.432 - - -", "starts with the first hand's seat"),
    ("N:AKQJ.T98.765.432 - -", "four hands"),
    ("N:AKQJ.T98.765 - - -", "four suits"),
    ("N:AKQX.T98.765.432 - - -", "unknown rank 'X'"),
    ("N:AKQJ.T98.765.4322 - - -", "written twice"),
    ("N:AKQJ.T98.765.432 A... - -", "SA in two hands"),
])
def test_bad_deals_get_one_line(deal, message):
    with pytest.raises(pbn.PbnError, match=message) as info:
        pbn.read(f'[Board "9"]\n[Deal "{deal}"]\n', "f.pbn")
    assert str(info.value).startswith("f.pbn, board 9: ") and "\n" not in str(info.value)


def test_unequal_hands_and_missing_boards_and_files(tmp_path):
    game, = pbn.read('[Deal "N:AK... QJ... T9... 8..."]')
    with pytest.raises(pbn.PbnError, match="different numbers of cards"):
        pbn.full_deal(game)
    with pytest.raises(pbn.PbnError, match=r"no board 7 \(boards: 1, 2\)"):
        pbn.pick(pbn.read('[Board "1"]\n\n[Board "2"]\n'), 7)
    with pytest.raises(pbn.PbnError, match="cannot read"):
        pbn.read_file(tmp_path / "missing.pbn")
    empty = tmp_path / "empty.pbn"
    empty.write_text("% PBN 2.1\n{ nothing }\n")
    with pytest.raises(pbn.PbnError, match="holds no PBN game"):
        pbn.read_file(empty)
    with pytest.raises(pbn.PbnError, match="no \\[Deal\\] tag"):
        pbn.full_deal(pbn.read('[Board "1"]\n')[0])


def test_what_pbn_cannot_hold_is_refused():
    with pytest.raises(pbn.PbnError, match="no jokers"):
        pbn.hand_text(1 << 54)
    with pytest.raises(pbn.PbnError, match="four hands"):
        pbn.deal_text([1, 2, 4])


def test_cards_text_is_simcards_card_notation():
    hand = pbn.parse_hand("AK74.AQ9.543.KT2")
    assert mask_of(parse_cards(pbn.cards_text(hand))) == hand
    assert pbn.cards_text(hand).split()[0] == "AS"


def test_tag_values_are_escaped():
    text = pbn.game_text(random_deal(random.Random(0)), dealer=0, board=1, event='say "hi" \\ bye')
    assert pbn.read(text)[0].tags["Event"] == 'say "hi" \\ bye'
