"""The two-sided bear-off table (`nardy.evaluation.two_sided`) and the money cube decisions it
prices exactly. (tests/evaluation/test_cube_gnubg.py checks them against GNU Backgammon.)"""

from __future__ import annotations

import numpy as np
import pytest

from nardy import InvalidPositionError, Position
from nardy.evaluation import two_sided
from nardy.evaluation.cube import decide
from nardy.formats.ids import MatchState

MONEY = MatchState(jacoby=True)


def board(mine: dict[int, int], theirs: dict[int, int]) -> list[int]:
    """A mover's-view board: {point: checkers} for each side, theirs in their own numbers."""
    view = [0] * 26
    for point, n in mine.items():
        view[point] = n
    for point, n in theirs.items():
        view[25 - point] = -n
    return view


def test_the_table_covers_six_checkers_a_side_at_home() -> None:
    assert two_sided.STATES == 924
    assert two_sided.covers(board({1: 3, 6: 3}, {2: 6}))
    assert not two_sided.covers(board({1: 4, 6: 3}, {2: 1}))      # seven checkers
    assert not two_sided.covers(board({7: 1}, {2: 1}))            # outside the home
    assert not two_sided.covers(board({1: 1}, {}))                # the other side is off
    on_bar = board({1: 1}, {2: 1})
    on_bar[25] = 1
    assert not two_sided.covers(on_bar)


def test_a_board_outside_the_table_or_no_board_is_refused() -> None:
    # equities once read the last state for a board outside the table, and covers raised IndexError
    with pytest.raises(InvalidPositionError, match="not a two-sided bear-off"):
        two_sided.equities(Position.start("short").view())
    for bad in ([0] * 5, "abc", [0.5] * 26):
        with pytest.raises(InvalidPositionError):
            two_sided.covers(bad)
        with pytest.raises(InvalidPositionError):
            two_sided.equities(bad)
    assert not two_sided.load().flags.writeable


def test_exact_values() -> None:
    """A checker on the 6-point comes off with 27 rolls of 36; else the other side's checker on
    its 1-point comes off: every column is 27/36 - 9/36 = 0.5."""
    e = two_sided.equities(board({6: 1}, {1: 1}))
    np.testing.assert_allclose(e, [0.5] * 4, atol=1e-12)
    # two checkers on the 1-point come off with any roll
    np.testing.assert_allclose(two_sided.equities(board({1: 2}, {6: 6})), [1.0] * 4)


def test_the_table_is_consistent() -> None:
    table = two_sided.load()
    assert table.shape == (4, 924, 924) and np.all(np.abs(table) <= 1.0 + 1e-12)
    cubeless, owned, centred, other = table[:, 1:, 1:]
    # owning the cube is worth at least a centred cube, which is worth at least the other's owning it
    assert np.all(owned >= centred - 1e-12) and np.all(centred >= other - 1e-12)


def test_money_decisions_come_from_the_table() -> None:
    """At money, decide prices these endings from the table, whatever probabilities it is given
    and at any look-ahead (gnubg's too): here double, and the take is worth as much as the pass."""
    position = Position(board({6: 1}, {1: 1}), "short", "white")
    d = decide(position, MONEY)
    assert (d.no_double, d.double_take, d.double_pass) == pytest.approx((0.5, 1.0, 1.0), abs=1e-12)
    assert d.action == "Double, pass" and d.probabilities == pytest.approx((0.75, 0, 0, 0, 0))
    assert decide(position, MONEY, probabilities=(0.6, 0, 0, 0, 0)).no_double == pytest.approx(0.5)
    assert decide(position, MONEY, ply=1).double_take == pytest.approx(1.0)
    owned = decide(position, MatchState(cube_value=2, cube_owner=1))
    assert owned.no_double == pytest.approx(0.5) and owned.action == "Redouble, pass"


def test_the_cache_is_written_read_and_replaced_when_damaged(tmp_path) -> None:
    path = tmp_path / two_sided.FILE_NAME
    built = two_sided.load(path)
    assert path.stat().st_size > 27_000_000
    np.testing.assert_array_equal(two_sided.load(path), built)
    data = bytearray(path.read_bytes())
    data[-1] ^= 0xFF
    path.write_bytes(bytes(data))
    np.testing.assert_array_equal(two_sided.load(path), built)       # computed again
    assert path.read_bytes()[-1] != data[-1]
