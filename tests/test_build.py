"""The package is built with its compiled core, and the reference stands alone."""

import os
import subprocess
import sys

import nardy


def test_backend_is_compiled_unless_pure_python_is_asked_for():
    expected = "python" if os.environ.get("NARDY_PURE_PYTHON", "0") not in ("", "0") else "cython"
    assert nardy.BACKEND == expected


def test_ci_runs_the_compiled_core():
    if os.environ.get("CI"):
        assert nardy.BACKEND == "cython", "CI must test the compiled core, not a fallback"
        from nardy import _board, _core, _movegen  # noqa: F401


def test_reference_never_imports_the_core():
    code = (
        "import sys, nardy.reference as r; "
        "assert not [m for m, mod in sys.modules.items() if m.startswith('nardy.') and "
        "not (getattr(mod, '__file__', None) or '').endswith('.py')], sorted(sys.modules); "
        "print(r.perft([0]*12 + [-15] + [0]*11 + [15, 0], 1, __import__('nardy').Rules('long')))"
    )
    env = dict(os.environ, NARDY_PURE_PYTHON="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "22"


def test_version_is_exposed():
    assert nardy.__version__.count(".") == 2


def test_format_and_analysis_modules_load_on_first_use_and_nothing_optional_before():
    code = (
        "import sys, nardy\n"
        "assert 'gymnasium' not in sys.modules and 'distributed' not in sys.modules\n"
        "assert nardy.formats.svg.board(nardy.Position.start('long')).startswith('<svg')\n"
        "assert nardy.formats.matfile.read is not None and nardy.evaluation.bearoff.STATES == 54264 and nardy.play.env.BOARD_FEATURES == 198\n"
        "assert 'gymnasium' not in sys.modules and 'distributed' not in sys.modules\n"
        "try:\n    nardy.no_such_thing\nexcept AttributeError as exc:\n    assert 'no_such_thing' in str(exc)\n"
        "else:\n    raise AssertionError('no AttributeError')\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
