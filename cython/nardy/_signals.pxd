# Ctrl-C in long nogil loops: a loop calls `interrupted()` every few thousand nodes or games
# (it takes the GIL for a moment and runs Python's signal handlers, which only the main thread
# does); when it is true the loop frees its buffers and returns a code, and the def-level caller,
# out of any `with` block, calls `reraise()` to raise what the handler raised (KeyboardInterrupt
# for Ctrl-C). The exception is held aside in between (in the thread's state dict), so that no
# Python code (a lock's __exit__) runs with it set.

cdef extern from "_signals.h":
    bint interrupted "nardy_interrupted"() noexcept nogil  # has a signal handler raised?
    int reraise "nardy_reraise"() except -1  # raise what it raised
