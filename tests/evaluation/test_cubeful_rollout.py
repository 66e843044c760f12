"""Cubeful rollouts (`nardy.evaluation.cubeful.rollout`): games played out with the net's cube decisions."""

from __future__ import annotations

import pytest

from nardy import Position, Rules
from nardy.evaluation.cube import decide
from nardy.evaluation.cubeful import rollout
from nardy.errors import GameOverError, InvalidArgumentError
from nardy.formats.ids import MatchState
from nardy.position import position_from_id

START = Position.start("short")


def sure_win() -> Position:
    """White's last checker on its 1-point; Black has borne one off (no gammon): White wins."""
    view = [0] * 26
    view[1] = 1
    view[24] = -14
    return Position(view, "short")


def test_a_sure_win_is_doubled_and_passed() -> None:
    r = rollout(sure_win(), MatchState(), 100)
    assert decide(sure_win(), MatchState()).action == "Double, pass"
    assert r.equity == 1.0 and r.equity_se == 0.0 and r.doubled == 1.0 and r.passed == 1.0
    match = rollout(sure_win(), MatchState(match_length=7, score=(2, 4)), 10)
    assert match.equity == pytest.approx(1.0) and match.passed == 1.0 and match.equity_se == 0.0


def test_the_cube_actions_are_decides() -> None:
    import random

    import numpy as np

    from nardy.evaluation.cubemath import cube_of
    from nardy.evaluation.cubeful import _cube_actions
    from nardy.evaluation.net import default_judge

    rng = random.Random(2)
    positions, p = [], START
    while len(positions) < 80:
        if p.is_game_over():
            p = START
        if p.turn.name == "WHITE" and rng.random() < 0.25:
            positions.append(p)
        p = rng.choice(p.children((rng.randint(1, 6), rng.randint(1, 6))))
    rules = Rules("short")
    for state in (MatchState(jacoby=True), MatchState(match_length=7, score=(2, 4)),
                  MatchState(match_length=5, score=(1, 2), cube_value=2, cube_owner=1)):
        n = len(positions)
        boards = np.array([q.view() for q in positions], np.int8)
        value, owner = np.full(n, state.cube_value), np.full(n, -1 if state.cube_owner is None else state.cube_owner)
        points, live = np.zeros(n, np.int64), np.ones(n, bool)
        doubled, passed = np.zeros(n, bool), np.zeros(n, bool)
        _cube_actions(boards, np.arange(n), value, owner, points, live, doubled, passed, cube_of(state, None), 1, 1,
                      rules, default_judge("short"))
        for i, q in enumerate(positions):
            d = decide(q, state)
            doubles = d.can_double and d.double_take >= d.no_double and d.double_pass >= d.no_double
            assert doubled[i] == doubles
            assert passed[i] == (doubles and d.double_take > d.double_pass)
            assert live[i] == (not passed[i]) and points[i] == (state.cube_value if passed[i] else 0)
            assert value[i] == state.cube_value * (2 if doubles and not passed[i] else 1)
        assert doubled.any() and passed.any() and not passed.all()


def test_no_cube_in_the_crawford_game_and_the_same_seed_the_same_result() -> None:
    crawford = MatchState(match_length=7, score=(6, 3), crawford=True)
    r = rollout(START, crawford, 300, seed=5)
    assert r.doubled == 0 and r.passed == 0 and 0 < r.mwc < 1
    assert rollout(START, crawford, 300, seed=5) == r
    assert rollout(START, MatchState(), 300, seed=5) != rollout(START, MatchState(), 300, seed=6)


def test_errors() -> None:
    with pytest.raises(InvalidArgumentError, match="short nardy played with the cube"):
        rollout(Position.start("long"), MatchState(), 10)
    with pytest.raises(InvalidArgumentError, match="short nardy played with the cube"):
        rollout(START, MatchState(), 10, rules=Rules("short", cube=False))
    with pytest.raises(InvalidArgumentError, match="on roll"):
        rollout(START, MatchState(on_roll=0, turn=0), 10)
    with pytest.raises(InvalidArgumentError):
        rollout(START, MatchState(), 0)
    with pytest.raises(InvalidArgumentError, match="MatchEquityTable"):
        rollout(START, MatchState(match_length=7), 10, met="Kazaross")


def test_a_finished_game_is_game_over_as_for_decide() -> None:
    over = Position.from_points("short", white={}, black={6: 1}, own_numbers=True)
    with pytest.raises(GameOverError, match="the game is over in .*nothing to roll out"):
        rollout(over, MatchState(), 10)
    with pytest.raises(GameOverError, match="the game is over"):
        decide(over, MatchState())


