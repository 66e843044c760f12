"""Batch functions over numpy arrays of mover's-view boards: no Python object per position.

Boards are (n, 26) integer arrays (docs/rules.md section 1; int8 is used as is, wider integer types
are checked and converted), rolls are (n, 2). Every function takes ``backend="python"`` to run
the reference instead of the compiled core, for comparison; both raise the same errors.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _backend as engine
from .errors import InvalidArgumentError, InvalidDiceError, InvalidPositionError, check_flag, is_choice
from .rules import CHECKERS, Rules, Variant

Boards = npt.NDArray[np.int8]


def _array(values: Any, what: str, error: type[Exception]) -> npt.NDArray[Any]:
    """`np.asarray(values)`, with numpy's own refusals (ragged rows, huge ints) as `error`."""
    try:
        return np.asarray(values)
    except (ValueError, TypeError, OverflowError) as exc:
        raise error(f"{what} must be a rectangular array of integers: {exc}") from None


def as_boards(views: Any) -> Boards:
    """(n, 26) C-contiguous int8, or `InvalidPositionError` naming what is wrong (nothing truncated)."""
    array = _array(views, "boards", InvalidPositionError)
    if array.ndim == 1 and array.shape[0] == 26:
        array = array.reshape(1, 26)
    if array.ndim != 2 or array.shape[1] != 26:
        raise InvalidPositionError(f"boards must have shape (n, 26), got {array.shape}")
    if array.dtype.kind not in "iu":  # (numpy counts timedelta64 among its integers)
        raise InvalidPositionError(f"boards must hold integers, got dtype {array.dtype}")
    if array.size and (array.min() < -CHECKERS or array.max() > CHECKERS):
        # compared in the array's own type: no conversion that could wrap (uint64, int64 extremes)
        row = int(np.nonzero(((array < -CHECKERS) | (array > CHECKERS)).any(axis=1))[0][0])
        raise InvalidPositionError(f"row {row}: an entry is outside -15..15: {array[row].tolist()}")
    return np.ascontiguousarray(array, dtype=np.int8)


def as_rolls(rolls: Any, n: int) -> npt.NDArray[np.int8]:
    """(n, 2) C-contiguous int8 dice in 1..6, or `InvalidDiceError`."""
    array = _array(rolls, "rolls", InvalidDiceError)
    if array.shape != (n, 2):
        raise InvalidDiceError(f"rolls must have shape ({n}, 2), got {array.shape}")
    if array.dtype.kind not in "iu":
        raise InvalidDiceError(f"dice must be integers, got dtype {array.dtype}")
    bad = (array < 1) | (array > 6)
    if bad.any():
        row = int(np.nonzero(bad.any(axis=1))[0][0])
        raise InvalidDiceError(f"row {row}: a die shows 1..6, got {tuple(array[row].tolist())}")
    return np.ascontiguousarray(array, dtype=np.int8)


# rows: below this, `generate` without `out` works in this thread's workspace (its pages already
# touched) and copies the results out once, at their size; from it on, the core writes them
# straight into fresh arrays (numpy asks the OS for huge pages for large ones). The workspace is
# sized for 32 results a row at once, so it keeps up to about 9 MB per thread that made such calls
SMALL = 8192


class Workspace:
    """Reusable outputs for `generate(..., out=workspace)`: one per thread, kept between calls.

    The arrays a call returns are views into buffers the workspace owns, valid until its next
    call (copy what you keep). The buffers grow by doubling and are never shrunk: they hold
    (26 + 8) bytes per result and 8 bytes per row of the largest call so far, at most twice
    over (`nbytes`), so repeated calls allocate nothing and touch no fresh pages.
    """

    __slots__ = ("_core",)

    def __init__(self) -> None:
        if engine.PURE_PYTHON:
            raise InvalidArgumentError("a Workspace needs the compiled core (NARDY_PURE_PYTHON=1 disables it)")
        self._core = engine.compiled.new_workspace()

    def __reduce__(self) -> tuple[type[Workspace], tuple[()]]:
        """A copy or an unpickled workspace is a new, empty one: buffers are never shared."""
        return (Workspace, ())

    @property
    def nbytes(self) -> int:
        """Bytes the workspace holds."""
        return int(self._core.nbytes)


