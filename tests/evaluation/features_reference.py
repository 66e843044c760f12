"""The evaluator's 28 expert inputs in plain Python, one board at a time, without tables: the
definition the compiled core (cython/nardy/_features.h) is tested against. docs/evaluator-inputs.md
says what each input means."""

from __future__ import annotations

from typing import Sequence

SIDE = 13
COUNT = 2 * SIDE + 2
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, 7)]   # the 36 rolls, ordered


def sides(board: Sequence[int], short: bool, flip: bool) -> tuple[list[int], list[int]]:
    """(us, them): each side's checkers on its own points 1..24 (index 25: short nardy's bar)."""
    pos, neg = [0] * 26, [0] * 26
    for p in range(1, 25):
        if board[p] > 0:
            pos[p] = board[p]
        elif board[p] < 0:
            neg[other_point(p, short)] = -board[p]
    if short:
        pos[25], neg[25] = board[25], -board[0]
    return (neg, pos) if flip else (pos, neg)


def other_point(x: int, short: bool) -> int:
    """A side's point x in the other side's numbers."""
    return 25 - x if short else (x + 12 if x <= 12 else x - 12)


def placed(side: list[int], short: bool) -> list[int]:
    """The other side's checkers on this side's numbers (index 0: its bar, short nardy)."""
    out = [0] * 26
    for x in range(1, 25):
        out[x] = side[other_point(x, short)]
    if short:
        out[0] = side[25]
    return out


def escapes(blocked: set[int], q: int) -> int:
    """Of the 36 rolls, those with which a checker on point q lands beyond the farthest blocked
    point among the 12 ahead of it (q-1 .. q-12), landing on open points only."""
    ahead = [d for d in range(1, 13) if q - d >= 1 and q - d in blocked]
    if not ahead:
        return 36
    last = max(ahead)

    def open_(d: int) -> bool:
        return d > 12 or d not in ahead

    count = 0
    for a, b in ROLLS:
        reach = []
        if a == b:
            for k in range(1, 5):
                if not open_(k * a):
                    break
                reach.append(k * a)
        else:
            reach += [d for d in (a, b) if open_(d)]
            if (open_(a) or open_(b)) and open_(a + b):
                reach.append(a + b)
        count += any(d > last for d in reach)
    return count


def shots(opp: list[int], own: list[int]) -> tuple[int, int]:
    """(direct, any): of the 36 rolls, those with which the other side (opp on our numbers,
    moving up them; index 0 its bar) lands on one of our blots with a single die, or at any
    step of its move, never landing on a point we have made."""
    starts = [x for x in range(0, 25) if opp[x] > 0]
    blots = {x for x in range(1, 25) if own[x] == 1}
    made = {x for x in range(1, 25) if own[x] > 1}
    direct = any_ = 0
    for a, b in ROLLS:
        hit_direct = any(s + d in blots for s in starts for d in (a, b))
        hit = hit_direct
        for s in starts:
            paths = [[a] * 4] if a == b else [[a, b], [b, a]]
            for path in paths:
                at = s
                for d in path:
                    at += d
                    if at > 24 or at in made:
                        break
                    if at in blots:
                        hit = True
        direct += hit_direct
        any_ += hit
    return direct, any_


def longest_run(points: set[int]) -> int:
    best = run = 0
    for x in range(1, 25):
        run = run + 1 if x in points else 0
        best = max(best, run)
    return best


def side_features(own: list[int], opp: list[int], short: bool) -> tuple[list[float], int]:
    """The 13 inputs of one side and its pip count."""
    last = 25 if short else 24
    pips = sum(x * own[x] for x in range(1, last + 1))
    checkers = [x for x in range(1, last + 1) if own[x] > 0]
    top = max(checkers, default=0)
    behind = [x for x in range(0 if short else 1, 25) if opp[x] > 0]
    low = min(behind, default=99)
    brk = sum(own[x] * (x - low) for x in range(1, last + 1) if x > low)
    free = sum(own[x] for x in range(1, last + 1) if x <= low)
    own_made = {x for x in range(1, 25) if own[x] > 1}
    home = len(own_made & set(range(1, 7)))
    if short:
        blocks = {x for x in range(1, 25) if opp[x] > 1}
        direct, any_ = shots(opp, own)
        trapped = min(escapes(blocks, q) for q in range(13, 25))
        return [pips / 100, brk / 100, sum(own[x] == 1 for x in range(1, 25)) / 8, any_ / 36, home / 6,
                longest_run(own_made) / 6, len(own_made & set(range(19, 25))) / 3,
                (escapes(blocks, top) if top else 36) / 36, 1 - trapped / 36,
                (own[25] + sum(own[19:25])) / 5, sum(own[x] * (x - 6) for x in range(7, 26)) / 100,
                (home / 6) ** 2 if opp[0] > 0 else 0.0, direct / 36], pips
    held = {x for x in range(1, 25) if own[x] > 0}
    blocks = {x for x in range(1, 25) if opp[x] > 0}
    run = longest_run(held)
    opp_top = max((other_point(x, short) for x in range(1, 25) if opp[x] > 0), default=0)
    ahead = [t for t in range(opp_top - 1, max(opp_top - 13, 0), -1) if own[other_point(t, short)] > 0]
    trapped = min(escapes(blocks, q) for q in range(13, 25))
    return [pips / 100, own[24] / 15, sum(own[13:25]) / 15, free / 15, run / 6, float(run >= 5),
            sum(t >= opp_top - 6 for t in ahead) / 6, len(ahead) / 12,
            (escapes(blocks, top) if top else 36) / 36, 1 - trapped / 36, len(held & set(range(1, 7))) / 6,
            sum(own[1:7]) / 15, brk / 100], pips


def features(board: Sequence[int], short: bool, flip: bool) -> list[float]:
    """The 28 inputs of a board (the side on roll: the positive one, or with `flip` the negative)."""
    us, them = sides(board, short, flip)
    ours, our_pips = side_features(us, placed(them, short), short)
    theirs, their_pips = side_features(them, placed(us, short), short)
    brk = 1 if short else 12
    return ours + theirs + [(their_pips - our_pips) / 100, float(ours[brk] > 0 or theirs[brk] > 0)]
