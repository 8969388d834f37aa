"""The runner: determinism across threads and chunking, durable resume, refusals."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from simcards.core.errors import SimcardsError
from simcards.experiment.runner import execute
from simcards.experiment.spec import make_spec

ROOT = Path(__file__).resolve().parents[2]


def toy_spec(**kw):
    kw.setdefault("count", 5000)
    kw.setdefault("seed", 11)
    return make_spec("toy", **kw)


def test_records_do_not_depend_on_threads_or_chunk_size():
    one = execute(toy_spec(chunk_size=1000), threads=1).records
    two = execute(toy_spec(chunk_size=1000), threads=2).records
    odd = execute(toy_spec(chunk_size=333), threads=2).records
    pd.testing.assert_frame_equal(one, two)
    pd.testing.assert_frame_equal(one, odd)
    assert list(one["index"]) == list(range(5000))


def test_record_i_is_a_function_of_seed_and_index_only():
    whole = execute(toy_spec(count=3000), threads=1).records
    tail = execute(toy_spec(count=3000, chunk_size=7), threads=2).records
    pd.testing.assert_frame_equal(whole, tail)
    other_seed = execute(toy_spec(count=3000, seed=12), threads=1).records
    assert not whole.equals(other_seed)


def test_summary_streams_without_records():
    full = execute(toy_spec(records="all"), threads=2)
    lean = execute(toy_spec(records="summary"), threads=2)
    assert lean.records is None
    pd.testing.assert_frame_equal(full.summary, lean.summary)


def test_results_folder_contents_and_rerun_is_free(tmp_path):
    out = tmp_path / "r"
    first = execute(toy_spec(), out=out)
    meta = json.loads((out / "meta.json").read_text())
    assert meta["status"] == "complete"
    assert meta["spec"] == first.spec.to_dict()
    done = sorted((e["start"], e["count"]) for e in meta["manifest"]["done"])
    assert sum(n for _, n in done) == 5000 and all(a + n == b for (a, n), (b, _) in zip(done, done[1:]))
    assert set(meta["files"]) == {"deals.parquet", "tally.parquet", "summary.csv"}
    assert (out / "deals.parquet").exists() and (out / "summary.csv").exists()
    assert not (out / "chunks").exists()
    again = execute(toy_spec(), out=out)
    assert again.computed_chunks == 0
    assert not (out / "chunks").exists()
    pd.testing.assert_frame_equal(first.records, again.records)


def test_a_different_experiment_in_the_folder_is_refused_unless_forced(tmp_path):
    out = tmp_path / "r"
    execute(toy_spec(), out=out)
    with pytest.raises(SimcardsError, match="different experiment"):
        execute(toy_spec(seed=99), out=out)
    assert json.loads((out / "meta.json").read_text())["spec"]["seed"] == 11  # nothing overwritten
    forced = execute(toy_spec(seed=99), out=out, force=True)
    assert forced.spec.seed == 99


def test_foreign_and_corrupt_folders_are_refused(tmp_path):
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    with pytest.raises(SimcardsError, match="holds no simcards results"):
        execute(toy_spec(), out=foreign)
    assert (foreign / "notes.txt").read_text() == "mine"
    corrupt = tmp_path / "corrupt"
    corrupt.mkdir()
    (corrupt / "meta.json").write_text("{not json")
    with pytest.raises(SimcardsError, match="corrupt"):
        execute(toy_spec(), out=corrupt)


def _run_cli(args, **kw):
    env = dict(os.environ)
    return subprocess.Popen([sys.executable, "-m", "simcards.cli", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def _wait_for_chunks(out: Path, at_least: int, timeout: float = 120):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            done = json.loads((out / "meta.json").read_text())["manifest"]["done"]
            if len(done) >= at_least:
                return done
        except (OSError, ValueError, KeyError):
            pass
        time.sleep(0.05)
    raise AssertionError("the run never finished enough chunks")


SLOW_ARGS = ["run", "toy", "--deals", "60000", "--chunk-size", "1000", "--seed", "5", "--set", "work=20000",
             "--threads", "2", "--quiet"]


@pytest.mark.parametrize("how", ["kill9", "sigint", "sigterm"])
def test_interrupted_run_resumes_to_identical_records(tmp_path, how):
    out = tmp_path / "long"
    proc = _run_cli(SLOW_ARGS + ["--out", str(out)])
    _wait_for_chunks(out, 3)
    proc.send_signal({"kill9": signal.SIGKILL, "sigint": signal.SIGINT, "sigterm": signal.SIGTERM}[how])
    _, err = proc.communicate(timeout=60)
    kept = json.loads((out / "meta.json").read_text())["manifest"]["done"]
    assert 3 <= len(kept) < 60
    if how != "kill9":
        assert proc.returncode == 130
        assert "run the same command again to resume" in err
    resumed = _run_cli(SLOW_ARGS + ["--out", str(out)])
    stdout, err = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, err
    assert "chunks already done" in stdout
    records = pd.read_parquet(out / "deals.parquet")
    reference = execute(make_spec("toy", count=60000, chunk_size=1000, seed=5, settings=["work=20000"]), threads=2).records
    pd.testing.assert_frame_equal(records, reference)
