"""The position model: construction, the mover's-view array, pips, the ASCII board, validation."""

from __future__ import annotations

import pickle
import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import nardy
from nardy import Color, InvalidArgumentError, InvalidPositionError, Position, Rules, Status, Variant
from strategies import boards, played_moves

LONG_START = [0] * 12 + [-15] + [0] * 11 + [15, 0]
SHORT_START = [0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0]


def test_long_start_in_the_movers_view():
    assert list(Position.start("long").view()) == LONG_START


def test_short_start_in_the_movers_view():
    assert list(Position.start("short").view()) == SHORT_START


@pytest.mark.parametrize("variant, pips", [("long", 360), ("short", 167)])
def test_pip_counts_of_the_starting_positions(variant, pips, backend):
    p = Position.start(variant)
    assert p.pip_count(Color.WHITE, backend=backend) == pips
    assert p.pip_count(Color.BLACK, backend=backend) == pips


def test_pip_counts_count_the_bar_as_25_and_each_side_in_its_own_numbers(backend):
    p = Position.from_points("short", white={1: 14}, black={2: 1, 24: 13}, white_bar=1, black_bar=1)
    # white: 14 on its 1 + 1 on the bar; black: White's 2 and 24 are Black's own 23 and 1
    assert p.pip_count(Color.WHITE, backend=backend) == 14 + 25
    assert p.pip_count(Color.BLACK, backend=backend) == 23 + 13 * 1 + 25


def test_long_nardy_points_are_twelve_apart_for_the_two_sides():
    p = Position.from_points("long", white={24: 15}, black={24: 15}, own_numbers=True)
    assert p == Position.start("long")
    assert p.checkers(Color.BLACK) == {12: 15}
    black = Position.start("long", turn=Color.BLACK)
    assert list(black.view()) == LONG_START  # the same start from Black's side


def test_short_nardy_points_mirror_for_the_two_sides():
    p = Position.start("short")
    assert p.checkers(Color.BLACK) == {1: 2, 12: 5, 17: 3, 19: 5}
    assert p.checkers(Color.WHITE) == {6: 5, 8: 3, 13: 5, 24: 2}


@pytest.mark.parametrize("rules", [Rules("long"), Rules("short")], ids=["long", "short"])
@given(data=st.data())
def test_view_round_trips_through_absolute_points(rules, data):
    board = data.draw(boards(rules))
    turn = data.draw(st.sampled_from(list(Color)))
    p = Position(board, rules.variant, turn)
    assert p.view() == board
    rebuilt = Position.from_points(
        rules.variant, p.checkers(Color.WHITE), p.checkers(Color.BLACK),
        white_bar=p.bar(Color.WHITE), black_bar=p.bar(Color.BLACK), turn=turn,
    )
    assert rebuilt == p
    assert Position(p.to_bytes(), rules.variant, turn) == p
    assert Position(p.array(), rules.variant, turn) == p
    assert eval(repr(p), vars(nardy)) == p
    assert pickle.loads(pickle.dumps(p)) == p
    for color in Color:
        assert sum(p.checkers(color).values()) + p.bar(color) + p.borne_off(color) == 15


def test_positions_are_immutable_and_hashable():
    p = Position.start("long")
    with pytest.raises(AttributeError):
        p.turn = Color.BLACK  # type: ignore[misc]
    assert len({p, Position.start("long"), Position.start("long", turn="black")}) == 2
    assert p != Position.start("short")


def test_ascii_board_of_the_short_start():
    text = str(Position.start("short"))
    lines = text.splitlines()
    assert lines[1].startswith(" +13-14-15-16-17-18------19-20-21-22-23-24-+")
    assert lines[-1].startswith(" +12-11-10--9--8--7-------6--5--4--3--2--1-+")
    assert lines[2].startswith(" | X           O    |   | O              X |")
    assert lines[-2].startswith(" | O           X    |   | X              O |")
    assert "BAR" in lines[7]
    assert "pips 167" in text and "X: white  (on roll)" in text
    assert lines[0].endswith("Position ID: 4HPwATDgc/ABMA")


