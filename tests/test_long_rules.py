"""Long nardy rules (docs/rules.md sections 1, 3, 4 and 7), each checked on both backends.

Boards are mover's-view arrays built with `long_cases.board(mine, theirs)` in the MOVER's
numbers: the mover's head is its point 24, the opponent's head its point 12, and the
opponent's own point q is the mover's `opp(q)`.
"""

from __future__ import annotations

import pytest

from long_cases import (
    RULE_COMBOS,
    ROLLS,
    START,
    after,
    board,
    holds,
    long_rules,
    opp,
    perft,
    results,
    results_with_pairs,
)
from nardy import Color, GameOverError, IllegalMoveError, InvalidPositionError, Move, Position, Status
from nardy import _backend as engine

DEFAULT = long_rules()
HEAD_OPTIONS = ("strict", "permission", "none")


# --------------------------------------------------------------------------------------------
# section 1: coordinates
# --------------------------------------------------------------------------------------------


def test_coordinates_long_start_view_and_pips(backend):
    p = Position.start("long")
    assert p.view() == START
    assert p.view()[24] == 15 and p.view()[12] == -15
    assert p.pip_count(Color.WHITE, backend=backend) == 360
    assert p.pip_count(Color.BLACK, backend=backend) == 360


def test_coordinates_opponent_point_q_is_mover_point_q_plus_or_minus_12(backend):
    # White has one checker on White 4 (= Black 16), Black is on roll: in Black's view that
    # checker is on the mover's 16, White's head (White 24) on the mover's 12.
    p = Position.from_points("long", white={24: 14, 4: 1}, black={12: 15}, turn=Color.BLACK)
    assert p.view() == board({24: 15}, {12: 14, 16: 1})
    assert opp(4) == 16 and opp(24) == 12 and opp(13) == 1
    # pips in each side's own numbers: White 14*24 + 4, Black 15*24
    assert p.pip_count(Color.WHITE, backend=backend) == 14 * 24 + 4
    assert p.pip_count(Color.BLACK, backend=backend) == 360


def test_coordinates_children_are_seen_by_the_other_side(backend):
    # White opens 6-5 (24/13); Black is then on roll and sees White's checker on its 1 (White 13)
    (child,) = Position.start("long").children((6, 5), DEFAULT, backend=backend)
    assert child.turn is Color.BLACK
    assert child.view() == board({24: 15}, {12: 14, opp(13): 1})
    assert child.checkers(Color.WHITE) == {24: 14, 13: 1}
    assert child.pass_turn().view() == board({24: 14, 13: 1}, {12: 15})


# --------------------------------------------------------------------------------------------
# the opening (section 2 + 4): all 21 rolls from the start
# --------------------------------------------------------------------------------------------


def test_opening_every_roll_has_one_result_except_3_3(backend):
    for dice in ROLLS:
        found = results(START, dice, DEFAULT, backend)
        if dice == (3, 3):
            assert found == {
                after(START, [(24, 21), (21, 18), (18, 15), (24, 21)]),  # 15 and 21
                after(START, [(24, 21), (21, 18), (24, 21), (21, 18)]),  # 18 and 18
            }, dice
        else:
            assert len(found) == 1, (dice, found)
    assert sum(len(results(START, d, DEFAULT, backend)) for d in ROLLS) == 22


def test_opening_6_6_plays_two_checkers_to_18_and_stops(backend):
    found = results(START, (6, 6), DEFAULT, backend)
    assert found == {board({24: 13, 18: 2}, {12: 15})}
    (move,) = Position.start("long").legal_moves((6, 6), DEFAULT, backend=backend)
    assert sorted(move.pairs()) == [(24, 18), (24, 18)]  # two steps only: 18/12 is the opponent's head


def test_opening_5_5_plays_one_checker_to_4(backend):
    assert results(START, (5, 5), DEFAULT, backend) == {board({24: 14, 4: 1}, {12: 15})}
    (move,) = Position.start("long").legal_moves((5, 5), DEFAULT, backend=backend)
    assert move.pairs() == ((24, 19), (19, 14), (14, 9), (9, 4))


def test_opening_4_4_plays_two_checkers_to_16(backend):
    assert results(START, (4, 4), DEFAULT, backend) == {board({24: 13, 16: 2}, {12: 15})}


@pytest.mark.parametrize("dice", [(1, 1), (2, 2)])
def test_opening_small_doubles_play_one_checker_four_times(backend, dice):
    d = dice[0]
    assert results(START, dice, DEFAULT, backend) == {board({24: 14, 24 - 4 * d: 1}, {12: 15})}


def test_opening_non_double_takes_one_checker_off_the_head(backend):
    for d1, d2 in ROLLS:
        if d1 == d2:
            continue
        found = results(START, (d1, d2), DEFAULT, backend)
        assert found == {board({24: 14, 24 - d1 - d2: 1}, {12: 15})}, (d1, d2)


# --------------------------------------------------------------------------------------------
# section 4: no hitting
# --------------------------------------------------------------------------------------------


def test_no_hitting_a_single_opponent_checker_closes_its_point(backend):
    v = board({24: 14, 20: 1}, {12: 14, 17: 1})
    found = results(v, (3, 1), DEFAULT, backend)
    assert found == {
        after(v, [(24, 21), (21, 20)]),  # 24/20 (also 24/23/20)
        after(v, [(24, 21), (20, 19)]),
        after(v, [(20, 19), (19, 16)]),  # 20/16 only by way of 19: 20/17 is closed
    }
    assert all(r[17] == -1 for r in found)  # the blot is never hit
    for p in Position(v, "long").legal_moves((3, 1), DEFAULT, backend=backend):
        assert not any(s.hit for s in p.steps)


def test_no_hitting_apply_names_the_held_point(backend):
    p = Position(board({24: 14, 20: 1}, {12: 14, 17: 1}), "long")
    with pytest.raises(IllegalMoveError, match="point 17 is held by the opponent"):
        p.apply(Move((3, 1), [(20, 17), (17, 16)]), DEFAULT, backend=backend)


