"""The exceptions nardy raises (the compiled core and the reference raise the same classes), and
`quoted`, `is_whole`, `check_whole`, `check_choice` and `check_flag`, which word them."""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any, TypeGuard

import numpy as np


class NardyError(Exception):
    """Base class of every error nardy raises on bad input or misuse."""


class InvalidRulesError(NardyError, ValueError):
    """An unknown rule option, or a value that option does not take."""


class InvalidPositionError(NardyError, ValueError):
    """A malformed position: wrong shape, checker counts, bar in long nardy, illegal block..."""


class InvalidNotationError(NardyError, ValueError):
    """Text (a move, a position, an ID) that cannot be parsed."""


class InvalidDiceError(NardyError, ValueError):
    """Dice outside 1..6, or a roll of the wrong shape."""


class IllegalMoveError(NardyError, ValueError):
    """A well-formed move that the rules do not allow here."""


class InvalidArgumentError(NardyError, ValueError):
    """An argument outside the values it takes: a backend name, a depth, a count, a policy..."""


class GameOverError(NardyError):
    """Acting on a game (or position) that has already ended."""


def quoted(value: object, limit: int = 80) -> str:
    """`repr(value)` for an error message, cut to `limit` characters: an input may be huge, and
    Python refuses to write an int of more than 4,300 digits."""
    try:
        text = repr(value)
    except ValueError:
        return f"<an integer of {value.bit_length()} bits>" if isinstance(value, int) else f"<a {type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


class OutOfMemoryError(NardyError, MemoryError):
    """A batch larger than the memory that can be had; the message names its rows and the bytes."""


def is_unordered(value: Any) -> bool:
    """Whether `value` is a set or a dict: a collection with no order, which is never a roll
    ({3, 3} is one die)."""
    return isinstance(value, (set, frozenset, dict))


def is_whole(value: Any) -> TypeGuard[int]:
    """A whole number: an int or numpy integer, never a bool nor a numpy timedelta64 (which numpy
    counts among its integers, and whose int() may be a datetime.timedelta). Typed as an int for
    the type checker: numpy integers compare and convert as ints do."""
    if type(value) is int:  # the common case, without the ABC machinery
        return True
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.timedelta64))


def check_whole(value: Any, name: str, low: int, high: int | None = None, *,
                error: type[NardyError] = InvalidArgumentError, kinds: tuple[type, ...] = (int,)) -> None:
    """Refuse `value` unless it is a whole number of one of `kinds` (never a bool) in low..high,
    or at least `low` when `high` is None, with `error`: "{name} must be a whole number >= 1, got 0"."""
    whole = is_whole(value) and isinstance(value, kinds)
    if not whole or value < low or (high is not None and value > high):
        bounds = f">= {low}" if high is None else f"{low}..{high}"
        raise error(f"{name} must be a whole number {bounds}, got {quoted(value)}")


def is_choice(value: Any, choices: Sequence[Any]) -> bool:
    """Whether `value` is one of `choices`, compared safely: only a str, an int or None is ever
    compared (an array or any other object is refused by its type, never asked `==`), and a bool
    matches only a bool (True is not 1)."""
    return (value is None or isinstance(value, (str, int))) and any(
        value == c and isinstance(value, bool) == isinstance(c, bool) for c in choices)


def check_choice(value: Any, name: str, choices: Sequence[Any], *,
                 error: type[NardyError] = InvalidArgumentError) -> None:
    """Refuse `value` unless `is_choice(value, choices)`, with `error`:
    "unknown backend 'x'; choose 'cython' or 'python'"."""
    if not is_choice(value, choices):
        listed = " or ".join(map(repr, choices)) if len(choices) <= 2 else "one of " + ", ".join(map(repr, choices))
        raise error(f"unknown {name} {quoted(value)}; choose {listed}")


def check_flag(value: Any, name: str, *, error: type[NardyError] = InvalidArgumentError) -> bool:
    """`value` as a bool, refusing (with `error`) anything but True or False (a numpy bool too):
    a flag is never read by truthiness, so "no" or an array is not taken for True."""
    if not isinstance(value, (bool, np.bool_)):
        raise error(f"{name} is True or False, got {quoted(value)}")
    return bool(value)


__all__ = [
    "GameOverError", "IllegalMoveError", "InvalidArgumentError", "InvalidDiceError", "InvalidNotationError",
    "InvalidPositionError", "InvalidRulesError", "NardyError", "OutOfMemoryError",
]
