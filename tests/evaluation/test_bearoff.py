"""nardy.race: the bear-off table against brute force, race odds against enumeration and
simulation, the cache's handling of bad files, and bad input.

The table is built once per session into a temporary cache directory; every test runs with
NARDY_CACHE_DIR pointing there (the cache tests use their own files).
"""

from __future__ import annotations

import errno
import io
import os
import threading
import warnings
from fractions import Fraction
from functools import lru_cache
from math import comb, sqrt

import numpy as np
import pytest

from nardy import (
    GameOverError,
    InvalidArgumentError,
    InvalidDiceError,
    InvalidNotationError,
    InvalidPositionError,
    Position,
    Rules,
    reference,
    simulate,
)
from nardy import _backend as engine
from nardy.evaluation import bearoff as race
from nardy import _bearoff
from nardy.cli import main

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
WEIGHT = {roll: Fraction(1 if roll[0] == roll[1] else 2, 36) for roll in ROLLS}


@pytest.fixture(scope="session")
def session_cache(tmp_path_factory: pytest.TempPathFactory):
    """The one table of the session, built into a temporary cache directory."""
    path = tmp_path_factory.mktemp("nardy-cache")
    race.load(path / race.FILE_NAME)
    return path


@pytest.fixture(autouse=True)
def cache_dir(session_cache, monkeypatch):
    monkeypatch.setenv("NARDY_CACHE_DIR", str(session_cache))
    return session_cache


@pytest.fixture
def table(cache_dir) -> race.BearoffTable:
    return race.load()


def index_of(counts) -> int:
    """The combinatorial number system of _bearoff.pxd, written out independently."""
    total, index = 0, 0
    for j in range(1, 7):
        total += counts[6 - j]  # point 7 - j
        index += comb(total + j - 1, j)
    return index


def homes(max_checkers: int, points: int = 6):
    """Every distribution of at most `max_checkers` over `points` points."""
    if points == 0:
        yield ()
        return
    for first in range(max_checkers + 1):
        for rest in homes(max_checkers - first, points - 1):
            yield (first, *rest)


def board_with(counts) -> tuple[int, ...]:
    """The mover's home counts, the opponent's 15 on the mover's 12 (out of the way in both variants)."""
    view = [0] * 26
    view[1:7] = counts
    view[12] = -15
    return tuple(view)


# the table against brute force ------------------------------------------------------------------
@lru_cache(maxsize=None)
def reference_plays(counts, roll, variant) -> tuple[tuple[int, ...], ...]:
    """The home counts after each legal play, by the pure-Python reference."""
    found = reference.legal_results(board_with(counts), roll, Rules(variant))
    return tuple(sorted({tuple(max(n, 0) for n in child[1:7]) for child in found}))


@lru_cache(maxsize=None)
def expectimax(counts, variant="short") -> tuple[Fraction, tuple[Fraction, ...]]:
    """Exact (mean, distribution) of the turns to bear off, minimising the mean; ties to the
    lowest state index. Exact fractions, the reference's move generation."""
    if sum(counts) == 0:
        return Fraction(0), (Fraction(1),)
    mean, dist = Fraction(1), [Fraction(0)] * 32
    for roll in ROLLS:
        best = min(reference_plays(counts, roll, variant), key=lambda c: (expectimax(c, variant)[0], index_of(c)))
        m, d = expectimax(best, variant)
        mean += WEIGHT[roll] * m
        for k, p in enumerate(d):
            dist[k + 1] += WEIGHT[roll] * p
    while dist[-1] == 0:
        dist.pop()
    return mean, tuple(dist)


@lru_cache(maxsize=None)
def first_off(counts) -> tuple[Fraction, tuple[Fraction, ...]]:
    """Exact (mean, distribution) of the turns to the first checker off, minimising the mean."""
    mean, dist = Fraction(1), [Fraction(0)] * 16
    for roll in ROLLS:
        plays = reference_plays(counts, roll, "short")
        if any(sum(c) < sum(counts) for c in plays):
            dist[1] += WEIGHT[roll]
            continue
        best = min(plays, key=lambda c: (first_off(c)[0], index_of(c)))
        m, d = first_off(best)
        mean += WEIGHT[roll] * m
        for k, p in enumerate(d):
            dist[k + 1] += WEIGHT[roll] * p
    while dist[-1] == 0:
        dist.pop()
    return mean, tuple(dist)