def test_no_hitting_the_opponents_head_is_closed(backend):
    # 6-6 from 18: 18/12 lands on the opponent's head
    v = board({18: 1, 24: 14}, {12: 15})
    found = results(v, (6, 6), DEFAULT, backend)
    assert all(r[12] == -15 for r in found)
    assert found == {after(v, [(24, 18)])}  # only the head checker's one six; nothing else moves


def test_no_hitting_a_combined_move_needs_an_open_intermediate_point(backend):
    # 6-5 from the head with the opponent on the mover's 18 and 19: 24/13 is impossible
    # (both intermediate points are closed) though 13 is empty; nothing can be played
    v = board({24: 15}, {12: 13, 18: 1, 19: 1})
    assert results_with_pairs(v, (6, 5), DEFAULT, backend) == {v: ()}
    with pytest.raises(IllegalMoveError, match="held by the opponent"):
        Position(v, "long").apply(Move((6, 5), [(24, 18), (18, 13)]), DEFAULT, backend=backend)


# --------------------------------------------------------------------------------------------
# section 4: head rule
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("head_exception", HEAD_OPTIONS)
def test_head_rule_at_most_one_checker_leaves_the_head_after_the_first_turn(backend, head_exception):
    rules = long_rules(head_exception=head_exception)
    v = board({24: 14, 15: 1}, {12: 14, 23: 1})
    for dice in ROLLS:
        for r in results(v, dice, rules, backend):
            assert r[24] >= 13, (dice, r)
    # 6-5: the head checker takes both dice, or each checker one
    assert results(v, (6, 5), rules, backend) == {
        after(v, [(24, 18), (18, 13)]),
        after(v, [(24, 18), (15, 10)]),
        after(v, [(24, 19), (15, 9)]),
        after(v, [(15, 9), (9, 4)]),
    }


def test_head_rule_doubles_after_the_first_turn_move_one_head_checker(backend):
    # 14 on the head (not the first turn): 6-6 may not take a second checker from the head
    v = board({24: 14, 23: 1}, {12: 15})
    for h in HEAD_OPTIONS:
        found = results(v, (6, 6), long_rules(head_exception=h), backend)
        assert min(r[24] for r in found) == 13, h
        assert after(v, [(24, 18), (23, 17), (17, 11), (11, 5)]) in found


def test_head_rule_apply_second_checker_from_the_head(backend):
    p = Position(board({24: 14, 15: 1}, {12: 14, 23: 1}), "long")
    with pytest.raises(IllegalMoveError, match="second checker from the head"):
        p.apply(Move((6, 5), [(24, 18), (24, 19)]), DEFAULT, backend=backend)
    # the same turn with one head checker is fine
    child = p.apply(Move((6, 5), [(24, 18), (15, 10)]), DEFAULT, backend=backend)
    assert child.pass_turn().view() == after(p.view(), [(24, 18), (15, 10)])


def test_head_rule_apply_second_checker_from_the_head_with_a_double(backend):
    p = Position(board({24: 14, 23: 1}, {12: 15}), "long")
    with pytest.raises(IllegalMoveError, match="second checker from the head"):
        p.apply(Move((6, 6), [(24, 18), (24, 18), (23, 17), (17, 11)]), DEFAULT, backend=backend)


# --------------------------------------------------------------------------------------------
# section 4: first-turn exception (6-6, 4-4, 3-3) and its three readings
# --------------------------------------------------------------------------------------------

# Black answering White's 5-5 opening (24/4 in White's numbers = Black's 16)
ANSWER_TO_5_5 = board({24: 15}, {12: 14, 16: 1})


def test_first_turn_exception_strict_answer_to_5_5_with_4_4_plays_one_four(backend):
    rules = long_rules(head_exception="strict")
    assert rules == DEFAULT  # strict is the default
    found = results_with_pairs(ANSWER_TO_5_5, (4, 4), rules, backend)
    assert list(found) == [after(ANSWER_TO_5_5, [(24, 20)])]
    assert list(found.values()) == [((24, 20),)]  # one step only: 20/16 is held by White
    (move,) = Position(ANSWER_TO_5_5, "long", Color.BLACK).legal_moves((4, 4), rules, backend=backend)
    assert move.pairs() == ((24, 20),)


def test_first_turn_exception_strict_apply_names_second_head_checker(backend):
    p = Position(ANSWER_TO_5_5, "long", Color.BLACK)
    with pytest.raises(IllegalMoveError, match="second checker from the head"):
        p.apply(Move((4, 4), [(24, 20), (24, 20)]), DEFAULT, backend=backend)


def test_first_turn_exception_permission_answer_to_5_5_with_4_4_plays_two_checkers(backend):
    found = results_with_pairs(ANSWER_TO_5_5, (4, 4), long_rules(head_exception="permission"), backend)
    assert list(found) == [after(ANSWER_TO_5_5, [(24, 20), (24, 20)])]
    assert list(found.values()) == [((24, 20), (24, 20))]


def test_first_turn_exception_none_answer_to_5_5_with_4_4_plays_one_checker(backend):
    found = results(ANSWER_TO_5_5, (4, 4), long_rules(head_exception="none"), backend)
    assert found == {after(ANSWER_TO_5_5, [(24, 20)])}


@pytest.mark.parametrize(
    "head_exception, expected",
    [
        ("strict", [[(24, 18), (24, 18)]]),
        ("permission", [[(24, 18), (24, 18)]]),
        ("none", [[(24, 18)]]),
    ],
)
def test_first_turn_exception_6_6_at_the_start(backend, head_exception, expected):
    found = results(START, (6, 6), long_rules(head_exception=head_exception), backend)
    assert found == {after(START, pairs) for pairs in expected}


@pytest.mark.parametrize(
    "head_exception, expected",
    [
        ("strict", [[(24, 21), (21, 18), (18, 15), (24, 21)], [(24, 21), (21, 18), (24, 21), (21, 18)]]),
        ("permission", [[(24, 21), (21, 18), (18, 15), (24, 21)], [(24, 21), (21, 18), (24, 21), (21, 18)]]),
        ("none", [[(24, 21), (21, 18), (18, 15)]]),
    ],
)
def test_first_turn_exception_3_3_at_the_start(backend, head_exception, expected):
    found = results(START, (3, 3), long_rules(head_exception=head_exception), backend)
    assert found == {after(START, pairs) for pairs in expected}


