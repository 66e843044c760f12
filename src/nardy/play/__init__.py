"""Playing many games: batched self-play (`simulate`), the batched RL environment (`env`) and its
Gymnasium adapters (`gym`), thread pools (`threads`) and Dask clusters (`distributed`)."""

import importlib as _importlib
from types import ModuleType as _ModuleType

_MODULES = ("distributed", "env", "gym", "simulate", "threads")


def __getattr__(name: str) -> _ModuleType:
    """The sub-modules load on first use, so that `import nardy` stays light."""
    if name in _MODULES:
        return _importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) - {"_importlib", "_ModuleType"} | set(_MODULES))


__all__: list[str] = []
