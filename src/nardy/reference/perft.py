"""perft: the leaf count of the full game tree (docs/rules.md section 7)."""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import InvalidArgumentError
from ..rules import CHECKERS, Rules
from .board import Board, borne_off, flip
from .movegen import ROLLS, check_board, results


def perft(board: Sequence[int], depth: int, rules: Rules) -> int:
    """Sum over the 21 rolls of the distinct children's perft(depth - 1); ended games count 1."""
    if depth < 0:
        raise InvalidArgumentError(f"perft depth must be >= 0, got {depth}")
    board = tuple(board)
    if CHECKERS in borne_off(board):
        return 1  # a game that has ended is a leaf
    check_board(board, rules)
    return _perft(board, depth, rules, starter_to_move=True)


def _perft(board: Board, depth: int, rules: Rules, starter_to_move: bool) -> int:
    if depth == 0:
        return 1
    total = 0
    for dice in ROLLS:
        for child in results(board, dice, rules):
            if borne_off(child)[0] < CHECKERS:
                total += _perft(flip(child, rules.variant), depth - 1, rules, not starter_to_move)
            elif getattr(rules, "last_roll_draw", False) and starter_to_move:
                total += _last_roll(flip(child, rules.variant), depth - 1, rules)
            else:
                total += 1  # the game is over
    return total


def _last_roll(board: Board, depth: int, rules: Rules) -> int:
    """last_roll_draw: the starter has finished; the other side has one last roll, then the game ends."""
    if depth == 0:
        return 1
    return sum(len(results(board, dice, rules)) for dice in ROLLS)


__all__ = ["perft"]
