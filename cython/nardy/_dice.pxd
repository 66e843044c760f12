# Dice from numpy bit generators: the C interface `bitgen_t` that numpy documents for its
# BitGenerators (taken from a generator's capsule), and unbiased draws from it.

from libc.stdint cimport uint32_t

cdef extern from "_dice.h":
    ctypedef struct bitgen_t "nardy_bitgen_t":
        void* state
        uint32_t (*next_uint32)(void* st) noexcept nogil


cdef inline int roll(bitgen_t* rng) noexcept nogil:
    """One die, uniform on 1..6 (rejecting the 4 top values of 2**32 that would bias it)."""
    cdef uint32_t x
    while True:
        x = rng.next_uint32(rng.state)
        if x < 4294967292u:
            return 1 + <int>(x % 6)


cdef inline int below(bitgen_t* rng, uint32_t n) noexcept nogil:
    """Uniform on 0..n-1 (n >= 1), rejecting the top values of 2**32 that would bias it."""
    cdef uint32_t x, limit = 4294967295u - 4294967295u % n
    while True:
        x = rng.next_uint32(rng.state)
        if x < limit:
            return <int>(x % n)


cdef inline int roll_off(bitgen_t* rng, int* a, int* b) noexcept nogil:
    """Each side rolls one die, ties roll again (docs/rules.md 6): the starter, 0 (White: `a` higher) or 1."""
    a[0] = b[0] = 0
    while a[0] == b[0]:
        a[0] = roll(rng)
        b[0] = roll(rng)
    return 0 if a[0] > b[0] else 1