def test_the_index_is_the_documented_bijection(table):
    indices = [index_of(c) for c in homes(15)]
    assert sorted(indices) == list(range(race.STATES))
    for counts in [(0,) * 6, (1, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 15), (3, 2, 0, 4, 1, 5)]:
        assert race.BearoffTable.index(counts) == index_of(counts)
        assert race.BearoffTable.counts(index_of(counts)) == counts


def test_table_against_brute_force_expectimax_up_to_four_checkers(table):
    for counts in homes(4):
        mean, dist = expectimax(counts)
        s = index_of(counts)
        assert table.mean[s] == pytest.approx(float(mean), abs=1e-12), counts
        np.testing.assert_allclose(table.turns[s, :len(dist)], [float(p) for p in dist], atol=1e-12)
        assert not table.turns[s, len(dist):].any()
        if sum(counts):
            f_mean, f_dist = first_off(counts)
            assert table.first_mean[s] == pytest.approx(float(f_mean), abs=1e-12), counts
            np.testing.assert_allclose(table.first[s, :len(f_dist)], [float(p) for p in f_dist], atol=1e-12)


def test_long_nardy_moves_give_the_same_small_tables():
    for counts in homes(3):
        assert expectimax(counts, "long") == expectimax(counts, "short")


def test_the_same_table_under_long_and_short_rules(table):
    built = _bearoff.build(engine.core_rules(Rules("long")))
    for mine, theirs in zip(built, (table.turns, table.mean, table.first, table.first_mean)):
        assert np.array_equal(mine, theirs)


def test_known_values(table):
    one = index_of((1, 0, 0, 0, 0, 0))
    assert table.mean[one] == 1 and table.turns[one].tolist()[:2] == [0, 1]
    assert table.mean[index_of((2, 0, 0, 0, 0, 0))] == 1  # two on the 1-point: one turn
    assert table.mean[index_of((0, 0, 0, 0, 0, 1))] == pytest.approx(1.25)  # 1-1, 2-1, 3-1, 4-1, 3-2 miss
    assert table.mean[index_of((0, 0, 0, 1, 0, 0))] == pytest.approx(1 + 2 / 36)  # only 2-1 misses
    assert table.mean[index_of((4, 0, 0, 0, 0, 0))] == pytest.approx(2 - 6 / 36)  # doubles: one turn
    assert table.mean[0] == 0 and table.turns[0, 0] == 1


def test_every_distribution_is_complete_and_matches_its_mean(table):
    k = np.arange(table.turns.shape[1])
    np.testing.assert_allclose(table.turns.sum(axis=1), 1, atol=1e-12)
    np.testing.assert_allclose(table.first.sum(axis=1), 1, atol=1e-12)
    np.testing.assert_allclose((table.turns * k).sum(axis=1), table.mean, atol=1e-10)
    assert table.turns[:, -1].any()  # the support is the true one: the last column is reached
    assert table.mean.max() == table.mean[index_of((0, 0, 0, 0, 0, 15))]


# race odds --------------------------------------------------------------------------------------
def position(variant, mine, theirs) -> Position:
    return Position.from_points(variant, white=dict(enumerate(mine, 1)), black=dict(enumerate(theirs, 1)),
                                own_numbers=True)


def best_index(table, counts, roll, first=False):
    plays = reference_plays(counts, roll, "short")
    if first and any(sum(c) < sum(counts) for c in plays):
        return None
    values = table.first_mean if first else table.mean
    return min(plays, key=lambda c: (values[index_of(c)], index_of(c)))


def enumerate_race(table, mine, theirs):
    """P(win), P(win gammon), P(lose gammon) for the side on roll by walking every roll of both
    sides; the side that can be gammoned races to its first checker off."""
    @lru_cache(maxsize=None)
    def win(a, b):  # a on roll
        total = 0.0
        for roll in ROLLS:
            after = best_index(table, a, roll)
            total += float(WEIGHT[roll]) * (1.0 if sum(after) == 0 else 1.0 - win(b, after))
        return total

    @lru_cache(maxsize=None)
    def gammon(a, b, a_on_roll):  # a (racing to finish) before b (15 checkers, racing to a first off)
        total = 0.0
        for roll in ROLLS:
            if a_on_roll:
                after = best_index(table, a, roll)
                total += float(WEIGHT[roll]) * (1.0 if sum(after) == 0 else gammon(after, b, False))
            else:
                after = best_index(table, b, roll, first=True)
                total += float(WEIGHT[roll]) * (0.0 if after is None else gammon(a, after, True))
        return total

    win_gammon = gammon(mine, theirs, True) if sum(theirs) == 15 else 0.0
    lose_gammon = gammon(theirs, mine, False) if sum(mine) == 15 else 0.0
    return win(mine, theirs), win_gammon, lose_gammon


