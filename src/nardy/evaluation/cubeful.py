"""Cubeful rollouts: short nardy games played out with the net's cube decisions.

`rollout(position, state, games=1296, seed=1)` plays `games` games from `position`, its side on
roll deciding first, at the score and cube of `state` (a `notation.MatchState`). Every turn,
before the roll, the side on roll doubles when its 0-ply cube decision says so (`nardy.cube`'s
arithmetic on the net's probabilities: double when double/take and double/pass are both worth
at least no double) and the other side takes or passes the same way; a pass ends the game.
The plays are the net's 0-ply cubeless choices, as in `nardy.evaluation.rollout`. All games move at once:
one move generation and one evaluation per ply for the live games, the cube decisions for each
cube state the games are in. Dice come from numpy's PCG64 seeded by `seed`.

`play(game_or_match)` plays a `Game` or a whole `Match` out the same way, one game at a time,
the net choosing its plays at the score.

The result is the mean outcome for the side on roll: in money play, points normalised to the
cube in play at the start; in a match, the mean match-winning chance and its
equivalent-to-money equity.

`luck=True` reduces the variance as GNU Backgammon's rollouts do: every roll's luck is the
rolling side's 0-ply cubeful value of the play it makes (the other side then on roll, with its
own cube action; in the result's units: points per starting cube, or the starting side's MWC)
minus the average of that over the 21 rolls, and each game's result is corrected by the sum of
its luck. The correction has mean zero whatever the evaluator, so the mean stays the rollout's;
it costs 21 evaluations of a ply instead of one.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from .. import batch
from .cube import net_cube_action
from .cubemath import Cube, cube_of, cubeful_values, efficiencies, equity_from_mwc, leaf_values, state_for
from ..errors import GameOverError, InvalidArgumentError, check_flag, check_whole, quoted
from .net import NetSet, ROLL_WEIGHTS, ROLLS, Net, evaluate_boards, finished_rows, net_for, net_move, raw_equity, \
    segment_argmax
from .met import MatchEquityTable
from .rollout import Z95, check_games_memory
from ..formats.ids import MatchState
from ..game import Game, Match
from ..position import Position
from ..rules import Rules, Variant

MAX_PLIES = 10_000
GAME_BYTES = 26 + 4 * 8 + 3  # each game's board, cube value and owner, points, luck and three flags


@dataclass(frozen=True)
class CubefulRollout:
    """`equity`: the mean result for the side on roll, normalised to the starting cube (a
    match: equivalent-to-money equity of `mwc`), with its standard error; `mwc`: the mean
    match-winning chance (None for money); `doubled`, `passed`: the shares of games with a
    double, and ended by a pass; `luck_adjusted`: whether the results were luck-adjusted.
    Printed, the equity's 95% interval (`rollout.Z95` standard errors either side), as the
    cubeless rollout's."""

    equity: float
    equity_se: float
    mwc: float | None
    games: int
    doubled: float
    passed: float
    luck_adjusted: bool = False

    def __str__(self) -> str:
        mwc = f", MWC {self.mwc:.3f}" if self.mwc is not None else ""
        luck = "luck-adjusted, " if self.luck_adjusted else ""
        return (f"cubeful equity {self.equity:+.3f} +- {Z95 * self.equity_se:.3f} (95%){mwc}; {self.games} games, "
                f"{luck}{self.doubled:.0%} doubled, {self.passed:.0%} ended by a pass")


