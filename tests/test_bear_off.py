"""Bearing off (docs/rules.md section 3) in both variants, on both backends.

Boards are in the mover's view (docs/rules.md section 1). The opponent's checkers stand on the
mover's point 12, far from the mover's home (short nardy: the opponent's 13; long nardy: the
opponent's head), so the same board is a valid position of either game and nothing of the
opponent's is in the way. Mover's boards avoid six points in a row (long nardy's block rule).
"""

from __future__ import annotations

import pytest

from nardy import Color, GameOverError, IllegalMoveError, Move, Position, Rules
from nardy import _backend as engine

VARIANTS = ["short", "long"]
OPP = {12: 2}


def board(mover, opp=OPP, *, bar: int = 0) -> tuple[int, ...]:
    view = [0] * 26
    for p, n in mover.items():
        view[p] += n
    for p, n in opp.items():
        assert view[p] == 0
        view[p] -= n
    view[25] = bar
    return tuple(view)


def results(view, dice, rules, backend) -> set[tuple[int, ...]]:
    found = engine.results(engine.as_bytes(view), dice, rules, backend)
    return {engine.as_ints(child) for child, _ in found}


def on_board(view) -> int:
    return view[25] + sum(n for n in view[1:25] if n > 0)


@pytest.fixture(params=VARIANTS)
def variant(request) -> str:
    return request.param


def test_bear_off_with_exact_die(backend, variant):
    rules = Rules(variant)
    view = board({6: 2, 3: 2, 1: 1})
    assert board({6: 1, 3: 1, 1: 1}) in results(view, (6, 3), rules, backend)  # 6/off 3/off
    child = Position(view, variant).apply(Move((6, 3), [(6, 0), (3, 0)]), rules, backend=backend)
    assert child.borne_off(Color.WHITE) == 12


def test_bear_off_higher_die_from_highest_point(backend, variant):
    # 6 and 5 are both above the highest point (4): each bears a checker off from 4
    rules = Rules(variant)
    view = board({4: 2, 2: 1})
    assert results(view, (6, 5), rules, backend) == {board({2: 1})}


def test_bear_off_higher_die_not_allowed_while_checker_higher(backend, variant):
    # 4-3 with checkers on 5 and 2: neither die bears off from 2 while 5 is occupied.
    # Legal: 5/1 then 2/off (3: 2 is now the highest), or 5/2 then 2/off (4).
    rules = Rules(variant)
    view = board({5: 1, 2: 1})
    assert results(view, (4, 3), rules, backend) == {board({1: 1}), board({2: 1})}
    with pytest.raises(IllegalMoveError, match="cannot bear off from 2 with a 4 while a checker stands on a higher point"):
        Position(view, variant).apply(Move((4, 1), [(2, 0), (5, 4)]), rules, backend=backend)


def test_bear_off_not_allowed_while_checker_outside_home(backend, variant):
    rules = Rules(variant)
    view = board({20: 1, 3: 1})
    got = results(view, (6, 3), rules, backend)
    assert got == {board({11: 1, 3: 1})}  # 20/11 is the only play; 3/off is not allowed
    with pytest.raises(IllegalMoveError, match="cannot bear off while a checker is outside home"):
        Position(view, variant).apply(Move((6, 3), [(3, 0), (20, 14)]), rules, backend=backend)


def test_bear_off_not_allowed_while_checker_just_outside_home(backend, variant):
    # a checker on 7 (one pip outside home) stops 1-1 from bearing off from 1 until it enters
    rules = Rules(variant)
    view = board({7: 1, 1: 2})
    got = results(view, (1, 1), rules, backend)
    # 7/6 then three 1s from inside: 6/5/4/3, 6/5/4 1/off, 6/5 1/off 1/off, 6/5 5/4 ... ;
    # never three checkers off, and never a 1 borne off before 7/6
    assert board({3: 1, 1: 2}) in got
    assert board({5: 1}) in got
    for moves in Position(view, variant).all_sequences((1, 1), rules, backend=backend).values():
        for m in moves:
            assert m.steps[0].src == 7


