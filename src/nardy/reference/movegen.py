"""Legal turns by docs/rules.md sections 3 to 5, written to be checked line by line.

A step is (from, to, hit) in the mover's points: 25 is the bar, 0 is off. A turn is a
sequence of steps. `legal_results` walks every step sequence level by level (one level per
step), merging sequences that reach the same state, and then applies "use as much of the
roll as possible" and the larger-die rule to the candidates.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence

from ..errors import GameOverError, InvalidDiceError, InvalidPositionError, is_unordered, quoted
from ..rules import CHECKERS, Rules, Variant
from ..status import describe
from .board import Board, borne_off, illegal_block, status

Step = tuple[int, int, bool]
Steps = tuple[Step, ...]
State = tuple[Board, tuple[int, ...], int]  # board, dice still to play, checkers taken from the head

# the 21 distinct rolls, each once (docs/rules.md section 7)
ROLLS: tuple[tuple[int, int], ...] = tuple((d1, d2) for d1 in range(1, 7) for d2 in range(1, d1 + 1))

BAR = 25
HEAD = 24


def check_dice(dice: Sequence[int]) -> tuple[int, int]:
    """The roll as two ints in 1..6, or `InvalidDiceError` naming the whole argument."""
    if isinstance(dice, (str, bytes)):  # '65' unpacks into two one-character strings
        raise InvalidDiceError(f"a roll is two dice, ints 1..6 such as (6, 5), got {quoted(dice)}")
    if is_unordered(dice):
        raise InvalidDiceError(f"a roll is two dice in a sequence such as (6, 5), got the {type(dice).__name__} "
                               f"{quoted(dice)}")
    try:
        d1, d2 = dice
    except (TypeError, ValueError):
        raise InvalidDiceError(f"a roll is two dice, got {quoted(dice)}") from None
    for d in (d1, d2):
        if isinstance(d, bool) or not isinstance(d, numbers.Integral) or not 1 <= int(d) <= 6:
            raise InvalidDiceError(f"a die shows 1..6, got {quoted(d)} in {quoted(dice)}")
    return int(d1), int(d2)


def check_board(board: Sequence[int], rules: Rules, last_roll: bool = False) -> Board:
    """The board as a tuple, or `InvalidPositionError` / `GameOverError` (with `last_roll`, only
    if the mover has finished: the opponent may have just borne off its last checker)."""
    if len(board) != 26:
        raise InvalidPositionError(f"a board has 26 entries, got {len(board)}: {tuple(board)!r}")
    board = tuple(int(n) for n in board)
    found = status(board, rules)
    if found:
        raise InvalidPositionError(f"invalid position {board!r}: {'; '.join(describe(found))}")
    if borne_off(board)[0] == CHECKERS or (borne_off(board)[1] == CHECKERS and not last_roll):
        raise GameOverError(f"the game is over: a side has borne off all 15 checkers in {board!r}")
    return board


def head_limit(board: Board, dice: tuple[int, int], rules: Rules) -> int:
    """How many checkers may leave the head (the mover's point 24) this turn (docs/rules.md 4)."""
    if rules.variant is Variant.SHORT:
        return CHECKERS  # no head rule
    d1, d2 = dice
    first_turn = board[HEAD] == CHECKERS
    if first_turn and d1 == d2 and d1 in (3, 4, 6):
        if rules.head_exception == "permission":
            return 2
        # strict: the single head checker's path above the opponent's head must be free
        path = range(HEAD - d1, 12, -d1)
        if rules.head_exception == "strict" and all(board[p] >= 0 for p in path):
            return 2
    return 1


def step_problem(board: Board, src: int, die: int, rules: Rules, heads: int, limit: int) -> str | None:
    """Why the step of `die` from `src` may not be taken now, or None if it may."""
    short = rules.variant is Variant.SHORT
    if not 1 <= src <= 25:
        return f"there is no point {src}"
    if board[src] <= 0:
        return "no checker on the bar" if src == BAR else f"no checker of the side on roll on point {src}"
    if short and board[BAR] > 0 and src != BAR:
        return "a checker on the bar must enter first"
    dst = src - die
    if dst <= 0:
        if any(board[p] > 0 for p in range(7, 26)):
            return "cannot bear off while a checker is outside home"
        if dst < 0 and any(board[p] > 0 for p in range(src + 1, 7)):
            return f"cannot bear off from {src} with a {die} while a checker stands on a higher point"
    elif board[dst] < (-1 if short else 0):
        return f"point {dst} is closed" if short else f"point {dst} is held by the opponent"
    if not short and src == HEAD and heads >= limit:
        return "second checker from the head" if limit == 1 else "third checker from the head"
    return None


def apply_step(board: Board, src: int, die: int) -> tuple[Board, Step]:
    """The board after a step that `step_problem` allowed."""
    new = list(board)
    dst = max(src - die, 0)
    new[src] -= 1
    hit = dst > 0 and new[dst] == -1
    if hit:
        new[dst] = 0
        new[0] -= 1  # the hit checker goes to the opponent's bar
    if dst > 0:
        new[dst] += 1
    return tuple(new), (src, dst, hit)


def block_problem(board: Board, rules: Rules) -> str | None:
    if illegal_block(board, rules):
        if rules.block_rule == "home":
            return "forms a six-block before any opponent checker has entered its home"
        return "forms a six-block with no opponent checker ahead"
    return None


def _successors(state: State, rules: Rules, limit: int) -> list[tuple[State, Step]]:
    board, remaining, heads = state
    if borne_off(board)[0] == CHECKERS:
        return []  # the game ended with this step; nothing is left to play
    found = []
    for die in sorted(set(remaining), reverse=True):
        rest = list(remaining)
        rest.remove(die)
        for src in range(25, 0, -1):
            if step_problem(board, src, die, rules, heads, limit) is not None:
                continue
            new, step = apply_step(board, src, die)
            if rules.variant is Variant.LONG and rules.block_timing == "step" and block_problem(new, rules):
                continue  # no step may create an illegal block, even on the run
            found.append(((new, tuple(rest), heads + (src == HEAD)), step))
    return found


def _levels(board: Board, dice: tuple[int, int], rules: Rules, all_sequences: bool) -> list[dict[State, list[Steps]]]:
    """levels[n]: every state reachable by n legal steps, with its step sequences."""
    d1, d2 = dice
    remaining = (d1,) * 4 if d1 == d2 else (d1, d2)
    limit = head_limit(board, dice, rules)
    level: dict[State, list[Steps]] = {(board, remaining, 0): [()]}
    levels = []
    while level:
        levels.append(level)
        following: dict[State, list[Steps]] = {}
        for state, sequences in level.items():
            for new_state, step in _successors(state, rules, limit):
                extended = [seq + (step,) for seq in sequences]
                if new_state not in following:
                    following[new_state] = extended if all_sequences else extended[:1]
                elif all_sequences:
                    following[new_state].extend(extended)
        level = following
    return levels


def legal_results(
    board: Sequence[int], dice: Sequence[int], rules: Rules, *, all_sequences: bool = False, last_roll: bool = False
) -> dict[Board, list[Steps]]:
    """The distinct positions the roll can lead to (mover's view, before the turn passes).

    Each maps to its step sequences: the first one found, or with `all_sequences` every one.
    A turn with no legal step maps the board itself to the empty sequence (the roll is lost).
    `last_roll`: long nardy, last_roll_draw: the opponent has just borne off its last checker.
    """
    return results(check_board(board, rules, last_roll), check_dice(dice), rules, all_sequences=all_sequences)


def results(board: Board, dice: tuple[int, int], rules: Rules, *, all_sequences: bool = False) -> dict[Board, list[Steps]]:
    """`legal_results` without checking its input (for callers that already did)."""
    levels = _levels(board, dice, rules, all_sequences)
    # candidates: every sequence that obeys the step rules; under block_timing "end" only
    # those whose final position holds no illegal block (docs/rules.md 4)
    end_timing = rules.variant is Variant.LONG and rules.block_timing == "end"
    candidates = [
        {state: seqs for state, seqs in level.items() if not (end_timing and block_problem(state[0], rules))}
        for level in levels
    ]
    most = max(n for n, level in enumerate(candidates) if level or n == 0)
    best = candidates[most]
    if most == 1 and dice[0] != dice[1]:
        # only one step possible: the larger die when either die could be played alone
        smaller = min(dice)
        with_larger = {s: q for s, q in best.items() if s[1] == (smaller,)}
        if with_larger:
            best = with_larger
    results: dict[Board, list[Steps]] = {}
    for (new_board, _, _), sequences in best.items():
        if new_board in results:
            if all_sequences:
                results[new_board].extend(sequences)
        else:
            results[new_board] = list(sequences)
    return results


def explain_illegal(
    board: Sequence[int], dice: Sequence[int], moves: Sequence[tuple[int, int]], rules: Rules, last_roll: bool = False
) -> str | None:
    """Why playing `moves` ((from, to) pairs, 0 = off, 25 = bar) with `dice` is illegal, or None."""
    board = check_board(board, rules, last_roll)
    dice = check_dice(dice)
    d1, d2 = dice
    limit = head_limit(board, dice, rules)
    remaining = (d1,) * 4 if d1 == d2 else (d1, d2)
    reasons: list[tuple[int, str]] = []

    def replay(b: Board, rest: tuple[int, ...], heads: int, i: int) -> Board | None:
        if i == len(moves):
            return b
        if borne_off(b)[0] == CHECKERS:
            reasons.append((i, "the game is over: nothing is left to play"))
            return None
        src, dst = moves[i]
        fitting = [d for d in sorted(set(rest)) if src - d == dst or (dst == 0 and d > src)]
        if not fitting:
            distance = src - dst
            reasons.append((i, f"no die of {d1}-{d2} left to move {src}/{dst or 'off'} ({distance} pips)"))
            return None
        for die in fitting:
            problem = step_problem(b, src, die, rules, heads, limit)
            if problem is None:
                new, _ = apply_step(b, src, die)
                if rules.variant is Variant.LONG and rules.block_timing == "step":
                    problem = block_problem(new, rules)
            if problem is not None:
                reasons.append((i, f"{src}/{dst or 'off'}: {problem}"))
                continue
            left = list(rest)
            left.remove(die)
            end = replay(new, tuple(left), heads + (src == HEAD), i + 1)
            if end is not None:
                return end
        return None

    final = replay(board, remaining, 0, 0)
    if final is None:
        return max(reasons, key=lambda r: r[0])[1]
    if rules.variant is Variant.LONG and rules.block_timing == "end" and (problem := block_problem(final, rules)):
        return problem
    legal = results(board, dice, rules)
    steps_needed = len(next(iter(legal.values()))[0])
    if len(moves) < steps_needed:
        return f"the roll must be used as fully as possible: {steps_needed} steps can be played, this plays {len(moves)}"
    if final not in legal:
        if steps_needed == 1 and d1 != d2:
            return "the larger die must be played"
        return "not a legal play of this roll"
    return None


__all__ = [
    "BAR", "HEAD", "ROLLS", "Step", "Steps", "check_board", "check_dice", "explain_illegal", "legal_results",
    "results",
]
