"""Move notation (GNU Backgammon's, read leniently) and position IDs (docs/formats.md sections 1, 3 and 4)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nardy import Color, IllegalMoveError, InvalidArgumentError, InvalidNotationError, Move, Position, Rules
from nardy.formats.ids import MatchState, match_id, xgid
from nardy.position import parse_xgid, read_position
from strategies import boards, rolls

SHORT = Position.start("short")


@pytest.mark.parametrize("move, text", [
    (Move((6, 5), ((24, 18), (18, 13))), "24/13"),
    (Move((6, 5), ((24, 18, True), (18, 13))), "24/18*/13"),
    (Move((2, 2), ((13, 11), (13, 11), (6, 4), (6, 4))), "13/11(2) 6/4(2)"),
    (Move((6, 6), ((6, 0), (6, 0), (5, 0), (4, 0))), "6/off(2) 5/off 4/off"),
    (Move((4, 3), ((25, 22, True), (13, 9))), "bar/22* 13/9"),
    (Move((3, 1), ((6, 5), (8, 5))), "8/5 6/5"),
    (Move((5, 5), ()), "pass"),
])
def test_moves_are_written_as_gnu_backgammon_writes_them(move, text):
    assert str(move) == text


@pytest.mark.slow  # a random position with many plays takes up to a minute (each play parsed against all)
@pytest.mark.parametrize("rules", [Rules("long"), Rules("short")], ids=["long", "short"])
@settings(max_examples=25)
@given(data=st.data())
def test_every_legal_move_round_trips_through_its_text(rules, data):
    position = Position(data.draw(boards(rules)), rules.variant)
    dice = data.draw(rolls)
    for move in position.legal_moves(dice, rules):
        assert position.parse_move(str(move), dice, rules) == move


@pytest.mark.parametrize("text", [
    "24/13", "24/18 18/13", "24/18/13", "18/13 24/18", "24/18, 18/13",
])
def test_lenient_reading_of_one_checker(text):
    assert str(SHORT.parse_move(text, (6, 5))) == "24/13"


def test_a_text_naming_a_point_the_play_does_not_land_on_is_not_that_play():
    # 24/13 can only pass 18 (Black holds 19): naming 19 names no legal play
    for text in ("24/19 19/13", "24/19/13"):
        with pytest.raises(IllegalMoveError, match="not a legal play"):
            SHORT.parse_move(text, (6, 5))


def test_lenient_points_bar_off_stars_and_groups():
    entering = Position([-1, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 4, 0, 0, 0, -3, 0, -5, 0, 0, -1, 0, 2, 1], "short")
    for text in ("bar/22* 13/9", "b/22 13/9", "25/22* 13/9", "13/9 bar/22"):
        assert str(entering.parse_move(text, (4, 3))) == "bar/22* 13/9"
    home = Position([0, 2, 2, 3, 3, 3, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -15, 0, 0, 0, 0, 0], "short")
    for text in ("6/off 5/off", "6/o 5/0", "5/- 6/OFF", "6/0* 5/o"):
        assert str(home.parse_move(text, (6, 5))) == "6/off 5/off"
    for text in ("6/off(2) 5/off(2)", "6/o 6/o 5/0 5/-", "5/off 6/off 5/off 6/off"):
        assert str(home.parse_move(text, (6, 6))) == "6/off(2) 5/off(2)"
    assert str(SHORT.parse_move("13/11(2) 6/4(2)", (2, 2))) == "13/11(2) 6/4(2)"
    assert str(SHORT.parse_move("6/4 13/11 6/4 13/11", (2, 2))) == "13/11(2) 6/4(2)"


def test_long_nardy_notation():
    start = Position.start("long")
    assert [str(m) for m in start.legal_moves((3, 3))] == ["24/21 24/15", "24/18(2)"]
    assert str(start.parse_move("24/18 24/18", (3, 3))) == "24/18(2)"
    with pytest.raises(IllegalMoveError):
        start.parse_move("24/18 24/19", (6, 5))


def test_unreadable_text_is_a_notation_error():
    for text in ("24-18", "/24/18", "24/18/", "24/x", "24/26", "24/18(two)", "24"):
        with pytest.raises(InvalidNotationError):
            SHORT.parse_move(text, (6, 5))


def test_a_readable_but_illegal_move_names_the_roll():
    with pytest.raises(IllegalMoveError, match="not a legal play of 6-5"):
        SHORT.parse_move("24/12", (6, 5))


def test_an_ambiguous_text_names_the_choices():
    # blots on both 18 and 19: "24/13" could pass through either, hitting
    board = [0, -3, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -1, -1, -1, -4, 0, 0, 0, 2, 0]
    p = Position(board, "short")
    with pytest.raises(InvalidNotationError, match="ambiguous.*24/18\\*/13.*24/19\\*/13|ambiguous.*24/19\\*/13.*24/18\\*/13"):
        p.parse_move("24/13", (6, 5))
    assert str(p.parse_move("24/18*/13", (6, 5))) == "24/18*/13"
    assert str(p.parse_move("24/19/13", (6, 5))) == "24/19*/13"


# position IDs

def test_gnubg_position_id_of_the_start():
    assert SHORT.id() == "4HPwATDgc/ABMA"
    assert Position.from_id("4HPwATDgc/ABMA") == SHORT


def test_gnubg_encodes_the_side_not_on_roll_first():
    # docs/formats.md section 3: not on roll 13 on its ace and 2 on the bar, on roll 15 on its 6-point
    view = [0] * 26
    view[6], view[24], view[0] = 15, -13, -2
    p = Position(view, "short")
    assert p.id() == "/x8AAGDg/w8AAA"
    assert Position.from_id("/x8AAGDg/w8AAA") == p
    assert Position.from_id("/x8AAGDg/w8AAA", Color.BLACK).turn is Color.BLACK


@pytest.mark.parametrize("rules", [Rules("long"), Rules("short")], ids=["long", "short"])
@given(data=st.data())
def test_position_ids_round_trip(rules, data):
    p = Position(data.draw(boards(rules)), rules.variant, data.draw(st.sampled_from(list(Color))))
    text = p.id()
    again = Position.from_id(text, p.turn)
    assert again == p
    if rules.variant.value == "long":
        assert text.startswith(("NL1W:", "NL1B:")) and len(text) == 19


def test_gnubg_agrees_on_position_ids():
    gnubg = pytest.importorskip("gnubg_nn")
    spec = importlib.util.spec_from_file_location("gnubg_oracle", Path(__file__).parent.parent / "oracle" / "gnubg_oracle.py")
    oracle = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(oracle)
    import random

    rng = random.Random(3)
    p = SHORT
    for _ in range(300):
        assert p.id() == gnubg.position_id(oracle.to_gnubg(p.view()))
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        p = rng.choice(p.children(dice))
        if p.is_game_over():
            p = SHORT


@pytest.mark.parametrize("text", ["4HPwATDgc/AB", "4HPwATDgc/ABM!", "//////////////", "NL1X:4HPwATDgc/ABMA", "NL1W4HPwATDgc/ABMA"])
def test_invalid_ids_are_notation_errors(text):
    with pytest.raises(InvalidNotationError):
        Position.from_id(text)


# the resolution rule: a text denotes the plays that land on every point it names -----------------

def _short(points: dict[int, int]) -> Position:
    """A short nardy position from {point: count} (negative counts are Black's), White on roll."""
    view = [0] * 26
    for point, n in points.items():
        view[point] = n
    view[25] = 15 - sum(n for n in points.values() if n > 0)
    view[0] = -15 - sum(n for n in points.values() if n < 0)
    return Position(view, "short")


@pytest.mark.parametrize("board, dice, text, meant", [
    # server style, each die its own step and no `*`: the step lands on 15, so it hits there
    ({16: 1, 6: 14, 15: -1, 1: -14}, (5, 1), "16/15 15/10", "16/15*/10"),
    ({16: 1, 6: 14, 15: -1, 1: -14}, (5, 1), "16/11 11/10", "16/10"),
    ({16: 1, 6: 14, 15: -1, 1: -14}, (5, 1), "16/10", "16/10"),  # a bare 16/10 hits nothing on the way
    # an engine's own step output fed back (blots on both ways)
    ({8: 1, 6: 14, 4: -1, 5: -1, 20: -13}, (3, 4), "8/5 5/1", "8/5*/1"),
    ({8: 1, 6: 14, 4: -1, 5: -1, 20: -13}, (3, 4), "8/4 4/1", "8/4*/1"),
    ({5: 1, 6: 14, 4: -1, 3: -1, 20: -13}, (1, 2), "5/4 4/2", "5/4*/2"),
    ({5: 1, 6: 14, 4: -1, 3: -1, 20: -13}, (1, 2), "5/3 3/2", "5/3*/2"),
])
def test_the_text_names_its_landing_points(board, dice, text, meant):
    assert str(_short(board).parse_move(text, dice)) == meant


def test_ambiguous_only_when_two_plays_remain():
    p = _short({8: 1, 6: 14, 4: -1, 5: -1, 20: -13})
    with pytest.raises(InvalidNotationError, match="ambiguous"):
        p.parse_move("8/1", (3, 4))  # both ways hit on a point the text does not name
    for text in ("8/1*", "8/5* 5/1*"):  # a `*` where no play hits narrows to nothing
        with pytest.raises(IllegalMoveError, match="not a legal play"):
            p.parse_move(text, (3, 4))


def _writings(move: Move, rng) -> list[str]:
    """Every way a player or a program writes `move`: merged, step by step, with or without `*`,
    in the order played or shuffled."""
    steps = [f"{s.src}/{s.dst}{'*' if s.hit else ''}" for s in move.steps]
    shuffled = steps[:]
    rng.shuffle(shuffled)
    chains = str(move).split()
    rng.shuffle(chains)
    texts = [str(move), " ".join(chains), " ".join(steps), " ".join(shuffled), move.plain()]
    return texts + [t.replace("*", "") for t in texts]


@pytest.mark.parametrize("rules", [Rules("long"), Rules("short")], ids=["long", "short"])
@settings(max_examples=60)
@given(data=st.data())
def test_every_way_of_writing_a_play_resolves_to_it(rules, data):
    import random

    position = Position(data.draw(boards(rules)), rules.variant)
    dice = data.draw(rolls)
    moves = [m for m in position.legal_moves(dice, rules) if m.steps]
    if not moves:
        return
    move = data.draw(st.sampled_from(moves))
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    for text in _writings(move, rng):
        assert position.parse_move(text, dice, rules) == move, text


@pytest.mark.parametrize("rules", [Rules("long"), Rules("short")], ids=["long", "short"])
@settings(max_examples=60)
@given(data=st.data())
def test_nothing_naming_a_point_the_play_does_not_land_on_resolves_to_it(rules, data):
    from nardy import _backend as engine

    position = Position(data.draw(boards(rules)), rules.variant)
    dice = data.draw(rolls)
    results = engine.results(position.to_bytes(), dice, rules)
    children = {pairs: child for child, pairs in results}
    moves = [m for m in position.legal_moves(dice, rules) if m.steps]
    if not moves:
        return
    move = data.draw(st.sampled_from(moves))
    child = children[move.pairs()]
    landed = {dst for seq in engine.sequences(position.to_bytes(), dice, rules)[child] for _, dst in seq}
    unnamed = [q for q in range(1, 25) if q not in landed]
    if not unnamed:
        return
    q = data.draw(st.sampled_from(unnamed))
    i = data.draw(st.integers(0, len(move.steps) - 1))
    steps = [f"{s.src}/{s.dst}" for s in move.steps]
    steps[i] = f"{move.steps[i].src}/{q}/{move.steps[i].dst}"
    text = " ".join(steps)
    try:
        resolved = position.parse_move(text, dice, rules)
    except (IllegalMoveError, InvalidNotationError):
        return
    assert children[resolved.pairs()] != child, text


# input validation: the MatchState of match_id and xgid, turn and variant of an ID, ASCII digits ---

LONG_START_ID = "NL1W:AACA/z8AAID/Pw"


@pytest.mark.parametrize("fields, named", [
    ({"cube_value": 3}, "cube_value = 3"), ({"cube_value": 0}, "cube_value = 0"),
    ({"cube_value": 65536}, "cube_value = 65536"), ({"cube_value": True}, "cube_value = True"),
    ({"dice": (7, 1)}, r"dice = \(7, 1\)"), ({"dice": (1,)}, r"dice = \(1,\)"), ({"dice": "61"}, "dice = '61'"),
    ({"match_length": -1}, "match_length = -1"), ({"score": (5, 0), "match_length": 3}, "score0 = 5 is beyond the match length 3"),
    ({"score": (1,)}, r"score = \(1,\)"), ({"on_roll": 3}, "on_roll = 3"), ({"turn": 5}, "turn = 5"),
    ({"resignation": 7}, "resignation = 7"), ({"cube_owner": 5}, "cube_owner = 5"), ({"game_state": 5}, "game_state = 5"),
    ({"crawford": 1}, "crawford = 1"),
])
def test_match_id_and_xgid_check_the_match_state_alike(fields, named):
    for write in (match_id, lambda state: xgid(SHORT, state)):
        with pytest.raises(InvalidNotationError, match=f"MatchState.* {named}"):
            write(MatchState(**fields))


def test_match_id_and_xgid_name_an_argument_of_the_wrong_kind():
    for call in (lambda: match_id(None), lambda: match_id("x"), lambda: xgid(SHORT, "foo")):
        with pytest.raises(InvalidArgumentError, match="a match state must be a MatchState, got"):
            call()
    with pytest.raises(InvalidArgumentError, match="xgid\\(\\) takes a Position, got None"):
        xgid(None)
    for bad in (3, 0, 1 << 16, 2.0):
        with pytest.raises(InvalidArgumentError, match="max_cube is a power of two"):
            xgid(SHORT, max_cube=bad)


def test_xgid_refuses_a_state_whose_side_on_roll_is_not_the_positions():
    with pytest.raises(InvalidNotationError, match="on_roll = 0 contradicts the position, which has white on roll"):
        xgid(SHORT, MatchState(on_roll=0))
    state = MatchState(cube_value=4, cube_owner=0, dice=(6, 3), match_length=7, score=(3, 5))
    assert parse_xgid(xgid(SHORT, state)) == (SHORT, state)


def test_an_explicit_turn_that_contradicts_the_id_is_an_error():
    with pytest.raises(InvalidNotationError, match=f"turn black contradicts '{LONG_START_ID}', which has white on roll"):
        Position.from_id(LONG_START_ID, "black")
    with pytest.raises(InvalidNotationError, match="turn black contradicts .*, which has white on roll"):
        read_position(LONG_START_ID, Rules("long"), "black")
    with pytest.raises(InvalidNotationError, match="turn black contradicts '4HPwATDgc/ABMA:QYkqASAAIAAE'"):
        read_position("4HPwATDgc/ABMA:QYkqASAAIAAE", Rules("short"), Color.BLACK)
    with pytest.raises(InvalidNotationError, match="turn black contradicts 'XGID="):
        read_position(xgid(SHORT), Rules("short"), "black")
    # agreeing or absent, the turn is the ID's; a gnubg ID or an array takes it (default White)
    assert Position.from_id(LONG_START_ID, "white").turn is Color.WHITE
    assert Position.from_id("NL1B:AACA/z8AAID/Pw").turn is Color.BLACK
    assert read_position("NL1B:AACA/z8AAID/Pw", Rules("long")).turn is Color.BLACK
    assert read_position("4HPwATDgc/ABMA:AQkqASAAIAAE", Rules("short")).turn is Color.BLACK
    assert read_position("4HPwATDgc/ABMA", Rules("short"), "black").turn is Color.BLACK
    array = ",".join(map(str, SHORT.view()))
    assert read_position(array, Rules("short")).turn is Color.WHITE
    assert read_position(array, Rules("short"), "black").turn is Color.BLACK


@pytest.mark.parametrize("text", [LONG_START_ID, "4HPwATDgc/ABMA"])
def test_an_unknown_turn_is_an_error_even_when_the_id_names_the_side(text):
    with pytest.raises(InvalidArgumentError, match="unknown colour 'purple' for turn"):
        Position.from_id(text, "purple")


@pytest.mark.parametrize("text, rules, message", [
    (LONG_START_ID, Rules("short"), "is a long nardy position, not short"),
    ("4HPwATDgc/ABMA", Rules("long"), "is a short nardy position, not long"),
])
def test_an_id_is_not_read_as_the_other_variant(text, rules, message):
    with pytest.raises(InvalidNotationError, match=f"'{text}' {message}"):
        Position.from_id(text, "white", rules=rules)
    with pytest.raises(InvalidNotationError, match=message):
        read_position(text, rules)


def test_an_xgid_is_not_read_with_long_nardy_rules():
    for call in (lambda t: parse_xgid(t, Rules("long")), lambda t: read_position(t, Rules("long"))):
        with pytest.raises(InvalidNotationError, match="is a short nardy position, not long"):
            call(xgid(SHORT))


@pytest.mark.parametrize("text", ["٢٤/١٨ ١٣/٨", "２４/１８ １３/８", "24/18(٢)", "24/18 13/８"])
def test_move_text_takes_ascii_digits_only(text):
    with pytest.raises(InvalidNotationError, match="cannot read|is not a point"):
        SHORT.parse_move(text, (6, 5))


def test_positions_and_xgids_take_ascii_digits_only():
    with pytest.raises(InvalidNotationError, match="26 comma-separated integers"):
        read_position(",".join(["٠"] * 26), Rules("short"))
    with pytest.raises(InvalidNotationError, match="field dice is '٦٥'"):
        parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:٦٥:0:0:0:0:10")


def test_a_checker_count_of_zero_is_a_notation_error():
    with pytest.raises(InvalidNotationError, match=r"'24/18\(0\)' moves no checker in '24/18\(0\)': a count \(n\) is 1..4"):
        SHORT.parse_move("24/18(0)", (6, 5))


def test_id_with_a_match_id_is_read_by_read_position_not_from_id():
    with pytest.raises(InvalidNotationError, match="a position ID is 14 base64 characters"):
        Position.from_id("4HPwATDgc/ABMA:QYkqASAAIAAE")
    assert read_position("4HPwATDgc/ABMA:QYkqASAAIAAE", Rules("short")) == SHORT


def test_numpy_whole_numbers_in_a_match_state_are_read_as_ints():
    import numpy as np

    plain = MatchState(cube_value=2, cube_owner=1, on_roll=1, game_state=3, turn=1, resignation=2, dice=(5, 2),
                       match_length=2, score=(1, 1))
    given = MatchState(cube_value=np.int64(2), cube_owner=np.int8(1), on_roll=np.int16(1), game_state=np.int8(3),
                       turn=np.uint8(1), resignation=np.int64(2), dice=(np.int8(5), np.int64(2)),
                       match_length=np.int64(2), score=(np.int64(1), np.uint16(1)))
    assert match_id(given) == match_id(plain)
    position = Position.start("short")
    assert xgid(position, given, np.int64(1024)) == xgid(position, plain, 1024)
    for bad in (np.bool_(True), np.float64(2.0)):
        with pytest.raises(InvalidNotationError, match="MatchState field match_length"):
            match_id(MatchState(match_length=bad))
