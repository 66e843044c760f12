"""Types: the stubs of the compiled modules (src/nardy/_*.pyi) say what the modules hold (mypy's
stubtest compares each stub with the imported module, every name and signature), and mypy finds
no type error in the package (configured in pyproject.toml)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

import nardy

SRC = Path(nardy.__file__).resolve().parent
COMPILED = sorted(p.name.split(".")[0] for p in SRC.glob("_*.so"))
ALLOWLIST = Path(__file__).resolve().parent / "stubtest-allowlist.txt"


def test_every_compiled_module_has_a_stub() -> None:
    assert COMPILED and [m for m in COMPILED if not (SRC / f"{m}.pyi").is_file()] == []


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is not installed (the test extra has it)")
@pytest.mark.skipif(nardy.BACKEND != "cython", reason="the compiled core is disabled (NARDY_PURE_PYTHON=1)")
def test_the_stubs_match_the_compiled_modules() -> None:
    modules = [f"nardy.{m}" for m in COMPILED]
    run = subprocess.run([sys.executable, "-m", "mypy.stubtest", *modules, "--allowlist", str(ALLOWLIST)],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr


def test_mypy_is_strict_and_skips_no_module() -> None:
    tomllib = pytest.importorskip("tomllib")  # (Python 3.11 on)
    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    if not pyproject.is_file():
        pytest.skip("not run from a checkout")
    config = tomllib.loads(pyproject.read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["strict"] is True and config["files"] == ["src/nardy"]
    assert [o for o in config.get("overrides", []) if o.get("ignore_errors")] == []


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is not installed (the test extra has it)")
def test_mypy_finds_no_type_errors_in_the_package() -> None:
    root = Path(__file__).resolve().parent.parent
    if not (root / "src" / "nardy").is_dir():
        pytest.skip("not run from a checkout")
    run = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(root / "pyproject.toml")],
                         capture_output=True, text=True, timeout=600, cwd=root)
    assert run.returncode == 0, run.stdout + run.stderr
