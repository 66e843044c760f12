"""batch.generate's lean path and reusable Workspace: the same arrays and the same errors as the
checked path and the reference, calls that reuse and grow the buffers, and views that are overwritten."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nardy import InvalidPositionError, NardyError, Rules, batch
from nardy import _backend as engine, _core, _hooks, _net
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
            flagged = core.generate(row, dice, codes)[0] == _core.BAD_ENTRY
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


# the public one-board generator ------------------------------------------------------------
GENERATORS = {repr(r): batch.Generator(r) for r in ALL_RULES}  # reused by the examples


@pytest.mark.parametrize("rules", ALL_RULES, ids=[repr(r) for r in ALL_RULES])
@settings(max_examples=30)
@given(data=st.data())
def test_the_generator_gives_one_row_of_generate(rules, data):
    board, dice = data.draw(boards(rules)), data.draw(rolls)
    n, children, moves = GENERATORS[repr(rules)].moves(engine.as_bytes(board), *dice)
    c, offsets, m = batch.generate(np.array([board], np.int8), np.array([dice], np.int8), rules)
    assert (n, children, moves) == (offsets[1], c.tobytes(), m.tobytes())
    assert batch.Generator(rules).moves(list(board), np.int64(dice[0]), dice[1]) == (n, children, moves)
    found = engine.results(engine.as_bytes(board), dice, rules, "python")
    assert sorted(children[26 * i: 26 * i + 26] for i in range(n)) == sorted(child for child, _ in found)


def test_the_reference_generator_answers_in_the_same_layout(monkeypatch):
    monkeypatch.setattr(engine, "PURE_PYTHON", True)
    board = engine.as_bytes(SHORT_START)
    n, children, moves = batch.Generator("short").moves(board, 3, 1)
    monkeypatch.undo()
    core = batch.Generator("short").moves(board, 3, 1)
    assert n == core[0] and sorted(children[26 * i: 26 * i + 26] for i in range(n)) == \
        sorted(core[1][26 * i: 26 * i + 26] for i in range(n))


@pytest.mark.parametrize("board, dice, error, match", [
    (engine.as_bytes(SHORT_START), (7, 1), "InvalidDiceError", "1..6"),
    (engine.as_bytes(SHORT_START), (True, 1), "InvalidDiceError", "True"),
    (engine.as_bytes(SHORT_START), (2 ** 70, 1), "InvalidDiceError", "1..6"),
    (engine.as_bytes(SHORT_START), ("3", 1), "InvalidDiceError", "'3'"),
    (engine.as_bytes(SHORT_START)[:20], (3, 1), "InvalidPositionError", "26 int8 bytes, got 20"),
    (bytes([100] * 26), (3, 1), "InvalidPositionError", "outside -15..15"),
    ("board", (3, 1), "InvalidPositionError", "shape"),
    (bytes(26), (3, 1), "InvalidPositionError", "borne off all 15"),
    (engine.as_bytes((0, 15) + (0,) * 24), (3, 1), "GameOverError", "the game is over"),
])
def test_the_generator_refuses_bad_input_with_nardys_errors(board, dice, error, match):
    for rules in ("short", "long"):
        with pytest.raises(NardyError, match=match) as caught:
            batch.Generator(rules).moves(board, *dice)
        assert type(caught.value).__name__ == error


def test_a_generator_shared_by_threads_gives_each_call_its_own_answer():
    import pickle
    from concurrent.futures import ThreadPoolExecutor

    gen = batch.Generator("long")
    boards_ = [engine.as_bytes(LONG_START)] * 200
    expected = gen.moves(boards_[0], 6, 5)
    with ThreadPoolExecutor(4) as pool:
        assert all(r == expected for r in pool.map(lambda b: gen.moves(b, 6, 5), boards_))
    again = pickle.loads(pickle.dumps(gen))
    assert again.rules == gen.rules and again.moves(boards_[0], 6, 5) == expected


def test_a_generators_rules_cannot_be_reassigned_under_its_bound_core():
    # the rules were a plain attribute: Rules("long") assigned, the generator went on with short nardy's
    gen = batch.Generator("short")
    with pytest.raises(AttributeError, match="rules"):
        gen.rules = Rules("long")
    assert gen.rules == Rules("short") and repr(gen) == "Generator(Rules('short'))"
    assert gen.moves(engine.as_bytes(SHORT_START), 3, 1)[0] == 16


@pytest.mark.parametrize("variant, board, dice", [("short", SHORT_START, (3, 1)), ("short", SHORT_START, (1, 1)),
                                                  ("long", LONG_START, (6, 5))])
@pytest.mark.parametrize("rows", [1, batch.SMALL - 1, batch.SMALL, 3 * batch.SMALL])
def test_fresh_outputs_are_the_callers_own_at_their_size(variant, board, dice, rows):
    """Both fresh paths (this thread's workspace copied out, and large calls written straight into
    arrays sized for a guess, grown and cut to size): the workspace's arrays, owned, exactly sized."""
    views = np.tile(np.array(board, np.int8), (rows, 1))
    rolls = np.tile(np.array(dice, np.int8), (rows, 1))
    rules = Rules(variant)
    expected = [a.copy() for a in batch.generate(views, rolls, rules, out=batch.Workspace())]
    for got in (batch.generate(views, rolls, rules), batch.generate(views.astype(np.int32), rolls, rules)):
        assert same(got, expected)
        assert all(a.flags.owndata and a.flags.c_contiguous and a.base is None for a in got)
        got[0][:] = 0  # the caller's own: the next call is not changed by it
    assert same(batch.generate(views, rolls, rules), expected)