@pytest.mark.parametrize("variant", ["short", "long"])
@pytest.mark.parametrize("mine, theirs", [
    ((1, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 1)),
    ((0, 0, 0, 0, 1, 1), (1, 1, 0, 0, 0, 0)),
    ((0, 1, 0, 1, 0, 1), (0, 0, 2, 0, 1, 0)),
    ((0, 0, 0, 0, 0, 2), (3, 0, 0, 0, 0, 0)),
    ((0, 0, 0, 0, 1, 0), (0, 0, 0, 5, 5, 5)),   # a gammon to win
    ((0, 0, 0, 2, 5, 8), (0, 0, 0, 1, 1, 0)),   # a gammon to lose
])
def test_race_odds_against_exhaustive_enumeration(table, variant, mine, theirs):
    odds = race.race_odds(position(variant, mine, theirs))
    assert odds.exact and odds.method.startswith("exact")
    expected = enumerate_race(table, mine, theirs)
    assert (odds.win, odds.win_gammon, odds.lose_gammon) == pytest.approx(expected, abs=1e-12)


def test_batch_probabilities_match_race_odds_in_both_variants(table):
    rng = np.random.default_rng(4)
    for variant in ("short", "long"):
        positions = []
        for _ in range(40):
            homes_ = [rng.multinomial(int(rng.integers(1, 16)), [1 / 6] * 6) for _ in range(2)]
            positions.append(position(variant, *(tuple(int(n) for n in h) for h in homes_)))
        views = np.array([p.view() for p in positions], np.int8)
        found = race.race_probabilities(views, variant)
        for p, row in zip(positions, found):
            odds = race.race_odds(p)
            assert row.tolist() == pytest.approx([odds.win, odds.win_gammon, odds.lose_gammon], abs=1e-12)
        states = race.indices(views)
        assert np.array_equal(race.expected_turns(views), table.mean[states])
        assert np.array_equal(race.turn_distribution(views), table.turns[states])


def test_black_on_roll_is_the_same_race(table):
    white = position("long", (0, 2, 0, 1, 0, 3), (1, 1, 1, 1, 0, 0))
    black = Position.from_points("long", white={p: n for p, n in enumerate((1, 1, 1, 1, 0, 0), 1) if n},
                                 black={p: n for p, n in enumerate((0, 2, 0, 1, 0, 3), 1) if n},
                                 own_numbers=True, turn="black")
    assert race.race_odds(white) == race.race_odds(black)


@pytest.mark.slow
def test_one_sided_rollouts_agree_with_the_table(table):
    """Half a million random-dice bear-offs per state with the table's own play, in the core."""
    from nardy import _simulate

    states = [(0, 0, 0, 0, 0, 15), (2, 0, 3, 1, 0, 4)]
    views = np.array([board_with(c) for c in states], np.int8)
    found = _simulate.race_turns(views, 500_000, np.random.PCG64(9), engine.core_rules(Rules("short")), table.mean)
    for counts, (mean, variance, first, first_variance) in zip(states, found):
        s = index_of(counts)
        assert abs(mean - table.mean[s]) < 4 * sqrt(table.variance[s] / 500_000)
        assert variance == pytest.approx(table.variance[s], rel=0.02)


@pytest.mark.parametrize("variant, mine, theirs", [
    ("short", (0, 0, 1, 2, 0, 1), (0, 0, 0, 3, 6, 6)),
    ("long", (1, 1, 1, 0, 2, 2), (0, 2, 0, 2, 1, 1)),
])
@pytest.mark.slow
def test_simulated_races_agree_with_the_exact_odds(variant, mine, theirs):
    """Two million random-dice races with the table's play, against the exact odds."""
    games = 2_000_000
    p = position(variant, mine, theirs)
    odds = race.race_odds(p)
    sim = simulate(variant, games, seed=3, policy="bearoff", start=p, chunk_size=100_000)
    won = sim.winner == int(p.turn)
    for exact, observed in [(odds.win, won.mean()), (odds.win_gammon, (won & (sim.kind >= 2)).mean()),
                            (odds.lose_gammon, (~won & (sim.kind >= 2)).mean())]:
        error = sqrt(max(exact * (1 - exact), 1e-9) / games)
        assert abs(observed - exact) < 4 * error + 1e-9, (exact, observed)


