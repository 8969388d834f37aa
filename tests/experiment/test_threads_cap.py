"""--threads above the machine's cores is capped with a note on stderr; the records are unchanged."""
import os

import pandas as pd
from click.testing import CliRunner

from simcards.cli import main


def test_threads_above_the_cores_are_capped_with_a_note(tmp_path):
    cores = os.cpu_count() or 1
    many = CliRunner().invoke(main, ["run", "toy", "--deals", "500", "--threads", str(cores + 997),
                                     "--out", str(tmp_path / "many"), "--quiet"])
    assert many.exit_code == 0, many.output
    assert f"--threads {cores + 997} is more than the {cores} cores here; using {cores}" in many.stderr
    one = CliRunner().invoke(main, ["run", "toy", "--deals", "500", "--threads", "1", "--out", str(tmp_path / "one"),
                                    "--quiet"])
    assert "cores here" not in one.stderr
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "many" / "deals.parquet"),
                                  pd.read_parquet(tmp_path / "one" / "deals.parquet"))
