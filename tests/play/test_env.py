"""The batched environment: legal afterstates, rewards, autoreset, seeding, encodings, errors."""

from __future__ import annotations

import numpy as np
import pytest

from nardy import (
    Color,
    GameOverError,
    InvalidArgumentError,
    InvalidPositionError,
    Position,
    Rules,
    reference,
    simulate,
)
from nardy import _backend as engine, _core
from nardy.play.env import VectorEnv, encode
from nardy.position import own_point

RULE_SETS = [
    Rules("long"), Rules("long", opening="dice", block_timing="end", koks=True),
    Rules("long", last_roll_draw=True, head_exception="permission"), Rules("long", block_rule="home"),
    Rules("short"), Rules("short", opening="reroll"),
]


def finished_games(env, games_per_slot, choose):
    """Play until every slot has finished `games_per_slot` games: per slot, (winner, points, plies) each."""
    found = [[] for _ in range(env.num_envs)]
    env.reset()
    while min(len(f) for f in found) < games_per_slot:
        _, _, terminated, _, info = env.step(choose(env))
        for i in np.flatnonzero(terminated):
            found[i].append((int(info["winner"][i]), int(info["points"][i]), int(info["plies"][i])))
    return [f[:games_per_slot] for f in found]


@pytest.mark.parametrize("rules", RULE_SETS, ids=repr)
@pytest.mark.parametrize("policy", ["random", "first"])
def test_each_slot_plays_the_games_of_simulates_chunk(rules, policy):
    """Slot i draws from SeedSequence(seed).spawn(n)[i] as simulate's chunk i does: sampled
    actions replay policy "random", action 0 policy "first", game by game (scores and lengths)."""
    slots, games = 3, 8
    env = VectorEnv(rules, slots, seed=21)
    choose = (lambda e: e.sample_actions()) if policy == "random" else (lambda e: np.zeros(e.num_envs, np.int64))
    found = finished_games(env, games, choose)
    s = simulate(rules, slots * games, seed=21, chunk_size=games, policy=policy, threads=1)
    for i in range(slots):
        chunk = slice(i * games, (i + 1) * games)
        expected = list(zip(s.winner[chunk].tolist(), s.kind[chunk].tolist(), s.plies[chunk].tolist()))
        assert found[i] == expected, i


def start_row(rules):
    return np.frombuffer(Position.start(rules.variant).to_bytes(), np.int8)


@pytest.mark.parametrize("rules", RULE_SETS, ids=repr)
def test_long_random_runs_keep_every_invariant(rules):
    """~17k steps per rule set (100k in all): legal afterstates, zero-sum rewards that pay the
    winner its points, autoreset to a fresh game, plies, colours and dice that follow the rules."""
    n, steps = 48, 350
    env = VectorEnv(rules, n, seed=5)
    env.reset()
    returns = np.zeros((n, 2))  # each slot's game so far: White's and Black's sum of rewards
    start = start_row(rules)
    ended = 0
    for t in range(steps):
        boards, dice, colors = env.boards.copy(), env.dice.copy(), env.colors.copy()
        plies, last = env.plies.copy(), env.last_roll.copy()
        offsets, afterstates = env.offsets.copy(), env.afterstates.copy()
        counts = np.diff(offsets)
        assert offsets[0] == 0 and (counts >= 1).all() and offsets[-1] == len(afterstates)
        assert (dice >= 1).all() and (dice <= 6).all() and (dice[:, 0] >= dice[:, 1]).all()
        for i in (t % n, (7 * t + 3) % n):  # two slots a step: the afterstates are exactly the legal results
            legal = {child for child, _ in engine.results(boards[i].tobytes(), dice[i], rules, last_roll=bool(last[i]))}
            mine = [row.tobytes() for row in afterstates[offsets[i]:offsets[i + 1]]]
            assert len(set(mine)) == len(mine) and set(mine) == legal, (t, i)
            assert env.position(i).is_valid(rules)
        actions = env.sample_actions()
        assert ((actions >= 0) & (actions < counts)).all()
        _, rewards, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        assert (info["afterstate"] == afterstates[offsets[:-1] + actions]).all()
        returns[np.arange(n), colors] += rewards
        returns[np.arange(n), 1 - colors] -= rewards
        assert (rewards[~terminated] == 0).all()
        running = ~terminated
        assert (env.plies[running] == plies[running] + 1).all()
        assert (env.colors[running] == 1 - colors[running]).all()
        flipped = _core.flip(np.ascontiguousarray(info["afterstate"][running]), 0 if rules.variant.value == "long" else 1)
        assert (env.boards[running] == flipped).all()
        for i in np.flatnonzero(terminated):
            ended += 1
            winner, points = int(info["winner"][i]), int(info["points"][i])
            assert info["plies"][i] == plies[i] + 1 and info["_winner"][i]
            assert (info["final_obs"][i, :26] == info["afterstate"][i]).all()
            mover = int(colors[i])
            if winner == -1:  # a draw by the last roll
                assert rules.variant.value == "long" and rules.last_roll_draw and last[i] and points == 0
                assert rewards[i] == 0 and (returns[i] == 0).all()
            else:
                assert 1 <= points <= 3 and rewards[i] == (points if winner == mover else -points)
                assert returns[i, winner] == points and returns[i, 1 - winner] == -points
                after = tuple(int(v) for v in info["afterstate"][i])
                board = after if winner == mover else reference.flip(after, rules.variant)
                assert reference.result(board, rules)[1] == points
            # autoreset: a fresh game, its starter on roll
            assert (env.boards[i] == start).all() and env.plies[i] == 0 and env.colors[i] == env.starters[i]
            if rules.opening == "dice":
                assert env.dice[i, 0] != env.dice[i, 1]
            returns[i] = 0
    assert ended > n  # many games ended and restarted


