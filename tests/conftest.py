import os
import sys
from pathlib import Path

HERE = Path(__file__).parent
# The toy game of the runner tests, visible to this process and to Dask workers it starts.
sys.path.insert(0, str(HERE / "experiment"))
os.environ["PYTHONPATH"] = os.pathsep.join([str(HERE / "experiment"), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
os.environ["SIMCARDS_GAMES"] = "toy=toygame"

from simcards.core import game as _game  # noqa: E402

_game.register_game("toy", "toygame")


import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402

# Compiled functions load (or compile) at their first call, not at import (core/jit.py,
# ``lazily``), so a property's first example may take seconds: no per-example deadline.
settings.register_profile("simcards", deadline=None)
settings.load_profile("simcards")


@pytest.fixture(autouse=True)
def _close_figures():
    """Figures made by a test are closed after it (matplotlib keeps them otherwise)."""
    yield
    import sys as _sys

    if "matplotlib.pyplot" in _sys.modules:
        _sys.modules["matplotlib.pyplot"].close("all")
