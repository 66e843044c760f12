"""The compiled door: the one Python module that imports the compiled core's modules.

Its rules functions have the names and signatures of their twins in `nardy._pure` (over the
reference), and `nardy._backend` picks one of the two (`door`). They check what the core does not,
call it, and turn its return codes into nardy's exceptions (`_core` words no error). The rest
is the compiled surface the API uses: the batch generator and workspace, the environment's
games and encoding, self-play, the evaluator's forward pass, the bear-off table.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _core
from ._bearoff import board_of, expected_turns
from ._bearoff import build as build_bearoff
from ._bearoff import indices as bearoff_indices
from ._core import BAD_DICE, BAD_ENTRY, BAD_SHAPE, BUSY, GAME_OVER, UNBOUND, Generator, TooManyRows, Workspace, generate
from ._env import Games, encode
from ._net import INPUT_ROWS, MAX_HIDDEN, features, forward, homes
from ._simulate import POLICIES, play_games
from ._wire import Pairs, as_ints, check_dice, core_rules, pairs_of, variant_code
from .errors import GameOverError, InvalidDiceError, InvalidPositionError, OutOfMemoryError
from .rules import Rules, Variant
from .status import Status, describe

_local = threading.local()
Rows = npt.NDArray[np.int8]


def new_generator() -> Any:
    """A core move generator (`OutOfMemoryError` if its buffers cannot be had)."""
    try:
        return Generator()
    except MemoryError:
        raise OutOfMemoryError("no memory for a move generator's buffers") from None


def new_workspace() -> Any:
    """A core batch workspace (`OutOfMemoryError` if its buffers cannot be had)."""
    try:
        return Workspace()
    except MemoryError:
        raise OutOfMemoryError("no memory for a batch workspace's buffers") from None


def generator() -> Any:
    """This thread's reusable core move generator."""
    g = getattr(_local, "generator", None)
    if g is None:
        g = _local.generator = new_generator()
    return g


def workspace() -> Any:
    """This thread's reusable batch workspace (`nardy.batch.generate`'s small calls)."""
    w = getattr(_local, "workspace", None)
    if w is None:
        w = _local.workspace = new_workspace()
    return w


def out_of_memory(exc: TooManyRows) -> OutOfMemoryError:
    """nardy's error for a generate whose output did not fit in memory (the core's `TooManyRows`)."""
    rows, needed, results = exc.args
    after = f" (after {results:,} results)" if results >= 0 else " (at least one result per row)"
    return OutOfMemoryError(f"generate over {rows:,} rows needs {needed:,} bytes{after}, more memory than "
                            "could be had: generate fewer rows at a time")


def _no_room() -> OutOfMemoryError:
    """nardy's error for a move generator that could not grow its buffers."""
    return OutOfMemoryError("the move generator could not get the memory for one position's results")


def raise_for_code(
    code: int, board: bytes | Sequence[int], dice: Sequence[int] | None = None, row: int | None = None
) -> None:
    """Turn a core return code into the exception the reference raises for the same input."""
    where = "" if row is None else f"row {row}: "
    if code == BAD_SHAPE:
        raise InvalidPositionError(f"a board is 26 int8 bytes, got {len(board)}" if row is None
                                   else "views must be (n, 26) and rolls (n, 2)")
    if code == UNBOUND:
        raise InvalidPositionError("this Generator has no rules bound")
    if isinstance(board, bytes):
        board = as_ints(board)
    if code == BAD_DICE:
        raise InvalidDiceError(f"{where}a die shows 1..6, got {tuple(int(d) for d in dice or ())!r}")
    if code == GAME_OVER:
        raise GameOverError(f"{where}the game is over: a side has borne off all 15 checkers in {tuple(board)!r}")
    if code == BAD_ENTRY:
        raise InvalidPositionError(f"{where}an entry is outside -15..15: {list(board)}")
    if code > 0:
        raise InvalidPositionError(f"{where}invalid position {tuple(board)!r}: {'; '.join(describe(Status(code)))}")


# ---------------------------------------------------------------- one board (twins in _pure)

def status(board: bytes, rules: Rules) -> Status:
    """docs/rules.md section 8 problems of a board."""
    return Status(int(_core.status(np.frombuffer(board, np.int8).reshape(1, 26), core_rules(rules))[0]))


def pips(board: bytes, variant: Variant) -> tuple[int, int]:
    """(mover's, opponent's) pip counts."""
    mine, theirs = _core.pips(np.frombuffer(board, np.int8).reshape(1, 26), variant_code(variant))[0]
    return int(mine), int(theirs)