def rollout(position: Position, state: MatchState, games: int = 1296, *, seed: int = 1, rules: Rules | None = None,
            net: Net | NetSet | None = None, met: MatchEquityTable | None = None, luck: bool = False
            ) -> CubefulRollout:
    """Roll `position` out `games` times with the cube (see the module's docstring)."""
    if not isinstance(position, Position):
        raise InvalidArgumentError(f"position must be a Position, got {quoted(position)}")
    check_whole(games, "games", 1)
    check_whole(seed, "seed", 0)
    check_flag(luck, "luck")
    check_games_memory(games, GAME_BYTES, "their boards and cubes")
    rules = position._rules(rules)
    if rules.variant is not Variant.SHORT or not rules.cube:
        raise InvalidArgumentError("a cubeful rollout is for short nardy played with the cube")
    if position.is_game_over():
        raise GameOverError(f"the game is over in {position!r}: nothing to roll out")
    root = cube_of(state_for(position, state, met, cube_decision=True), met)  # it starts with a cube decision
    net = net_for(net, rules)
    rng = np.random.default_rng(seed)
    boards = np.repeat(np.array([position.view()], np.int8), games, axis=0)
    value = np.full(games, root.value, np.int64)
    owner = np.full(games, -1 if root.owner is None else root.owner, np.int64)
    points = np.zeros(games, np.int64)          # to the side on roll at the start (negative: lost)
    live = np.ones(games, bool)
    doubled = np.zeros(games, bool)
    passed = np.zeros(games, bool)
    correction = np.zeros(games)               # the sum of each game's luck, in the result's units
    mover = root.mover
    for _ in range(MAX_PLIES):
        rows = np.flatnonzero(live)
        if rows.size == 0:
            break
        sign = 1 if mover == root.mover else -1
        _cube_actions(boards, rows, value, owner, points, live, doubled, passed, root, mover, sign, rules, net)
        rows = np.flatnonzero(live)
        if rows.size == 0:
            break
        dice = rng.integers(1, 7, (rows.size, 2)).astype(np.int8)
        if luck:
            correction[rows] += _luck(boards[rows], dice, value[rows], owner[rows], mover, root, rules, net)
        children, offsets, _ = batch.generate(boards[rows], dice, rules)
        theirs = evaluate_boards(children, rules, net, after=True)
        chosen = children[segment_argmax(-raw_equity(theirs), offsets)]
        over = finished_rows(chosen)
        if over.any():
            ended = rows[over]
            won = batch.wins(chosen[over], rules).astype(np.int64)
            if not root.length and root.jacoby:
                won = np.where(owner[ended] < 0, 1, won)   # Jacoby: gammons count single with a centred cube
            points[ended] = sign * won * value[ended]
            live[ended] = False
        boards[rows] = batch.flip(chosen, Variant.SHORT)
        mover = 1 - mover
    else:
        raise InvalidArgumentError(f"a game went on for more than {MAX_PLIES} plies")
    return _result(points, doubled, passed, root, correction if luck else None)


def play(game: Game | Match, ply: int = 0, *, net: Net | NetSet | None = None) -> None:
    """Play `game` (a `Game`, rolled off or not) to its end, or a `Match` (its game in play and
    every game after it, each counted) to the match's end, the net on both sides: before each roll
    the cube as `cube.net_cube_action` says (short nardy with the cube), then the net's play at
    the score (`net.net_move(..., at_score=True)` in a match or with the cube, else cubeless). A
    money session (a `Match` of length 0) is never won: play its games one at a time."""

    if isinstance(game, Match):
        if not game.length:
            raise InvalidArgumentError("a money session (a Match of length 0) has no end: play its games one "
                                       "at a time, play(match.new_game()) and match.finish_game()")
        if game.games and not game.games[-1].over:
            play(game.games[-1], ply, net=net)
            game.finish_game()
        while game.winner is None:
            play(game.new_game(), ply, net=net)
            game.finish_game()
        return
    if not isinstance(game, Game):
        raise InvalidArgumentError(f"play takes a Game or a Match, got {quoted(game)}")
    if game.starter is None:
        game.roll_off()
    at_score = game.match_length is not None or game.cube_enabled
    while not game.over:
        if game.dice is None:
            if game.doubled_by is not None or net_cube_action(game, ply, net=net) == "double":
                if game.doubled_by is None:
                    game.double()
                getattr(game, net_cube_action(game, ply, net=net) or "take")()
                if game.over:
                    break
            game.roll()
        game.play(net_move(game, ply, net=net, at_score=at_score))


def _cube_actions(boards: np.ndarray, rows: np.ndarray, value: np.ndarray, owner: np.ndarray, points: np.ndarray,
                  live: np.ndarray, doubled: np.ndarray, passed: np.ndarray, root: Cube, mover: int, sign: int,
                  rules: Rules, net: Net | NetSet) -> None:
    """The side on roll's 0-ply cube decision in each live game, and the answer to a double."""
    for v, o, mask in _by_cube(value[rows], owner[rows]):
        cube = Cube(v, None if o < 0 else o, mover, root.length, root.score, root.crawford, root.jacoby, root.table)
        if not cube.may_double():
            continue
        group = rows[mask]
        p = evaluate_boards(boards[group], rules, net, after=False)
        x = efficiencies(boards[group])
        nd = cubeful_values(p, cube, x)
        dt = cubeful_values(p, cube.doubled(), x) * (1.0 if cube.length else 2.0)
        dp = cube.plan().win[0] if cube.length else 1.0
        doubles = (dt >= nd) & (dp >= nd)
        passes = doubles & (dt > dp)
        doubled[group[doubles]] = True
        ended = group[passes]
        points[ended] = sign * v
        live[ended] = False
        passed[ended] = True
        takes = group[doubles & ~passes]
        value[takes] *= 2
        owner[takes] = 1 - mover