def test_seeded_runs_repeat_and_do_not_depend_on_num_envs():
    def trajectory(num_envs, seed, steps=250, reseed=None):
        env = VectorEnv("short", num_envs, seed=seed)
        obs, _ = env.reset(seed=reseed)
        seen = [obs[:3].copy()]
        for _ in range(steps):
            obs, rewards, *_ = env.step(env.sample_actions())
            seen.append(np.column_stack([obs[:3], rewards[:3]]))
        return np.concatenate([s.reshape(-1) for s in seen])

    a = trajectory(3, 8)
    assert (a == trajectory(3, 8)).all()
    assert (a == trajectory(11, 8)).all()  # slots 0..2 of a larger batch play the same games
    assert (a == trajectory(5, 99, reseed=8)).all()  # reset(seed=) re-seeds every slot
    assert not (a == trajectory(3, 9)).all()


def test_reset_without_a_seed_goes_on_with_the_streams():
    env = VectorEnv("long", 4, seed=3)
    first, _ = env.reset()
    second, _ = env.reset()
    again, _ = VectorEnv("long", 4, seed=3).reset()
    assert (first == again).all() and not (first == second).all()


def test_bad_actions_raise_naming_the_game_and_change_nothing():
    env = VectorEnv("short", 5, seed=2)
    with pytest.raises(InvalidArgumentError, match="reset"):
        env.step(np.zeros(5, np.int64))
    env.reset()
    twin = VectorEnv("short", 5, seed=2)
    twin.reset()
    counts = env.counts
    bad = np.zeros(5, np.int64)
    bad[3] = counts[3]
    with pytest.raises(InvalidArgumentError, match=rf"game 3: action {counts[3]} is not one of its {counts[3]} afterstates"):
        env.step(bad)
    bad[3] = -1
    with pytest.raises(InvalidArgumentError, match="game 3: action -1"):
        env.step(bad)
    for wrong in (np.zeros(4, np.int64), np.zeros((5, 1), np.int64), np.zeros(5, np.float64), [0.5] * 5, "01234"):
        with pytest.raises(InvalidArgumentError, match="actions must be 5 whole numbers"):
            env.step(wrong)
    with pytest.raises(InvalidArgumentError, match="out of range"):
        env.step(np.full(5, 2**64 - 1, np.uint64))
    a, *_ = env.step(np.zeros(5, np.uint8))  # any integer type is fine
    b, *_ = twin.step([0, 0, 0, 0, 0])
    assert (a == b).all()  # the refused steps changed nothing


