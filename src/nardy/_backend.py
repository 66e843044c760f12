"""The thin layer over the two implementations of the rules: the compiled core and the reference.

Every function takes a mover's-view board as 26 int8 `bytes` and a `Rules`, checks its input,
calls the chosen backend and turns the core's return codes into nardy's exceptions. The
backend is "cython" (the default) or "python" (the reference); NARDY_PURE_PYTHON=1 makes the
reference the default. Importing nardy never falls back to the reference silently: if the
compiled core is missing, the import fails unless NARDY_PURE_PYTHON=1 asks for the reference.
"""

from __future__ import annotations

import os
import struct
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from . import reference
from .errors import GameOverError, InvalidArgumentError, InvalidDiceError, InvalidPositionError, check_choice, check_whole
from .rules import Rules, Variant
from .status import Status, describe

Board = tuple[int, ...]
Pairs = tuple[tuple[int, int], ...]

PURE_PYTHON = os.environ.get("NARDY_PURE_PYTHON", "0") not in ("", "0")
if TYPE_CHECKING:  # typed as the compiled core: its callers have made sure it is there (backend_of)
    from . import _core as _core
else:
    _core = None  # the compiled core's def layer (None when the reference is the default)
if PURE_PYTHON:
    BACKEND = "python"
else:
    try:
        from . import _core as _compiled
    except ImportError as exc:  # pragma: no cover - a broken build must be loud
        raise ImportError(
            "nardy's compiled core is not built (reinstall with `pip install .`), "
            "or set NARDY_PURE_PYTHON=1 to use the pure-Python reference on purpose"
        ) from exc
    _core = _compiled
    BACKEND = "cython"

BACKENDS = ("cython", "python")
_HEAD = {"strict": 0, "permission": 1, "none": 2}
_BLOCK = {"ahead": 0, "home": 1, "none": 2}
_TIMING = {"step": 0, "end": 1}
_local = threading.local()
_CODES: dict[Rules, tuple[int, int, int, int, int]] = {}
_PACKING = struct.Struct("26b")
_last_codes: tuple[Rules | None, tuple[int, int, int, int, int]] = (None, (0, 0, 0, 0, 0))  # the last rules asked for and their codes


def backend_of(backend: str | None) -> str:
    """The backend to use: the given one, or the default."""
    if backend is None:
        return BACKEND
    check_choice(backend, "backend", BACKENDS)
    if backend == "cython" and _core is None:
        raise InvalidArgumentError("the compiled core is disabled by NARDY_PURE_PYTHON=1")
    return backend


def core_rules(rules: Rules) -> tuple[int, int, int, int, int]:
    """The rules as the core's small ints: variant, head exception, block rule, timing, last-roll draw."""
    last = _last_codes
    if last[0] is rules:  # the common case, without hashing the rules
        return last[1]
    codes = _CODES.get(rules)
    if codes is None:
        if rules.variant is Variant.SHORT:
            codes = (1, 2, 2, 0, 0)
        else:
            codes = (0, _HEAD[rules.head_exception], _BLOCK[rules.block_rule], _TIMING[rules.block_timing],
                     int(rules.last_roll_draw))
        _CODES[rules] = codes
    _remember(rules, codes)
    return codes


def _remember(rules: Rules, codes: tuple[int, int, int, int, int]) -> None:
    global _last_codes
    _last_codes = (rules, codes)


def generator() -> Any:
    """This thread's reusable core move generator."""
    g = getattr(_local, "generator", None)
    if g is None:
        g = _local.generator = _core.Generator()
    return g


def workspace() -> Any:
    """This thread's reusable batch workspace (`nardy.batch.generate`'s small calls)."""
    w = getattr(_local, "workspace", None)
    if w is None:
        w = _local.workspace = _core.Workspace()
    return w


def check_dice(dice: Sequence[int]) -> tuple[int, int]:
    return reference.movegen.check_dice(dice)


def raise_for_code(code: int, board: Sequence[int], dice: Sequence[int] | None = None, row: int | None = None) -> None:
    """Turn a core return code into the exception the reference raises for the same input."""
    where = "" if row is None else f"row {row}: "
    if code == _core.BAD_DICE:
        raise InvalidDiceError(f"{where}a die shows 1..6, got {tuple(int(d) for d in dice or ())!r}")
    if code == _core.GAME_OVER:
        raise GameOverError(f"{where}the game is over: a side has borne off all 15 checkers in {tuple(board)!r}")
    if code > 0:
        raise InvalidPositionError(f"{where}invalid position {tuple(board)!r}: {'; '.join(describe(Status(code)))}")


def status(board: bytes, rules: Rules, backend: str | None = None) -> Status:
    """docs/rules.md section 8 problems of a board."""
    if backend_of(backend) == "python":
        return reference.status(as_ints(board), rules)
    import numpy as np

    return Status(int(_core.status(np.frombuffer(board, np.int8).reshape(1, 26), core_rules(rules))[0]))


