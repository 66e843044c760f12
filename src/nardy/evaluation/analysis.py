"""Analyse played games: each move's equity loss against the evaluator's best play.

`analyse(games)` replays every move of the games (a `Match`'s, a match file's) and ranks the
roll's plays with `nardy.evaluation.net.rank`, at 2 ply unless `ply=` says otherwise, the played
move judged at that ply too (`rank(..., include=)`). A move's loss is the best play's equity
minus the played one's (cubeless, for the mover), and it is marked as GNU Backgammon marks moves: "doubtful"
for a loss of at least 0.04, "bad" for at least 0.08, "very bad" for at least 0.16.

A player's error rate is the mean loss over its unforced moves (those with more than one
legal play), in thousandths of a point per move (gnubg's "mEMG" per move, cubeless here).
Moves of a long-nardy last roll (`last_roll_draw`) are not analysed: the evaluator does not
model that roll.

Short nardy games played with the cube also get their cube decisions analysed (`Analysis.cube`),
as GNU Backgammon does: before each roll where the side on roll may double, `nardy.cube.decide`
at the same ply gives the proper action at the score; doubling or not costs the side on roll
the proper action's equity minus the one it chose (a "missed double" or a "wrong double"), and
a take or a pass costs the side doubled the difference of double/take and double/pass (a "wrong
take" or a "wrong pass"), all normalised to the cube in play and marked as moves are. A
player's cube error rate is its mean cube loss per close or actual decision (`CubeSummary`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Sequence

from ..errors import InvalidArgumentError, check_flag
from .net import Net, rank
from ..game import Game
from .cube import CubeDecision, can_double, decide
from ..move import Move
from ..formats.ids import MatchState
from ..position import Position
from ..rules import CHECKERS, Color, Variant

MARKS = (("very bad", 0.16), ("bad", 0.08), ("doubtful", 0.04))
DEFAULT_PLY = 2   # the ply whose marks agree best with rollouts (docs/evaluator.md, "Decision benchmarks")


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
    cube: list[CubeAnalysis] = field(default_factory=list)

    def cube_summary(self, player: Color | str | int) -> CubeSummary:
        """`player`'s cube decisions (a colour as `Color.parse` reads it): its doubles and no
        doubles, and its answers to doubles."""
        player = Color.parse(player, "player")
        own = [c for c in self.cube if c.player is player]
        answers = [c for c in self.cube if c.player is not player and c.answer is not None]
        kinds = [c.double_error for c in own] + [c.answer_error for c in answers]
        loss = sum(c.double_loss for c in own) + sum(c.answer_loss for c in answers)
        close = sum(c.close for c in own) + len(answers)
        return CubeSummary(len(own) + len(answers), close, sum(c.doubled for c in own),
                           sum(c.answer == "take" for c in answers), sum(c.answer == "drop" for c in answers),
                           {kind: kinds.count(kind) for kind in CUBE_ERRORS}, loss)

    def summary(self, player: Color | str | int) -> PlayerSummary:
        """`player`'s moves, losses and marks (a colour as `Color.parse` reads it)."""
        player = Color.parse(player, "player")
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


def analyse(games: Sequence[Game], *, ply: int = DEFAULT_PLY, net: Net | None = None,
            progress: Callable[[int, int], None] | None = None, at_score: bool = False) -> Analysis:
    """Every move of `games` against the evaluator's best play of its roll, both judged at `ply`
    (2 by default: `DEFAULT_PLY`); `progress`, if given, is called as progress(moves_done, moves)
    after each move. `at_score`: the plays are judged
    at the game's score and cube (`rank(..., state=)`: short nardy's cubeful equity, long
    nardy's at its match equity table) instead of by the cubeless money equity."""
    if isinstance(games, (str, bytes)) or not isinstance(games, Sequence) or not all(isinstance(g, Game) for g in games):
        raise InvalidArgumentError("analyse takes a sequence of nardy.Game")
    if progress is not None and not callable(progress):
        raise InvalidArgumentError(f"progress must be a function progress(moves_done, moves) or None, got {progress!r}")
    check_flag(at_score, "at_score")
    total = sum(kind == "move" for game in games for _, kind, _ in game.history())
    done = [0]

    def moved() -> None:
        done[0] += 1
        if progress is not None:
            progress(done[0], total)

    found: list[MoveAnalysis] = []
    cube: list[CubeAnalysis] = []
    for number, game in enumerate(games, 1):
        found.extend(_game(number, game, ply, net, moved, at_score))
        cube.extend(_cube_game(number, game, ply, net))
    return Analysis(found, ply, cube)


def _game(number: int, game: Game, ply: int, net: Net | None, moved: Callable[[], None],
          at_score: bool = False) -> list[MoveAnalysis]:
    if game.starter is None:
        return []
    rules = game.rules
    judge = rules if game.cube_enabled or rules.variant is Variant.LONG else rules.replace(cube=False)
    position = Position.start(rules.variant, game.starter)
    out: list[MoveAnalysis] = []
    count = 0
    value, owner = 1, None
    for who, kind, what in game.history():
        if kind == "take":
            value, owner = 2 * value, who
        if kind != "move":
            continue
        move: Move = what
        count += 1
        last_roll = position.borne_off(position.turn.other) == CHECKERS
        if not last_roll:
            state = _state(game, position, value, owner) if at_score else None
            ranked = rank(position, move.dice, judge, ply=ply, net=net, state=state, include=move)
            played = board_after(position.view(), move.pairs())
            equity_played = next(e for m, e, _ in ranked if board_after(position.view(), m.pairs()) == played)
            out.append(MoveAnalysis(number, count, who, move.dice, move, ranked[0][0], equity_played, ranked[0][1],
                                    len(ranked)))
        position = position.apply(move, rules, last_roll=last_roll)
        moved()
    return out


