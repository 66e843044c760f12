# The move generator's walks (see _movegen.pyx), included by two modules: _movegen (built for
# the x86-64 baseline, or whatever the target is) and, on x86-64, _movegen_v3 (the same code
# built for x86-64-v3: AVX2, BMI1/2, LZCNT), which _movegen calls instead where the CPU has it.
# What the walks cimport is below; _movegen_v3 cimports _movegen's types (gen_t, ...) before
# including them (_movegen has them from its .pxd).

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcmp, memcpy, memset

from nardy._board cimport (
    ALL_POINTS, BAR, BLOCK_NONE, CHECKERS, HEAD, HEAD_PERMISSION, HEAD_STRICT, LONG, SHORT,
    TIMING_END, TIMING_STEP, VIEW, __builtin_clz, flip, forbidden_starts, mover_left, rotate12,
    rules_t, runs6, scan, scan_t,
)
from nardy._signals cimport interrupted

cdef enum:
    BAR_BIT = 1 << 24  # the bar among the sources of a step


cdef struct short_game:  # the walks are compiled once per variant: `game_t` names which
    char unused
cdef struct long_game:
    char unused
ctypedef fused game_t:
    short_game
    long_game


cdef int gen_alloc(gen_t* g, int cap, int seq_cap) noexcept nogil:
    """Allocate buffers for `cap` results (and `seq_cap` sequences); 0, or -1 without memory."""
    cdef uint32_t size = 16
    memset(g, 0, sizeof(gen_t))
    while size < <uint32_t>(2 * cap):
        size <<= 1
    g.cap = cap
    g.seq_cap = seq_cap
    g.out = <int8_t*>malloc(cap * VIEW)
    g.moves = <int8_t*>malloc(cap * MOVE_BYTES)
    g.larger = <uint8_t*>malloc(cap)
    g.slots = <int32_t*>malloc(size * sizeof(int32_t))
    g.stamps = <uint32_t*>calloc(size, sizeof(uint32_t))
    g.table_mask = size - 1
    if seq_cap > 0:
        g.seqs = <int8_t*>malloc(seq_cap * MOVE_BYTES)
        g.seq_result = <int32_t*>malloc(seq_cap * sizeof(int32_t))
        g.seq_larger = <uint8_t*>malloc(seq_cap)
    if not (g.out and g.moves and g.larger and g.slots and g.stamps) or (
        seq_cap > 0 and not (g.seqs and g.seq_result and g.seq_larger)
    ):
        gen_free(g)
        return -1
    return 0


cdef void gen_free(gen_t* g) noexcept nogil:
    free(g.out)
    free(g.moves)
    free(g.larger)
    free(g.slots)
    free(g.stamps)
    free(g.seqs)
    free(g.seq_result)
    free(g.seq_larger)
    memset(g, 0, sizeof(gen_t))


cdef int gen_init(gen_t* g, const rules_t* rules, int cap) noexcept nogil:
    """A generator for these rules that stores its results: 0, or -1 without memory."""
    if gen_alloc(g, cap, 0) < 0:
        return -1
    g.rules = rules[0]
    g.store = True
    return 0


cdef int gen_grow(gen_t* g) noexcept nogil:
    """Four times the room, the same rules and settings; 0, or -1 without memory (g is then empty)."""
    cdef rules_t rules = g.rules
    cdef bint store = g.store, want_sequences = g.want_sequences, skip_moves = g.skip_moves
    cdef int cap = 4 * g.cap, seq_cap = 4 * g.seq_cap
    gen_free(g)
    if gen_alloc(g, cap, seq_cap) < 0:
        return -1
    g.rules = rules
    g.store = store
    g.want_sequences = want_sequences
    g.skip_moves = skip_moves
    return 0


cdef inline uint64_t board_hash(const int8_t* b) noexcept nogil:
    cdef uint64_t w0, w1, w2
    cdef uint32_t w3 = 0
    memcpy(&w0, b, 8)
    memcpy(&w1, b + 8, 8)
    memcpy(&w2, b + 16, 8)
    memcpy(&w3, b + 24, 2)
    cdef uint64_t h = (w0 * 0x9E3779B97F4A7C15ULL) ^ (w1 * 0xC2B2AE3D27D4EB4FULL)
    h ^= (w2 * 0x165667B19E3779F9ULL) ^ (<uint64_t>w3 * 0xD6E8FEB86659FD93ULL)
    return h ^ (h >> 29)


cdef inline void clear_results(gen_t* g) noexcept nogil:
    g.n = 0
    g.nseq = 0
    g.stamp += 1
    if g.stamp == 0:  # wrapped: forget every old stamp
        memset(g.stamps, 0, (g.table_mask + 1) * sizeof(uint32_t))
        g.stamp = 1