def raw_results(board: bytes, dice: Sequence[int], rules: Rules, last_roll: bool = False) -> tuple[int, bytes, bytes]:
    """The core's answer for one roll with no Python object per result: (n, children, moves)."""
    try:
        d1, d2 = dice
        if type(d1) is not int or type(d2) is not int or (type(dice) is not tuple and type(dice) is not list):
            d1, d2 = check_dice(dice)
        code, n, children, moves = generator().moves(board, d1, d2, core_rules(rules), last_roll)
    except MemoryError:
        raise _no_room() from None
    except (TypeError, ValueError, OverflowError):
        check_dice(dice)  # names what is wrong with the dice
        raise
    if code:
        raise_for_code(code, board, dice)
    return n, children, moves


def results(board: bytes, dice: Sequence[int], rules: Rules, last_roll: bool = False) -> list[tuple[bytes, Pairs]]:
    """The distinct results of a roll, each with one representative step sequence ((from, to) pairs)."""
    n, children, moves = raw_results(board, dice, rules, last_roll)
    return [(children[26 * i: 26 * i + 26], pairs_of(moves[8 * i: 8 * i + 8])) for i in range(n)]


def ordered(
    board: bytes, dice: Sequence[int], rules: Rules, last_roll: bool = False
) -> tuple[tuple[int, int], list[bytes], list[bytes]]:
    """(the dice as ints, the children, their representatives as the core's 8 bytes), largest child first."""
    try:
        d1, d2 = dice
        if type(d1) is not int or type(d2) is not int or (type(dice) is not tuple and type(dice) is not list):
            d1, d2 = check_dice(dice)
        code, children, moves = generator().ordered(board, d1, d2, core_rules(rules), last_roll)
    except MemoryError:
        raise _no_room() from None
    except (TypeError, ValueError, OverflowError):
        check_dice(dice)  # names what is wrong with the dice
        raise
    if code:
        raise_for_code(code, board, dice)
    return (d1, d2), children, moves


def sequences(board: bytes, dice: Sequence[int], rules: Rules, last_roll: bool = False) -> dict[bytes, list[Pairs]]:
    """Every legal step sequence, grouped by the distinct result it reaches."""
    d1, d2 = check_dice(dice)
    try:
        code, children, _, seqs, index = generator().sequences(board, d1, d2, core_rules(rules), last_roll)
    except MemoryError:
        raise _no_room() from None
    if code:
        raise_for_code(code, board, dice)
    keys = [child.tobytes() for child in children]
    grouped: dict[bytes, list[Pairs]] = {key: [] for key in keys}
    for seq, i in zip(seqs, index.tolist()):
        grouped[keys[i]].append(pairs_of(seq.tobytes()))
    return grouped


def perft(board: bytes, depth: int, rules: Rules) -> int:
    """docs/rules.md section 7 perft of a board (depth checked by the caller)."""
    code, count = _core.perft(board, depth, core_rules(rules))
    if code:
        raise_for_code(code, board)
    return int(count)


# ---------------------------------------------------------------- checked (n, 26) int8 rows (twins in _pure)

def pips_rows(boards: Rows, variant: Variant) -> npt.NDArray[np.int32]:
    """(n, 2) int32: each row's (mover's, opponent's) pip count."""
    return _core.pips(boards, variant_code(variant))


def wins_rows(boards: Rows, rules: Rules) -> Rows:
    """(n,) int8: the points each row's mover has won, 0 while it has checkers left."""
    long = rules.variant is Variant.LONG
    return _core.wins(boards, 0 if long else 1, long and rules.koks)


def blocks_rows(boards: Rows, rules: Rules) -> npt.NDArray[np.uint8]:
    """(n,) uint8: bit 0 the mover holds an illegal six-block, bit 1 the opponent."""
    return _core.blocks(boards, core_rules(rules))


def status_rows(boards: Rows, rules: Rules) -> npt.NDArray[np.uint32]:
    """(n,) uint32: each row's `nardy.Status` flags."""
    return _core.status(boards, core_rules(rules))


def flip_rows(boards: Rows, variant: Variant) -> Rows:
    """(n, 26) int8: each row seen by the other side."""
    return _core.flip(boards, variant_code(variant))


__all__ = [
    "BAD_ENTRY", "BUSY", "Games", "Generator", "INPUT_ROWS", "MAX_HIDDEN", "POLICIES", "TooManyRows", "Workspace",
    "bearoff_indices", "blocks_rows",
    "board_of", "build_bearoff", "encode", "expected_turns", "features", "flip_rows", "forward", "generate",
    "generator", "homes", "new_generator", "new_workspace", "ordered", "out_of_memory", "perft", "pips", "pips_rows", "play_games", "raise_for_code",
    "raw_results", "results", "sequences", "status", "status_rows", "wins_rows", "workspace",
]
