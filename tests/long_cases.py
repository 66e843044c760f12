"""Helpers for the long nardy rules tests: building mover's-view boards and collecting results.

Every board here is a mover's-view array (docs/rules.md section 1): index 1..24 the mover's points,
positive = the mover's checkers, negative = the opponent's; index 0 and 25 (bars) are 0 in
long nardy. The opponent's own point q is the mover's point `opp(q)`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from nardy import Rules
from nardy import _backend as engine

Board = tuple[int, ...]

ROLLS = tuple((d1, d2) for d1 in range(1, 7) for d2 in range(1, d1 + 1))  # the 21 distinct rolls

# every combination of the long nardy rule options that change move generation
RULE_COMBOS = [
    dict(head_exception=h, block_rule=b, block_timing=t)
    for h in ("strict", "permission", "none")
    for b in ("ahead", "home", "none")
    for t in ("step", "end")
]


def long_rules(**options: object) -> Rules:
    return Rules("long", **options)


def opp(q: int) -> int:
    """The opponent's own point q as the mover's point (long nardy: q+12 or q-12)."""
    assert 1 <= q <= 24
    return q + 12 if q <= 12 else q - 12


def board(mine: Mapping[int, int], theirs: Mapping[int, int]) -> Board:
    """A mover's-view board from {mover's point: count} for each side (both in the MOVER's numbers).

    Checkers not placed are borne off.
    """
    v = [0] * 26
    for p, n in mine.items():
        assert 1 <= p <= 24 and n > 0
        v[p] += n
    for p, n in theirs.items():
        assert 1 <= p <= 24 and n > 0
        assert v[p] == 0, f"both sides on point {p}"
        v[p] -= n
    assert sum(mine.values()) <= 15 and sum(theirs.values()) <= 15
    return tuple(v)


def after(view: Sequence[int], pairs: Iterable[tuple[int, int]]) -> Board:
    """The board after playing (from, to) pairs by hand (0 = off); no legality checks, no hits."""
    v = list(view)
    for src, dst in pairs:
        assert v[src] > 0, f"no mover's checker on {src}"
        v[src] -= 1
        if dst:
            assert v[dst] >= 0, f"point {dst} is held by the opponent"
            v[dst] += 1
    return tuple(v)


def results(view: Sequence[int], dice: tuple[int, int], rules: Rules, backend: str) -> set[Board]:
    """The distinct results of a roll (mover's view, before the turn passes)."""
    found = engine.results(engine.as_bytes(view), dice, rules, backend)
    boards = [engine.as_ints(child) for child, _ in found]
    assert len(boards) == len(set(boards)), "a result is reported twice"
    return set(boards)


def results_with_pairs(view: Sequence[int], dice: tuple[int, int], rules: Rules, backend: str) -> dict[Board, tuple]:
    return {engine.as_ints(child): pairs for child, pairs in engine.results(engine.as_bytes(view), dice, rules, backend)}


def perft(view: Sequence[int], depth: int, rules: Rules, backend: str) -> int:
    return engine.perft(engine.as_bytes(view), depth, rules, backend)


def holds(view: Sequence[int], points: Iterable[int]) -> bool:
    """Does the mover hold every one of these (mover's) points?"""
    return all(view[p] > 0 for p in points)


START: Board = board({24: 15}, {12: 15})
