"""Cubeless rollouts: play a position out many times with the evaluator as the policy.

`rollout(position, games=1296, seed=1)` plays `games` games from `position` (its side on roll
to move first), every move the net's 0-ply choice, all games of a chunk at once (one move
generation and one evaluation per ply for the whole chunk, both in the core). Variance is
reduced two ways, as GNU Backgammon does:

- **stratified dice**: game j's first two rolls are rolls j mod 36 and (7 j + j div 36) mod 36
  of the 36 ordered rolls, so every 36 games play each first and each second roll once, and
  every 1296 games each pair of opening rolls exactly once;
- **luck adjustment** (`luck=True`, off by default for its cost): at every ply the luck of the roll is the equity of its best
  play minus the average of that over all 21 rolls (0-ply), and each game's result is corrected
  by the sum of its luck. This costs 21 evaluations of a ply instead of one.

Chunks run on local threads (`threads=`) or on a Dask cluster's workers (`executor=client`, as
for `simulate`). Results depend on the seed and `chunk_size` only, never on where the chunks
ran: chunk k draws from
`PCG64(SeedSequence(seed).spawn(n)[k])` and games j of the stratification are numbered across
chunks.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import batch, _backend as engine
from ..play import distributed
from ..errors import GameOverError, InvalidArgumentError, check_flag, check_whole
from ..play.simulate import SimulationError
from .net import (NetSet, OUTPUTS, ROLL_WEIGHTS, ROLLS, Net, boards_and_rules, evaluate_boards, finished_rows,
                  net_for, raw_equity, segment_argmax, swap_sides, won_outcomes)
from ..position import Position
from ..rules import Rules, Variant, rules_for
from ..play.threads import map_in_order

ORDERED_ROLLS: npt.NDArray[np.int8] = np.array([(a, b) for a in range(1, 7) for b in range(1, 7)], np.int8)
MAX_PLIES = 10_000        # no game of either variant comes near; a position that cannot end stops here
Z95 = 1.96                # a standard error times this: the 95% interval's half-width, as rollouts print it

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class RolloutResult:
    """The mean outcome of the games for the side on roll: `probs` in `nardy.evaluation.net.OUTPUTS`' order,
    the cubeless `equity`, and the standard errors of both (over games); printed, the equity's
    95% interval (`Z95` standard errors either side)."""

    probs: tuple[float, ...]
    equity: float
    equity_se: float
    probs_se: tuple[float, ...]
    games: int
    luck_adjusted: bool

    def __str__(self) -> str:
        cells = ", ".join(f"{name} {p:.4f}" for name, p in zip(OUTPUTS, self.probs))
        return f"equity {self.equity:+.4f} +- {Z95 * self.equity_se:.4f} (95%; {self.games} games): {cells}"


def rollout(position: Position, games: int = 1296, *, seed: int = 1, ply: int = 0, rules: Rules | None = None,
            net: Net | NetSet | None = None, luck: bool = False, threads: int = 1, chunk_size: int = 1296,
            executor: Any = None, progress: Callable[[int, int], None] | None = None) -> RolloutResult:
    """Roll `position` out over `games` games (see the module's docstring).

    `executor`, a `distributed.Client`, plays the chunks on its Dask cluster's workers instead of
    local threads (as `simulate` does): the same result for a seed. `progress`, if given, is
    called as progress(games_done, games) as games finish (after each ply of local play, from the
    thread playing it; after each chunk on a cluster); it never changes the result."""
    if not isinstance(position, Position):
        raise InvalidArgumentError(f"position must be a Position, got {type(position).__name__}")
    for name, value, low in (("games", games, 1), ("threads", threads, 1), ("chunk_size", chunk_size, 1),
                             ("seed", seed, 0)):
        check_whole(value, name, low)
    if isinstance(ply, bool) or not isinstance(ply, int) or ply != 0:
        raise InvalidArgumentError(f"rollouts play 0-ply moves; got ply={ply!r}")
    check_flag(luck, "luck")
    if progress is not None and not callable(progress):
        raise InvalidArgumentError(f"progress must be a function progress(games_done, games) or None, got {progress!r}")
    check_games_memory(games, 8 * len(OUTPUTS), "their outcomes")  # each game's outcomes, float64
    rules = rules_for(position.variant, rules)
    _refuse_last_roll_draw(rules)
    net = net_for(net, rules)
    if position.is_game_over():
        raise GameOverError(f"the game is over in {position!r}: nothing to roll out")
    start = np.frombuffer(position.to_bytes(), np.int8)
    sizes = [min(chunk_size, games - lo) for lo in range(0, games, chunk_size)]
    seeds = np.random.SeedSequence(seed).spawn(len(sizes))
    firsts = np.cumsum([0] + sizes[:-1])
    jobs = [(start, int(first) + np.arange(size), s, rules, net, luck) for size, first, s in zip(sizes, firsts, seeds)]
    finished = _counter(games, progress)
    if executor is not None:
        distributed.check_executor(executor, threads != 1)
        parts = distributed.run_in_order(executor, _job, jobs, f"nardy-rollout-seed{seed}",
                                         lambda part: finished(len(part)))
    elif threads == 1:
        parts = [_chunk(*job, finished=finished) for job in jobs]
    else:
        parts = _on_threads(lambda job, stop: _chunk(*job, stop=stop, finished=finished), jobs, threads)
    outcomes = np.concatenate(parts)
    eq = raw_equity(outcomes)  # luck-adjusted outcomes leave 0..1: not probabilities to check
    return RolloutResult(tuple(float(x) for x in outcomes.mean(axis=0)), float(eq.mean()),
                         float(eq.std(ddof=1) / np.sqrt(games)) if games > 1 else float("nan"),
                         tuple(float(x) for x in outcomes.std(axis=0, ddof=1) / np.sqrt(games)) if games > 1
                         else (float("nan"),) * len(OUTPUTS), games, luck)


def check_games_memory(games: int, per_game: int, what: str) -> None:
    """Refuse, before anything is allocated, `games` games of `per_game` bytes each (`what`: for
    what) that this machine's memory cannot hold."""
    need = games * per_game
    engine.check_memory(need, f"{games:,} games need {need:,} bytes for {what}", "roll out in parts")


def stratified_rolls(index: npt.NDArray[np.int64], ply: int) -> npt.NDArray[np.int8]:
    """The roll of ply 0 or 1 of the games numbered `index` (see the module's docstring): ordered
    rolls j mod 36, then (7 j + j div 36) mod 36."""
    which = index % 36 if ply == 0 else (7 * (index % 36) + index // 36) % 36
    rolls: npt.NDArray[np.int8] = ORDERED_ROLLS[which]
    return rolls


def _on_threads(play: Callable[[Any, threading.Event], Floats], jobs: list[Any], threads: int) -> list[Floats]:
    """play(job, stop) of every job on `threads` threads, the results in the jobs' order; on an
    interrupt (Ctrl-C) or an error `stop` is set, so the chunks still playing give up."""
    parts: list[Floats] = []
    stop = threading.Event()
    try:
        map_in_order(lambda job: play(job, stop), jobs, threads, parts.append)
    except BaseException:
        stop.set()
        raise
    return parts


def _counter(games: int, progress: Callable[[int, int], None] | None) -> Callable[[int], None]:
    """A function told how many more games have ended, which calls progress(done, games)."""
    if progress is None:
        return lambda ended: None
    lock, done = threading.Lock(), [0]

    def finished(ended: int) -> None:
        if ended:
            with lock:
                done[0] += ended
                progress(done[0], games)

    return finished


def _refuse_last_roll_draw(rules: Rules) -> None:
    """Rollouts play the game without long nardy's last_roll_draw: whether the last roll comes
    depends on who started the game, which a position does not tell."""
    if rules.variant is Variant.LONG and rules.last_roll_draw:
        raise InvalidArgumentError("rollouts play the game without last_roll_draw (whether the last roll comes "
                                   "depends on who started the game, which a position does not tell): give rules "
                                   "without it")


def _best(children: npt.NDArray[np.int8], offsets: npt.NDArray[np.int64], rules: Rules, net: Net | NetSet
          ) -> tuple[npt.NDArray[np.int64], Floats]:
    """For each row's results, the index of the best for the mover (the first on ties) and the
    mover's probabilities after it."""
    mover = swap_sides(evaluate_boards(children, rules, net, after=True))
    pick = segment_argmax(raw_equity(mover), offsets)
    return pick, mover[pick]


def _job(job: tuple[Any, ...]) -> Floats:
    """One chunk of a rollout, the unit of work sent to a Dask worker."""
    return _chunk(*job)


def _luck_direction(v: Floats) -> Floats:
    """A difference of the mover's probabilities seen by the other side (the linear part of swap_sides)."""
    out: Floats = v[..., [0, 3, 4, 1, 2]].copy()
    out[..., 0] = -v[..., 0]
    return out


def _chunk(start: npt.NDArray[np.int8], index: npt.NDArray[np.int64], seed: np.random.SeedSequence, rules: Rules,
           net: Net | NetSet, luck: bool, horizon: int | None = None, *, stop: threading.Event | None = None,
           finished: Callable[[int], None] | None = None) -> Floats:
    """The (luck-adjusted) outcomes of one game per entry of `index` (its number in the
    stratification) from `start` (one board for every game, or a board per game), for its side
    on roll. With a `horizon`, games still going after that many plies count the net's 0-ply
    probabilities there. `stop` set by another thread makes it give up after the ply it is
    playing (its outcomes then unused)."""
    rng = np.random.Generator(np.random.PCG64(seed))
    variant = rules.variant
    games = len(index)
    boards = np.repeat(start[None, :], games, axis=0) if start.ndim == 1 else start.copy()
    ours = np.ones(games, bool)               # is the side on roll the rollout's side?
    live = np.ones(games, bool)
    outcome = np.zeros((games, len(OUTPUTS)))
    correction = np.zeros((games, len(OUTPUTS)))
    for ply in range(MAX_PLIES if horizon is None else horizon):
        rows = np.flatnonzero(live)
        if rows.size == 0 or (stop is not None and stop.is_set()):
            return outcome - correction
        if ply < 2:
            dice = stratified_rolls(index[rows], ply)
        else:
            dice = rng.integers(1, 7, size=(rows.size, 2), dtype=np.int8)
        children, offsets, _ = batch.generate(boards[rows], dice, rules)
        pick, value = _best(children, offsets, rules, net)
        if luck:
            many = np.repeat(boards[rows], len(ROLLS), axis=0)
            every, every_offsets, _ = batch.generate(many, np.tile(np.array(ROLLS, np.int8), (rows.size, 1)), rules)
            _, every_value = _best(every, every_offsets, rules, net)
            mean = np.einsum("k,nkj->nj", ROLL_WEIGHTS, every_value.reshape(rows.size, len(ROLLS), len(OUTPUTS)))
            gained = value - mean                  # the mover's luck, in its own probabilities
            correction[rows] += np.where(ours[rows, None], gained, _luck_direction(gained))
        chosen = children[pick]
        over = finished_rows(chosen)
        if over.any():
            ended = rows[over]
            mover = won_outcomes(chosen[over], rules)  # only the side that moved can have finished
            outcome[ended] = np.where(ours[ended, None], mover, swap_sides(mover))
            live[ended] = False
            if finished is not None:
                finished(len(ended))
        going = rows[~over]
        boards[going] = batch.flip(chosen[~over], variant)
        ours[going] = ~ours[going]
    rows = np.flatnonzero(live)
    if horizon is None and rows.size:
        raise SimulationError(f"rollout: {rows.size} games still running after {MAX_PLIES} plies "
                              f"(a position neither side can finish?)")
    if rows.size:
        on_roll = evaluate_boards(boards[rows], rules, net, after=False)
        outcome[rows] = np.where(ours[rows, None], on_roll, swap_sides(on_roll))
        if finished is not None:
            finished(rows.size)
    return outcome - correction


def rollout_boards(positions: Any, trials: int = 36, *, variant: Variant | str | None = None,
                   rules: Rules | Variant | str | None = None, horizon: int | None = None, seed: int = 1,
                   net: Net | NetSet | None = None, luck: bool = False, threads: int = 1, chunk_size: int = 4096,
                   progress: Callable[[int, int], None] | None = None) -> Floats:
    """Many positions rolled out at once: (n, 5) the mean outcome probabilities (in `OUTPUTS`'
    order, for the side on roll) of `trials` games from each position (`Position`s, or an
    (n, 26) array of boards from the side on roll's view with `variant=` or `rules=`; none over).

    The games are those of `rollout` (0-ply play, the first two rolls stratified over each
    position's trials, `luck` adjustment), cut after `horizon` plies if given, where the games
    still going count the net's 0-ply probabilities. Chunks of about `chunk_size` games (whole
    positions) run on `threads` threads; the result depends on the seed and chunk_size only.
    Luck-adjusted means can leave [0, 1] by a little. `progress(games_done, games)` as for `rollout`."""
    boards, rules = boards_and_rules(positions, variant, rules)
    _refuse_last_roll_draw(rules)
    for name, value, low in (("trials", trials, 1), ("threads", threads, 1), ("chunk_size", chunk_size, 1),
                             ("seed", seed, 0)):
        check_whole(value, name, low)
    if horizon is not None:
        check_whole(horizon, "horizon", 1)
    check_flag(luck, "luck")
    if progress is not None and not callable(progress):
        raise InvalidArgumentError(f"progress must be a function progress(games_done, games) or None, got {progress!r}")
    net = net_for(net, rules)
    over = finished_rows(boards)
    if over.any():
        raise GameOverError(f"row {int(np.flatnonzero(over)[0])} is a finished game: nothing to roll out")
    games = len(boards) * trials
    per_chunk = max(1, chunk_size // trials)
    lows = range(0, len(boards), per_chunk)
    playing = min(per_chunk, len(boards)) * trials * min(threads, len(lows))   # on the threads that have a chunk
    need = playing * (26 + 2 * 8 * len(OUTPUTS))   # each game's board, outcome and luck, on every thread
    engine.check_memory(need, f"{playing:,} games at once need {need:,} bytes",
                        "roll out fewer trials at once, or on fewer threads")
    seeds = np.random.SeedSequence(seed).spawn(len(lows))
    finished = _counter(games, progress)

    def chunk(job: tuple[int, np.random.SeedSequence], stop: threading.Event) -> Floats:
        lo, chunk_seed = job
        part = boards[lo:lo + per_chunk]
        outcomes = _chunk(np.repeat(part, trials, axis=0), np.tile(np.arange(trials), len(part)), chunk_seed, rules,
                          net, luck, horizon, stop=stop, finished=finished)
        means: Floats = outcomes.reshape(len(part), trials, len(OUTPUTS)).mean(axis=1)
        return means

    parts = _on_threads(chunk, list(zip(lows, seeds)), threads)
    return np.concatenate(parts) if parts else np.zeros((0, len(OUTPUTS)))


__all__ = ["RolloutResult", "rollout", "rollout_boards", "stratified_rolls"]
