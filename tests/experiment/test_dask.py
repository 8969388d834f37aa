"""The Dask backend: same records as the local run, on a real scheduler and workers."""
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from simcards.core.errors import SimcardsError
from simcards.experiment.runner import execute
from simcards.experiment.spec import make_spec

DASK = str(Path(sys.executable).with_name("dask"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def cluster():
    """A real `dask scheduler` and two `dask worker` processes on loopback."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = dict(os.environ)
    procs = [subprocess.Popen([DASK, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                               "--dashboard-address", ":0", "--no-show"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    for _ in range(2):
        procs.append(subprocess.Popen([DASK, "worker", address, "--nthreads", "1", "--nworkers", "1",
                                       "--no-dashboard", "--host", "127.0.0.1"], env=env,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    from distributed import Client

    deadline = time.time() + 90
    while True:
        try:
            with Client(address, timeout=5) as c:
                c.wait_for_workers(2, timeout=60)
            break
        except Exception:
            if time.time() > deadline:
                raise
            time.sleep(0.5)
    yield address, procs
    for p in reversed(procs):
        p.terminate()
    for p in procs:
        try:
            p.wait(timeout=20)
        except subprocess.TimeoutExpired:
            p.kill()


@pytest.mark.parametrize("game,count", [("toy", 20000), ("spades", 3000)])
def test_scheduler_and_workers_give_the_local_records(cluster, game, count):
    address, _ = cluster
    spec = make_spec(game, count=count, seed=3, chunk_size=count // 8, seat_policy={1: "expert"})
    local = execute(spec, threads=2)
    remote = execute(spec, backend="dask", scheduler=address)
    pd.testing.assert_frame_equal(local.records, remote.records)
    pd.testing.assert_frame_equal(local.summary, remote.summary)


def test_a_worker_killed_mid_run_does_not_change_the_result(cluster, tmp_path):
    address, procs = cluster
    spec = make_spec("toy", count=40000, seed=4, chunk_size=500, settings=["work=20000"])
    killed = []

    def kill_one_worker(chunk, total):
        if not killed:
            procs[1].kill()  # the first worker process dies with chunks in flight
            killed.append(chunk)

    remote = execute(spec, backend="dask", scheduler=address, out=tmp_path / "r", on_chunk=kill_one_worker)
    assert killed
    local = execute(spec, threads=2)
    pd.testing.assert_frame_equal(local.records, remote.records)


def test_a_local_cluster_started_by_simcards_gives_the_local_records():
    spec = make_spec("toy", count=6000, seed=9, chunk_size=1000)
    pd.testing.assert_frame_equal(execute(spec, backend="dask", workers=2).records,
                                  execute(spec, threads=1).records)


def test_an_unreachable_scheduler_fails_in_bounded_time_with_one_line():
    spec = make_spec("toy", count=100)
    t0 = time.time()
    with pytest.raises(SimcardsError, match="cannot reach Dask scheduler"):
        execute(spec, backend="dask", scheduler=f"tcp://127.0.0.1:{free_port()}", connect_timeout=3)
    assert time.time() - t0 < 30


def test_a_scheduler_that_dies_mid_run_is_one_line_in_bounded_time_and_the_run_resumes_locally(tmp_path):
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    scheduler = subprocess.Popen([DASK, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                                  "--dashboard-address", ":0", "--no-show"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = subprocess.Popen([DASK, "worker", address, "--nthreads", "1", "--nworkers", "1", "--no-dashboard",
                               "--host", "127.0.0.1"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        from distributed import Client

        deadline = time.time() + 90
        while True:
            try:
                with Client(address, timeout=5) as c:
                    c.wait_for_workers(1, timeout=60)
                break
            except Exception:
                if time.time() > deadline:
                    raise
                time.sleep(0.5)
        spec = make_spec("toy", count=40000, seed=4, chunk_size=500, settings=["work=20000"])
        seen = []

        def kill_the_scheduler(start, count):
            seen.append(start)
            if len(seen) == 2:
                scheduler.kill()

        out = tmp_path / "r"
        t0 = time.time()
        with pytest.raises(SimcardsError) as info:
            execute(spec, backend="dask", scheduler=address, out=out, on_chunk=kill_the_scheduler)
        assert time.time() - t0 < 90
        message = str(info.value)
        assert "\n" not in message and "lost the Dask scheduler" in message
        assert "run the same command again to resume" in message and "--backend local" in message
    finally:
        for p in (worker, scheduler):
            p.kill()
            p.wait()
    resumed = execute(spec, out=out, threads=2)
    assert resumed.resumed_chunks >= 2
    pd.testing.assert_frame_equal(resumed.records, execute(spec, threads=2).records)