class Generator:
    """Move generation for one board at a time, as fast as the compiled core goes.

    >>> from nardy import Position
    >>> gen = Generator("short")
    >>> n, children, moves = gen.moves(Position.start("short").to_bytes(), 3, 1)
    >>> n, len(children), len(moves)
    (16, 416, 128)

    ``gen.moves(board, d1, d2, last_roll=False)`` returns ``(n, children, moves)`` for one
    mover's-view `board`, given as 26 int8 `bytes` (`Position.to_bytes`, a batch row's
    ``tobytes()``; any other form `as_boards` reads is converted first), and a roll of two ints:
    the n distinct results, `children` n x 26 int8 bytes and `moves` n x 8 int8 bytes, laid out
    and ordered as one row of `generate`'s output. `last_roll` is `Position.legal_moves`'. Every
    input is checked: raises `InvalidPositionError`, `InvalidDiceError` or `GameOverError`.

    Threads: a Generator keeps its buffers between calls, so give each thread its own. One shared
    by threads is safe, but its calls then run one at a time (each holds its lock). Without the
    compiled core (NARDY_PURE_PYTHON=1) the reference answers, in the same layout.
    """

    __slots__ = ("_rules", "moves", "_core")
    _rules: Rules
    moves: Callable[..., tuple[int, bytes, bytes]]
    _core: Any  # the compiled generator, or None under the reference

    def __init__(self, rules: Rules | Variant | str) -> None:
        self._rules = rules if type(rules) is Rules else Rules.of(rules)
        if engine.PURE_PYTHON:
            self._core = None
            self.moves = functools.partial(_reference_moves, self._rules)
        else:
            self._core = engine.compiled.new_generator()
            self._core.bind(engine.core_rules(self._rules), _refuse)
            self.moves = self._core.play  # the core's own method: nothing in between

    @property
    def rules(self) -> Rules:
        """The rules the generator was made for (read-only: its core is bound to them)."""
        return self._rules

    def __reduce__(self) -> tuple[type[Generator], tuple[Rules]]:
        """A copy or an unpickled generator is a new one with the same rules (buffers are never shared)."""
        return (Generator, (self.rules,))

    def __repr__(self) -> str:
        return f"Generator({self.rules!r})"


def _one_board(board: Any) -> bytes:
    """`board` as 26 int8 bytes, or `InvalidPositionError`."""
    if isinstance(board, (bytes, bytearray, memoryview)):
        data = bytes(board)
        if len(data) != 26:
            raise InvalidPositionError(f"a board is 26 int8 bytes, got {len(data)}")
        return data
    boards = as_boards(board)
    if len(boards) != 1:
        raise InvalidPositionError(f"one board of 26 entries, got {len(boards)} rows")
    return boards.tobytes()


def _refuse(code: int | None, board: Any, d1: Any, d2: Any, last_roll: Any) -> tuple[bytes, int, int, bool]:
    """`Generator.moves`' checks: arguments it cannot take as they are (code None) checked and
    converted; a refusal of the core's (a nonzero code) raised as nardy's error."""
    if code is None:
        return (_one_board(board), *engine.check_dice((d1, d2)), check_flag(last_roll, "last_roll"))
    values = engine.as_ints(board)
    engine.raise_for_code(code, values, (d1, d2))
    raise InvalidPositionError(f"invalid board {list(values)}")  # pragma: no cover - every code raises above


def _reference_moves(rules: Rules, board: Any, d1: Any, d2: Any, last_roll: bool = False) -> tuple[int, bytes, bytes]:
    """`Generator.moves` by the reference."""
    board = _one_board(board)
    if np.frombuffer(board, np.int8).min() < -CHECKERS or np.frombuffer(board, np.int8).max() > CHECKERS:
        raise InvalidPositionError(f"an entry is outside -15..15: {list(engine.as_ints(board))}")
    found = engine.results(board, (d1, d2), rules, "python", check_flag(last_roll, "last_roll"))
    return len(found), b"".join(child for child, _ in found), b"".join(engine.raw_move(pairs) for _, pairs in found)


