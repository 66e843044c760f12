"""The batched environment: full-turn steps per second for N = 1, 256 and 4096 games.

A step plays every game's chosen afterstate, scores and restarts ended games, rolls and
generates every game's next afterstates; actions are sampled uniformly in the core
(`sample_actions`), so a round is the loop a random agent runs, with no per-game Python.
The games are first played well past their openings so that the batch holds games at every
stage (long games start with one afterstate per roll). Encodings are measured separately.
"""

from __future__ import annotations

import numpy as np
import pytest

from conftest import per_item
from nardy import simulate
from nardy.play.env import VectorEnv

GAME_STEPS = {1: 2_000, 256: 20_000, 4096: 40_960}  # per round
WARM_UP = 300  # steps before timing


def warmed(variant: str, n: int, seed: int = 1, observation: str = "board") -> VectorEnv:
    env = VectorEnv(variant, n, seed=seed, observation=observation)
    env.reset()
    for _ in range(WARM_UP):
        env.step(env.sample_actions())
    return env


def play(env: VectorEnv, steps: int) -> int:
    ended = 0
    for _ in range(steps):
        _, _, terminated, _, _ = env.step(env.sample_actions())
        ended += int(terminated.sum())
    return ended


@pytest.mark.parametrize("n", [1, 256, 4096])
@pytest.mark.parametrize("variant", ["long", "short"])
def test_env_steps(benchmark, variant, n):
    benchmark.group = f"env-steps-{variant}"
    env = warmed(variant, n)
    steps = GAME_STEPS[n] // n
    ended = benchmark.pedantic(play, (env, steps), rounds=5, iterations=1)
    assert ended >= 0 and (env.counts >= 1).all()
    per_item(benchmark, steps * n, afterstates_per_step=len(env.afterstates) / n)


@pytest.mark.parametrize("variant", ["long", "short"])
def test_env_plays_simulates_games(variant):
    """What is timed is the real thing: slot 0 of the benchmark's environment plays simulate's games."""
    env = VectorEnv(variant, 4096, seed=1)
    env.reset()
    first = []
    while len(first) < 5:
        _, _, terminated, _, info = env.step(env.sample_actions())
        if terminated[0]:
            first.append((int(info["winner"][0]), int(info["points"][0]), int(info["plies"][0])))
    s = simulate(variant, 5, seed=1, chunk_size=5, threads=1)
    assert first == list(zip(s.winner.tolist(), s.kind.tolist(), s.plies.tolist()))


@pytest.mark.parametrize("what", ["afterstates", "observations"])
@pytest.mark.parametrize("variant", ["long", "short"])
def test_env_encodings(benchmark, variant, what):
    benchmark.group = f"env-encode-{variant}"
    env = warmed(variant, 4096)
    if what == "afterstates":  # into one reused array, as a learner would (a fresh one costs page faults)
        out = np.empty((2 * len(env.afterstates), 198), np.float32)
        features = benchmark.pedantic(env.afterstate_features, kwargs={"out": out}, rounds=10, iterations=1)
    else:
        features = benchmark.pedantic(env.observation_features, rounds=10, iterations=1)
    rows = len(env.afterstates) if what == "afterstates" else env.num_envs
    assert features.shape[0] == rows and features.dtype == np.float32 and np.isfinite(features).all()
    per_item(benchmark, rows)


@pytest.mark.parametrize("variant", ["long", "short"])
def test_gymnasium_vector_steps(benchmark, variant):
    """The Gymnasium adapter at N = 4096 with its default next-step autoreset: the core's step
    plus the adapter's final observations, skipped slots and action-space update."""
    pytest.importorskip("gymnasium")
    from nardy.play.gym import GymnasiumVectorEnv

    benchmark.group = f"env-steps-{variant}"
    env = GymnasiumVectorEnv(variant, 4096, seed=1)
    env.reset()
    for _ in range(WARM_UP // 3):
        env.step(env.env.sample_actions())

    def play_adapter(steps: int) -> int:
        ended = 0
        for _ in range(steps):
            _, _, terminated, truncated, _ = env.step(env.env.sample_actions())
            ended += int((terminated | truncated).sum())
        return ended

    steps = GAME_STEPS[4096] // 4096
    assert benchmark.pedantic(play_adapter, (steps,), rounds=5, iterations=1) >= 0
    per_item(benchmark, steps * 4096)


@pytest.mark.parametrize("variant", ["long", "short"])
def test_one_game_env_steps(benchmark, variant):
    """NardyEnv, one checker step per call (masked random actions): Python per step."""
    gymnasium = pytest.importorskip("gymnasium")
    import nardy.gym_env  # noqa: F401 - registers the ids

    benchmark.group = f"env-one-game-{variant}"
    env = gymnasium.make(f"nardy/{variant.capitalize()}Nardy-v0").unwrapped
    rng = np.random.default_rng(0)

    def play_steps(steps: int) -> int:
        _, info = env.reset(seed=1)
        games = 0
        for _ in range(steps):
            _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            if terminated or truncated:
                games += 1
                _, info = env.reset()
        return games

    assert benchmark.pedantic(play_steps, (2000,), rounds=3, iterations=1) >= 1
    per_item(benchmark, 2000)
