"""nardy as Gymnasium environments (needs the `gymnasium` extra); importing this module registers
`nardy/LongNardy-v0` and `nardy/ShortNardy-v0` for `gymnasium.make`.

`NardyEnv`: one game, a `gymnasium.Env` with a fixed action space and a legal-action mask.
An action is one checker step, `6 * (source - 1) + (distance - 1)` (150 actions): the checker
on `source` (the mover's point 1..24, or 25 for the bar in short nardy) moves `distance` pips
(1..6) to `source - distance`, or off the board when that is 0 (so a checker borne off from
point 3, with any die that may bear it off, is source 3, distance 3). A turn is one to four
steps, each a separate `step` of the same side, and the turn passes when its play is complete;
a roll that cannot be played passes by itself. The mask (`info["action_mask"]` and
`action_masks()`) is exactly the steps that begin, or continue, a legal play: every masked
sequence is a legal play, and every legal play is a masked sequence (all its orders). An action
outside the mask forfeits the game (reward -1, `info["illegal_action"]`) unless the env is made
with `illegal_action="raise"` (`IllegalMoveError`).

`GymnasiumVectorEnv`: `nardy.play.env.VectorEnv` (N games, one turn a step, afterstate actions) as a
`gymnasium.vector.VectorEnv`, with next-step (default) or same-step autoreset.
"""

from __future__ import annotations

import functools
import threading
from typing import Any, Callable, Sequence, TypeVar

import numpy as np
import numpy.typing as npt

try:
    import gymnasium
    from gymnasium.vector import AutoresetMode
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("nardy.play.gym needs gymnasium: pip install 'nardy[gymnasium]'") from exc

from .. import _backend as engine
from ..errors import GameOverError, IllegalMoveError, InvalidArgumentError, check_choice, is_whole
from ..formats.diagram import diagram
from ..position import Position
from .env import MAX_PLIES, OBSERVATION_FEATURES, VectorEnv, not_copyable
from ..rules import Color, Rules, Variant

ACTIONS = 150  # 25 sources x 6 distances
IDS = {Variant.LONG: "nardy/LongNardy-v0", Variant.SHORT: "nardy/ShortNardy-v0"}  # registered for gymnasium.make
SOURCES = 25
MAX_AFTERSTATES = {Variant.LONG: 17_550, Variant.SHORT: 20_475}  # see GymnasiumVectorEnv


def action(source: int, distance: int) -> int:
    """The action that moves the checker on `source` (25: the bar) `distance` pips (off at 0)."""
    return 6 * (source - 1) + distance - 1


def step_of(action: int) -> tuple[int, int]:
    """(from, to) of an action, mover's points, 25 the bar, 0 off."""
    source, distance = divmod(int(action), 6)
    return source + 1, source + 1 - (distance + 1)


Method = TypeVar("Method", bound=Callable[..., Any])


def _one_thread(method: Method) -> Method:
    """`method` run by one thread at a time: a call while another thread's is running raises
    `InvalidArgumentError` (the env's turn state is plain Python, changed step by step)."""
    @functools.wraps(method)
    def guarded(self: NardyEnv, *args: Any, **kwargs: Any) -> Any:
        if not self._busy.acquire(blocking=False):
            raise InvalidArgumentError(f"the NardyEnv is in use by another thread's call ({method.__name__} "
                                       f"refused): give each thread its own")
        try:
            return method(self, *args, **kwargs)
        finally:
            self._busy.release()

    return guarded  # type: ignore[return-value]


