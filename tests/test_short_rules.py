"""Short nardy (backgammon) move rules: docs/rules.md sections 1, 3 and 5, on both backends.

Boards are written in the mover's view (docs/rules.md section 1): index 1..24 the mover's points,
positive = the mover's checkers, negative = the opponent's, 25 the mover's bar, 0 the
opponent's bar as a negative count. Expected results are built by hand with `play`, a tiny
independent step applier, never by the engine under test.
"""

from __future__ import annotations

import pytest

from nardy import IllegalMoveError, Move, Position, Rules, Step
from nardy import _backend as engine

SHORT = Rules("short")
ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(d1, 7)]


def board(mover=None, opp=None, *, bar: int = 0, opp_bar: int = 0) -> tuple[int, ...]:
    """A mover's-view board from {mover's point: count} for each side (opponent counts positive)."""
    view = [0] * 26
    for p, n in (mover or {}).items():
        view[p] += n
    for p, n in (opp or {}).items():
        assert view[p] == 0, f"both sides on point {p}"
        view[p] -= n
    view[25], view[0] = bar, -opp_bar
    return tuple(view)


def play(view, *steps) -> tuple[int, ...]:
    """Apply (src, dst) steps by hand: a blot on dst is hit to the opponent's bar (index 0)."""
    b = list(view)
    for src, dst in steps:
        assert b[src] > 0, (src, dst, b)
        b[src] -= 1
        if dst > 0:
            if b[dst] == -1:
                b[dst] = 0
                b[0] -= 1
            assert b[dst] >= 0, f"point {dst} is closed"
            b[dst] += 1
    return tuple(b)


def results(view, dice, rules, backend) -> set[tuple[int, ...]]:
    """The distinct boards (mover's view, before the turn passes) that the roll can lead to."""
    found = engine.results(engine.as_bytes(view), dice, rules, backend)
    boards = [engine.as_ints(child) for child, _ in found]
    assert len(boards) == len(set(boards)), "a result was reported twice"
    return set(boards)


def pos(view) -> Position:
    return Position(view, "short")


# -- opening rolls (docs/rules.md section 7 reference points) ---------------------------------------


@pytest.mark.parametrize(("dice", "count"), [((6, 5), 7), ((5, 6), 7), ((3, 1), 16), ((1, 3), 16), ((1, 1), 42)])
def test_opening_roll_distinct_result_counts(backend, dice, count):
    start = Position.start("short")
    assert len(start.legal_moves(dice, SHORT, backend=backend)) == count
    assert len(results(start.view(), dice, SHORT, backend)) == count


def test_opening_6_5_results_are_the_known_seven(backend):
    # the opponent holds the mover's 19, 17, 12 and 1, so 24/19 and 6/1 are closed
    start = Position.start("short").view()
    expected = {
        play(start, (24, 18), (18, 13)),  # 24/13
        play(start, (24, 18), (13, 8)),
        play(start, (24, 18), (8, 3)),
        play(start, (13, 7), (13, 8)),
        play(start, (13, 7), (7, 2)),  # 13/2, the same as 13/8 8/2
        play(start, (13, 7), (8, 3)),
        play(start, (8, 2), (8, 3)),
    }
    assert len(expected) == 7
    assert play(start, (13, 8), (8, 2)) in expected
    assert results(start, (6, 5), SHORT, backend) == expected


# -- hitting ------------------------------------------------------------------------------------


def test_hit_blot_puts_it_on_opponent_bar(backend):
    # the opponent already has one checker on the bar: the hit makes it two (index 0: -1 -> -2)
    view = board({13: 2, 6: 3}, {10: 1, 20: 2}, opp_bar=1)
    expected = board({13: 1, 10: 1, 6: 2, 4: 1}, {20: 2}, opp_bar=2)  # 13/10* 6/4
    assert expected == play(view, (13, 10), (6, 4))
    assert expected in results(view, (3, 2), SHORT, backend)
    child = pos(view).apply(Move((3, 2), [(13, 10), (6, 4)]), SHORT, backend=backend)
    assert child == pos(expected).pass_turn()
    assert child.bar(child.turn) == 2  # the opponent, now on roll, has two on its bar
    hit_steps = [s for m in pos(view).legal_moves((3, 2), SHORT, backend=backend) for s in m.steps if s.hit]
    assert hit_steps and all(s.dst == 10 for s in hit_steps)


