"""The Gymnasium environments: the one-game env (fixed actions, masks, check_env, registration) and
the vector adapter (autoreset modes, spaces, seeds, final info), each under Gymnasium's wrappers."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402

from nardy import GameOverError, IllegalMoveError, InvalidArgumentError, Rules  # noqa: E402
from nardy import _backend as engine  # noqa: E402
from nardy.play.env import VectorEnv  # noqa: E402
from nardy.play.gym import ACTIONS, MAX_AFTERSTATES, GymnasiumVectorEnv, NardyEnv, action, step_of  # noqa: E402

IDS = {"long": "nardy/LongNardy-v0", "short": "nardy/ShortNardy-v0"}


def masked(info_or_mask):
    mask = info_or_mask["action_mask"] if isinstance(info_or_mask, dict) else info_or_mask
    return np.flatnonzero(mask)


def walk(env):
    """Every masked step sequence from the env's turn state: {sequence: result board}."""
    found = {}
    state = (env._board.copy(), list(env._dice), list(env._prefix))

    def dfs():
        if len(env._prefix) == env._length:
            found[tuple(env._prefix)] = env._board.tobytes()
            return
        saved = (env._board.copy(), list(env._dice), list(env._prefix))
        for a in masked(env.action_masks()):
            env._play(*step_of(a))
            dfs()
            env._board, env._dice, env._prefix = saved[0].copy(), list(saved[1]), list(saved[2])
            env._update_mask()

    dfs()
    env._board, env._dice, env._prefix = state
    env._update_mask()
    return found


@pytest.mark.parametrize("rules", [Rules("short"), Rules("long"), Rules("long", block_timing="end", head_exception="permission")],
                         ids=repr)
@pytest.mark.slow
def test_the_mask_covers_exactly_the_legal_plays(rules):
    """Following the mask from a turn's start gives every legal step sequence the move generator
    lists (every order) and no other, each ending on its result."""
    env = NardyEnv(rules)
    rng = np.random.default_rng(1)
    obs, info = env.reset(seed=3)
    turns = 0
    while turns < 15:
        board, dice = obs[:26].tobytes(), env._roll
        legal = engine.sequences(board, dice, rules, last_roll=bool(env.game.last_roll[0]))
        expected = {seq: child for child, seqs in legal.items() for seq in seqs}
        assert walk(env) == expected, (obs, dice)
        turn = info["turn"]
        while not (info["turn"] != turn or env._over):  # play the turn out at random
            obs, _, terminated, truncated, info = env.step(int(rng.choice(masked(info))))
            if terminated or truncated:
                obs, info = env.reset()
                break
        turns += 1


def test_actions_encode_source_and_distance():
    assert ACTIONS == 150 and action(1, 1) == 0 and action(25, 6) == 149
    for a in range(ACTIONS):
        src, dst = step_of(a)
        assert action(src, src - dst) == a and 1 <= src - dst <= 6
    assert step_of(action(3, 3)) == (3, 0)  # a checker borne off from point 3


@pytest.mark.parametrize("variant", ["long", "short"])
def test_check_env_passes_without_warnings(variant):
    env = gymnasium.make(IDS[variant])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []


@pytest.mark.parametrize("variant", ["long", "short"])
def test_one_game_env_plays_whole_games_by_the_rules(variant):
    """Random masked play: every observation inside the space, the mask in info and the method
    agree, a turn starts where VectorEnv(rules, 1) with the same seed starts, rewards only at
    the end and worth the game's points to the side that acted, and the same seed and actions
    repeat the same trajectory."""
    def run(seed):
        env = gymnasium.make(IDS[variant])
        rng = np.random.default_rng(seed)
        obs, info = env.reset(seed=seed)
        twin = VectorEnv(variant, 1)
        twin.reset(seed=seed)
        assert (obs[:26] == twin.boards[0]).all() and info["dice"] == tuple(twin.dice[0].tolist())
        trajectory, games = [obs], 0
        while games < 3:
            assert env.observation_space.contains(obs) and (info["action_mask"] == env.unwrapped.action_masks()).all()
            actor = info["turn"]
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(masked(info))))
            trajectory.append(np.append(obs, reward))
            if terminated:
                games += 1
                winner, points = info["winner"], info["points"]
                assert 1 <= points <= 3 and reward == (points if winner == actor else -points)
                assert (obs[26:] == 0).all() and env.observation_space.contains(obs) and not info["action_mask"].any()
                with pytest.raises(GameOverError):
                    env.step(0)
                obs, info = env.reset()
            else:
                assert reward == 0 and not truncated
        return np.concatenate(trajectory)

    a = run(7)
    assert np.array_equal(a, run(7)) and not np.array_equal(a[:400], run(8)[:400])


