"""The compiled door's twin over the reference: the same rules functions, with the same names,
arguments and answers as `nardy._compiled`'s, computed by `nardy.reference` (`nardy._backend`
picks one of the two). It never imports the compiled core."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from . import reference
from ._wire import Pairs, as_bytes, as_ints, check_dice, raw_move
from .errors import NardyError
from .rules import Rules, Variant
from .status import Status

Rows = npt.NDArray[np.int8]


# ---------------------------------------------------------------- one board

def status(board: bytes, rules: Rules) -> Status:
    """docs/rules.md section 8 problems of a board."""
    return reference.status(as_ints(board), rules)


def pips(board: bytes, variant: Variant) -> tuple[int, int]:
    """(mover's, opponent's) pip counts."""
    return reference.pips(as_ints(board), variant)


def results(board: bytes, dice: Sequence[int], rules: Rules, last_roll: bool = False) -> list[tuple[bytes, Pairs]]:
    """The distinct results of a roll, each with one representative step sequence ((from, to) pairs)."""
    found = reference.legal_results(as_ints(board), dice, rules, last_roll=last_roll)
    return [(as_bytes(child), tuple((s, t) for s, t, _ in seqs[0])) for child, seqs in found.items()]


def ordered(
    board: bytes, dice: Sequence[int], rules: Rules, last_roll: bool = False
) -> tuple[tuple[int, int], list[bytes], list[bytes]]:
    """(the dice as ints, the children, their representatives as the core's 8 bytes), largest child first."""
    found = sorted(results(board, dice, rules, last_roll), key=lambda r: as_ints(r[0]), reverse=True)
    return check_dice(dice), [child for child, _ in found], [raw_move(pairs) for _, pairs in found]


def sequences(board: bytes, dice: Sequence[int], rules: Rules, last_roll: bool = False) -> dict[bytes, list[Pairs]]:
    """Every legal step sequence, grouped by the distinct result it reaches."""
    found = reference.legal_results(as_ints(board), dice, rules, all_sequences=True, last_roll=last_roll)
    return {as_bytes(child): [tuple((s, t) for s, t, _ in seq) for seq in seqs] for child, seqs in found.items()}


def perft(board: bytes, depth: int, rules: Rules) -> int:
    """docs/rules.md section 7 perft of a board."""
    return reference.perft(as_ints(board), depth, rules)


# ---------------------------------------------------------------- checked (n, 26) int8 rows

def generate_rows(boards: Rows, dice: Rows, rules: Rules) -> tuple[Rows, npt.NDArray[np.int64], Rows]:
    """`nardy.batch.generate` of checked rows: (children, offsets, moves)."""
    children: list[tuple[int, ...]] = []
    moves: list[list[int]] = []
    offsets = [0]
    for row, (board, roll) in enumerate(zip(boards.tolist(), dice.tolist())):
        try:
            found = reference.legal_results(board, roll, rules)
        except NardyError as exc:
            raise type(exc)(f"row {row}: {exc}") from None
        for child, steps in found.items():
            children.append(child)
            flat = [n for s, t, _ in steps[0] for n in (s, t)]
            moves.append(flat + [-1] * (8 - len(flat)))
        offsets.append(len(children))
    return (np.array(children, np.int8).reshape(-1, 26), np.array(offsets, np.int64),
            np.array(moves, np.int8).reshape(-1, 8))


def pips_rows(boards: Rows, variant: Variant) -> npt.NDArray[np.int32]:
    """(n, 2) int32: each row's (mover's, opponent's) pip count."""
    return np.array([reference.pips(b, variant) for b in boards.tolist()], np.int32).reshape(-1, 2)


def wins_rows(boards: Rows, rules: Rules) -> Rows:
    """(n,) int8: the points each row's mover has won, 0 while it has checkers left."""
    return np.array([(reference.result(b, rules) or (None, 0))[1] for b in boards.tolist()], np.int8)


def blocks_rows(boards: Rows, rules: Rules) -> npt.NDArray[np.uint8]:
    """(n,) uint8: bit 0 the mover holds an illegal six-block, bit 1 the opponent."""
    return np.array(
        [reference.illegal_block(b, rules, 1) | reference.illegal_block(b, rules, -1) << 1 for b in boards.tolist()],
        np.uint8,
    )


def status_rows(boards: Rows, rules: Rules) -> npt.NDArray[np.uint32]:
    """(n,) uint32: each row's `nardy.Status` flags."""
    return np.array([reference.status(b, rules) for b in boards.tolist()], np.uint32)


def flip_rows(boards: Rows, variant: Variant) -> Rows:
    """(n, 26) int8: each row seen by the other side."""
    return np.array([reference.flip(b, variant) for b in boards.tolist()], np.int8).reshape(-1, 26)


__all__ = [
    "blocks_rows", "flip_rows", "generate_rows", "ordered", "perft", "pips", "pips_rows", "results", "sequences",
    "status", "status_rows", "wins_rows",
]