def test_ascii_board_of_the_long_start_shows_both_heads():
    lines = str(Position.start("long")).splitlines()
    assert lines[2].startswith(" |                  |   |                X |")  # White's head, its 24
    assert lines[6].startswith(" |                  |   |               15 |")
    assert lines[8].startswith(" |15                |   |                  |")  # Black's head, White's 12
    assert lines[-2].startswith(" | O                |   |                  |")
    assert "BAR" not in str(Position.start("long"))


# docs/rules.md section 8: every kind of bad input, with its specific error naming the problem


def test_wrong_number_of_entries_is_rejected():
    with pytest.raises(InvalidPositionError, match="26 integers"):
        Position([0] * 25, "long")


def test_non_integer_entries_are_rejected():
    with pytest.raises(InvalidPositionError, match="not an integer"):
        Position([0.5] + [0] * 25, "long")


def test_too_many_checkers_on_a_point_is_rejected_not_truncated():
    with pytest.raises(InvalidPositionError, match="at most 15"):
        Position([0] * 24 + [16, 0], "short")


def test_wrong_number_of_checkers_is_rejected(backend):
    board = list(SHORT_START)
    board[6] += 1  # 16 of the mover's checkers
    p = Position(board, "short", validate=False)
    assert p.status(backend=backend) == Status.TOO_MANY_MOVER
    with pytest.raises(InvalidPositionError, match="more than 15 checkers"):
        Position(board, "short")
    board = list(SHORT_START)
    board[1] -= 1
    assert Position(board, "short", validate=False).status(backend=backend) == Status.TOO_MANY_OPPONENT


def test_negative_counts_are_rejected(backend):
    board = list(SHORT_START)
    board[25] = -1
    assert Position(board, "short", validate=False).status(backend=backend) & Status.NEGATIVE_BAR
    with pytest.raises(InvalidPositionError, match="negative number of checkers"):
        Position(board, "short")
    with pytest.raises(InvalidPositionError, match="-1 checkers on point 6"):
        Position.from_points("short", white={6: -1}, black={19: 5})
    with pytest.raises(InvalidPositionError, match="white_bar"):
        Position.from_points("short", white={6: 5}, black={19: 5}, white_bar=-2)


def test_both_colours_on_one_point_are_rejected():
    with pytest.raises(InvalidPositionError, match="both colours on point 6"):
        Position.from_points("short", white={6: 5}, black={6: 1})


def test_checkers_on_the_bar_in_long_nardy_are_rejected(backend):
    board = list(LONG_START)
    board[24], board[25] = 14, 1
    assert Position(board, "long", validate=False).status(backend=backend) == Status.BAR_IN_LONG
    with pytest.raises(InvalidPositionError, match="long nardy has no bar"):
        Position(board, "long")


def test_both_sides_borne_off_is_rejected(backend):
    assert Position([0] * 26, "short", validate=False).status(backend=backend) == Status.BOTH_BORNE_OFF
    with pytest.raises(InvalidPositionError, match="both sides have borne off all 15"):
        Position([0] * 26, "long")


def test_an_illegal_block_of_the_side_not_on_roll_is_rejected(backend):
    # the opponent holds its points 13..18 (the mover's 1..6) with every mover checker behind it
    board = [0] * 26
    for p in range(1, 7):
        board[p] = -2
    board[12] = -3
    board[24] = 15
    p = Position(board, "long", validate=False)
    assert p.status(backend=backend) == Status.ILLEGAL_BLOCK_OPPONENT
    with pytest.raises(InvalidPositionError, match="side not on roll holds a six-block"):
        Position(board, "long")
    assert Position(board, "long", rules=Rules("long", block_rule="none")).is_valid(Rules("long", block_rule="none"))


def test_dice_outside_one_to_six_are_rejected(backend):
    p = Position.start("long")
    for dice in [(0, 3), (7, 1), (1,), (1, 2, 3), ("a", 1), (1.0, 2), (True, 2)]:
        with pytest.raises(nardy.InvalidDiceError):
            p.legal_moves(dice, backend=backend)