@pytest.mark.parametrize("bad", [dict(num_envs=0), dict(num_envs=2.0), dict(seed=-1), dict(observation="pixels")])
def test_bad_arguments_raise(bad):
    arguments = dict(rules="long", num_envs=2) | bad
    with pytest.raises(InvalidArgumentError):
        VectorEnv(arguments.pop("rules"), arguments.pop("num_envs"), **arguments)


def test_the_state_is_read_only_and_positions_match_it():
    env = VectorEnv("long", 3, seed=4)
    env.reset()
    for _ in range(5):
        env.step(env.sample_actions())
    with pytest.raises(ValueError):
        env.boards[0, 1] = 3
    p = env.position(1)
    assert p.view() == tuple(env.boards[1].tolist()) and p.turn is Color(int(env.colors[1]))
    with pytest.raises(InvalidArgumentError):
        env.position(3)


# --- encodings ---------------------------------------------------------------------------------

def units(n):
    return [float(n >= 1), float(n >= 2), float(n >= 3), (n - 3) / 2 if n > 3 else 0.0]


def expected_features(board, variant, on_roll):
    """The documented units, written out plainly from the absolute description of each side."""
    p = Position(board, variant, validate=False)
    out = []
    for color in (Color.WHITE, Color.BLACK):  # White is "us": Position(board) puts White on roll
        own = {own_point(q, color, p.variant): n for q, n in p.checkers(color).items()}
        for q in range(1, 25):
            out += units(own.get(q, 0))
        if variant == "short":
            out += [p.bar(color) / 2, p.borne_off(color) / 15]
        else:
            head = 24 if color is Color.WHITE else 12
            out += [p.borne_off(color) / 15, float(p.checkers(color).get(head, 0) == 15)]
    return out + [float(on_roll), float(not on_roll)]


def test_short_start_encodes_as_td_gammon():
    f = encode([Position.start("short").view()], "short")[0]
    assert f.shape == (198,) and f.dtype == np.float32
    for side in (0, 98):
        assert list(f[side + 4 * 23: side + 4 * 24]) == [1, 1, 0, 0]  # 2 on the 24 point
        assert list(f[side + 4 * 12: side + 4 * 13]) == [1, 1, 1, 1]  # 5 on the 13: (5-3)/2
        assert list(f[side + 4 * 7: side + 4 * 8]) == [1, 1, 1, 0]    # 3 on the 8
        assert list(f[side + 4 * 5: side + 4 * 6]) == [1, 1, 1, 1]    # 5 on the 6
        assert f[side + 96] == 0 and f[side + 97] == 0
        assert f[side: side + 96].sum() == 2 + 4 + 3 + 4
    assert list(f[196:]) == [1, 0]


def test_short_bar_and_borne_off_units():
    # us: 2 on the bar, 9 on point 1 (4 borne off); them: one on the bar, 14 on their point 3 (our 22)
    p = Position.from_points("short", white={1: 9}, black={22: 14}, white_bar=2, black_bar=1)
    f = encode([p.view()], "short", on_roll=False)[0]
    assert list(f[0:4]) == [1, 1, 1, 3] and f[96] == 1.0 and f[97] == pytest.approx(4 / 15)
    assert list(f[98 + 4 * 2: 98 + 4 * 3]) == [1, 1, 1, 5.5] and f[194] == 0.5 and f[195] == 0
    assert list(f[196:]) == [0, 1]
    assert f.tolist() == pytest.approx(expected_features(p.view(), "short", False))


def test_long_start_and_first_turn_units():
    f = encode([Position.start("long").view()], "long")[0]
    assert list(f[4 * 23: 4 * 24]) == [1, 1, 1, 6] and list(f[98 + 4 * 23: 98 + 4 * 24]) == [1, 1, 1, 6]
    assert f[96] == 0 and f[97] == 1 and f[194] == 0 and f[195] == 1 and f.sum() == 2 * (9 + 1) + 1
    # a side that has left its head: the first-turn unit is off; theirs count in their own numbers
    p = Position.from_points("long", white={24: 14, 20: 1}, black={12: 13, 3: 2})  # Black's 3 is its point 15
    g = encode([p.view()], "long")[0]
    assert g[97] == 0 and g[195] == 0 and list(g[4 * 19: 4 * 20]) == [1, 0, 0, 0]
    assert list(g[98 + 4 * 14: 98 + 4 * 15]) == [1, 1, 0, 0]
    q = Position.from_points("long", white={1: 5}, black={12: 15})  # ten of ours borne off
    assert encode([q.view()], "long")[0][96] == pytest.approx(10 / 15)