cdef inline uint64_t with_step(uint64_t path, int depth, int src, int dst) noexcept nogil:
    """`path` with step `depth` (0-based) set to src -> dst, the steps after it dropped."""
    return (path & ((<uint64_t>1 << (16 * depth)) - 1)) | (<uint64_t>(<uint8_t>src | (<uint8_t>dst << 8)) << (16 * depth))


cdef inline void put_move(int8_t* out, uint64_t path, int depth) noexcept nogil:
    """The first `depth` steps of `path`, -1 padded to MOVE_BYTES."""
    cdef uint64_t w = path
    if depth < 4:
        w |= ~<uint64_t>0 << (16 * depth)
    memcpy(out, &w, MOVE_BYTES)


cdef int record(gen_t* g, int depth) noexcept nogil:
    """Record the current board as a candidate reached in `depth` steps; -1 when full."""
    cdef int idx = -1
    cdef uint32_t slot = 0
    cdef uint8_t with_larger = depth == 1 and g.ndice == 2 and g.first_die == g.dice[0]
    if depth < g.best:
        return 0
    if depth > g.best:
        g.best = depth
        clear_results(g)
    if g.dedupe:
        slot = <uint32_t>board_hash(g.b) & g.table_mask
        while g.stamps[slot] == g.stamp:
            if memcmp(g.out + g.slots[slot] * VIEW, g.b, VIEW) == 0:
                idx = g.slots[slot]
                g.larger[idx] |= with_larger
                break
            slot = (slot + 1) & g.table_mask
    if idx < 0:
        if g.n >= g.cap:
            g.overflow = 1
            return -1
        idx = g.n
        g.n += 1
        if g.store or g.dedupe:  # de-duplication compares stored boards
            memcpy(g.out + idx * VIEW, g.b, VIEW)
            if not g.skip_moves:
                put_move(g.moves + idx * MOVE_BYTES, g.path, depth)
        g.larger[idx] = with_larger
        if g.dedupe:
            g.stamps[slot] = g.stamp
            g.slots[slot] = idx
    if g.want_sequences:
        if g.nseq >= g.seq_cap:
            g.overflow = 1
            return -1
        put_move(g.seqs + g.nseq * MOVE_BYTES, g.path, depth)
        g.seq_result[g.nseq] = idx
        g.seq_larger[g.nseq] = with_larger
        g.nseq += 1
    return 0


cdef inline void step_on(int8_t* o, int src, int dst) noexcept nogil:
    """A short-nardy step src -> dst >= 1 on a result's copy, hitting a blot there."""
    cdef int8_t hit = o[dst] == -1
    o[src] -= 1
    o[dst] += 1 + hit
    o[0] -= hit


cdef inline bint plain(const gen_t* g, const game_t* v) noexcept nogil:
    """Short nardy with nothing on the bar and no bearing off for two more steps (two or more
    checkers outside home): steps take their sources from the occupancy words alone."""
    return game_t is short_game and g.outside >= 2 and g.b[BAR] == 0


cdef inline int record_step(gen_t* g, int depth, int src, int dst, const game_t* v) noexcept nogil:
    """Record, as a candidate reached in `depth` steps, the current board with one more step
    src -> dst (0 = off) that `sources` allowed, made on the stored copy only (g.b stays);
    only for walks without de-duplication or sequences. -1 when full."""
    cdef int8_t* o
    if depth < g.best:
        return 0
    if depth > g.best:
        g.best = depth
        clear_results(g)
    if g.n >= g.cap:
        g.overflow = 1
        return -1
    if g.store:
        o = g.out + g.n * VIEW
        memcpy(o, g.b, VIEW)
        if dst >= 1 and game_t is short_game:
            step_on(o, src, dst)
        else:
            o[src] -= 1
            if dst >= 1:
                o[dst] += 1
        if not g.skip_moves:
            put_move(g.moves + g.n * MOVE_BYTES, with_step(g.path, depth - 1, src, dst), depth)
    if depth == 1:
        g.larger[g.n] = g.ndice == 2 and g.first_die == g.dice[0]
    g.n += 1
    return 0


