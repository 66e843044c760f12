"""Short nardy move generation against an independent oracle: GNU Backgammon's generator.

The oracle (tests/oracle/gnubg_oracle.py) wraps the move generator of the PyPI package
gnubg-nn (import name gnubg_nn), which shares no code with nardy. These tests are skipped
when it is not installed.

Checked independently here, by gnubg in the test run itself:
- the distinct results of every one of the 21 rolls (6-5: 7, 3-1: 16, 1-1: 42, ...) from the
  start, and perft 1 = 447 and perft 2 = 202782 from the start;
- the distinct results of all 21 rolls in 300 positions reached by seeded random self-play
  (with checkers on the bar, closed boards, bearing off and lost rolls among them);
- perft 1 and 2 of every entry of tests/data/perft/short.perft;
- the hand-made edge positions of test_short_rules.py / test_bear_off.py, including docs/rules.md
  section 3's last checker case (2/1*/off with 6-1), where gnubg also plays only 2/1*/off.
Not checked by gnubg in the tests: short perft 3 = 116154993 (the compiled core's; it was
confirmed once offline with this oracle, about 7 minutes, see tests/data/perft/short.perft).
"""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path

import pytest

import nardy
from nardy import Position, Rules
from nardy import _backend as engine

pytest.importorskip("gnubg_nn")

sys.path.insert(0, str(Path(__file__).parent / "oracle"))
oracle = importlib.import_module("gnubg_oracle")

SHORT = Rules("short")
ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(d1, 7)]
SEED = 20240607
N_POSITIONS = 300


def results(view, dice, rules, backend) -> set[tuple[int, ...]]:
    found = engine.results(engine.as_bytes(view), dice, rules, backend)
    return {engine.as_ints(child) for child, _ in found}


def mismatch(view, dice, ours, theirs) -> str:
    return (f"position {view} roll {dice[0]}-{dice[1]}: nardy {len(ours)}, gnubg {len(theirs)}\n"
            f"  only nardy: {sorted(ours - theirs)}\n  only gnubg: {sorted(theirs - ours)}")


def self_play_positions(seed: int, count: int) -> list[tuple[int, ...]]:
    """Mover's-view boards met in seeded random games (every position kept with probability 1/2)."""
    rng = random.Random(seed)
    found: list[tuple[int, ...]] = []
    seen: set[tuple[int, ...]] = set()
    p = Position.start("short")
    while len(found) < count:
        if p.is_game_over():
            p = Position.start("short")
            continue
        view = p.view()
        if view not in seen and rng.random() < 0.5:
            seen.add(view)
            found.append(view)
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        p = rng.choice(p.children(dice, SHORT))
    return found


@pytest.fixture(scope="module")
def positions() -> list[tuple[int, ...]]:
    return self_play_positions(SEED, N_POSITIONS)


@pytest.fixture(scope="module")
def gnubg_results(positions) -> dict[tuple, set[tuple[int, ...]]]:
    return {(view, dice): oracle.distinct_results(view, *dice) for view in positions for dice in ROLLS}


def test_oracle_round_trip_and_flip():
    start = Position.start("short")
    assert oracle.from_gnubg(oracle.to_gnubg(start.view())) == start.view()
    assert oracle.flip(start.view()) == start.view()  # the start is symmetric
    assert oracle.START == start.view()


def test_self_play_positions_cover_the_rules(positions, gnubg_results):
    """The sample is only worth something if it meets the interesting rules."""
    assert len(positions) == N_POSITIONS
    on_bar = sum(1 for v in positions if v[25] > 0)
    opp_on_bar = sum(1 for v in positions if v[0] < 0)
    bearing_off = sum(1 for v in positions if v[25] == 0 and all(n <= 0 for n in v[7:25]))
    lost_rolls = sum(1 for (v, _), res in gnubg_results.items() if res == {v})
    hits = sum(1 for (v, _), res in gnubg_results.items() for r in res if r[0] < v[0])
    assert on_bar >= 10 and opp_on_bar >= 10
    assert bearing_off >= 10
    assert lost_rolls >= 10
    assert hits >= 100


def test_opening_rolls_equal_gnubg(backend):
    start = Position.start("short").view()
    for dice in ROLLS:
        ours = results(start, dice, SHORT, backend)
        theirs = oracle.distinct_results(start, *dice)
        assert ours == theirs, mismatch(start, dice, ours, theirs)
    counts = {dice: len(oracle.distinct_results(start, *dice)) for dice in ((5, 6), (1, 3), (1, 1))}
    assert counts == {(5, 6): 7, (1, 3): 16, (1, 1): 42}


@pytest.mark.slow
def test_random_self_play_result_sets_equal_gnubg(backend, positions, gnubg_results):
    bad, checked = [], 0
    for view in positions:
        for dice in ROLLS:
            ours = results(view, dice, SHORT, backend)
            theirs = gnubg_results[(view, dice)]
            checked += 1
            if ours != theirs:
                bad.append(mismatch(view, dice, ours, theirs))
    assert not bad, f"{len(bad)} of {checked} differ; first:\n" + "\n".join(bad[:5])


