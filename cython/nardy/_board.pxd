# The board as the compiled core sees it: the mover's-view array of RULES.md section 1,
# 26 int8 in a row (index 1..24 the mover's points, >0 mover's checkers, <0 opponent's;
# 25 the mover's bar; 0 the opponent's bar as a negative count), plus 24-bit occupancy
# words (bit p-1 stands for the mover's point p). No Python objects below this line.

from libc.stdint cimport int8_t, int32_t, uint32_t, uint64_t

cdef extern from *:
    int __builtin_ctz(unsigned int) nogil   # index of the lowest set bit (argument != 0)
    int __builtin_clz(unsigned int) nogil   # leading zeros (argument != 0)

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

cdef struct rules_t:
    int variant           # variant_t
    int head_exception    # head_exception_t (long only)
    int block_rule        # block_rule_t (long only; SHORT behaves as BLOCK_NONE)
    int block_timing      # block_timing_t (long only)
    int last_roll_draw    # long only: the other side gets one last roll

cdef int opposite(int point, int variant) noexcept nogil
cdef uint32_t rotate12(uint32_t mask) noexcept nogil
cdef uint32_t runs6(uint32_t mask) noexcept nogil
cdef uint32_t mover_mask(const int8_t* b) noexcept nogil
cdef uint32_t opponent_mask(const int8_t* b) noexcept nogil
cdef int mover_on_board(const int8_t* b) noexcept nogil
cdef int opponent_on_board(const int8_t* b) noexcept nogil
cdef uint32_t forbidden_starts(uint32_t others, int others_off, int block_rule) noexcept nogil
cdef bint illegal_block_mover(const int8_t* b, const rules_t* r) noexcept nogil
cdef bint illegal_block_opponent(const int8_t* b, const rules_t* r) noexcept nogil
cdef uint32_t status(const int8_t* b, const rules_t* r) noexcept nogil
cdef void pips(const int8_t* b, int variant, int32_t* out) noexcept nogil
cdef void flip(const int8_t* b, int8_t* out, int variant) noexcept nogil