def test_a_move_that_is_not_legal_is_rejected(backend):
    with pytest.raises(nardy.IllegalMoveError, match="second checker from the head"):
        Position.start("long").apply(nardy.Move((6, 5), ((24, 18), (24, 19))), backend=backend)


def test_unknown_colour_and_variant_are_rejected():
    # issue 17: one rule (Color.parse) for every colour parameter, so an argument error here too
    with pytest.raises(nardy.InvalidArgumentError, match="unknown colour 'red' for turn"):
        Position(LONG_START, "long", "red")
    with pytest.raises(nardy.InvalidRulesError, match="choose 'long' or 'short'"):
        Position(LONG_START, "medium")


def test_status_lists_every_problem_at_once(backend):
    board = [0] * 26
    board[25], board[0], board[5] = -1, 1, 16 - 1
    flags = Position(board, "long", validate=False).status(backend=backend)
    assert flags & Status.NEGATIVE_BAR and flags & Status.BAR_IN_LONG
    assert "long nardy has no bar" in str(pytest.raises(InvalidPositionError, Position, board, "long").value)


def test_variant_and_batch_views_agree():
    views = np.array([LONG_START, LONG_START], np.int8)
    assert nardy.batch.pips(views, Variant.LONG).tolist() == [[360, 360], [360, 360]]


# boards numbered for the side on roll (as GNU Backgammon numbers them) ----------------------------

def ascii_columns(text: str) -> dict[int, tuple[str, int]]:
    """Label -> (symbol, count) of the checkers standing in that label's column of an ASCII board."""
    lines = text.splitlines()
    top_rail, bottom_rail = lines[1], lines[-1]
    top_rows, bottom_rows = lines[2:7], lines[8:13]
    found = {}
    for rail, rows in ((top_rail, top_rows), (bottom_rail, bottom_rows)):
        for match in re.finditer(r"\d+", rail[:45]):
            col = match.end() - 1  # the label's last digit stands over the checkers' column
            cells = [row[col - 1:col + 1].strip() for row in rows]
            symbols = {c for c in cells if c in "XO" and c}
            counts = [int(c) for c in cells if c.isdigit()]
            symbol = symbols.pop() if symbols else ""
            found[int(match.group())] = (symbol, counts[0] if counts else sum(1 for c in cells if c == symbol and c))
    return found


@pytest.mark.parametrize("variant", ["long", "short"])
@pytest.mark.parametrize("starter", ["white", "black"])
@pytest.mark.parametrize("numbers", ["mover", "white"])
def test_every_step_of_a_move_starts_and_ends_on_the_ascii_labels_its_text_names(variant, starter, numbers):
    """Before and after a move, the columns its text names lose and gain the mover's checkers."""
    from nardy.formats.diagram import SYMBOL, diagram
    from nardy.position import own_point

    for position, move in played_moves(variant, starter, seed=3):
        mover = position.turn
        frame = mover if numbers == "mover" else Color.WHITE  # the labels of the board before the move
        before = ascii_columns(diagram(position, numbers))
        after = ascii_columns(diagram(position.apply(move), mover.name.lower() if numbers == "mover" else "white"))
        assert len(before) == 24 and len(after) == 24
        expected: dict[int, int] = {}
        for step in move.steps:  # the move's text and steps are in the mover's numbers
            for point, delta in ((step.src, -1), (step.dst, +1)):
                if point not in (0, 25):
                    label = own_point(own_point(point, mover, position.variant), frame, position.variant)
                    expected[label] = expected.get(label, 0) + delta
        for label in range(1, 25):
            def mine(columns: dict[int, tuple[str, int]]) -> int:
                symbol, count = columns[label]
                return count if symbol == SYMBOL[mover] else 0
            assert mine(after) - mine(before) == expected.get(label, 0), (str(move), label, numbers)
        for text_point in {int(p) for p in re.findall(r"\d+", re.sub(r"\(\d\)", "", str(move)))}:
            assert text_point in {s.src for s in move.steps} | {s.dst for s in move.steps}