@pytest.mark.parametrize(
    "head_exception, expected",
    [("strict", [(24, 16), (24, 16)]), ("permission", [(24, 16), (24, 16)]), ("none", [(24, 16)])],
)
def test_first_turn_exception_4_4_at_the_start(backend, head_exception, expected):
    found = results(START, (4, 4), long_rules(head_exception=head_exception), backend)
    assert found == {after(START, expected)}


def test_first_turn_exception_answers_to_5_5_with_6_6_and_3_3_are_unaffected(backend):
    # the single checker's path (18; 21, 18, 15) is free of White, so strict allows two checkers
    for h in ("strict", "permission"):
        rules = long_rules(head_exception=h)
        assert results(ANSWER_TO_5_5, (6, 6), rules, backend) == {after(ANSWER_TO_5_5, [(24, 18), (24, 18)])}
        assert results(ANSWER_TO_5_5, (3, 3), rules, backend) == {
            after(ANSWER_TO_5_5, [(24, 15), (24, 21)]),
            after(ANSWER_TO_5_5, [(24, 18), (24, 18)]),
        }
    rules = long_rules(head_exception="none")
    assert results(ANSWER_TO_5_5, (6, 6), rules, backend) == {after(ANSWER_TO_5_5, [(24, 18)])}
    assert results(ANSWER_TO_5_5, (3, 3), rules, backend) == {after(ANSWER_TO_5_5, [(24, 15)])}


@pytest.mark.parametrize(
    "head_exception, expected",
    [("strict", [(24, 18)]), ("permission", [(24, 18), (24, 18)]), ("none", [(24, 18)])],
)
def test_first_turn_exception_3_3_with_an_opponent_checker_on_the_path(backend, head_exception, expected):
    # an opponent checker on the mover's 15 (its own 3) stops the single checker at 18:
    # strict falls back to one checker (24/21/18, two steps); permission takes two (four steps)
    v = board({24: 15}, {12: 14, 15: 1})
    assert results(v, (3, 3), long_rules(head_exception=head_exception), backend) == {after(v, expected)}


def test_first_turn_exception_6_6_with_18_held_plays_nothing_under_every_option(backend):
    v = board({24: 15}, {12: 14, 18: 1})
    for h in HEAD_OPTIONS:
        found = results_with_pairs(v, (6, 6), long_rules(head_exception=h), backend)
        assert found == {v: ()}, h  # the roll is lost: the position itself, no steps


@pytest.mark.parametrize("head_exception", HEAD_OPTIONS)
@pytest.mark.parametrize("dice", [(1, 1), (2, 2), (5, 5)])
def test_first_turn_exception_only_for_6_6_4_4_3_3(backend, head_exception, dice):
    found = results(START, dice, long_rules(head_exception=head_exception), backend)
    assert found == {board({24: 14, 24 - 4 * dice[0]: 1}, {12: 15})}


@pytest.mark.parametrize("head_exception", HEAD_OPTIONS)
@pytest.mark.parametrize("dice", [(6, 6), (4, 4), (3, 3)])
def test_first_turn_exception_does_not_apply_when_not_all_15_are_on_the_head(backend, head_exception, dice):
    # 14 on the head and one checker already out: no second head checker whatever the option
    v = board({24: 14, 22: 1}, {12: 15})
    found = results(v, dice, long_rules(head_exception=head_exception), backend)
    assert found and min(r[24] for r in found) == 13
    assert found == results(v, dice, long_rules(head_exception="none"), backend)


# --------------------------------------------------------------------------------------------
# section 4: six-block (fence) rule
# --------------------------------------------------------------------------------------------

# The mover holds its 1..5 (the opponent's 13..17) and has one checker on 11 that 5-5 would
# bring to 6, completing 1..6 = the opponent's 13..18 (q = 13). A checker of the opponent is
# ahead of it only on the opponent's 1..12 = the mover's 13..24. Home checkers cannot move
# (a five from 1..5 would bear off while the checker on 11 is outside home).
HOME = {1: 2, 2: 3, 3: 3, 4: 3, 5: 3}
FENCE = board({11: 1, **HOME}, {12: 14, 9: 1})  # opponent on its 24 and 21: both behind
FENCE_AHEAD = board({11: 1, **HOME}, {12: 14, opp(8): 1})  # opponent's 8 = mover's 20: ahead
FENCE_IN_HOME = board({11: 1, **HOME}, {12: 14, opp(2): 1})  # opponent's 2 = mover's 14: in its home
# after 11/6: all 15 in home, so the other fives bear off (from 5) or play 6/1
FENCE_PLAYS = {
    after(FENCE, [(11, 6), (6, 1), (5, 0), (5, 0)]),
    after(FENCE, [(11, 6), (5, 0), (5, 0), (5, 0)]),
}


def test_six_block_forbidden_with_no_opponent_checker_ahead(backend):
    found = results_with_pairs(FENCE, (5, 5), DEFAULT, backend)
    assert found == {FENCE: ()}  # 11/6 would make the block; nothing else can move: the roll is lost


def test_six_block_allowed_with_an_opponent_checker_ahead(backend):
    # 6-5 with one movable checker on 17 (home checkers would bear off, 17/12 is the opponent's
    # head): 17/11/6 makes 1..6 (the opponent's 13..18). Here an opponent checker stands on its
    # 8 (the mover's 20), ahead of it: the block is legal and is the only full play.
    v = board({17: 1, 1: 3, 2: 3, 3: 3, 4: 3, 5: 2}, {12: 14, opp(8): 1})
    found = results(v, (6, 5), DEFAULT, backend)
    assert found == {after(v, [(17, 11), (11, 6)])}
    assert holds(after(v, [(17, 11), (11, 6)]), range(1, 7))


