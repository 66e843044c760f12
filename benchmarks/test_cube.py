"""0-ply cube decisions: `nardy.cube.decide` with given cubeless probabilities (the cube
arithmetic alone), and with nardy's own evaluation of the position.

The positions are the short corpus's first 200 contact and 200 race positions, each decided at
money (centred cube, Jacoby) and at three 7-point match scores. Target: a 0-ply decision in
at most 50 us (the per-item figure, `ns_per_item_min`, of the "cube-decide" group), a 2-ply one
(gnubg's n-ply cubeful look-ahead) in at most 20 ms ("cube-decide-2ply": 10 contact and 10 race
positions at money and at 7-point 2-4).
"""

from __future__ import annotations

import pytest

from conftest import per_item
from nardy import Position
from nardy.cube import decide
from nardy.eval import evaluate
from nardy.notation import MatchState

STATES = [MatchState(jacoby=True), MatchState(match_length=7), MatchState(match_length=7, score=(2, 4)),
          MatchState(match_length=7, score=(5, 3), cube_value=2, cube_owner=1)]


@pytest.fixture(scope="module")
def cases(corpus):
    boards = [*corpus["short"].boards["contact"][:200], *corpus["short"].boards["race"][:200]]
    positions = [Position([int(v) for v in board], "short") for board in boards]
    probabilities = [tuple(map(float, row)) for row in evaluate(positions)]
    return [(p, s, q) for p, q in zip(positions, probabilities) for s in STATES]


def test_decide_with_probabilities(benchmark, cases) -> None:
    benchmark.group = "cube-decide"

    def run() -> None:
        for position, state, probabilities in cases:
            decide(position, state, probabilities=probabilities)

    benchmark(run)
    per_item(benchmark, len(cases))


def test_decide_with_nardys_evaluation(benchmark, cases) -> None:
    benchmark.group = "cube-decide-eval"
    few = cases[::16]

    def run() -> None:
        for position, state, _ in few:
            decide(position, state)

    benchmark(run)
    per_item(benchmark, len(few))


def test_decide_two_ply(benchmark, cases) -> None:
    benchmark.group = "cube-decide-2ply"
    few = [c for c in cases[:40] + cases[800:840] if c[1] in (STATES[0], STATES[2])]

    def run() -> None:
        for position, state, _ in few:
            decide(position, state, ply=2)

    benchmark.pedantic(run, rounds=3, iterations=1)
    per_item(benchmark, len(few))
