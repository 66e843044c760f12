"""The evaluator: afterstate evaluations per second in the core, and the cost of ranking a roll.

The afterstates are every result of the corpora's contact and race positions with all 21 rolls
(what a 0-ply player evaluates), judged by the shipped net's forward pass in one call per
round (`Net.forward`, the compiled loop without the GIL). Target: at least 5 million afterstate
evaluations per second on one core (CPU time: `--benchmark-timer=time.process_time`).
"""

from __future__ import annotations

import numpy as np
import pytest

from conftest import per_item
from nardy import Position, Rules, batch
from nardy.evaluation.net import Net, default_judge, default_net, rank


@pytest.fixture(scope="module")
def afterstates(corpus):
    found = {}
    for variant in ("long", "short"):
        for kind in ("contact", "race"):
            views, rolls = corpus[variant].with_rolls(kind)
            children, _, _ = batch.generate(views, rolls, Rules(variant))
            found[variant, kind] = children
    return found


@pytest.mark.parametrize("kind", ["contact", "race"])
@pytest.mark.parametrize("variant", ["long", "short"])
def test_forward(benchmark, afterstates, variant: str, kind: str) -> None:
    """The shipped judge (`default_judge`: the net and, for the races, its race net)."""
    benchmark.group = "eval-forward"
    judge = default_judge(variant)
    rows = afterstates[variant, kind]
    out = benchmark(judge.forward, rows, after=True)
    assert out.shape == (len(rows), 5) and np.isfinite(out).all()
    per_item(benchmark, len(rows), hidden=default_net(variant).hidden)


@pytest.mark.parametrize("hidden", [64, 128, 256])
@pytest.mark.parametrize("kind", ["contact", "race"])
@pytest.mark.parametrize("variant", ["long", "short"])
def test_forward_expert(benchmark, afterstates, variant: str, kind: str, hidden: int) -> None:
    """A net of the expert inputs (TD-Gammon's 198 units and the 28 of docs/evaluator-inputs.md,
    computed per board in the core) of `hidden` units; untrained weights cost as trained ones."""
    benchmark.group = "eval-forward-expert"
    net = Net.initial(variant, hidden, seed=1, inputs="expert")
    rows = afterstates[variant, kind]
    out = benchmark(net.forward, rows, after=True)
    assert out.shape == (len(rows), 5) and np.isfinite(out).all()
    per_item(benchmark, len(rows), hidden=net.hidden)


@pytest.mark.parametrize("variant", ["long", "short"])
def test_expert_inputs(benchmark, afterstates, variant: str) -> None:
    """The 28 expert inputs alone (`nardy._net.features`), contact afterstates."""
    from nardy import _net

    benchmark.group = "eval-expert-inputs"
    rows = np.ascontiguousarray(afterstates[variant, "contact"])
    out = benchmark(_net.features, rows, variant == "short", True)
    assert out.shape == (len(rows), _net.FEATURES)
    per_item(benchmark, len(rows))


@pytest.mark.parametrize("ply", [0, 1, 2])
@pytest.mark.parametrize("variant", ["long", "short"])
def test_rank_a_mixed_roll(benchmark, corpus, variant: str, ply: int) -> None:
    """One contact position's plays of 3-1 ranked (ply 1: each candidate against 21 replies;
    ply 2: and each reply's result against the mover's 21 rolls)."""
    benchmark.group = f"eval-rank-ply{ply}"
    view = next(v for v in corpus[variant].boards["contact"]
                if len(Position(v.tolist(), variant).legal_moves((3, 1))) >= 6)
    p = Position(view.tolist(), variant)
    ranked = benchmark(rank, p, (3, 1), ply=ply)
    assert len(ranked) == len(p.legal_moves((3, 1)))


@pytest.mark.parametrize("variant", ["long", "short"])
def test_rollout_1296_games(benchmark, variant: str) -> None:
    """A rollout of 1296 games of the start (a contact position), 0-ply, no luck adjustment.
    Target: at most 1 s on one core."""
    from nardy.evaluation.rollout import rollout

    benchmark.group = "eval-rollout"
    result = benchmark.pedantic(rollout, (Position.start(variant), 1296), kwargs={"seed": 1}, rounds=3)
    assert result.games == 1296 and 0 < result.probs[0] < 1
