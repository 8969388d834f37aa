"""The kernel protocol of core: jit decorators, choice constants, derived defaults,
layouts and the trace format (docs/architecture.md, "The kernel protocol")."""
from dataclasses import dataclass
from typing import ClassVar

import numba as nb
import numpy as np
import pytest

from simcards.core import jit
from simcards.core.policy import Layout
from simcards.core.trace import NO_TRACE, TraceEvents, emit
from simcards.core.variant import Variant, choice_enums, constant_name, param, NULL


@dataclass(frozen=True)
class _Toy(Variant):
    game_name: ClassVar[str] = "toy"
    mode: str = param("low", choices=("low", "per_bag", "7"), help="a choice")
    size: int = param(4, min=1, help="a number")
    cap: int | None = param(None, nullable=True, help="null = derived: 2 x size")
    limit: int | None = param(None, nullable=True, help="null = no limit")

    def derived(self):
        return {"cap": 2 * self.size}


MODE = _Toy.choice_enum("mode")


@nb.njit
def _mode_code(params):
    p = params[0]
    if p.mode == MODE.PER_BAG:
        return 1
    return 7 if p.mode == MODE.N7 else 0


def test_choices_become_named_constants_numba_compiles():
    assert [m.name for m in MODE] == ["LOW", "PER_BAG", "N7"]
    assert [int(m) for m in MODE] == [0, 1, 2]
    assert set(choice_enums(_Toy)) == {"mode"}
    assert constant_name("at_most-one") == "AT_MOST_ONE"
    assert [_mode_code(_Toy(mode=m).to_params()) for m in ("low", "per_bag", "7")] == [0, 1, 7]


def test_derived_defaults_are_packed_and_plain_nulls_stay_null():
    row = _Toy(size=5).to_params()[0]
    assert row["cap"] == 10 and row["limit"] == NULL
    assert _Toy(size=5, cap=3).to_params()[0]["cap"] == 3
    assert _Toy(size=5).to_dict()["cap"] is None  # the variant itself keeps "derived"


def test_layout_offsets_are_generated_in_order():
    view = Layout("toy view", seat=1, hands=4, score=2, size=10)
    names = {}
    view.export(names, "V_", size="VIEW_LEN")
    assert names == {"V_SEAT": 0, "V_HANDS": 1, "V_SCORE": 5, "VIEW_LEN": 10}
    assert view.read(np.arange(10))["hands"] == [1, 2, 3, 4]
    with pytest.raises(ValueError):
        Layout("too small", a=3, size=2)


EVENTS = TraceEvents("toy", deal=("dealer",), play=("seat", "card", "trick"))
_EV = EVENTS.constants()


@nb.njit
def _traced(trace, n):
    emit(trace, 1, 3, 0, 0, 0, 0)
    for i in range(n):
        emit(trace, 2, i % 4, 10 + i, i // 4, 0, 0)


def test_trace_events_round_trip_and_overflow_is_counted():
    assert _EV == {"EV_DEAL": 1, "EV_PLAY": 2}
    trace = EVENTS.buffer(3)
    _traced(trace, 5)
    assert EVENTS.wanted(trace) == 6
    with pytest.raises(ValueError, match="overflowed"):
        EVENTS.read(trace)
    _traced(NO_TRACE, 5)  # not tracing: nothing written, nothing raised
    calls = []
    _, events = EVENTS.collect(lambda t: calls.append(_traced(t, 5)), rows=2)
    assert len(calls) == 2 and events[0].kind == "deal" and events[0].dealer == 3
    assert [(e.seat, e.card, e.trick) for e in events[1:3]] == [(0, 10, 0), (1, 11, 0)]
    assert tuple(events[1]) == (2, 0, 10, 0) and events[1].code == _EV["EV_PLAY"]
    with pytest.raises(ValueError):
        TraceEvents("toy", bad=("a", "b", "c", "d", "e", "f"))
    with pytest.raises(ValueError, match="taken"):
        TraceEvents("toy", bid=("seat", "code"))


def _double(x):
    return x * 2


def test_decorators_name_their_numba_options():
    # options only: calling would write a cache beside this test file
    assert jit.kernel(_double).targetoptions["nogil"] is True
    assert jit.helper(alloc=False)(_double).targetoptions["_nrt"] is False
    assert jit.inline(_double).targetoptions["inline"] == "always"
    assert jit._numba_options({"cache": True, "nogil": True}, False, {}) == {"cache": True, "nogil": True, "_nrt": False}
    assert not isinstance(jit.kernel(_double)._cache, nb.core.caching.NullCache)
