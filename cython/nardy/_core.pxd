# What the compiled core's def layer (_core.pyx) shares with the other compiled modules: the
# switch of its batch kernels, for nardy._hooks.

cdef int batch_use_avx2(int on) noexcept nogil
