"""Move generation: the compiled core over the whole corpus, and core vs reference on one sample."""

from __future__ import annotations

import pytest

from nardy import Rules, batch, engine
from conftest import per_item

SAMPLE = 60  # positions (x 21 rolls) on which the reference runs beside the core


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
