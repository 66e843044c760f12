"""Builds the compiled core; all metadata lives in pyproject.toml.

Set NARDY_CYTHON_DEBUG=1 to rebuild with bounds and initialisation checks on
(for hunting memory errors: the differential tests run once against that build).
On x86-64 the move generator's walks are built twice, the second time for x86-64-v3
(_movegen_v3: AVX2, BMI1/2, LZCNT), which _movegen calls where the CPU has it.
Set NARDY_SANITIZE=1 to compile and link with AddressSanitizer and UndefinedBehaviorSanitizer
(run Python with LD_PRELOAD=$(gcc -print-file-name=libasan.so); see docs/reliability.md).
"""

import os
import platform
import sys

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("NARDY_CYTHON_DEBUG", "0") not in ("", "0")
DIRECTIVES = dict(
    language_level=3,
    boundscheck=DEBUG,
    initializedcheck=DEBUG,
    wraparound=False,
    nonecheck=False,
    cdivision=True,
    embedsignature=True,
)
MODULES = ["_board", "_movegen", "_core", "_simulate", "_bearoff", "_env", "_net", "_hooks"]
X86_64 = platform.machine().lower() in ("x86_64", "amd64") and sys.platform != "win32"
ISA_ARGS = {"_movegen_v3": ["-march=x86-64-v3"]}  # built only on x86-64, chosen at run time
SANITIZE = os.environ.get("NARDY_SANITIZE", "0") not in ("", "0")
COMPILE_ARGS = ["-O0", "-g"] if DEBUG else ["-O3"]
LINK_ARGS = []
if SANITIZE:
    SANITIZERS = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined", "-fno-omit-frame-pointer"]
    COMPILE_ARGS = COMPILE_ARGS + ["-g"] + SANITIZERS
    LINK_ARGS = SANITIZERS

setup(
    ext_modules=cythonize(
        [
            Extension(f"nardy.{name}", [f"cython/nardy/{name}.pyx"], extra_compile_args=COMPILE_ARGS + ISA_ARGS.get(name, []),
                      extra_link_args=LINK_ARGS, include_dirs=[numpy.get_include()],
                      define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")])
            for name in MODULES + (["_movegen_v3"] if X86_64 else [])
        ],
        include_path=["cython"],
        compiler_directives=DIRECTIVES,
        annotate=DEBUG,
        force=DEBUG or SANITIZE,
    ),
)