@pytest.mark.parametrize("variant", ["long", "short"])
def test_encodings_of_played_positions_match_the_description(variant):
    env = VectorEnv(variant, 16, seed=9, observation="features")
    obs, _ = env.reset()
    for t in range(60):
        boards, dice, after = env.boards.copy(), env.dice.astype(np.int64), env.afterstates.copy()
        assert np.array_equal(obs, encode(boards, variant, dice=dice))
        assert (obs[np.arange(16), 198 + dice[:, 0] - 1] == 1).all() and (obs[np.arange(16), 204 + dice[:, 1] - 1] == 1).all()
        assert (obs[:, 198:].sum(axis=1) == 2).all()
        features = env.afterstate_features()
        assert np.array_equal(features, encode(after, variant, on_roll=False))
        for k in (t % len(after), (3 * t) % len(after)):
            assert features[k].tolist() == pytest.approx(expected_features(tuple(after[k].tolist()), variant, False))
        # the other side's view of the same position swaps the two halves and who is on roll
        flipped = encode(_core.flip(after, 0 if variant == "long" else 1), variant, on_roll=True)
        assert np.array_equal(flipped[:, :98], features[:, 98:196]) and np.array_equal(flipped[:, 98:196], features[:, :98])
        obs, *_ = env.step(env.sample_actions())


def test_encode_refuses_bad_input():
    with pytest.raises(InvalidPositionError, match=r"\(m, 26\)"):
        encode(np.zeros((2, 25), np.int8), "short")
    with pytest.raises(InvalidPositionError, match="board 1"):
        encode([Position.start("short").view(), [0] * 25 + [16]], "short")
    with pytest.raises(InvalidPositionError, match="board 0"):
        encode([[0] * 25 + [1]], "long")  # a bar in long nardy
    with pytest.raises(InvalidArgumentError, match="dice"):
        encode([Position.start("short").view()], "short", dice=[[0, 3]])


def test_features_can_be_written_into_a_reused_array():
    env = VectorEnv("short", 8, seed=3)
    env.reset()
    out = np.full((4096, 198), np.nan, np.float32)
    for _ in range(5):
        got = env.afterstate_features(out=out)
        assert got.base is out and np.array_equal(got, env.afterstate_features())
        env.step(env.sample_actions())
    boards = [Position.start("short").view()] * 3
    assert np.array_equal(encode(boards, "short", out=out)[:3], encode(boards, "short"))
    for bad in (np.zeros((4096, 198)), np.zeros((2, 198), np.float32), np.zeros((4096, 210), np.float32),
                np.zeros((198, 4096), np.float32).T, [[0.0] * 198] * 4096):
        with pytest.raises(InvalidArgumentError, match="out must be"):
            env.afterstate_features(out=bad)


def test_best_actions_pick_each_games_highest_value_first_on_ties():
    env = VectorEnv("long", 32, seed=6)
    env.reset()
    for _ in range(40):
        env.step(env.sample_actions())
    offsets = env.offsets.copy()
    values = np.random.default_rng(0).integers(0, 3, len(env.afterstates)).astype(np.float64)  # many ties
    expected = [int(np.argmax(values[offsets[i]:offsets[i + 1]])) for i in range(32)]
    assert env.best_actions(values).tolist() == expected
    pips = _core.pips(np.ascontiguousarray(env.afterstates), 0)[:, 0]
    chosen = env.best_actions(-pips)  # a greedy racer: the lowest pip count after the move
    assert (pips[offsets[:-1] + chosen] == np.minimum.reduceat(pips, offsets[:-1])).all()
    for bad in (values[:-1], np.full(len(values), np.nan), values.astype(str)):
        with pytest.raises(InvalidArgumentError, match="values must be"):
            env.best_actions(bad)


# --- limits: threads, plies, memory, seeds ------------------------------------------------------