def test_hit_blot_exact_results(backend):
    # one checker, 3-1: 13/10*/9 hits on the way, 13/12/9 does not: two different results
    view = board({13: 1}, {10: 1, 20: 2})
    assert results(view, (3, 1), SHORT, backend) == {
        board({9: 1}, {20: 2}, opp_bar=1),
        board({9: 1}, {10: 1, 20: 2}),
    }


def test_hit_several_blots_in_one_turn(backend):
    # two checkers hit two blots: 13/10* 8/7*
    view = board({13: 1, 8: 1}, {10: 1, 7: 1, 20: 2})
    both = board({10: 1, 7: 1}, {20: 2}, opp_bar=2)
    assert both == play(view, (13, 10), (8, 7))
    assert both in results(view, (3, 1), SHORT, backend)


def test_hit_several_blots_one_checker_with_a_double(backend):
    # 13/10*/7*/4/1 is the only play of 3-3 (2/off is not allowed while 13 is outside home)
    view = board({13: 1, 2: 1}, {10: 1, 7: 1, 20: 2})
    assert results(view, (3, 3), SHORT, backend) == {board({1: 1, 2: 1}, {20: 2}, opp_bar=2)}
    (move,) = pos(view).legal_moves((3, 3), SHORT, backend=backend)
    assert move.pairs() == ((13, 10), (10, 7), (7, 4), (4, 1))
    assert [s.hit for s in move.steps] == [True, True, False, False]


def test_hit_on_intermediate_point_one_checker(backend):
    # 24/18*/13 hits the blot on 18 on the way; 24/19/13 passes it by: two different results
    view = board({24: 1, 6: 2}, {18: 1, 1: 2})
    got = results(view, (6, 5), SHORT, backend)
    hit_through = board({13: 1, 6: 2}, {1: 2}, opp_bar=1)
    passed_by = board({13: 1, 6: 2}, {18: 1, 1: 2})
    assert got == {hit_through, passed_by}
    p = pos(view)
    by_child = dict(zip(p.children((6, 5), SHORT, backend=backend), p.legal_moves((6, 5), SHORT, backend=backend)))
    m = by_child[pos(hit_through).pass_turn()]
    assert m.pairs() == ((24, 18), (18, 13))
    assert m.steps[0].hit and not m.steps[1].hit
    assert not any(s.hit for s in by_child[pos(passed_by).pass_turn()].steps)


# -- entering from the bar ---------------------------------------------------------------------

# the opponent holds the mover's 24, 22 and 20: dice 1, 3 and 5 cannot enter; 2, 4 and 6 can
PARTLY_CLOSED = {24: 2, 22: 2, 20: 2, 1: 3}


@pytest.mark.parametrize("dice", [r for r in ROLLS if r[0] != r[1]])
def test_enter_from_bar_only_open_points(backend, dice):
    view = board({6: 2}, PARTLY_CLOSED, bar=1)
    open_dice = [d for d in dice if d % 2 == 0]
    p = pos(view)
    if not open_dice:
        assert results(view, dice, SHORT, backend) == {view}
        assert p.legal_moves(dice, SHORT, backend=backend) == [Move(dice, ())]
        return
    entries = set()
    for moves in p.all_sequences(dice, SHORT, backend=backend).values():
        for m in moves:
            assert m.steps[0].src == 25
            entries.add(m.steps[0].dst)
    assert entries == {25 - d for d in open_dice}  # die d enters at mover's point 25 - d


@pytest.mark.parametrize("d", range(1, 7))
def test_enter_from_bar_die_d_enters_at_25_minus_d(backend, d):
    # the only checker is on the bar: it enters on 25-d and then takes three more steps of d
    # (the opponent's point 2 is never on the way: 25 - k*d = 2 has no solution for k <= 4)
    view = board({}, {2: 2}, bar=1)
    assert results(view, (d, d), SHORT, backend) == {board({25 - 4 * d: 1}, {2: 2})}
    (move,) = pos(view).legal_moves((d, d), SHORT, backend=backend)
    assert move.steps[0] == Step(25, 25 - d)
    assert len(move.steps) == 4


