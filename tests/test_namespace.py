"""The public namespace: `dir(nardy)` shows nardy's own names, and every module says what it
exports in `__all__`, each name of which exists."""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path

import pytest

import nardy

SRC = Path(nardy.__file__).resolve().parent
def module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(("nardy", *(parts[:-1] if parts[-1] == "__init__" else parts)))


MODULES = sorted(module_name(p) for p in SRC.rglob("*.py") if p.name != "__main__.py")


def test_dir_shows_no_helpers_of_the_package_itself() -> None:
    names = dir(nardy)
    assert "importlib" not in names and "ModuleType" not in names
    assert {"Position", "simulate", "formats", "play", "evaluation", "batch"} <= set(names)
    assert not {"svg", "env", "race", "eval", "engine", "training"} & set(names)  # the deprecated names
    assert [n for n in nardy.__all__ if not hasattr(nardy, n)] == []


def test_every_module_is_counted() -> None:
    assert len(MODULES) >= 30 and "nardy" in MODULES and "nardy.reference.movegen" in MODULES
    assert {"nardy.formats.notation", "nardy.play.gym", "nardy.evaluation.net", "nardy._backend"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_every_module_declares_all(name: str) -> None:
    if name == "nardy.play.gym" and importlib.util.find_spec("gymnasium") is None:
        pytest.skip("needs gymnasium")
    module = importlib.import_module(name)
    exported = module.__dict__.get("__all__")
    assert isinstance(exported, list) and len(set(exported)) == len(exported), name
    assert [n for n in exported if not hasattr(module, n)] == []
    namespace: dict[str, object] = {}
    exec(f"from {name} import *", namespace)
    assert set(exported) <= set(namespace)


def test_main_module_declares_all() -> None:
    text = (SRC / "__main__.py").read_text(encoding="utf-8")
    assert "__all__" in text
