"""Judging positions: the neural evaluator (`net`), rollouts (`rollout`), game analysis
(`analysis`), training (`training`), the bear-off table (`bearoff`), cube decisions (`cube`), play and
rollouts with the cube (`cubeful`) and match equity tables (`met`)."""

import importlib as _importlib
from types import ModuleType as _ModuleType

_MODULES = ("analysis", "bearoff", "cube", "cubeful", "met", "net", "rollout", "training")


def __getattr__(name: str) -> _ModuleType:
    """The sub-modules load on first use, so that `import nardy` stays light."""
    if name in _MODULES:
        return _importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) - {"_importlib", "_ModuleType"} | set(_MODULES))


__all__: list[str] = []
