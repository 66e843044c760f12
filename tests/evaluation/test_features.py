"""The evaluator's expert inputs: the compiled core against the plain-Python definition."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nardy import _hooks, _net, Rules
from nardy.play.env import VectorEnv

import features_reference as ref
from strategies import boards

VARIANTS = ["long", "short"]


@pytest.fixture(params=[True, False], ids=["avx2", "baseline"])
def simd(request: pytest.FixtureRequest):
    """The expert inputs by the AVX2 loops (where the CPU has them) and by the baseline ones."""
    yield _hooks.use_net_avx2(request.param)
    _hooks.use_net_avx2(True)


def played_boards(variant: str, steps: int = 60, games: int = 24, seed: int = 7) -> np.ndarray:
    """Afterstates of random self-play: contact, races and bear-offs."""
    env = VectorEnv(variant, games, seed=seed)
    env.reset()
    found = []
    for _ in range(steps):
        found.append(np.asarray(env.afterstates).copy())
        env.step(env.sample_actions())
    return np.concatenate(found)


def check(rows: np.ndarray, variant: str, flip: bool) -> None:
    short = variant == "short"
    got = _net.features(np.ascontiguousarray(rows, np.int8), short, flip)
    assert got.shape == (len(rows), ref.COUNT) == (len(rows), _net.FEATURES)
    for board, row in zip(rows.tolist(), got):
        want = np.array(ref.features(board, short, flip), np.float32)
        assert np.allclose(row, want, rtol=1e-6, atol=1e-6), (board, flip, np.flatnonzero(~np.isclose(row, want)))


@pytest.mark.parametrize("flip", [False, True])
@pytest.mark.parametrize("variant", VARIANTS)
def test_core_features_match_python_on_played_boards(variant: str, flip: bool) -> None:
    """(By the AVX2 loops where the CPU has them; the baseline ones give the same inputs to the
    bit: test_both_loops_give_the_same_inputs.)"""
    check(played_boards(variant)[::7], variant, flip)


@pytest.mark.parametrize("rules", [Rules("long"), Rules("short")], ids=["long", "short"])
@settings(max_examples=150, deadline=None)
@given(data=st.data(), flip=st.booleans(), simd=st.booleans())
def test_core_features_match_python_on_any_board(rules: Rules, data: st.DataObject, flip: bool, simd: bool) -> None:
    try:
        _hooks.use_net_avx2(simd)
        check(np.array([data.draw(boards(rules))]), rules.variant.value, flip)
    finally:
        _hooks.use_net_avx2(True)


def test_features_of_the_start_are_symmetric() -> None:
    """At the start both sides stand alike: each side's 13 inputs are the other's, no race lead,
    contact."""
    from nardy import Position

    for variant in VARIANTS:
        start = np.array([Position.start(variant).view()], np.int8)
        f = _net.features(start, variant == "short", False)[0]
        assert np.array_equal(f[:13], f[13:26]) and f[26] == 0 and f[27] == 1


def test_escapes_and_shots_by_hand(simd: bool) -> None:
    """A short nardy blot 6 pips in front of a lone checker is hit by 17 rolls, directly by 11
    (the classic counts, no blocking points); a checker with nothing ahead escapes on all 36."""
    board = [0] * 26
    board[7] = 1        # our blot on our 7 point...
    board[1] = -1       # ...their checker on our 1 point (their 24), 6 pips behind it
    board[6] = 14
    board[24] = -14     # (the rest out of the way)
    f = ref.features(board, True, False)
    assert (f[12] * 36, f[3] * 36) == (11, 17)
    core = _net.features(np.array([board], np.int8), True, False)[0]
    assert np.allclose(core, f)
    assert ref.escapes(set(), 24) == 36


@pytest.mark.parametrize("flip", [False, True])
@pytest.mark.parametrize("variant", VARIANTS)
def test_both_loops_give_the_same_inputs(variant: str, flip: bool) -> None:
    """The AVX2 loops (vectors of bytes, dice in lanes) and the baseline ones agree to the bit."""
    rows = np.ascontiguousarray(played_boards(variant, steps=120, games=64), np.int8)
    try:
        _hooks.use_net_avx2(True)
        fast = _net.features(rows, variant == "short", flip)
        _hooks.use_net_avx2(False)
        plain = _net.features(rows, variant == "short", flip)
    finally:
        _hooks.use_net_avx2(True)
    assert np.array_equal(fast.view(np.int32), plain.view(np.int32))
