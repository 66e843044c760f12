"""What crosses the door to the backends: boards as 26 int8 bytes, moves as (from, to) pairs or
the core's 8 bytes, the rules as the core's small ints. Shared by `_backend` and its two twins,
`_compiled` and `_pure`; it imports neither backend."""

from __future__ import annotations

import struct
from collections.abc import Sequence

from . import reference
from .rules import Rules, Variant

Board = tuple[int, ...]
Pairs = tuple[tuple[int, int], ...]

_HEAD = {"strict": 0, "permission": 1, "none": 2}
_BLOCK = {"ahead": 0, "home": 1, "none": 2}
_TIMING = {"step": 0, "end": 1}
_CODES: dict[Rules, tuple[int, int, int, int, int]] = {}
_PACKING = struct.Struct("26b")
_last_codes: tuple[object, tuple[int, int, int, int, int]] = (None, (0, 0, 0, 0, 0))  # the last rules asked for


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


def variant_code(variant: Variant) -> int:
    """The core's code of a variant: 0 long, 1 short."""
    return 0 if variant is Variant.LONG else 1


def check_dice(dice: Sequence[int]) -> tuple[int, int]:
    """Two dice as ints 1..6, or `InvalidDiceError` naming what is wrong."""
    return reference.movegen.check_dice(dice)


def as_ints(board: bytes | Sequence[int]) -> Board:
    """A board as a tuple of 26 ints."""
    if isinstance(board, bytes):
        return _PACKING.unpack(board)
    return tuple(int(n) for n in board)


def as_bytes(board: Sequence[int]) -> bytes:
    """A board (26 ints in -128..127) as 26 int8 bytes."""
    return _PACKING.pack(*board)


def raw_move(pairs: Pairs) -> bytes:
    """(from, to) pairs as the core's 8 bytes, -1 padded."""
    return bytes([n for pair in pairs for n in pair] + [0xFF] * (8 - 2 * len(pairs)))


def pairs_of(move: bytes) -> Pairs:
    """The core's 8 bytes of a move as (from, to) pairs."""
    return tuple((move[i], move[i + 1]) for i in range(0, 8, 2) if move[i] != 0xFF)


__all__ = ["Board", "Pairs", "as_bytes", "as_ints", "check_dice", "core_rules", "pairs_of", "raw_move", "variant_code"]
