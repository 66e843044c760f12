"""Self-play on a Dask cluster: the same games as a local run, whatever the workers, even when one dies."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import cloudpickle
import numpy as np
import pytest
from distributed import Client, LocalCluster

from nardy import InvalidArgumentError, Position, Rules, SimulationError, Variant, batch, simulate
from nardy.cli import main
from nardy.play.distributed import connect

cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the workers cannot import this test module
pytestmark = pytest.mark.slow  # the module starts a Dask cluster; some tests start and kill workers

FIELDS = ["winner", "starter", "kind", "plies", "final_pips", "final"]


def assert_same_games(got, want):
    assert got.games == want.games and got.seed == want.seed and got.chunk_size == want.chunk_size
    for name in FIELDS + (["trace", "trace_offsets"] if want.trace is not None else []):
        a, b = getattr(got, name), getattr(want, name)
        assert a.dtype == b.dtype and a.shape == b.shape and (a == b).all(), name
    summary, expected = got.summary(), want.summary()
    del summary["games_per_second"], expected["games_per_second"]
    assert summary == expected


@pytest.fixture(scope="module")
def clusters():
    """{workers: client}: local clusters of one and two single-threaded worker processes."""
    made = {n: LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0")
            for n in (1, 2)}
    clients = {n: Client(cluster) for n, cluster in made.items()}
    yield clients
    for n in clients:
        clients[n].close()
        made[n].close()


@pytest.fixture
def client(clusters):
    """The two-worker cluster, with both workers up."""
    clusters[2].wait_for_workers(2, timeout=30)
    return clusters[2]


def test_the_workers_run_this_nardy(client):
    import nardy

    assert set(client.run(lambda: __import__("nardy").__file__).values()) == {nardy.__file__}


@pytest.mark.parametrize("chunk_size", [1, 37, 500])
@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("variant", ["long", "short"])
def test_a_cluster_plays_the_same_games_as_one_thread(clusters, variant, workers, chunk_size):
    games = 120 if chunk_size == 1 else 400
    local = simulate(variant, games, seed=21, chunk_size=chunk_size, threads=1, record=True)
    remote = simulate(variant, games, seed=21, chunk_size=chunk_size, record=True, executor=clusters[workers])
    assert_same_games(remote, local)
    assert remote.threads == workers


@pytest.mark.parametrize("rules, start", [
    (Rules("long", last_roll_draw=True, opening="dice"), None),
    (Rules("short", opening="reroll"), None),
    (Rules("long"), Position.from_points("long", white={1: 3, 2: 2}, black={24: 15}, own_numbers=True)),
], ids=["long-options", "short-reroll", "long-rollout"])
def test_rule_options_and_rollouts_on_a_cluster(client, rules, start):
    local = simulate(rules, 300, seed=5, chunk_size=64, threads=2, start=start, policy="greedy")
    assert_same_games(simulate(rules, 300, seed=5, chunk_size=64, start=start, policy="greedy", executor=client), local)


def test_an_evaluator_policy_is_shipped_to_the_workers(client):
    def own_pips(after):
        return -batch.pips(after, Variant.LONG)[:, 0].astype(float)

    local = simulate("long", 40, seed=8, chunk_size=10, policy=own_pips)
    remote = simulate("long", 40, seed=8, chunk_size=10, policy=own_pips, executor=client)
    assert_same_games(remote, local)
    assert remote.policy == "own_pips"


def test_a_rollout_on_a_cluster_is_the_local_rollout(client):
    from nardy.evaluation.rollout import rollout

    p = Position.start("short")
    local = rollout(p, 120, seed=4, chunk_size=30, luck=True, threads=2)
    assert rollout(p, 120, seed=4, chunk_size=30, luck=True, executor=client) == local
    with pytest.raises(InvalidArgumentError, match="threads applies to local threads only"):
        rollout(p, 10, executor=client, threads=2)
    with pytest.raises(InvalidArgumentError, match="executor must be a distributed.Client"):
        rollout(p, 10, executor=ThreadPoolExecutor(1))


def test_progress_is_reported_once_per_chunk(client):
    calls = []
    simulate("short", 250, seed=2, chunk_size=60, executor=client, progress=lambda done, games: calls.append((done, games)))
    done = [d for d, _ in calls]
    assert len(calls) == 5 and done == sorted(done) and done[-1] == 250 and {g for _, g in calls} == {250}
    assert set(np.diff([0] + done)) <= {60, 10}  # each step is one chunk, in whatever order they finish


def test_no_games_need_no_tasks(client):
    s = simulate("long", 0, seed=1, executor=client, record=True)
    assert s.games == 0 and s.final.shape == (0, 26) and s.trace.shape == (0, 29) and list(s.trace_offsets) == [0]


def worker_pids(client):
    """{worker address: process id}."""
    return client.run(os.getpid)


def times_started(client, key):
    """How often the scheduler sent the task `key` to a worker (from its transition log)."""
    return sum(1 for event in client.story(key)
               if len(event) >= 4 and event[0] == "scheduler" and event[1] == key and event[3] == "processing")


def test_a_worker_killed_mid_run_loses_and_duplicates_no_games(client):
    """SIGKILL a worker that is playing a chunk once 1000 games are in; its chunks are run again."""
    pids = worker_pids(client)
    killed = {}

    def kill_a_busy_worker(done, games):
        if killed or done < 1000:
            return
        busy = {address: keys for address, keys in client.processing().items() if keys}
        if not busy:
            return  # between tasks: try at the next chunk
        address = sorted(busy)[0]
        killed.update(address=address, pid=pids[address], chunks=list(busy[address]), done=done)
        os.kill(pids[address], signal.SIGKILL)

    games, chunk = 20_000, 250
    remote = simulate("long", games, seed=13, chunk_size=chunk, executor=client, progress=kill_a_busy_worker)
    assert killed["chunks"] and killed["done"] < games // 2  # it died with work in hand, early in the run
    assert max(times_started(client, key) for key in killed["chunks"]) == 2  # the scheduler ran its chunk again
    client.wait_for_workers(2, timeout=30)  # the nanny starts a new worker process
    assert killed["pid"] not in worker_pids(client).values()
    assert_same_games(remote, simulate("long", games, seed=13, chunk_size=chunk, threads=2))


def test_a_worker_that_dies_inside_a_chunk_has_the_chunk_run_again(client, tmp_path):
    """The first evaluator call anywhere kills its own worker process: that chunk dies half-played."""
    marker = tmp_path / "killed"

    def own_pips_or_die(after):
        if not marker.exists():
            marker.write_text(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)
        return -batch.pips(after, Variant.SHORT)[:, 0].astype(float)

    def own_pips(after):
        return -batch.pips(after, Variant.SHORT)[:, 0].astype(float)

    before = set(worker_pids(client).values())
    remote = simulate("short", 30, seed=4, chunk_size=10, policy=own_pips_or_die, executor=client)
    killed = int(marker.read_text())
    client.wait_for_workers(2, timeout=30)
    assert killed in before and killed not in worker_pids(client).values()
    assert_same_games(remote, simulate("short", 30, seed=4, chunk_size=10, policy=own_pips))


def test_a_policy_that_cannot_be_pickled_is_refused(client):
    lock = threading.Lock()

    def locked(after):
        with lock:
            return np.zeros(len(after))

    with pytest.raises(SimulationError, match="policy function cannot be sent to the Dask workers: TypeError: .*lock"):
        simulate("long", 4, seed=1, chunk_size=2, policy=locked, executor=client)


def test_an_error_in_a_chunk_is_raised_here(client):
    with pytest.raises(SimulationError, match="finite scores"):
        simulate("long", 20, seed=1, chunk_size=5, policy=lambda after: np.zeros(3), executor=client)


@pytest.mark.parametrize("executor, threads, match", [
    (ThreadPoolExecutor(1), None, "executor must be a distributed.Client"),
    ("tcp://127.0.0.1:8786", None, "executor must be a distributed.Client"),
    ("client", 2, "threads applies to local threads only"),
])
def test_bad_executors_are_refused(client, executor, threads, match):
    with pytest.raises(SimulationError, match=match):
        simulate("long", 10, seed=1, threads=threads, executor=client if executor == "client" else executor)


def test_a_closed_client_is_refused(clusters):
    closed = Client(clusters[1].scheduler.address)
    closed.close()
    with pytest.raises(SimulationError, match="the Dask client is closed, not running"):
        simulate("long", 10, seed=1, executor=closed)


def test_cli_simulate_on_a_scheduler(client, capsys):
    address = client.scheduler.address
    assert main(["simulate", "short", "--games", "300", "--seed", "3", "--chunk-size", "50", "--scheduler", address]) == 0
    remote = capsys.readouterr().out.splitlines()
    assert main(["simulate", "short", "--games", "300", "--seed", "3", "--chunk-size", "50", "--threads", "1"]) == 0
    local = capsys.readouterr().out.splitlines()
    assert remote[0] == local[0] and remote[2:] == local[2:]  # all but the timing line
    assert " on 2 thread(s)" in remote[1]
    assert main(["simulate", "short", "--games", "10", "--scheduler", "nonsense"]) == 2
    assert "cannot connect to the Dask scheduler at 'nonsense'" in capsys.readouterr().err


def test_without_dask_the_scheduler_option_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` now fails
    with pytest.raises(InvalidArgumentError, match=r"pip install '\.\[dask\]' in nardy's checkout"):
        connect("tcp://127.0.0.1:8786")


def test_nardy_imports_and_simulates_without_dask():
    code = ("import sys; sys.modules['dask'] = sys.modules['distributed'] = None\n"  # as if not installed
            "import nardy\n"
            "assert nardy.simulate('short', 20, seed=1, threads=1).games == 20\n"
            "try:\n"
            "    nardy.simulate('short', 20, seed=1, executor=object())\n"
            "except nardy.SimulationError as exc:\n"
            "    print(exc)\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "executor must be a distributed.Client" in run.stdout
    loaded = subprocess.run([sys.executable, "-c", "import sys, nardy; print(sorted({'dask', 'distributed'} & set(sys.modules)))"],
                            capture_output=True, text=True, timeout=60)
    assert loaded.stdout.strip() == "[]", loaded.stderr  # importing nardy does not load dask