def _by_cube(value: np.ndarray, owner: np.ndarray) -> Iterator[tuple[int, int, np.ndarray]]:
    """Each (cube value, owner: -1 centred) found among the rows, with the mask of its rows."""
    keys = np.stack([value, owner], axis=1)
    for v, o in sorted({(int(a), int(b)) for a, b in keys}):
        yield v, o, (keys[:, 0] == v) & (keys[:, 1] == o)


def _luck(boards: np.ndarray, dice: np.ndarray, value: np.ndarray, owner: np.ndarray, mover: int, root: Cube,
          rules: Rules, net: Net | NetSet) -> np.ndarray:
    """The luck of each row's roll `dice` for the rollout's result: the value (`_values`) of the
    play the roll gets minus the average of that over the 21 rolls."""
    n = len(boards)
    rolls = np.tile(np.array(ROLLS, np.int8), (n, 1))
    children, offsets, _ = batch.generate(np.repeat(boards, len(ROLLS), axis=0), rolls, rules)
    theirs = evaluate_boards(children, rules, net, after=True)
    pick = segment_argmax(-raw_equity(theirs), offsets)
    every = _values(children[pick], theirs[pick], np.repeat(value, len(ROLLS)), np.repeat(owner, len(ROLLS)),
                    mover, root).reshape(n, len(ROLLS))
    low, high = np.minimum(dice[:, 0], dice[:, 1]), np.maximum(dice[:, 0], dice[:, 1])
    rolled = _ROLL_INDEX[low - 1, high - 1]
    luck: np.ndarray = every[np.arange(n), rolled] - every @ ROLL_WEIGHTS
    return luck


_ROLL_INDEX = np.zeros((6, 6), np.int64)  # (smaller die - 1, larger die - 1) -> index in ROLLS
_ROLL_INDEX[tuple(np.array(ROLLS).T - 1)] = np.arange(len(ROLLS))


def _values(results: np.ndarray, theirs: np.ndarray, value: np.ndarray, owner: np.ndarray, mover: int, root: Cube
            ) -> np.ndarray:
    """The 0-ply cubeful value of each play's result (the mover's view, before the turn passes;
    `theirs`: the other side's cubeless probabilities there), that side on roll with its own cube
    action, at each row's cube: points per starting cube to the starting side (money), or the
    starting side's MWC (match)."""
    x = efficiencies(batch.flip(np.ascontiguousarray(results, np.int8), Variant.SHORT))
    out = np.empty(len(results))
    for v, o, rows in _by_cube(value, owner):
        cube = Cube(v, None if o < 0 else o, 1 - mover, root.length, root.score, root.crawford, root.jacoby, root.table)
        own = leaf_values(theirs[rows], x[rows], [cube], False)[:, 0]   # for the side now on roll
        ours = cube.mover == root.mover
        if root.length:
            out[rows] = own if ours else 1.0 - own
        else:
            out[rows] = (own if ours else -own) * v / root.value
    return out


def _result(points: np.ndarray, doubled: np.ndarray, passed: np.ndarray, root: Cube,
            correction: np.ndarray | None = None) -> CubefulRollout:
    """The rollout's figures from each game's points (to the starting side), less its luck."""
    games = len(points)
    luck = np.zeros(games) if correction is None else correction
    if not root.length:
        per_cube = points / root.value - luck
        return CubefulRollout(float(per_cube.mean()), float(per_cube.std() / np.sqrt(games)), None, games,
                              float(doubled.mean()), float(passed.mean()), correction is not None)
    me = root.mover
    mwc = np.array([root.me(me, abs(int(k)), me if k > 0 else 1 - me) for k in points]) - luck
    win, lose = root.plan().win[0], root.plan().lose[0]
    scale = 2.0 / (win - lose) if win != lose else 0.0
    mean = float(mwc.mean())
    return CubefulRollout(equity_from_mwc(mean, root), float(mwc.std() / np.sqrt(games)) * scale, mean, games,
                          float(doubled.mean()), float(passed.mean()), correction is not None)


__all__ = ["CubefulRollout", "play", "rollout"]
