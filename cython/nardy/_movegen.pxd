# Move generation over the mover's-view array: the distinct results of a (position, roll),
# with one representative step sequence each and, on request, every step sequence.

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t

from nardy._board cimport rules_t, scan_t

cdef enum:
    MOVE_BYTES = 8      # a step sequence: up to four (from, to) pairs, -1 padded; 25 = bar, 0 = off
    PERFT_INTERRUPTED = -2  # perft(): a signal handler raised (the exception is set)

cdef struct gen_t:
    # fixed for one (position, roll)
    rules_t rules
    int dice[4]           # the dice to play, larger first; four equal dice for a double
    int ndice
    int head_limit        # checkers that may leave the head this turn
    uint32_t open_points  # bit p-1: the mover may land on point p (constant for a turn)
    uint32_t forbidden    # long: block starts (opponent's numbers) that are illegal
    bint step_check       # long, block_timing "step": judge blocks after every step
    bint end_check        # long, block_timing "end": judge blocks at the end only
    bint dedupe           # results may repeat: look each one up before recording it
    bint store            # write result boards and moves (else only count them)
    bint want_sequences   # also record every step sequence
    bint skip_moves       # store result boards only, not their moves (self-play never reads them)
    # the position while a turn is walked
    int8_t b[26]
    uint32_t mover        # bit p-1: the mover holds point p
    int outside           # mover's checkers on points 7..25 (bearing off needs 0)
    int on_board          # mover's checkers not borne off
    int heads             # checkers taken from the head so far
    int first_die         # die of the first step (larger-die rule)
    uint64_t path         # (from, to) of the steps so far, step k in bytes 2k, 2k+1 (a register's word)
    uint32_t played[26]   # non-doubles: bit x-1 of played[y] = "x/hi and y/lo" (two checkers) recorded
    uint8_t chained[26]   # non-doubles: one checker from s by both dice recorded, per intermediate hit (bits)
    uint32_t both_off[26] # non-doubles, bearing off: bit y-1 of both_off[x] = "x/off by hi and y/off by lo" recorded
    # results: at most `cap`; each reached by `best` steps
    int best
    int n
    int cap
    int8_t* out           # cap x 26 result boards (mover's view, before the turn passes)
    int8_t* moves         # cap x 8 representative step sequences
    uint8_t* larger       # 1 = this result can be reached by playing the larger die (one-step results only)
    # every step sequence (want_sequences)
    int nseq
    int seq_cap
    int8_t* seqs          # seq_cap x 8
    int32_t* seq_result   # result index of each sequence
    uint8_t* seq_larger
    # de-duplication: open addressing over result indices, stamped so that it never needs clearing
    int32_t* slots
    uint32_t* stamps
    uint32_t stamp
    uint32_t table_mask
    int overflow          # a buffer was too small: the caller grows it and calls again

cdef struct undo_t:
    uint32_t mover
    int outside
    int on_board
    int src
    int dst
    bint hit

cdef int gen_alloc(gen_t* g, int cap, int seq_cap) noexcept nogil
cdef int gen_init(gen_t* g, const rules_t* rules, int cap) noexcept nogil
cdef void gen_free(gen_t* g) noexcept nogil
cdef int gen_grow(gen_t* g) noexcept nogil
cdef int gen_moves(gen_t* g, const int8_t* b, int d1, int d2) noexcept nogil
cdef int gen_moves_scanned(gen_t* g, const int8_t* b, const scan_t* s, int d1, int d2) noexcept nogil
cdef int64_t perft(const int8_t* b, int depth, const rules_t* r, int cap) noexcept nogil
cdef int use_v3(int on) noexcept nogil  # call the x86-64-v3 build where the CPU has it (the default)


# The generator's settings, changed only through these (and gen_init, gen_grow, gen_alloc):

cdef inline void gen_set_rules(gen_t* g, const rules_t* r, bint want_sequences) noexcept nogil:
    """Generate under these rules, storing the results (and every step sequence if `want_sequences`)."""
    g.rules = r[0]
    g.store = True
    g.want_sequences = want_sequences


cdef inline void gen_skip_moves(gen_t* g) noexcept nogil:
    """Store the result boards only, not their moves (self-play never reads them)."""
    g.skip_moves = True


cdef inline void gen_target(gen_t* g, int8_t* out, int8_t* moves, int cap) noexcept nogil:
    """Write the next results into `out` and `moves` (room for `cap`); point it back at its own
    buffers (saved from g.out, g.moves, g.cap) before it grows or is freed."""
    g.out = out
    g.moves = moves
    g.cap = cap
