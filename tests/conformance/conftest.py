"""Fixtures of the conformance suite (helpers: conformance_util.py)."""
import pytest

from conformance_util import Setup, setup_for


@pytest.fixture(scope="module")
def setups():
    """Setup per game, built lazily and kept for the module (kernels compile once per process)."""
    cache: dict[str, Setup] = {}

    def get(name: str) -> Setup:
        if name not in cache:
            cache[name] = setup_for(name)
        return cache[name]

    return get