def test_six_block_allowed_on_the_pass_with_an_opponent_checker_ahead(backend):
    # the 5-5 fence: with an opponent checker ahead, 11/6 is allowed as a step
    found = results(FENCE_AHEAD, (5, 5), DEFAULT, backend)
    assert found == {
        after(FENCE_AHEAD, [(11, 6), (6, 1), (5, 0), (5, 0)]),
        after(FENCE_AHEAD, [(11, 6), (5, 0), (5, 0), (5, 0)]),
    }
    child = Position(FENCE_AHEAD, "long").apply(Move((5, 5), [(11, 6), (6, 1), (5, 0), (5, 0)]), DEFAULT, backend=backend)
    assert child.pass_turn().view() == after(FENCE_AHEAD, [(11, 6), (6, 1), (5, 0), (5, 0)])


def test_six_block_apply_names_the_block_rule(backend):
    p = Position(FENCE, "long")
    with pytest.raises(IllegalMoveError, match="forms a six-block with no opponent checker ahead"):
        p.apply(Move((5, 5), [(11, 6), (6, 1), (5, 0), (5, 0)]), DEFAULT, backend=backend)


def test_six_block_apply_names_the_home_block_rule(backend):
    p = Position(FENCE_AHEAD, "long")  # ahead, but not in its home
    with pytest.raises(IllegalMoveError, match="forms a six-block before any opponent checker has entered its home"):
        p.apply(Move((5, 5), [(11, 6), (6, 1), (5, 0), (5, 0)]), long_rules(block_rule="home"), backend=backend)


def test_six_block_rule_none_allows_every_block(backend):
    assert results(FENCE, (5, 5), long_rules(block_rule="none"), backend) == FENCE_PLAYS


def test_six_block_rule_home_needs_an_opponent_checker_in_its_home(backend):
    rules = long_rules(block_rule="home")
    assert results(FENCE, (5, 5), rules, backend) == {FENCE}  # nobody ahead, nobody home
    assert results(FENCE_AHEAD, (5, 5), rules, backend) == {FENCE_AHEAD}  # ahead is not enough
    found = results(FENCE_IN_HOME, (5, 5), rules, backend)
    assert found == {after(FENCE_IN_HOME, [(11, 6), (6, 1), (5, 0), (5, 0)]),
                     after(FENCE_IN_HOME, [(11, 6), (5, 0), (5, 0), (5, 0)])}


def test_six_block_opponent_checker_in_its_home_is_also_ahead(backend):
    found = results(FENCE_IN_HOME, (5, 5), DEFAULT, backend)
    assert len(found) == 2


@pytest.mark.parametrize("block_rule", ["ahead", "home"])
def test_six_block_borne_off_opponent_checkers_count_as_ahead(backend, block_rule):
    # the same fence, but one opponent checker has been borne off (14 on the board)
    v = board({11: 1, **HOME}, {12: 13, 9: 1})
    found = results(v, (5, 5), long_rules(block_rule=block_rule), backend)
    assert found == {after(v, [(11, 6), (6, 1), (5, 0), (5, 0)]), after(v, [(11, 6), (5, 0), (5, 0), (5, 0)])}


def test_six_block_timing_step_forbids_a_transient_block_that_end_allows(backend):
    # 5-5: 11/6 fills the gap of 1..5 (an illegal block), 6/1 or bearing off all of 5 breaks it.
    # "step": no step may make the block, so nothing can be played. "end": only the final
    # position is judged, so both plays are legal: the SET of results differs.
    step = results_with_pairs(FENCE, (5, 5), long_rules(block_timing="step"), backend)
    end = results(FENCE, (5, 5), long_rules(block_timing="end"), backend)
    assert step == {FENCE: ()}
    assert end == FENCE_PLAYS
    assert not any(holds(r, range(1, 7)) for r in end)  # neither final position holds the block


def test_six_block_timing_end_apply_accepts_the_block_made_and_broken(backend):
    p = Position(FENCE, "long")
    rules = long_rules(block_timing="end")
    child = p.apply(Move((5, 5), [(11, 6), (5, 0), (5, 0), (5, 0)]), rules, backend=backend)
    assert child.pass_turn().view() == after(FENCE, [(11, 6), (5, 0), (5, 0), (5, 0)])


def test_six_block_timing_step_with_1_1_judges_positions_not_step_order(backend):
    # The mover holds 2..6 (singles) and has a checker on 8; 1-1.
    # 8/7 while 6 is held makes 2..7 (the opponent's 14..19) with nobody ahead: illegal.
    # 6/5 first and then 8/7 never holds a block: legal under "step" too.
    # 8/7/6 (the checker passes 7 while 6 is held) is a transient block: "end" only.
    v = board({2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 8: 1, 24: 9}, {12: 15})
    step = results(v, (1, 1), long_rules(block_timing="step"), backend)
    end = results(v, (1, 1), long_rules(block_timing="end"), backend)
    none = results(v, (1, 1), long_rules(block_rule="none"), backend)
    reordered = after(v, [(6, 5), (8, 7), (24, 23), (23, 22)])
    transient = after(v, [(8, 7), (7, 6), (24, 23), (23, 22)])
    final_block = after(v, [(8, 7), (24, 23), (23, 22), (22, 21)])
    assert reordered in step and reordered in end
    assert transient in end and transient not in step
    assert final_block in none and final_block not in end and final_block not in step
    assert end - step == {transient}
    assert none - end == {final_block}
    assert (len(step), len(end), len(none)) == (92, 93, 94)
    child = Position(v, "long").apply(Move((1, 1), [(6, 5), (8, 7), (24, 23), (23, 22)]), DEFAULT, backend=backend)
    assert child.pass_turn().view() == reordered


def test_six_block_removes_the_only_play_of_both_dice_larger_die_played(backend):
    # 6-5 with one movable checker on 17 (home checkers would bear off; 17/12 is the opponent's
    # head): the only play of both dice, 17/11/6, makes 1..6 with nobody ahead. The block rule
    # filters it out first, then "as much as possible" leaves the one-die play 17/11.
    v = board({17: 1, 1: 3, 2: 3, 3: 3, 4: 3, 5: 2}, {12: 14, 10: 1})
    assert results(v, (6, 5), long_rules(block_rule="none"), backend) == {after(v, [(17, 11), (11, 6)])}
    for timing in ("step", "end"):
        found = results_with_pairs(v, (6, 5), long_rules(block_timing=timing), backend)
        assert found == {after(v, [(17, 11)]): ((17, 11),)}, timing
    p = Position(v, "long")
    with pytest.raises(IllegalMoveError, match="forms a six-block with no opponent checker ahead"):
        p.apply(Move((6, 5), [(17, 11), (11, 6)]), DEFAULT, backend=backend)


