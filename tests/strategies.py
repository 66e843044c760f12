"""Hypothesis strategies: valid mover's-view boards of either variant, and rule sets."""

from __future__ import annotations

import itertools

from hypothesis import assume
from hypothesis import strategies as st

from nardy import Rules, reference

LONG_RULES = [
    Rules("long", head_exception=h, block_rule=b, block_timing=t)
    for h, b, t in itertools.product(("strict", "permission", "none"), ("ahead", "home", "none"), ("step", "end"))
]
SHORT_RULES = [Rules("short")]
ALL_RULES = LONG_RULES + SHORT_RULES


def _spread(draw: st.DrawFn, checkers: int, points: list[int]) -> dict[int, int]:
    """Put `checkers` (>= len(points)) on `points`, at least one on each."""
    counts = {p: 1 for p in points}
    for _ in range(checkers - len(points)):
        counts[draw(st.sampled_from(points))] += 1
    return counts


@st.composite
def boards(draw: st.DrawFn, rules: Rules) -> tuple[int, ...]:
    """A valid, unfinished board: anywhere, racing, bearing off or nearly empty; with bars in short nardy."""
    short = rules.variant.value == "short"
    shape = draw(st.sampled_from(["anywhere", "anywhere", "bear_off", "sparse", "start"]))
    if shape == "start":
        # a long nardy side's first turn, or the short opening, with the other side anywhere
        mine = {24: 15} if not short else {24: 2, 13: 5, 8: 3, 6: 5}
        free = [p for p in range(1, 25) if p not in mine]
    else:
        region = list(range(1, 7)) if shape == "bear_off" else list(range(1, 25))
        n_mine = draw(st.integers(1, 15 if shape != "sparse" else 3))
        k = draw(st.integers(1, min(n_mine, len(region))))
        points = draw(st.lists(st.sampled_from(region), min_size=k, max_size=k, unique=True))
        mine = _spread(draw, n_mine, points)
        free = [p for p in range(1, 25) if p not in mine]
    n_theirs = draw(st.integers(1, 15 if shape != "sparse" else 3))
    j = draw(st.integers(1, min(n_theirs, len(free))))
    theirs = _spread(draw, n_theirs, draw(st.lists(st.sampled_from(free), min_size=j, max_size=j, unique=True)))
    board = [0] * 26
    for p, n in mine.items():
        board[p] = n
    for p, n in theirs.items():
        board[p] = -n
    if short and shape != "start":
        # move a few checkers from the board to the bars
        for sign, index in ((1, 25), (-1, 0)):
            taken = draw(st.integers(0, 2))
            for _ in range(taken):
                held = [p for p in range(1, 25) if board[p] * sign > 1]
                if held:
                    p = draw(st.sampled_from(held))
                    board[p] -= sign
                    board[index] += sign
    board = tuple(board)
    assume(reference.status(board, rules) == 0)
    return board


rolls = st.tuples(st.integers(1, 6), st.integers(1, 6))


def played_moves(variant: str, starter: str, seed: int, games: int = 1):
    """(position, move) for every ply of `games` random games played to the end (passes left out)."""
    import random

    from nardy import Position

    rng = random.Random(seed)
    for _ in range(games):
        position = Position.start(variant, starter)
        while not position.is_game_over():
            moves = position.legal_moves((rng.randint(1, 6), rng.randint(1, 6)))
            move = rng.choice(moves)
            if move.steps:
                yield position, move
            position = position.apply(move) if move.steps else position.pass_turn()