def test_the_core_answers_with_codes_and_the_door_words_them():
    """The core knows no text: a board of the wrong length, rows of the wrong shape and a
    Generator's play before bind come back as codes, which the compiled door turns into errors."""
    codes = engine.core_rules(Rules("short"))
    gen = _core.Generator()
    assert gen.play(engine.as_bytes(SHORT_START), 3, 1) == (_core.UNBOUND, b"", b"")
    assert gen.moves(bytes(20), 3, 1, codes)[0] == _core.BAD_SHAPE
    assert gen.ordered(bytes(20), 3, 1, codes)[0] == _core.BAD_SHAPE
    assert gen.sequences(bytes(20), 3, 1, codes)[0] == _core.BAD_SHAPE
    assert _core.perft(bytes(20), 1, codes) == (_core.BAD_SHAPE, 0)
    assert _core.generate(np.zeros((2, 26), np.int8), np.ones((3, 2), np.int8), codes)[0] == _core.BAD_SHAPE
    for call in (engine.results, engine.ordered, engine.sequences):
        with pytest.raises(InvalidPositionError, match="a board is 26 int8 bytes, got 20"):
            call(bytes(20), (3, 1), Rules("short"))
    with pytest.raises(InvalidPositionError, match="no rules bound"):
        engine.raise_for_code(_core.UNBOUND, SHORT_START)


def test_the_test_hooks_live_outside_the_core():
    assert {"kernel", "scans", "use_avx2", "use_x86_64_v3", "use_net_avx2"} <= set(dir(_hooks))
    assert not {"kernel", "scans", "use_avx2", "use_x86_64_v3"} & set(dir(_core)) and "use_avx2" not in dir(_net)


def test_the_hooks_refuse_rows_they_would_read_past_or_dice_off_the_die():
    # scans read 26 bytes a row whatever the width; kernel took a die of 0 or 7
    assert _hooks.scans(np.zeros((3, 5), np.int8), True) is None
    start = np.array([SHORT_START], np.int8)
    short = engine.core_rules(Rules("short"))
    for bad in ([[0, 3]], [[7, 1]]):
        assert _hooks.kernel(start, np.array(bad, np.int8), short) == -1
    assert _hooks.kernel(start, np.array([[3, 1]], np.int8), short) == 16