def test_random_self_play_dice_order_does_not_matter(backend, positions):
    for view in positions[:: 3 if backend == "cython" else 15]:
        for d1, d2 in ROLLS:
            if d1 != d2:
                assert results(view, (d1, d2), SHORT, backend) == results(view, (d2, d1), SHORT, backend)


def _view(mover, opp, bar=0, opp_bar=0):
    v = [0] * 26
    for p, n in mover.items():
        v[p] = n
    for p, n in opp.items():
        v[p] = -n
    v[25], v[0] = bar, -opp_bar
    return tuple(v)


EDGE_POSITIONS = {
    "last_checker_hit_then_off": _view({2: 1}, {1: 1, 20: 2}),
    "larger_die_either_alone": _view({13: 1}, {2: 2, 24: 2}),
    "only_smaller_die": _view({13: 1}, {2: 2, 7: 2, 24: 2}),
    "order_that_plays_both": _view({9: 1, 8: 1}, {3: 2, 23: 2}),
    "partly_closed_entry": _view({6: 2}, {24: 2, 22: 2, 20: 2, 1: 3}, bar=1),
    "closed_board_two_on_bar": _view({13: 5, 8: 3, 6: 5}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 3: 3}, bar=2),
    "two_on_bar_one_enters": _view({6: 5}, {22: 2, 1: 2}, bar=2),
    "intermediate_hit": _view({24: 1, 6: 2}, {18: 1, 1: 2}),
    "several_blots": _view({13: 1, 8: 1, 2: 1}, {10: 1, 7: 1, 20: 2}, opp_bar=1),
    "bear_off_higher_checker": _view({5: 1, 2: 1}, {12: 2}),
    "bear_off_from_bar": _view({3: 1}, {12: 2}, bar=1),
    "bear_off_blot_on_one": _view({4: 1, 2: 1}, {1: 1, 12: 1}),
    "bear_off_inside_home": _view({6: 2, 3: 1, 2: 1}, {12: 2}),
    "enter_home_then_off": _view({7: 1, 3: 1}, {12: 2}),
}


@pytest.mark.parametrize("name", sorted(EDGE_POSITIONS))
def test_edge_positions_equal_gnubg(backend, name):
    view = EDGE_POSITIONS[name]
    for dice in ROLLS:
        ours = results(view, dice, SHORT, backend)
        theirs = oracle.distinct_results(view, *dice)
        assert ours == theirs, mismatch(view, dice, ours, theirs)


@pytest.fixture(scope="module")
def gnubg_start_perft() -> dict[int, int]:
    start = Position.start("short").view()
    return {depth: oracle.perft(start, depth) for depth in (1, 2)}


def test_gnubg_perft_from_start(gnubg_start_perft):
    assert gnubg_start_perft == {1: 447, 2: 202782}


def test_perft_1_from_start_equals_gnubg(backend, gnubg_start_perft):
    start = Position.start("short").to_bytes()
    assert engine.perft(start, 1, SHORT, backend) == gnubg_start_perft[1]


def test_perft_2_from_start_equals_gnubg(gnubg_start_perft):
    # compiled core only here; the reference's perft 2 (202782) is run by test_perft.py
    if nardy.BACKEND != "cython":
        pytest.skip("the compiled core is disabled (NARDY_PURE_PYTHON=1)")
    start = Position.start("short").to_bytes()
    assert engine.perft(start, 2, SHORT, "cython") == gnubg_start_perft[2]


def test_perft_1_from_self_play_positions_equal_gnubg(backend, positions):
    # a perft-1 sum also checks that the turn passes correctly (children flipped)
    for view in positions[::30]:
        assert engine.perft(engine.as_bytes(view), 1, SHORT, backend) == oracle.perft(view, 1)


def short_perft_lines(max_depth: int = 2):
    """(id, pos, depth, count) of tests/data/perft/short.perft up to max_depth."""
    name = pos = None
    for raw in (Path(__file__).parent / "data" / "perft" / "short.perft").read_text().splitlines():
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        if words[0] == "id":
            name = words[1]
        elif words[0] == "pos":
            pos = tuple(int(n) for n in words[1].split(","))
        elif words[0] == "rules":
            raise AssertionError("short nardy has no rule option that changes perft")
        elif words[0] == "perft" and int(words[1]) <= max_depth:
            yield pytest.param(pos, int(words[1]), int(words[2]), id=f"{name}-d{words[1]}")


@pytest.mark.parametrize(("view", "depth", "count"), list(short_perft_lines()))
def test_short_perft_file_counts_equal_gnubg(view, depth, count):
    assert oracle.perft(view, depth) == count
