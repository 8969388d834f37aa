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


@pytest.fixture(autouse=True)
def _close_figures():
    """Figures made by a test are closed after it (matplotlib keeps them otherwise)."""
    yield
    import sys as _sys

    if "matplotlib.pyplot" in _sys.modules:
        _sys.modules["matplotlib.pyplot"].close("all")
