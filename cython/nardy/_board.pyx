"""Board primitives of the compiled core: occupancy words, six-blocks, validation, pips."""

from libc.stdint cimport int8_t, int32_t, uint32_t


cdef inline int opposite(int point, int variant) noexcept nogil:
    """The mover's point in the opponent's numbers."""
    if variant == SHORT:
        return 25 - point
    return point + 12 if point <= 12 else point - 12


cdef inline uint32_t rotate12(uint32_t mask) noexcept nogil:
    """Long nardy: a 24-bit mask in the other side's numbers."""
    return ((mask << 12) | (mask >> 12)) & ALL_POINTS


cdef inline uint32_t runs6(uint32_t mask) noexcept nogil:
    """Bit q-1 set where points q..q+5 are all set."""
    return mask & (mask >> 1) & (mask >> 2) & (mask >> 3) & (mask >> 4) & (mask >> 5)


cdef inline uint32_t mover_mask(const int8_t* b) noexcept nogil:
    cdef uint32_t m = 0
    cdef int p
    for p in range(1, 25):
        m |= (<uint32_t>(b[p] > 0)) << (p - 1)
    return m


cdef inline uint32_t opponent_mask(const int8_t* b) noexcept nogil:
    cdef uint32_t m = 0
    cdef int p
    for p in range(1, 25):
        m |= (<uint32_t>(b[p] < 0)) << (p - 1)
    return m


cdef inline int mover_on_board(const int8_t* b) noexcept nogil:
    cdef int n = b[BAR], p
    for p in range(1, 25):
        if b[p] > 0:
            n += b[p]
    return n


cdef inline int opponent_on_board(const int8_t* b) noexcept nogil:
    cdef int n = -b[0], p
    for p in range(1, 25):
        if b[p] < 0:
            n -= b[p]
    return n


cdef inline uint32_t forbidden_starts(uint32_t others, int others_off, int block_rule) noexcept nogil:
    """Bits q-1 (in the other side's numbers) where a block q..q+5 would be illegal.

    `others` is the other side's occupancy in its own numbers. "ahead": illegal unless an other
    checker stands below q; "home": illegal until one has entered its home (points 1..6).
    Borne-off checkers are ahead of every block.
    """
    cdef int lowest
    if block_rule == BLOCK_NONE or others_off > 0 or others == 0:
        return 0
    lowest = __builtin_ctz(others) + 1
    if block_rule == BLOCK_AHEAD:
        return (1u << lowest) - 1
    return ALL_POINTS if lowest > 6 else 0


cdef bint illegal_block_mover(const int8_t* b, const rules_t* r) noexcept nogil:
    """Does the mover hold a six-block the rules forbid? (blocks run along the opponent's path)"""
    if r.variant == SHORT or r.block_rule == BLOCK_NONE:
        return False
    cdef uint32_t others = rotate12(opponent_mask(b))
    cdef uint32_t forbidden = forbidden_starts(others, CHECKERS - opponent_on_board(b), r.block_rule)
    return (runs6(rotate12(mover_mask(b))) & forbidden) != 0


cdef bint illegal_block_opponent(const int8_t* b, const rules_t* r) noexcept nogil:
    """Does the side not on roll hold a six-block the rules forbid? (along the mover's path)"""
    if r.variant == SHORT or r.block_rule == BLOCK_NONE:
        return False
    cdef uint32_t forbidden = forbidden_starts(mover_mask(b), CHECKERS - mover_on_board(b), r.block_rule)
    return (runs6(opponent_mask(b)) & forbidden) != 0


cdef uint32_t status(const int8_t* b, const rules_t* r) noexcept nogil:
    """RULES.md section 8 problems of one board, as nardy.status.Status flags."""
    cdef uint32_t found = 0
    cdef int mine = 0, theirs = 0, p
    if b[BAR] < 0 or b[0] > 0:
        found |= ST_NEGATIVE_BAR
    if r.variant == LONG and (b[BAR] != 0 or b[0] != 0):
        found |= ST_BAR_IN_LONG
    mine = b[BAR] if b[BAR] > 0 else -b[BAR]
    theirs = b[0] if b[0] > 0 else -b[0]
    for p in range(1, 25):
        if b[p] > 0:
            mine += b[p]
        else:
            theirs -= b[p]
    if mine > CHECKERS:
        found |= ST_TOO_MANY_MOVER
    if theirs > CHECKERS:
        found |= ST_TOO_MANY_OPPONENT
    if mine == 0 and theirs == 0:
        found |= ST_BOTH_BORNE_OFF
    if found == 0:
        if illegal_block_opponent(b, r):
            found |= ST_ILLEGAL_BLOCK_OPPONENT
        if illegal_block_mover(b, r):
            found |= ST_ILLEGAL_BLOCK_MOVER
    return found


cdef void pips(const int8_t* b, int variant, int32_t* out) noexcept nogil:
    """out[0] = mover's pips, out[1] = opponent's, each in its own numbers (bar 25)."""
    cdef int32_t mine = 25 * b[BAR], theirs = -25 * b[0], v, p
    for p in range(1, 25):
        v = b[p]
        if v > 0:
            mine += v * p
        elif v < 0:
            theirs -= v * opposite(p, variant)
    out[0] = mine
    out[1] = theirs


cdef void flip(const int8_t* b, int8_t* out, int variant) noexcept nogil:
    """The same board seen by the opponent (the turn passes)."""
    cdef int p
    for p in range(1, 25):
        out[opposite(p, variant)] = -b[p]
    out[BAR] = -b[0]
    out[0] = -b[BAR]
