"""Fuzz: the move, position-ID, Match ID and XGID parsers, and read_position."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from fuzzing import answered_or_refused, anything, fuzz, texts
from nardy import Position, Rules
from nardy.formats import ids, notation
from nardy.position import parse_xgid, read_position
from strategies import ALL_RULES, boards

MOVES = ["24/18 13/8", "8/5* 6/5", "bar/22 13/11(2)", "6/off 5/off", "24/13", "25/18*/13", "pass", "13/11(2) 6/4(2)"]
IDS = ["4HPwATDgc/ABMA", "NL1W:AAAAAAAAAAAA/38A", "NL1B:gP8PAAAAAAAAAA", "AAAAAAAA/v8AAA"]
MATCH_IDS = ["QYkqASAAIAAE", "cAkAAAAAAAAA", "QYkqASAAIAAA", "MAEAAAAAAAAA"]
XGIDS = ["XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "XGID=-b----E-C---eE---c-e----B-:1:1:-1:D:2:3:1:7:10",
         "XGID=-------------------------O:0:0:1:63:0:0:0:0:10", "-a-bE-D---cD---c-b-a-E-:-1:0:0:00:0:0:0:0"]
ARRAYS = [",".join(map(str, Position.start(v).view())) for v in ("long", "short")]


@fuzz
@given(text=texts(MOVES), rules=st.sampled_from(ALL_RULES), data=st.data())
def test_move_text(text, rules, data):
    answered_or_refused(notation.parse_chains, text)
    position = Position(data.draw(boards(rules)), rules.variant, data.draw(st.sampled_from([0, 1])), validate=False)
    answered_or_refused(position.parse_move, text, data.draw(st.tuples(st.integers(1, 6), st.integers(1, 6))), rules)


@fuzz
@given(text=st.one_of(texts(IDS), anything()), turn=st.one_of(st.sampled_from([0, 1]), anything()),
       rules=st.one_of(st.none(), st.sampled_from(ALL_RULES)))
def test_position_ids(text, turn, rules):
    answered_or_refused(Position.from_id, text, turn, rules=rules)


@fuzz
@given(text=st.one_of(texts(IDS + XGIDS + ARRAYS + [f"{IDS[0]}:{MATCH_IDS[0]}"]), anything()),
       rules=st.one_of(st.sampled_from(ALL_RULES), anything()), turn=st.sampled_from([0, 1, "white"]))
def test_read_position(text, rules, turn):
    answered_or_refused(read_position, text, rules, turn)


@fuzz
@given(text=st.one_of(texts(MATCH_IDS), anything()))
def test_match_ids(text):
    state = answered_or_refused(ids.parse_match_id, text)
    if isinstance(state, ids.MatchState):  # the text nardy writes is read back to itself
        written = ids.match_id(state)
        assert ids.match_id(ids.parse_match_id(written)) == written


@fuzz
@given(text=st.one_of(texts(XGIDS), anything()), rules=st.one_of(st.none(), st.just(Rules("short")), anything()))
def test_xgids(text, rules):
    found = answered_or_refused(parse_xgid, text, rules)
    if isinstance(found, tuple):
        position, state = found
        assert parse_xgid(ids.xgid(position, state)) == (position, state)
