"""Reading and writing the game's texts and pictures: Position, Match and XG IDs (`ids`), move text
(`notation`), the ASCII board (`diagram`), match files (`matfile`, `sgf`) and SVG boards (`svg`)."""

import importlib as _importlib
from types import ModuleType as _ModuleType

_MODULES = ("diagram", "ids", "matfile", "notation", "sgf", "svg")


def __getattr__(name: str) -> _ModuleType:
    """The sub-modules load on first use, so that `import nardy` stays light."""
    if name in _MODULES:
        return _importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) - {"_importlib", "_ModuleType"} | set(_MODULES))


__all__: list[str] = []
