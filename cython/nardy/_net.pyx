"""The evaluator's forward pass over whole batches of boards, without the GIL (nardy.evaluation.net).

The loops are in _net.h: each board's TD-Gammon units are read straight off its row (never
materialised): one precomputed weight row per point and count (nardy.evaluation.net.Net folds into it every
input that is a sum over the points), the rows of the other inputs in use, one softsign hidden
layer, five logistic outputs.
"""

import numpy as np

from libc.stdint cimport int8_t, uint8_t, uint32_t

from nardy._board cimport scan, scan_t

cdef extern from "_net.h":
    enum: NARDY_NET_MAX_HIDDEN
    enum: NARDY_NET_POINT_ROWS
    ctypedef struct nardy_net_t:
        const float* points
        const float* rows
        const float* bias
        const float* w2
        const float* b2
        uint32_t keep
    void nardy_net_rows(const int8_t* boards, Py_ssize_t n, int short_game, int flip, const nardy_net_t* nets,
                        int phases, float late, int hidden, float* out) noexcept nogil
    int nardy_net_use_avx2(int on) noexcept nogil
    void nardy_net_features(const int8_t* boards, Py_ssize_t n, int short_game, int flip, float* out) noexcept nogil

cdef extern from "_features.h":
    enum: NARDY_FEAT_COUNT
    void nardy_feat_init() noexcept nogil

nardy_feat_init()   # the escape table, built once at import (with the GIL)
FEATURES = NARDY_FEAT_COUNT

MAX_HIDDEN = NARDY_NET_MAX_HIDDEN
POINT_ROWS = NARDY_NET_POINT_ROWS
INPUT_ROWS = 4 + NARDY_FEAT_COUNT


def forward(const int8_t[:, ::1] boards, bint short_game, bint flip, float[:, ::1] out, tuple nets,
            int late=0):
    """Write the five outputs of every board into out ((m, 5) float32). `nets`: one net's tables
    (points, rows, bias, w2, b2, keep); or two: the first judges the boards with contact, the
    second the races; or three: the third judges the boards with contact where the side not on
    roll has at most `late` pips, the first the other boards with contact. points is
    (POINT_ROWS, hidden), rows (INPUT_ROWS, hidden): those of the units 96, 97, 194, 195 and the
    expert inputs, read where `keep` has bit e; bias (hidden,), w2 (5, hidden), b2 (5,), one
    hidden size for all; the caller checks the shapes (nardy.evaluation.net.Net does)."""
    cdef nardy_net_t t[3]
    cdef const float[:, ::1] points, rows, w2
    cdef const float[::1] bias, b2
    cdef Py_ssize_t m = boards.shape[0]
    cdef int k, phases = len(nets), hidden = -1
    if phases not in (1, 2, 3):
        raise ValueError(f"one, two or three nets, got {phases}")
    if not 0 <= late <= 375:
        raise ValueError(f"late is a pip count in 0..375, got {late}")
    for k in range(phases):
        points, rows, bias, w2, b2, keep = nets[k]
        if hidden not in (-1, rows.shape[1]):
            raise ValueError("the nets have different hidden sizes")
        hidden = rows.shape[1]
        t[k].points, t[k].rows, t[k].bias, t[k].w2, t[k].b2 = &points[0, 0], &rows[0, 0], &bias[0], &w2[0, 0], &b2[0]
        t[k].keep = keep
    if m == 0:
        return
    cdef float bound = (late + 0.5) / 100.0   # between late and late + 1 pips, / 100 as the input is
    with nogil:
        nardy_net_rows(&boards[0, 0], m, short_game, flip, t, phases, bound, hidden, &out[0, 0])


def features(const int8_t[:, ::1] boards, bint short_game, bint flip):
    """float32 (m, FEATURES): the expert inputs of every board (_features.h; `flip`: the board's
    negative side is on roll, an afterstate)."""
    cdef Py_ssize_t m = boards.shape[0]
    out = np.empty((m, NARDY_FEAT_COUNT), np.float32)
    cdef float[:, ::1] o = out
    if m:
        with nogil:
            nardy_net_features(&boards[0, 0], m, short_game, flip, &o[0, 0])
    return out


def homes(const int8_t[:, ::1] boards, bint short_game):
    """uint8 (n,): 1 where every checker of both sides stands in its own home or is off (no bar):
    the rows the bear-off table answers exactly. Home: the mover's points 1-6; the opponent's
    19-24 in short nardy, 13-18 in long."""
    cdef Py_ssize_t i, n = boards.shape[0]
    cdef uint32_t their_home = (<uint32_t>0x3F << 18) if short_game else (<uint32_t>0x3F << 12)
    cdef scan_t s
    out = np.empty(n, np.uint8)
    cdef uint8_t[::1] o = out
    with nogil:
        for i in range(n):
            scan(&boards[i, 0], &s)
            o[i] = (s.mine & ~<uint32_t>0x3F) == 0 and (s.theirs & ~their_home) == 0 and boards[i, 0] == 0 \
                and boards[i, 25] == 0
    return out


cdef int net_use_avx2(int on) noexcept nogil:
    """Use the AVX2+FMA loops (forward pass and expert inputs) if `on` and the CPU has them (the
    default); 1 if they are used (nardy._hooks.use_net_avx2 turns them off to reach the baseline ones)."""
    return nardy_net_use_avx2(on)
