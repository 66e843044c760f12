"""Validation flags for positions (docs/rules.md section 8), shared by both backends."""

from __future__ import annotations

import enum


class Status(enum.IntFlag):
    """Problems found in a mover's-view array; `Status.VALID` (0) means none.

    The compiled core and the reference compute the same flags; `describe` turns them into words.
    """

    VALID = 0
    TOO_MANY_MOVER = 1  # more than 15 of the mover's checkers on the board and bar
    TOO_MANY_OPPONENT = 2  # more than 15 of the opponent's
    NEGATIVE_BAR = 4  # index 25 below 0 or index 0 above 0 (a negative checker count)
    BAR_IN_LONG = 8  # checkers on a bar in long nardy
    BOTH_BORNE_OFF = 16  # both sides have borne off all 15
    ILLEGAL_BLOCK_OPPONENT = 32  # the side not on roll holds a six-block the rules forbid
    ILLEGAL_BLOCK_MOVER = 64  # the side on roll does (cannot arise in play either)
    BOTH_SHUT_OUT = 128  # short: both sides on the bar against closed home boards (neither can ever move)


_WORDS = {
    Status.TOO_MANY_MOVER: "the side on roll has more than 15 checkers on the board",
    Status.TOO_MANY_OPPONENT: "the side not on roll has more than 15 checkers on the board",
    Status.NEGATIVE_BAR: "a bar holds a negative number of checkers (index 25 must be >= 0, index 0 <= 0)",
    Status.BAR_IN_LONG: "long nardy has no bar, but index 0 or 25 is not 0",
    Status.BOTH_BORNE_OFF: "both sides have borne off all 15 checkers",
    Status.ILLEGAL_BLOCK_OPPONENT: "the side not on roll holds a six-block with no opponent checker ahead of it",
    Status.ILLEGAL_BLOCK_MOVER: "the side on roll holds a six-block with no opponent checker ahead of it",
    Status.BOTH_SHUT_OUT: "both sides have checkers on the bar against a closed home board, so neither can ever move",
}


def describe(status: Status) -> list[str]:
    """One sentence per problem flag, in flag order."""
    return [words for flag, words in _WORDS.items() if status & flag]


__all__ = ["Status", "describe"]
