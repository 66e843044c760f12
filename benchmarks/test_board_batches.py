"""Six-block checks, pip counts and per-row batch overhead over a million positions."""

from __future__ import annotations

import numpy as np
import pytest

from nardy import Rules, Variant, batch, reference
from conftest import per_item

MILLION = 1_000_000


def million(corpus, variant):
    boards = np.concatenate([corpus[variant].boards["contact"], corpus[variant].boards["race"]])
    return np.ascontiguousarray(np.tile(boards, (MILLION // len(boards), 1)))


@pytest.mark.parametrize("variant", ["long", "short"])
def test_pips_batch(benchmark, corpus, variant):
    benchmark.group = "pips"
    views = million(corpus, variant)
    pips = benchmark(batch.pips, views, Variant(variant))
    sample = views[:: 997]
    assert pips[:: 997].tolist() == [list(reference.pips(b, Variant(variant))) for b in sample.tolist()]
    per_item(benchmark, len(views))


@pytest.mark.parametrize("timing", ["step", "end"])
def test_six_block_batch(benchmark, corpus, timing):
    benchmark.group = "six-blocks"
    rules = Rules("long", block_timing=timing)
    views = million(corpus, "long")
    flags = benchmark(batch.illegal_blocks, views, rules)
    assert not flags.any()  # positions reached in play never hold an illegal block
    blocked = np.zeros((1, 26), np.int8)
    blocked[0, 19:25], blocked[0, 12], blocked[0, 1] = 2, -15, 3  # the mover's 19..24 held, nobody past
    assert batch.illegal_blocks(blocked, rules).tolist() == [1]
    per_item(benchmark, len(views))


def test_batch_overhead_per_row(benchmark):
    """Rows whose roll cannot be played: the kernel does almost nothing, the rest is overhead."""
    benchmark.group = "batch-overhead"
    dancing = np.zeros(26, np.int8)
    dancing[25], dancing[1], dancing[19:25], dancing[18] = 1, 14, -2, -3
    views = np.ascontiguousarray(np.tile(dancing, (MILLION, 1)))
    rolls = np.ones((MILLION, 2), np.int8)
    children, offsets, _ = benchmark(batch.generate, views, rolls, Rules("short"))
    assert len(children) == MILLION and (children[-1] == dancing).all()
    per_item(benchmark, MILLION)
