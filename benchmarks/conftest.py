"""Benchmark fixtures: the committed self-play corpora (see make_corpus.py), tiled with all 21 rolls."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from nardy import reference

DATA = Path(__file__).parent / "data"
ROLLS = np.array(reference.ROLLS, np.int8)


class Corpus:
    """One variant's corpus: 1000 contact and 1000 race positions, and the reference's result counts."""

    def __init__(self, variant: str) -> None:
        text = (DATA / f"{variant}.txt").read_text()
        counts = re.search(r"results contact (\d+) race (\d+)", text)
        assert counts, f"{variant}.txt has no result counts in its header"
        self.results = {"contact": int(counts[1]), "race": int(counts[2])}
        boards = np.array([list(map(int, line.split(","))) for line in text.splitlines() if not line.startswith("#")], np.int8)
        self.boards = {"contact": boards[:1000], "race": boards[1000:]}

    def with_rolls(self, kind: str, positions: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(views, rolls): every position of `kind` (or its first `positions`) with each of the 21 rolls."""
        boards = self.boards[kind][:positions]
        views = np.repeat(boards, len(ROLLS), axis=0)
        rolls = np.tile(ROLLS, (len(boards), 1))
        return views, rolls


@pytest.fixture(scope="session")
def corpus() -> dict[str, Corpus]:
    return {"long": Corpus("long"), "short": Corpus("short")}


def per_item(benchmark, items: int, **extra: float) -> None:
    """Record throughput figures beside the timing (nothing when timing is disabled)."""
    benchmark.extra_info["items"] = items
    benchmark.extra_info.update(extra)
    stats = getattr(benchmark, "stats", None)
    if stats is not None and getattr(stats, "stats", None) is not None:
        benchmark.extra_info["ns_per_item_min"] = stats.stats.min / items * 1e9


# batch API vs bare kernel: the minimum CPU time of each form per group, filled by the benchmarks
# of test_movegen.py and printed as ratios at the end of the run (so they come from one run)
FORMS: dict[str, dict[str, tuple[float, int]]] = {}


def record_form(benchmark, form: str, results: int) -> None:
    stats = getattr(benchmark, "stats", None)
    if stats is not None and getattr(stats, "stats", None) is not None:
        FORMS.setdefault(benchmark.group, {})[form] = (stats.stats.min, results)


# batch API over bare kernel, timed in pairs: per group (the pairs' ratio, its interval, pairs,
# the kernel's median ns per result), filled by test_batch_over_kernel_paired
PAIRS: dict[str, tuple[float, float, float, int, float]] = {}


def record_pairs(benchmark, pairs: list[tuple[int, int]], results: int) -> None:
    """Keep the (kernel, batch) CPU times of each pair; nothing when timing is disabled."""
    if getattr(benchmark, "disabled", False) or len(pairs) < 2:
        return
    from benchmarks.compare import ratio_interval  # the A/B tool's estimate and interval

    kernel, batch = zip(*pairs)
    estimate, low, high = ratio_interval(kernel, batch)
    kernel_ns = float(np.median(kernel)) / max(results, 1)
    PAIRS[benchmark.group] = (estimate, low, high, len(pairs), kernel_ns)
    benchmark.extra_info.update(ratio=estimate, ratio_low=low, ratio_high=high, kernel_ns_per_result=kernel_ns)


# one-call APIs: the minimum CPU time per call of each form per group, filled by test_objects.py and
# printed with each form's ratio to the group's "kernel-entry" (the private generator, bytes out)
CALLS: dict[str, dict[str, float]] = {}


def record_call(benchmark, form: str, calls: int) -> None:
    stats = getattr(benchmark, "stats", None)
    if stats is not None and getattr(stats, "stats", None) is not None:
        CALLS.setdefault(benchmark.group, {})[form] = stats.stats.min / calls
        benchmark.extra_info["us_per_call_min"] = stats.stats.min / calls * 1e6


def pytest_terminal_summary(terminalreporter) -> None:
    if CALLS:
        terminalreporter.section("one call at a time: minimum CPU time per call, this run")
        for group, forms in sorted(CALLS.items()):
            base = forms.get("kernel-entry")
            parts = [f"{form} {seconds * 1e6:.2f} us" + (f" ({seconds / base:.2f}x)" if base and form != "kernel-entry" else "")
                     for form, seconds in sorted(forms.items(), key=lambda item: item[1])]
            terminalreporter.write_line(f"{group}: " + "; ".join(parts))
    if PAIRS:
        terminalreporter.section("batch.generate(out=Workspace) over the bare kernel, timed in pairs")
        for group, (estimate, low, high, n, kernel_ns) in sorted(PAIRS.items()):
            terminalreporter.write_line(f"{group}: {estimate:.3f}x [{low:.3f}, {high:.3f}] over {n} pairs; "
                                        f"kernel {kernel_ns:.2f} ns/result (median)")
    if not FORMS:
        return
    terminalreporter.section("batch.generate vs the bare kernel (minimum times, this run)")
    for group, forms in sorted(FORMS.items()):
        kernel = forms.get("kernel")
        parts = []
        for form, (seconds, results) in sorted(forms.items()):
            ratio = f" {seconds / kernel[0]:.3f}x" if kernel and form != "kernel" else ""
            parts.append(f"{form} {seconds / max(results, 1) * 1e9:.2f} ns/result{ratio}")
        terminalreporter.write_line(f"{group}: " + "; ".join(parts))