def test_enter_from_bar_exact_results_4_3(backend):
    view = board({6: 2}, PARTLY_CLOSED, bar=1)
    # 3 cannot enter (22 closed): bar/21, then the 3 is played normally: 21/18 or 6/3
    assert results(view, (4, 3), SHORT, backend) == {
        board({18: 1, 6: 2}, PARTLY_CLOSED),
        board({21: 1, 6: 1, 3: 1}, PARTLY_CLOSED),
    }


def test_enter_from_bar_hits_blot_on_entry_point(backend):
    view = board({6: 2}, {21: 1, 1: 2}, bar=1)
    got = results(view, (4, 4), SHORT, backend)
    assert all(b[0] == -1 for b in got)  # every play enters with a 4 on 21, hitting
    assert board({9: 1, 6: 2}, {1: 2}, opp_bar=1) in got


def test_fully_closed_board_loses_the_roll(backend):
    closed = {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 3: 3}
    view = board({13: 5, 8: 3, 6: 5}, closed, bar=2)
    p = pos(view)
    for dice in ROLLS:
        assert results(view, dice, SHORT, backend) == {view}
        assert p.legal_moves(dice, SHORT, backend=backend) == [Move(dice, ())]
        assert p.children(dice, SHORT, backend=backend) == [p.pass_turn()]


def test_bar_first_no_other_checker_moves(backend):
    # 19 closed: a 6 cannot enter; with 6-6 the roll is lost though 13/7 etc. would be open
    view = board({13: 5, 8: 3, 6: 5}, {19: 2, 1: 2}, bar=1)
    assert results(view, (6, 6), SHORT, backend) == {view}
    # 6-1: bar/24 first, then the 6 is played normally by any checker
    got = results(view, (6, 1), SHORT, backend)
    assert got == {
        play(view, (25, 24), (24, 18)),
        play(view, (25, 24), (13, 7)),
        play(view, (25, 24), (8, 2)),
    }
    for m in pos(view).legal_moves((6, 1), SHORT, backend=backend):
        assert m.steps[0] == Step(25, 24)


def test_bar_first_apply_error_message(backend):
    view = board({13: 5, 8: 3, 6: 5}, {19: 2, 1: 2}, bar=1)
    with pytest.raises(IllegalMoveError, match="a checker on the bar must enter first"):
        pos(view).apply(Move((6, 1), [(13, 7), (25, 24)]), SHORT, backend=backend)


def test_two_on_bar_only_one_can_enter(backend):
    # 22 closed: the 4 enters one checker on 21; the 3 cannot be played (one is still on the bar)
    view = board({6: 5}, {22: 2, 1: 2}, bar=2)
    got = results(view, (4, 3), SHORT, backend)
    assert got == {board({21: 1, 6: 5}, {22: 2, 1: 2}, bar=1)}
    moves = pos(view).legal_moves((4, 3), SHORT, backend=backend)
    assert moves == [Move((4, 3), [(25, 21)])]
    with pytest.raises(IllegalMoveError, match="a checker on the bar must enter first"):
        pos(view).apply(Move((4, 3), [(25, 21), (6, 3)]), SHORT, backend=backend)


def test_two_on_bar_both_enter_then_rest_played_normally(backend):
    view = board({6: 5}, {1: 2}, bar=2)
    got = results(view, (4, 4), SHORT, backend)
    entered = board({21: 2, 6: 5}, {1: 2})
    assert play(entered, (21, 17), (21, 17)) in got
    assert play(entered, (6, 2), (6, 2)) in got
    assert all(b[25] == 0 for b in got)


# -- use as much of the roll as possible -------------------------------------------------------


