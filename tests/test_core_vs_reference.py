"""The compiled core gives exactly the reference's answers: fixed cases, perft, hypothesis-generated
positions, lockstep self-play, and malformed input, for every rule option of both variants."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from nardy import NardyError, Position, Rules, batch, reference, simulate
from nardy import _backend as engine, _hooks
from strategies import ALL_RULES, LONG_RULES, boards, rolls

LONG_START = (0,) * 12 + (-15,) + (0,) * 11 + (15, 0)
SHORT_START = (0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0)
RULE_IDS = [repr(r) for r in ALL_RULES]


def both(board, dice, rules):
    """(core, reference) results: {child: representative (from, to) pairs}."""
    b = engine.as_bytes(board)
    return tuple(
        {engine.as_ints(child): pairs for child, pairs in engine.results(b, dice, rules, backend)}
        for backend in ("cython", "python")
    )


def assert_same_results(board, dice, rules):
    core, ref = both(board, dice, rules)
    assert core.keys() == ref.keys(), f"{rules!r} {board} {dice}: only core {core.keys() - ref.keys()}, only reference {ref.keys() - core.keys()}"
    assert core == ref, f"{rules!r} {board} {dice}: the representative moves differ"
    return core


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULE_IDS)
@given(data=st.data())
def test_random_positions_have_identical_results(rules, data):
    board = data.draw(boards(rules))
    for dice in data.draw(st.lists(rolls, min_size=1, max_size=4)):
        assert_same_results(board, dice, rules)


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULE_IDS)
@given(data=st.data())
def test_random_positions_have_identical_step_sequences(rules, data):
    board = data.draw(boards(rules))
    dice = data.draw(rolls)
    b = engine.as_bytes(board)
    core = {k: sorted(v) for k, v in engine.sequences(b, dice, rules, "cython").items()}
    ref = {k: sorted(v) for k, v in engine.sequences(b, dice, rules, "python").items()}
    assert core == ref


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULE_IDS)
@given(data=st.data())
def test_pips_blocks_and_status_agree(rules, data):
    views = np.array([data.draw(boards(rules)) for _ in range(5)], np.int8)
    for name in ("pips", "flip"):
        f = getattr(batch, name)
        assert (f(views, rules.variant) == f(views, rules.variant, backend="python")).all()
    for name in ("illegal_blocks", "status"):
        f = getattr(batch, name)
        assert (f(views, rules) == f(views, rules, backend="python")).all()


def crowded_rows(seed: int, n: int) -> np.ndarray:
    """In-range rows that stress the batch kernels: six-runs of either side (starting anywhere,
    so some cross the long board's wrap-around), with and without other checkers ahead, checkers
    on the bars, and miscounted rows; pip counts take any in-range row, blocks any with
    bars of the right sign."""
    rng = np.random.default_rng(seed)
    rows = np.zeros((n, 26), np.int8)
    for row in rows:
        row[1:25] = rng.choice([0, 0, 0, 1, 2, 5, 15, -1, -2, -6, -15], 24) * (rng.random(24) < 0.5)
        for side in (1, -1)[: rng.integers(0, 3)]:
            start = rng.integers(0, 24)
            row[1 + (start + np.arange(rng.integers(5, 9))) % 24] = side * rng.integers(1, 4)
        row[25], row[0] = rng.integers(0, 4) * (rng.random() < 0.3), -rng.integers(0, 4) * (rng.random() < 0.3)
    return rows


@pytest.fixture(params=[True, False], ids=["avx2", "no-avx2"])
def avx2(request):
    """The batch kernels with AVX2 (where the CPU has it) and without (SSE2 and scalar paths)."""
    yield _hooks.use_avx2(request.param)
    _hooks.use_avx2(True)


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULE_IDS)
def test_batch_kernels_agree_on_crowded_rows_of_every_length(rules, avx2):
    """The batch pips and six-block checks (SIMD several rows at a time, a scalar tail) against
    the reference, for every batch length up to 9 and a long one, and pips of rows with
    wrong-signed bars too."""
    for n in [*range(10), 1001]:
        views = crowded_rows(n, n)
        got = batch.illegal_blocks(views, rules)
        assert (got == batch.illegal_blocks(views, rules, backend="python")).all()
        if n == 1001 and rules.variant.value == "long" and rules.block_rule != "none":
            assert got.any() and not got.all()  # both answers occur
        views[:, 0] = -views[:, 0]  # now the opponent's bar may be positive, and the mover's negative
        views[:, 25] = -views[::-1, 25]
        assert (batch.pips(views, rules.variant) == batch.pips(views, rules.variant, backend="python")).all()


def generate_with(v3, views, rolls, rules):
    """batch.generate with the move generator's x86-64-v3 build (where the CPU has it) or its
    baseline build; whether the x86-64-v3 build was used, and the arrays."""
    used = _hooks.use_x86_64_v3(v3)
    try:
        return used, batch.generate(views, rolls, rules)
    finally:
        _hooks.use_x86_64_v3(True)


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULE_IDS)
def test_the_x86_64_v3_build_of_the_walks_gives_the_baseline_builds_arrays(rules):
    """Every position of seeded random games (both variants, every rule option), with all 21
    rolls: the same results, order, representatives and offsets from both builds of the walks,
    and perft too; the baseline build also against the reference on a sample."""
    games = simulate(rules, 3, seed=11, record=True)
    views = np.repeat(games.trace[:, :26], 21, axis=0)
    rolls = np.tile(np.array(reference.ROLLS, np.int8), (len(games.trace), 1))
    used, fast = generate_with(True, views, rolls, rules)
    if not used:
        pytest.skip("no x86-64-v3 build of the walks here (not x86-64, or the CPU lacks AVX2/BMI2)")
    assert not generate_with(False, views[:1], rolls[:1], rules)[0]
    baseline = generate_with(False, views, rolls, rules)[1]
    for got, expected in zip(fast, baseline):
        assert np.array_equal(got, expected)
    for i in range(0, len(views), 97):  # the baseline build is the reference's too
        children, offsets, moves = baseline
        b = engine.as_bytes(views[i])
        ref = {engine.as_ints(c): m for c, m in engine.results(b, tuple(rolls[i]), rules, "python")}
        core = {tuple(int(x) for x in c): tuple((int(m[k]), int(m[k + 1])) for k in range(0, 8, 2) if m[k] >= 0)
                for c, m in zip(children[offsets[i]:offsets[i + 1]], moves[offsets[i]:offsets[i + 1]])}
        assert core == ref
    midgame = engine.as_bytes(MIDGAME[rules.variant.value][0])
    depth = 2 if rules in DEEPER else 1
    _hooks.use_x86_64_v3(False)
    try:
        slow = engine.perft(midgame, depth, rules, "cython")
    finally:
        _hooks.use_x86_64_v3(True)
    assert engine.perft(midgame, depth, rules, "cython") == slow


@pytest.mark.slow
def test_one_checker_on_the_bar_enters_the_same_on_both_backends():
    """Short nardy, one checker on the bar: the entry walks. Blots and the mover's own checkers on
    the entry points make the two orders' coincidences (moved on from the entry point, with or
    without a hit) and the one-step and no-step cases; every roll, 400 seeded boards."""
    rules = Rules("short")
    rng = random.Random(25)
    checked = 0
    while checked < 400:
        board = [0] * 26
        board[25] = 1
        for _ in range(14):  # the mover's other checkers, most in the opponent's home (the entry points)
            board[rng.choice(range(19, 25)) if rng.random() < 0.4 else rng.randint(1, 24)] += 1
        free = [p for p in range(1, 25) if board[p] == 0]
        for _ in range(15):  # the opponent's: blots and blocks, often on the entry points
            entries = [p for p in free if p >= 19]
            p = rng.choice(entries) if entries and rng.random() < 0.5 else rng.choice(free)
            board[p] -= 1
        board = tuple(board)
        if reference.status(board, rules) != 0:
            continue
        for hi in range(1, 7):
            for lo in range(1, hi + 1):
                results = assert_same_results(board, (hi, lo), rules)
                assert len(engine.results(engine.as_bytes(board), (hi, lo), rules, "cython")) == len(results)  # once each
        checked += 1


def test_the_simd_scan_agrees_with_the_word_scan():
    """The core's scan (SSE2 on x86-64) against the portable one in 64-bit words, on in-range rows
    of every kind, and both against numpy (the SIMD scan on any int8 row: status reads any):
    occupancy words of both sides, points held, checker counts."""
    crowded = np.concatenate([crowded_rows(seed, 400) for seed in range(5)])
    assert (_hooks.scans(crowded, False) == _hooks.scans(crowded, True)).all()
    views = np.concatenate([crowded, np.random.default_rng(3).integers(-128, 128, (500, 26)).astype(np.int8)])
    got = _hooks.scans(views, False)
    points = views[:, 1:25].astype(np.int64)
    bits = 1 << np.arange(24)
    expected = np.stack([((points > 0) * bits).sum(1), ((points < 0) * bits).sum(1), ((points < -1) * bits).sum(1),
                         np.maximum(points, 0).sum(1), np.maximum(-points, 0).sum(1)], axis=1)
    assert (got == expected).all()


@pytest.mark.parametrize("rules", [Rules("short"), Rules("long"), Rules("long", koks=True)], ids=repr)
def test_wins_agree(rules):
    """batch.wins (the simulator's result rule) against reference.result on random boards where the
    mover has borne off all 15 (every kind of win) and where it has not (0)."""
    rng = np.random.default_rng(8)
    short = rules.variant.value == "short"
    anywhere = list(range(0, 25) if short else range(1, 25))  # short: 0 is the loser's bar
    far = list(range(7, 25) if short else [*range(1, 7), *range(13, 25)])  # no backgammon, no koks
    views = np.zeros((800, 26), np.int8)
    for i, view in enumerate(views):
        for point in rng.choice(far if i % 2 else anywhere, size=int(rng.choice([15, 15, int(rng.integers(1, 15))]))):
            view[point] -= 1
    views[::4, 24] = 1  # the mover has one checker left: nothing won yet
    got = batch.wins(views, rules)
    assert (got == batch.wins(views, rules, backend="python")).all()
    assert set(got.tolist()) == ({0, 1, 2, 3} if short or rules.koks else {0, 1, 2})


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULE_IDS)
@given(data=st.data())
def test_batch_generate_agrees_with_single_calls(rules, data):
    views = [data.draw(boards(rules)) for _ in range(4)]
    dice = [data.draw(rolls) for _ in views]
    got = [batch.generate(np.array(views), np.array(dice), rules, backend=b) for b in ("cython", "python")]
    for (children, offsets, moves), (rchildren, roffsets, rmoves) in [got]:
        assert (offsets == roffsets).all()
        for i in range(len(views)):
            rows = slice(offsets[i], offsets[i + 1])
            mine = {tuple(c): tuple(m) for c, m in zip(children[rows].tolist(), moves[rows].tolist())}
            theirs = {tuple(c): tuple(m) for c, m in zip(rchildren[rows].tolist(), rmoves[rows].tolist())}
            assert mine == theirs


def lockstep_game(rules: Rules, seed: int, max_plies: int = 400) -> int:
    """Play one random game with both backends side by side; the plies played."""
    rng = random.Random(seed)
    board = LONG_START if rules.variant.value == "long" else SHORT_START
    for ply in range(max_plies):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        children = sorted(assert_same_results(board, dice, rules))
        child = rng.choice(children)
        if 0 in reference.board.on_board(child):
            return ply + 1
        board = reference.flip(child, rules.variant)
    return max_plies


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULE_IDS)
def test_lockstep_self_play(rules):
    games = 6 if rules == Rules(rules.variant) else 2
    plies = sum(lockstep_game(rules, seed) for seed in range(games))
    assert plies > 100 * games // 2


@pytest.mark.slow
@pytest.mark.parametrize("rules", [Rules("long"), Rules("short")], ids=["long", "short"])
def test_lockstep_self_play_thousands_of_plies(rules):
    plies, seed = 0, 1000
    while plies < 2000 and seed < 1100:
        plies += lockstep_game(rules, seed)
        seed += 1
    assert plies >= 2000


@pytest.mark.slow
@pytest.mark.parametrize("rules", ALL_RULES, ids=RULE_IDS)
def test_perft_depth_2_from_the_start(rules):
    start = engine.as_bytes(LONG_START if rules.variant.value == "long" else SHORT_START)
    assert engine.perft(start, 2, rules, "cython") == engine.perft(start, 2, rules, "python")


@pytest.mark.slow
@pytest.mark.parametrize("rules", LONG_RULES[:: 3] + [Rules("long", last_roll_draw=True)], ids=repr)
def test_perft_depth_3_long_start(rules):
    start = engine.as_bytes(LONG_START)
    assert engine.perft(start, 3, rules, "cython") == engine.perft(start, 3, rules, "python")


@pytest.mark.slow
def test_perft_depth_3_short_start_sampled():
    """Short perft(3) is too big for the reference: check it as a sum over a sample of its subtrees."""
    rules = Rules("short")
    start = engine.as_bytes(SHORT_START)
    rng = random.Random(7)
    for dice in rng.sample(reference.ROLLS, 3):
        for child, _ in rng.sample(engine.results(start, dice, rules, "cython"), 1):
            turned = engine.as_bytes(reference.flip(engine.as_ints(child), rules.variant))
            assert engine.perft(turned, 2, rules, "cython") == engine.perft(turned, 2, rules, "python")


MIDGAME = {
    "long": [
        (0, 2, 0, 1, 0, 3, 0, -2, 0, 0, 0, 0, -9, 2, -1, 0, 1, 0, -1, 0, 0, 0, -2, 0, 6, 0),
        (0, 1, 2, 2, 3, 3, 2, 0, -1, 0, -2, 0, -4, 0, 0, -3, 0, 0, 0, -5, 0, 2, 0, 0, 0, 0),
    ],
    "short": [
        (0, -2, 0, 0, 0, 2, 4, 0, 3, 0, 0, 0, -4, 3, 0, 0, 0, -3, -1, -4, 1, 0, 0, 0, 2, 0),
        (-1, 2, 2, 3, 2, 2, 2, 0, 0, 0, 0, 0, 0, -2, 0, 0, 0, -3, -3, -2, -2, 0, -2, 0, 1, 1),
    ],
}


DEEPER = [Rules("long"), Rules("long", block_timing="end"), Rules("long", block_rule="home"), Rules("short")]


@pytest.mark.slow
@pytest.mark.parametrize("rules", ALL_RULES, ids=RULE_IDS)
def test_perft_from_midgame_positions(rules):
    depth = 2 if rules in DEEPER else 1
    for board in MIDGAME[rules.variant.value]:
        b = engine.as_bytes(board)
        assert engine.perft(b, depth, rules, "cython") == engine.perft(b, depth, rules, "python")


MALFORMED_BOARDS = [
    np.zeros((3, 25), np.int8),  # wrong width
    np.zeros((2, 26), np.float64),  # not integers
    np.full((1, 26), 16, np.int64),  # out of range, not truncated
    np.array([[0] * 24 + [0, 0]]),  # both sides borne off
    np.array([[0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 3, 0]]),  # 16 checkers
    np.array([[0] * 12 + [-15] + [0] * 11 + [15, 1]]),  # long: a bar
    np.zeros(7, np.int8),  # wrong shape entirely
]


@pytest.mark.parametrize("board", MALFORMED_BOARDS, ids=lambda b: f"shape{b.shape}-{b.dtype}")
@pytest.mark.parametrize("name", ["generate", "pips", "illegal_blocks", "status", "flip"])
def test_malformed_input_raises_the_same_error_class(board, name):
    rules = Rules("long")
    f = getattr(batch, name)
    outcomes = []
    for backend in ("cython", "python"):
        try:
            if name == "generate":
                f(board, np.ones((len(board) if board.ndim == 2 else 1, 2), np.int8), rules, backend=backend)
            elif name in ("pips", "flip"):
                f(board, rules.variant, backend=backend)
            else:
                f(board, rules, backend=backend)
            outcomes.append(None)
        except NardyError as exc:
            outcomes.append(type(exc))
    assert outcomes[0] == outcomes[1]
    if name == "generate" or board.ndim != 2 or board.shape[1] != 26 or board.dtype.kind != "i" or board.max() > 15:
        assert outcomes[0] is not None


@pytest.mark.parametrize("rolls_", [np.array([[0, 3]]), np.array([[7, 1]]), np.array([[1, 2, 3]]), np.array([[1.5, 2]])])
def test_bad_dice_in_batches_raise_the_same_error_class(rolls_):
    outcomes = []
    for backend in ("cython", "python"):
        with pytest.raises(NardyError) as info:
            batch.generate(np.array([LONG_START]), rolls_, Rules("long"), backend=backend)
        outcomes.append(type(info.value))
    assert outcomes[0] is outcomes[1]


def test_single_calls_raise_the_same_error_class():
    cases = [
        (LONG_START, (0, 1)),
        ((0,) * 26, (1, 2)),
        ((0,) * 12 + (-15,) + (0,) * 11 + (14, 0), (1, 2)),  # fine: one borne off
        ((0,) * 12 + (-15,) + (0,) * 12 + (0,), (1, 2)),  # the mover has borne off all: game over
    ]
    for board, dice in cases:
        outcomes = []
        for backend in ("cython", "python"):
            try:
                engine.results(engine.as_bytes(board), dice, Rules("long"), backend)
                outcomes.append(None)
            except NardyError as exc:
                outcomes.append(type(exc))
        assert outcomes[0] == outcomes[1], board


def test_positions_play_the_same_on_both_backends():
    p = Position.start("short")
    for dice in reference.ROLLS:
        assert p.legal_moves(dice, backend="cython") == p.legal_moves(dice, backend="python")
