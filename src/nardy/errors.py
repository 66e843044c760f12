"""The exceptions nardy raises; the compiled core and the reference raise the same classes."""

from __future__ import annotations


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