cdef extern from "_plain.h":
    ctypedef struct nardy_sink:
        int8_t* out
        int8_t* moves
        uint8_t* larger
        int n, cap, best, store, moves_too
    int nardy_plain_pair(nardy_sink* sink, const int8_t* b, uint32_t mover, uint32_t open, int hi, int lo) noexcept nogil
    int nardy_plain_double(nardy_sink* sink, const int8_t* b, uint32_t mover, uint32_t open, int d) noexcept nogil
    int nardy_long_pair(nardy_sink* sink, const int8_t* b, uint32_t mover, uint32_t open, int hi, int lo,
                        int head_limit, uint32_t forbidden, int step_check, int end_check) noexcept nogil
    int nardy_long_double(nardy_sink* sink, const int8_t* b, uint32_t mover, uint32_t open, int d, int head_limit,
                          uint32_t forbidden, int step_check, int end_check) noexcept nogil


cdef inline nardy_sink sink_of(const gen_t* g) noexcept nogil:
    cdef nardy_sink s
    s.out = g.out
    s.moves = g.moves
    s.larger = g.larger
    s.n = g.n
    s.cap = g.cap
    s.best = g.best
    s.store = g.store
    s.moves_too = not g.skip_moves
    return s


cdef inline int from_sink(gen_t* g, const nardy_sink* s, int sub) noexcept nogil:
    """A C walk's count and best back into g (overflow set if it was full); its answer `sub`."""
    g.n = s.n
    g.best = s.best
    if sub == -2:
        g.overflow = 1
    return sub


cdef int record_twos(gen_t* g, int depth, int src1, int dst1, uint32_t seconds, int d) noexcept nogil:
    """For each source src2 of `seconds` (highest first), record the current board with two more
    steps, src1 -> dst1 and src2 -> src2 - d, made on its copy only (short nardy, both landing on
    points, `depth` the roll's most steps). 0, or -1 when full."""
    cdef int8_t first[VIEW]  # the board after the first of the two steps (a local: no output aliases it)
    cdef int n, cap, src2, dst2, shift = 16 * (depth - 1)
    cdef int8_t hit
    cdef int8_t* o
    cdef int8_t* m
    cdef uint64_t path, w
    cdef bint store = g.store, moves = not g.skip_moves
    if depth > g.best:
        g.best = depth
        clear_results(g)
    memcpy(first, g.b, VIEW)
    step_on(first, src1, dst1)
    path = with_step(g.path, depth - 2, src1, dst1) & ((<uint64_t>1 << shift) - 1)
    if depth < 4:
        path |= ~<uint64_t>0 << (16 * depth)
    n = g.n
    cap = g.cap
    o = g.out + n * VIEW
    m = g.moves + n * MOVE_BYTES
    while seconds:
        if n >= cap:
            g.n = n
            g.overflow = 1
            return -1
        src2 = top_bit(seconds) + 1
        seconds &= ~(<uint32_t>1 << (src2 - 1))
        dst2 = src2 - d
        n += 1
        if store:
            hit = first[dst2] == -1
            memcpy(o, first, VIEW)
            o[src2] = first[src2] - 1
            o[dst2] = first[dst2] + 1 + hit
            o[0] = first[0] - hit
            o += VIEW
            if moves:
                w = path | (<uint64_t>(<uint8_t>src2 | (<uint8_t>dst2 << 8)) << shift)
                memcpy(m, &w, MOVE_BYTES)
                m += MOVE_BYTES
    g.n = n
    return 0


cdef inline uint32_t mover_after(const gen_t* g, int src, int dst) noexcept nogil:
    """The mover's occupancy after a step src -> dst (0 = off) from the current board."""
    return (g.mover & ~(<uint32_t>(g.b[src] == 1) << (src - 1))) | ((<uint32_t>1 << dst) >> 1)


cdef inline bint last_blocked(const gen_t* g, int src, int dst, const game_t* v) noexcept nogil:
    """Would a last step src -> dst (0 = off) leave an illegal six-block?"""
    return game_t is long_game and (g.step_check or g.end_check) and (runs6(rotate12(mover_after(g, src, dst))) & g.forbidden) != 0


cdef inline uint32_t sources(const gen_t* g, int d, const game_t* v) noexcept nogil:
    """Bits p-1 of the points a checker may leave with die d (bit 24 = the bar)."""
    cdef uint32_t srcs
    cdef int top
    if game_t is short_game and g.b[BAR] > 0:  # the bar first; a die d enters at point 25-d
        return BAR_BIT if (g.open_points >> (24 - d)) & 1 else 0
    srcs = g.mover & (g.open_points << d) & ALL_POINTS
    if game_t is long_game and g.heads >= g.head_limit:
        srcs &= ~(<uint32_t>1 << (HEAD - 1))
    if g.outside == 0 and g.mover != 0:
        if g.b[d] > 0:
            srcs |= <uint32_t>1 << (d - 1)  # bear off with the exact die
        else:
            top = 32 - __builtin_clz(g.mover)
            if top < d:
                srcs |= <uint32_t>1 << (top - 1)  # bear off the highest checker with a larger die
    return srcs


