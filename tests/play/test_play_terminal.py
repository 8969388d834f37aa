"""`simcards play` driven through a pseudo-terminal (pexpect), as a person would type.

Each test plays one whole record by sending keys to the real program, including an
illegal entry (a one-line reason and a new prompt, no crash) and a hint request, and
reads the screen (in Spades a card hint too). Every prompt ends with " > "; moves are picked by their list number.
"""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parents[2]
PROMPT = r" > $"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def spawn(*args: str, cwd: Path | None = None):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
               COLUMNS="110", LINES="50", TERM="xterm")
    child = pexpect.spawn(sys.executable, ["-m", "simcards.cli", "play", *args], env=env, encoding="utf-8",
                          timeout=240, dimensions=(50, 110), cwd=str(cwd or ROOT))
    child.screen = []  # everything read, for the final checks
    return child


def expect(child, pattern=PROMPT) -> str:
    """Wait for ``pattern``; return the screen text read since the last call (escape codes removed)."""
    child.expect(pattern)
    text = ANSI.sub("", child.before + (child.after if isinstance(child.after, str) else ""))
    child.screen.append(text)
    return text


def play_out(child, first: str, limit: int = 400) -> str:
    """Answer ``first`` already on screen, then "1" to every prompt until the record is over."""
    text = first
    for _ in range(limit):
        if "Over. u takes back" in text:
            child.sendline("")
            child.expect(pexpect.EOF)
            return "".join(child.screen) + ANSI.sub("", child.before)
        child.sendline("1")
        text = expect(child)
    raise AssertionError("the record did not end")


def test_spades_hand_through_a_terminal(tmp_path):
    save = tmp_path / "hand.json"
    child = spawn("spades", "--seat", "S", "--seed", "1", "--save", str(save))
    screen = expect(child)
    assert "Bid Blind Nil before looking at your cards?" in screen
    assert "You: South (seat 2)" in screen and "Bids:   North 3  East 2  South -  West -" in screen
    child.sendline("look")
    screen = expect(child)
    assert "Your hand (South): S: K 5  H: K Q T 9  D: Q T  C: K J 7 6 3" in screen  # deal 0 of seed 1
    child.sendline("ZZ")
    assert "! 'ZZ' is not a legal move here (legal: Nil, 1, 2" in expect(child)
    child.sendline("?")
    hint = expect(child)
    assert "`simcards bid` for your hand" in hint and "2,000 deals" in hint
    block = hint[hint.index("`simcards bid` for your hand"):].split("\n\n")[0]  # the hint, not the screen after it
    assert max(len(line.rstrip()) for line in block.splitlines()) <= 80  # fits an 80-column terminal
    assert "team points" in block and "recommended" in block and len(block.splitlines()) >= 10
    child.sendline("3")
    screen = expect(child)
    assert "Your card:" in screen and "South 3" in screen and "Moves:" in screen
    child.sendline("?")  # card hints: one row per legal card, the best marked
    hint = expect(child)
    assert "Card hints: each legal card played on the same" in hint and "sampled worlds" in hint
    legal = re.findall(r"\s\d+\) (\S+)", screen.split("Moves:")[1].split("?: hints")[0])
    rows = [line.split() for line in hint.splitlines() if line.split()[:1] and line.split()[0] in legal]
    assert sorted(r[0] for r in rows) == sorted(legal) and sum(r[1] == "*" for r in rows) == 1
    assert "DD cost skipped" in hint and "Your card:" in hint
    child.sendline("AS")  # South holds no AS (North does)
    assert "! 'AS' is not a legal move here" in expect(child)
    child.sendline("h")
    history = expect(child)
    assert "History:" in history and "South bids 3" in history and "North bids 3" in history
    out = play_out(child, history)
    assert "Tricks won: North" in out and "NS: contract" in out and "EW: contract" in out
    assert f"saved to {save}" in out
    assert save.exists()


def test_seep_deal_through_a_terminal():
    child = spawn("seep", "--seat", "0", "--seed", "1")
    screen = expect(child)
    assert "Your bid (a house value you hold):" in screen and "Dealer P3, bidder P0" in screen
    child.sendline("8")
    assert "! '8' is not a legal move here" in expect(child)
    bid = re.search(r"Legal: (\d+)", screen).group(1)  # the house values held, unnumbered
    child.sendline("?")
    assert "`simcards bid` for your hand" in expect(child)
    child.sendline(bid)
    screen = expect(child)
    assert "Floor:" in screen and "Your hand (P0):" in screen
    child.sendline("99")
    assert "! no move number 99" in expect(child)
    out = play_out(child, screen)
    assert "Card points A" in out and "deal score A" in out


def test_contract_rummy_deal_through_a_terminal():
    child = spawn("contract-rummy", "--seat", "1", "--seed", "2", "--deal", "0")
    screen = expect(child)
    assert "Deal 1: contract 2 set(s) + 0 run(s)" in screen and "Your hand (P1, 10 cards)" in screen
    child.sendline("?")
    screen = expect(child)
    assert "thinking" in screen
    child.sendline("0")
    assert "! no move number 0" in expect(child)
    out = play_out(child, screen)
    assert "penalty points" in out
