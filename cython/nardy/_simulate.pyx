"""Self-play in the compiled core: whole games without the GIL, dice from a numpy bit generator.

One call plays a chunk of games with one numpy BitGenerator (its C interface, `bitgen_t`, taken
from the generator's capsule), so a chunk's games depend only on that generator's seed.
"""

import numpy as np

from cpython.mem cimport PyMem_RawFree, PyMem_RawRealloc
from cpython.pycapsule cimport PyCapsule_GetPointer
from cython.view cimport array as cvarray
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint32_t, uint64_t
from libc.string cimport memcpy

from nardy._bearoff cimport STATES, best_result, home_index
from nardy._board cimport BAR, CHECKERS, LONG, PLAYING, SHORT, VIEW, flip, judge, mover_left, pips, rules_of, rules_t, scan, scan_t
from nardy._dice cimport below, bitgen_t, roll, roll_off
from nardy._movegen cimport gen_free, gen_grow, gen_init, gen_moves, gen_skip_moves, gen_t
from nardy._signals cimport interrupted, reraise


cdef enum:
    POLICY_RANDOM = 0
    POLICY_FIRST = 1
    POLICY_GREEDY = 2
    POLICY_BEAROFF = 3
    TRACE_BYTES = 29     # one ply: the board (mover's view), the two dice, the colour on roll
    C_MAX_PLIES = 100000 # a game that has not ended after this many plies is stopped (an error)
    CHECK_EVERY = 64     # games (race_turns: trials) between looks for a signal or a stop request
    NO_MEMORY = -1       # play() and play_games' codes
    TOO_LONG = -2
    INTERRUPTED = -3
    STOPPED = -4

MAX_PLIES = C_MAX_PLIES

POLICIES = {"random": POLICY_RANDOM, "first": POLICY_FIRST, "greedy": POLICY_GREEDY, "bearoff": POLICY_BEAROFF}

# result kinds: long 1 oin, 2 mars, 3 koks; short 1 single, 2 gammon, 3 backgammon; 0 draw

cdef struct outcome_t:
    int winner        # 0 white, 1 black, -1 draw
    int kind
    int plies
    int starter
    int pips[2]       # white's and black's at the end
    int8_t final[26]  # the last move's result, seen by the side that made it


cdef struct trace_t:
    int8_t* data      # PyMem_Raw memory (seen by tracemalloc), handed to numpy at the end
    int64_t n
    int64_t cap
    int failed


cdef inline int choose(gen_t* g, int n, int policy, bitgen_t* rng, const double* bearoff) noexcept nogil:
    """The index of the result the policy plays (`bearoff`: the bear-off table's expected turns)."""
    cdef int i, k, best = 0, value, best_value = -100000
    cdef int32_t p[2]
    cdef const int8_t* child
    if n == 1 or policy == POLICY_FIRST:
        return 0
    if policy == POLICY_BEAROFF:
        if g.outside == 0:  # the mover's checkers are all home: the table's play
            return best_result(g.out, n, bearoff)
        return race_play(g, n, bearoff)
    if policy == POLICY_RANDOM:
        return below(rng, <uint32_t>n)
    for i in range(n):  # greedy race: the lowest own pip count, then the fewest blots left
        child = g.out + i * VIEW
        pips(child, g.rules.variant, p)
        value = -32 * p[0]
        for k in range(1, 25):
            value -= child[k] == 1
        if value > best_value:
            best_value = value
            best = i
    return best


cdef inline int race_play(gen_t* g, int n, const double* bearoff) noexcept nogil:
    """Checkers still outside home: the lowest pip count, then the fewest checkers outside home,
    then the least waste of those home (the table's expected turns x 49/6, minus their pips)."""
    cdef int i, p, outside, home, best = 0, best_pips = 100000, best_outside = 100
    cdef int32_t pp[2]
    cdef double waste, best_waste = 1e300
    cdef const int8_t* child
    for i in range(n):
        child = g.out + i * VIEW
        pips(child, g.rules.variant, pp)
        outside = child[BAR]
        home = 0
        for p in range(7, 25):
            if child[p] > 0:
                outside += child[p]
        for p in range(1, 7):
            if child[p] > 0:
                home += p * child[p]
        waste = 49.0 / 6.0 * bearoff[home_index(child)] - home
        if pp[0] < best_pips or (pp[0] == best_pips and (
                outside < best_outside or (outside == best_outside and waste < best_waste - 1e-9))):
            best, best_pips, best_outside, best_waste = i, pp[0], outside, waste
    return best


cdef inline int trace_ply(trace_t* t, const int8_t* board, int d1, int d2, int mover) noexcept nogil:
    cdef void* grown
    if t.n == t.cap:
        t.cap = t.cap + t.cap // 8 + 4096  # an eighth more: little room to spare at the end (realloc is cheap)
        grown = PyMem_RawRealloc(t.data, t.cap * TRACE_BYTES)
        if grown == NULL:
            t.failed = 1
            return -1
        t.data = <int8_t*>grown
    memcpy(t.data + t.n * TRACE_BYTES, board, VIEW)
    t.data[t.n * TRACE_BYTES + 26] = d1
    t.data[t.n * TRACE_BYTES + 27] = d2
    t.data[t.n * TRACE_BYTES + 28] = mover
    t.n += 1
    return 0


