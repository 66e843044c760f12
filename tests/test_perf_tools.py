"""The performance tools' logic (benchmarks/counts.py, compare.py, history.py), without valgrind.

The valgrind run itself is CI's `python -m benchmarks.counts check` step; here the measurement
is replaced by fixed figures so that every decision, table and message is checked in seconds.
"""

from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from benchmarks import compare, counts, history
from benchmarks.toolkit import ToolError, resolve


# ---------------------------------------------------------------- compare: the bootstrap decision

def test_identical_times_give_ratio_one_and_an_interval_around_it():
    a = [1.00, 1.02, 0.99, 1.01, 1.00, 0.98]
    ratio, low, high = compare.ratio_interval(a, a)
    assert ratio == pytest.approx(1.0) and low == pytest.approx(1.0) and high == pytest.approx(1.0)
    assert compare.verdict(low, high, 0.05) == "same"


def test_the_ratio_is_the_hodges_lehmann_estimate_of_the_paired_rounds():
    # log ratios 0, log 1.1, log 1.2: Walsh averages are the three and their three pairwise means
    ratio, low, high = compare.ratio_interval([1.0, 2.0, 4.0], [1.0, 2.2, 4.8])
    logs = [0.0, math.log(1.1), math.log(1.2)]
    walsh = sorted(logs + [(x + y) / 2 for k, x in enumerate(logs) for y in logs[k + 1:]])
    assert ratio == pytest.approx(math.exp((walsh[2] + walsh[3]) / 2))
    assert (low, high) == (pytest.approx(1.0), pytest.approx(1.2))  # 3 rounds: the whole range


def test_one_slowed_round_moves_the_estimate_little():
    a = [1.0] * 10
    b = [1.05] * 9 + [3.0]  # one round in which B's whole run was slowed
    ratio, low, high = compare.ratio_interval(a, b)
    assert ratio == pytest.approx(1.05) and low == pytest.approx(1.05)


@pytest.mark.parametrize("n, k", [(5, 1), (6, 1), (8, 4), (10, 9), (20, 53)])
def test_the_interval_ranks_are_wilcoxon_s_critical_values(n, k):
    assert compare.signed_rank_rank(n, 0.95) == k  # standard tables: n=8 T=3, n=10 T=8, n=20 T=52


@pytest.mark.parametrize("low, high, expected", [
    (1.051, 1.2, "SLOWER"), (1.049, 1.08, "same"), (0.95, 1.09, "same"), (0.80, 0.95, "FASTER"), (0.92, 0.96, "same"),
    (1.049, 1.2, "unclear"), (0.85, 1.01, "same"), (0.97, 1.101, "unclear"),
])
def test_a_verdict_needs_the_whole_interval_beyond_the_threshold(low, high, expected):
    assert compare.verdict(low, high, 0.05, 0.10) == expected


@pytest.mark.parametrize("low, high, expected", [(0.93, 1.07, "unclear"), (0.97, 1.049, "same"), (1.031, 1.2, "SLOWER")])
def test_by_default_same_rules_out_a_five_percent_slowdown(low, high, expected):
    """So a 10% slowdown cannot end early as "same" with an interval such as [0.93, 1.07]."""
    assert compare.RESOLUTION == 0.05 and compare.verdict(low, high, compare.THRESHOLD) == expected


def test_drift_shared_by_a_pair_cancels():
    """Load that slows both runs of a round (paired) moves neither the ratio nor the verdict."""
    load = np.array([1.0, 1.6, 1.1, 2.0, 1.3, 1.0, 1.8, 1.2])
    ratio, low, high = compare.ratio_interval(load * 1.0, load * 1.10)
    assert ratio == pytest.approx(1.10) and compare.verdict(low, high, 0.05) == "SLOWER"


