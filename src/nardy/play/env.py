"""A batched environment over N concurrent games, for reinforcement learning by afterstates.

Each of the `num_envs` game slots plays one game after another of the same variant and rules.
The action of a slot is the index of one of its **afterstates**: the distinct positions its
mover can reach with the rolled dice (`afterstates[offsets[i]:offsets[i+1]]`, each the
mover's-view array after the move, before the turn passes). A roll that cannot be played has
exactly one afterstate, the unchanged board, so every slot always has at least one action and
a pass is an ordinary step. One `step` plays every slot's chosen afterstate, scores the games
that end, starts a new game in their slots (autoreset in the same step, Gymnasium's "same-step"
mode), passes the turn, rolls the next mover's dice and generates every slot's afterstates,
all in the compiled core without the GIL.

With `start=` (a Position), every game of every slot is played on from that position, its
side on roll rolling at once (a rollout, as `simulate(start=)` plays them).

No game runs forever: one still going after `max_plies` plies (default 10,000; random games
last 40 to 400) is truncated, Gymnasium's `truncated`, scored as nothing and restarted. A
start position that could never be left (short nardy: both sides on the bar against closed
boards, `Status.BOTH_SHUT_OUT`) is refused with `InvalidPositionError`.

Threads: an environment is stepped by one thread at a time. Calls from several threads are
serialised by one lock (each step is whole, every method and property reads the games under it,
and memory is never corrupted), so sharing one only costs waiting; give each thread its own
environment to run in parallel. Before `reset()` every read of the games raises "call reset()
first".

Rewards are the view of the side that moved: +points when its move won the game, -points when
the game ended against it (long nardy with last_roll_draw: the last roll failed to draw), 0
otherwise and for a draw; the other side's reward is the negative (zero-sum). Points are the
variant's: oin 1 / mars 2 / koks 3 (koks only with the option), single 1 / gammon 2 /
backgammon 3. The doubling cube takes no part (and neither does `next_starter`: every new game
of a slot starts with a roll-off, as docs/rules.md section 6 begins a game).

Seeding: slot i rolls with `PCG64(SeedSequence(seed, spawn_key=(i,)))` (that is,
`SeedSequence(seed).spawn(n)[i]`), so a slot's games depend only on the seed, its index and
the actions played in it, never on `num_envs`: slots 0..3 of an 8-game environment play the
same games as a 4-game environment given the same actions. `sample_actions()` draws from the
same per-slot streams, the way `nardy.simulate` draws for its "random" policy, so slot i
playing sampled actions plays exactly the games of simulate's chunk i (and playing action 0,
those of policy "first").
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn

import numpy as np
import numpy.typing as npt

from .. import _backend as engine
from ..errors import GameOverError, InvalidArgumentError, InvalidPositionError, check_choice, check_whole, is_whole, quoted
from ..position import Position
from ..rules import Color, Rules, Variant
from ..status import Status, describe

if TYPE_CHECKING:
    from .. import _env

OBSERVATIONS = ("board", "features")
BOARD_FEATURES = 198
OBSERVATION_FEATURES = 210
MAX_PLIES = 10_000
GAME_BYTES = 2048  # what one game slot holds: its state, generator and first afterstate rows (about)


def encode(
    boards: npt.ArrayLike, variant: Variant | str, *, on_roll: bool = True, dice: npt.ArrayLike | None = None,
    out: npt.NDArray[np.float32] | None = None,
) -> npt.NDArray[np.float32]:
    """TD-Gammon's 198 input units for each board (an (m, 26) mover's-view array), float32 (m, 198).

    The board is seen by "us" (its positive checkers); `on_roll` says whether we are on roll
    (a position before our move: True) or the other side is (an afterstate: False). With `dice`
    ((m, 2), 1..6) twelve units follow: the larger die one-hot, then the smaller (m, 210).

    Units 0..97 are ours, 98..195 theirs, each side's in its own point numbers (point q of a
    side is its mover-relative point q, q = 1..24):

    - 4(q-1) .. 4(q-1)+3: n checkers on point q as 1[n>=1], 1[n>=2], 1[n>=3], (n-3)/2 if n > 3;
    - short nardy: 96 the bar / 2, 97 borne off / 15;
    - long nardy (no bar): 96 borne off / 15, 97 1 while all 15 are still on the head
      (the side's first turn, when the head rule's exception may apply).

    Units 196 and 197: 1 if we are on roll, 1 if they are.

    `out`: a C-contiguous float32 array of at least m rows of that width to write into (its
    first m rows are returned); reusing one saves allocating a large array per call.

    Raises `InvalidPositionError` for boards with impossible checker counts (the checks of
    docs/rules.md section 8 other than the six-block rule), `InvalidArgumentError` for an
    `on_roll` other than True or False, bad `dice` or `out`.
    """
    variant = Variant.parse(variant)
    if not isinstance(on_roll, (bool, np.bool_)):
        raise InvalidArgumentError(f"on_roll is True (we are on roll) or False (an afterstate), got {quoted(on_roll)}")
    array = _boards(boards)
    rules = Rules(variant) if variant is Variant.SHORT else Rules(variant, block_rule="none")
    found = engine.compiled.status_rows(array, rules)
    bad = np.flatnonzero(found)
    if bad.size:
        i = int(bad[0])
        raise InvalidPositionError(f"board {i} {tuple(array[i].tolist())!r}: {'; '.join(describe(Status(int(found[i]))))}")
    rolled = None
    if dice is not None:
        rolled = np.asarray(dice)
        if rolled.shape != (len(array), 2) or rolled.dtype.kind not in "iu" or ((rolled < 1) | (rolled > 6)).any():
            raise InvalidArgumentError(f"dice must be an ({len(array)}, 2) array of whole numbers 1..6, got {rolled!r}")
        rolled = np.ascontiguousarray(rolled, np.int8)
    width = BOARD_FEATURES if rolled is None else OBSERVATION_FEATURES
    return engine.compiled.encode(array, 0 if variant is Variant.LONG else 1, bool(on_roll), rolled, _rows(out, len(array), width))


def _rows(out: npt.NDArray[np.float32] | None, rows: int, width: int) -> npt.NDArray[np.float32] | None:
    """The first `rows` rows of a caller's output array, checked."""
    if out is None:
        return None
    if (not isinstance(out, np.ndarray) or out.dtype != np.float32 or out.ndim != 2 or out.shape[1] != width
            or out.shape[0] < rows or not out.flags.c_contiguous or not out.flags.writeable):
        shape = getattr(out, "shape", None)
        raise InvalidArgumentError(f"out must be a writeable C-contiguous float32 array of at least ({rows}, {width}), "
                                   f"got {type(out).__name__} {shape}")
    return out[:rows]


