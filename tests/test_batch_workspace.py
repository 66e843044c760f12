"""batch.generate's lean path and reusable Workspace: the same arrays and the same errors as the
checked path and the reference, calls that reuse and grow the buffers, and views that are overwritten."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nardy import NardyError, Rules, batch
from nardy import _backend as engine
from strategies import ALL_RULES, boards, rolls

LONG_START = (0,) * 12 + (-15,) + (0,) * 11 + (15, 0)
SHORT_START = (0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0)
WORKSPACE = batch.Workspace()  # shared by the examples: every call reuses (and sometimes grows) it


def same(a, b):
    return all(x.dtype == y.dtype and x.shape == y.shape and (x == y).all() for x, y in zip(a, b))


@pytest.mark.parametrize("rules", ALL_RULES, ids=[repr(r) for r in ALL_RULES])
@settings(max_examples=30)
@given(data=st.data())
def test_workspace_and_lean_path_give_the_checked_paths_arrays(rules, data):
    n = data.draw(st.integers(0, 6))
    views = np.array([data.draw(boards(rules)) for _ in range(n)], np.int8).reshape(n, 26)
    dice = np.array([data.draw(rolls) for _ in range(n)], np.int8).reshape(n, 2)
    checked = batch.generate(views.astype(np.int64), dice.astype(np.int64), rules)  # converted, fully checked
    lean = batch.generate(views, dice, rules)
    into = batch.generate(views, dice, rules, out=WORKSPACE)
    assert same(checked, lean) and same(checked, into)
    children, offsets, moves = batch.generate(views, dice, rules, backend="python")
    assert (offsets == checked[1]).all()
    for i in range(n):
        rows = slice(offsets[i], offsets[i + 1])
        assert sorted(map(bytes, children[rows])) == sorted(map(bytes, checked[0][rows]))


def test_views_are_overwritten_and_buffers_grow():
    ws = batch.Workspace()
    rules = Rules("long")
    first = batch.generate(np.array([LONG_START], np.int8), np.array([[6, 5]], np.int8), rules, out=ws)
    kept = [a.copy() for a in first]
    small = ws.nbytes
    views = np.array([LONG_START] * 3000, np.int8)
    dice = np.tile(np.array([[6, 5], [3, 3], [2, 1]], np.int8), (1000, 1))
    big = batch.generate(views, dice, rules, out=ws)
    assert ws.nbytes > small
    assert same(big, batch.generate(views.astype(np.int16), dice, rules))
    grown = ws.nbytes
    again = batch.generate(np.array([LONG_START], np.int8), np.array([[6, 5]], np.int8), rules, out=ws)
    assert same(again, kept) and ws.nbytes == grown  # kept, not shrunk
    new = batch.generate(np.array([SHORT_START], np.int8), np.array([[6, 5]], np.int8), Rules("short"), out=ws)
    assert np.shares_memory(big[0], new[0]) and (big[0][0] == new[0][0]).all()  # the old views are overwritten
    assert not np.shares_memory(batch.generate(views, dice, rules)[0], new[0])  # without out=: the caller's own


BAD = [
    ("an entry outside -15..15", [LONG_START[:5] + (40,) + LONG_START[6:]], [[1, 2]]),
    ("a negative entry outside -15..15", [LONG_START[:5] + (-100,) + LONG_START[6:]], [[1, 2]]),
    ("a bad die", [LONG_START], [[0, 2]]),
    ("a bad die after a bad board", [LONG_START, (0,) * 26], [[1, 2], [7, 2]]),
    ("the game is over", [(0,) * 12 + (-15,) + (0,) * 13], [[1, 2]]),
    ("too many checkers", [LONG_START[:3] + (3,) + LONG_START[4:]], [[1, 2]]),
    ("rolls of the wrong shape", [LONG_START], [[1, 2, 3]]),
    ("fewer rolls than boards", [LONG_START, LONG_START], [[1, 2]]),
]


@pytest.mark.parametrize("views, dice", [(v, d) for _, v, d in BAD], ids=[name for name, _, _ in BAD])
def test_bad_rows_raise_the_checked_paths_error(views, dice):
    rules = Rules("long")
    with pytest.raises(NardyError) as checked:
        batch.generate(np.array(views, np.int64), np.array(dice, np.int64), rules)
    for out in (None, batch.Workspace()):
        with pytest.raises(type(checked.value)) as lean:
            batch.generate(np.array(views, np.int8), np.array(dice, np.int8), rules, out=out)
        assert str(lean.value) == str(checked.value)


@pytest.mark.parametrize("variant, start", [("long", LONG_START), ("short", SHORT_START)])
def test_the_lean_paths_entry_check_flags_exactly_the_entries_outside_15(variant, start):
    """The core's first check of a row (a vector compare, -15..15) at each of the 26 indices with
    every int8 value: BAD_ENTRY exactly when the entry is outside -15..15 (the public call then
    names the problem through the full checks, as the tests above show)."""
    core, codes = batch.Workspace()._core, engine.core_rules(Rules(variant))
    dice = np.array([[3, 1]], np.int8)
    for k in range(26):
        for value in range(-128, 128):
            row = np.array([start], np.int8)
            row[0, k] = value
            flagged = core.generate(row, dice, codes)[0] == engine._core.BAD_ENTRY
            assert flagged == (not -15 <= value <= 15), (k, value)


def test_workspace_takes_any_array_like_through_the_checks():
    ws = batch.Workspace()
    rules = Rules("short")
    got = batch.generate([SHORT_START], [(3, 1)], rules, out=ws)
    assert same(got, batch.generate(np.array([SHORT_START], np.int8), np.array([[3, 1]], np.int8), rules))
    with pytest.raises(NardyError):
        batch.generate([SHORT_START], [(3, 1)], rules, out=ws, backend="python")


def test_one_workspace_used_from_two_threads_is_an_error_not_a_heap_corruption():
    """Two threads generating into one Workspace aborted the process ("double free or corruption"):
    a call that finds another thread's call generating is refused; every other call is right."""
    import threading

    from nardy import InvalidArgumentError, Position

    rolls = np.random.default_rng(0).integers(1, 7, (2000, 2)).astype(np.int8)
    workspace, refused, wrong, failed = batch.Workspace(), [], [], []

    def work(variant):
        views = np.tile(np.array(Position.start(variant).view(), np.int8), (2000, 1))
        expected = batch.generate(views, rolls, variant)[0].copy()
        for _ in range(100):
            try:
                children = batch.generate(views, rolls, variant, out=workspace)[0]
            except InvalidArgumentError as exc:
                refused.append(str(exc))
                continue
            except BaseException as exc:  # pragma: no cover - a thread's error would not fail the test
                failed.append(exc)
                return
            wrong.append(len(children) != len(expected))

    threads = [threading.Thread(target=work, args=(variant,)) for variant in ("long", "short")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failed and len(wrong) + len(refused) == 200 and not any(wrong)
    assert all("in use by another thread" in message for message in refused)


def test_a_copied_or_unpickled_workspace_is_a_new_one_sharing_nothing():
    """copy.copy shared the buffers (one's call overwrote the other's views); pickle was a TypeError."""
    import copy
    import pickle

    views, rolls = np.zeros((1, 26), np.int8), np.array([[6, 5]], np.int8)
    views[0, 1], views[0, 24] = 15, -15
    workspace = batch.Workspace()
    first = batch.generate(views, rolls, "short", out=workspace)[0]
    kept = first.copy()
    for other in (copy.copy(workspace), copy.deepcopy(workspace), pickle.loads(pickle.dumps(workspace))):
        assert type(other) is batch.Workspace and other._core is not workspace._core
        views2 = views.copy()
        views2[0, 1], views2[0, 6] = 14, 1
        batch.generate(views2, rolls, "short", out=other)
        assert np.array_equal(first, kept)  # the original's views untouched