cdef inline void do_step(gen_t* g, int src, int d, int depth, undo_t* u, const game_t* v) noexcept nogil:
    """Move a checker from `src` by `d` (a step that `sources` allowed), remembering how to undo it."""
    cdef int dst = src - d
    u.mover = g.mover
    u.outside = g.outside
    u.on_board = g.on_board
    u.src = src
    u.hit = False
    g.b[src] -= 1
    g.mover &= ~(<uint32_t>(g.b[src] == 0) << (src - 1))  # the bar's bit 24 is never in `mover`
    if dst >= 1:
        if game_t is short_game:
            u.hit = g.b[dst] == -1  # a blot hit: -1 becomes 1
            g.b[dst] += 1 + u.hit
            g.b[0] -= u.hit
        else:
            g.b[dst] += 1
        g.mover |= <uint32_t>1 << (dst - 1)
        g.outside -= (src >= 7) & (dst <= 6)
    else:
        dst = 0
        g.on_board -= 1
    u.dst = dst
    if game_t is long_game and src == HEAD:
        g.heads += 1
    g.path = with_step(g.path, depth, src, dst)


cdef inline void undo_step(gen_t* g, const undo_t* u, const game_t* v) noexcept nogil:
    if game_t is long_game and u.src == HEAD:
        g.heads -= 1
    if u.dst >= 1 and game_t is short_game:
        g.b[u.dst] -= 1 + u.hit
        g.b[0] += u.hit
    elif u.dst >= 1:
        g.b[u.dst] -= 1
    g.b[u.src] += 1
    g.mover = u.mover
    g.outside = u.outside
    g.on_board = u.on_board


cdef inline bint blocked(const gen_t* g, const game_t* v) noexcept nogil:
    """block_timing "step": does the mover now hold an illegal six-block?"""
    return game_t is long_game and g.step_check and (runs6(rotate12(g.mover)) & g.forbidden) != 0


cdef inline int candidate(gen_t* g, int depth, int sub, const game_t* v) noexcept nogil:
    """After walking a node's continuations (most steps below: `sub`): record the node if it is a
    candidate that nothing below beats. The most steps of a candidate here or below, or -2 if full."""
    if sub > depth:
        return sub
    if game_t is long_game and g.end_check and (runs6(rotate12(g.mover)) & g.forbidden):
        return sub
    if record(g, depth) < 0:
        return -2
    return depth


cdef inline int top_bit(uint32_t bits) noexcept nogil:
    return __builtin_clz(bits) ^ 31  # (one bsr: gcc knows this form)


cdef int walk(gen_t* g, int depth, int used, const game_t* v) noexcept nogil:
    """Every continuation of the turn, in every dice order (results are looked up: `dedupe`)."""
    cdef int sub = -1, r, i, j, d, src
    cdef bint seen
    cdef uint32_t srcs
    cdef undo_t u
    if g.on_board > 0 and depth < g.ndice:
        for i in range(g.ndice):
            if used & (1 << i):
                continue
            d = g.dice[i]
            seen = False
            for j in range(i):
                if not used & (1 << j) and g.dice[j] == d:
                    seen = True
            if seen:
                continue
            srcs = sources(g, d, v)
            while srcs:
                src = top_bit(srcs) + 1
                srcs &= ~(<uint32_t>1 << (src - 1))
                do_step(g, src, d, depth, &u, v)
                if depth == 0:
                    g.first_die = d
                if not blocked(g, v):
                    r = walk(g, depth + 1, used | (1 << i), v)
                    if r == -2:
                        return -2
                    if r > sub:
                        sub = r
                undo_step(g, &u, v)
    return candidate(g, depth, sub, v)


cdef int walk_double(gen_t* g, int depth, int max_src, const game_t* v) noexcept nogil:
    """A double in non-increasing source order: each multiset of steps once, so no duplicates.

    Exact unless a step makes an illegal six-block (another order might avoid it): then it
    stops with -3 and the caller walks every order instead.
    """
    cdef int sub = -1, r, src, dst, d = g.dice[0]
    cdef uint32_t srcs
    cdef bint six
    cdef undo_t u
    if g.on_board > 0 and depth < 4:
        srcs = sources(g, d, v) & ((<uint32_t>2 << (max_src - 1)) - 1)
        if depth == 2 and plain(g, v):
            sub = last_two_steps(g, srcs, d, v)
            if sub == -2:
                return -2
            srcs = 0
        while srcs:
            src = top_bit(srcs) + 1
            srcs &= ~(<uint32_t>1 << (src - 1))
            if depth == 3:  # the last step, made on the result's copy only
                dst = src - d if src > d else 0
                six = last_blocked(g, src, dst, v)
                if six and g.step_check:
                    return -3
                r = -1 if six else (4 if record_step(g, 4, src, dst, v) == 0 else -2)
            else:
                do_step(g, src, d, depth, &u, v)
                if blocked(g, v):
                    undo_step(g, &u, v)
                    return -3
                r = walk_double(g, depth + 1, src, v)
                undo_step(g, &u, v)
            if r < -1:
                return r
            if r > sub:
                sub = r
    return candidate(g, depth, sub, v)


