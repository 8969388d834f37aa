"""`?` at "Bid Blind Nil before looking at your cards?" answers that question (issue 32)."""
import re

import numpy as np

from simcards.app import play
from simcards.app.play import blind_hint, hints, new_session


def test_blind_hint_compares_blind_nil_with_looking_and_is_reproducible(monkeypatch):
    session = new_session("spades", seat=2, seed=1)
    state = session.run()
    assert state.decision == "blind"
    seen = []
    real = session.adapter.blind_values
    monkeypatch.setattr(session.adapter, "blind_values", lambda result: seen.append(real(result)) or seen[-1])
    text = blind_hint(session, state, deals=120, hands=4)
    assert text == blind_hint(session, state, deals=120, hands=4)  # the same hint every time
    lines = text.splitlines()
    assert lines[0].startswith("Blind Nil or look? 4 hands you might hold, 120 deals")
    assert max(map(len, lines)) <= 80
    bn, made, look = (np.array(c) for c in zip(*seen[:4]))
    assert f"Blind Nil made in {made.mean():.0%}" in text
    assert f"Blind Nil {bn.mean():+.1f}, looking and bidding best {look.mean():+.1f}" in text
    low, high = (float(x) for x in re.search(r"\[([-+\d.]+), ([-+\d.]+)\]", lines[-1]).groups())
    verdict = "bid Blind Nil" if low > 0 else "look at your cards" if high < 0 else "no clear difference"
    assert lines[-1].endswith(verdict)


def test_hints_at_the_blind_prompt_use_the_blind_hint(monkeypatch):
    session = new_session("spades", seat=2, seed=1)
    state = session.run()
    monkeypatch.setattr(play, "blind_hint", lambda s, st, deals: "blind hint")
    assert hints(session, state) == "blind hint"
