"""Hooks for the tests and the benchmarks, never used by nardy itself: the bare move-generation
kernel, the board scans, and the switches that turn the core's AVX2 batch kernels, its x86-64-v3
walks and the evaluator's AVX2+FMA loops off, to reach the other paths on any machine."""

import numpy as np

from libc.stdint cimport int8_t, int64_t

from nardy._board cimport VIEW, rules_of, rules_t, scan, scan_t, scan_words
from nardy._core cimport batch_use_avx2
from nardy._movegen cimport gen_free, gen_grow, gen_init, gen_moves, gen_t, use_v3
from nardy._net cimport net_use_avx2


def kernel(const int8_t[:, ::1] views, const int8_t[:, ::1] rolls, tuple rules):
    """The bare kernel, for benchmarks: every row (valid, unfinished) generated into one reused
    generator, nothing else checked or kept; the total number of results, or -1 if views are
    not (n, 26), rolls not (n, 2) or a die not 1..6."""
    cdef rules_t r = rules_of(rules)
    cdef Py_ssize_t i, n = views.shape[0], total = 0
    cdef int got
    cdef gen_t g
    if rolls.shape[0] != n or rolls.shape[1] != 2 or views.shape[1] != VIEW:
        return -1
    for i in range(n):
        if not (1 <= rolls[i, 0] <= 6 and 1 <= rolls[i, 1] <= 6):
            return -1
    if gen_init(&g, &r, 1024) < 0:
        raise MemoryError()
    with nogil:
        i = 0
        while i < n:
            got = gen_moves(&g, &views[i, 0], rolls[i, 0], rolls[i, 1])
            if got < 0:
                if gen_grow(&g) < 0:
                    total = -1
                    break
                continue
            total += got
            i += 1
    gen_free(&g)
    if total < 0:
        raise MemoryError()
    return total


def scans(const int8_t[:, ::1] views, bint words):
    """Each row's scan (`scan_words` if `words`, else `scan` as the core uses it) -> int64 (n, 5):
    mine, theirs, closed, n_mine, n_theirs; None if views are not (n, 26)."""
    cdef Py_ssize_t i, n = views.shape[0]
    if views.shape[1] != VIEW:
        return None
    out = np.empty((n, 5), np.int64)
    cdef int64_t[:, ::1] o = out
    cdef scan_t s
    for i in range(n):
        if words:
            scan_words(&views[i, 0], &s)
        else:
            scan(&views[i, 0], &s)
        o[i, 0], o[i, 1], o[i, 2], o[i, 3], o[i, 4] = s.mine, s.theirs, s.closed, s.n_mine, s.n_theirs
    return out


def use_avx2(bint on):
    """Use the AVX2 batch kernels if `on` and the CPU has AVX2 (the default); returns whether they
    are used. Tests turn them off to check the SSE2 and scalar paths on any machine."""
    return bool(batch_use_avx2(on))


def use_x86_64_v3(bint on):
    """Generate moves with the walks built for x86-64-v3 if `on` and the CPU has it (the default);
    returns whether they are used. Tests turn it off to check the baseline build on any machine."""
    return bool(use_v3(on))


def use_net_avx2(bint on):
    """Run the evaluator's forward pass with its AVX2+FMA loops if `on` and the CPU has both (the
    default); returns whether they are used. Tests turn them off to check the baseline loops."""
    return bool(net_use_avx2(on))
