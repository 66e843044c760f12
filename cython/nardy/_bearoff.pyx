"""The one-sided bear-off table in the compiled core: built without the GIL, looked up in batches.

For every state (0..15 checkers over the six home points, numbered as in _bearoff.pxd) and
each of the 21 rolls, the legal plays come from the move generator itself (gen_moves on a board
holding only the mover's home checkers, the opponent's all borne off), so the rules of play
(as much of the roll as possible, the larger die, bearing off with a higher die) are exactly
docs/rules.md's. Two tables, each P(k turns) for k = 0..K-1 and its mean:

- turns: the turns to bear off every checker, playing each roll to minimise the expected turns;
- first: the turns until at least one checker is borne off, playing each roll to minimise the
  expected turns to that (how a side that may be gammoned plays, as in GNU Backgammon).

Ties (expected turns within TIE) go to the successor with the lowest state index.
"""

import numpy as np

from libc.stdint cimport int8_t, int32_t, int64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy, memset

from nardy._bearoff cimport CHOOSE, STATES, TIE, best_result, home_index
from nardy._board cimport VIEW, rules_of, rules_t
from nardy._movegen cimport gen_free, gen_grow, gen_init, gen_moves, gen_t
from nardy._signals cimport interrupted, reraise

N_STATES = STATES

cdef enum:
    KMAX = 64            # room for the turn distributions while building (the support is checked)


cdef void decode(int32_t index, int8_t* b) noexcept nogil:
    """The board (mover's view, nothing else on it) of a state index."""
    cdef int j, top = 20, s, below = 0
    memset(b, 0, VIEW)
    for j in range(6, 0, -1):
        while CHOOSE[top][j] > index:
            top -= 1
        index -= CHOOSE[top][j]
        s = top - j + 1  # S_j: the checkers on points 7-j..6
        if j < 6:
            b[7 - j - 1] = below - s  # point 6-j holds S_(j+1) - S_j
        below = s
        top -= 1
    b[6] = below


cdef int build_tables(const rules_t* r, double* turns, double* mean, double* first, double* first_mean) noexcept nogil:
    """Fill the tables (STATES x KMAX and STATES); 0, -1 without memory, -2 if a successor were
    not below its state, -3 if KMAX turns were too few, -4 if a signal handler raised (Ctrl-C)."""
    cdef gen_t g
    cdef int8_t board[26]
    cdef const int8_t* child
    cdef int32_t s, idx, t_best, f_best
    cdef int d1, d2, n, i, k, left, child_left
    cdef double w, m, f, t_mean, f_mean, acc_t, acc_f
    cdef double* row_t
    cdef double* row_f
    if gen_init(&g, r, 256) < 0:
        return -1
    memset(turns, 0, STATES * KMAX * sizeof(double))
    memset(first, 0, STATES * KMAX * sizeof(double))
    turns[0] = 1.0  # nothing left: zero turns
    first[0] = 1.0
    mean[0] = first_mean[0] = 0.0
    for s in range(1, STATES):
        if s % 1024 == 0 and interrupted():
            gen_free(&g)
            return -4
        decode(s, board)
        left = 0
        for i in range(1, 7):
            left += board[i]
        row_t = turns + s * KMAX
        row_f = first + s * KMAX
        acc_t = acc_f = 0.0
        for d1 in range(1, 7):
            for d2 in range(1, d1 + 1):
                w = 1.0 if d1 == d2 else 2.0  # in 36ths, divided out below: a sure thing stays exactly 1
                n = gen_moves(&g, board, d1, d2)
                while n < 0:
                    if gen_grow(&g) < 0:
                        return -1
                    n = gen_moves(&g, board, d1, d2)
                t_best = home_index(g.out + VIEW * best_result(g.out, n, mean))
                f_best = -1  # the play towards the first checker off: one that bears off, else the best
                f_mean = 0.0
                for i in range(n):
                    child = g.out + VIEW * i
                    idx = home_index(child)
                    if idx >= s:
                        gen_free(&g)
                        return -2
                    child_left = 0
                    for k in range(1, 7):
                        child_left += child[k]
                    f = 0.0 if child_left < left else first_mean[idx]
                    if f_best < 0 or f < f_mean - TIE or (f <= f_mean + TIE and idx < f_best):
                        f_best, f_mean = idx, f
                acc_t += w * mean[t_best]
                acc_f += w * f_mean
                for k in range(1, KMAX):
                    row_t[k] += w * turns[t_best * KMAX + k - 1]
                if f_mean == 0.0:
                    row_f[1] += w
                else:
                    for k in range(1, KMAX):
                        row_f[k] += w * first[f_best * KMAX + k - 1]
        for k in range(KMAX):
            row_t[k] /= 36.0
            row_f[k] /= 36.0
        mean[s] = 1.0 + acc_t / 36.0
        first_mean[s] = 1.0 + acc_f / 36.0
        if row_t[KMAX - 1] != 0.0 or row_f[KMAX - 1] != 0.0:
            gen_free(&g)
            return -3
    gen_free(&g)
    return 0


