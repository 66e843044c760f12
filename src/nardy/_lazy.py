"""Sub-packages whose modules load on first use, so that `import nardy` stays light."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from types import ModuleType

__all__ = ["on_first_use"]


def on_first_use(package: str, modules: tuple[str, ...]) -> tuple[Callable[[str], ModuleType], Callable[[], list[str]]]:
    """The `__getattr__` and `__dir__` of `package`, which load its `modules` when first asked for."""

    def __getattr__(name: str) -> ModuleType:
        if name in modules:
            return importlib.import_module(f".{name}", package)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) - {"_on_first_use"} | set(modules))

    return __getattr__, __dir__
