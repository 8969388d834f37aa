"""The plain-Python referee re-checks kernel traces of a few hundred sampled records."""
import pytest

from simcards.games.contract_rummy.policies import CATALOG
from simcards.games.contract_rummy.referee import check_trace
from simcards.games.contract_rummy.replay import format_trace
from simcards.games.contract_rummy.sim import run_chunk
from simcards.games.contract_rummy.variant import PRESETS, ContractRummyVariant as V


@pytest.fixture(scope="module")
def tables():
    return {name: CATALOG.table([name]) for name in ("random", "basic", "expert")}


@pytest.mark.parametrize("policy", ["random", "basic", "expert"])
@pytest.mark.parametrize("contract", range(1, 8))
def test_referee_accepts_sampled_deals(tables, policy, contract):
    v = V(contract=contract, max_turns_per_deal=200)
    for i in range(10):
        out, tr = run_chunk("deal", v, tables[policy], 2024 + contract, i, 1, trace_rows=200_000)
        assert check_trace(tr, v) == [], f"record {i}"
        assert out[0, 0] == contract


@pytest.mark.parametrize("preset,players", [("pagat_like", 5), ("liverpool_like", 6), ("seed_default", 3)])
def test_referee_accepts_presets(tables, preset, players):
    v = V.from_mapping({**PRESETS[preset], "num_players": players, "max_turns_per_deal": 120})
    for i in range(3):
        _, tr = run_chunk("game", v, tables["basic"], 77, i, 1, trace_rows=400_000)
        assert check_trace(tr, v) == []


def test_referee_catches_a_tampered_trace(tables):
    v = V(contract=2, max_turns_per_deal=200)
    _, tr = run_chunk("deal", v, tables["basic"], 5, 0, 1, trace_rows=200_000)
    bad = list(tr)
    i = next(k for k, ev in enumerate(bad) if ev.kind == "score" and ev.points > 0)
    bad[i] = bad[i]._replace(points=bad[i].points + 1)
    assert any("scored" in p for p in check_trace(bad, v))
    bad = list(tr)
    i = next(k for k, ev in enumerate(bad) if ev.kind == "discard")
    bad[i] = bad[i]._replace(card=(bad[i].card + 1) % 52)
    assert check_trace(bad, v) != []


def test_replay_text_shows_the_game(tables):
    v = V()
    from simcards.games.contract_rummy.replay import replay_text

    text = replay_text("game", v, tables["basic"], 2, 4)
    for word in ("=== Deal 1", "=== Deal 7", "draws", "discards", "penalty points", "Game over"):
        assert word in text