def test_illegal_and_malformed_actions():
    env = NardyEnv("short")
    _, info = env.reset(seed=1)
    bad = int(np.flatnonzero(~info["action_mask"])[0])
    obs, reward, terminated, truncated, info = env.step(bad)
    assert terminated and reward == -1 and info["illegal_action"] and (obs[26:] == 0).all()
    strict = NardyEnv("short", illegal_action="raise")
    _, info = strict.reset(seed=1)
    with pytest.raises(IllegalMoveError, match=f"action {bad} "):
        strict.step(bad)
    for wrong in (-1, ACTIONS, 1.5, True, "3", np.timedelta64(3)):
        with pytest.raises(InvalidArgumentError, match="action must be"):
            strict.step(wrong)
    with pytest.raises(GameOverError):
        NardyEnv("long").step(0)
    with pytest.raises(InvalidArgumentError):
        NardyEnv("long", illegal_action="ignore")


def test_registration_and_make_vec():
    env = gymnasium.make("nardy/ShortNardy-v0")
    assert isinstance(env.unwrapped, NardyEnv) and env.unwrapped.rules == Rules("short")
    assert gymnasium.make("nardy/LongNardy-v0").unwrapped.rules == Rules("long")
    envs = gymnasium.make_vec("nardy/LongNardy-v0", num_envs=3, vectorization_mode="vector_entry_point")
    assert isinstance(envs, GymnasiumVectorEnv) and envs.num_envs == 3
    sync = gymnasium.make_vec("nardy/ShortNardy-v0", num_envs=2, vectorization_mode="sync")
    obs, info = sync.reset(seed=1)
    assert obs.shape == (2, 30) and info["action_mask"].shape == (2, ACTIONS)


def test_import_nardy_does_not_import_gymnasium():
    import subprocess
    import sys

    code = "import sys, nardy, nardy.env; assert 'gymnasium' not in sys.modules"
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


# --- the vector adapter ------------------------------------------------------------------------

@pytest.mark.parametrize("observation", ["board", "features"])
@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_vector_autoreset_modes_and_spaces(observation, mode):
    env = GymnasiumVectorEnv("short", 6, seed=1, observation=observation, autoreset_mode=mode)
    twin = VectorEnv("short", 6, seed=1, observation=observation)  # same-step: the core's own mode
    assert env.metadata["autoreset_mode"] is mode
    obs, info = env.reset(seed=4)
    twin.reset(seed=4)
    assert env.observation_space.contains(obs) and info == {}
    assert env.single_action_space == gymnasium.spaces.Discrete(MAX_AFTERSTATES[env.env.variant])
    resetting = np.zeros(6, np.bool_)
    ended = 0
    for _ in range(400):
        assert (env.action_space.nvec == np.diff(env.offsets)).all()
        assert (env.action_space.nvec <= env.single_action_space.n).all()
        actions = env.action_space.sample()
        assert env.action_space.contains(actions)
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert env.observation_space.contains(obs)  # final observations included
        done = terminated | truncated
        if mode is AutoresetMode.NEXT_STEP:
            # a slot that ended last step now shows its new game, reward 0, its action ignored
            assert (rewards[resetting] == 0).all() and not done[resetting].any()
            assert "final_obs" not in info
            if done.any():
                assert (obs[done, 26:] == 0).all() if observation == "board" else (obs[done, 198:] == 0).all()
            resetting = done
        else:
            tobs, trewards, tterm, ttrunc, tinfo = twin.step(actions)
            assert np.array_equal(obs, tobs) and np.array_equal(rewards, trewards)
            if done.any():
                assert (info["_final_info"] == done).all() and (info["final_info"]["_winner"] == done).all()
                assert np.array_equal(info["final_info"]["points"], tinfo["points"])
                assert env.single_observation_space.contains(info["final_obs"][np.flatnonzero(done)[0]])
        ended += int(done.sum())
        if done.any():
            assert (rewards[terminated] != 0).all()
    assert ended > 0