def test_six_block_leaves_only_the_smaller_die(backend):
    # 5-3, checker on 11: 11/6 (the five) makes 1..6 with nobody ahead; 11/8 is closed (the
    # opponent on 8 is behind the block: its 20). Home checkers play threes (5/2, 4/1) but
    # not fives (that would bear off). Under "step" the larger die cannot be played as a
    # candidate, so the smaller die alone is legal, once.
    v = board({11: 1, 1: 3, 2: 3, 3: 3, 4: 3, 5: 2}, {12: 14, 8: 1})
    step = results(v, (5, 3), long_rules(block_timing="step"), backend)
    assert step == {after(v, [(5, 2)]), after(v, [(4, 1)])}
    # "end": 11/6/3 makes the block on the pass and breaks it: a full play, so it is the only one
    end = results(v, (5, 3), long_rules(block_timing="end"), backend)
    assert end == {after(v, [(11, 6), (6, 3)])}
    none = results(v, (5, 3), long_rules(block_rule="none"), backend)
    assert none == {
        after(v, [(11, 6), (6, 3)]),
        after(v, [(11, 6), (5, 2)]),
        after(v, [(11, 6), (4, 1)]),
        after(v, [(11, 6), (3, 0)]),  # 11/6 brings the last checker home: the three bears off
    }


def test_six_block_wraps_across_the_mover_24_and_1(backend):
    # The mover's 22,23,24,1,2,3 are the opponent's 10..15: one block (q = 10). 24/22 (the two)
    # completes it; 9/3 plays the six. Ahead of it: the opponent's 1..9 = the mover's 13..21.
    mine = {24: 8, 23: 1, 9: 1, 3: 2, 2: 2, 1: 1}
    wrap = (22, 23, 24, 1, 2, 3)
    cases = [
        ({12: 14, 8: 1}, False),  # the opponent's 20: behind
        ({12: 14, 4: 1}, False),  # the opponent's 16: just behind (q + 6)
        ({12: 14, opp(9): 1}, True),  # the opponent's 9 = mover's 21: just ahead (q - 1)
        ({12: 14, opp(1): 1}, True),  # the opponent's 1 = mover's 13
    ]
    for theirs, allowed in cases:
        v = board(mine, theirs)
        block = after(v, [(24, 22), (9, 3)])
        assert holds(block, wrap)
        found = results(v, (6, 2), DEFAULT, backend)
        assert (block in found) is allowed, theirs
        assert {r for r in found if holds(r, wrap)} == ({block} if allowed else set())
        assert block in results(v, (6, 2), long_rules(block_rule="none"), backend)
        if not allowed:
            with pytest.raises(IllegalMoveError, match="six-block"):
                Position(v, "long").apply(Move((6, 2), [(24, 22), (9, 3)]), DEFAULT, backend=backend)


def test_six_block_run_across_the_opponents_head_is_not_a_block(backend):
    # The mover's 10..15 are the opponent's 22,23,24,1,2,3: not consecutive along the
    # opponent's path (it bears off after its 1), so never a block, whoever is where.
    v = board({10: 3, 11: 2, 12: 2, 13: 2, 14: 2, 15: 2, 24: 2}, {opp(5): 5, opp(6): 5, opp(7): 5})
    p = Position(v, "long", validate=False)
    assert p.status(DEFAULT, backend=backend) == Status.VALID
    # and the move that completes that run (16/10 with a six) is legal
    v = board({16: 1, 11: 3, 12: 2, 13: 2, 14: 2, 15: 3, 24: 2}, {opp(5): 5, opp(6): 5, opp(7): 5})
    found = results(v, (6, 1), DEFAULT, backend)
    assert holds(after(v, [(16, 10), (24, 23)]), range(10, 16))
    assert after(v, [(16, 10), (24, 23)]) in found


def _block_status(view, rules, backend):
    """(status with the holder on roll, status with the holder NOT on roll) of a mover's block."""
    p = Position(view, "long", validate=False)
    return p.status(rules, backend=backend), p.pass_turn().status(rules, backend=backend)


@pytest.mark.parametrize(
    "mine, theirs, rules, allowed",
    [
        # the mover's 7..12 = the opponent's 19..24 (q = 19): every opponent checker is below 19
        ({7: 3, 8: 2, 9: 2, 10: 2, 11: 2, 12: 2, 24: 2}, {opp(5): 5, opp(10): 5, opp(15): 5}, DEFAULT, True),
        # the mover's 13..18 = the opponent's 1..6 (q = 1): nothing on the board can be ahead
        ({13: 3, 14: 2, 15: 2, 16: 2, 17: 2, 18: 2, 24: 2}, {opp(10): 5, opp(15): 5, opp(20): 5}, DEFAULT, False),
        # ...unless an opponent checker has been borne off
        ({13: 3, 14: 2, 15: 2, 16: 2, 17: 2, 18: 2, 24: 2}, {opp(10): 5, opp(15): 5, opp(20): 4}, DEFAULT, True),
        ({13: 3, 14: 2, 15: 2, 16: 2, 17: 2, 18: 2, 24: 2}, {opp(10): 5, opp(15): 5, opp(20): 4},
         long_rules(block_rule="home"), True),
        # the mover's 20..24,1 = the opponent's 8..13 (q = 8), wrapping in the mover's numbers
        ({20: 3, 21: 2, 22: 2, 23: 2, 24: 4, 1: 2}, {opp(5): 5, opp(15): 5, opp(20): 5}, DEFAULT, True),
        ({20: 3, 21: 2, 22: 2, 23: 2, 24: 4, 1: 2}, {opp(15): 5, opp(20): 5, opp(24): 5}, DEFAULT, False),
        # ahead (its 7 < 8) but not in its home: "ahead" allows, "home" does not
        ({20: 3, 21: 2, 22: 2, 23: 2, 24: 4, 1: 2}, {opp(7): 1, opp(15): 5, opp(24): 9}, DEFAULT, True),
        ({20: 3, 21: 2, 22: 2, 23: 2, 24: 4, 1: 2}, {opp(7): 1, opp(15): 5, opp(24): 9},
         long_rules(block_rule="home"), False),
        ({20: 3, 21: 2, 22: 2, 23: 2, 24: 4, 1: 2}, {opp(6): 1, opp(15): 5, opp(24): 9},
         long_rules(block_rule="home"), True),
        ({20: 3, 21: 2, 22: 2, 23: 2, 24: 4, 1: 2}, {opp(15): 5, opp(20): 5, opp(24): 5},
         long_rules(block_rule="none"), True),
    ],
)
def test_six_block_status_across_the_board(backend, mine, theirs, rules, allowed):
    on_roll, not_on_roll = _block_status(board(mine, theirs), rules, backend)
    if allowed:
        assert (on_roll, not_on_roll) == (Status.VALID, Status.VALID)
    else:
        assert not_on_roll == Status.ILLEGAL_BLOCK_OPPONENT  # docs/rules.md 4: an invalid position
        assert on_roll == Status.ILLEGAL_BLOCK_MOVER


