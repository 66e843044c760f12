"""n-ply cubeful evaluation (`nardy.cube.decide(..., ply=1 or 2)`), checked from the outside:
the array arithmetic equals the scalar 0-ply arithmetic that tests/test_cube_gnubg.py checks
against GNU Backgammon, and a 1-ply decision equals the average over the 21 rolls of the
other side's 0-ply decisions after the mover's best play (found here by `decide` on every
legal result), as gnubg's n-ply cubeful evaluation defines it."""

from __future__ import annotations

import random

import numpy as np
import pytest

from nardy import Color, Position, Rules
from nardy.evaluation.cube import cube_efficiency, decide
from nardy.evaluation.cubemath import _match_cubeful, _money_cubeful, cube_of, cubeful_values, efficiencies
from nardy.errors import InvalidArgumentError
from nardy.evaluation.net import ROLLS, equity, evaluate
from nardy.evaluation.met import equity as to_equity
from nardy.evaluation.met import mwc as to_mwc
from nardy.formats.ids import MatchState

SHORT = Rules("short")
STATES = [
    MatchState(jacoby=True),
    MatchState(),
    MatchState(cube_value=2, cube_owner=1),
    MatchState(cube_value=2, cube_owner=0),
    MatchState(match_length=7),
    MatchState(match_length=7, score=(2, 4)),
    MatchState(match_length=7, score=(5, 5)),
    MatchState(match_length=7, score=(5, 3), cube_value=2, cube_owner=1),
    MatchState(match_length=7, score=(4, 5)),
    MatchState(match_length=7, score=(6, 3)),
    MatchState(match_length=7, score=(6, 3), crawford=True),
    MatchState(match_length=11, score=(3, 6), cube_value=2, cube_owner=0),
]


def positions(n: int, seed: int = 7) -> list[Position]:
    """Positions of seeded random short nardy play, White on roll."""
    rng = random.Random(seed)
    found = []
    p = Position.start("short")
    while len(found) < n:
        if p.is_game_over():
            p = Position.start("short")
            continue
        if p.turn is Color.WHITE and rng.random() < 0.2:
            found.append(p)
        roll = (rng.randint(1, 6), rng.randint(1, 6))
        p = rng.choice(p.children(roll))
    return found


def random_probabilities(rng: np.random.Generator, n: int) -> np.ndarray:
    win = rng.uniform(0, 1, n)
    wg = win * rng.uniform(0, 0.6, n)
    lg = (1 - win) * rng.uniform(0, 0.6, n)
    p = np.stack([win, wg, wg * rng.uniform(0, 0.3, n), lg, lg * rng.uniform(0, 0.3, n)], axis=1)
    p[:5] = [[1, 0, 0, 0, 0], [0, 0, 0, 0, 0], [1, 1, 1, 0, 0], [0, 0, 0, 1, 1], [0.5, 0, 0, 0, 0]]
    return p


@pytest.mark.parametrize("state", STATES, ids=str)
def test_array_arithmetic_equals_the_scalar_one(state) -> None:
    rng = np.random.default_rng(1)
    p = random_probabilities(rng, 400)
    x = rng.choice([0.0, 0.6, 0.68, 0.7, 1.0], 400)
    for cube in (cube_of(state, None), cube_of(state, None).with_(2 * state.cube_value, 1 - state.on_roll)):
        scalar = _match_cubeful if cube.length else _money_cubeful
        expected = np.array([scalar(tuple(row), cube, float(e)) for row, e in zip(p, x)])
        np.testing.assert_allclose(cubeful_values(p, cube, x), expected, rtol=0, atol=1e-12)


def test_array_efficiencies_are_the_position_classes() -> None:
    found = positions(300)
    boards = np.array([p.view() for p in found], np.int8)
    assert efficiencies(boards).tolist() == [cube_efficiency(p) for p in found]


