"""`nardy.env.VectorEnv` as a Gymnasium vector environment (needs the `gymnasium` extra).

It follows `gymnasium.vector.VectorEnv`: `reset(seed=, options=)` -> (obs, info),
`step(actions)` -> (obs, rewards, terminations, truncations, info), batched spaces, and
metadata["autoreset_mode"] = AutoresetMode.SAME_STEP: a game that ends is restarted within
the same step, its last afterstate is in info["final_obs"] (with the mask info["_final_obs"]).

Actions are afterstate indices, and how many a game has changes every turn: `action_space` is
a MultiDiscrete whose `nvec` is set in place after every reset and step to the current counts,
so `action_space.sample()` is a uniform legal action per game and `action_space.contains(a)`
the legality test. `single_action_space` is Discrete(2**31 - 1), a bound only.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

try:
    import gymnasium
    from gymnasium.vector import AutoresetMode
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("nardy.env.GymnasiumVectorEnv needs gymnasium: pip install 'nardy[gymnasium]'") from exc

from .env import OBSERVATION_FEATURES, VectorEnv
from .rules import Rules, Variant

MAX_ACTIONS = 2**31 - 1


class GymnasiumVectorEnv(gymnasium.vector.VectorEnv):  # type: ignore[misc]
    """N games of long or short nardy as a `gymnasium.vector.VectorEnv` (afterstate actions).

    The nardy environment itself is `.env` (its afterstates, offsets, encodings and state).
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self, rules: Rules | Variant | str, num_envs: int, *, seed: int | None = None, observation: str = "board",
    ) -> None:
        self.env = VectorEnv(rules, num_envs, seed=seed, observation=observation)
        self.num_envs = num_envs
        if observation == "board":
            low = np.array([-15] * 26 + [1, 1], np.int8)
            high = np.array([15] * 26 + [6, 6], np.int8)
            self.single_observation_space = gymnasium.spaces.Box(low, high, (28,), np.int8)
        else:
            self.single_observation_space = gymnasium.spaces.Box(0.0, 7.5, (OBSERVATION_FEATURES,), np.float32)
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, num_envs)
        self.single_action_space = gymnasium.spaces.Discrete(MAX_ACTIONS)
        self.action_space = gymnasium.spaces.MultiDiscrete(np.ones(num_envs, np.int64))

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self.action_space.seed(seed)
        obs, info = self.env.reset(seed=seed, options=options)
        self._update_actions()
        return obs, info

    def step(self, actions: npt.ArrayLike) -> tuple[Any, npt.NDArray[np.float64], npt.NDArray[np.bool_],
                                                    npt.NDArray[np.bool_], dict[str, Any]]:
        result = self.env.step(actions)
        self._update_actions()
        return result

    def _update_actions(self) -> None:
        self.action_space.nvec[...] = self.env.counts  # type: ignore[attr-defined]

    @property
    def afterstates(self) -> npt.NDArray[np.int8]:
        return self.env.afterstates

    @property
    def offsets(self) -> npt.NDArray[np.int64]:
        return self.env.offsets

    def afterstate_features(self) -> npt.NDArray[np.float32]:
        """(total, 198) float32, see `nardy.env.encode`."""
        return self.env.afterstate_features()