cdef int plain_double(gen_t* g) noexcept nogil:
    """walk_double when nothing can bear off in four steps and at most one checker is on the bar
    (short nardy, four or more checkers outside home), by nardy_plain_double (_plain.h), which
    keeps the board and its occupancy in registers: the results in walk_double's order, the last
    two steps made on the result's copies only. The most steps of a result, or -2 when full."""
    cdef nardy_sink s = sink_of(g)
    return from_sink(g, &s, nardy_plain_double(&s, g.b, g.mover, g.open_points, g.dice[0]))


cdef int last_two_steps(gen_t* g, uint32_t srcs, int d, const game_t* v) noexcept nogil:
    """walk_double's last two steps (the third from `srcs`), short nardy with nothing to enter or
    bear off: the fourth steps' sources come from the occupancy words, the results are made on
    copies only. The most steps of a result, or -2 when full."""
    cdef int sub = -1, src
    cdef uint32_t fourth
    while srcs:
        src = top_bit(srcs) + 1
        srcs &= ~(<uint32_t>1 << (src - 1))
        fourth = mover_after(g, src, src - d) & (g.open_points << d) & ((<uint32_t>2 << (src - 1)) - 1)
        if fourth == 0:
            if record_step(g, 3, src, src - d, v) < 0:
                return -2
            sub = 3 if sub < 3 else sub
        else:
            if record_twos(g, 4, src, src - d, fourth, d) < 0:
                return -2
            sub = 4
    return sub


cdef enum:
    VIA_QUIET = 1     # one checker by both dice, no hit on the way
    VIA_HIT_HI = 2    # ... hitting a blot on the point the larger die reaches first
    VIA_HIT_LO = 4    # ... hitting a blot on the point the smaller die reaches first


