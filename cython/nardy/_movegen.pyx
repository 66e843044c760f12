"""Move generation in the compiled core (docs/rules.md sections 3 to 5), without the GIL.

A turn is walked depth-first, one step per level, over occupancy words: the sources of a
die d are `mover & (open_points << d)`, plus the bar and one bearing-off source. A double is
walked in non-increasing source order, which reaches every multiset of steps exactly once;
since a double's multiset of steps is determined by its result, that needs no de-duplication
(unless a six-block judged after every step could make the order matter: then every order is
walked and results are de-duplicated by hash). Two different dice are walked in both orders by
`walk_pair`, which knows which plays repeat and skips them, bearing off included; only when
every step sequence is wanted does a non-double take the hashed walk. The first sequence
found for each result is the lexicographically first by (larger die, higher source) per step,
the same representative as the reference's.

Each walk is compiled once per variant (`game_t`), so short nardy's carries no head or six-block
test and long nardy's no hit. In short nardy, when nothing can enter or bear off, the last two
steps (of a double; or both steps of a pair, larger die first) take their sources from the
occupancy words and are made on the result's copy only, without stepping the board; a pair with
one checker to enter does the same after the entry (`enter_pair`). A pair or a double with
nothing to enter or bear off (a double may enter one checker) is walked by C over vector
registers (_plain.h: `plain_pair`, `plain_double`), the board never stepped in memory; so are
long nardy's pairs and doubles with nothing to bear off (`long_pair`, `long_double`), the head
rule and six-block tests in locals, and no block judged where no steps of the roll can make one.

The walks themselves are in _walks.pxi. On x86-64 the same walks are also built for x86-64-v3
(AVX2, BMI1/2, LZCNT: the module _movegen_v3), and where the CPU has those, the entry points below
call that build instead (`use_v3`): variable shifts and bit scans take fewer, shorter instructions
there, and the results are the same (tests compare the two builds).
"""

from cpython.pycapsule cimport PyCapsule_GetName, PyCapsule_GetPointer

include "_walks.pxi"

cdef extern from "_cpu.h":
    enum: NARDY_CPU_X86_64_V3
    int nardy_cpu_has(int kind) noexcept nogil  # the one CPU-feature switch

ctypedef int (*moves_f)(gen_t*, const int8_t*, int, int) noexcept nogil
ctypedef int (*moves_scanned_f)(gen_t*, const int8_t*, const scan_t*, int, int) noexcept nogil
ctypedef int64_t (*perft_f)(const int8_t*, int, const rules_t*, int) noexcept nogil

cdef struct walks_t:  # one build of the walks' entry points
    moves_f moves
    moves_scanned_f moves_scanned
    perft_f perft

cdef walks_t baseline, v3, chosen
baseline.moves = walk_moves
baseline.moves_scanned = walk_moves_scanned
baseline.perft = walk_perft
v3 = baseline  # until the x86-64-v3 build is found
chosen = baseline


cdef int gen_moves(gen_t* g, const int8_t* b, int d1, int d2) noexcept nogil:
    """The distinct results of rolling d1-d2 on a valid, unfinished board: their number, or -1 if full.

    Results are g.out[0:n] with representatives g.moves[0:n]; a roll that cannot be played
    gives one result, the board itself, with an empty move.
    """
    return chosen.moves(g, b, d1, d2)


cdef int gen_moves_scanned(gen_t* g, const int8_t* b, const scan_t* sc, int d1, int d2) noexcept nogil:
    """gen_moves with the board's scan at hand (as `scan` or `status_of` filled it)."""
    return chosen.moves_scanned(g, b, sc, d1, d2)


cdef int64_t perft(const int8_t* b, int depth, const rules_t* r, int cap) noexcept nogil:
    """docs/rules.md section 7 on a valid, unfinished board; -1 if `cap` results per roll were too
    few, PERFT_INTERRUPTED if a signal handler raised (Ctrl-C)."""
    return chosen.perft(b, depth, r, cap)


cdef int use_v3(int on) noexcept nogil:
    """Call the x86-64-v3 build if `on` and this CPU has it (the default); 1 if it is called."""
    global chosen
    chosen = v3 if on else baseline
    return chosen.moves != baseline.moves


cdef void* exported(object module, str name) except NULL:
    capsule = module.__pyx_capi__[name]
    return PyCapsule_GetPointer(capsule, PyCapsule_GetName(capsule))


def _find_v3():
    """Take the x86-64-v3 build's entry points, if this CPU can run it and it was built."""
    global v3
    if not nardy_cpu_has(NARDY_CPU_X86_64_V3):
        return
    try:
        from nardy import _movegen_v3
    except ImportError:  # not built (not x86-64)
        return
    v3.moves = <moves_f>exported(_movegen_v3, "walk_moves")
    v3.moves_scanned = <moves_scanned_f>exported(_movegen_v3, "walk_moves_scanned")
    v3.perft = <perft_f>exported(_movegen_v3, "walk_perft")
    use_v3(True)


_find_v3()