def build(tuple rules):
    """(turns, mean, first, first_mean): float64 tables, turns and first cut to their true support.

    `rules` are the core's rule codes; the tables do not depend on them (tests check that).
    """
    cdef rules_t r = rules_of(rules)
    turns = np.zeros((STATES, KMAX), np.float64)
    first = np.zeros((STATES, KMAX), np.float64)
    mean = np.zeros(STATES, np.float64)
    first_mean = np.zeros(STATES, np.float64)
    cdef double[:, ::1] t = turns, f = first
    cdef double[::1] m = mean, fm = first_mean
    cdef int code
    with nogil:
        code = build_tables(&r, &t[0, 0], &m[0], &f[0, 0], &fm[0])
    if code == -4:
        reraise()
    if code == -1:
        raise MemoryError()
    if code == -2:
        raise AssertionError("a bear-off successor was not below its state: the index order is wrong")
    if code == -3:
        raise AssertionError(f"a turn distribution reached {KMAX} turns: it would be truncated")
    support_t = int(np.nonzero(turns.any(axis=0))[0].max()) + 1
    support_f = int(np.nonzero(first.any(axis=0))[0].max()) + 1
    return np.ascontiguousarray(turns[:, :support_t]), mean, np.ascontiguousarray(first[:, :support_f]), first_mean


def board_of(int32_t index):
    """The mover's home counts (points 1..6) of a state index, as a tuple."""
    cdef int8_t b[26]
    if not 0 <= index < STATES:
        raise IndexError(index)
    decode(index, b)
    return tuple(b[p] for p in range(1, 7))


cdef inline int32_t checked_index(const int8_t* b, int side, int variant) noexcept nogil:
    """The home state of one side of a board, or -1 if a checker of that side is outside its
    home (or on the bar), -2 if it has more than 15 checkers. side 0: the mover; 1: the
    opponent, whose home (its points 1..6) is the mover's 19..24 (short) or 13..18 (long)."""
    cdef int8_t home[26]
    cdef int p, q, c, total = 0
    if side == 0:
        memcpy(home, b, VIEW)  # checked and indexed from one copy, whatever other threads write to b
        if home[25] > 0:
            return -1
        for p in range(7, 25):
            if home[p] > 0:
                return -1
        for p in range(1, 7):
            if home[p] > 0:
                total += home[p]
        return -2 if total > 15 else home_index(home)
    if b[0] < 0:
        return -1
    memset(home, 0, VIEW)
    for p in range(1, 25):
        c = b[p]  # read once, whatever other threads write to b
        if c < 0:
            q = 25 - p if variant == 1 else (p - 12 if p > 12 else p + 12)
            if q > 6:
                return -1
            home[q] = -c
            total -= c
    return -2 if total > 15 else home_index(home)


def indices(const int8_t[:, ::1] views, int side, int variant):
    """int32 (n,): each row's home state of the mover (side 0) or the opponent (side 1);
    -1 where that side has a checker outside its home, -2 where it has more than 15."""
    cdef Py_ssize_t i, n = views.shape[0]
    out = np.empty(n, np.int32)
    cdef int32_t[::1] o = out
    with nogil:
        for i in range(n):
            o[i] = checked_index(&views[i, 0], side, variant)
    return out


def expected_turns(const int8_t[:, ::1] views, const double[::1] mean):
    """(code, bad row, float64 (n,)): the mover's expected turns per row; code -1/-2 as `indices`."""
    cdef Py_ssize_t i, n = views.shape[0], bad = -1
    cdef int32_t index
    if mean.shape[0] != STATES:
        raise ValueError(f"mean holds the table's {STATES} expected turns, got {mean.shape[0]}")
    out = np.empty(n, np.float64)
    cdef double[::1] o = out
    with nogil:
        for i in range(n):
            index = checked_index(&views[i, 0], 0, 0)
            if index < 0:
                bad = i
                break
            o[i] = mean[index]
    if bad >= 0:
        return <int>index, bad, None
    return 0, -1, out


def best_play(const int8_t[:, ::1] results, const double[::1] mean):
    """The row of `results` (mover's checkers all home) the table plays."""
    if results.shape[0] == 0 or results.shape[1] != VIEW or mean.shape[0] != STATES:
        raise ValueError(f"best_play takes (n >= 1, 26) results and the table's {STATES} expected turns")
    return best_result(&results[0, 0], results.shape[0], &mean[0])