cdef int walk_pair(gen_t* g, const game_t* v) noexcept nogil:
    """Two different dice: both orders, with no lookups.

    A two-step result is either two checkers moved, x by the larger die and y by the smaller
    (the same from either order), or one checker s moved by both (x = y + lo or y = x + hi,
    "x/hi y/lo" with y = x - hi, ...), which is the same from every order unless a blot was hit
    on the way. Bearing off adds one more coincidence: x and y both borne off, x by hi and y by
    lo, is the same result as y by hi and x by lo. Each such play is recorded once, the first
    time (larger die first); `played`, `chained` and `both_off` remember which were. One-step
    results that repeat (a checker borne off by either die) are left to `_keep_larger`, which
    keeps the larger die's, found first. Short nardy with nothing to enter or bear off ("plain")
    walks the first order and, if it found two-step plays, the second's new plays in
    `plain_pair`; with one checker to enter and nothing to bear off, `enter_pair`.
    """
    cdef int hi = g.dice[0], lo = g.dice[1], order, f, x, y, r, s, via, sub = -1, below, src2, dst2
    cdef uint32_t first, second
    cdef bint six, bearing = g.outside < 2  # some step may bear off
    cdef bint simple = plain(g, v)
    cdef undo_t u1
    if game_t is short_game and g.b[BAR] == 1 and g.outside >= 2:
        return enter_pair(g, v)
    if game_t is long_game and g.outside >= 2:
        return long_pair(g)
    if simple:  # the first order without stepping; the second, if two steps can be played, too
        sub = plain_pair(g)
        if sub == -2 or g.best == 2:
            return sub
    else:  # (plain: the second order never reads it)
        memset(g.played, 0, sizeof(g.played))
    memset(g.chained, 0, sizeof(g.chained))  # (after plain_pair, which keeps its own in registers)
    if bearing:
        memset(g.both_off, 0, sizeof(g.both_off))
    for order in range(1 if simple else 0, 2):
        g.first_die = hi if order == 0 else lo
        first = sources(g, g.first_die, v)
        while first:
            f = top_bit(first) + 1
            first &= ~(<uint32_t>1 << (f - 1))
            do_step(g, f, g.first_die, 0, &u1, v)
            if not blocked(g, v):
                below = -1
                if g.on_board > 0:
                    second = sources(g, lo if order == 0 else hi, v)
                    if order == 1 and not simple:  # two checkers, recorded already
                        below = 2 if second & g.played[f] else below
                        second &= ~g.played[f]
                    while second:
                        if order == 0:  # x/hi then y/lo
                            x = f
                            y = top_bit(second) + 1
                            second &= ~(<uint32_t>1 << (y - 1))
                            s = x if y == x - hi else (y if y - lo == x else 0)
                            via = (VIA_HIT_HI if u1.hit else VIA_QUIET) if y == x - hi else VIA_QUIET
                        else:  # y/lo then x/hi
                            y = f
                            x = top_bit(second) + 1
                            second &= ~(<uint32_t>1 << (x - 1))
                            s = y if x == y - lo else (x if x - hi == y else 0)
                            via = (VIA_HIT_LO if u1.hit else VIA_QUIET) if x == y - lo else VIA_QUIET
                        if s and g.chained[s] & via:
                            below = 2  # recorded already: the same play
                            continue
                        src2 = y if order == 0 else x  # the last step, made on the result's copy only
                        dst2 = src2 - (lo if order == 0 else hi)
                        if dst2 <= 0:  # borne off
                            dst2 = 0
                            if bearing and u1.dst == 0 and g.both_off[y] & (<uint32_t>1 << (x - 1)):
                                below = 2  # recorded already: y by hi and x by lo, both off
                                continue
                        six = last_blocked(g, src2, dst2, v)
                        if not (six and g.step_check):
                            if not six and record_step(g, 2, src2, dst2, v) < 0:
                                undo_step(g, &u1, v)
                                return -2
                            if g.best == 2:
                                below = 2
                                g.chained[s] |= via  # chained[0] is never read
                                if not simple:
                                    g.played[y] |= <uint32_t>(s == 0) << (x - 1)
                                if bearing and dst2 == 0 and u1.dst == 0:
                                    g.both_off[x] |= <uint32_t>1 << (y - 1)
                r = candidate(g, 1, below, v)
                if r == -2:
                    undo_step(g, &u1, v)
                    return -2
                if r > sub:
                    sub = r
            undo_step(g, &u1, v)
    return candidate(g, 0, sub, v)


cdef int enter_pair(gen_t* g, const game_t* v) noexcept nogil:
    """walk_pair with one checker on the bar and nothing to bear off (short nardy): it enters by
    one die, then any checker moves by the other, the results made on copies only. The orders
    give different results except one: a checker moved on from the entry point (the entered one,
    or one there already) reaches 25 - hi - lo either way; it is recorded once per hit
    (`via`, as in walk_pair). The most steps of a result, or -2 when full."""
    cdef int hi = g.dice[0], lo = g.dice[1], sub = -1, order, d, other, entry, via, seen = 0
    cdef uint32_t second, on
    for order in range(2):
        d = hi if order == 0 else lo
        other = lo if order == 0 else hi
        entry = BAR - d
        if not (g.open_points >> (entry - 1)) & 1:
            continue
        g.first_die = d
        second = mover_after(g, BAR, entry) & (g.open_points << other)
        on = <uint32_t>1 << (entry - 1)  # the checker on the entry point moved on
        if second & on:
            via = (VIA_HIT_HI if order == 0 else VIA_HIT_LO) if g.b[entry] == -1 else VIA_QUIET
            if seen & via:
                second &= ~on  # recorded already: the same play
                sub = 2
            seen |= via
        if second:
            if record_twos(g, 2, BAR, entry, second, other) < 0:
                return -2
            sub = 2
        else:  # (not recorded if the other order found two steps)
            if record_step(g, 1, BAR, entry, v) < 0:
                return -2
            sub = 1 if sub < 1 else sub
    return candidate(g, 0, sub, v)


cdef int plain_pair(gen_t* g) noexcept nogil:
    """walk_pair's first order (the larger die first) when nothing can enter or bear off, and if
    it found two-step plays, the second order's new plays, by nardy_plain_pair (_plain.h), which
    keeps the board in registers. The second steps' sources come from the occupancy words, the
    results are made on copies only. A checker x moved on by the smaller die, or one moved onto
    x, is one checker s moved by both: recorded once per s and hit (`chained`). In the second
    order every two-checker play was found already (the other order plays the same checkers to
    the same points), so only one checker y moved on from y - lo can be new. The most steps of
    a result, or -2 when full."""
    cdef nardy_sink s = sink_of(g)
    cdef int sub = nardy_plain_pair(&s, g.b, g.mover, g.open_points, g.dice[0], g.dice[1])
    g.first_die = g.dice[1] if s.best == 2 else g.dice[0]
    return from_sink(g, &s, sub)


