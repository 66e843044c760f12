"""Type stub of the compiled module _movegen_v3 (cython/nardy/_movegen_v3.pyx): no Python-level names; the core cimports it."""
