"""Type stub of the compiled module _movegen (cython/nardy/_movegen.pyx): no public Python-level names; the core cimports it."""