cdef int long_pair(gen_t* g) noexcept nogil:
    """walk_pair for long nardy when nothing can bear off in two steps, by nardy_long_pair
    (_plain.h), which keeps the board in registers and the head rule and six-block tests in
    locals: both orders, the results made on copies only. The most steps of a result (0 for
    none), or -2 when full."""
    cdef nardy_sink s = sink_of(g)
    return from_sink(g, &s, nardy_long_pair(&s, g.b, g.mover, g.open_points, g.dice[0], g.dice[1], g.head_limit,
                                            g.forbidden, g.step_check, g.end_check))


cdef int long_double(gen_t* g) noexcept nogil:
    """walk_double for long nardy when nothing can bear off in four steps, by nardy_long_double
    (_plain.h), which keeps the boards in registers and the head rule and six-block tests in
    locals. The most steps of a result, -2 when full, or -3 if a step made an illegal block."""
    cdef nardy_sink s = sink_of(g)
    return from_sink(g, &s, nardy_long_double(&s, g.b, g.mover, g.open_points, g.dice[0], g.head_limit,
                                              g.forbidden, g.step_check, g.end_check))


cdef int head_limit(const int8_t* b, int d1, int d2, const rules_t* r) noexcept nogil:
    """Checkers that may leave the head this turn (docs/rules.md 4: head rule, first-turn exception)."""
    cdef int p
    if r.variant == SHORT:
        return CHECKERS
    if b[HEAD] == CHECKERS and d1 == d2 and (d1 == 3 or d1 == 4 or d1 == 6):
        if r.head_exception == HEAD_PERMISSION:
            return 2
        if r.head_exception == HEAD_STRICT:
            p = HEAD - d1
            while p > 12:
                if b[p] < 0:
                    return 1
                p -= d1
            return 2
    return 1


cdef int walk_moves(gen_t* g, const int8_t* b, int d1, int d2) noexcept nogil:
    """The distinct results of rolling d1-d2 on a valid, unfinished board: their number, or -1 if full.

    Results are g.out[0:n] with representatives g.moves[0:n]; a roll that cannot be played
    gives one result, the board itself, with an empty move.
    """
    cdef scan_t s
    scan(b, &s)
    return walk_moves_scanned(g, b, &s, d1, d2)


cdef int walk_moves_scanned(gen_t* g, const int8_t* b, const scan_t* sc, int d1, int d2) noexcept nogil:
    """walk_moves with the board's scan at hand (as `scan` or `status_of` filled it)."""
    cdef int p, k, found
    cdef scan_t s = sc[0]
    cdef bint blocks = g.rules.variant == LONG and g.rules.block_rule != BLOCK_NONE
    memcpy(g.b, b, VIEW)
    g.overflow = 0
    g.best = 0
    clear_results(g)
    if d1 < d2:
        d1, d2 = d2, d1
    g.ndice = 4 if d1 == d2 else 2
    for k in range(g.ndice):
        g.dice[k] = d1
    g.dice[1] = d2
    g.mover = s.mine
    g.open_points = ~(s.closed if g.rules.variant == SHORT else s.theirs) & ALL_POINTS
    g.on_board = s.n_mine + b[BAR]
    g.outside = g.on_board
    for p in range(1, 7):
        if b[p] > 0:
            g.outside -= b[p]
    g.heads = 0
    g.head_limit = head_limit(b, d1, d2, &g.rules)
    g.forbidden = 0
    if blocks:
        g.forbidden = forbidden_starts(rotate12(s.theirs), CHECKERS - s.n_theirs, g.rules.block_rule)
    g.step_check = blocks and g.rules.block_timing == TIMING_STEP and g.forbidden != 0
    g.end_check = blocks and g.rules.block_timing == TIMING_END and g.forbidden != 0
    if g.rules.variant == SHORT:
        found = walk_turn(g, <const short_game*>NULL)
    else:
        found = walk_turn(g, <const long_game*>NULL)
    if found == -2:
        return -1
    if g.ndice == 2 and g.best == 1:
        _keep_larger(g)
    return g.n


