"""Results folders under faults, concurrency and huge runs (issue 13): nothing lost, nothing silently wrong."""
import errno
import http.server
import json
import os
import signal
import subprocess
import sys
import threading
import time
import tracemalloc
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from simcards.cli import main
from simcards.core.errors import SimcardsError
from simcards.experiment import runner, store
from simcards.api import compare
from simcards.experiment.compare import parse_arm, parse_precision, print_differences
from simcards.experiment.runner import ChunkPlanner, Interrupted, execute
from simcards.experiment import spec as spec_module
from simcards.experiment.spec import make_spec

ROOT = Path(__file__).resolve().parents[2]


def toy_spec(**kw):
    kw.setdefault("count", 5000)
    kw.setdefault("seed", 11)
    return make_spec("toy", **kw)


def cli(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result, [line for line in result.stderr.splitlines() if line.strip()]


def one_error_line(result, lines, expected):
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert expected in lines[0], lines[0]
    assert "Traceback" not in result.output


def temporary_files(folder: Path):
    return [p for p in folder.rglob(".*") if ".tmp" in p.name]


def stop_after(n):
    """An on_chunk callback that interrupts the run (as Ctrl-C does) after ``n`` chunks."""
    seen = []

    def callback(start, count):
        seen.append(start)
        if len(seen) >= n:
            raise KeyboardInterrupt

    return callback


def spawn(args, **kw):
    return subprocess.Popen([sys.executable, "-m", "simcards.cli", *map(str, args)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def wait_for(predicate, timeout=180):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            if predicate():
                return
        except (OSError, ValueError, KeyError):
            pass
        time.sleep(0.05)
    raise AssertionError("timed out")


def n_done(meta_path: Path) -> int:
    return len(json.loads(meta_path.read_text())["manifest"]["done"])


# ----- 1. compare never overwrites another comparison

def test_compare_refuses_a_folder_of_another_comparison_and_force_clears_its_report(tmp_path):
    out = tmp_path / "c"
    compare("toy", [parse_arm("name=a"), parse_arm("sides=7,name=b")], deals=640, seed=1, out=out)
    (out / "report.md").write_text("old report")
    (out / "figures" / "stale.png").write_bytes(b"png")
    before = (out / "differences.csv").read_text()
    with pytest.raises(SimcardsError, match="holds a different comparison"):
        compare("toy", [parse_arm("name=a"), parse_arm("sides=8,name=b")], deals=640, seed=1, out=out)
    assert (out / "differences.csv").read_text() == before  # nothing overwritten
    compare("toy", [parse_arm("name=a"), parse_arm("sides=8,name=b")], deals=640, seed=1, out=out, force=True)
    assert not (out / "report.md").exists() and not (out / "figures" / "stale.png").exists()
    assert (out / "differences.csv").read_text() != before


def test_default_compare_folders_do_not_collide(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    a = compare("toy", [parse_arm("name=a"), parse_arm("sides=7,name=b")], deals=320, default_out=True)
    b = compare("toy", [parse_arm("name=a"), parse_arm("sides=8,name=b")], deals=320, default_out=True)
    again = compare("toy", [parse_arm("name=a"), parse_arm("sides=7,name=b")], deals=320, default_out=True)
    assert a.out != b.out and a.out == again.out
    assert a.out.name.startswith("compare-toy-deal-")


def test_run_force_replaces_a_compare_folder(tmp_path):
    out = tmp_path / "c"
    compare("toy", [parse_arm("name=a"), parse_arm("sides=7,name=b")], deals=320, out=out)
    with pytest.raises(SimcardsError, match="holds a comparison"):
        execute(toy_spec(), out=out)
    result = execute(toy_spec(), out=out, force=True)
    assert json.loads((out / "meta.json").read_text())["status"] == "complete"
    assert not (out / "arms").exists() and not (out / "differences.csv").exists()
    pd.testing.assert_frame_equal(result.records, execute(toy_spec()).records)


# ----- 2. one writer per folder

def test_a_second_process_on_a_busy_folder_gets_one_line_and_the_first_finishes_intact(tmp_path):
    out = tmp_path / "busy"
    args = ["run", "toy", "--deals", "20000", "--chunk-size", "1000", "--seed", "5", "--set", "work=2000000",
            "--threads", "1", "--quiet", "--out", out]
    first = spawn(args)
    wait_for(lambda: n_done(out / "meta.json") >= 1)
    second = spawn(args)
    _, err = second.communicate(timeout=120)
    assert second.returncode == 2
    assert err.strip().splitlines() == [f"error: {out} is in use by process {first.pid}"]
    assert first.wait(timeout=300) == 0, first.stderr.read()
    reference = execute(make_spec("toy", count=20000, seed=5, settings=["work=2000000"]), threads=2).records
    pd.testing.assert_frame_equal(pd.read_parquet(out / "deals.parquet"), reference)
    assert not temporary_files(out)


def test_the_lock_dies_with_its_process(tmp_path):
    out = tmp_path / "crashed"
    out.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time; from simcards.experiment.store import "
                               "FolderLock; lock = FolderLock(sys.argv[1]).acquire(); print('locked', flush=True); "
                               "time.sleep(600)", str(out)], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    assert holder.stdout.readline().strip() == "locked"
    with pytest.raises(SimcardsError, match=f"in use by process {holder.pid}"):
        execute(toy_spec(), out=out)
    holder.kill()
    holder.wait()
    assert execute(toy_spec(), out=out).computed_chunks > 0


def test_temporary_names_are_unique():
    names = {store.temp_name(Path("/x/meta.json")) for _ in range(1000)}
    assert len(names) == 1000 and all(str(os.getpid()) in n.name for n in names)


# ----- 3. compare resumes like run

SLOW_COMPARE = ["compare", "toy", "--arm", "name=a", "--arm", "seat1=expert,name=b", "--deals", "25600",
                "--seed", "3", "--set", "work=200000", "--threads", "1"]


def test_compare_killed_by_sigkill_resumes_to_the_uninterrupted_result(tmp_path):
    out = tmp_path / "cmp"
    proc = spawn(SLOW_COMPARE + ["--out", out])
    wait_for(lambda: n_done(out / "arms" / "arm1-round1" / "meta.json") >= 2)
    proc.kill()  # kill -9: nothing gets to clean up
    proc.wait(timeout=60)
    kept = n_done(out / "arms" / "arm1-round1" / "meta.json")
    assert kept >= 2
    resumed = spawn(SLOW_COMPARE + ["--out", out])
    stdout, err = resumed.communicate(timeout=600)
    assert resumed.returncode == 0, err
    reference = compare("toy", [parse_arm("name=a"), parse_arm("seat1=expert,name=b")], deals=25600, seed=3,
                        settings=["work=200000"])
    got = pd.read_csv(out / "differences.csv")
    want = reference.differences.reset_index(drop=True)
    pd.testing.assert_frame_equal(got[["metric", "n_arm", "n_baseline"]], want[["metric", "n_arm", "n_baseline"]])
    for column in ("estimate_arm", "estimate_baseline", "difference", "half_width", "p_value"):
        assert got[column].tolist() == pytest.approx(want[column].tolist(), rel=1e-12, abs=1e-15)
    assert (got.n_arm == 25600).all()
    assert json.loads((out / "meta.json").read_text())["status"] == "complete"


def test_ctrl_c_on_compare_is_one_line_exit_130_and_resumes(tmp_path):
    out = tmp_path / "cmp"
    proc = spawn(SLOW_COMPARE + ["--out", out])
    wait_for(lambda: n_done(out / "arms" / "arm1-round1" / "meta.json") >= 2)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "run the same command again to resume" in lines[0], err
    assert n_done(out / "arms" / "arm1-round1" / "meta.json") >= 2


def test_an_interrupted_compare_keeps_its_batches(tmp_path, monkeypatch):
    import simcards.experiment.compare as cmp

    out = tmp_path / "cmp"
    arms = [parse_arm("name=a"), parse_arm("sides=7,name=b")]
    calls = []

    def interrupt_the_second_arm(spec, **kw):
        calls.append(spec)
        if len(calls) == 2:
            kw["on_chunk"] = stop_after(3)
        return runner.execute(spec, **kw)

    monkeypatch.setattr(cmp, "execute", interrupt_the_second_arm)
    with pytest.raises(Interrupted):
        compare("toy", arms, deals=6400, seed=2, out=out, threads=1)
    monkeypatch.undo()
    assert json.loads((out / "arms" / "arm1-round1" / "meta.json").read_text())["status"] == "complete"
    assert n_done(out / "arms" / "arm2-round1" / "meta.json") == 3
    resumed = compare("toy", arms, deals=6400, seed=2, out=out)
    fresh = compare("toy", arms, deals=6400, seed=2)
    pd.testing.assert_frame_equal(resumed.differences, fresh.differences)


def test_a_spec_file_with_arms_resumes_and_refuses_another_comparison(tmp_path):
    spec = tmp_path / "arms.toml"
    spec.write_text('game = "toy"\ndeals = 640\nseed = 3\n[[arms]]\nname = "a"\n[[arms]]\nname = "b"\n'
                    '[arms.variant]\nsides = 7\n')
    out = tmp_path / "from-file"
    first, _ = cli("run", "--spec", spec, "--out", out, "--quiet")
    assert first.exit_code == 0, first.output
    before = (out / "differences.csv").read_text()
    again, _ = cli("run", "--spec", spec, "--out", out, "--quiet")
    assert again.exit_code == 0 and (out / "differences.csv").read_text() == before
    spec.write_text(spec.read_text().replace("sides = 7", "sides = 9"))
    result, lines = cli("run", "--spec", spec, "--out", out, "--quiet")
    one_error_line(result, lines, "holds a different comparison")
    assert cli("run", "--spec", spec, "--out", out, "--quiet", "--force")[0].exit_code == 0


def test_a_mistyped_metric_costs_no_rerun(tmp_path):
    out = tmp_path / "m"
    arms = [parse_arm("name=a"), parse_arm("sides=7,name=b")]
    with pytest.raises(SimcardsError, match="no metric 'bset'"):
        compare("toy", arms, deals=640, metrics=["bset"], out=out)
    fixed = compare("toy", arms, deals=640, metrics=["best"], out=out)  # the same folder, resumed
    assert list(fixed.differences.metric) == ["best"]


# ----- 4. huge counts: lazy planning, flat memory

def test_a_huge_count_plans_only_the_chunks_in_flight():
    tracemalloc.start()
    planner = ChunkPlanner(0, 10**15, [])
    chunks = [planner.next() for _ in range(1000)]
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 2_000_000
    assert chunks[0] == (0, runner.FIRST_CHUNK) and chunks[1][0] == runner.FIRST_CHUNK


def test_a_huge_summary_run_starts_at_once_and_stops_keeping_its_chunks(tmp_path):
    spec = toy_spec(count=10**15, records="summary")
    with pytest.raises(Interrupted) as info:
        execute(spec, out=tmp_path / "huge", on_chunk=stop_after(5), threads=1)
    assert info.value.done == n_done(tmp_path / "huge" / "meta.json") >= 5
    assert "of 1,000,000,000,000,000 deals" in str(info.value)


# ----- 5. time-sized chunks

def test_chunks_grow_toward_the_target_time_and_shrink_for_slow_records():
    planner = ChunkPlanner(0, 10**9, [])
    assert planner.next() == (0, runner.FIRST_CHUNK)
    for _ in range(20):
        planner.observe(planner.size, planner.size / 1e5)  # 100,000 records/s
    assert planner.size == int(runner.TARGET_SECONDS * 1e5)
    big = planner.size
    planner.observe(big, 1000.0)  # the policy got slow: the next chunks take TARGET_SECONDS again
    assert planner.size == int(runner.TARGET_SECONDS * big / 1000.0)
    slow = ChunkPlanner(0, 10**9, [])
    slow.observe(runner.FIRST_CHUNK, runner.FIRST_CHUNK * 0.5)  # 0.5 s per record (10 ms x 50 decisions)
    assert slow.size == int(runner.TARGET_SECONDS / 0.5)


def test_planner_fills_exactly_the_gaps_and_respects_alignment():
    planner = ChunkPlanner(100, 1000, [(100, 50), (300, 100), (900, 500)], align=64)
    got = []
    while (c := planner.next()) is not None:
        got.append(c)
    covered = sorted(i for s, n in got for i in range(s, s + n))
    assert covered == list(range(150, 300)) + list(range(400, 900))
    assert all(s // 64 == (s + n - 1) // 64 for s, n in got)


def test_time_sized_chunks_give_the_records_of_fixed_chunks(tmp_path):
    timed = execute(toy_spec(count=20000), out=tmp_path / "t")
    sizes = {e["count"] for e in timed.meta["manifest"]["done"]}
    assert len(sizes) > 1  # sized by measured time, not fixed
    pd.testing.assert_frame_equal(timed.records, execute(toy_spec(count=20000, chunk_size=1000)).records)


def test_resume_with_another_chunk_size_computes_only_the_gaps(tmp_path):
    out = tmp_path / "r"
    with pytest.raises(Interrupted):
        execute(toy_spec(chunk_size=700), out=out, on_chunk=stop_after(2), threads=1)
    resumed = execute(toy_spec(chunk_size=300), out=out)
    assert resumed.resumed_chunks == 2
    pd.testing.assert_frame_equal(resumed.records, execute(toy_spec()).records)


# ----- 6. checksums

def _interrupted_folder(tmp_path, n=4):
    out = tmp_path / "r"
    with pytest.raises(Interrupted):
        execute(toy_spec(chunk_size=500), out=out, on_chunk=stop_after(n), threads=1)
    return out


def test_a_damaged_chunk_is_dropped_and_recomputed(tmp_path):
    out = _interrupted_folder(tmp_path)
    chunk = sorted((out / "chunks").glob("records-*.parquet"))[1]
    chunk.write_bytes(chunk.read_bytes()[:100])  # truncated
    notes = []
    result = execute(toy_spec(chunk_size=500), out=out, notify=notes.append)
    assert len(notes) == 1 and "1 finished chunk failed the checksum check" in notes[0]
    assert result.resumed_chunks == 3
    pd.testing.assert_frame_equal(result.records, execute(toy_spec()).records)


@pytest.mark.parametrize("name", ["summary.csv", "deals.parquet", "tally.parquet"])
def test_report_refuses_damaged_files_and_run_recomputes_them(tmp_path, name):
    out = tmp_path / "r"
    execute(toy_spec(), out=out)
    damaged = out / name
    damaged.write_bytes(damaged.read_bytes()[: damaged.stat().st_size // 2])
    result, lines = cli("report", out)
    one_error_line(result, lines, f"{name} does not match its checksum")
    assert not (out / "report.md").exists()
    notes = []
    again = execute(toy_spec(), out=out, notify=notes.append)
    assert "damaged" in notes[0] and again.computed_chunks > 0
    assert cli("report", out)[0].exit_code == 0


def test_manifest_records_checksums_of_every_file(tmp_path):
    out = _interrupted_folder(tmp_path)
    meta = json.loads((out / "meta.json").read_text())
    for entry in meta["manifest"]["done"]:
        for kind, digest in entry["files"].items():
            assert store.sha256_file(out / "chunks" / f"{kind}-{entry['start']:012d}.parquet") == digest
    execute(toy_spec(chunk_size=500), out=out)
    meta = json.loads((out / "meta.json").read_text())
    assert {n: store.sha256_file(out / n) for n in meta["files"]} == meta["files"]


# ----- 7. a --scheduler that is not a Dask scheduler

def test_an_http_port_as_scheduler_fails_in_bounded_time_with_one_line(tmp_path):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        port = server.server_address[1]
        t0 = time.time()
        with pytest.raises(SimcardsError, match="cannot reach Dask scheduler") as info:
            execute(toy_spec(), backend="dask", scheduler=f"tcp://127.0.0.1:{port}", connect_timeout=3,
                    out=tmp_path / "r")
        assert time.time() - t0 < 60
        assert "\n" not in str(info.value)
    finally:
        server.shutdown()


# ----- 8. resume messages count right

def test_resume_messages_count_the_chunks_really_kept(tmp_path):
    out = tmp_path / "r"
    with pytest.raises(Interrupted) as info:
        execute(toy_spec(chunk_size=500), out=out, on_chunk=stop_after(3), threads=2)
    kept = n_done(out / "meta.json")
    assert info.value.done == kept == 3
    assert f"interrupted: {kept} finished chunks" in str(info.value)
    resumed = execute(toy_spec(chunk_size=500), out=out)
    assert resumed.resume_note() == f", 3 of {resumed.total_chunks} chunks already done"
    assert resumed.total_chunks == 10
    again = execute(toy_spec(chunk_size=500), out=out)
    assert again.resume_note() == ", 10 of 10 chunks already done"


# ----- 10. an edited policy file

def test_an_edited_policy_file_is_named(tmp_path):
    bots = tmp_path / "bots.py"
    bots.write_text("def keep(view, rng):\n    return 1\n")
    policy = f"{bots}:keep"
    execute(toy_spec(policy=policy), out=tmp_path / "r")
    bots.write_text("def keep(view, rng):\n    return 0\n")
    with pytest.raises(SimcardsError, match=r"policy file .*bots.py changed since .* pass --force to start over"):
        execute(toy_spec(policy=policy), out=tmp_path / "r")


def test_records_of_other_simcards_code_are_neither_resumed_nor_reused(tmp_path, monkeypatch):
    # a folder made before an upgrade (or an edited rule or policy) holds that code's records
    execute(toy_spec(), out=tmp_path / "r")
    monkeypatch.setattr(spec_module, "code_fingerprint", lambda: "other-code")
    with pytest.raises(SimcardsError, match=r"started by other simcards code .* pass --force to start over"):
        execute(toy_spec(), out=tmp_path / "r")
    execute(toy_spec(), out=tmp_path / "r", force=True)
    assert json.loads((tmp_path / "r" / "meta.json").read_text())["spec"]["code"] == "other-code"
    # a ladder's or comparison's pairs, rerun with --force, are computed again by the new code
    arms = [parse_arm("name=a"), parse_arm("sides=7,name=b")]
    compare("toy", arms, deals=640, seed=1, out=tmp_path / "c")
    monkeypatch.setattr(spec_module, "code_fingerprint", lambda: "newer-code")
    compare("toy", arms, deals=640, seed=1, out=tmp_path / "c", force=True)
    codes = {json.loads(m.read_text())["spec"]["code"] for m in (tmp_path / "c" / "arms").glob("*/meta.json")}
    assert codes == {"newer-code"}


# ----- 11. the compare table

def test_arm_names_are_never_cut_into_ambiguity():
    arms = [parse_arm("name=house-rule-variant-number-one"), parse_arm("sides=7,name=house-rule-variant-number-two"),
            parse_arm("sides=8,name=house-rule-variant-number-three")]
    result = compare("toy", arms, deals=320, metrics=["best"])
    lines = []
    print_differences(result, lines.append)
    assert any("house-rule-variant-number-two" in line for line in lines)
    assert any("house-rule-variant-number-three" in line for line in lines)


def test_arms_that_played_identically_are_flagged_in_console_and_report(tmp_path):
    out = tmp_path / "same"
    result = compare("toy", [parse_arm("name=a"), parse_arm("sides=7,name=b"), parse_arm("seat0=basic,name=c")],
                     deals=640, seed=4, out=out)
    assert result.identical == [["a", "c"]]
    lines = []
    print_differences(result, lines.append)
    assert sum("these arms played identically: a and c" in line for line in lines) == 1
    assert cli("report", out)[0].exit_code == 0
    assert "these arms played identically: a and c" in (out / "report.md").read_text()
    assert "played identically" not in " ".join(lines[:-1])


# ----- 12. read-only folders and a full disk

def _fail_writes_under(monkeypatch, folder: Path, err: int, names=None):
    """Make store's writes under ``folder`` fail with ``err`` (root ignores file modes)."""
    real_open = open

    def fake_open(path, mode="r", *args, **kw):
        p = Path(path)
        if any(c in mode for c in "wax") and str(p).startswith(str(folder)) and (names is None or any(n in p.name for n in names)):
            raise OSError(err, os.strerror(err), str(p))
        return real_open(path, mode, *args, **kw)

    monkeypatch.setattr(store, "open", fake_open, raising=False)


def test_report_into_a_read_only_folder_is_one_line_and_leaves_nothing(tmp_path, monkeypatch):
    out = tmp_path / "r"
    execute(toy_spec(), out=out)
    _fail_writes_under(monkeypatch, out, errno.EROFS, names=["report"])
    result, lines = cli("report", out)
    one_error_line(result, lines, "Read-only file system")
    assert not (out / "report.md").exists() and not temporary_files(out)


def test_a_read_only_out_is_refused_before_any_work(tmp_path, monkeypatch):
    out = tmp_path / "ro"
    out.mkdir()
    _fail_writes_under(monkeypatch, out, errno.EROFS)
    computed = []
    monkeypatch.setattr(runner, "compute_chunk", lambda *a: computed.append(a))
    for argv in (["run", "toy", "--deals", "100", "--out", out],
                 ["compare", "toy", "--arm", "name=a", "--arm", "sides=7,name=b", "--deals", "100", "--out", out]):
        result, lines = cli(*argv)
        one_error_line(result, lines, f"cannot write to output folder {out}")
    assert not computed


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through file modes")
def test_a_chmod_read_only_out_is_refused(tmp_path):
    out = tmp_path / "ro"
    out.mkdir()
    out.chmod(0o555)
    result, lines = cli("run", "toy", "--deals", "100", "--out", out)
    one_error_line(result, lines, "cannot write to output folder")


def test_a_full_disk_during_a_chunk_keeps_the_finished_chunks(tmp_path, monkeypatch):
    out = tmp_path / "r"
    real = pd.DataFrame.to_parquet
    calls = []

    def to_parquet(self, path, *a, **kw):
        calls.append(path)
        if len(calls) == 7:  # the 4th chunk's records
            real(self, path, *a, **kw)  # half-written...
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(self, path, *a, **kw)

    monkeypatch.setattr(pd.DataFrame, "to_parquet", to_parquet)
    with pytest.raises(SimcardsError, match="the disk is full.*3 finished chunks are kept.*run the same command"):
        execute(toy_spec(chunk_size=500), out=out, threads=1)
    assert not temporary_files(out)
    assert n_done(out / "meta.json") == 3
    monkeypatch.setattr(pd.DataFrame, "to_parquet", real)
    resumed = execute(toy_spec(chunk_size=500), out=out)
    assert resumed.resumed_chunks == 3
    pd.testing.assert_frame_equal(resumed.records, execute(toy_spec()).records)


def test_a_full_disk_during_the_final_merge_leaves_no_half_file(tmp_path, monkeypatch):
    import pyarrow.parquet as pq

    out = tmp_path / "r"
    merging = []
    real_merge, real_write = store.ResultsFolder._merge_records, pq.ParquetWriter.write_table

    def merge(self, entries):
        merging.append(True)
        return real_merge(self, entries)

    def write_table(self, table, *a, **kw):
        if merging:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(self, table, *a, **kw)

    monkeypatch.setattr(store.ResultsFolder, "_merge_records", merge)
    monkeypatch.setattr(pq.ParquetWriter, "write_table", write_table)
    result, lines = cli("run", "toy", "--deals", "3000", "--chunk-size", "1000", "--out", out, "--quiet")
    one_error_line(result, lines, "the disk is full")
    assert "every chunk is kept" in lines[0] and merging
    assert not (out / "deals.parquet").exists() and not temporary_files(out)
    monkeypatch.undo()
    result, _ = cli("run", "toy", "--deals", "3000", "--chunk-size", "1000", "--out", out, "--quiet")
    assert result.exit_code == 0 and "3 of 3 chunks already done" in result.stdout


# ----- 13. compare --precision: n is the records run; per-kind targets

def test_precision_rounds_do_not_count_a_split_batch_twice():
    # 2,000 is not a multiple of the batch size (62): round 2 starts inside batch 32
    result = compare("toy", [parse_arm("name=a"), parse_arm("seat1=random,name=b")], deals=2000, seed=7000001,
                     precision=0.0001, max_count=8000)
    assert result.rounds == 3 and result.count == 8000
    assert (result.differences.n_arm == 8000).all() and (result.differences.n_baseline == 8000).all()
    assert result.batches.groupby(["arm", "batch", "metric", "group"]).size().max() == 1


def test_max_count_caps_the_first_round_too():
    arms = [parse_arm("name=a"), parse_arm("seat1=random,name=b")]
    result = compare("toy", arms, seed=7000002, precision=0.0001, max_count=600)
    assert result.count == 600 and (result.differences.n_arm == 600).all()
    with pytest.raises(SimcardsError, match=r"first round \(2,000 deals\) is larger than --max-count 600"):
        compare("toy", arms, deals=2000, seed=7000002, precision=0.0001, max_count=600)


@pytest.mark.parametrize("text,expected", [
    ("0.01", dict(rate=0.01, mean=None, mean_sd=0.01)),
    ("rate=0.01,mean=2", dict(rate=0.01, mean=2.0, mean_sd=None)),
    ("mean=0.5", dict(rate=None, mean=0.5, mean_sd=None)),
])
def test_precision_is_read_per_metric_kind(text, expected):
    p = parse_precision(text)
    assert (p.rate, p.mean, p.mean_sd) == (expected["rate"], expected["mean"], expected["mean_sd"])


def test_a_mean_target_is_in_standard_deviations_and_a_rate_target_absolute():
    from simcards.experiment.compare import _shortfall

    tallies = {"a": pd.DataFrame({"metric": ["points", "made"], "group": ["all", "all"], "kind": ["mean", "rate"],
                                  "n": [100, 100], "sum": [0.0, 50.0], "sumsq": [100 * 100.0**2, 50.0]})}
    tallies["b"] = tallies["a"]
    diffs = pd.DataFrame({"arm": ["b", "b"], "metric": ["points", "made"], "group": ["all", "all"],
                          "kind": ["mean", "rate"], "half_width": [4.0, 0.005]})
    # points: sd 100, so +-4 is 0.04 sd (within 0.05 sd); made: +-0.005 within +-0.01
    assert _shortfall(diffs, parse_precision("0.05"), tallies, "a") == pytest.approx(0.8)
    assert _shortfall(diffs, parse_precision("0.01"), tallies, "a") == pytest.approx(4.0)
    assert _shortfall(diffs, parse_precision("rate=0.01,mean=8"), tallies, "a") == pytest.approx(0.5)


# ----- table: new one-line errors

ERROR_CASES = [
    ("spec with a count", ["run", "--spec", "{ws}/toy.toml", "--deals", "1000"], "--deals conflicts with --spec"),
    ("spec with a set", ["run", "--spec", "{ws}/toy.toml", "--set", "sides=4"], "--set conflicts with --spec"),
    ("spec with a seed", ["run", "--spec", "{ws}/toy.toml", "--seed", "4"], "--seed conflicts with --spec"),
    ("spec with another game", ["run", "kierki", "--spec", "{ws}/toy.toml"], "is an experiment of 'toy'"),
    ("compare into a run folder", ["compare", "toy", "--arm", "name=a", "--arm", "sides=7,name=b", "--deals", "100",
                                   "--out", "{ws}/run"], "holds a run"),
    ("compare unknown metric", ["compare", "toy", "--arm", "name=a", "--arm", "sides=7,name=b", "--deals", "100",
                                "--metric", "nosuch", "--out", "{ws}/m"], "has no metric 'nosuch'"),
    ("bad precision", ["compare", "toy", "--arm", "name=a", "--arm", "sides=7,name=b", "--precision", "points=3"],
     "--precision takes a number or rate=R,mean=M"),
    ("negative precision", ["compare", "toy", "--arm", "name=a", "--arm", "sides=7,name=b", "--precision", "-1"],
     "precision must be positive"),
    ("report of a damaged folder", ["report", "{ws}/damaged"], "does not match its checksum"),
    ("report of an unfinished run", ["report", "{ws}/unfinished"], "unfinished run"),
]


@pytest.fixture(scope="module")
def ws(tmp_path_factory):
    ws = tmp_path_factory.mktemp("safety")
    (ws / "toy.toml").write_text('game = "toy"\ndeals = 100\n')
    execute(toy_spec(count=100), out=ws / "run")
    execute(toy_spec(count=100), out=ws / "damaged")
    (ws / "damaged" / "summary.csv").write_text("metric,group\n")
    with pytest.raises(Interrupted):
        execute(toy_spec(chunk_size=500), out=ws / "unfinished", on_chunk=stop_after(1), threads=1)
    return ws


@pytest.mark.parametrize("argv,expected", [pytest.param(a, e, id=i) for i, a, e in ERROR_CASES])
def test_new_error_cases_are_one_line_and_exit_2(ws, argv, expected):
    before = (ws / "run" / "meta.json").read_text()
    result, lines = cli(*[a.format(ws=ws) for a in argv])
    one_error_line(result, lines, expected)
    assert (ws / "run" / "meta.json").read_text() == before
