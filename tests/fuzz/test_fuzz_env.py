"""Fuzz: the batched environment stepped with bad actions; it stays usable after each refusal."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from fuzzing import answered_or_refused, anything, fuzz
from nardy.play.env import VectorEnv

ENVS = {variant: VectorEnv(variant, 3, seed=1) for variant in ("long", "short")}
for _env in ENVS.values():
    _env.reset()

DTYPES = st.sampled_from([np.int8, np.uint8, np.int32, np.int64, np.uint64, np.float64, np.bool_])
ACTIONS = st.one_of(
    hnp.arrays(DTYPES, st.sampled_from([(3,), (2,), (4,), (3, 1), ()])),
    st.lists(st.one_of(st.integers(-5, 40), st.integers()), min_size=3, max_size=3), anything(),
)


@fuzz
@given(variant=st.sampled_from(["long", "short"]), actions=st.lists(ACTIONS, min_size=1, max_size=4))
def test_step_with_bad_actions(variant, actions):
    env = ENVS[variant]
    for action in actions:
        answered_or_refused(env.step, action)
        # a refused step changed nothing: a legal one still plays
        env.step(env.sample_actions())