def test_six_block_seven_long_run(backend):
    # The mover's 1..7 (the opponent's 13..19) contain the blocks q = 13 and q = 14.
    # Legal with an opponent checker on its 1..12; illegal with the opponent only on 20..24.
    mine = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 3}
    assert _block_status(board(mine, {12: 14, opp(20): 1}), DEFAULT, backend)[1] == Status.ILLEGAL_BLOCK_OPPONENT
    assert _block_status(board(mine, {12: 14, opp(12): 1}), DEFAULT, backend) == (Status.VALID, Status.VALID)
    # making the seventh point of a legal block: 8/7 extends 1..6 to 1..7
    six = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 4, 8: 1}
    v = board(six, {12: 14, opp(12): 1})  # the opponent's 12 = mover's 24: ahead of q = 13
    assert after(v, [(8, 7), (6, 4)]) in results(v, (2, 1), DEFAULT, backend)
    assert holds(after(v, [(8, 7), (6, 4)]), range(1, 8))


def test_six_block_seven_long_run_made_by_a_move(backend):
    # the mover holds 1..5 and 7; 8/6 (the two) makes 1..7 (the opponent's 13..19), 16/15 the one.
    # Legal only with an opponent checker ahead (its 9 = the mover's 21), not with one on its 21.
    # (No mover's checker on 24: 24 + 1..5 would already be the block 12..17 of the opponent.)
    mine = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 7: 2, 8: 1, 16: 2}
    for theirs, allowed in (({12: 14, opp(9): 1}, True), ({12: 14, opp(21): 1}, False)):
        v = board(mine, theirs)
        run7 = after(v, [(8, 6), (16, 15)])
        assert holds(run7, range(1, 8))
        found = results(v, (2, 1), DEFAULT, backend)
        assert (run7 in found) is allowed, theirs
        assert any(holds(r, range(1, 8)) for r in found) is allowed
        assert run7 in results(v, (2, 1), long_rules(block_rule="none"), backend)


def test_six_block_validation_opponent_holds_an_illegal_block(backend):
    # White (not on roll) holds Black's 13..18 = White's 1..6 (its home): along Black's path
    # that is the run 13..18 with no Black checker below 13. Black has all 15 on its head.
    v = board({24: 15}, {13: 3, 14: 3, 15: 3, 16: 2, 17: 2, 18: 2})
    with pytest.raises(InvalidPositionError, match="six-block"):
        Position(v, "long", rules=DEFAULT)
    p = Position(v, "long", validate=False)
    assert p.status(DEFAULT, backend=backend) == Status.ILLEGAL_BLOCK_OPPONENT
    assert p.status(long_rules(block_rule="home"), backend=backend) == Status.ILLEGAL_BLOCK_OPPONENT
    assert p.status(long_rules(block_rule="none"), backend=backend) == Status.VALID
    # a mover's checker ahead of it (below 13) makes it legal
    ok = board({24: 14, 5: 1}, {13: 3, 14: 3, 15: 3, 16: 2, 17: 2, 18: 2})
    assert Position(ok, "long", validate=False).status(DEFAULT, backend=backend) == Status.VALID
    # ...and the engine refuses to generate moves or count perft from the invalid one
    with pytest.raises(InvalidPositionError):
        engine.results(engine.as_bytes(v), (6, 5), DEFAULT, backend)
    with pytest.raises(InvalidPositionError):
        perft(v, 1, DEFAULT, backend)


def test_six_block_validation_from_points_absolute_numbers(backend):
    # the same position in absolute numbers: White holds White 1..6, Black all on Black 24
    white = {1: 3, 2: 3, 3: 3, 4: 2, 5: 2, 6: 2}
    p = Position.from_points("long", white=white, black={12: 15}, turn=Color.BLACK, validate=False)
    assert p.status(DEFAULT, backend=backend) == Status.ILLEGAL_BLOCK_OPPONENT
    assert p.has_illegal_block(Color.WHITE, DEFAULT)
    assert not p.has_illegal_block(Color.BLACK, DEFAULT)


# --------------------------------------------------------------------------------------------
# section 3 in long nardy: use as much as possible, larger die, bearing off, game end
# --------------------------------------------------------------------------------------------


def test_use_as_much_as_possible_apply_names_the_rule(backend):
    p = Position.start("long")
    with pytest.raises(IllegalMoveError, match="the roll must be used as fully as possible"):
        p.apply(Move((6, 5), [(24, 18)]), DEFAULT, backend=backend)


def test_larger_die_must_be_played_when_only_one_die_can_be(backend):
    # first turn, 6-5, the opponent on the mover's 13: 24/18/13 and 24/19/13 are closed and only
    # one checker may leave the head, so one die only: the six.
    v = board({24: 15}, {12: 14, 13: 1})
    assert results(v, (6, 5), DEFAULT, backend) == {after(v, [(24, 18)])}
    with pytest.raises(IllegalMoveError, match="the larger die must be played"):
        Position(v, "long").apply(Move((6, 5), [(24, 19)]), DEFAULT, backend=backend)


