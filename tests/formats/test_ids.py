"""GNU Backgammon's Match ID and XG's XGID, checked against the values gnubg itself writes."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from nardy import Color, InvalidNotationError, Position, Rules
from nardy.formats.ids import MatchState, match_id, parse_match_id, xgid
from nardy.position import parse_xgid
from strategies import boards


def test_match_id_of_the_manual_example_as_gnubg_writes_it():
    # 2-4 in a 9-point match, player 0 owns a 2-cube, player 1 has rolled 52: gnubg writes
    # QYkqASAAIAAE (its manual says ...AAAA: the undocumented bit 67, Jacoby not in use)
    state = MatchState(cube_value=2, cube_owner=0, on_roll=1, turn=1, dice=(2, 5), match_length=9, score=(2, 4))
    assert match_id(state) == "QYkqASAAIAAE"
    assert match_id(MatchState(cube_value=2, cube_owner=0, on_roll=1, turn=1, dice=(5, 2), match_length=9,
                               score=(2, 4), jacoby=True)) == "QYkqASAAIAAA"
    assert parse_match_id("QYkqASAAIAAE") == MatchState(cube_value=2, cube_owner=0, on_roll=1, turn=1, dice=(5, 2),
                                                        match_length=9, score=(2, 4))


@given(
    cube=st.integers(0, 12), owner=st.sampled_from([None, 0, 1]), on_roll=st.integers(0, 1), crawford=st.booleans(),
    state=st.integers(0, 4), turn=st.integers(0, 1), double=st.booleans(), resign=st.integers(0, 3),
    dice=st.one_of(st.none(), st.tuples(st.integers(1, 6), st.integers(1, 6)).map(lambda d: tuple(sorted(d, reverse=True)))),
    length=st.integers(0, 64), score=st.tuples(st.integers(0, 64), st.integers(0, 64)), jacoby=st.booleans(),
)
def test_match_ids_round_trip(cube, owner, on_roll, crawford, state, turn, double, resign, dice, length, score, jacoby):
    # scores stay within the match (issue 17): below the length while a game is played
    # (a game is played in state 1, and in state 0 with dice rolled or a double or resignation offered)
    playing = state == 1 or (state == 0 and (dice is not None or double or resign > 0))
    assume(not length or max(score) < length or (not playing and max(score) <= length))
    assume(not crawford or (length and length - 1 in score))  # a Crawford flag only where a side needs one point
    s = MatchState(1 << cube, owner, on_roll, crawford, state, turn, double, resign, dice, length, score, jacoby)
    text = match_id(s)
    assert len(text) == 12 and parse_match_id(text) == s


def test_a_match_id_at_the_match_length_with_a_game_on_is_refused():
    # issue 27: 4-0 in a 4-point match, no game state but the dice rolled (31): a game is on
    with pytest.raises(InvalidNotationError, match="field score0 = 4 is beyond the match length 4"):
        parse_match_id("MIiFAEAAAAAA")
    with pytest.raises(InvalidNotationError, match="field score0 = 4 is beyond the match length 4"):
        match_id(MatchState(game_state=0, dice=(3, 1), match_length=4, score=(4, 0)))
    assert parse_match_id(match_id(MatchState(game_state=0, match_length=4, score=(4, 0)))).score == (4, 0)


def test_a_money_score_is_one_rule_for_the_xgid_and_the_match_id():
    # issue 27: parse_xgid took a money score of 99999 that match_id then refused
    start = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:{}:0:0:0:10"
    with pytest.raises(InvalidNotationError, match="field bottom score = 99999 is above 32767"):
        parse_xgid(start.format(99999))
    position, state = parse_xgid(start.format(32767))
    assert parse_match_id(match_id(state)).score == (0, 32767) and xgid(position, state) == start.format(32767)
    with pytest.raises(InvalidNotationError, match="score"):
        match_id(MatchState(score=(0, 32768)))


def test_a_crawford_flag_where_nobody_needs_one_point_is_refused():
    # gnubg reads a Crawford flag only where a side is 1-away: it refuses one in money play and
    # drops one at 0-0 of 5; nardy refuses both, naming the field
    crawford = {"match_length": 5, "dice": (3, 1), "crawford": True}
    at_0_0 = "8ImlAAAAAAAE"  # as match_id() writes MatchState(**crawford) at 0-0
    with pytest.raises(InvalidNotationError, match="field crawford says Crawford game at 0-0 of 5"):
        parse_match_id(at_0_0)
    with pytest.raises(InvalidNotationError, match="field crawford says Crawford game in a money game"):
        parse_match_id("8IkFAAAAAAAE")
    assert parse_match_id("8ImlAEAAAAAE") == MatchState(**crawford, score=(4, 0))
    start = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:{}:{}:1:{}:10"
    with pytest.raises(InvalidNotationError, match="field crawford/jacoby says Crawford game at 3-2 of 5"):
        parse_xgid(start.format(3, 2, 5))
    assert parse_xgid(start.format(3, 4, 5))[1].crawford  # the top player needs one point
    assert parse_xgid(start.format(0, 0, 0))[1].jacoby  # in money play the field is Jacoby's


@pytest.mark.parametrize("text", ["QYkqASAAIAA", "QYkqASAAIAA!", "/////////////", "AAAAAAAAAAA/"])
def test_invalid_match_ids(text):
    with pytest.raises(InvalidNotationError):
        parse_match_id(text)


def test_xgid_of_the_start_is_gnubgs():
    text = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
    assert xgid(Position.start("short")) == text
    position, state = parse_xgid(text)
    assert position == Position.start("short") and position.id() == "4HPwATDgc/ABMA"
    assert state.cube_value == 1 and state.cube_owner is None and state.dice is None


def test_xgid_is_never_flipped():
    # gnubg reads 15 upper-case checkers on character 25 as the bottom player's bar
    position, _ = parse_xgid("XGID=-------------------------O:0:0:1:00:0:0:0:0:10")
    assert position.bar(Color.WHITE) == 15 and position.id() == "AAAAAAAA/v8AAA"


@given(data=st.data())
def test_xgids_round_trip(data):
    rules = Rules("short")
    p = Position(data.draw(boards(rules)), "short", data.draw(st.sampled_from(list(Color))))
    state = MatchState(cube_value=4, cube_owner=1, on_roll=int(p.turn is Color.WHITE), turn=int(p.turn is Color.WHITE),
                       dice=(6, 3), match_length=7, score=(3, 6), crawford=True)
    again, parsed = parse_xgid(xgid(p, state))
    assert again == p and parsed == state


@pytest.mark.parametrize("text", ["XGID=-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10", "XGID=-b----E-C---eE---c-e----B-:0:0:2:00:0:0:0:0:10",
                                  "nonsense", "XGID=Bb----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"])
def test_invalid_xgids(text):
    with pytest.raises(InvalidNotationError):
        parse_xgid(text)


def test_a_position_id_with_an_empty_match_id_is_refused() -> None:
    from nardy.position import read_position

    with pytest.raises(InvalidNotationError, match="ends in ':' without its match ID"):
        read_position("4HPwATDgc/ABMA:", Rules("short"))
    assert read_position("4HPwATDgc/ABMA:cAkAAAAAAAAA", Rules("short")) == Position.start("short")