def generate(
    views: Any, rolls: Any, rules: Rules | Variant | str, *, backend: str | None = None,
    out: Workspace | None = None
) -> tuple[Boards, npt.NDArray[np.int64], npt.NDArray[np.int8]]:
    """The distinct results of every (board, roll) row.

    Returns
    -------
    children : ndarray of shape (m, 26), int8
        Results in the mover's view, before the turn passes; row i's are
        ``children[offsets[i]:offsets[i + 1]]``, in generation order. A roll that cannot be
        played has one result, the board itself.
    offsets : ndarray of shape (n + 1,), int64
    moves : ndarray of shape (m, 8), int8
        One step sequence per result: (from, to) pairs, -1 padded; 25 = bar, 0 = off.

    With ``out=`` a `Workspace`, the arrays are views into its buffers, overwritten by its next
    call: the fastest way to generate again and again. Without it they are the caller's own.

    Raises
    ------
    InvalidPositionError, InvalidDiceError, GameOverError
        Naming the first bad row.
    InvalidArgumentError
        For an `out` that is not a `Workspace`.
    """
    rules = rules if type(rules) is Rules else Rules.of(rules)
    # the lean paths: C-contiguous int8 (n, 26) and (n, 2) arrays go straight to the core, which
    # checks every row; any problem is then reported by the full checks below, as before
    lean = backend is None or is_choice(backend, ("cython",))
    if out is not None:
        if lean and type(out) is Workspace:  # a Workspace exists only with the core
            try:
                code, _, children, offsets, moves = out._core.generate(views, rolls, engine.core_rules(rules))
            except engine.compiled.TooManyRows as exc:
                raise engine.compiled.out_of_memory(exc) from None
            if code == 0:
                return children, offsets, moves
        if not isinstance(out, Workspace):
            raise InvalidArgumentError(f"out must be a nardy.batch.Workspace or None, got {type(out).__name__}")
    elif lean and not engine.PURE_PYTHON and type(views) is np.ndarray and views.ndim == 2 and len(views) < SMALL:
        try:
            code, _, children, offsets, moves = engine.workspace().generate(views, rolls, engine.core_rules(rules), True)
        except engine.compiled.TooManyRows as exc:
            raise engine.compiled.out_of_memory(exc) from None
        if code == 0:
            return children, offsets, moves
    boards = as_boards(views)
    dice = as_rolls(rolls, len(boards))
    if engine.backend_of(backend) == "python":
        if out is not None:
            raise InvalidArgumentError("out= needs the compiled core, not backend='python'")
        return engine.pure.generate_rows(boards, dice, rules)
    try:
        if out is not None:
            code, bad, children, offsets, moves = out._core.generate(boards, dice, engine.core_rules(rules))
        elif len(boards) < SMALL:
            code, bad, children, offsets, moves = engine.workspace().generate(boards, dice, engine.core_rules(rules),
                                                                              True)
        else:
            code, bad, children, offsets, moves = engine.compiled.generate(boards, dice, engine.core_rules(rules))
    except engine.compiled.TooManyRows as exc:
        raise engine.compiled.out_of_memory(exc) from None
    if code == engine.compiled.BUSY:
        raise InvalidArgumentError("the Workspace is in use by another thread's call: give each thread its own")
    if code:
        engine.raise_for_code(code, boards[bad].tolist(), dice[bad].tolist(), row=bad)
    return children, offsets, moves


def pips(views: Any, variant: Variant | str, *, backend: str | None = None) -> npt.NDArray[np.int32]:
    """(n, 2) int32: each row's (mover's, opponent's) pip count.

    Rows are not checked (for speed; `status` checks them): an invalid board's figure is
    unspecified, and the backends may differ on it.
    """
    boards = as_boards(views)
    variant = Variant.parse(variant)
    out: npt.NDArray[np.int32] = engine.door(backend).pips_rows(boards, variant)
    return out


def wins(views: Any, rules: Rules | Variant | str, *, backend: str | None = None) -> npt.NDArray[np.int8]:
    """(n,) int8: the points each row's mover has won, 1, 2 or 3 before the cube (`reference.result`),
    or 0 while it has checkers left.

    Rows are not checked (for speed; `status` checks them): an invalid board's figure is
    unspecified, and the backends may differ on it.
    """
    boards = as_boards(views)
    rules = Rules.of(rules)
    out: npt.NDArray[np.int8] = engine.door(backend).wins_rows(boards, rules)
    return out


def illegal_blocks(views: Any, rules: Rules | Variant | str, *, backend: str | None = None) -> npt.NDArray[np.uint8]:
    """(n,) uint8: bit 0 set when the mover holds an illegal six-block, bit 1 when the opponent does.

    Rows are not checked (for speed; `status` checks them): an invalid board's figure is
    unspecified, and the backends may differ on it.
    """
    boards = as_boards(views)
    rules = Rules.of(rules)
    out: npt.NDArray[np.uint8] = engine.door(backend).blocks_rows(boards, rules)
    return out


def status(views: Any, rules: Rules | Variant | str, *, backend: str | None = None) -> npt.NDArray[np.uint32]:
    """(n,) uint32: each row's `nardy.Status` flags (0 = valid)."""
    boards = as_boards(views)
    rules = Rules.of(rules)
    out: npt.NDArray[np.uint32] = engine.door(backend).status_rows(boards, rules)
    return out


def flip(views: Any, variant: Variant | str, *, backend: str | None = None) -> Boards:
    """(n, 26) int8: each row seen by the other side (the turn passed)."""
    boards = as_boards(views)
    variant = Variant.parse(variant)
    out: Boards = engine.door(backend).flip_rows(boards, variant)
    return out


__all__ = ["Boards", "Workspace", "flip", "generate", "illegal_blocks", "pips", "status", "wins"]