def other(state: MatchState, cube_value: int, cube_owner: int | None) -> MatchState:
    """The state after a roll: the other side on roll, the cube as given."""
    return MatchState(cube_value=cube_value, cube_owner=cube_owner, on_roll=1 - state.on_roll,
                      turn=1 - state.on_roll, match_length=state.match_length, score=state.score,
                      crawford=state.crawford, jacoby=state.jacoby)


def their_mwc(child: Position, state: MatchState) -> float:
    """The other side's cubeful value of its 0-ply cube decision: per cube unit (money) or MWC."""
    d = decide(child, state)
    return to_mwc(d.equity, state) if state.match_length else d.equity


def one_ply(position: Position, state: MatchState) -> tuple[float, float, np.ndarray]:
    """(no double, double/take) normalised to the cube, and the cubeless probabilities, by the
    definition: each roll's best play by the mover's 0-ply cubeful equity (the cube in play; ties
    by the cubeless equity),
    then the other side's 0-ply cube decision with the cube as it is and as doubled and taken."""
    match = bool(state.match_length)
    flip = (lambda v: 1 - v) if match else (lambda v: -v)
    nd_state = other(state, state.cube_value, state.cube_owner)
    dt_state = other(state, 2 * state.cube_value, 1 - state.on_roll)
    nd = dt = 0.0
    probs = np.zeros(5)
    for a, b in ROLLS:
        weight = (1 if a == b else 2) / 36
        children = position.children((a, b))
        best = max(children, key=lambda c: (flip(their_mwc(c, nd_state)), -equity(evaluate(c))[0]))
        nd += weight * flip(their_mwc(best, nd_state))
        dt += weight * flip(their_mwc(best, dt_state))
        q = evaluate(best)[0]
        probs += weight * np.array([1 - q[0], q[3], q[4], q[1], q[2]])
    if match:
        return to_equity(nd, state), to_equity(dt, state), probs
    return nd, 2 * dt, probs


@pytest.mark.parametrize("state", [STATES[0], STATES[2], STATES[4], STATES[5], STATES[7], STATES[8]], ids=str)
def test_one_ply_is_the_average_of_the_replies_zero_ply_decisions(state) -> None:
    for position in positions(3, seed=11):
        d = decide(position, state, ply=1)
        nd, dt, probs = one_ply(position, state)
        assert d.no_double == pytest.approx(nd, abs=1e-9)
        assert d.double_take == pytest.approx(dt, abs=1e-9)
        np.testing.assert_allclose(d.probabilities, probs, atol=1e-6)  # (float32 net outputs summed)


def test_two_ply_decisions_are_gnubg_words_and_finite() -> None:
    for position in positions(4, seed=5):
        for state in (STATES[0], STATES[5]):
            d = decide(position, state, ply=2)
            assert all(np.isfinite([d.no_double, d.double_take, d.double_pass]))
            assert d.action in ("No double, take", "Double, take", "Double, pass", "Too good to double, pass",
                                "Too good to double, take", "Optional double, take", "Optional double, pass",
                                "No double, pass")


def test_a_finished_look_ahead_is_exact() -> None:
    # White to bear off its last checker with any roll: it wins a single game at once
    view = [0] * 26
    view[1] = 1
    view[24] = -14  # (Black has borne one off: a single game)
    position = Position(view, "short")
    for ply in (1, 2):
        d = decide(position, MatchState(), ply=ply)
        assert d.probabilities[0] == 1.0
        assert d.no_double == pytest.approx(1.0) and d.double_pass == 1.0


def test_look_ahead_errors() -> None:
    position = Position.start("short")
    with pytest.raises(InvalidArgumentError, match="ply must be 0, 1 or 2"):
        decide(position, MatchState(), ply=3)
    with pytest.raises(InvalidArgumentError, match="look-ahead"):
        decide(position, MatchState(), ply=1, probabilities=(0.5, 0.1, 0.0, 0.1, 0.0))
