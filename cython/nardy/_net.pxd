# What the evaluator's forward pass (_net.pyx) shares with the other compiled modules: the switch
# of its AVX2+FMA loops, for nardy._hooks.

cdef int net_use_avx2(int on) noexcept nogil
