"""Board facts in the mover's view: turning the board, pips, six-blocks, validation, scoring.

A board is a sequence of 26 ints (docs/rules.md section 1): index 1..24 the mover's points
(positive = mover's checkers, negative = opponent's), 25 the mover's bar, 0 the opponent's
bar as a negative count. Borne-off counts are 15 minus what is on the board.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import CHECKERS, Rules, Variant
from ..status import Status

Board = tuple[int, ...]


def long_opposite(point: int) -> int:
    """Long nardy: the same point in the other side's numbers (p+12 or p-12)."""
    return point + 12 if point <= 12 else point - 12


def opposite(point: int, variant: Variant) -> int:
    """The mover's point `point` in the opponent's own numbers."""
    return long_opposite(point) if variant is Variant.LONG else 25 - point


def flip(board: Sequence[int], variant: Variant) -> Board:
    """The same position seen by the opponent (the turn passes)."""
    new = [0] * 26
    for p in range(1, 25):
        new[opposite(p, variant)] = -board[p]
    new[25], new[0] = -board[0], -board[25]
    return tuple(new)


def on_board(board: Sequence[int]) -> tuple[int, int]:
    """(mover's, opponent's) checkers on the points and bars."""
    mine = board[25] + sum(n for n in board[1:25] if n > 0)
    theirs = -board[0] + sum(-n for n in board[1:25] if n < 0)
    return mine, theirs


def borne_off(board: Sequence[int]) -> tuple[int, int]:
    """(mover's, opponent's) checkers borne off."""
    mine, theirs = on_board(board)
    return CHECKERS - mine, CHECKERS - theirs


def pips(board: Sequence[int], variant: Variant) -> tuple[int, int]:
    """(mover's, opponent's) pip counts, each in its own numbers (bar = 25, off = 0)."""
    mine = 25 * board[25] + sum(n * p for p, n in enumerate(board) if 1 <= p <= 24 and n > 0)
    theirs = -25 * board[0] + sum(-n * opposite(p, variant) for p, n in enumerate(board) if 1 <= p <= 24 and n < 0)
    return mine, theirs


def illegal_block(board: Sequence[int], rules: Rules, holder: int = 1) -> bool:
    """Does the holder (1 = mover, -1 = opponent) hold a six-block the rules forbid?

    A block is six consecutive points along the other side's path: in the other side's own
    numbers a run q..q+5. It is allowed when an other-side checker stands below q (ahead of
    it), or has been borne off ("ahead" rule); with the "home" rule, when one has entered its
    home or been borne off. Short nardy and block_rule "none" allow every block.
    """
    if rules.variant is Variant.SHORT or rules.block_rule == "none":
        return False
    if holder == -1:
        board = flip(board, rules.variant)
    # points in the other side's numbers: held by the holder, and occupied by the other side
    held = {long_opposite(p) for p in range(1, 25) if board[p] > 0}
    others = [long_opposite(p) for p in range(1, 25) if board[p] < 0]
    if not others or borne_off(board)[1] > 0:
        return False  # borne-off checkers are ahead of every block
    for q in range(1, 20):
        if all(q + i in held for i in range(6)):
            if rules.block_rule == "ahead" and not any(o < q for o in others):
                return True
            if rules.block_rule == "home" and not any(o <= 6 for o in others):
                return True
    return False


def status(board: Sequence[int], rules: Rules) -> Status:
    """Every problem with this board under these rules (docs/rules.md section 8)."""
    found = Status.VALID
    if board[25] < 0 or board[0] > 0:
        found |= Status.NEGATIVE_BAR
    if rules.variant is Variant.LONG and (board[25] != 0 or board[0] != 0):
        found |= Status.BAR_IN_LONG
    mine = abs(board[25]) + sum(n for n in board[1:25] if n > 0)
    theirs = abs(board[0]) + sum(-n for n in board[1:25] if n < 0)
    if mine > CHECKERS:
        found |= Status.TOO_MANY_MOVER
    if theirs > CHECKERS:
        found |= Status.TOO_MANY_OPPONENT
    if mine == 0 and theirs == 0:
        found |= Status.BOTH_BORNE_OFF
    if not found:
        if illegal_block(board, rules, holder=-1):
            found |= Status.ILLEGAL_BLOCK_OPPONENT
        if illegal_block(board, rules, holder=1):
            found |= Status.ILLEGAL_BLOCK_MOVER
        if both_shut_out(board, rules):
            found |= Status.BOTH_SHUT_OUT
    return found


def both_shut_out(board: Sequence[int], rules: Rules) -> bool:
    """Short nardy: both sides on the bar, each against the other's closed home board (two or
    more checkers on every point), so that neither can ever move (GNU Backgammon rejects it too)."""
    return (rules.variant is Variant.SHORT and board[25] > 0 and board[0] < 0
            and all(board[p] >= 2 for p in range(1, 7)) and all(board[p] <= -2 for p in range(19, 25)))


def result(board: Sequence[int], rules: Rules) -> tuple[str, int] | None:
    """The result kind and points for the mover, once the mover has borne off all 15.

    Long nardy: "oin" 1 (the loser has borne off), "mars" 2 (none off), "koks" 3 (option: none
    off and a checker still in the loser's first quarter, its points 19..24). Short nardy:
    "single" 1, "gammon" 2, "backgammon" 3 (none off and a checker on the bar or in the
    winner's home). Points are before the doubling cube. None while the mover has not finished.
    """
    mine_off, theirs_off = borne_off(board)
    if mine_off < CHECKERS:
        return None
    if theirs_off > 0:
        return ("oin", 1) if rules.variant is Variant.LONG else ("single", 1)
    if rules.variant is Variant.LONG:
        first_quarter = any(board[p] < 0 and long_opposite(p) >= 19 for p in range(1, 25))
        return ("koks", 3) if rules.koks and first_quarter else ("mars", 2)
    in_home = board[0] < 0 or any(board[p] < 0 for p in range(1, 7))
    return ("backgammon", 3) if in_home else ("gammon", 2)


__all__ = [
    "Board", "borne_off", "both_shut_out", "flip", "illegal_block", "long_opposite", "on_board", "opposite",
    "pips", "result", "status",
]
