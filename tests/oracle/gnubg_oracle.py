"""Independent short-nardy (standard backgammon) move-generation oracle.

Wraps GNU Backgammon's move generator from the PyPI package ``gnubg-nn``
(``pip install gnubg-nn``; import name ``gnubg_nn``).  The package is optional:
it is imported lazily, so tests should do ``pytest.importorskip("gnubg_nn")``.

Positions use the 26-int "mover's view": index 1..24 are the mover's points
(bears off past 1), positive = mover's checkers, negative = opponent's;
index 25 = mover's bar (>= 0), index 0 = opponent's bar (<= 0).

gnubg's board is ``[[opponent x25], [on-roll x25]]``: each side's list is in its
own numbering (slot i = point i+1, slot 24 = bar) and side 1 is the one on roll.
``moves()`` returns position keys of results, not swapped to the other side.

Run ``python gnubg_oracle.py`` for per-roll counts and perft 1/2 from the start.
"""

from __future__ import annotations

import time

ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(d1, 7)]
START = (0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5,
         5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0)


def _gnubg():
    import gnubg_nn  # lazy: optional dependency

    return gnubg_nn


def to_gnubg(view) -> list[list[int]]:
    opp, me = [0] * 25, [0] * 25
    for p in range(1, 25):
        if view[p] > 0:
            me[p - 1] = view[p]
        elif view[p] < 0:
            opp[24 - p] = -view[p]  # mover's p = opponent's 25-p
    me[24], opp[24] = view[25], -view[0]
    return [opp, me]


def from_gnubg(board) -> tuple[int, ...]:
    opp, me = board
    view = [0] * 26
    for p in range(1, 25):
        view[p] = me[p - 1] - opp[24 - p]
    view[25], view[0] = me[24], -opp[24]
    return tuple(view)


def best_play(kind: str, view, d1: int, d2: int) -> list[tuple[int, int]]:
    """The (from, to) steps, in the mover's numbers (25 the bar, 0 off), of pubeval's
    (``kind="pubeval"``) or gnubg's 0-ply (``"gnubg"``) best play of d1-d2."""
    g = _gnubg()
    if kind == "pubeval":
        flat = g.pub_best_move(to_gnubg(view), d1, d2)
        return [(flat[k] + 1, flat[k + 1] + 1) for k in range(0, len(flat), 2)]
    return [tuple(p) for p in g.best_move(to_gnubg(view), d1, d2)]


def distinct_results(view, d1: int, d2: int) -> set[tuple[int, ...]]:
    """Distinct positions (mover's view, before the turn passes) after playing d1-d2."""
    g = _gnubg()
    keys = g.moves(to_gnubg(view), d1, d2)
    if not keys:
        return {tuple(view)}
    return {from_gnubg(g.board_from_position_key(k)) for k in keys}


def flip(view) -> tuple[int, ...]:
    """The same position seen by the other player."""
    new = [0] * 26
    for i in range(1, 25):
        new[i] = -view[25 - i]
    new[25], new[0] = -view[0], -view[25]
    return tuple(new)


def game_over(view) -> bool:
    mover = view[25] + sum(c for c in view[1:25] if c > 0)
    opp = -view[0] - sum(c for c in view[1:25] if c < 0)
    return mover == 0 or opp == 0


def perft(view, depth: int) -> int:
    if depth == 0 or game_over(view):
        return 1
    return sum(perft(flip(child), depth - 1)
               for d1, d2 in ROLLS for child in distinct_results(view, d1, d2))


def main() -> None:
    t0 = time.perf_counter()
    total = 0
    for d1, d2 in ROLLS:
        n = len(distinct_results(START, d1, d2))
        total += n
        print(f"{d1}-{d2}: {n}")
    print(f"perft 1: {total}")
    print(f"perft 2: {perft(START, 2)}")
    print(f"time: {time.perf_counter() - t0:.2f}s")


if __name__ == "__main__":
    main()