def test_bearing_off_not_while_a_checker_is_outside_home(backend):
    v = board({7: 1, 6: 4, 5: 5, 4: 5}, {12: 15})
    with pytest.raises(IllegalMoveError, match="cannot bear off while a checker is outside home"):
        Position(v, "long").apply(Move((6, 1), [(6, 0), (7, 6)]), DEFAULT, backend=backend)
    # entering home with one die lets the other die bear off
    found = results(v, (6, 1), DEFAULT, backend)
    assert after(v, [(7, 6), (6, 0)]) in found
    assert all(r[7] == 0 for r in found)  # the six can be played only after 7/6


def test_game_end_alternatives_end_in_the_same_position(backend):
    # one checker left on 2, 6-1: 2/1/off and 2/off end the same way
    v = board({2: 1}, {12: 15})
    assert results(v, (6, 1), DEFAULT, backend) == {board({}, {12: 15})}


# --------------------------------------------------------------------------------------------
# section 4: scoring
# --------------------------------------------------------------------------------------------


def _finished(white, black, turn, koks=False):
    rules = long_rules(koks=koks)
    p = Position.from_points("long", white=white, black=black, turn=turn, validate=False)
    return p, rules


@pytest.mark.parametrize("turn", [Color.BLACK, Color.WHITE])
def test_scoring_oin_when_the_loser_has_borne_off(backend, turn):
    # White has borne off all 15; Black has 14 on its own 1 (White 13), one off
    p, rules = _finished({}, {13: 14}, turn)
    assert p.result(rules) == (Color.WHITE, "oin", 1)
    assert p.result(long_rules(koks=True)) == (Color.WHITE, "oin", 1)


@pytest.mark.parametrize("turn", [Color.BLACK, Color.WHITE])
def test_scoring_mars_when_the_loser_has_borne_off_none(backend, turn):
    # Black all 15 in its home (its 1..6 = White 13..18), none off
    p, rules = _finished({}, {13: 3, 14: 3, 15: 3, 16: 2, 17: 2, 18: 2}, turn)
    assert p.result(rules) == (Color.WHITE, "mars", 2)
    assert p.result(long_rules(koks=True)) == (Color.WHITE, "mars", 2)  # no checker in its 19..24


@pytest.mark.parametrize("black_point, own", [(7, 19), (12, 24), (10, 22)])
def test_scoring_koks_when_the_loser_has_a_checker_in_its_first_quarter(backend, black_point, own):
    # Black's own 19..24 are White's 7..12 (the winner's, i.e. the mover's 7..12 in its view)
    assert own == black_point + 12
    p, _ = _finished({}, {13: 14, black_point: 1}, Color.BLACK)
    assert p.result(long_rules(koks=True)) == (Color.WHITE, "koks", 3)
    assert p.result(long_rules(koks=False)) == (Color.WHITE, "mars", 2)
    assert p.result(long_rules()) == (Color.WHITE, "mars", 2)  # koks is off by default


def test_scoring_koks_not_for_the_losers_point_18(backend):
    # Black's 18 (White 6) is just outside its first quarter
    p, _ = _finished({}, {13: 14, 6: 1}, Color.BLACK)
    assert p.result(long_rules(koks=True)) == (Color.WHITE, "mars", 2)


def test_scoring_koks_needs_none_borne_off(backend):
    # a checker in the first quarter but one borne off: oin
    p, _ = _finished({}, {13: 13, 7: 1}, Color.BLACK)
    assert p.result(long_rules(koks=True)) == (Color.WHITE, "oin", 1)


def test_scoring_black_wins_koks_with_white_on_its_own_19_to_24(backend):
    # Black has borne off all 15; White has 14 on its 1 and one on its 20 (its first quarter)
    p, _ = _finished({1: 14, 20: 1}, {}, Color.WHITE)
    assert p.result(long_rules(koks=True)) == (Color.BLACK, "koks", 3)
    p, _ = _finished({1: 14, 18: 1}, {}, Color.WHITE)
    assert p.result(long_rules(koks=True)) == (Color.BLACK, "mars", 2)
    p, _ = _finished({1: 14}, {}, Color.WHITE)
    assert p.result(long_rules(koks=True)) == (Color.BLACK, "oin", 1)


def test_scoring_no_result_while_the_game_goes_on(backend):
    assert Position.start("long").result(DEFAULT) is None


def test_game_over_nothing_left_to_play_and_perft_leaf(backend):
    p, rules = _finished({}, {13: 14, 7: 1}, Color.BLACK)
    with pytest.raises(GameOverError):
        p.legal_moves((6, 5), rules, backend=backend)
    # a game that has ended is a leaf and counts 1, whatever depth remains
    for depth in (0, 1, 3):
        assert perft(p.view(), depth, rules, backend) == 1


# --------------------------------------------------------------------------------------------
# section 7: perft
# --------------------------------------------------------------------------------------------


def test_perft_long_start_depth_1_and_2(backend):
    assert perft(START, 0, DEFAULT, backend) == 1
    assert perft(START, 1, DEFAULT, backend) == 22
    assert perft(START, 2, DEFAULT, backend) == 484


@pytest.mark.slow
def test_perft_long_start_depth_3(backend):
    # computed with the reference backend; both backends must agree
    assert perft(START, 3, DEFAULT, backend) == 35387


@pytest.mark.parametrize("options", RULE_COMBOS, ids=lambda o: "-".join(o.values()))
def test_perft_every_rule_combination_at_depth_2(backend, options):
    # Both backends must give these numbers. Strict and permission differ only when Black answers
    # 5-5 with 4-4 (one result either way); "none" leaves one result for each side's 3-3 instead
    # of two: 21 x 21. No block can form in two plies from the start.
    rules = long_rules(**options)
    expected = {"strict": 484, "permission": 484, "none": 441}[options["head_exception"]]
    assert perft(START, 2, rules, backend) == expected