def test_bear_off_not_allowed_while_checker_on_bar(backend):
    rules = Rules("short")
    view = board({3: 1}, bar=1)
    got = results(view, (6, 3), rules, backend)
    assert all(on_board(b) == 2 for b in got)
    assert got == {board({16: 1, 3: 1})}  # bar/19/16 or bar/22/16
    with pytest.raises(IllegalMoveError, match="a checker on the bar must enter first"):
        Position(view, "short").apply(Move((6, 3), [(3, 0), (25, 19)]), rules, backend=backend)
    with pytest.raises(IllegalMoveError, match="cannot bear off while a checker is outside home"):
        Position(view, "short").apply(Move((6, 3), [(25, 19), (3, 0)]), rules, backend=backend)


def test_bear_off_optional_moving_inside_home_is_legal(backend, variant):
    rules = Rules(variant)
    view = board({6: 2, 3: 1, 2: 1})
    got = results(view, (3, 2), rules, backend)
    assert board({4: 1, 3: 2, 2: 1}) in got  # 6/3 6/4: nothing borne off
    assert board({6: 1, 3: 1, 2: 1, 1: 1}) in got  # 6/1
    assert board({6: 2}) in got  # 3/off 2/off
    assert board({6: 1, 3: 2}) in got  # 6/3 2/off
    assert Position(view, variant).apply(Move((3, 2), [(6, 3), (6, 4)]), rules, backend=backend)


def test_bear_off_after_entering_home_same_turn(backend, variant):
    # the condition is checked before each step: 7/4 (3) lets the 4 bear off, and 7/3 (4) the 3
    rules = Rules(variant)
    view = board({7: 1, 3: 1})
    assert results(view, (4, 3), rules, backend) == {board({3: 1})}
    p = Position(view, variant)
    a = p.apply(Move((4, 3), [(7, 4), (4, 0)]), rules, backend=backend)
    b = p.apply(Move((4, 3), [(7, 3), (3, 0)]), rules, backend=backend)
    assert a == b
    assert a.borne_off(Color.WHITE) == 14


@pytest.mark.parametrize(
    ("mover", "dice", "steps"),
    [
        ({1: 1}, (6, 6), 1),  # one step of four ends the game
        ({2: 1, 1: 1}, (6, 6), 2),
        ({2: 1}, (1, 1), 2),  # 2/1/off
        ({3: 1, 2: 1}, (4, 3), 2),
    ],
)
def test_game_ends_with_last_checker_off(backend, variant, mover, dice, steps):
    rules = Rules(variant)
    view = board(mover)
    assert results(view, dice, rules, backend) == {board({})}
    p = Position(view, variant)
    (move,) = p.legal_moves(dice, rules, backend=backend)
    assert len(move.steps) == steps  # the turn ends the moment the last checker is off
    assert move.steps[-1].dst == 0
    end = p.apply(move, rules, backend=backend)
    assert end.is_game_over() and end.winner() is Color.WHITE
    assert end.turn is Color.BLACK
    with pytest.raises(GameOverError):
        end.legal_moves((3, 1), rules, backend=backend)
    with pytest.raises(GameOverError):
        engine.results(end.to_bytes(), (3, 1), rules, backend)
    with pytest.raises(GameOverError):
        Position(board({}), variant).legal_moves((3, 1), rules, backend=backend)


def test_game_end_counts_the_steps_actually_played(backend, variant):
    # one checker on 2, roll 6-1: 2/1/off plays two steps, 2/off one, so only 2/1/off is a
    # legal sequence (docs/rules.md 3); without a blot on 1 both reach the same position
    rules = Rules(variant)
    view = board({2: 1})
    p = Position(view, variant)
    assert results(view, (6, 1), rules, backend) == {board({})}
    seqs = [m.pairs() for moves in p.all_sequences((6, 1), rules, backend=backend).values() for m in moves]
    assert seqs == [((2, 1), (1, 0))]
    with pytest.raises(IllegalMoveError, match="as fully as possible"):
        p.apply(Move((6, 1), [(2, 0)]), rules, backend=backend)


def test_bear_off_point_one_opponent_checker(backend, variant):
    # one opponent checker on the mover's 1; mover on 4 and 2, roll 6-1.
    # long nardy: the point is closed (no hitting): 4/off then the 1 is dead, so the only play
    # using both dice is 4/3/off. short nardy: it is a blot, and 2/1* 4/off also plays both.
    rules = Rules(variant)
    opp = {1: 1, 12: 1}
    view = board({4: 1, 2: 1}, opp)
    expected = {board({2: 1}, opp)}
    if variant == "short":
        hit = list(board({1: 1}, {12: 1}))
        hit[0] = -1
        expected.add(tuple(hit))
    assert results(view, (6, 1), rules, backend) == expected