@pytest.mark.parametrize("observation", ["board", "features"])
def test_vector_adapter_follows_the_vector_conventions(observation):
    env = GymnasiumVectorEnv("short", 6, seed=1, observation=observation,
                             autoreset_mode=AutoresetMode.SAME_STEP)
    assert isinstance(env, gymnasium.vector.VectorEnv) and env.num_envs == 6
    assert env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    obs, info = env.reset(seed=4)
    assert env.observation_space.contains(obs) and info == {}
    assert env.single_observation_space.shape == ((28,) if observation == "board" else (210,))
    ended = 0
    for _ in range(400):
        assert (env.action_space.nvec == np.diff(env.offsets)).all()
        actions = env.action_space.sample()
        assert env.action_space.contains(actions)
        assert not env.action_space.contains(env.action_space.nvec)  # one past the last afterstate
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert env.observation_space.contains(obs)
        assert rewards.shape == (6,) and rewards.dtype == np.float64 and terminated.dtype == np.bool_
        if terminated.any():
            ended += int(terminated.sum())
            assert (info["_final_obs"] == terminated).all() and info["final_obs"].shape == obs.shape
            assert (rewards[terminated] != 0).all()
    assert ended > 0
    assert env.afterstate_features().shape == (len(env.afterstates), 198)


def test_vector_list_seeds_and_reproducibility():
    def run(seed):
        env = GymnasiumVectorEnv("long", 3, seed=0)
        obs, _ = env.reset(seed=seed)
        out = [obs]
        for _ in range(100):
            obs, rewards, *_ = env.step(env.action_space.sample())
            out.append(obs)
        return np.stack(out)

    assert (run(7) == run(7)).all() and not (run(7) == run(8)).all()
    listed = GymnasiumVectorEnv("long", 3)
    obs, _ = listed.reset(seed=[3, 4, 3])
    one, _ = VectorEnv("long", 1).reset(seed=4)
    assert np.array_equal(obs[1], one[0]) and np.array_equal(obs[0], obs[2])
    with pytest.raises(InvalidArgumentError):
        GymnasiumVectorEnv("long", 2, autoreset_mode="disabled")


def test_gymnasiums_vector_wrappers_run_over_it():
    from gymnasium.wrappers import vector as vw

    env = vw.RecordEpisodeStatistics(GymnasiumVectorEnv("short", 8, seed=2, max_plies=60))
    env = vw.TransformObservation(env, lambda o: o.astype(np.float32) / 15,
                                  single_observation_space=gymnasium.spaces.Box(-1, 1, (28,), np.float32))
    env = vw.ClipReward(env, -1, 1)
    env.reset(seed=1)
    episodes = []
    for _ in range(300):
        obs, rewards, terminated, truncated, info = env.step(env.unwrapped.action_space.sample())
        assert obs.dtype == np.float32 and (np.abs(rewards) <= 1).all()
        if "episode" in info:
            done = info["_episode"]
            episodes += info["episode"]["l"][done].tolist()
    assert episodes and max(episodes) <= 60  # max_plies=60 truncates the longest games
    wrapped = vw.DictInfoToList(GymnasiumVectorEnv("long", 2, seed=1))
    _, infos = wrapped.reset()
    assert infos == [{}, {}]