def test_ascii_labels_follow_the_side_on_roll():
    black = str(Position.start("short", "black")).splitlines()
    assert black[1].startswith(" +12-11-10--9--8--7-------6--5--4--3--2--1-+")  # Black's numbers, as gnubg prints them
    assert black[-1].startswith(" +13-14-15-16-17-18------19-20-21-22-23-24-+")
    assert black[7].startswith("^|")  # gnubg's arrow points to the side on roll
    long_black = str(Position.start("long", "black")).splitlines()
    assert long_black[1].startswith(" +-1--2--3--4--5--6-------7--8--9-10-11-12-+")
    assert long_black[-1].startswith(" +24-23-22-21-20-19------18-17-16-15-14-13-+")  # Black's head (bottom left) is its 24
    from nardy.formats.diagram import diagram

    fixed = diagram(Position.start("short", "black"), numbers="white").splitlines()
    assert fixed[1].startswith(" +13-14-15-16-17-18") and fixed[-1].startswith(" +12-11-10")
    with pytest.raises(InvalidArgumentError, match="numbers"):
        diagram(Position.start("short"), numbers="blue")


def test_apply_reads_a_move_given_as_text():
    p = Position.start("short")
    assert p.apply("24/18 13/8") == p.apply(p.parse_move("24/18 13/8", (6, 5)))
    assert p.apply("6/4(2)") == p.apply(p.parse_move("6/5/4(2)", (1, 1)))  # only 1-1 plays it whole
    assert p.apply("24/13", dice=(5, 6)) == p.apply("24/18/13")
    long = Position.start("long")
    assert long.apply("24/13") == long.apply(long.parse_move("24/13", (6, 5)))
    with pytest.raises(nardy.IllegalMoveError, match="not a legal play of any roll"):
        p.apply("24/23")
    with pytest.raises(nardy.IllegalMoveError):
        p.apply("24/20", dice=(6, 5))
    with pytest.raises(nardy.InvalidNotationError):
        p.apply("hello")
    with pytest.raises(InvalidArgumentError, match="a Move or its text"):
        p.apply(5)
    with pytest.raises(InvalidArgumentError, match="dice="):
        p.apply(p.parse_move("24/13", (6, 5)), dice=(6, 5))


def test_a_variant_that_contradicts_the_rules_is_an_error():
    with pytest.raises(InvalidArgumentError, match=r"a short nardy position with the rules of long nardy Rules\('long'\)"):
        Position(SHORT_START, "short", rules=Rules("long"))
    with pytest.raises(InvalidArgumentError, match="a long nardy position with the rules of short nardy"):
        Position.from_points("long", {24: 15}, {12: 15}, rules=Rules("short"))
    assert Position(SHORT_START, rules=Rules("short")).variant is Variant.SHORT  # the rules' variant by default
    assert Position(LONG_START).variant is Variant.LONG


def test_from_id_refuses_a_turn_or_rules_that_contradict_the_id():
    with pytest.raises(nardy.InvalidNotationError, match="turn black contradicts 'NL1W:AACA/z8AAID/Pw', which has white on roll"):
        Position.from_id("NL1W:AACA/z8AAID/Pw", "black")
    with pytest.raises(InvalidArgumentError, match="unknown colour 'purple' for turn"):
        Position.from_id("NL1W:AACA/z8AAID/Pw", "purple")
    with pytest.raises(nardy.InvalidNotationError, match="'NL1W:AACA/z8AAID/Pw' is a long nardy position, not short"):
        Position.from_id("NL1W:AACA/z8AAID/Pw", rules=Rules("short"))
    with pytest.raises(nardy.InvalidNotationError, match="'4HPwATDgc/ABMA' is a short nardy position, not long"):
        Position.from_id("4HPwATDgc/ABMA", "white", rules=Rules("long"))
    assert Position.from_id("4HPwATDgc/ABMA", rules=Rules("short")) == Position.start("short")


