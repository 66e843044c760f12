# The x86-64-v3 build of the walks: the entry points _movegen takes from it (by their capsules).

from libc.stdint cimport int8_t, int64_t

from nardy._board cimport rules_t, scan_t
from nardy._movegen cimport gen_t

cdef int walk_moves(gen_t* g, const int8_t* b, int d1, int d2) noexcept nogil
cdef int walk_moves_scanned(gen_t* g, const int8_t* b, const scan_t* sc, int d1, int d2) noexcept nogil
cdef int64_t walk_perft(const int8_t* b, int depth, const rules_t* r, int cap) noexcept nogil