def test_gymnasiums_single_env_wrappers_run_over_it():
    from gymnasium.wrappers import RecordEpisodeStatistics, TimeLimit, TransformObservation

    env = gymnasium.make("nardy/ShortNardy-v0")
    env = RecordEpisodeStatistics(TimeLimit(env, max_episode_steps=25))
    env = TransformObservation(env, lambda o: o.astype(np.float32),
                               gymnasium.spaces.Box(-15, 15, (30,), np.float32))
    obs, info = env.reset(seed=2)
    for _ in range(25):
        obs, reward, terminated, truncated, info = env.step(int(masked(info)[0]))
        assert obs.dtype == np.float32
        if terminated or truncated:
            break
    assert truncated and info["episode"]["l"] == 25


@pytest.mark.parametrize("variant", ["long", "short"])
def test_a_registered_id_refuses_rules_of_the_other_variant(variant):
    other = "short" if variant == "long" else "long"
    message = f"{IDS[variant]} plays {variant} nardy, got rules of {other} nardy"
    for rules in (other, Rules(other)):
        with pytest.raises(InvalidArgumentError, match=message):
            gymnasium.make(IDS[variant], rules=rules)
        for mode in ("vector_entry_point", "sync"):
            with pytest.raises(InvalidArgumentError, match=message):
                gymnasium.make_vec(IDS[variant], num_envs=2, vectorization_mode=mode, rules=rules)
    assert gymnasium.make(IDS["long"], rules=Rules("long", koks=True)).unwrapped.rules == Rules("long", koks=True)
    assert NardyEnv(variant=variant).rules == Rules(variant) and NardyEnv().rules == Rules("short")


@pytest.mark.parametrize("make", [lambda: NardyEnv("long"), lambda: GymnasiumVectorEnv("short", 2)])
def test_the_gymnasium_envs_refuse_to_be_copied_rather_than_share_their_games(make):
    import copy
    import pickle

    env = make()
    for call in (copy.copy, copy.deepcopy, pickle.dumps):
        with pytest.raises(InvalidArgumentError, match=f"a {type(env).__name__} cannot be copied or pickled"):
            call(env)


@pytest.mark.parametrize("options", [[], ""])
def test_reset_refuses_options_that_are_not_none_or_empty(options):
    with pytest.raises(InvalidArgumentError, match="reset takes no options"):
        NardyEnv("short").reset(options=options)


def test_an_array_for_illegal_action_is_refused_by_nardy():
    with pytest.raises(InvalidArgumentError, match="unknown illegal_action"):
        NardyEnv("short", illegal_action=np.zeros(2))


def test_one_env_used_from_several_threads_refuses_the_concurrent_calls():
    """8 threads stepping one NardyEnv raised "ValueError: min() arg is an empty sequence" (a step
    read the dice another had half changed); now a call that finds the env in use by another
    thread raises InvalidArgumentError, and every call that runs runs whole."""
    import sys
    import threading

    env = NardyEnv("short")
    env.reset(seed=3)
    errors: list[BaseException] = []
    refused = []
    start = threading.Barrier(8)

    def worker(k: int) -> None:
        rng = np.random.default_rng(k)
        start.wait()
        for _ in range(300):
            try:
                legal = masked(env.action_masks())
                if len(legal) == 0:
                    env.reset()
                    continue
                _, _, terminated, truncated, _ = env.step(int(rng.choice(legal)))
                if terminated or truncated:
                    env.reset()
            except InvalidArgumentError as exc:
                assert "in use by another thread" in str(exc)
                refused.append(k)
            except (GameOverError, IllegalMoveError):  # another thread ended the game or moved first
                pass
            except BaseException as exc:  # anything else fails the test
                errors.append(exc)
                return

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switch as often as they can
    try:
        threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert errors == []  # how many calls were refused depends on the scheduler; the next test forces one


def test_a_call_while_another_threads_call_runs_is_refused_and_the_env_stays_whole():
    env = NardyEnv("short")
    env.reset(seed=3)
    before = env.action_masks().copy()
    env._busy.acquire()  # as a call running on another thread holds it
    try:
        for call in (env.action_masks, lambda: env.step(0), env.reset):
            with pytest.raises(InvalidArgumentError, match="in use by another thread"):
                call()
    finally:
        env._busy.release()
    assert (env.action_masks() == before).all()
