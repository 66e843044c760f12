"""The move generator's walks (_walks.pxi) built for x86-64-v3: only _movegen imports it, and
only on a CPU that has x86-64-v3 (see _movegen.pyx)."""

from nardy._movegen cimport MOVE_BYTES, PERFT_INTERRUPTED, gen_t, undo_t

include "_walks.pxi"