cdef int walk_turn(gen_t* g, const game_t* v) noexcept nogil:
    """The turn's walk: without lookups where the roll allows (see the module's docstring)."""
    cdef int found
    g.dedupe = False
    if g.ndice == 4 and not g.want_sequences:
        if game_t is short_game and g.outside >= 4 and g.b[BAR] <= 1:
            return plain_double(g)
        if game_t is long_game and g.outside >= 4:
            found = long_double(g)
        else:
            found = walk_double(g, 0, 25, v)
        if found != -3:
            return found
        g.best = 0  # a step made a six-block that another order might avoid: every order
        clear_results(g)
    elif g.ndice == 2 and not g.want_sequences:
        return walk_pair(g, v)
    g.dedupe = True
    return walk(g, 0, 0, v)


cdef void _keep_larger(gen_t* g) noexcept nogil:
    """Larger-die rule: if one step only can be played and the larger die can, drop the rest."""
    cdef int i, j = 0, k = 0
    cdef int remap[64]  # one step of two dice: at most 2 x 25 results
    for i in range(g.n):
        if g.larger[i]:
            break
    else:
        return
    for i in range(g.n):
        remap[i] = -1
        if g.larger[i]:
            if i != j and g.store:
                memcpy(g.out + j * VIEW, g.out + i * VIEW, VIEW)
                memcpy(g.moves + j * MOVE_BYTES, g.moves + i * MOVE_BYTES, MOVE_BYTES)
            g.larger[j] = 1
            remap[i] = j
            j += 1
    g.n = j
    if g.want_sequences:
        for i in range(g.nseq):
            if g.seq_larger[i]:
                memcpy(g.seqs + k * MOVE_BYTES, g.seqs + i * MOVE_BYTES, MOVE_BYTES)
                g.seq_result[k] = remap[g.seq_result[i]]
                g.seq_larger[k] = 1
                k += 1
        g.nseq = k


cdef struct perft_t:
    rules_t rules
    gen_t* gens       # one generator per remaining depth
    int8_t* boards    # one turned-round child board per remaining depth
    uint32_t ticks    # nodes one turn from the leaves: every 1024th looks for a signal


cdef int64_t walk_perft(const int8_t* b, int depth, const rules_t* r, int cap) noexcept nogil:
    """docs/rules.md section 7 on a valid, unfinished board; -1 if `cap` results per roll were too
    few, PERFT_INTERRUPTED if a signal handler raised (Ctrl-C)."""
    cdef perft_t P
    cdef int level, failed = 0
    cdef int64_t total
    P.rules = r[0]
    P.ticks = 0
    P.gens = <gen_t*>calloc(depth + 1, sizeof(gen_t))
    P.boards = <int8_t*>calloc(depth + 1, VIEW)
    if not P.gens or not P.boards:
        failed = 1
    else:
        for level in range(1, depth + 1):
            if gen_init(&P.gens[level], r, cap) < 0:
                failed = 1
                break
            P.gens[level].store = level > 1  # the last level only counts
    total = -1 if failed else perft_node(&P, b, depth, True)
    if P.gens:
        for level in range(depth + 1):
            gen_free(&P.gens[level])
    free(P.gens)
    free(P.boards)
    return total


cdef int64_t perft_node(perft_t* P, const int8_t* b, int depth, bint starter) noexcept nogil:
    cdef gen_t* g = &P.gens[depth]
    cdef int8_t* turned = P.boards + depth * VIEW
    cdef const int8_t* child
    cdef int64_t total = 0, sub
    cdef int d1, d2, n, i
    if depth == 0:
        return 1
    if depth == 1:
        P.ticks += 1
        if P.ticks % 1024 == 0 and interrupted():
            return PERFT_INTERRUPTED
    for d1 in range(1, 7):
        for d2 in range(1, d1 + 1):
            n = walk_moves(g, b, d1, d2)
            if n < 0:
                return -1
            if depth == 1:
                total += n
                continue
            for i in range(n):
                child = g.out + i * VIEW
                if mover_left(child) > 0:
                    flip(child, turned, P.rules.variant)
                    sub = perft_node(P, turned, depth - 1, not starter)
                elif P.rules.last_roll_draw and starter:
                    flip(child, turned, P.rules.variant)
                    sub = last_roll(P, turned, depth - 1)
                else:
                    sub = 1  # the game is over: a leaf
                if sub < 0:
                    return sub
                total += sub
    return total


cdef int64_t last_roll(perft_t* P, const int8_t* b, int depth) noexcept nogil:
    """last_roll_draw: the starter has finished; the other side rolls once more, then the game ends."""
    cdef int64_t total = 0
    cdef int d1, d2, n
    if depth == 0:
        return 1
    for d1 in range(1, 7):
        for d2 in range(1, d1 + 1):
            n = walk_moves(&P.gens[depth], b, d1, d2)
            if n < 0:
                return -1
            total += n
    return total