def test_one_env_stepped_from_several_threads_stays_whole():
    """Steps from 4 threads are serialised: no crash (the afterstate buffer and the move generator
    once grew under two threads at once: a double free), and with action 0 everywhere, which every
    game always has, 4 x 60 interleaved steps leave exactly the state of 240 steps in a row."""
    import threading

    shared, alone = VectorEnv("short", 64, seed=12), VectorEnv("short", 64, seed=12)
    shared.reset()
    alone.reset()
    zeros = np.zeros(64, np.int64)
    errors = []

    def worker():
        try:
            for _ in range(60):
                obs, rewards, terminated, truncated, info = shared.step(zeros)
                assert obs.shape == (64, 28) and (info["afterstate"].shape == (64, 26))
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for _ in range(240):
        alone.step(zeros)
    assert np.array_equal(shared.boards, alone.boards) and np.array_equal(shared.plies, alone.plies)
    assert np.array_equal(shared.afterstates, alone.afterstates)


def test_games_longer_than_max_plies_are_truncated_and_restarted():
    env = VectorEnv("long", 8, seed=3, max_plies=7)
    env.reset()
    start = start_row(env.rules)
    for t in range(1, 22):
        plies = env.plies.copy()
        _, rewards, terminated, truncated, info = env.step(env.sample_actions())
        assert not (terminated & truncated).any()
        if t % 7 == 0:  # no long game ends by its 7th ply: every one is truncated
            assert truncated.all() and (rewards == 0).all()
            assert (info["plies"] == 7).all() and (info["winner"] == -2).all() and info["_final_obs"].all()
            assert (env.plies == 0).all() and (env.boards == start).all()
        else:
            assert not truncated.any() and (env.plies == plies + 1).all()
    for bad in (0, -1, 2**31, 1.5, True):
        with pytest.raises(InvalidArgumentError, match="max_plies"):
            VectorEnv("long", 2, max_plies=bad)




def test_an_environment_larger_than_memory_is_refused_before_allocating():
    import os

    memory = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    n = memory // 1000
    with pytest.raises(InvalidArgumentError, match=rf"num_envs={n:,} games need about {n * 2048:,} bytes"):
        VectorEnv("short", n)
    with pytest.raises(InvalidArgumentError, match="num_envs=10,000,000,000,000 games"):
        VectorEnv("long", 10**13)


def test_list_seeds_give_each_slot_a_one_game_environments_games():
    def run(env, seed, steps=120):
        obs, _ = env.reset(seed=seed)
        out = [obs.copy()]
        for _ in range(steps):
            obs, rewards, *_ = env.step(env.sample_actions())
            out.append(np.column_stack([obs, rewards]))
        return out

    many = run(VectorEnv("short", 3), [5, 9, 5])
    for i, seed in enumerate([5, 9, 5]):
        one = run(VectorEnv("short", 1), seed)
        assert all(np.array_equal(a[i], b[0]) for a, b in zip(many, one))
    assert not np.array_equal(many[-1][0], many[-1][1]) and np.array_equal(many[-1][0], many[-1][2])
    for bad in ([1, 2], [1, -2, 3], "123", [1.5, 2, 3]):
        with pytest.raises(InvalidArgumentError, match="seed"):
            VectorEnv("short", 3).reset(seed=bad)


def test_a_start_position_plays_simulates_rollouts():
    p = Position.from_points("short", white={6: 5, 8: 3, 13: 5, 24: 2}, black={1: 2, 12: 5, 17: 3, 19: 5}, turn="black")
    env = VectorEnv("short", 3, seed=4, start=p)
    env.reset()
    assert (env.boards == np.frombuffer(p.to_bytes(), np.int8)).all() and (env.colors == 1).all()
    env = VectorEnv("short", 3, seed=4, start=p)
    found = finished_games(env, 4, lambda e: e.sample_actions())
    s = simulate("short", 12, seed=4, chunk_size=4, policy="random", threads=1, start=p)
    for i in range(3):
        chunk = slice(4 * i, 4 * i + 4)
        assert found[i] == list(zip(s.winner[chunk].tolist(), s.kind[chunk].tolist(), s.plies[chunk].tolist()))
    with pytest.raises(InvalidArgumentError, match="start must be"):
        VectorEnv("long", 1, start=p)
    with pytest.raises(InvalidPositionError):
        VectorEnv("short", 1, start=Position([0] * 25 + [16], "short", validate=False))
    with pytest.raises(GameOverError):
        VectorEnv("short", 1, start=Position.from_points("short", white={}, black={1: 15}))


