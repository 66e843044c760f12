# The board as the compiled core sees it: the mover's-view array of docs/rules.md section 1,
# 26 int8 in a row (index 1..24 the mover's points, >0 mover's checkers, <0 opponent's;
# 25 the mover's bar; 0 the opponent's bar as a negative count), plus 24-bit occupancy
# words (bit p-1 stands for the mover's point p). No Python objects below this line.
#
# The small helpers are inline here so that every module compiles them into its own loops.
# `scan` reads the 24 points as three little-endian 64-bit words (SWAR: eight points at a time).

from libc.stdint cimport int8_t, int32_t, uint32_t, uint64_t
from libc.string cimport memcpy

cdef extern from *:
    int __builtin_ctz(unsigned int) nogil   # index of the lowest set bit (argument != 0)
    int __builtin_clz(unsigned int) nogil   # leading zeros (argument != 0)
    unsigned long long __builtin_bswap64(unsigned long long) nogil  # the eight bytes reversed

cdef enum:
    VIEW = 26         # entries in a mover's-view array
    BAR = 25          # the mover's bar
    HEAD = 24         # long nardy: the mover's head
    CHECKERS = 15
    ALL_POINTS = 0xFFFFFF

cdef enum variant_t:
    LONG = 0
    SHORT = 1

cdef enum head_exception_t:
    HEAD_STRICT = 0
    HEAD_PERMISSION = 1
    HEAD_NONE = 2

cdef enum block_rule_t:
    BLOCK_AHEAD = 0
    BLOCK_HOME = 1
    BLOCK_NONE = 2

cdef enum block_timing_t:
    TIMING_STEP = 0
    TIMING_END = 1

# status flags: the same values as nardy.status.Status
cdef enum:
    ST_TOO_MANY_MOVER = 1
    ST_TOO_MANY_OPPONENT = 2
    ST_NEGATIVE_BAR = 4
    ST_BAR_IN_LONG = 8
    ST_BOTH_BORNE_OFF = 16
    ST_ILLEGAL_BLOCK_OPPONENT = 32
    ST_ILLEGAL_BLOCK_MOVER = 64
    ST_BOTH_SHUT_OUT = 128

cdef struct rules_t:
    int variant           # variant_t
    int head_exception    # head_exception_t (long only)
    int block_rule        # block_rule_t (long only; SHORT behaves as BLOCK_NONE)
    int block_timing      # block_timing_t (long only)
    int last_roll_draw    # long only: the other side gets one last roll

cdef struct scan_t:
    uint32_t mine         # bit p-1: the mover has checkers on point p
    uint32_t theirs       # bit p-1: the opponent has checkers on point p
    uint32_t closed       # bit p-1: the opponent has two or more on point p
    int n_mine            # the mover's checkers on the points (bar not included)
    int n_theirs          # the opponent's checkers on the points (bar not included)

cdef uint32_t status_of(const int8_t* b, const rules_t* r, scan_t* s) noexcept nogil
cdef void flip(const int8_t* b, int8_t* out, int variant) noexcept nogil

cdef extern from "_board.h":
    const uint64_t HIGH "0x8080808080808080ULL"  # the high bit of every byte
    const uint64_t LOW7 "0x7F7F7F7F7F7F7F7FULL"
    const uint64_t ONES "0x0101010101010101ULL"
    const uint64_t EVEN "0x00FF00FF00FF00FFULL"  # the even bytes, as 16-bit lanes
    const bint NARDY_SCAN_SSE2
    void nardy_scan_sse2(const int8_t* b, uint32_t* mine, uint32_t* theirs, uint32_t* closed, int* n_mine,
                         int* n_theirs) noexcept nogil


cdef inline rules_t rules_of(tuple codes) except *:
    """The rules from their codes (nardy._wire.core_rules): the one place the core decodes them."""
    cdef rules_t r
    r.variant, r.head_exception, r.block_rule, r.block_timing, r.last_roll_draw = codes
    return r


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
    mask &= mask >> 1
    mask &= mask >> 2
    return mask & (mask >> 2)


cdef inline uint64_t nonzero_bytes(uint64_t w) noexcept nogil:
    """The high bit of each byte of w that is not zero."""
    return (((w & LOW7) + LOW7) | w) & HIGH


cdef inline uint32_t gather(uint64_t high_bits) noexcept nogil:
    """The high bits of the eight bytes as an 8-bit mask (byte i -> bit i)."""
    return <uint32_t>(((high_bits >> 7) * <uint64_t>0x0102040810204080) >> 56)


cdef inline uint64_t byte_sum(uint64_t w) noexcept nogil:
    """Sum of the eight bytes (at most 255)."""
    return (w * <uint64_t>ONES) >> 56


cdef inline void scan(const int8_t* b, scan_t* s) noexcept nogil:
    """Occupancy words and checker counts of the 24 points: SSE2 where there is (x86-64), else
    eight points at a time in 64-bit words (`scan_words`, which the tests check it against)."""
    if NARDY_SCAN_SSE2:
        nardy_scan_sse2(b, &s.mine, &s.theirs, &s.closed, &s.n_mine, &s.n_theirs)
    else:
        scan_words(b, s)