BLOCK_COMBOS = [dict(block_rule=b, block_timing=t) for b in ("ahead", "home", "none") for t in ("step", "end")]

# perft of the 5-5 fence position (FENCE) by block option, depth 1 and 2. Depth 1 per roll
# (ahead-step / ahead-end / none): 3-2 9/9/10, 4-1 9/9/10, 5-1 1/1/6, 5-2 3/1/5, 5-3 1/1/4,
# 5-4 1/1/3, 5-5 1/2/2; "home" is "ahead" here (no opponent checker ahead, none in its home).
FENCE_PERFT = {
    ("ahead", "step"): (162, 4784),
    ("ahead", "end"): (161, 4767),
    ("home", "step"): (162, 4784),
    ("home", "end"): (161, 4767),
    ("none", "step"): (177, 5199),
    ("none", "end"): (177, 5199),
}


@pytest.mark.slow
@pytest.mark.parametrize("options", BLOCK_COMBOS, ids=lambda o: "-".join(o.values()))
def test_perft_block_options_in_the_fence_position(backend, options):
    rules = long_rules(**options)
    expected = FENCE_PERFT[(options["block_rule"], options["block_timing"])]
    assert (perft(FENCE, 1, rules, backend), perft(FENCE, 2, rules, backend)) == expected


# A late middle game where "ahead" and "home" differ (the opponent's checker on its 8, the
# mover's 20, is ahead of the mover's 1..6 but not in its home), and so do "step" and "end".
# Counts recorded from the reference; the compiled core must agree.
MIDDLE = board({11: 1, 8: 1, 5: 1, 4: 1, 3: 1, 2: 1, 1: 1}, {12: 13, 9: 1, opp(8): 1})
MIDDLE_PERFT2 = {
    ("ahead", "step"): 17317,
    ("ahead", "end"): 17317,
    ("home", "step"): 16493,
    ("home", "end"): 16680,
    ("none", "step"): 17317,
    ("none", "end"): 17317,
}


@pytest.mark.slow
@pytest.mark.parametrize("options", BLOCK_COMBOS, ids=lambda o: "-".join(o.values()))
def test_perft_block_options_in_the_middle_game_depth_2(backend, options):
    rules = long_rules(**options)
    assert perft(MIDDLE, 2, rules, backend) == MIDDLE_PERFT2[(options["block_rule"], options["block_timing"])]


def test_perft_last_roll_draw_gives_the_other_side_one_last_roll(backend):
    # The mover (the starter at the root) has one checker left on its 1; the opponent one on its 1.
    # Every roll bears the mover's last checker off (21 leaves). With last_roll_draw the
    # opponent gets one last roll: 21 rolls x 1 result each.
    v = board({1: 1}, {opp(1): 1})
    plain, draw = long_rules(), long_rules(last_roll_draw=True)
    assert perft(v, 1, plain, backend) == 21
    assert perft(v, 1, draw, backend) == 21
    assert perft(v, 2, plain, backend) == 21
    assert perft(v, 2, draw, backend) == 21 * 21
    # the last roll ends the game: deeper counts do not grow
    assert perft(v, 3, draw, backend) == 21 * 21
    assert perft(v, 3, plain, backend) == 21


def test_perft_last_roll_draw_only_when_the_starter_finishes(backend):
    # The mover (the starter) has two checkers on its head and cannot finish; the opponent
    # finishes on its first turn: no extra roll for the starter.
    v = board({24: 2}, {opp(1): 1})
    plain, draw = long_rules(), long_rules(last_roll_draw=True)
    for rules in (plain, draw):
        assert perft(v, 1, rules, backend) == 21  # one checker leaves the head: one result per roll
        assert perft(v, 2, rules, backend) == 21 * 21
        assert perft(v, 3, rules, backend) == 21 * 21


# The last roll of a side with checkers on its 6 and 5 only, counted by hand per roll
# (1-1: {2,5} {3,4} {1,6}; 3-2: {3,3} {1,5} {2,4} {6}; 6-5: {1} or all off; ...): 45.
LAST_ROLL_6_5 = 3 + 3 + 2 + 3 + 4 + 1 + 3 + 3 + 2 + 1 + 2 + 2 + 2 + 2 + 1 + 2 + 2 + 2 + 2 + 2 + 1


def test_perft_last_roll_draw_counts_the_last_rolls_results(backend):
    # The opponent has two checkers left (its 6 and 5): its last roll has several results.
    v = board({1: 1}, {opp(6): 1, opp(5): 1})
    plain, draw = long_rules(), long_rules(last_roll_draw=True)
    assert perft(v, 2, plain, backend) == 21
    # the opponent's last roll, counted on its own: the same two checkers, with the starter
    # given a checker far away so that the game is not over
    theirs_view = board({6: 1, 5: 1}, {20: 1})
    last = sum(len(results(theirs_view, dice, draw, backend)) for dice in ROLLS)
    assert last == LAST_ROLL_6_5
    assert perft(v, 2, draw, backend) == 21 * LAST_ROLL_6_5
    assert perft(v, 3, draw, backend) == 21 * LAST_ROLL_6_5


@pytest.mark.slow
def test_perft_last_roll_draw_counts_only_the_starters_finish(backend):
    # Both sides have two checkers on their 6. The starter finishes with 3-3, 4-4, 5-5 or 6-6
    # (one result each); with last_roll_draw each of those 4 leaves becomes the opponent's last
    # roll, 30 results (its perft(1), the same position as the starter's): 4 x (30 - 1) = 116
    # more at depth 2 and at depth 3 (the opponent's finish at ply 2 gives no extra roll, and
    # the starter's finish at ply 3 leaves no depth for one).
    v = board({6: 2}, {opp(6): 2})
    plain, draw = long_rules(), long_rules(last_roll_draw=True)
    assert perft(v, 1, plain, backend) == perft(v, 1, draw, backend) == 30
    assert perft(v, 2, plain, backend) == 784
    assert perft(v, 2, draw, backend) == 784 + 4 * 29
    assert perft(v, 3, plain, backend) == 19764
    assert perft(v, 3, draw, backend) == 19764 + 4 * 29