@pytest.mark.parametrize("slowdown, wanted", [(1.0, "same"), (1.10, "SLOWER")])
def test_false_alarm_and_detection_rates_on_synthetic_noise(slowdown, wanted):
    """3% noise per run, rounds as the tool runs them (8, then one more while any verdict is
    unclear, at most 40), the default threshold and resolution: >= 19 of 20 decided right and
    none decided wrong."""
    rng = np.random.default_rng(7)
    found: dict[str, int] = {}
    for _ in range(200):
        a = list(np.exp(rng.normal(0, 0.03, compare.ROUNDS)))
        b = list(slowdown * np.exp(rng.normal(0, 0.03, compare.ROUNDS)))
        while (said := compare.verdict(*compare.ratio_interval(a, b)[1:], compare.THRESHOLD)) == "unclear" \
                and len(a) < compare.MAX_ROUNDS:
            a.append(float(np.exp(rng.normal(0, 0.03))))
            b.append(float(slowdown * np.exp(rng.normal(0, 0.03))))
        found[said] = found.get(said, 0) + 1
    assert found.get(wanted, 0) >= 190 and found.get(wanted, 0) + found.get("unclear", 0) == 200, found


def test_rounds_go_on_while_a_verdict_is_unclear_and_stop_at_the_most(monkeypatch):
    rng = np.random.default_rng(3)
    noise = {"A": 0.0, "B": 0.0}

    def fake_run(site, selection, label, max_time):
        return {"bench": float(np.exp(rng.normal(0, noise[label])))}

    monkeypatch.setattr(compare, "run_once", fake_run)

    def settled(times):
        return all(r.verdict != "unclear" for r in compare.compare(*times.values()))

    quiet = compare.interleaved({"A": Path("a"), "B": Path("b")}, [], 4, 0.1, max_rounds=40, settled=settled)
    assert len(quiet["A"]["bench"]) == 4  # identical times: "same" after the first rounds
    noise.update(A=0.3, B=0.3)
    noisy = compare.interleaved({"A": Path("a"), "B": Path("b")}, [], 4, 0.1, max_rounds=12, settled=settled)
    assert len(noisy["A"]["bench"]) == len(noisy["B"]["bench"]) == 12


def test_too_few_rounds_or_bad_times_are_refused():
    with pytest.raises(ToolError, match="at least two paired rounds"):
        compare.ratio_interval([1.0], [1.0])
    with pytest.raises(ToolError, match="positive"):
        compare.ratio_interval([1.0, 0.0], [1.0, 1.0])


def test_the_comparison_table_names_each_benchmark_and_its_verdict():
    a = {"pips": [1e-3] * 4, "perft": [2e-3] * 4, "only-in-a": [1e-3] * 4}
    b = {"pips": [1.2e-3] * 4, "perft": [2e-3] * 4}
    ratios = compare.compare(a, b)
    assert [(r.name, r.verdict) for r in ratios] == [("pips", "SLOWER"), ("perft", "same")]
    text = compare.table(ratios)
    assert "pips" in text and "1.200" in text and "[1.200, 1.200]" in text and "SLOWER" in text