class NardyEnv(gymnasium.Env):
    """One game of long or short nardy, one checker step per `step`, seen by the side to act.

    Observation: int8 (30,), the mover's-view board (26: points 1..24, 25 the mover's bar, 0 the
    opponent's bar as a negative count) with the steps of this turn already played, then the
    dice still to play, larger first, 0 padded (four for a double; all 0 once the game is over).
    Reward: to the side that acted, +points when the step ended the game in its favour, -points
    when against it (long nardy with last_roll_draw: the other side's last roll failed), else
    0. `info`: "action_mask", "turn" (the colour to act, 0 White, 1 Black), "dice" (this turn's
    roll); when the game ends, "winner" (-1 a draw, -2 none: truncated), "points" and "plies".
    A game still going after `max_plies` turns is truncated.

    Threads: one thread at a time. A call (`reset`, `step`, `action_masks`, `afterstates`,
    `render`) made while another thread's is running raises `InvalidArgumentError`; the running
    one is unharmed. Give each thread its own env.

    Seeding: game after game, `reset(seed=s)` plays the games of `VectorEnv(rules, 1)` reset
    with `seed=s`, turn by turn.

    `rules` None: the default rules of `variant` (short nardy without it). `variant` is the one
    a registered id plays (`IDS`), so rules of the other variant are refused.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, rules: Rules | Variant | str | None = None, *, variant: Variant | str | None = None,
                 max_plies: int = MAX_PLIES, illegal_action: str = "lose", render_mode: str | None = None) -> None:
        check_choice(illegal_action, "illegal_action", ("lose", "raise"))
        check_choice(render_mode, "render_mode", (None, "ansi"))
        self.game = VectorEnv(_rules(rules, variant), 1, max_plies=max_plies)
        self.rules = self.game.rules
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        low = np.array([-15] * 26 + [0] * 4, np.int8)
        high = np.array([15] * 26 + [6] * 4, np.int8)
        self.observation_space = gymnasium.spaces.Box(low, high, (30,), np.int8)
        self.action_space = gymnasium.spaces.Discrete(ACTIONS)
        self._over = True
        self._busy = threading.Lock()

    # the Gymnasium interface -----------------------------------------------------------------
    @_one_thread
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """A new game (`seed` as in `VectorEnv.reset`): (observation, info)."""
        super().reset(seed=seed)
        self.game.reset(seed=seed, options=options)
        self._over = False
        self._begin_turn()
        ended = self._pass_while_stuck()
        if ended is not None:  # pragma: no cover - the start position always has a move
            raise GameOverError("the game ended before anyone could move")
        return self._observation(), self._info()

    @_one_thread
    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Play one checker step (action 0..149, see `step_of`): (observation, reward,
        terminated, truncated, info) as the class says; the turn passes after its last step.

        An action the mask forbids loses the game for the side that acted (reward -1, info
        "illegal_action") or, with ``illegal_action="raise"``, raises `IllegalMoveError`;
        a step after the game ended raises `GameOverError`.
        """
        if self._over:
            raise GameOverError("the game is over: call reset()")
        if not is_whole(action) or not 0 <= action < ACTIONS:
            raise InvalidArgumentError(f"action must be a whole number 0..{ACTIONS - 1}, got {action!r}")
        actor = self._turn
        if not self._mask[action]:
            if self.illegal_action == "raise":
                src, dst = step_of(action)
                raise IllegalMoveError(f"action {int(action)} ({src}/{dst or 'off'}) is not a legal step here")
            self._over = True
            info = self._info(winner=1 - actor, points=1, plies=int(self.game.plies[0]) + 1)
            info["illegal_action"] = True
            return self._observation(final=True), -1.0, True, False, info
        self._play(*step_of(action))
        if len(self._prefix) < self._length:
            return self._observation(), 0.0, False, False, self._info()
        result = self._afterstates.index(self._board.tobytes())
        reward, terminated, truncated, info = self._finish_turn(result, actor)
        return self._observation(final=terminated or truncated), reward, terminated, truncated, info

    @_one_thread
    def action_masks(self) -> npt.NDArray[np.bool_]:
        """(150,) bool: the legal actions now (as sb3-contrib's MaskablePPO asks for them)."""
        return np.copy(self._mask)

    @_one_thread
    def afterstates(self) -> npt.NDArray[np.int8]:
        """(k, 26) int8: the distinct results this turn can still reach (the mover's view, before
        the turn passes), one per legal play that begins with the steps played so far."""
        rows = {bytes(self._results[seq]) for seq in self._sequences if seq[:len(self._prefix)] == tuple(self._prefix)}
        ordered = [row for row in self._afterstates if row in rows]
        return np.copy(np.frombuffer(b"".join(ordered), np.int8).reshape(-1, 26))

    @_one_thread
    def render(self) -> str | None:
        """With ``render_mode="ansi"``, the ASCII board (docs/formats.md section 9) and the dice
        left to play; else None."""
        if self.render_mode != "ansi":
            return None
        dice = " ".join(str(d) for d in self._dice) or "-"
        position = Position(self._board.tobytes(), self.rules.variant, Color(self._turn), validate=False)
        return f"{diagram(position)}\n{Color(self._turn).name.lower()} to play {dice}\n"

    def close(self) -> None:
        """Nothing to release."""

    __reduce_ex__ = not_copyable  # holds a VectorEnv

    # turns -----------------------------------------------------------------------------------------
    def _begin_turn(self) -> None:
        game = self.game
        self._turn = int(game.colors[0])
        self._board = game.boards[0].copy()
        self._roll = tuple(int(d) for d in game.dice[0])
        found = engine.sequences(self._board.tobytes(), self._roll, self.rules, last_roll=bool(game.last_roll[0]))
        self._afterstates = [bytes(row) for row in game.afterstates]
        self._results = {}
        for child, seqs in found.items():
            for seq in seqs:
                self._results[seq] = child
        self._sequences = list(self._results)
        self._length = len(self._sequences[0])
        self._prefix: list[tuple[int, int]] = []
        d1, d2 = self._roll
        self._dice = [d1] * 4 if d1 == d2 else [d1, d2]
        self._update_mask()

    def _update_mask(self) -> None:
        self._mask = np.zeros(ACTIONS, np.bool_)
        k, prefix = len(self._prefix), tuple(self._prefix)
        for seq in self._sequences:
            if len(seq) > k and seq[:k] == prefix:
                src, dst = seq[k]
                self._mask[action(src, src - dst)] = True

    def _play(self, src: int, dst: int) -> None:
        """One step on the turn's board, using the die it needs (the smallest that bears off)."""
        b = self._board
        b[src] -= 1
        if dst:
            if b[dst] == -1 and self.rules.variant is Variant.SHORT:  # a hit: to the opponent's bar
                b[dst] = 0
                b[0] -= 1
            b[dst] += 1
        distance = src - dst
        die = distance if distance in self._dice else min(d for d in self._dice if d > distance)
        self._dice.remove(die)
        self._prefix.append((src, dst))
        self._update_mask()

    def _finish_turn(self, result: int, actor: int) -> tuple[float, bool, bool, dict[str, Any]]:
        """Play the turn's result in the game, then the passes that follow; the actor's reward."""
        outcome = self._advance(result, actor)
        if outcome is None:
            self._begin_turn()
            outcome = self._pass_while_stuck(actor)
        if outcome is None:
            return 0.0, False, False, self._info()
        return outcome

    def _advance(self, result: int, actor: int) -> tuple[float, bool, bool, dict[str, Any]] | None:
        mover = int(self.game.colors[0])
        _, rewards, terminated, truncated, info = self.game.step([result])
        if not (terminated[0] or truncated[0]):
            return None
        self._over = True
        self._board = info["afterstate"][0].copy() if mover == actor else \
            engine.compiled.flip_rows(np.ascontiguousarray(info["afterstate"][:1]), self.rules.variant)[0]
        self._dice = []
        self._mask = np.zeros(ACTIONS, np.bool_)
        reward = float(rewards[0]) if mover == actor else -float(rewards[0])
        extra = self._info(winner=int(info["winner"][0]), points=int(info["points"][0]), plies=int(info["plies"][0]))
        return reward, bool(terminated[0]), bool(truncated[0]), extra

    def _pass_while_stuck(self, actor: int | None = None) -> tuple[float, bool, bool, dict[str, Any]] | None:
        """Rolls that cannot be played pass by themselves (bounded: max_plies truncates)."""
        while self._length == 0:
            outcome = self._advance(0, self._turn if actor is None else actor)
            if outcome is not None:
                return outcome
            self._begin_turn()
        return None

    def _observation(self, final: bool = False) -> npt.NDArray[np.int8]:
        dice = [] if final else self._dice
        return np.concatenate([self._board, np.array(sorted(dice, reverse=True) + [0] * (4 - len(dice)), np.int8)])

    def _info(self, **end: int) -> dict[str, Any]:
        mask = np.zeros(ACTIONS, np.bool_) if self._over else self._mask.copy()
        return {"action_mask": mask, "turn": self._turn, "dice": self._roll, **end}


