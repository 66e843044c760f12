"""Board primitives of the compiled core: validation and turning the board round."""

from libc.stdint cimport int8_t, uint32_t, uint64_t
from libc.string cimport memcpy

cdef uint32_t status_of(const int8_t* b, const rules_t* r, scan_t* s) noexcept nogil:
    """docs/rules.md section 8 problems of one board, as nardy.status.Status flags; fills `s`."""
    cdef uint32_t found = 0
    cdef int mine, theirs
    scan(b, s)
    if b[BAR] < 0 or b[0] > 0:
        found |= ST_NEGATIVE_BAR
    if r.variant == LONG and (b[BAR] != 0 or b[0] != 0):
        found |= ST_BAR_IN_LONG
    mine = s.n_mine + (b[BAR] if b[BAR] > 0 else -b[BAR])
    theirs = s.n_theirs + (b[0] if b[0] > 0 else -b[0])
    if mine > CHECKERS:
        found |= ST_TOO_MANY_MOVER
    if theirs > CHECKERS:
        found |= ST_TOO_MANY_OPPONENT
    if mine == 0 and theirs == 0:
        found |= ST_BOTH_BORNE_OFF
    if found == 0:
        if illegal_block_opponent(s, b, r):
            found |= ST_ILLEGAL_BLOCK_OPPONENT
        if illegal_block_mover(s, b, r):
            found |= ST_ILLEGAL_BLOCK_MOVER
        if r.variant == SHORT and b[BAR] > 0 and b[0] < 0 and both_shut_out(b, s):
            found |= ST_BOTH_SHUT_OUT
    return found


cdef inline bint both_shut_out(const int8_t* b, const scan_t* s) noexcept nogil:
    """Short nardy, both sides on the bar: is each against the other's closed home board?
    (points 1..6 the mover's with two or more each, 19..24 the opponent's)"""
    cdef int p
    if (s.closed >> 18) != 0x3F:
        return False
    for p in range(1, 7):
        if b[p] < 2:
            return False
    return True


cdef inline uint64_t negated(uint64_t w) noexcept nogil:
    """Each byte of w negated (as int8, wrapping), eight at a time with no borrow between them."""
    return (HIGH - (w & LOW7)) ^ (~w & HIGH)


cdef void flip(const int8_t* b, int8_t* out, int variant) noexcept nogil:
    """The same board seen by the opponent (the turn passes): out[opposite(p)] = -b[p], eight
    points at a time (short nardy reverses the points, long nardy swaps their halves)."""
    cdef uint64_t w0, w1, w2
    cdef uint32_t h0, h1
    cdef int8_t bar = b[BAR], theirs = b[0]
    if variant == SHORT:  # point p -> 25 - p: each word's bytes reversed, the words swapped
        memcpy(&w0, b + 1, 8)
        memcpy(&w1, b + 9, 8)
        memcpy(&w2, b + 17, 8)
        w0, w1, w2 = negated(__builtin_bswap64(w2)), negated(__builtin_bswap64(w1)), negated(__builtin_bswap64(w0))
        memcpy(out + 1, &w0, 8)
        memcpy(out + 9, &w1, 8)
        memcpy(out + 17, &w2, 8)
    else:  # point p -> p + 12 or p - 12: the halves 1..12 and 13..24 swapped
        memcpy(&w0, b + 1, 8)
        memcpy(&h0, b + 9, 4)
        memcpy(&w1, b + 13, 8)
        memcpy(&h1, b + 21, 4)
        w0, w1 = negated(w1), negated(w0)
        h0, h1 = <uint32_t>negated(h1), <uint32_t>negated(h0)
        memcpy(out + 1, &w0, 8)
        memcpy(out + 9, &h0, 4)
        memcpy(out + 13, &w1, 8)
        memcpy(out + 21, &h1, 4)
    out[BAR] = -theirs
    out[0] = -bar