def test_an_unknown_revision_is_one_line_and_exit_2(capsys):
    assert compare.main(["no-such-revision-xyz", "HEAD"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "unknown revision 'no-such-revision-xyz'" in err


def test_a_known_revision_resolves_to_its_commit():
    assert len(resolve("HEAD")) == 40


def test_bad_rounds_are_refused_before_building(capsys):
    assert compare.main(["HEAD", "HEAD", "--rounds", "1"]) == 2
    assert "--rounds must be at least 2" in capsys.readouterr().err


def write_benchmark(tmp_path: Path, body: str) -> str:
    path = tmp_path / "test_tiny.py"
    path.write_text(f"def test_tiny(benchmark):\n    {body}\n")
    return str(path)


def test_a_run_returns_each_benchmarks_fastest_time(tmp_path):
    times = compare.run_once(tmp_path, [write_benchmark(tmp_path, "assert benchmark(sum, range(100)) == 4950")],
                             "A (x)", 0.01)
    (name, t), = times.items()
    assert name.endswith("test_tiny") and 0 < t < 0.01


def test_a_failing_benchmark_is_one_line_naming_the_revision(tmp_path):
    selection = [write_benchmark(tmp_path, "assert benchmark(sum, range(3)) == 4, 'wrong total'")]
    with pytest.raises(ToolError, match=r"a benchmark failed on B \(main\): FAILED .*test_tiny.*wrong total"):
        compare.run_once(tmp_path, selection, "B (main)", 0.01)


def test_a_selection_matching_nothing_is_named(tmp_path):
    with pytest.raises(ToolError, match="no benchmark matched"):
        compare.run_once(tmp_path, [write_benchmark(tmp_path, "pass") + "::test_absent"], "A (x)", 0.01)


# ---------------------------------------------------------------- counts: the baseline comparison

def entry(ir: int, **units: int) -> dict:
    return {"units": units or {"row": 100}, "events": {"Ir": ir, "D1mr": 10, "D1mw": 5, "ILmr": 1, "DLmr": 2}}


@pytest.mark.parametrize("now, status", [(10_199, "ok"), (10_201, "SLOWER"), (9_801, "ok"), (9_799, "faster")])
def test_a_kernel_fails_only_when_it_grew_by_more_than_the_tolerance(now, status):
    (row,) = counts.judge({"pips": entry(10_000)}, {"pips": entry(now)}, 0.02)
    assert row.status == status and row.change == pytest.approx(now / 10_000 - 1)


def test_counts_are_per_unit_so_more_work_is_not_a_regression():
    (row,) = counts.judge({"k": entry(1000, result=10)}, {"k": entry(2000, result=20)})
    assert row.base == row.now == 100 and row.status == "ok"
    assert row.d1 == pytest.approx(15 / 20) and row.ll == pytest.approx(3 / 20)


def test_every_unit_of_a_kernel_is_a_row_and_new_or_missing_kernels_are_named():
    rows = counts.judge({"sim": entry(1000, game=10, ply=500), "gone": entry(5)}, {"sim": entry(1000, game=10, ply=500),
                                                                                  "added": entry(7)})
    assert [(r.kernel, r.unit, r.status) for r in rows] == [
        ("sim", "game", "ok"), ("sim", "ply", "ok"), ("added", "row", "new"), ("gone", "row", "missing")]


def test_the_counts_table_shows_baseline_now_and_change():
    text = counts.table(counts.judge({"pips": entry(1000)}, {"pips": entry(1100)}))
    header, _, line = text.splitlines()
    assert "baseline Ir" in header and "now Ir" in header and "change" in header
    assert line.split()[:6] == ["pips", "row", "10.0", "11.0", "+10.00%", "0.15"] and line.endswith("SLOWER")


def test_callgrind_totals_are_read_with_their_trailing_zeros(tmp_path):
    dump = tmp_path / "cg.out.3"
    dump.write_text("desc: Trigger: --dump-before=x\nevents: Ir Dr Dw I1mr\nfn=f\n1 2\nsummary: 7098 1798\ntotals: 7098 1798\n")
    assert counts.totals(dump) == {"Ir": 7098, "Dr": 1798, "Dw": 0, "I1mr": 0}
    (tmp_path / "junk").write_text("hello\n")
    with pytest.raises(ToolError, match="not a callgrind profile"):
        counts.totals(tmp_path / "junk")


ENV = {"compiler": "GCC: 12.2.0", "flags": "-O3", "python": "3.11.2", "numpy": "2.4", "cython": "3.3.1",
       "valgrind": "valgrind-3.19.0", "machine": "x86_64", "avx2": True}


@pytest.fixture
def measured(monkeypatch):
    """Replace the valgrind run by fixed figures; returns the dict to edit."""
    now = {"environment": dict(ENV), "kernels": {"pips": entry(1000), "perft": entry(500, leaf=50)}}
    monkeypatch.setattr(counts, "measure", lambda log=None: json.loads(json.dumps(now)))
    return now


def write_baseline(path: Path, kernels: dict, env: dict = ENV) -> Path:
    path.write_text(json.dumps({"commit": "abc", "environment": env, "kernels": kernels}))
    return path


def test_check_passes_on_the_same_counts_and_fails_on_a_regression(tmp_path, measured, capsys):
    baseline = write_baseline(tmp_path / "counts.json", {"pips": entry(1000), "perft": entry(500, leaf=50)})
    assert counts.main(["check", "--baseline", str(baseline)]) == 0
    assert "passed" in capsys.readouterr().out
    measured["kernels"]["perft"] = entry(530, leaf=50)  # +6%
    assert counts.main(["check", "--baseline", str(baseline)]) == 1
    out = capsys.readouterr().out
    assert "FAILED: 1 of 2 rows: perft per leaf (SLOWER)" in out and "benchmarks.counts update" in out


def test_check_passes_once_the_baseline_is_updated(tmp_path, measured, capsys):
    baseline = write_baseline(tmp_path / "counts.json", {"pips": entry(1000), "perft": entry(500, leaf=50)})
    measured["kernels"]["pips"] = entry(1500)
    assert counts.main(["check", "--baseline", str(baseline)]) == 1
    assert counts.main(["update", "--baseline", str(baseline)]) == 0
    assert json.loads(baseline.read_text())["kernels"]["pips"]["events"]["Ir"] == 1500
    assert counts.main(["check", "--baseline", str(baseline)]) == 0


def test_another_toolchain_is_said_and_not_called_a_regression(tmp_path, measured, capsys):
    other = dict(ENV, compiler="GCC: 13.1.0")
    baseline = write_baseline(tmp_path / "counts.json", {"pips": entry(900), "perft": entry(500, leaf=50)}, other)
    assert counts.main(["check", "--baseline", str(baseline)]) == 0
    out = capsys.readouterr().out
    assert "NOT COMPARED" in out and "compiler: baseline 'GCC: 13.1.0', now 'GCC: 12.2.0'" in out
    assert counts.main(["check", "--strict", "--baseline", str(baseline)]) == 1


def test_a_missing_or_broken_baseline_is_one_line_and_exit_2(tmp_path, capsys):
    assert counts.main(["check", "--baseline", str(tmp_path / "none.json")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "no baseline" in err and "benchmarks.counts update" in err
    (tmp_path / "bad.json").write_text("{not json")
    assert counts.main(["check", "--baseline", str(tmp_path / "bad.json")]) == 2
    assert "is not JSON" in capsys.readouterr().err


def test_missing_valgrind_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    baseline = write_baseline(tmp_path / "counts.json", {"pips": entry(1000)})
    monkeypatch.setattr(counts.shutil, "which", lambda name: None)
    assert counts.main(["check", "--baseline", str(baseline)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "valgrind is not installed" in err


def test_the_committed_baseline_covers_every_kernel_of_the_workload():
    from benchmarks import kernels

    baseline = counts.read_baseline(counts.BASELINE)
    assert list(baseline["kernels"]) == list(kernels.KERNELS)
    for name, kernel in kernels.KERNELS.items():
        assert tuple(baseline["kernels"][name]["units"]) == kernel.units
        assert baseline["kernels"][name]["events"]["Ir"] > 0
    assert {"compiler", "flags", "cython", "python", "numpy", "avx2"} <= set(baseline["environment"])


def test_every_measured_def_is_found_in_the_built_core():
    """The symbol lookup the valgrind run relies on, against this build."""
    from benchmarks import kernels

    for kernel in kernels.KERNELS.values():
        name = counts.symbol(kernel.module, kernel.function)
        assert name.startswith("__pyx_pw_5nardy_") and name.endswith(kernel.function.split(".")[-1])
    with pytest.raises(ToolError, match="cannot find the compiled def nardy._core.no_such_def"):
        counts.symbol("_core", "no_such_def")


# ---------------------------------------------------------------- history

def test_a_check_appends_its_figures_to_the_history(tmp_path, measured):
    baseline = write_baseline(tmp_path / "counts.json", {"pips": entry(1000), "perft": entry(500, leaf=50)})
    log = tmp_path / "perf" / "history.jsonl"
    assert counts.main(["check", "--baseline", str(baseline), "--history", str(log)]) == 0
    assert counts.main(["check", "--baseline", str(baseline), "--history", str(log)]) == 0
    first, second = history.read(log)
    assert first["kind"] == "counts" and first["counts"]["perft per leaf"]["Ir"] == 10.0
    assert {"commit", "date", "machine", "environment"} <= set(first) and len(second["commit"]) >= 40


def test_history_series_keep_one_point_per_commit_in_order():
    records = [{"kind": "counts", "commit": c, "counts": {"pips per row": {"Ir": v}}} for c, v in
               (("aaaa1111", 10.0), ("bbbb2222", 12.0), ("aaaa1111", 11.0))]
    records.append({"kind": "compare", "commit": "cccc", "ratios": {}})
    labels, kernels = history.series(records)
    assert labels == ["bbbb2222", "aaaa1111"] and kernels == {"pips per row": [12.0, 11.0]}


def test_the_plot_is_svg_with_a_line_per_kernel(tmp_path, capsys):
    log = tmp_path / "h.jsonl"
    for i, commit in enumerate(["1" * 40, "2" * 40, "3" * 40]):
        history.append(log, {"kind": "counts", "commit": commit,
                             "counts": {"pips per row": {"Ir": 10.0 + i}, "perft per leaf": {"Ir": 300.0}}})
    out = tmp_path / "h.svg"
    assert history.main(["plot", str(log), "-o", str(out)]) == 0
    assert "2 kernels over 3 commits" in capsys.readouterr().out
    root = ET.fromstring(out.read_text())
    lines = root.findall("{http://www.w3.org/2000/svg}polyline")
    assert len(lines) == 2 and all(len(line.get("points").split()) == 3 for line in lines)
    assert "1111111" in out.read_text() and "pips per row" in out.read_text()


def test_bad_history_files_are_one_line_and_exit_2(tmp_path, capsys):
    assert history.main(["plot", str(tmp_path / "absent.jsonl")]) == 2
    assert "no history file" in capsys.readouterr().err
    (tmp_path / "bad.jsonl").write_text('{"kind": "counts"}\nnot json\n')
    assert history.main(["plot", str(tmp_path / "bad.jsonl")]) == 2
    assert "bad.jsonl:2: not JSON" in capsys.readouterr().err
    (tmp_path / "empty.jsonl").write_text('{"kind": "compare"}\n')
    assert history.main(["plot", str(tmp_path / "empty.jsonl")]) == 2
    assert "holds no counts records" in capsys.readouterr().err


def test_a_closed_pipe_ends_a_tool_quietly(tmp_path):
    import subprocess
    import sys

    log = tmp_path / "h.jsonl"
    ratios = {f"benchmark-{k}": {"ratio": 1.0, "low": 1, "high": 1, "verdict": "same"} for k in range(3000)}
    history.append(log, {"kind": "compare", "rounds": 8, "ratios": ratios})  # 200 kB of output: more than a pipe holds
    done = subprocess.run(f"{sys.executable} -m benchmarks.history verdicts {log} | head -1", shell=True,
                          cwd=Path(__file__).parent.parent, capture_output=True, text=True)
    assert done.stdout.startswith("1 comparisons") and done.stderr == ""


def test_verdicts_count_the_comparisons_that_called_a_regression(tmp_path, capsys):
    log = tmp_path / "h.jsonl"
    for rounds, pips in ((8, "same"), (12, "SLOWER"), (9, "SLOWER")):
        history.append(log, {"kind": "compare", "rounds": rounds, "ratios": {
            "pips": {"ratio": 1.1 if pips == "SLOWER" else 1.0, "low": 1, "high": 1, "verdict": pips},
            "perft": {"ratio": 0.99, "low": 1, "high": 1, "verdict": "same"}}})
    assert history.main(["verdicts", str(log)]) == 0
    out = capsys.readouterr().out
    assert "3 comparisons (8-12 rounds, median 9); a regression (any benchmark SLOWER) in 2" in out
    assert "pips: SLOWER 2, FASTER 0, same 1, unclear 0 of 3; ratio 1.000..1.100" in out


def test_a_nan_time_is_an_error_not_an_unclear_verdict():
    """A NaN time gave ratio nan and the verdict "unclear"."""
    for a, b in (([1.0, math.nan, 1.0], [1.0, 1.0, 1.0]), ([1.0] * 3, [1.0, math.inf, 1.0])):
        with pytest.raises(ToolError, match="times must be positive and finite, got (nan|inf)"):
            compare.compare({"x": a}, {"x": b})


def _good_history(path: Path) -> Path:
    for i in range(3):
        history.append(path, {"kind": "counts", "commit": str(i) * 40,
                              "counts": {"pips per row": {"Ir": 10.0 + i, "D1mr": 0.5}, "perft per leaf": {"Ir": 300}}})
        history.append(path, {"kind": "compare", "rounds": 8 + i, "ratios": {"pips": {
            "ratio": 1.0 + i / 10, "low": 0.9, "high": 1.2, "verdict": ("same", "SLOWER", "unclear")[i]}}})
    return path


@pytest.mark.parametrize("line, message", [
    ('{"kind": "counts", "counts": {"pips": {"Ir": "ten"}}}', "the count pips Ir is not a finite number"),
    ('{"kind": "counts", "counts": {"pips": {"Ir": NaN}}}', "the count pips Ir is not a finite number"),
    ('{"kind": "counts", "counts": {"pips": {"Ir": 1e308}}}', "the count pips Ir is not a finite number"),
    ('{"kind": "counts", "counts": ["pips"]}', "counts are {kernel: {metric: number}}"),
    ('{"kind": "counts", "counts": {"pips": 3}}', "counts are {kernel: {metric: number}}"),
    ('{"kind": "compare", "rounds": "8"}', "rounds are a whole number"),
    ('{"kind": "compare", "rounds": 8.5}', "rounds are a whole number"),
    ('{"kind": "compare", "ratios": {"pips": 1.0}}', "ratios are {benchmark"),
    ('{"kind": "compare", "ratios": {"pips": {"ratio": null, "verdict": "same"}}}', "the ratio of pips needs"),
    ('{"kind": "compare", "ratios": {"pips": {"ratio": 1.0, "verdict": "slow"}}}', "the ratio of pips needs"),
    ('{"kind": "compare", "ratios": {"pips": {"ratio": 1.0}}}', "the ratio of pips needs"),
    ("[" * 100_000, "not JSON"),
    ("1" * 5000, "not JSON"),
    ('"a record"', "a record is a JSON object"),
    ("\udcff".encode("utf-8", "surrogateescape").decode("latin-1"), "not JSON"),
])
def test_a_damaged_record_is_one_line_naming_it(tmp_path, capsys, line, message):
    """Records of the wrong form were tracebacks (TypeError, ValueError, KeyError...) in plot or verdicts."""
    log = _good_history(tmp_path / "h.jsonl")
    with log.open("a", encoding="latin-1") as f:
        f.write(line + "\n")
    for command in (["verdicts", str(log)], ["plot", str(log), "-o", str(tmp_path / "h.svg")]):
        assert history.main(command) == 2
        err = capsys.readouterr().err
        assert err.startswith("benchmarks.history: error: ") and err.count("\n") == 1 and "h.jsonl:7: " in err
        assert message in err, err


def test_damaged_history_files_are_errors_never_tracebacks(tmp_path, capsys):
    """Of 20,000 damaged files 2,538 gave a traceback; here a few hundred, seeded."""
    import random

    base = _good_history(tmp_path / "good.jsonl").read_bytes()
    rng = random.Random(7)
    log = tmp_path / "h.jsonl"
    for _ in range(400):
        data = bytearray(base)
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(data) + 1)
            kind = rng.choice(["flip", "cut", "delete", "insert"])
            if kind == "flip" and at < len(data):
                data[at] ^= 1 << rng.randrange(8)
            elif kind == "cut":
                del data[at:]
            elif kind == "delete":
                del data[at:at + rng.randint(1, 5)]
            else:
                data[at:at] = rng.choice([b"0", b"9e999", b"\xff", b"[", b"{", b"null", b'"x"', b"-", b"\n", b"NaN"])
        log.write_bytes(bytes(data))
        for command in (["verdicts", str(log)], ["plot", str(log), "-o", str(tmp_path / "h.svg")]):
            assert history.main(command) in (0, 2)
    capsys.readouterr()


def test_a_cut_last_line_is_skipped_and_not_glued_onto(tmp_path, capsys):
    """One record cut short made the whole file unreadable, and append glued the next onto it."""
    log = _good_history(tmp_path / "h.jsonl")
    whole = log.read_bytes()
    log.write_bytes(whole + b'{"kind": "counts", "commit": "4444')
    assert len(history.read(log)) == 6
    assert "h.jsonl:7: skipped a record cut short" in capsys.readouterr().err
    history.append(log, {"kind": "counts", "commit": "5" * 40, "counts": {"pips per row": {"Ir": 9.0}}})
    assert "h.jsonl:7: dropped a record cut short" in capsys.readouterr().err
    records = history.read(log)
    assert len(records) == 7 and records[-1]["commit"] == "5" * 40
    assert log.read_bytes().startswith(whole) and log.read_bytes().endswith(b"}\n")
    # a whole record that lacks only its newline is kept, and the next starts on a line of its own
    log.write_bytes(whole.rstrip(b"\n"))
    history.append(log, {"kind": "compare", "rounds": 3, "ratios": {}})
    assert len(history.read(log)) == 7 and capsys.readouterr().err == ""


def test_a_fifo_a_device_or_a_huge_file_is_refused(tmp_path, capsys, monkeypatch):
    """A FIFO hung verdicts (and append); /dev/zero read until a MemoryError."""
    import os
    import subprocess
    import sys

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    code = ("import sys; from benchmarks import history; "
            "print(history.main(['verdicts', sys.argv[1]])); history.append(sys.argv[1], {})")
    done = subprocess.run([sys.executable, "-c", code, str(fifo)], cwd=Path(__file__).parent.parent,
                          capture_output=True, text=True, timeout=60)
    assert done.stdout.startswith("2\n") and "benchmarks.history: error: " in done.stderr
    assert done.stderr.splitlines()[-1].endswith("fifo is not a regular file")  # append's ToolError
    assert history.main(["verdicts", "/dev/zero"]) == 2
    assert "/dev/zero is not a regular file" in capsys.readouterr().err
    log = _good_history(tmp_path / "h.jsonl")
    monkeypatch.setattr(history, "LIMIT", 100)
    assert history.main(["verdicts", str(log)]) == 2
    assert "larger than 100 bytes" in capsys.readouterr().err
    with pytest.raises(ToolError, match="larger than 100 bytes"):
        history.append(log, {})

def test_the_default_comparison_covers_both_variants_move_generation_and_says_how_long_it_takes(monkeypatch):
    import io

    movegen = [name for name in compare.FAST if "movegen" in name or "perft" in name]
    assert any("[long" in name for name in movegen) and any("[short" in name for name in movegen)
    assert all(any(f"[{v}-contact]" in name for name in compare.FAST) for v in ("long", "short"))
    monkeypatch.setattr(compare, "run_once", lambda site, selection, label, max_time: {"bench": 1.0})
    log = io.StringIO()
    compare.interleaved({"A": Path("a"), "B": Path("b")}, [], 8, 0.1, log=log, max_rounds=40)
    assert "a round takes about 0 s: a verdict in about 0 s (8 rounds), up to 0 s (40 rounds)" in log.getvalue()
    assert compare.expected_time(7.0, 8, 40) == \
        "a round takes about 7 s: a verdict in about 56 s (8 rounds), up to 5 min (40 rounds) while one is unclear"


# ---------------------------------------------------------------- table: README's speed table from one run

def _record(name, params=None, low=1e-3, **extra):
    return {"name": name, "params": params, "stats": {"min": low}, "extra_info": extra}


def test_the_table_names_only_benchmarks_that_exist():
    from benchmarks import table

    for file, expression in table.CPU + table.WALL:
        text = (Path(table.HERE) / file).read_text()
        names = [word for word in expression.replace("(", " ").replace(")", " ").split()
                 if word not in ("and", "or", "not") and not word.isdigit()]
        assert any(name in text for name in names), (file, expression)


def test_the_table_refuses_a_missing_or_doubled_benchmark():
    from benchmarks import table

    records = [_record("test_build"), _record("test_pips_batch", {"variant": "long"}),
               _record("test_pips_batch", {"variant": "long"})]
    assert table.pick(records, "test_build") is records[0]
    with pytest.raises(SystemExit, match="expected one test_forward"):
        table.pick(records, "test_forward")
    with pytest.raises(SystemExit, match="found 2"):
        table.pick(records, "test_pips_batch", variant="long")


def test_the_table_derives_each_row_from_the_records():
    from benchmarks import table

    cpu, wall = [], []
    for v in ("long", "short"):
        cpu.append(_record("test_movegen_core_corpus", {"variant": v, "kind": "contact"}, 1e-3, results=100_000))
        for k in ("contact", "race"):
            for backend, low in (("python", 3.0), ("cython", 1e-3)):
                cpu.append(_record("test_movegen_speedup_sample", {"variant": v, "kind": k, "backend": backend}, low))
        cpu.append(_record("test_pips_batch", {"variant": v}, 2e-3, items=1_000_000))
        cpu.append(_record("test_selfplay_random", {"variant": v, "threads": 1}, 0.25, games_per_second=80_000.0))
        cpu.append(_record("test_env_steps", {"variant": v, "n": 4096}, 1.0, items=5_000_000))
        cpu.append(_record("test_forward", {"variant": v, "kind": "contact"}, 1.0, items=4_000_000))
        for threads, low in ((1, 0.2), (2, 0.1)):
            wall.append(_record("test_selfplay_random", {"variant": v, "threads": threads}, low))
    cpu += [_record("test_six_block_batch", {"timing": "step"}, 2e-3, items=1_000_000),
            _record("test_perft_long_depth_4_core", None, 0.025), _record("test_build", None, 0.26),
            _record("test_expected_turns_batch", None, 0.01, items=1_000_000),
            _record("test_one_position_at_a_time", {"variant": "short", "form": "legal_moves"}, us_per_call_min=4.6),
            _record("test_rank_of_a_twenty_play_roll", {"form": "rank"}, us_per_call_min=46.3),
            _record("test_decide_with_probabilities", None, 0.0128, items=1000)]
    text = table.markdown(table.rows(cpu, wall))
    for cell in ("long 10.0 ns, short 10.0 ns per result", "3,000x to 3,000x", "pips long 2.0 ns, short 2.0 ns",
                 "0.025 s", "long 80,000, short 80,000 games", "long 2.00x, short 2.00x one thread",
                 "long 5.0M, short 5.0M full-turn", "build 0.26 s, 10.0 ns per lookup", "long 4.0M, short 4.0M",
                 "| 4.6 us |", "| 46.3 us |", "| 12.8 us |"):
        assert cell in text, cell
    with_targets = table.markdown(table.rows(cpu, wall), targets=True)
    assert with_targets.startswith("| what | target | measured |")
    assert "| `rank(ply=0)` of a 20-play roll | <= 100 us | 46.3 us |" in with_targets
    assert {what for what, _ in table.rows(cpu, wall)} == set(table.TARGETS)  # every row has its target