def test_a_start_where_nobody_can_ever_move_is_refused():
    """Short nardy, both sides on the bar against closed boards: every roll would pass for ever.
    status() flags it (BOTH_SHUT_OUT), so neither Position nor VectorEnv takes it (games that
    merely run long stop at max_plies: the test above)."""
    shut = dict(white={1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}, white_bar=3,
                black={19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2}, black_bar=3)
    with pytest.raises(InvalidPositionError, match="neither can ever move"):
        Position.from_points("short", **shut)
    with pytest.raises(InvalidPositionError, match="neither can ever move"):
        VectorEnv("short", 2, seed=1, start=Position.from_points("short", **shut, validate=False))


def test_encode_on_roll_is_true_or_false():
    boards = [Position.start("short").view()]
    assert np.array_equal(encode(boards, "short", on_roll=np.True_), encode(boards, "short", on_roll=True))
    for bad in (5, 1, 0, None, "yes"):
        with pytest.raises(InvalidArgumentError, match="on_roll is True .* or False .*, got"):
            encode(boards, "short", on_roll=bad)


@pytest.mark.parametrize("duplicate", ["copy", "deepcopy", "pickle"])
def test_a_vector_env_refuses_to_be_copied_rather_than_share_its_games(duplicate):
    import copy
    import pickle

    env = VectorEnv("short", 2, seed=1)
    env.reset()
    before = env.boards.copy()
    call = {"copy": copy.copy, "deepcopy": copy.deepcopy, "pickle": pickle.dumps}[duplicate]
    with pytest.raises(InvalidArgumentError, match="a VectorEnv cannot be copied or pickled"):
        call(env)  # a shallow copy stepped the original's games; pickle was a TypeError (a lock)
    assert (env.boards == before).all()


def test_reading_while_another_thread_steps_gets_whole_answers_or_nardy_errors():
    """best_actions checks the afterstate count under the lock the core reads it with (once, a
    step between the two let the core's bare ValueError "9810 values, got 9276" out), and the
    properties are read under it too."""
    import threading

    env = VectorEnv("short", 256, seed=5)
    env.reset()
    zeros = np.zeros(256, np.int64)
    stop, errors = threading.Event(), []

    def stepper():
        while not stop.is_set():
            env.step(zeros)

    thread = threading.Thread(target=stepper)
    thread.start()
    try:
        for _ in range(1500):
            try:
                actions = env.best_actions(np.zeros(len(env.afterstates)))
                assert actions.shape == (256,)
            except InvalidArgumentError:
                pass  # the count changed between the caller's read and the call: said clearly
            except Exception as exc:  # pragma: no cover - reported below
                errors.append(exc)
                break
            assert len(env.offsets) == 257 and env.counts.min() >= 1
    finally:
        stop.set()
        thread.join()
    assert not errors, errors


def test_before_reset_every_read_of_the_games_says_to_reset_first():
    env = VectorEnv("short", 3, seed=1)
    for call in (env.sample_actions, lambda: env.best_actions(np.zeros(0)), lambda: env.step(np.zeros(3, int)),
                 lambda: env.afterstates, lambda: env.counts, lambda: env.boards, lambda: env.position(0),
                 env.afterstate_features, env.observation_features):
        with pytest.raises(InvalidArgumentError, match=r"call reset\(\) first"):
            call()
    env.reset()
    assert env.sample_actions().shape == (3,)


def test_a_slot_index_or_seed_that_is_a_numpy_timedelta_is_refused():
    """numpy counts timedelta64 among its integers: position() indexed by one, reset() seeded by one."""
    env = VectorEnv("short", 2)
    env.reset(seed=1)
    with pytest.raises(InvalidArgumentError):
        env.position(np.timedelta64(1))
    with pytest.raises(InvalidArgumentError):
        env.reset(seed=np.timedelta64(1, "s"))