# the engine's own moves and positions, trusted (not checked again) ---------------------------
@pytest.mark.parametrize("variant", ["long", "short"])
@given(data=st.data())
def test_the_engines_moves_are_those_the_checked_constructors_make(variant, data):
    """legal_moves' moves (made lazily, unchecked) equal, step for step with their hits, the moves
    Position.move builds and checks; apply of one (its result remembered) equals apply of the
    checked copy (which generates again), and children() is the same list."""
    rules = Rules(variant)
    p = Position(data.draw(boards(rules)), variant, data.draw(st.sampled_from(["white", "black"])))
    dice = data.draw(st.tuples(st.integers(1, 6), st.integers(1, 6)))
    moves = p.legal_moves(dice)
    for backend in (nardy.BACKEND, "python"):
        assert [(m.dice, m.steps) for m in p.legal_moves(dice, backend=backend)] == [(m.dice, m.steps) for m in moves]
    checked = [p.move(dice, m.pairs()) for m in moves]
    assert [(m.dice, [(s.src, s.dst, s.hit) for s in m.steps]) for m in moves] == \
        [(m.dice, [(s.src, s.dst, s.hit) for s in m.steps]) for m in checked]
    assert [str(m) for m in moves] == [str(m) for m in checked] and moves == checked
    assert [hash(m) for m in moves] == [hash(m) for m in checked]
    assert [p.apply(m) for m in moves] == [p.apply(m) for m in checked] == p.children(dice)
    assert [p.apply(m) for m in moves] == p.children(dice, backend="python")


@pytest.mark.parametrize("variant", ["long", "short"])
@given(data=st.data())
def test_a_child_is_the_flipped_board_with_the_other_side_on_roll(variant, data):
    rules = Rules(variant)
    view = data.draw(boards(rules))
    p = Position(view, variant, "black")
    q = p.pass_turn()
    assert q.view() == nardy.reference.flip(view, Variant(variant)) and q.turn is Color.WHITE
    assert q == Position(q.view(), variant, "white", validate=False) and q.pass_turn() == p


def test_a_move_is_trusted_only_where_it_was_made():
    """A move of legal_moves is applied without generating again only to its own board, rules and
    last_roll; anywhere else it is checked as any other move."""
    p = Position.start("long")
    move = p.legal_moves((6, 5))[0]
    elsewhere = Position.from_points("long", white={24: 14, 1: 1}, black={24: 15}, own_numbers=True)
    with pytest.raises(nardy.IllegalMoveError):
        elsewhere.apply(Position.start("long").legal_moves((6, 6))[0])
    assert elsewhere.apply(move) == elsewhere.apply(nardy.Move(move.dice, move.pairs()))
    two_off_the_head = next(m for m in p.legal_moves((6, 6)) if [s.src for s in m.steps].count(24) > 1)
    with pytest.raises(nardy.IllegalMoveError):
        p.apply(two_off_the_head, Rules("long", head_exception="none"))  # made under other rules: checked
    assert p.apply(two_off_the_head) == p.apply(nardy.Move((6, 6), two_off_the_head.pairs()))
    with pytest.raises(InvalidArgumentError):
        p.apply(move, backend="fortran")


def test_the_engines_moves_pickle_and_stay_immutable():
    move = Position.start("short").legal_moves((3, 1))[0]
    again = pickle.loads(pickle.dumps(move))
    assert again == move and again.steps == move.steps and repr(again) == repr(move) and type(again) is nardy.Move
    with pytest.raises(AttributeError):
        move.dice = (6, 6)
    with pytest.raises(AttributeError):
        move.colour = "white"
    assert len({move, again, nardy.Move((3, 1), move.pairs())}) == 1


@pytest.mark.parametrize("variant", ["long", "short"])
@given(data=st.data())
def test_all_sequences_moves_are_those_the_checked_constructor_makes(variant, data):
    rules = Rules(variant)
    p = Position(data.draw(boards(rules)), variant)
    dice = data.draw(st.tuples(st.integers(1, 6), st.integers(1, 6)))
    budget = 40  # a double on a spread board has thousands of orders; each check regenerates
    for child, moves in p.all_sequences(dice).items():
        moves = moves[:budget]
        budget -= len(moves)
        checked = [p.move(dice, m.pairs()) for m in moves]
        assert [repr(m) for m in moves] == [repr(m) for m in checked] and moves == checked
        assert all(p.apply(m) == child for m in moves)
        if budget <= 0:
            break
