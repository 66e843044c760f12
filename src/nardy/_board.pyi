"""Type stub of the compiled module _board (cython/nardy/_board.pyx): no Python-level names; the core cimports it."""