def _boards(boards: npt.ArrayLike) -> npt.NDArray[np.int8]:
    array = np.asarray(boards)
    if array.ndim != 2 or array.shape[1] != 26 or array.dtype.kind not in "iu":
        raise InvalidPositionError(f"boards must be an (m, 26) integer array, got shape {array.shape} of {array.dtype}")
    outside = np.flatnonzero((np.abs(array) > 15).any(axis=1))
    if outside.size:
        i = int(outside[0])
        raise InvalidPositionError(f"board {i} {tuple(array[i].tolist())!r}: a point or bar holds at most 15 checkers")
    return np.ascontiguousarray(array, np.int8)


def not_copyable(env: Any, protocol: Any = None) -> NoReturn:
    """`__reduce_ex__` of VectorEnv and of every class that holds one (gym_env's NardyEnv and
    GymnasiumVectorEnv): copy.copy, copy.deepcopy and pickle are refused, for the games live in
    the core and a shallow copy would play them on as the original's."""
    raise InvalidArgumentError(f"a {type(env).__name__} cannot be copied or pickled: its games live in the compiled "
                               "core; make another with the same arguments and seed")


class VectorEnv:
    """`num_envs` concurrent games of one variant, stepped together by afterstate actions.

    >>> env = VectorEnv("short", 4, seed=1)
    >>> obs, info = env.reset()
    >>> obs.shape, int(env.counts.min()) >= 1
    ((4, 28), True)
    >>> obs, rewards, terminated, truncated, info = env.step(env.sample_actions())

    observation="board" (default): each slot's row is the mover's-view board (26 int8) and its
    dice, larger first (int8 (num_envs, 28)); "features": `encode` with the dice (float32
    (num_envs, 210)). Arrays returned by `step` and `reset` are fresh; the properties
    (`afterstates`, `offsets`, `boards`, ...) are read-only views that the next step overwrites.
    """

    def __init__(
        self, rules: Rules | Variant | str, num_envs: int, *, seed: int | Sequence[int] | None = None,
        observation: str = "board", max_plies: int = MAX_PLIES, start: Position | None = None,
    ) -> None:
        self.rules = rules if isinstance(rules, Rules) else Rules(rules)
        check_whole(num_envs, "num_envs", 1)
        check_choice(observation, "observation", OBSERVATIONS)
        check_whole(max_plies, "max_plies", 1, 2**31 - 1)
        _check_memory(num_envs)
        self.num_envs = num_envs
        self.observation = observation
        self.max_plies = max_plies
        self.seed = self._seeds(seed)
        self._lock = threading.RLock()  # reentrant: a locked method may call another
        first_mover, view = self._start(start)
        koks = self.rules.variant is Variant.LONG and self.rules.koks
        try:
            self._games = engine.compiled.Games(num_envs, engine.core_rules(self.rules), koks,
                                                self.rules.opening == "dice", view, self._generators(self.seed),
                                                max_plies, first_mover)
        except MemoryError as exc:
            raise InvalidArgumentError(_memory_message(num_envs, "could not be allocated")) from exc
        self._started = False

    @property
    def variant(self) -> Variant:
        return self.rules.variant

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (28,) if self.observation == "board" else (OBSERVATION_FEATURES,)

    def _start(self, start: Position | None) -> tuple[int, npt.NDArray[np.int8]]:
        """(first mover, its view): -1 and the start position for new games with a roll-off."""
        if start is None:
            return -1, np.frombuffer(Position.start(self.rules.variant).to_bytes(), np.int8)
        if not isinstance(start, Position) or start.variant is not self.rules.variant:
            raise InvalidArgumentError(f"start must be a {self.rules.variant.value} nardy Position, got {start!r}")
        start.validate(self.rules)
        if start.is_game_over():
            raise GameOverError(f"the game is over in the start position {start!r}")
        return int(start.turn), np.frombuffer(start.to_bytes(), np.int8)

    def _seeds(self, seed: int | Sequence[int] | None) -> int | tuple[int, ...]:
        """One seed for all slots, or one per slot (a list, as Gymnasium's vector envs take)."""
        if seed is None or is_whole(seed):
            return _seed(seed)
        if isinstance(seed, (str, bytes)) or not isinstance(seed, Sequence) or len(seed) != self.num_envs:
            raise InvalidArgumentError(f"seed must be a whole number >= 0 or a list of {self.num_envs} of them, "
                                       f"got {seed!r}")
        return tuple(_seed(s) for s in seed)

    def _generators(self, seed: int | tuple[int, ...]) -> list[np.random.PCG64]:
        if isinstance(seed, tuple):  # slot i plays the games of a one-game environment seeded seed[i]
            return [np.random.PCG64(np.random.SeedSequence(s, spawn_key=(0,))) for s in seed]
        return [np.random.PCG64(s) for s in np.random.SeedSequence(seed).spawn(self.num_envs)]

    # the Gymnasium-style interface -------------------------------------------------------------
    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None,
    ) -> tuple[Any, dict[str, Any]]:
        """A new game in every slot; (observations, info). With `seed`, every slot is re-seeded
        first: one whole number for all (slot i draws from `SeedSequence(seed).spawn(n)[i]`), or
        a list of one per slot (slot i then plays the games of a one-game environment seeded
        `seed[i]`); without, the slots' streams go on from where they are."""
        if options is not None and not (isinstance(options, dict) and not options):
            raise InvalidArgumentError(f"reset takes no options (None or {{}}), got {quoted(options)}")
        seeds = None if seed is None else self._seeds(seed)
        with self._lock:
            if seeds is not None:
                self.seed = seeds
                self._games.seed(self._generators(seeds))
            self._games.reset()
            self._started = True
            return self._observations(), {}

    def step(self, actions: npt.ArrayLike) -> tuple[Any, npt.NDArray[np.float64], npt.NDArray[np.bool_],
                                                    npt.NDArray[np.bool_], dict[str, Any]]:
        """Play afterstate `actions[i]` in every slot i.

        Returns (observations, rewards, terminated, truncated, info). A slot whose game ended
        has terminated=True, or truncated=True when it reached `max_plies` unfinished, and
        already holds a new game (its observation is the new game's). Then info has, each with
        a "_key" mask (= terminated | truncated): "final_obs", the ended game's last afterstate
        as an observation (dice 0 0: no roll; in "features" encoded as an afterstate, the other
        side on roll), "winner", the winning colour (0 White, 1 Black, -1 a draw, -2 none:
        truncated), "points", the game's points, and "plies", its length. info["afterstate"]
        is every slot's played afterstate.

        Raises `InvalidArgumentError` for actions of the wrong shape or type, or naming the
        first game whose action is not the index of one of its afterstates.
        """
        with self._lock:
            return self._step(actions, None)

    def _step(self, actions: npt.ArrayLike, skip: npt.NDArray[np.bool_] | None) -> tuple[
            Any, npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]]:
        """`step`, leaving the slots where `skip` is set as they are (their actions are not read)."""
        self._ready("step()")
        array = np.asarray(actions)
        if array.shape != (self.num_envs,) or array.dtype.kind not in "iu":
            raise InvalidArgumentError(
                f"actions must be {self.num_envs} whole numbers (one afterstate index per game), "
                f"got shape {array.shape} of {array.dtype}"
            )
        if array.dtype != np.int64:
            if array.dtype.kind == "u" and array.size and array.max() > np.iinfo(np.int64).max:
                raise InvalidArgumentError(f"action {array.max()} is out of range")
            array = array.astype(np.int64)
        bad = self._games.step(np.ascontiguousarray(array), None if skip is None else skip.view(np.uint8))
        if bad >= 0:
            raise InvalidArgumentError(
                f"game {bad}: action {int(array[bad])} is not one of its {int(self.counts[bad])} afterstates "
                f"(0..{int(self.counts[bad]) - 1})"
            )
        g = self._games
        terminated, truncated = g.terminated.copy(), g.truncated.copy()
        info: dict[str, Any] = {"afterstate": g.chosen.copy()}
        ended = terminated | truncated
        if ended.any():
            done = np.flatnonzero(ended)
            final = np.zeros((self.num_envs, *self.observation_shape), np.int8 if self.observation == "board" else np.float32)
            if self.observation == "board":
                final[done, :26] = g.chosen[done]
            else:
                final[done, :BOARD_FEATURES] = _encoded(g.chosen[done], self.variant)
            info.update({
                "final_obs": final, "_final_obs": ended,
                "winner": np.where(terminated, g.winners, -2).astype(np.int8), "_winner": ended,
                "points": np.where(terminated, g.points, 0).astype(np.int8), "_points": ended,
                "plies": np.where(ended, g.lengths, 0).astype(np.int32), "_plies": ended,
            })
        return self._observations(), g.rewards.copy(), terminated, truncated, info

    def _ready(self, what: str) -> _env.Games:
        """The core's games, once `reset` has started them (callers hold the lock)."""
        if not self._started:
            raise InvalidArgumentError(f"call reset() first: {what} needs the games it starts")
        return self._games

    def _observations(self) -> Any:
        if self.observation == "board":
            return self._games.state.copy()
        return self.observation_features()

    # choosing actions ----------------------------------------------------------------------------
    @property
    def afterstates(self) -> npt.NDArray[np.int8]:
        """(total, 26) int8: every slot's afterstates, slot i's at rows offsets[i]:offsets[i+1]."""
        with self._lock:
            return _read_only(self._ready("afterstates").afterstates)

    @property
    def offsets(self) -> npt.NDArray[np.int64]:
        """(num_envs + 1,) int64: where each slot's afterstates start in `afterstates`."""
        with self._lock:
            return _read_only(self._ready("offsets").offsets)

    @property
    def counts(self) -> npt.NDArray[np.int64]:
        """(num_envs,) int64: each slot's number of afterstates (its actions are 0..count-1)."""
        with self._lock:
            return np.diff(self._ready("counts").offsets)

    def afterstate_features(self, out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        """(total, 198) float32: `encode` of every afterstate, from the side that moves, the other
        side on roll; `out` as in `encode` (e.g. one array of generous size, reused every step)."""
        with self._lock:
            games = self._ready("afterstate_features()")
            return games.afterstate_features(_rows(out, len(games.afterstates), BOARD_FEATURES))

    def observation_features(self) -> npt.NDArray[np.float32]:
        """(num_envs, 210) float32: `encode` of every slot's board and dice, the mover on roll."""
        with self._lock:
            return self._ready("observation_features()").observation_features()

    def best_actions(self, values: npt.ArrayLike) -> npt.NDArray[np.int64]:
        """Given one number per afterstate (e.g. a value function of `afterstate_features()`),
        each slot's action with the highest (the first on ties): the greedy policy."""
        array = np.asarray(values)
        with self._lock:  # the count checked is the one the core reads: no step comes between
            games = self._ready("best_actions()")
            total = len(games.afterstates)
            if array.shape != (total,) or array.dtype.kind not in "iuf" or not np.isfinite(array).all():
                raise InvalidArgumentError(f"values must be {total} finite numbers, one per afterstate, "
                                           f"got shape {array.shape} of {array.dtype}")
            return games.argmax(np.ascontiguousarray(array, np.float64))

    def sample_actions(self) -> npt.NDArray[np.int64]:
        """A uniform random afterstate index per slot, drawn from the slot's own stream."""
        with self._lock:
            return self._ready("sample_actions()").sample()

    # the state -------------------------------------------------------------------------------------
    @property
    def boards(self) -> npt.NDArray[np.int8]:
        """(num_envs, 26) int8: each slot's board in the view of its side on roll."""
        with self._lock:
            return _read_only(self._ready("boards").state[:, :26])

    @property
    def dice(self) -> npt.NDArray[np.int8]:
        """(num_envs, 2) int8: each slot's roll for this turn, larger first."""
        with self._lock:
            return _read_only(self._ready("dice").state[:, 26:])

    @property
    def colors(self) -> npt.NDArray[np.int8]:
        """(num_envs,) int8: the colour on roll (0 White, 1 Black)."""
        with self._lock:
            return _read_only(self._ready("colors").colors)

    @property
    def starters(self) -> npt.NDArray[np.int8]:
        """(num_envs,) int8: the colour that won each game's roll-off."""
        with self._lock:
            return _read_only(self._ready("starters").starters)

    @property
    def plies(self) -> npt.NDArray[np.int32]:
        """(num_envs,) int32: turns played so far in each slot's game (passes included)."""
        with self._lock:
            return _read_only(self._ready("plies").plies)

    @property
    def last_roll(self) -> npt.NDArray[np.bool_]:
        """(num_envs,) bool: long nardy with last_roll_draw, this turn is the other side's last roll."""
        with self._lock:
            return _read_only(self._ready("last_roll").last_roll)

    def position(self, i: int) -> Position:
        """Slot i's position (the side on roll's colour fixes the absolute numbering)."""
        if not is_whole(i) or not 0 <= i < self.num_envs:
            raise InvalidArgumentError(f"game index must be 0..{self.num_envs - 1}, got {i!r}")
        with self._lock:
            games = self._ready("position()")
            return Position(games.state[i, :26].tobytes(), self.variant, Color(int(games.colors[i])), validate=False)

    def close(self) -> None:
        """Nothing to release (present for Gymnasium's interface)."""

    def __repr__(self) -> str:
        return f"VectorEnv({self.rules!r}, {self.num_envs}, seed={self.seed})"

    __reduce_ex__ = not_copyable


def _encoded(boards: npt.NDArray[np.int8], variant: Variant) -> npt.NDArray[np.float32]:
    return engine.compiled.encode(np.ascontiguousarray(boards), 0 if variant is Variant.LONG else 1, False)


def _read_only(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
    view: npt.NDArray[Any] = array.view()
    view.flags.writeable = False
    return view


def _check_memory(num_envs: int) -> None:
    """Refuse, before allocating anything, an environment larger than this machine's memory."""
    memory = engine.machine_memory()
    if num_envs >= 2**31 or (memory is not None and num_envs * GAME_BYTES > memory):
        raise InvalidArgumentError(_memory_message(num_envs, f"more than this machine's {memory:,} bytes"
                                                   if memory else "more than one environment holds"))


def _memory_message(num_envs: int, why: str) -> str:
    return (f"num_envs={num_envs:,} games need about {num_envs * GAME_BYTES:,} bytes ({GAME_BYTES} a game), {why}; "
            f"use fewer games per environment")


def _seed(seed: int | None) -> int:
    if seed is None:
        return int(np.random.SeedSequence().entropy)  # type: ignore[arg-type]
    check_whole(seed, "seed", 0, kinds=(int, np.integer))
    return int(seed)


__all__ = ["BOARD_FEATURES", "MAX_PLIES", "OBSERVATION_FEATURES", "VectorEnv", "encode"]
