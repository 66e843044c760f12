"""nardy: the rules of long nardy and short nardy (backgammon), fast and proven.

The rules run in a compiled core (`BACKEND == "cython"`); a pure-Python reference
implementation of the same rules (`nardy.reference`) is the executable specification the core
is tested against. Set NARDY_PURE_PYTHON=1 to make the reference the default backend.
"""

import importlib as _importlib
from types import ModuleType as _ModuleType

from . import _aliases, batch, reference
from ._backend import BACKEND
from .errors import (
    GameOverError,
    IllegalMoveError,
    InvalidArgumentError,
    InvalidDiceError,
    InvalidNotationError,
    InvalidPositionError,
    InvalidRulesError,
    NardyError,
    OutOfMemoryError,
)
from .game import Game, Match, Result
from .move import Move, Step
from .position import Position
from .rules import CHECKERS, NUM_POINTS, Color, Rules, Variant
from .play.simulate import Simulation, SimulationError, simulate
from .status import Status

__version__ = "0.1.0"

# modules loaded on first use, so that `import nardy` stays light: `nardy.formats.svg.board(...)` works
# without an import of its own, and nothing optional (Dask, Gymnasium) is imported before it is used
_ON_FIRST_USE = ("evaluation", "formats", "play")
_aliases.install()  # the old module names (nardy.eval, nardy.race, ...), deprecated, for one release


def __getattr__(name: str) -> _ModuleType:
    if name in _ON_FIRST_USE:
        return _importlib.import_module(f".{name}", __name__)
    if f"{__name__}.{name}" in _aliases.MOVED or f"{__name__}.{name}" in _aliases.SPLIT:
        return _aliases.moved(f"{__name__}.{name}")
    raise AttributeError(f"module 'nardy' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The module's public names and the modules it loads on first use (for completion)."""
    names = set(globals()) | set(_ON_FIRST_USE)
    return sorted(name for name in names if not name.startswith("_") or name.startswith("__"))


__all__ = [
    "BACKEND",
    "CHECKERS",
    "NUM_POINTS",
    "Color",
    "Game",
    "GameOverError",
    "IllegalMoveError",
    "InvalidArgumentError",
    "InvalidDiceError",
    "InvalidNotationError",
    "InvalidPositionError",
    "InvalidRulesError",
    "Match",
    "Move",
    "NardyError",
    "OutOfMemoryError",
    "Position",
    "Result",
    "Rules",
    "Simulation",
    "SimulationError",
    "Status",
    "Step",
    "Variant",
    "simulate",
]
