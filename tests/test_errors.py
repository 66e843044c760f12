"""One exception hierarchy: every error nardy raises on bad input is a NardyError naming the problem."""

import pytest

import nardy
from nardy import engine


def test_the_hierarchy():
    for name in ("InvalidPositionError", "InvalidNotationError", "InvalidDiceError", "IllegalMoveError",
                 "InvalidRulesError", "InvalidArgumentError"):
        cls = getattr(nardy, name)
        assert issubclass(cls, nardy.NardyError) and issubclass(cls, ValueError), name
    assert issubclass(nardy.GameOverError, nardy.NardyError) and not issubclass(nardy.GameOverError, ValueError)
    assert issubclass(nardy.SimulationError, nardy.InvalidArgumentError)


def test_unknown_backend_and_bad_depth():
    board = nardy.Position.start("long").to_bytes()
    with pytest.raises(nardy.InvalidArgumentError, match="unknown backend 'fortran'"):
        engine.perft(board, 1, nardy.Rules("long"), "fortran")
    for backend in ("cython", "python"):
        with pytest.raises(nardy.InvalidArgumentError, match="depth must be"):
            engine.perft(board, -1, nardy.Rules("long"), backend)
    with pytest.raises(nardy.InvalidArgumentError, match="whole number of points \\(0 for money\\)"):
        nardy.Match("short", -3)


def test_game_over_is_raised_for_finished_positions(backend):
    finished = nardy.Position.from_points("long", white={}, black={24: 15}, own_numbers=True)
    assert finished.is_game_over() and finished.winner() is nardy.Color.WHITE
    with pytest.raises(nardy.GameOverError, match="the game is over"):
        finished.legal_moves((6, 5), backend=backend)