def raw_results(board: bytes, dice: Sequence[int], rules: Rules, last_roll: bool = False) -> tuple[int, bytes, bytes]:
    """The core's answer for one roll with no Python object per result: (n, children, moves).

    `children` is n x 26 int8 bytes (mover's view, before the turn passes), `moves` n x 8 int8
    bytes of (from, to) pairs padded with -1. The fastest single call; raises like `results`.
    `last_roll`: the opponent may already have borne off all 15 (long nardy, last_roll_draw).
    """
    try:
        d1, d2 = dice
        if type(d1) is not int or type(d2) is not int:
            d1, d2 = check_dice(dice)
        code, n, children, moves = generator().moves(board, d1, d2, core_rules(rules), last_roll)
    except (TypeError, ValueError, OverflowError):
        check_dice(dice)  # names what is wrong with the dice
        raise
    if code:
        raise_for_code(code, as_ints(board), dice)
    return n, children, moves


def results(
    board: bytes, dice: Sequence[int], rules: Rules, backend: str | None = None, last_roll: bool = False
) -> list[tuple[bytes, Pairs]]:
    """The distinct results of a roll, each with one representative step sequence ((from, to) pairs)."""
    if backend_of(backend) == "python":
        found = reference.legal_results(as_ints(board), dice, rules, last_roll=last_roll)
        return [(as_bytes(child), tuple((s, t) for s, t, _ in seqs[0])) for child, seqs in found.items()]
    n, children, moves = raw_results(board, dice, rules, last_roll)
    return [(children[26 * i: 26 * i + 26], _pairs(moves[8 * i: 8 * i + 8])) for i in range(n)]


def ordered(
    board: bytes, dice: Sequence[int], rules: Rules, backend: str | None = None, last_roll: bool = False
) -> tuple[tuple[int, int], list[bytes], list[bytes]]:
    """`Position.legal_moves`' results from one call: (the dice as ints, the children as 26 int8
    bytes each, their representatives as 8 bytes of (from, to) pairs, -1 padded), sorted by the
    child's array, largest first. Raises like `results`."""
    if backend_of(backend) == "python":
        found = sorted(results(board, dice, rules, "python", last_roll), key=lambda r: as_ints(r[0]), reverse=True)
        return check_dice(dice), [child for child, _ in found], [_raw(pairs) for _, pairs in found]
    try:
        d1, d2 = dice
        if type(d1) is not int or type(d2) is not int:
            d1, d2 = check_dice(dice)
        code, children, moves = generator().ordered(board, d1, d2, core_rules(rules), last_roll)
    except (TypeError, ValueError, OverflowError):
        check_dice(dice)  # names what is wrong with the dice
        raise
    if code:
        raise_for_code(code, as_ints(board), dice)
    return (d1, d2), children, moves


def sequences(
    board: bytes, dice: Sequence[int], rules: Rules, backend: str | None = None, last_roll: bool = False
) -> dict[bytes, list[Pairs]]:
    """Every legal step sequence, grouped by the distinct result it reaches."""
    if backend_of(backend) == "python":
        found = reference.legal_results(as_ints(board), dice, rules, all_sequences=True, last_roll=last_roll)
        return {as_bytes(child): [tuple((s, t) for s, t, _ in seq) for seq in seqs] for child, seqs in found.items()}
    d1, d2 = check_dice(dice)
    code, children, _, seqs, index = generator().sequences(board, d1, d2, core_rules(rules), last_roll)
    if code:
        raise_for_code(code, as_ints(board), dice)
    keys = [child.tobytes() for child in children]
    grouped: dict[bytes, list[Pairs]] = {key: [] for key in keys}
    for seq, i in zip(seqs, index.tolist()):
        grouped[keys[i]].append(_pairs(seq.tobytes()))
    return grouped


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
    if backend_of(backend) == "python":
        return reference.perft(as_ints(board), depth, rules)
    code, count = _core.perft(board, depth, core_rules(rules))
    if code:
        raise_for_code(code, as_ints(board))
    return int(count)


def pips(board: bytes, variant: Variant, backend: str | None = None) -> tuple[int, int]:
    """(mover's, opponent's) pip counts."""
    if backend_of(backend) == "python":
        return reference.pips(as_ints(board), variant)
    import numpy as np

    mine, theirs = _core.pips(np.frombuffer(board, np.int8).reshape(1, 26), 0 if variant is Variant.LONG else 1)[0]
    return int(mine), int(theirs)


def as_ints(board: bytes | Sequence[int]) -> Board:
    """A board as a tuple of 26 ints."""
    if isinstance(board, bytes):
        return _PACKING.unpack(board)
    return tuple(int(n) for n in board)


def as_bytes(board: Sequence[int]) -> bytes:
    """A board (26 ints in -128..127) as 26 int8 bytes."""
    return _PACKING.pack(*board)


def _raw(pairs: Pairs) -> bytes:
    """(from, to) pairs as the core's 8 bytes, -1 padded."""
    return bytes([n for pair in pairs for n in pair] + [0xFF] * (8 - 2 * len(pairs)))


def _pairs(move: bytes) -> Pairs:
    return tuple((move[i], move[i + 1]) for i in range(0, 8, 2) if move[i] != 0xFF)


__all__ = [
    "BACKEND", "BACKENDS", "MAX_PERFT_DEPTH", "generator", "perft", "pips", "raw_results", "results",
    "sequences", "status", "workspace",
]