cdef int play(gen_t* g, bitgen_t* rng, const int8_t* start, int first_mover, bint koks, bint opening_dice,
              int policy, const double* bearoff, outcome_t* out, trace_t* trace, int max_plies) noexcept nogil:
    """One whole game from `start` (seen by the side on roll); 0, NO_MEMORY, or TOO_LONG if it has
    not ended after `max_plies` plies.

    first_mover -1: a new game, the roll-off decides who starts (and, with `opening_dice`, its
    dice are the first roll); 0 or 1: that colour is on roll in `start` and rolls at once.
    """
    cdef int8_t board[26]
    cdef int8_t after[26]
    cdef const int8_t* child
    cdef int a = 0, b = 0, d1, d2, n, mover, winner, kind, plies = 0
    cdef int32_t p[2]
    cdef bint last_roll = False
    if first_mover < 0:  # a new game: the roll-off decides who starts
        first_mover = roll_off(rng, &a, &b)
    out.starter = mover = first_mover
    memcpy(board, start, VIEW)
    while True:
        if plies == max_plies:
            return TOO_LONG
        if plies == 0 and opening_dice and a != 0:
            d1, d2 = a, b
        else:
            d1 = roll(rng)
            d2 = roll(rng)
        n = gen_moves(g, board, d1, d2)
        while n < 0:  # more results than room: grow and generate the same roll again
            if gen_grow(g) < 0:
                return NO_MEMORY
            n = gen_moves(g, board, d1, d2)
        if trace != NULL and trace_ply(trace, board, d1, d2, mover) < 0:
            return NO_MEMORY
        child = g.out + choose(g, n, policy, rng, bearoff) * VIEW
        plies += 1
        memcpy(out.final, child, VIEW)
        winner = judge(child, mover, out.starter, &last_roll, &g.rules, koks, &kind)
        if winner != PLAYING:
            out.winner, out.kind = winner, kind
            flip(child, after, g.rules.variant)
            break
        flip(child, board, g.rules.variant)
        mover = 1 - mover
    out.plies = plies
    # `after` is the final board seen by the side that did not make the last move
    pips(after, g.rules.variant, p)
    out.pips[1 - mover] = p[0]
    out.pips[mover] = p[1]
    return 0


def play_games(int games, object bit_generator, tuple rules, bint koks, bint opening_dice, int policy,
               const int8_t[::1] start, int first_mover=-1, bint record=False, const double[::1] bearoff=None,
               int max_plies=C_MAX_PLIES, const int8_t[::1] stop=None):
    """Play `games` games with one numpy BitGenerator; per-game arrays (and the trace if `record`).

    `start` is a valid, unfinished board seen by the side on roll: colour `first_mover`, or
    (-1) whoever wins the roll-off of a new game. `bearoff`: the bear-off table's expected
    turns per state, which the "bearoff" policy needs. A game still going after `max_plies`
    plies ends the call with {"error": "too long", "game": its index}; `stop[0]` set (by another
    thread) with {"error": "stopped"}. Every CHECK_EVERY games Python's signal handlers run
    (main thread only): Ctrl-C raises KeyboardInterrupt.
    """
    cdef bitgen_t* rng = <bitgen_t*>PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")
    cdef rules_t r = rules_of(rules)
    cdef gen_t g
    cdef trace_t trace
    cdef outcome_t o
    cdef int i, cap = 512, code = 0
    cdef const double* table = NULL
    if policy == POLICY_BEAROFF:
        if bearoff is None or bearoff.shape[0] != STATES:
            raise ValueError(f"the bearoff policy needs the table's {STATES} expected turns")
        table = &bearoff[0]
    winner = np.empty(games, np.int8)
    kind = np.empty(games, np.int8)
    plies = np.empty(games, np.int32)
    starter = np.empty(games, np.int8)
    final_pips = np.empty((games, 2), np.int16)
    final = np.empty((games, VIEW), np.int8)
    trace_offsets = np.zeros(games + 1, np.int64)
    cdef int8_t[::1] w = winner, k = kind, s = starter
    cdef int32_t[::1] pl = plies
    cdef int16_t[:, ::1] fp = final_pips
    cdef int8_t[:, ::1] fb = final
    cdef int64_t[::1] to = trace_offsets
    trace.data = NULL
    trace.n = trace.cap = trace.failed = 0
    if stop is not None and stop.shape[0] < 1:
        raise ValueError("stop is a one-element int8 array")
    cdef volatile const int8_t* stop_flag = &stop[0] if stop is not None else NULL
    if gen_init(&g, &r, cap) < 0:
        raise MemoryError()
    gen_skip_moves(&g)  # only the chosen result's board is read
    try:
        with bit_generator.lock, nogil:
            i = 0
            while i < games:
                if i % CHECK_EVERY == CHECK_EVERY - 1:
                    if stop_flag != NULL and stop_flag[0]:
                        code = STOPPED
                        break
                    if interrupted():
                        code = INTERRUPTED
                        break
                code = play(&g, rng, &start[0], first_mover, koks, opening_dice, policy, table, &o,
                            &trace if record else NULL, max_plies)
                if code < 0:
                    break
                w[i], k[i], pl[i], s[i] = o.winner, o.kind, o.plies, o.starter
                fp[i, 0], fp[i, 1] = o.pips[0], o.pips[1]
                memcpy(&fb[i, 0], o.final, VIEW)
                to[i + 1] = trace.n
                i += 1
        if code == INTERRUPTED:
            reraise()
        if code == TOO_LONG:
            return {"error": "too long", "game": i}
        if code == STOPPED:
            return {"error": "stopped"}
        if code < 0:
            raise MemoryError("a game needed more memory than could be had")
        out = {"winner": winner, "kind": kind, "plies": plies, "starter": starter, "final_pips": final_pips,
               "final": final}
        if record:
            out["trace"] = _trace_array(&trace)
            out["trace_offsets"] = trace_offsets
        return out
    finally:
        gen_free(&g)
        PyMem_RawFree(trace.data)


