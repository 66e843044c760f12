"""The move generator's walks (_walks.pxi) built for x86-64-v3: only _movegen imports it, and
only on a CPU that has x86-64-v3 (see _movegen.pyx)."""

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcmp, memcpy, memset

from nardy._board cimport (
    ALL_POINTS, BAR, BLOCK_NONE, CHECKERS, HEAD, HEAD_PERMISSION, HEAD_STRICT, LONG, SHORT,
    TIMING_END, TIMING_STEP, VIEW, __builtin_clz, flip, forbidden_starts, mover_left, rotate12,
    rules_t, runs6, scan, scan_t,
)
from nardy._movegen cimport MOVE_BYTES, PERFT_INTERRUPTED, gen_t, undo_t
from nardy._signals cimport interrupted

include "_walks.pxi"