cdef inline void scan_words(const int8_t* b, scan_t* s) noexcept nogil:
    """`scan` eight points at a time, in 64-bit words."""
    cdef uint64_t w, neg, pos, pos_bytes, neg_bytes
    cdef int k
    s.mine = s.theirs = s.closed = 0
    s.n_mine = s.n_theirs = 0
    for k in range(3):
        memcpy(&w, b + 1 + 8 * k, 8)
        neg = w & HIGH
        pos = nonzero_bytes(w) & ~neg
        s.mine |= gather(pos) << (8 * k)
        s.theirs |= gather(neg) << (8 * k)
        s.closed |= gather(neg & nonzero_bytes(~w)) << (8 * k)  # below -1
        pos_bytes = (pos >> 7) * 0xFF
        neg_bytes = (neg >> 7) * 0xFF
        s.n_mine += <int>byte_sum(w & pos_bytes)
        s.n_theirs += <int>byte_sum((~w & neg_bytes) + (neg >> 7))


cdef inline int mover_left(const int8_t* b) noexcept nogil:
    """The mover's checkers not yet borne off (points and bar)."""
    cdef scan_t s
    scan(b, &s)
    return s.n_mine + b[BAR]


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


cdef inline bint illegal_block_mover(const scan_t* s, const int8_t* b, const rules_t* r) noexcept nogil:
    """Does the mover hold a six-block the rules forbid? (blocks run along the opponent's path)"""
    if r.variant == SHORT or r.block_rule == BLOCK_NONE:
        return False
    cdef uint32_t forbidden = forbidden_starts(rotate12(s.theirs), CHECKERS - s.n_theirs + b[0], r.block_rule)
    return (runs6(rotate12(s.mine)) & forbidden) != 0


cdef inline bint illegal_block_opponent(const scan_t* s, const int8_t* b, const rules_t* r) noexcept nogil:
    """Does the side not on roll hold a six-block the rules forbid? (along the mover's path)"""
    if r.variant == SHORT or r.block_rule == BLOCK_NONE:
        return False
    cdef uint32_t forbidden = forbidden_starts(s.mine, CHECKERS - s.n_mine - b[BAR], r.block_rule)
    return (runs6(s.theirs) & forbidden) != 0


cdef inline int32_t dot(uint64_t counts, uint64_t even_weights, uint64_t odd_weights) noexcept nogil:
    """Sum over eight byte counts times their weights, in 16-bit lanes (weights <= 24, counts <= 15)."""
    return <int32_t>((((counts & EVEN) * even_weights) >> 48) + ((((counts >> 8) & EVEN) * odd_weights) >> 48))


cdef inline void pips(const int8_t* b, int variant, int32_t* out) noexcept nogil:
    """out[0] = the mover's pips, out[1] = the opponent's, each in its own numbers (bar 25).

    Eight points at a time: each word's counts dotted with its points' numbers, which are
    written as 16-bit lanes, highest lane first (mover's points 1, 3, 5, 7 and 2, 4, 6, 8 ...).
    """
    cdef uint64_t w[3]
    cdef uint64_t mine[3]
    cdef uint64_t theirs[3]
    cdef uint64_t neg, pos
    cdef int k
    memcpy(w, b + 1, 24)
    for k in range(3):
        neg = w[k] & HIGH
        pos = nonzero_bytes(w[k]) & ~neg
        mine[k] = w[k] & ((pos >> 7) * 0xFF)
        theirs[k] = (~w[k] & ((neg >> 7) * 0xFF)) + (neg >> 7)
    out[0] = 25 * b[BAR] + (dot(mine[0], 0x1000300050007, 0x2000400060008)
                            + dot(mine[1], 0x9000b000d000f, 0xa000c000e0010)
                            + dot(mine[2], 0x11001300150017, 0x12001400160018))
    if variant == LONG:
        out[1] = -25 * b[0] + (dot(theirs[0], 0xd000f00110013, 0xe001000120014)
                               + dot(theirs[1], 0x15001700010003, 0x16001800020004)
                               + dot(theirs[2], 0x500070009000b, 0x60008000a000c))
    else:
        out[1] = -25 * b[0] + (dot(theirs[0], 0x18001600140012, 0x17001500130011)
                               + dot(theirs[1], 0x10000e000c000a, 0xf000d000b0009)
                               + dot(theirs[2], 0x8000600040002, 0x7000500030001))


cdef inline int result_kind(const int8_t* b, int variant, bint koks) noexcept nogil:
    """The winner (the mover of `b`, all 15 off) scores 1, 2 or 3 (docs/rules.md 4 and 5)."""
    cdef scan_t s
    cdef int p
    scan(b, &s)
    if s.n_theirs - b[0] < CHECKERS:
        return 1  # the loser has borne off: oin / single
    if variant == LONG:
        if koks:
            for p in range(7, 13):  # the loser's own points 19..24
                if b[p] < 0:
                    return 3
        return 2
    if b[0] < 0:
        return 3
    for p in range(1, 7):
        if b[p] < 0:
            return 3
    return 2


cdef enum:
    PLAYING = -2      # judge(): the game goes on
    DRAWN = -1        # judge(): long nardy, last_roll_draw: both sides are off


cdef inline int judge(const int8_t* child, int mover, int starter, bint* last_roll, const rules_t* r,
                      bint koks, int* kind) noexcept nogil:
    """After `mover` played `child` (its view, before the turn passes): the winner (0 or 1),
    DRAWN, or PLAYING; `kind` gets the points (docs/rules.md 4 to 6, with the last-roll draw:
    `last_roll` is set when the other side gets its last roll, and read on that roll)."""
    cdef int8_t after[26]
    kind[0] = 0
    if last_roll[0]:  # the other side's last roll is over
        if mover_left(child) == 0:
            return DRAWN
        flip(child, after, r.variant)
        kind[0] = result_kind(after, r.variant, koks)
        return 1 - mover
    if mover_left(child) == 0:
        if r.last_roll_draw and mover == starter:
            last_roll[0] = True
            return PLAYING
        kind[0] = result_kind(child, r.variant, koks)
        return mover
    return PLAYING