def test_approximate_odds_outside_the_table():
    p = Position.from_points("long", white={12: 5, 5: 4, 4: 3, 3: 3}, black={6: 3, 5: 2, 4: 2, 2: 3, 1: 5},
                             own_numbers=True)
    odds = race.race_odds(p)
    assert not odds.exact and "approximate" in odds.method
    assert odds.expected_turns[1] == pytest.approx(race.expected_turns(
        np.array([p.pass_turn().view()], np.int8))[0])  # the side inside the table stays exact
    sim = simulate("long", 20_000, seed=1, policy="bearoff", start=p)
    assert abs(odds.win - (sim.winner == 0).mean()) < 0.03


def test_approximation_tracks_the_exact_odds_inside_the_table(table):
    """The normal model with the exact moments, against the exact convolution."""
    errors = []
    for mine, theirs in [((0, 0, 0, 5, 5, 5), (0, 0, 4, 4, 4, 3)), ((3, 3, 3, 2, 2, 2), (0, 1, 2, 3, 4, 5))]:
        a, b = index_of(mine), index_of(theirs)
        exact = race.race_odds(position("short", mine, theirs)).win
        approx = race._combine(race._normal(table.mean[a], table.variance[a]), table.first[a],
                               race._normal(table.mean[b], table.variance[b]), table.first[b], False, False)[0]
        errors.append(abs(exact - approx))
    assert max(errors) < 0.02


# best plays -------------------------------------------------------------------------------------
def test_best_plays_minimise_the_expected_turns(table):
    rng = np.random.default_rng(5)
    for _ in range(60):
        mine = tuple(int(n) for n in rng.multinomial(int(rng.integers(1, 16)), [1 / 6] * 6))
        p = position("short", mine, (0, 0, 0, 0, 0, 15))
        roll = ROLLS[int(rng.integers(21))]
        plays = race.best_plays(p, roll)
        means = [table.mean[index_of(p.apply(m).pass_turn().view()[1:7])] for m in plays]
        everything = [table.mean[index_of(child.pass_turn().view()[1:7])] for child in p.children(roll)]
        assert max(means) - min(everything) <= 1e-9
        board = np.array([c.pass_turn().view() for c in p.children(roll)], np.int8)
        chosen = board[_bearoff.best_play(board, table.mean)]
        assert tuple(chosen[1:7]) == tuple(p.apply(plays[0]).pass_turn().view()[1:7])


def test_best_plays_lists_ties():
    p = position("short", (0, 0, 0, 1, 0, 1), (0, 0, 0, 0, 0, 15))
    plays = race.best_plays(p, (6, 4))
    assert [str(m) for m in plays] == ["6/off 4/off"]
    p = position("short", (1, 1, 0, 0, 0, 0), (0, 0, 0, 0, 0, 15))
    assert [str(m) for m in race.best_plays(p, (6, 5))] == ["2/off 1/off"]
    p = position("short", (0, 0, 2, 0, 0, 0), (0, 0, 0, 0, 0, 15))  # 1-1: 3/2(2) and 3/1 ... all leave one turn
    plays = race.best_plays(p, (1, 1))
    assert len(plays) >= 2


# the cache --------------------------------------------------------------------------------------
@pytest.fixture
def cache_file(tmp_path, table):
    path = tmp_path / race.FILE_NAME
    race.write(path, table)
    return path


def test_a_written_table_reads_back_as_cached(cache_file, table):
    loaded = race.load(cache_file)
    assert loaded.source == "cache" and np.array_equal(loaded.turns, table.turns)
    assert race.load(cache_file) is loaded  # reused while the file is unchanged


@pytest.mark.parametrize("damage, reason", [
    (lambda data: data[:100] + bytes([data[100] ^ 1]) + data[101:], "checksum"),
    (lambda data: data[:-8], "truncated"),
    (lambda data: data[:10], "truncated"),
    (lambda data: data[:8] + (99).to_bytes(4, "little") + data[12:], "format version 99"),
    (lambda data: b"NOTNARDY" + data[8:], "magic"),
    (lambda data: data[:16] + _columns(data, -1, +1) + data[24:], "checksum"),  # 31/11 read as 30/12
])
@pytest.mark.slow
def test_a_damaged_or_outdated_file_is_rebuilt_and_replaced(cache_file, table, damage, reason):
    cache_file.write_bytes(damage(cache_file.read_bytes()))
    with pytest.raises(Exception, match=reason):
        race.read(cache_file)
    rebuilt = race.load(cache_file)
    assert rebuilt.source == "built" and reason in rebuilt.reason
    assert np.array_equal(rebuilt.turns, table.turns)
    assert race.read(cache_file).source == "cache"  # the file was replaced by a good one
    assert [p.name for p in cache_file.parent.iterdir()] == [race.FILE_NAME]  # no temporary left


