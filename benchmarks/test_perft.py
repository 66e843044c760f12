"""perft: the core's deep counts, and core vs reference at the same depth in one run."""

from __future__ import annotations

import pytest

from nardy import Position, Rules
from nardy import _backend as engine


def start(variant):
    return Position.start(variant).to_bytes()


def test_perft_long_depth_4_core(benchmark):
    benchmark.group = "perft-long"
    assert benchmark(engine.perft, start("long"), 4, Rules("long"), "cython") == 2410395


def test_perft_short_depth_3_core(benchmark):
    benchmark.group = "perft-short"
    count = benchmark.pedantic(engine.perft, (start("short"), 3, Rules("short"), "cython"), rounds=1)
    assert count == 116154993


@pytest.mark.parametrize("backend", ["cython", "python"])
@pytest.mark.parametrize("variant, depth, count", [("long", 3, 35387), ("short", 2, 202782)])
def test_perft_speedup(benchmark, variant, depth, count, backend):
    benchmark.group = f"perft-speedup-{variant}"
    if backend == "python":
        got = benchmark.pedantic(engine.perft, (start(variant), depth, Rules(variant), backend), rounds=1)
    else:
        got = benchmark(engine.perft, start(variant), depth, Rules(variant), backend)
    assert got == count
