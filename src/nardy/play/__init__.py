"""Playing many games: batched self-play (`simulate`), the batched RL environment (`env`) and its
Gymnasium adapters (`gym`), thread pools (`threads`) and Dask clusters (`distributed`)."""

from .._lazy import on_first_use as _on_first_use

_MODULES = ("distributed", "env", "gym", "simulate", "threads")
__getattr__, __dir__ = _on_first_use(__name__, _MODULES)  # the sub-modules load on first use
__all__: list[str] = []
