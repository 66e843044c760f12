"""The one door to the two implementations of the rules: the compiled core and the reference.

`door(backend)` picks the module that answers: `nardy._compiled` (the compiled door, the one
Python module that imports the core's compiled modules) or its twin `nardy._pure` (the same
functions over `nardy.reference`). The functions below take a mover's-view board as 26 int8
`bytes` and a `Rules`, check their input and ask the chosen one. The backend is "cython" (the
default) or "python" (the reference); NARDY_PURE_PYTHON=1 makes the reference the default.
Importing nardy never falls back to the reference silently: if the compiled core is missing,
the import fails unless NARDY_PURE_PYTHON=1 asks for the reference. `compiled` is the compiled
door for what only the core does (the environment, self-play, the evaluator, the bear-off table);
with NARDY_PURE_PYTHON=1 it loads on first use, so that `import nardy` loads no compiled module.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from . import _pure as pure, reference
# what crosses the door, and the errors, also under this module's name (the API and the
# previous release's `nardy.engine` use them from here)
from ._wire import Board, Pairs, as_bytes, as_ints, check_dice, core_rules, pairs_of, raw_move
from .errors import GameOverError, InvalidArgumentError, InvalidDiceError, InvalidPositionError, check_choice, check_whole
from .rules import Rules, Variant
from .status import Status

PURE_PYTHON = os.environ.get("NARDY_PURE_PYTHON", "0") not in ("", "0")


class _OnFirstUse:
    """The compiled door, loaded when first used (NARDY_PURE_PYTHON=1: the reference is the default)."""

    def __getattr__(self, name: str) -> Any:
        from . import _compiled  # the evaluator, the environment, ... still run where the core is built

        return getattr(_compiled, name)


# mypy reads the compiled door's types: the callers of `compiled` have made sure the core is there
if PURE_PYTHON and not TYPE_CHECKING:
    BACKEND = "python"
    compiled = _OnFirstUse()
else:
    try:
        from . import _compiled as compiled
    except ImportError as exc:  # pragma: no cover - a broken build must be loud
        raise ImportError(
            "nardy's compiled core is not built (reinstall with `pip install .`), "
            "or set NARDY_PURE_PYTHON=1 to use the pure-Python reference on purpose"
        ) from exc
    BACKEND = "cython"

BACKENDS = ("cython", "python")


def backend_of(backend: str | None) -> str:
    """The backend to use: the given one, or the default."""
    if backend is None:
        return BACKEND
    check_choice(backend, "backend", BACKENDS)
    if backend == "cython" and PURE_PYTHON:
        raise InvalidArgumentError("the compiled core is disabled by NARDY_PURE_PYTHON=1")
    return backend


_DEFAULT = pure if PURE_PYTHON else compiled


def door(backend: str | None) -> ModuleType | Any:
    """The module that answers for `backend` (None: the default): `nardy._compiled` or `nardy._pure`."""
    if backend is None:
        return _DEFAULT
    return pure if backend_of(backend) == "python" else compiled


def generator() -> Any:
    """This thread's reusable core move generator."""
    return compiled.generator()


def workspace() -> Any:
    """This thread's reusable batch workspace (`nardy.batch.generate`'s small calls)."""
    return compiled.workspace()


def raise_for_code(code: int, board: Sequence[int], dice: Sequence[int] | None = None, row: int | None = None) -> None:
    """Turn a core return code into the exception the reference raises for the same input."""
    compiled.raise_for_code(code, board, dice, row)


def status(board: bytes, rules: Rules, backend: str | None = None) -> Status:
    """docs/rules.md section 8 problems of a board."""
    found: Status = door(backend).status(board, rules)
    return found


def raw_results(board: bytes, dice: Sequence[int], rules: Rules, last_roll: bool = False) -> tuple[int, bytes, bytes]:
    """The core's answer for one roll with no Python object per result: (n, children, moves).

    `children` is n x 26 int8 bytes (mover's view, before the turn passes), `moves` n x 8 int8
    bytes of (from, to) pairs padded with -1. The fastest single call; raises like `results`.
    `last_roll`: the opponent may already have borne off all 15 (long nardy, last_roll_draw).
    """
    return compiled.raw_results(board, dice, rules, last_roll)


if not PURE_PYTHON:
    raw_results = compiled.raw_results  # noqa: F811 - the same function, without a call in between


def results(
    board: bytes, dice: Sequence[int], rules: Rules, backend: str | None = None, last_roll: bool = False
) -> list[tuple[bytes, Pairs]]:
    """The distinct results of a roll, each with one representative step sequence ((from, to) pairs)."""
    found: list[tuple[bytes, Pairs]] = door(backend).results(board, dice, rules, last_roll)
    return found


def ordered(
    board: bytes, dice: Sequence[int], rules: Rules, backend: str | None = None, last_roll: bool = False
) -> tuple[tuple[int, int], list[bytes], list[bytes]]:
    """`Position.legal_moves`' results from one call: (the dice as ints, the children as 26 int8
    bytes each, their representatives as 8 bytes of (from, to) pairs, -1 padded), sorted by the
    child's array, largest first. Raises like `results`."""
    found: tuple[tuple[int, int], list[bytes], list[bytes]] = door(backend).ordered(board, dice, rules, last_roll)
    return found


def sequences(
    board: bytes, dice: Sequence[int], rules: Rules, backend: str | None = None, last_roll: bool = False
) -> dict[bytes, list[Pairs]]:
    """Every legal step sequence, grouped by the distinct result it reaches."""
    found: dict[bytes, list[Pairs]] = door(backend).sequences(board, dice, rules, last_roll)
    return found


def machine_memory() -> int | None:
    """This machine's physical memory in bytes (None where the OS does not say)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):  # pragma: no cover - not POSIX
        return None


def check_memory(need: int, what: str, then: str, error: type[Exception] = InvalidArgumentError) -> None:
    """Refuse, before anything is allocated, work whose `need` bytes (`what`: of what) exceed this
    machine's memory; `then` says what to do instead."""
    memory = machine_memory()
    if memory is not None and need > memory:
        raise error(f"{what}, more than this machine's {memory:,}; {then}")


MAX_PERFT_DEPTH = 16  # short nardy's perft(5) takes hours on one core, perft(6) months


def perft(board: bytes, depth: int, rules: Rules, backend: str | None = None) -> int:
    """docs/rules.md section 7 perft (depth 0..MAX_PERFT_DEPTH)."""
    check_whole(depth, "perft depth", 0, MAX_PERFT_DEPTH)
    count: int = door(backend).perft(board, depth, rules)
    return count


def pips(board: bytes, variant: Variant, backend: str | None = None) -> tuple[int, int]:
    """(mover's, opponent's) pip counts."""
    counts: tuple[int, int] = door(backend).pips(board, variant)
    return counts


_raw, _pairs = raw_move, pairs_of  # the names of the previous release

__all__ = [
    "BACKEND", "BACKENDS", "MAX_PERFT_DEPTH", "PURE_PYTHON", "backend_of", "check_memory", "compiled", "door",
    "generator", "machine_memory", "ordered", "perft", "pips", "pure", "raise_for_code", "raw_results", "results",
    "sequences", "status", "workspace",
    # what crosses the door (nardy._wire), also under this module's name
    "Board", "Pairs", "as_bytes", "as_ints", "check_dice", "core_rules", "pairs_of", "raw_move",
]