# --- the cube ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class CubeTurn:
    """A turn of a short nardy game with the cube, before the roll: the position (its side on
    roll deciding), the match state, whether it doubled and how the other side answered."""

    game: int              # 1-based
    move: int              # the number of the move it comes before, 1-based
    position: Position
    state: MatchState
    doubled: bool
    answer: str | None     # "take", "drop", or None (no double)

    @property
    def decision_possible(self) -> bool:
        """The side on roll may turn the cube (as `nardy.cube` judges it: not in the Crawford
        game, not with a dead cube or the cube on the other side)."""
        return can_double(self.state)


CUBE_ERRORS = ("missed double", "wrong double", "wrong take", "wrong pass")
CLOSE = 0.16  # a cube decision counts as close when doubling is worth within this much of not


@dataclass(frozen=True)
class CubeAnalysis:
    """A cube decision of a played game against `nardy.cube.decide`'s, in its normalised
    equities (the side on roll's): `player` on roll doubled or not, the other side answered."""

    game: int
    number: int            # the move of the game it came before, 1-based
    player: Color
    state: MatchState
    decision: CubeDecision
    doubled: bool
    answer: str | None

    @property
    def double_loss(self) -> float:
        """What the side on roll lost by doubling or not (the other side's best answer assumed)."""
        d = self.decision
        played = min(d.double_take, d.double_pass) if self.doubled else d.no_double
        return max(d.equity - played, 0.0)

    @property
    def answer_loss(self) -> float:
        """What the side doubled lost by its take or pass."""
        d = self.decision
        if self.answer == "take":
            return max(d.double_take - d.double_pass, 0.0)
        if self.answer == "drop":
            return max(d.double_pass - d.double_take, 0.0)
        return 0.0

    @property
    def double_error(self) -> str | None:
        if self.double_loss <= 0:
            return None
        return "wrong double" if self.doubled else "missed double"

    @property
    def answer_error(self) -> str | None:
        if self.answer_loss <= 0:
            return None
        return "wrong take" if self.answer == "take" else "wrong pass"

    @property
    def close(self) -> bool:
        """Doubled, or doubling was right or worth within `CLOSE` of not doubling (gnubg's
        "close or actual" decisions, which its cube error rate counts)."""
        d = self.decision
        return self.doubled or d.equity != d.no_double or abs(min(d.double_take, d.double_pass) - d.no_double) <= CLOSE

    def mark(self, loss: float) -> str | None:
        return next((name for name, at in MARKS if loss >= at - 1e-12), None)


@dataclass(frozen=True)
class CubeSummary:
    decisions: int           # the player's turns with the cube available, and its answers
    close: int               # of which close or actual (its answers always count)
    doubles: int
    takes: int
    passes: int
    errors: dict[str, int]   # CUBE_ERRORS -> how many
    total_loss: float

    @property
    def error_rate(self) -> float:
        """Mean loss per close or actual cube decision, in thousandths of a point."""
        return 1000 * self.total_loss / self.close if self.close else 0.0


def _cube_game(number: int, game: Game, ply: int, net: Net | None) -> list[CubeAnalysis]:
    out = []
    for turn in cube_turns(game, number):
        if not turn.decision_possible:
            continue
        d = decide(turn.position, turn.state, ply=ply, rules=game.rules, net=net)
        out.append(CubeAnalysis(number, turn.move, turn.position.turn, turn.state, d, turn.doubled, turn.answer))
    return out


def cube_turns(game: Game, number: int = 1) -> list[CubeTurn]:
    """The turns of `game` (game `number` of its match) before each roll but the opening one
    (the roll-off's dice are played), with the cube as it stood; none for a game without it."""
    if game.starter is None or not game.cube_enabled:
        return []
    rules = game.rules
    position = Position.start(rules.variant, game.starter)
    value, owner = 1, None
    first = rules.opening == "dice"
    out: list[CubeTurn] = []
    offered, moves = False, 0

    def turn(doubled: bool, answer: str | None) -> CubeTurn:
        return CubeTurn(number, moves + 1, position, _state(game, position, value, owner), doubled, answer)

    for who, kind, what in game.history():
        if kind == "double":
            offered = True
        elif kind in ("take", "drop"):
            out.append(turn(True, kind))
            if kind == "take":
                value, owner = 2 * value, who
            offered = False
        elif kind == "move":
            if not first and not (out and out[-1].position is position):
                out.append(turn(False, None))
            first = False
            position = position.apply(what, rules)
            moves += 1
    if offered:  # a double still unanswered where the record ends
        out.append(turn(True, None))
    return out


def _state(game: Game, position: Position, value: int, owner: Color | None) -> MatchState:
    """The match state before `position`'s roll, as `Game.match_state` words it (the Jacoby rule
    only for a money game with the cube: long nardy's money play is judged cubeless)."""
    on_roll = int(position.turn is Color.WHITE)
    length = game.match_length or 0
    return MatchState(cube_value=value, cube_owner=None if owner is None else int(owner is Color.WHITE),
                      on_roll=on_roll, turn=on_roll, crawford=game.crawford_game and bool(length),
                      match_length=length, score=(game.score[1], game.score[0]) if length else (0, 0),
                      jacoby=not length and game.cube_enabled and game.rules.jacoby)


__all__ = ["CUBE_ERRORS", "CubeAnalysis", "CubeSummary", "CubeTurn", "cube_turns", "Analysis", "DEFAULT_PLY", "MARKS", "MoveAnalysis", "PlayerSummary", "analyse", "board_after"]
