"""The object API one call at a time, beside the core's private generator on the same calls:
`Position.legal_moves`, `children` and `apply`, `eval.rank(ply=0)`, and the public `batch.Generator`.
Per-call figures and their ratios to the private generator are printed at the end of the run."""

from __future__ import annotations

import pytest

from nardy import Position, Rules, batch
from nardy import _backend as engine
from conftest import per_item, record_call

CALLS = 50  # positions (x 21 rolls) of the short contact corpus


def calls_of(corpus, variant, plays=None):
    """[(position, dice)] of the corpus's contact positions with each roll (only those with
    `plays` legal plays, when given)."""
    views, rolls = corpus[variant].with_rolls("contact", CALLS if plays is None else None)
    found = [(Position(v.tobytes(), variant), tuple(d)) for v, d in zip(views, rolls.tolist())]
    if plays is not None:
        found = [(p, d) for p, d in found if len(p.legal_moves(d)) == plays][:200]
    return found


def kernel_entry(benchmark, calls, variant):
    boards = [(p.to_bytes(), d[0], d[1]) for p, d in calls]
    codes = engine.core_rules(Rules(variant))
    moves = engine.generator().moves
    return benchmark(lambda: sum(moves(b, d1, d2, codes)[1] for b, d1, d2 in boards))


@pytest.mark.parametrize("form", ["kernel-entry", "public-generator", "legal_moves", "children", "apply"])
@pytest.mark.parametrize("variant", ["short", "long"])
def test_one_position_at_a_time(benchmark, corpus, variant, form):
    """One (position, roll) per call, 1,050 calls: the object API against the private generator."""
    benchmark.group = f"objects-{variant}-contact"
    calls = calls_of(corpus, variant)
    expected = sum(len(p.legal_moves(d)) for p, d in calls)
    if form == "kernel-entry":
        total = kernel_entry(benchmark, calls, variant)
    elif form == "public-generator":
        boards = [(p.to_bytes(), d[0], d[1]) for p, d in calls]
        moves = batch.Generator(variant).moves
        total = benchmark(lambda: sum(moves(b, d1, d2)[0] for b, d1, d2 in boards))
    elif form == "legal_moves":
        total = benchmark(lambda: sum(len(p.legal_moves(d)) for p, d in calls))
    elif form == "children":
        total = benchmark(lambda: sum(len(p.children(d)) for p, d in calls))
    else:  # each call's first legal move, as a player applies the move it chose
        chosen = [(p, p.legal_moves(d)[0]) for p, d in calls]
        assert [p.apply(m) for p, m in chosen] == [p.apply(m.__class__(m.dice, m.steps)) for p, m in chosen]
        total = expected if benchmark(lambda: [p.apply(m) for p, m in chosen]) else 0
    assert total == expected
    per_item(benchmark, len(calls), results=total)
    record_call(benchmark, form, len(calls))


@pytest.mark.parametrize("form", ["kernel-entry", "rank"])
def test_rank_of_a_twenty_play_roll(benchmark, corpus, form):
    """`eval.rank(ply=0)` of short contact rolls with exactly 20 legal plays."""
    from nardy.evaluation import net as nardy_eval

    benchmark.group = "rank-short-20-plays"
    calls = calls_of(corpus, "short", plays=20)
    if form == "kernel-entry":
        total = kernel_entry(benchmark, calls, "short")
    else:
        nardy_eval.rank(*calls[0])  # the net loaded once
        total = benchmark(lambda: sum(len(nardy_eval.rank(p, d)) for p, d in calls))
    assert total == 20 * len(calls)
    per_item(benchmark, len(calls), results=total)
    record_call(benchmark, form, len(calls))
