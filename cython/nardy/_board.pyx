"""Board primitives of the compiled core: validation and turning the board round."""

from libc.stdint cimport int8_t, uint32_t

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


cdef void flip(const int8_t* b, int8_t* out, int variant) noexcept nogil:
    """The same board seen by the opponent (the turn passes)."""
    cdef int p
    for p in range(1, 25):
        out[opposite(p, variant)] = -b[p]
    out[BAR] = -b[0]
    out[0] = -b[BAR]