def test_larger_die_rule_when_either_die_alone(backend):
    # one checker on 13; 7 and 8 are open but 2 is closed: the 6 or the 5 alone, not both
    view = board({13: 1}, {2: 2, 24: 2})
    assert results(view, (6, 5), SHORT, backend) == {board({7: 1}, {2: 2, 24: 2})}
    assert results(view, (5, 6), SHORT, backend) == {board({7: 1}, {2: 2, 24: 2})}
    with pytest.raises(IllegalMoveError, match="the larger die must be played"):
        pos(view).apply(Move((6, 5), [(13, 8)]), SHORT, backend=backend)


def test_larger_die_rule_only_smaller_playable(backend):
    # 7 closed as well: only the 5 can be played, so it is
    view = board({13: 1}, {2: 2, 7: 2, 24: 2})
    assert results(view, (6, 5), SHORT, backend) == {board({8: 1}, {2: 2, 7: 2, 24: 2})}
    assert pos(view).legal_moves((6, 5), SHORT, backend=backend) == [Move((6, 5), [(13, 8)])]


def test_max_steps_rule_order_that_plays_both_dice(backend):
    # checkers on 9 and 8; 3 and 23 closed. Playing the 2 first with 8/6 leaves no 6
    # (9/3 closed, no bearing off from outside home), so 8/6 alone is not legal: every legal
    # play uses both dice.
    view = board({9: 1, 8: 1}, {3: 2, 23: 2})
    got = results(view, (6, 2), SHORT, backend)
    assert got == {
        play(view, (8, 2), (9, 7)),
        play(view, (9, 7), (7, 1)),
    }
    assert play(view, (8, 6)) not in got
    with pytest.raises(IllegalMoveError, match="the roll must be used as fully as possible"):
        pos(view).apply(Move((6, 2), [(8, 6)]), SHORT, backend=backend)


def test_max_steps_rule_single_checker_order(backend):
    # one checker on 10, 6 closed: the 4 first is blocked, the 3 first (10/7) then the 4 (7/3)
    # plays both, so 10/7/3 is the only play; 10/7 alone is not legal
    view = board({10: 1}, {6: 2, 24: 2})
    assert results(view, (4, 3), SHORT, backend) == {board({3: 1}, {6: 2, 24: 2})}
    with pytest.raises(IllegalMoveError, match="as fully as possible"):
        pos(view).apply(Move((4, 3), [(10, 7)]), SHORT, backend=backend)


def test_last_checker_hit_then_off_not_direct_off(backend):
    # docs/rules.md 3: one checker on 2, an opponent blot on 1, roll 6-1: only 2/1*/off is legal
    view = board({2: 1}, {1: 1, 20: 2})
    hit_then_off = board({}, {20: 2}, opp_bar=1)
    direct_off = board({}, {1: 1, 20: 2})
    for dice in ((6, 1), (1, 6)):
        assert results(view, dice, SHORT, backend) == {hit_then_off}
        moves = pos(view).legal_moves(dice, SHORT, backend=backend)
        assert len(moves) == 1
        assert moves[0].pairs() == ((2, 1), (1, 0))
        assert moves[0].steps[0].hit
    with pytest.raises(IllegalMoveError, match="as fully as possible"):
        pos(view).apply(Move((6, 1), [(2, 0)]), SHORT, backend=backend)
    assert direct_off not in results(view, (6, 1), SHORT, backend)


def test_no_legal_step_forfeits_roll_without_bar(backend):
    # one checker on 13, 7 and 8 both closed: 6-5 cannot be played at all
    view = board({13: 1}, {7: 2, 8: 2})
    assert results(view, (6, 5), SHORT, backend) == {view}
    assert pos(view).legal_moves((6, 5), SHORT, backend=backend) == [Move((6, 5), ())]


def test_two_blots_closed_point_is_two_checkers(backend):
    # a point with two opponent checkers is closed; with one it is a blot and can be hit
    view = board({13: 1}, {10: 2, 20: 1})
    got = results(view, (3, 3), SHORT, backend)
    assert got == {view}
    with pytest.raises(IllegalMoveError, match="point 10 is closed"):
        pos(view).apply(Move((3, 3), [(13, 10)]), SHORT, backend=backend)