class GymnasiumVectorEnv(gymnasium.vector.VectorEnv):
    """N games of long or short nardy as a `gymnasium.vector.VectorEnv`, one turn a step.

    Actions are afterstate indices (`nardy.play.env.VectorEnv`): slot i's action k plays
    `afterstates[offsets[i] + k]`. How many a game has changes every turn: `action_space` is a
    MultiDiscrete whose `nvec` is set in place after every reset and step to the current counts,
    so `action_space.sample()` is a uniform legal action per game and `action_space.contains(a)`
    the legality test. `single_action_space` is Discrete(MAX_AFTERSTATES[variant]), a proven
    bound (a play's result is fixed by the multiset of its steps' sources, at most 25 of them in
    short nardy, 24 in long: a double's four steps give C(28, 4) = 20,475 and C(27, 4) = 17,550
    multisets, more than two steps of a non-double can): every afterstate index is inside it.

    autoreset_mode: NEXT_STEP (Gymnasium's default): the step that ends a game returns its final
    observation (its last afterstate, dice 0 0), and the next step ignores that slot's action
    and returns the new game's first observation with reward 0. SAME_STEP: the new game's
    observation at once, the final one in info["final_obs"], with info["final_info"] ("winner",
    "points", "plies"); masks "_final_obs", "_final_info". Either way the step where a game ends
    has "winner", "points" and "plies" in info (masked by "_winner" ...).

    `variant`, as in `NardyEnv`: the one a registered id plays; rules of the other are refused.
    """

    def __init__(
        self, rules: Rules | Variant | str | None, num_envs: int, *, variant: Variant | str | None = None,
        seed: int | Sequence[int] | None = None, observation: str = "board", max_plies: int = MAX_PLIES,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
    ) -> None:
        try:
            mode = AutoresetMode(autoreset_mode)
        except ValueError:
            mode = None
        if mode not in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
            raise InvalidArgumentError(f"autoreset_mode must be NEXT_STEP or SAME_STEP, got {autoreset_mode!r}")
        self.env = VectorEnv(_rules(rules, variant), num_envs, seed=seed, observation=observation, max_plies=max_plies)
        self.metadata = {"autoreset_mode": mode}
        self.num_envs = num_envs
        if observation == "board":
            low = np.array([-15] * 26 + [0, 0], np.int8)  # dice 0 0: a final observation
            high = np.array([15] * 26 + [6, 6], np.int8)
            self.single_observation_space = gymnasium.spaces.Box(low, high, (28,), np.int8)
        else:
            self.single_observation_space = gymnasium.spaces.Box(0.0, 7.5, (OBSERVATION_FEATURES,), np.float32)
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, num_envs)
        self.single_action_space = gymnasium.spaces.Discrete(MAX_AFTERSTATES[self.env.variant])
        self.action_space = gymnasium.spaces.MultiDiscrete(np.ones(num_envs, np.int64))
        self._resetting = np.zeros(num_envs, np.bool_)

    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None,
    ) -> tuple[Any, dict[str, Any]]:
        """A new game in every slot; `seed` one whole number or a list of one per game (see
        `nardy.play.env.VectorEnv.reset`)."""
        super().reset(seed=seed if is_whole(seed) else None)
        obs, info = self.env.reset(seed=seed, options=options)
        if is_whole(seed):
            self.action_space.seed(int(seed))
        self._resetting[:] = False
        self._update_actions()
        return obs, info

    def step(self, actions: npt.ArrayLike) -> tuple[Any, npt.NDArray[np.float64], npt.NDArray[np.bool_],
                                                    npt.NDArray[np.bool_], dict[str, Any]]:
        env = self.env
        with env._lock:
            if self.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP:
                obs, rewards, terminated, truncated, info = env._step(actions, None)
                if "final_obs" in info:
                    ended = info["_final_obs"]
                    info["final_info"] = {key: info[key] for key in ("winner", "points", "plies")} | \
                        {f"_{key}": ended for key in ("winner", "points", "plies")}
                    info["_final_info"] = ended
            else:
                obs, rewards, terminated, truncated, info = env._step(
                    actions, self._resetting if self._resetting.any() else None)
                ended = terminated | truncated
                if "final_obs" in info:
                    obs[ended] = info.pop("final_obs")[ended]
                    del info["_final_obs"]
                self._resetting = ended
            self._update_actions()
        return obs, rewards, terminated, truncated, info

    def _update_actions(self) -> None:
        self.action_space.nvec[...] = self.env.counts  # type: ignore[attr-defined]

    @property
    def afterstates(self) -> npt.NDArray[np.int8]:
        return self.env.afterstates

    @property
    def offsets(self) -> npt.NDArray[np.int64]:
        return self.env.offsets

    def afterstate_features(self, out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        """(total, 198) float32, see `nardy.play.env.encode`."""
        return self.env.afterstate_features(out)

    __reduce_ex__ = not_copyable  # holds a VectorEnv


def _rules(rules: Rules | Variant | str | None, variant: Variant | str | None) -> Rules:
    """`rules` (None: `variant`'s defaults, short nardy's without it), refused unless of `variant` when given."""
    fixed = None if variant is None else Variant.parse(variant)
    found = Rules.of((fixed or Variant.SHORT) if rules is None else rules)
    if fixed is not None and found.variant is not fixed:
        raise InvalidArgumentError(f"{IDS[fixed]} plays {fixed.value} nardy, got rules of {found.variant.value} "
                                   f"nardy {found!r} (make {IDS[found.variant]} for them)")
    return found


def _register() -> None:
    for variant, env_id in IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point="nardy.play.gym:NardyEnv",
                               kwargs={"rules": variant.value, "variant": variant.value},
                               vector_entry_point="nardy.play.gym:GymnasiumVectorEnv")


_register()


__all__ = [
    "ACTIONS", "GymnasiumVectorEnv", "IDS", "MAX_AFTERSTATES", "NardyEnv", "SOURCES", "action", "step_of",
]