cdef object _trace_array(trace_t* t):
    """The trace as an int8 (n, TRACE_BYTES) array that takes over its buffer (shrunk to fit, not copied)."""
    cdef cvarray wrapper
    cdef void* shrunk
    if t.n == 0:
        return np.empty((0, TRACE_BYTES), np.int8)
    shrunk = PyMem_RawRealloc(t.data, t.n * TRACE_BYTES)
    if shrunk != NULL:
        t.data = <int8_t*>shrunk
    wrapper = cvarray(shape=(t.n, TRACE_BYTES), itemsize=1, format="b", mode="c", allocate_buffer=False)
    wrapper.data = <char*>t.data
    wrapper.callback_free_data = PyMem_RawFree
    t.data = NULL
    return np.asarray(wrapper)


def race_turns(const int8_t[:, ::1] views, int trials, object bit_generator, tuple rules, const double[::1] bearoff):
    """float64 (n, 4): the mean and variance of the turns each row's mover needs to bear off all
    its checkers alone (the opponent's removed), then of the turns until its first checker is
    off, playing the "bearoff" policy, over `trials` games."""
    cdef bitgen_t* rng = <bitgen_t*>PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")
    cdef rules_t r = rules_of(rules)
    if bearoff.shape[0] != STATES:
        raise ValueError(f"the bearoff policy needs the table's {STATES} expected turns")
    cdef Py_ssize_t row, n = views.shape[0]
    cdef int t, p, turns, first, start, m, d1, d2, code = 0
    cdef double total, squares, total_f, squares_f
    cdef int8_t alone[26]
    cdef int8_t board[26]
    cdef gen_t g
    out = np.empty((n, 4), np.float64)
    cdef double[:, ::1] o = out
    if gen_init(&g, &r, 512) < 0:
        raise MemoryError()
    gen_skip_moves(&g)
    try:
        with bit_generator.lock, nogil:
            for row in range(n):
                for p in range(VIEW):
                    alone[p] = views[row, p] if views[row, p] > 0 else 0
                alone[0] = 0
                start = mover_left(alone)
                total = squares = total_f = squares_f = 0.0
                for t in range(trials):
                    if t % CHECK_EVERY == CHECK_EVERY - 1 and interrupted():
                        code = INTERRUPTED
                        break
                    memcpy(board, alone, VIEW)
                    turns = first = 0
                    while mover_left(board) > 0:
                        d1 = roll(rng)
                        d2 = roll(rng)
                        m = gen_moves(&g, board, d1, d2)
                        while m < 0:
                            if gen_grow(&g) < 0:
                                code = -1
                                break
                            m = gen_moves(&g, board, d1, d2)
                        if code < 0:
                            break
                        memcpy(board, g.out + choose(&g, m, POLICY_BEAROFF, rng, &bearoff[0]) * VIEW, VIEW)
                        turns += 1
                        if first == 0 and mover_left(board) < start:
                            first = turns
                    if code < 0:
                        break
                    total += turns
                    squares += <double>turns * turns
                    total_f += first
                    squares_f += <double>first * first
                if code < 0:
                    break
                o[row, 0] = total / trials
                o[row, 1] = squares / trials - (total / trials) ** 2
                o[row, 2] = total_f / trials
                o[row, 3] = squares_f / trials - (total_f / trials) ** 2
        if code == INTERRUPTED:
            reraise()
        if code < 0:
            raise MemoryError()
        return out
    finally:
        gen_free(&g)
