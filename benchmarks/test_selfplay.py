"""Self-play throughput: complete random-policy games per second, on one thread and on two."""

from __future__ import annotations

import pytest

from nardy import simulate
from conftest import per_item

GAMES = 20_000


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("variant", ["long", "short"])
def test_selfplay_random(benchmark, variant, threads):
    benchmark.group = f"selfplay-{variant}"
    result = benchmark.pedantic(simulate, (variant, GAMES), {"seed": 1, "threads": threads, "chunk_size": 500},
                                rounds=3, iterations=1)
    assert result.games == GAMES and set(result.winner.tolist()) <= {0, 1}
    assert result.kind.min() >= 1 and result.kind.max() <= 3
    reference = simulate(variant, 2000, seed=1, threads=1, chunk_size=500)
    assert (result.plies[:2000] == reference.plies).all()  # the same games, whatever the threads
    per_item(benchmark, GAMES)
    stats = getattr(benchmark, "stats", None)
    if stats is not None and getattr(stats, "stats", None) is not None:  # games per second of the timer
        benchmark.extra_info["games_per_second"] = GAMES / stats.stats.min  # (CPU with time.process_time)