def test_more_games_than_memory_holds_are_refused_up_front(capsys) -> None:
    from nardy.cli import main

    with pytest.raises(InvalidArgumentError, match="bytes for their boards and cubes, more than this machine's"):
        rollout(START, MatchState(), 10**13)
    assert main(["rollout", "short", "--cubeful", "--games", str(10**13)]) == 2
    assert "roll out in parts" in capsys.readouterr().err


@pytest.mark.parametrize("state", [MatchState(jacoby=True), MatchState(match_length=7, score=(4, 2))],
                         ids=["money", "match"])
def test_luck_adjustment_keeps_the_mean_and_cuts_the_error(state) -> None:
    """The same games (the luck's evaluations draw no dice), each corrected by its luck: the mean
    moves by less than three of the plain rollout's standard errors, which fall by a quarter or more."""
    position = position_from_id("sGfwATDgc/ABMA", "white")
    plain = rollout(position, state, 300, seed=3)
    adjusted = rollout(position, state, 300, seed=3, luck=True)
    assert adjusted.luck_adjusted and not plain.luck_adjusted
    assert (adjusted.doubled, adjusted.passed) == (plain.doubled, plain.passed)
    assert abs(adjusted.equity - plain.equity) < 3 * plain.equity_se
    assert adjusted.equity_se < 0.75 * plain.equity_se
    with pytest.raises(InvalidArgumentError, match="luck"):
        rollout(position, state, 10, luck=1)


def test_the_cli(capsys) -> None:
    from nardy.cli import main

    assert main(["rollout", "short", "sGfwATDgc/ABMA:cAngACAAIAAE", "--cubeful", "--games", "50"]) == 0
    out = capsys.readouterr().out
    assert "white on roll, 50 games (0-ply plays, the net's 0-ply cube decisions): cubeful equity" in out
    assert "MWC" in out
    assert main(["rollout", "short", "sGfwATDgc/ABMA:cAngACAAIAAE", "--cubeful", "--games", "20", "--luck"]) == 0
    assert "luck-adjusted" in capsys.readouterr().out
    assert main(["rollout", "short", "--cubeful", "--threads", "2"]) == 2
    assert "on one thread" in capsys.readouterr().err
    assert main(["rollout", "long", "--cubeful"]) == 2


def test_cubeful_and_cubeless_rollouts_print_the_same_95_percent_interval(capsys) -> None:
    from nardy.cli import main
    from nardy.evaluation.rollout import rollout as cubeless

    cubeful = rollout(START, MatchState(jacoby=True), 36)
    assert f"cubeful equity {cubeful.equity:+.3f} +- {1.96 * cubeful.equity_se:.3f} (95%); 36 games" in str(cubeful)
    plain = cubeless(START, 36)
    assert f"equity {plain.equity:+.4f} +- {1.96 * plain.equity_se:.4f} (95%; 36 games)" in str(plain)
    assert main(["rollout", "short", "--games", "36"]) == 0
    assert f"equity {plain.equity:+.3f} +- {1.96 * plain.equity_se:.3f} (95%)" in capsys.readouterr().out
    assert main(["rollout", "short", "--cubeful", "--games", "36"]) == 0
    assert f"+- {1.96 * cubeful.equity_se:.3f} (95%)" in capsys.readouterr().out


def test_self_play_with_the_cube() -> None:
    from nardy import Game, Match
    from nardy.evaluation.cubeful import play

    match = Match("short", 5, seed=7)
    play(match)
    assert match.winner is not None and max(match.score.values()) >= 5
    events = [kind for g in match.games for _, kind, _ in g.history()]
    assert "double" in events and events.count("double") == events.count("take") + events.count("drop")
    again = Match("short", 5, seed=7)
    play(again)
    assert [g.record for g in again.games] == [g.record for g in match.games]  # seeded: the same match
    game = Game("short", seed=3)        # a money game, with the cube
    play(game)
    assert game.over
    long_match = Match("long", 3, seed=2)
    play(long_match)
    assert long_match.winner is not None
    with pytest.raises(InvalidArgumentError, match="Game or a Match"):
        play("game")


def test_a_money_session_is_refused_not_played_forever() -> None:
    """A Match of length 0 is never won: play() once looped on it without end."""
    from nardy import Match
    from nardy.evaluation.cubeful import play

    session = Match("short", 0, seed=2)
    with pytest.raises(InvalidArgumentError, match="money session .* has no end: play its games one at a time"):
        play(session)
    assert session.games == []
    play(session.new_game())   # as the message says
    session.finish_game()
    assert len(session.games) == 1 and sum(session.score.values()) > 0


def test_the_last_roll_is_played() -> None:
    """Long nardy's last_roll_draw: the net on both sides plays the last roll (seed 12 draws)."""
    from nardy import Game, Rules
    from nardy.evaluation.cubeful import play

    game = Game(Rules("long", last_roll_draw=True), seed=12)
    play(game)
    assert game.result.kind == "draw"
