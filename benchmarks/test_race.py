"""The bear-off table: build time, load time from the cache, and batch lookups per position."""

from __future__ import annotations

import numpy as np
import pytest

from nardy import Rules
from nardy import _backend as engine
from nardy.evaluation import bearoff as race
from nardy import _bearoff
from conftest import per_item

MILLION = 1_000_000


@pytest.fixture(scope="module")
def table_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("bearoff") / race.FILE_NAME
    race.write(path, race.build())
    return path


@pytest.fixture(scope="module")
def home_boards():
    """A million mover's-view boards, both sides all home (short nardy), random home states."""
    rng = np.random.default_rng(1)
    views = np.zeros((MILLION, 26), np.int8)
    views[:, 1:7] = rng.multinomial(15, [1 / 6] * 6, size=MILLION)
    views[:, 19:25] = -rng.multinomial(15, [1 / 6] * 6, size=MILLION)[:, ::-1]
    return views


def test_build(benchmark):
    benchmark.group = "bearoff-build"
    turns, mean, first, first_mean = benchmark.pedantic(
        _bearoff.build, args=(engine.core_rules(Rules("short")),), rounds=3, iterations=1)
    assert turns.shape == (race.STATES, 31) and mean[-1] == pytest.approx(12.266187, abs=1e-6)
    per_item(benchmark, race.STATES)


def test_load(benchmark, table_file):
    benchmark.group = "bearoff-load"
    table = benchmark(race.read, table_file)  # read, check the sha256, wrap as arrays
    assert table.source == "cache" and table.turns.shape == (race.STATES, 31)
    per_item(benchmark, 1)


def test_expected_turns_batch(benchmark, home_boards, table_file, monkeypatch):
    benchmark.group = "bearoff-lookup"
    monkeypatch.setenv("NARDY_CACHE_DIR", str(table_file.parent))
    table = race.load()
    turns = benchmark(race.expected_turns, home_boards)
    sample = home_boards[::9973]
    assert turns[::9973].tolist() == [table.mean[race.BearoffTable.index(b[1:7].tolist())] for b in sample]
    per_item(benchmark, len(home_boards))


def test_race_probabilities_batch(benchmark, home_boards, table_file, monkeypatch):
    benchmark.group = "bearoff-lookup"
    monkeypatch.setenv("NARDY_CACHE_DIR", str(table_file.parent))
    views = home_boards[:100_000]
    odds = benchmark(race.race_probabilities, views, "short")
    assert np.all((odds >= 0) & (odds <= 1))
    per_item(benchmark, len(views))
