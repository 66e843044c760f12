"""One exception hierarchy: every error nardy raises on bad input is a NardyError naming the problem."""

import pytest

import nardy
from nardy import _backend as engine


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


def test_check_whole_takes_whole_numbers_in_bounds_and_names_the_parameter_and_bound():
    import numpy as np

    from nardy.errors import check_whole

    for value in (0, 5, 9):
        check_whole(value, "n", 0, 9)
    check_whole(2**70, "n", 1)                                  # no upper bound
    check_whole(np.int64(3), "n", 0, kinds=(int, np.integer))
    for value, bounds in ((-1, "0..9"), (10, "0..9"), (True, "0..9"), (3.0, "0..9"), ("3", "0..9"), (None, "0..9"),
                          (np.int64(3), "0..9")):
        with pytest.raises(nardy.InvalidArgumentError, match=f"^n must be a whole number {bounds}, got "):
            check_whole(value, "n", 0, 9)
    with pytest.raises(nardy.InvalidArgumentError, match=r"^n must be a whole number >= 1, got 0$"):
        check_whole(0, "n", 1)
    with pytest.raises(nardy.SimulationError, match=r"^games must be a whole number >= 0, got -1$"):
        check_whole(-1, "games", 0, error=nardy.SimulationError)
    with pytest.raises(nardy.InvalidArgumentError, match=r"got <an integer of \d+ bits>"):
        check_whole(-10**5000, "seed", 0)                       # too long for repr: still the nardy error


def test_game_over_is_raised_for_finished_positions(backend):
    finished = nardy.Position.from_points("long", white={}, black={24: 15}, own_numbers=True)
    assert finished.is_game_over() and finished.winner() is nardy.Color.WHITE
    with pytest.raises(nardy.GameOverError, match="the game is over"):
        finished.legal_moves((6, 5), backend=backend)
