"""The example notebook (docs/examples/nil-worth-it.ipynb) runs end to end with the Python API."""
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOK = Path(__file__).resolve().parents[1] / "docs" / "examples" / "nil-worth-it.ipynb"


def test_notebook_executes_and_answers_its_question(tmp_path):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(nb, timeout=900, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOK.parents[2])}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    text = "\n".join(str(o.get("data", {}).get("text/plain", "")) + o.get("text", "") for o in outputs)
    assert "more_nil" in text and "points" in text  # the paired differences were computed
    assert any("image/png" in o.get("data", {}) for o in outputs)  # and plotted
