# The one-sided bear-off table's index and its best play, inline so that the self-play loop
# (_simulate) compiles them into its own loop.
#
# A state is a distribution of at most 15 checkers over the six home points. It is numbered by
# the combinatorial number system: with S_j = c6 + c5 + ... + c(7-j) (the checkers on the j
# highest home points), b_j = S_j + j - 1 (j = 1..6) is a 6-subset b_1 < ... < b_6 of
# {0..20} (b_6 = n + 5, n the checkers left), and the state's index is sum_j C(b_j, j), a
# bijection onto 0..C(21, 6) - 1 = 54263. Every legal step lowers some S_j and raises none
# (a checker moves down or off), so every successor of a state has a smaller index: the table
# is built in index order. Index 0 is "all borne off".

from libc.stdint cimport int8_t, int32_t

cdef enum:
    STATES = 54264       # C(21, 6): 0..15 checkers over 6 points

cdef extern from "_bearoff.h":
    const int CHOOSE "nardy_choose"[21][7]
    const double TIE "NARDY_TIE"  # expected turns closer than this are a tie


cdef inline int32_t home_index(const int8_t* b) noexcept nogil:
    """The state of the mover's checkers on points 1..6 of the mover's-view board `b`
    (opponent checkers, negative, count as none). The caller ensures at most 15."""
    cdef int j, c, s = 0
    cdef int32_t index = 0
    for j in range(1, 7):
        c = b[7 - j]
        if c > 0:
            s += c
        index += CHOOSE[s + j - 1][j]
    return index


cdef inline int best_result(const int8_t* results, int n, const double* mean) noexcept nogil:
    """Among n result boards (n x 26, the mover's checkers all home), the one whose home state
    has the least expected turns; ties (within TIE) go to the lowest state index, then the first."""
    cdef int i, best = 0
    cdef int32_t index, best_index = home_index(results)
    cdef double m, best_mean = mean[best_index]
    for i in range(1, n):
        index = home_index(results + 26 * i)
        m = mean[index]
        if m < best_mean - TIE or (m <= best_mean + TIE and index < best_index):
            best, best_index, best_mean = i, index, m
    return best
