"""Move generation: the compiled core over the whole corpus, and core vs reference on one sample."""

from __future__ import annotations

import time

import pytest

import numpy as np

from nardy import Rules, batch
from nardy import _backend as engine, _hooks
from conftest import per_item, record_form, record_pairs

SAMPLE = 60  # positions (x 21 rolls) on which the reference runs beside the core


def rows_of(corpus, variant, kind, rows, mixed=False):
    """`rows` (position, roll) rows of a corpus: its rows in order, repeated as needed (or only the
    mixed rolls); contiguous int8, as the lean path takes them."""
    views, rolls = corpus[variant].with_rolls(kind)
    if mixed:
        keep = rolls[:, 0] != rolls[:, 1]
        views, rolls = views[keep], rolls[keep]
    index = np.arange(rows) % len(views)
    return np.ascontiguousarray(views[index]), np.ascontiguousarray(rolls[index])


@pytest.mark.parametrize("form", ["kernel", "workspace", "fresh"])
@pytest.mark.parametrize("rows", [1000, 100_000])
@pytest.mark.parametrize("kind", ["contact", "race"])
@pytest.mark.parametrize("variant", ["long", "short"])
def test_batch_vs_kernel(benchmark, corpus, variant, kind, rows, form):
    """batch.generate (into a reused Workspace, or fresh arrays) against the bare kernel (one
    reused generator in a nogil loop, nothing checked or kept), same rows; the ratios are printed
    at the end of the run."""
    benchmark.group = f"batch-vs-kernel-{variant}-{kind}-{rows}"
    views, rolls = rows_of(corpus, variant, kind, rows)
    rules = Rules(variant)
    expected = _hooks.kernel(views, rolls, engine.core_rules(rules))
    if form == "kernel":
        total = benchmark(_hooks.kernel, views, rolls, engine.core_rules(rules))
    else:
        out = batch.Workspace() if form == "workspace" else None
        batch.generate(views, rolls, rules, out=out)  # the workspace's buffers grown once
        total = len(benchmark(batch.generate, views, rolls, rules, out=out)[0])
    assert total == expected
    per_item(benchmark, rows, results=total)
    record_form(benchmark, form, total)


@pytest.mark.parametrize("rows", [1000, 100_000])
@pytest.mark.parametrize("kind", ["contact", "race"])
@pytest.mark.parametrize("variant", ["long", "short"])
def test_batch_over_kernel_paired(benchmark, corpus, variant, kind, rows):
    """batch.generate into a reused Workspace over the bare kernel, timed in pairs a moment apart
    (CPU time; which goes first alternates): a slow spell of a shared machine slows both halves of
    a pair, so the pairs' ratio is steadier than that of two benchmarks' minimums taken a minute
    apart. The ratio and its 95% interval are printed at the end of the run."""
    benchmark.group = f"paired-{variant}-{kind}-{rows}"
    views, rolls = rows_of(corpus, variant, kind, rows)
    rules = Rules(variant)
    codes = engine.core_rules(rules)
    out = batch.Workspace()
    expected = len(batch.generate(views, rolls, rules, out=out)[0])  # the workspace's buffers grown once
    pairs: list[tuple[int, int]] = []

    def timed(run):
        start = time.process_time_ns()
        value = run()
        return time.process_time_ns() - start, value

    def kernel():
        return _hooks.kernel(views, rolls, codes)

    def workspace():
        return len(batch.generate(views, rolls, rules, out=out)[0])

    def pair():
        if len(pairs) % 2:  # the batch call first
            (batch_ns, got), (kernel_ns, total) = timed(workspace), timed(kernel)
        else:
            (kernel_ns, total), (batch_ns, got) = timed(kernel), timed(workspace)
        pairs.append((kernel_ns, batch_ns))
        return total, got

    total, got = benchmark.pedantic(pair, rounds=101 if rows <= 1000 else 21, warmup_rounds=1)
    assert total == got == expected
    per_item(benchmark, rows, results=total)
    record_pairs(benchmark, pairs[1:], total)  # (the warm-up's pair dropped)


@pytest.mark.parametrize("variant", ["long", "short"])
def test_kernel_race_mixed_rolls(benchmark, corpus, variant):
    """The bare kernel on the race corpus's mixed rolls only (the bear-off pair walk's rows)."""
    benchmark.group = f"kernel-race-mixed-{variant}"
    views, rolls = rows_of(corpus, variant, "race", 20_000, mixed=True)
    total = benchmark(_hooks.kernel, views, rolls, engine.core_rules(Rules(variant)))
    assert total == len(batch.generate(views, rolls, Rules(variant))[0])
    per_item(benchmark, len(views), results=total)


