"""Fuzz: the batch functions over arrays of every dtype, shape and value."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from fuzzing import answered_or_refused, anything, fuzz
from nardy import batch
from strategies import ALL_RULES, boards

DTYPES = st.sampled_from([np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint64, np.float64, np.bool_])
RULES = st.one_of(st.sampled_from(ALL_RULES), st.sampled_from(["long", "short", "lung"]), anything())
VARIANTS = st.one_of(st.sampled_from(["long", "short", "LONG", "lung"]), anything())


@st.composite
def arrays(draw: st.DrawFn, width: int) -> object:
    """Valid boards, arrays of any dtype and nearby shape, or lists that are ragged or hold anything."""
    kind = draw(st.sampled_from(["valid", "array", "array", "ragged", "anything"]))
    if kind == "valid":
        rules = draw(st.sampled_from(ALL_RULES))
        return np.array(draw(st.lists(boards(rules), min_size=1, max_size=4)), np.int8)
    if kind == "array":
        shape = draw(st.sampled_from([(width,), (1, width), (3, width), (0, width), (2, width + 1), (2, 2, width), ()]))
        return draw(hnp.arrays(draw(DTYPES), shape))
    if kind == "ragged":
        return draw(st.lists(st.lists(st.integers(-20, 20), min_size=width - 1, max_size=width + 1), min_size=1, max_size=3))
    return draw(anything())


@fuzz
@given(views=arrays(26), rules=RULES, variant=VARIANTS)
def test_board_functions(views, rules, variant):
    for function in (batch.status, batch.illegal_blocks):
        answered_or_refused(function, views, rules)
    for function in (batch.pips, batch.flip):
        answered_or_refused(function, views, variant)
    answered_or_refused(batch.as_boards, views)


@fuzz
@given(views=arrays(26), rolls=arrays(2), rules=RULES)
def test_generate(views, rolls, rules):
    answered_or_refused(batch.generate, views, rolls, rules)
    answered_or_refused(batch.generate, views, rolls, rules, backend="python")
