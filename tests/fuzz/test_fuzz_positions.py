"""Fuzz: the Position constructors and methods, with wrong types and values."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from fuzzing import answered_or_refused, anything, fuzz, huge_ints
from nardy import Move, Position, Rules
from strategies import ALL_RULES, boards

VARIANTS = st.one_of(st.sampled_from(["long", "short", "LONG", "Short"]), anything())
COLOURS = st.one_of(st.sampled_from([0, 1, "white", "black"]), anything())
RULES = st.one_of(st.none(), st.sampled_from(ALL_RULES), anything())
DICE = st.one_of(st.tuples(st.integers(1, 6), st.integers(1, 6)), st.tuples(huge_ints(), huge_ints()), anything())
VIEWS = st.one_of(st.lists(huge_ints(), min_size=24, max_size=28), st.lists(st.integers(-15, 15), min_size=26, max_size=26),
                  st.binary(min_size=26, max_size=26), anything())


@st.composite
def positions(draw: st.DrawFn) -> Position:
    rules = draw(st.sampled_from(ALL_RULES))
    return Position(draw(boards(rules)), rules.variant, draw(st.sampled_from([0, 1])), validate=False)


@fuzz
@given(view=VIEWS, variant=VARIANTS, turn=COLOURS, rules=RULES, validate=st.booleans())
def test_position_constructor(view, variant, turn, rules, validate):
    answered_or_refused(Position, view, variant, turn, rules=rules, validate=validate)


@fuzz
@given(variant=VARIANTS, white=st.one_of(st.dictionaries(huge_ints(), huge_ints(), max_size=6), anything()),
       black=st.one_of(st.dictionaries(st.integers(1, 24), st.integers(0, 15), max_size=6), anything()),
       bars=st.tuples(huge_ints(), huge_ints()), turn=COLOURS, own=st.booleans(), rules=RULES)
def test_from_points(variant, white, black, bars, turn, own, rules):
    answered_or_refused(Position.from_points, variant, white, black, white_bar=bars[0], black_bar=bars[1], turn=turn,
                        own_numbers=own, rules=rules)
    answered_or_refused(Position.start, variant, turn)


@fuzz
@given(position=positions(), colour=COLOURS, rules=RULES, dice=DICE)
def test_position_methods(position, colour, rules, dice):
    for method in (position.pip_count, position.checkers, position.bar, position.borne_off, position.has_illegal_block):
        answered_or_refused(method, colour)
    for method in (position.status, position.is_valid, position.validate, position.result):
        answered_or_refused(method, rules)
    answered_or_refused(position.legal_moves, dice, rules)
    answered_or_refused(position.children, dice, rules)


@fuzz
@given(position=positions(), dice=DICE, steps=st.one_of(
    st.lists(st.tuples(huge_ints(), huge_ints()), max_size=5), anything()), text=st.text(max_size=20))
def test_apply_a_move_that_is_made_up(position, dice, steps, text):
    move = answered_or_refused(Move, dice, steps) if not isinstance(dice, (str, bytes)) else text
    answered_or_refused(position.apply, move)
    answered_or_refused(position.apply, text)
    rules = Rules(position.variant)
    for legal in answered_or_refused(position.legal_moves, (3, 5), rules) or []:
        answered_or_refused(position.apply, legal, rules)
        break
