"""Self-play on a local Dask cluster of one and of two worker processes, beside local threads.

All four runs play the same 40,000 games (one seed, 20 chunks of 2000) in the group
selfplay-executors, so the table's ratios are Dask's scaling from one worker to two and its
overhead over threads.
"""

from __future__ import annotations

import pytest
from distributed import Client, LocalCluster

from nardy import simulate
from conftest import per_item

GAMES, CHUNK = 40_000, 2000


@pytest.fixture(scope="module")
def clusters():
    made = {n: LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0") for n in (1, 2)}
    clients = {n: Client(cluster) for n, cluster in made.items()}
    yield clients
    for n in clients:
        clients[n].close()
        made[n].close()


@pytest.fixture(scope="module")
def reference():
    return simulate("long", GAMES, seed=1, threads=1, chunk_size=CHUNK)


@pytest.mark.parametrize("how", ["threads-1", "threads-2", "dask-1", "dask-2"])
def test_selfplay_executors(benchmark, clusters, reference, how):
    kind, n = how.split("-")
    options = {"threads": int(n)} if kind == "threads" else {"executor": clusters[int(n)]}
    benchmark.group = "selfplay-executors"
    result = benchmark.pedantic(simulate, ("long", GAMES), {"seed": 1, "chunk_size": CHUNK, **options},
                                rounds=3, iterations=1)
    assert (result.plies == reference.plies).all() and (result.winner == reference.winner).all()
    per_item(benchmark, GAMES)
