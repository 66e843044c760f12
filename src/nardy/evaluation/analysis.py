"""Analyse played games: each move's equity loss against the evaluator's best play.

`analyse(games)` replays every move of the games (a `Match`'s, a match file's) and ranks the
roll's plays with `nardy.evaluation.net.rank`. A move's loss is the best play's equity minus the played
one's (cubeless, for the mover), and it is marked as GNU Backgammon marks moves: "doubtful"
for a loss of at least 0.04, "bad" for at least 0.08, "very bad" for at least 0.16.

A player's error rate is the mean loss over its unforced moves (those with more than one
legal play), in thousandths of a point per move (gnubg's "mEMG" per move, cubeless here).
Moves of a long-nardy last roll (`last_roll_draw`) are not analysed: the evaluator does not
model that roll.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Sequence

from ..errors import InvalidArgumentError
from .net import Net, rank
from ..game import Game
from ..move import Move
from ..position import Position
from ..rules import CHECKERS, Color

MARKS = (("very bad", 0.16), ("bad", 0.08), ("doubtful", 0.04))


@dataclass(frozen=True)
class MoveAnalysis:
    """One analysed move: where it was played, what was played and what was best."""

    game: int              # 1-based
    number: int            # the move's number in its game, 1-based
    player: Color
    dice: tuple[int, int]
    played: Move
    best: Move
    equity_played: float
    equity_best: float
    choices: int           # how many distinct plays the roll had

    @property
    def loss(self) -> float:
        return self.equity_best - self.equity_played

    @property
    def mark(self) -> str | None:
        return next((name for name, at in MARKS if self.loss >= at - 1e-12), None)


@dataclass(frozen=True)
class PlayerSummary:
    moves: int
    unforced: int
    total_loss: float
    marks: dict[str, int]

    @property
    def error_rate(self) -> float:
        """Mean loss per unforced move, in thousandths of a point."""
        return 1000 * self.total_loss / self.unforced if self.unforced else 0.0


@dataclass(frozen=True)
class Analysis:
    moves: list[MoveAnalysis]
    ply: int

    def summary(self, player: Color) -> PlayerSummary:
        mine = [m for m in self.moves if m.player is player]
        unforced = [m for m in mine if m.choices > 1]
        marks = {name: sum(m.mark == name for m in mine) for name, _ in MARKS}
        return PlayerSummary(len(mine), len(unforced), sum(m.loss for m in unforced), marks)


def board_after(view: Sequence[int], pairs: Sequence[tuple[int, int]]) -> tuple[int, ...]:
    """A mover's-view board after the (from, to) steps, hits put on the bar (not checked for legality)."""
    board = list(view)
    for src, dst in pairs:
        board[src] -= 1
        if dst > 0:
            if board[dst] == -1:
                board[dst] = 0
                board[0] -= 1
            board[dst] += 1
    return tuple(board)


def analyse(games: Sequence[Game], *, ply: int = 0, net: Net | None = None,
            progress: Callable[[int, int], None] | None = None) -> Analysis:
    """Every move of `games` against the evaluator's best play of its roll; `progress`, if given,
    is called as progress(moves_done, moves) after each move."""
    if isinstance(games, (str, bytes)) or not isinstance(games, Sequence) or not all(isinstance(g, Game) for g in games):
        raise InvalidArgumentError("analyse takes a sequence of nardy.Game")
    if progress is not None and not callable(progress):
        raise InvalidArgumentError(f"progress must be a function progress(moves_done, moves) or None, got {progress!r}")
    total = sum(kind == "move" for game in games for _, kind, _ in game.history())
    done = [0]

    def moved() -> None:
        done[0] += 1
        if progress is not None:
            progress(done[0], total)

    found: list[MoveAnalysis] = []
    for number, game in enumerate(games, 1):
        found.extend(_game(number, game, ply, net, moved))
    return Analysis(found, ply)


def _game(number: int, game: Game, ply: int, net: Net | None, moved: Callable[[], None]) -> list[MoveAnalysis]:
    if game.starter is None:
        return []
    rules = game.rules
    position = Position.start(rules.variant, game.starter)
    out: list[MoveAnalysis] = []
    count = 0
    for who, kind, what in game.history():
        if kind != "move":
            continue
        move: Move = what
        count += 1
        last_roll = position.borne_off(position.turn.other) == CHECKERS
        if not last_roll:
            ranked = rank(position, move.dice, rules, ply=ply, net=net)
            played = board_after(position.view(), move.pairs())
            equity_played = next(e for m, e, _ in ranked if board_after(position.view(), m.pairs()) == played)
            out.append(MoveAnalysis(number, count, who, move.dice, move, ranked[0][0], equity_played, ranked[0][1],
                                    len(ranked)))
        position = position.apply(move, rules, last_roll=last_roll)
        moved()
    return out


__all__ = ["Analysis", "MARKS", "MoveAnalysis", "PlayerSummary", "analyse", "board_after"]