@pytest.mark.parametrize("form", ["workspace", "default"])
@pytest.mark.parametrize("variant", ["long", "short"])
def test_single_row_batch_call(benchmark, corpus, variant, form):
    """batch.generate on one row at a time (50 different rows): the lean path's cost per call."""
    benchmark.group = "single-call"
    views, rolls = rows_of(corpus, variant, "contact", 50)
    calls = [(views[i:i + 1], rolls[i:i + 1]) for i in range(len(views))]
    rules = Rules(variant)
    out = batch.Workspace() if form == "workspace" else None
    generate = batch.generate

    def run():
        return sum(len(generate(v, r, rules, out=out)[0]) for v, r in calls)

    total = benchmark(run)
    assert total == len(batch.generate(views, rolls, rules)[0])
    per_item(benchmark, len(calls), results=total)


@pytest.mark.parametrize("kind", ["contact", "race"])
@pytest.mark.parametrize("variant", ["long", "short"])
def test_movegen_core_corpus(benchmark, corpus, variant, kind):
    benchmark.group = f"movegen-{variant}-{kind}"
    views, rolls = corpus[variant].with_rolls(kind)
    children, offsets, _ = benchmark(batch.generate, views, rolls, Rules(variant))
    assert len(children) == corpus[variant].results[kind]
    per_item(benchmark, len(views), results=len(children))


@pytest.mark.parametrize("backend", ["cython", "python"])
@pytest.mark.parametrize("kind", ["contact", "race"])
@pytest.mark.parametrize("variant", ["long", "short"])
def test_movegen_speedup_sample(benchmark, corpus, variant, kind, backend):
    """The same sample through both backends' batch API, so the speed-up is a ratio in one run."""
    benchmark.group = f"speedup-{variant}-{kind}"
    views, rolls = corpus[variant].with_rolls(kind, SAMPLE)
    rules = Rules(variant)
    if backend == "python":
        children, _, _ = benchmark.pedantic(batch.generate, (views, rolls, rules), {"backend": backend}, rounds=3)
    else:
        children, _, _ = benchmark(batch.generate, views, rolls, rules, backend=backend)
    expected, _, _ = batch.generate(views, rolls, rules, backend="python" if backend == "cython" else "cython")
    assert sorted(map(bytes, children)) == sorted(map(bytes, expected))
    per_item(benchmark, len(views), results=len(children))


@pytest.mark.parametrize("variant", ["long", "short"])
def test_single_call_through_the_engine(benchmark, corpus, variant):
    """One (position, roll) per Python call: the cost a caller sees beyond the kernel."""
    benchmark.group = "single-call"
    views, rolls = corpus[variant].with_rolls("contact", 50)
    boards = [bytes(v.tobytes()) for v in views]
    dice = [tuple(r) for r in rolls.tolist()]
    rules = Rules(variant)

    def run():
        return sum(len(engine.results(b, d, rules)) for b, d in zip(boards, dice))

    total = benchmark(run)
    assert total == len(batch.generate(views, rolls, rules)[0])
    per_item(benchmark, len(boards), results=total)


@pytest.mark.parametrize("variant", ["long", "short"])
def test_single_call_kernel_entry(benchmark, corpus, variant):
    """The thinnest single call: the core's reusable generator, returning bytes."""
    benchmark.group = "single-call"
    views, rolls = corpus[variant].with_rolls("contact", 50)
    boards = [bytes(v.tobytes()) for v in views]
    dice = rolls.tolist()
    codes = engine.core_rules(Rules(variant))
    moves = engine.generator().moves

    def run():
        return sum(moves(b, d[0], d[1], codes)[1] for b, d in zip(boards, dice))

    total = benchmark(run)
    assert total == len(batch.generate(views, rolls, Rules(variant))[0])
    per_item(benchmark, len(boards), results=total)


@pytest.mark.parametrize("variant", ["long", "short"])
def test_single_call_raw_results(benchmark, corpus, variant):
    """The thin Python API for one call: `engine.raw_results`, bytes out, no object per result."""
    benchmark.group = "single-call"
    views, rolls = corpus[variant].with_rolls("contact", 50)
    boards = [bytes(v.tobytes()) for v in views]
    dice = [tuple(r) for r in rolls.tolist()]
    rules = Rules(variant)
    raw = engine.raw_results

    def run():
        return sum(raw(b, d, rules)[0] for b, d in zip(boards, dice))

    total = benchmark(run)
    assert total == len(batch.generate(views, rolls, rules)[0])
    per_item(benchmark, len(boards), results=total)