def _columns(data: bytes, turns: int, first: int) -> bytes:
    """The header's two column counts (bytes 16..24) changed by `turns` and `first`."""
    k_turns, k_first = int.from_bytes(data[16:20], "little"), int.from_bytes(data[20:24], "little")
    return (k_turns + turns).to_bytes(4, "little") + (k_first + first).to_bytes(4, "little")


@pytest.mark.slow
def test_a_missing_file_is_built_and_an_unwritable_place_gives_a_table_kept_for_the_process(tmp_path, monkeypatch):
    assert race.load(tmp_path / "new" / race.FILE_NAME).reason == "no cache file"
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.warns(RuntimeWarning, match="could not be cached .* kept in memory"):
        table = race.load(blocker / race.FILE_NAME)
    assert table.source == "built" and "not cached" in table.reason
    monkeypatch.setattr(race, "build", lambda: pytest.fail("the table was built again"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # warned once only
        assert race.load(blocker / race.FILE_NAME) is table


def _read_within(path, seconds: float = 20.0):
    """race.read(path) in a daemon thread: what it returned or raised, failing if it hangs."""
    found = []

    def run():
        try:
            found.append(race.read(path))
        except BaseException as exc:
            found.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    assert found, f"race.read({path}) hung"
    return found[0]


def test_a_fifo_or_a_device_named_like_the_cache_is_refused_at_once_and_replaced(tmp_path):
    fifo = tmp_path / "fifo" / race.FILE_NAME
    fifo.parent.mkdir()
    os.mkfifo(fifo)
    assert "not a regular file" in str(_read_within(fifo))
    rebuilt = race.load(fifo)
    assert rebuilt.source == "built" and "not a regular file" in rebuilt.reason
    assert race.read(fifo).source == "cache"  # a regular file took its place
    zero = tmp_path / "zero" / race.FILE_NAME
    zero.parent.mkdir()
    zero.symlink_to("/dev/zero")
    assert "not a regular file" in str(_read_within(zero))


def test_a_file_larger_than_any_table_is_not_read(tmp_path):
    huge = tmp_path / race.FILE_NAME
    with open(huge, "wb") as f:
        f.truncate(race.MAX_FILE_BYTES + 1)  # sparse: no disk used
    with pytest.raises(Exception, match=f"more than a bear-off table's {race.MAX_FILE_BYTES}"):
        race.read(huge)


def test_a_full_disk_leaves_no_file_behind(tmp_path, monkeypatch, table):
    real_fdopen = os.fdopen

    class FullDisk:
        def __init__(self, f):
            self.f = f

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

        def write(self, data):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(race.os, "fdopen", lambda fd, mode="r": FullDisk(real_fdopen(fd, mode)))
    path = tmp_path / "cache" / race.FILE_NAME
    with pytest.raises(OSError, match="No space left"):
        race.write(path, table)
    assert list(path.parent.iterdir()) == []
    with pytest.warns(RuntimeWarning, match="No space left"):
        assert race.load(path).source == "built"
    assert list(path.parent.iterdir()) == []


def test_cache_path_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("NARDY_CACHE_DIR", str(tmp_path))
    assert race.cache_path() == tmp_path / race.FILE_NAME
    monkeypatch.delenv("NARDY_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert race.cache_path() == tmp_path / "xdg" / "nardy" / race.FILE_NAME
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert race.cache_path() == tmp_path / "home" / ".cache" / "nardy" / race.FILE_NAME


# bad input --------------------------------------------------------------------------------------
def test_bad_input_is_rejected_with_clear_errors(table):
    views = np.zeros((3, 26), np.int8)
    views[:, 1] = 2
    views[2, 7] = 1
    with pytest.raises(InvalidPositionError, match="row 2: the mover has a checker outside its home"):
        race.expected_turns(views)
    views[2, 7], views[2, 1:7] = 0, 3
    with pytest.raises(InvalidPositionError, match="row 2: the mover has more than 15"):
        race.expected_turns(views)
    with pytest.raises(InvalidPositionError, match="shape"):
        race.expected_turns(np.zeros((2, 25), np.int8))
    with pytest.raises(InvalidPositionError, match="row 0: the opponent has a checker outside"):
        race.race_probabilities(np.array([board_with((1, 0, 0, 0, 0, 0))]), "short")
    with pytest.raises(InvalidArgumentError, match="side"):
        race.indices(views[:1], side="both")
    with pytest.raises(InvalidPositionError, match="six whole numbers"):
        race.BearoffTable.index((1, 2, 3))
    with pytest.raises(InvalidPositionError, match="at most 15"):
        race.BearoffTable.index((5, 5, 5, 1, 0, 0))
    with pytest.raises(InvalidArgumentError, match="0..54263"):
        race.BearoffTable.counts(race.STATES)
    start = Position.start("short")
    with pytest.raises(InvalidPositionError, match="not a race"):
        race.race_odds(start)
    with pytest.raises(InvalidPositionError, match="outside its home"):
        race.best_plays(start, (6, 5))
    with pytest.raises(InvalidDiceError):
        race.best_plays(position("short", (1, 0, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0)), (7, 1))
    over = Position([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0], "short")
    with pytest.raises(GameOverError):
        race.race_odds(over)
    with pytest.raises(InvalidArgumentError, match="Position"):
        race.race_odds("0,1,2")


def test_race_positions_in_both_variants():
    assert race.is_race(position("short", (15, 0, 0, 0, 0, 0), (15, 0, 0, 0, 0, 0)))
    long_race = Position.from_points("long", white={12: 3, 1: 12}, black={12: 3, 1: 12}, own_numbers=True)
    assert race.is_race(long_race) and race.home_counts(long_race) == (None, None)
    contact = Position.from_points("long", white={13: 3, 1: 12}, black={2: 15}, own_numbers=True)
    assert not race.is_race(contact)
    assert race.home_counts(position("long", (1, 2, 3, 0, 0, 0), (0, 0, 0, 0, 0, 4))) == (
        (1, 2, 3, 0, 0, 0), (0, 0, 0, 0, 0, 4))


# the command line -------------------------------------------------------------------------------
def test_cli_race_prints_the_odds():
    out = io.StringIO()
    view = ",".join(map(str, position("short", (0, 0, 0, 0, 1, 1), (1, 1, 0, 0, 0, 0)).view()))
    assert main(["race", "short", view], out) == 0
    text = out.getvalue()
    odds = race.race_odds(position("short", (0, 0, 0, 0, 1, 1), (1, 1, 0, 0, 0, 0)))
    assert f"{100 * odds.win:.3f}%" in text and "exact" in text and "expected turns" in text
    assert "wins a gammon" in text
    out = io.StringIO()
    assert main(["race", "long", ",".join(map(str, Position.start("long").view()))], out) == 2


def test_someone_elses_file_is_never_replaced_by_a_table(tmp_path, table):
    """race.load('/etc/hostname') replaced the file with a 19 MB table (session 9's finding)."""
    notes = tmp_path / "notes.txt"
    for text in ("my notes\n", "my notes\n" * 20):  # shorter and longer than a table's header
        notes.write_text(text)
        with pytest.raises(InvalidArgumentError, match="is not a nardy bear-off table .* it is not replaced"):
            race.load(notes)
        assert notes.read_text() == text
    with pytest.raises(InvalidNotationError, match="bad magic"):  # a nardy error, not a private one
        race.read(notes)
    damaged = tmp_path / "old-table.bin"  # a nardy table, damaged: replaced whatever its name
    race.write(damaged, table)
    damaged.write_bytes(damaged.read_bytes()[:-8])
    assert race.load(damaged).source == "built" and race.read(damaged).source == "cache"
    for bad in (None, 5):
        with pytest.raises(InvalidArgumentError, match="path"):
            race.read(bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="path"):
        race.load(5)  # type: ignore[arg-type]


def test_the_race_functions_name_an_argument_that_is_not_a_position_or_a_table(tmp_path):
    for call in (lambda: race.effective_pips("x"), lambda: race.home_counts(5), lambda: race.is_race(5)):
        with pytest.raises(InvalidArgumentError, match="a race is judged on a Position"):
            call()
    with pytest.raises(InvalidPositionError, match="home counts are six whole numbers"):
        race.BearoffTable.index(None)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="writes a BearoffTable"):
        race.write(tmp_path / race.FILE_NAME, "x")  # type: ignore[arg-type]
    assert not (tmp_path / race.FILE_NAME).exists()
