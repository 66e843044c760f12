"""A/B wall-time comparison of two git revisions that is honest about noise.

    python -m benchmarks.compare REV_A REV_B [--rounds 8] [--max-rounds 40] [--history FILE]

Each revision is built once into its own directory (`.benchmarks/builds/<commit>/`, reused
while the commit is the same), then this checkout's benchmarks run against both builds in
alternating rounds in one session (A B, B A, A B, ...), each round one pytest-benchmark run per
revision with the CPU-time timer (`--benchmark-timer=time.process_time`). Per benchmark and
round the fastest of pytest-benchmark's own rounds is kept; the ratio B/A of a round pairs two
runs taken seconds apart, so drifting load on a shared machine cancels. The estimate is the
Hodges-Lehmann estimate of the rounds' log ratios, with its exact (Wilcoxon signed-rank)
confidence interval. A benchmark is called SLOWER (a regression, exit status 1) only when the
whole interval lies above 1 + threshold, FASTER only when it lies wholly below 1 / (1 +
threshold), and "same" only when it rules out a slowdown of `resolution` (5%); while any
verdict is "unclear", rounds go on, up to `--max-rounds`.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from benchmarks import history
from benchmarks.toolkit import ROOT, ToolError, guarded, machine, resolve

BUILDS = ROOT / ".benchmarks" / "builds"
THRESHOLD = 0.03  # a ratio must be surely beyond 1.03 to be called a regression
RESOLUTION = 0.05  # "same" must rule out a 5% slowdown; until it does, more rounds are run
ROUNDS, MAX_ROUNDS = 8, 40

# A fast subset (milliseconds per call, so a round is one pytest start-up and a few seconds):
# the batch pips, the move generator on contact positions of both variants, and perft of both.
FAST = (
    "benchmarks/test_board_batches.py::test_pips_batch[long]",
    "benchmarks/test_movegen.py::test_movegen_core_corpus[long-contact]",
    "benchmarks/test_movegen.py::test_movegen_core_corpus[short-contact]",
    "benchmarks/test_perft.py::test_perft_speedup[long-3-35387-cython]",
    "benchmarks/test_perft.py::test_perft_speedup[short-2-202782-cython]",
)


@dataclass(frozen=True)
class Ratio:
    """B's time over A's for one benchmark: the estimate, its interval and what it means."""

    name: str
    a: float  # median over rounds of A's per-round time, seconds
    b: float
    ratio: float
    low: float
    high: float
    verdict: str  # "SLOWER", "FASTER", "same" or "unclear"


def signed_rank_rank(n: int, confidence: float) -> int:
    """k such that the k-th smallest and k-th largest of n paired rounds' Walsh averages bound
    a `confidence` interval (the exact null distribution of Wilcoxon's signed-rank statistic);
    1 (the whole range) when n rounds are too few for that confidence."""
    ways = np.zeros(n * (n + 1) // 2 + 1)
    ways[0] = 1
    for rank in range(1, n + 1):  # the number of sign patterns with each rank sum
        ways[rank:] = ways[rank:] + ways[:-rank].copy()
    below = np.cumsum(ways) / 2.0 ** n  # P(W <= w)
    return max(1, int(np.searchsorted(below, (1 - confidence) / 2, side="right")))


def ratio_interval(a: Sequence[float], b: Sequence[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """(estimate, low, high) of B/A from per-round paired times: the Hodges-Lehmann estimate of
    the rounds' log ratios (the median of their pairwise means, so a round in which one side's
    whole run was slowed moves it little) and its exact distribution-free interval (Wilcoxon's
    signed-rank), back on the ratio scale."""
    if len(a) != len(b) or len(a) < 2:
        raise ToolError(f"need at least two paired rounds, got {len(a)} and {len(b)} times")
    bad = [t for t in [*a, *b] if not (math.isfinite(t) and t > 0)]
    if bad:  # (a NaN time gave ratio nan and the verdict "unclear")
        raise ToolError(f"times must be positive and finite, got {bad[0]}")
    logs = np.log(np.asarray(b, float)) - np.log(np.asarray(a, float))
    i, j = np.triu_indices(len(logs))
    walsh = np.sort((logs[i] + logs[j]) / 2)
    k = signed_rank_rank(len(logs), confidence)
    return math.exp(float(np.median(walsh))), math.exp(walsh[k - 1]), math.exp(walsh[-k])


def verdict(low: float, high: float, threshold: float, resolution: float = RESOLUTION) -> str:
    """SLOWER only if the whole interval is above 1 + threshold; FASTER only if wholly below its
    inverse; "same" if it rules out a slowdown of `resolution`; else "unclear" (the noise hides
    whether it is that much slower: more rounds will tell)."""
    if low > 1 + threshold:
        return "SLOWER"
    if high < 1 / (1 + threshold):
        return "FASTER"
    if high <= 1 + resolution:
        return "same"
    return "unclear"


def compare(times_a: dict[str, list[float]], times_b: dict[str, list[float]], threshold: float = THRESHOLD,
            confidence: float = 0.95, resolution: float = RESOLUTION) -> list[Ratio]:
    """One Ratio per benchmark timed in both revisions, in A's order."""
    out = []
    for name, a in times_a.items():
        b = times_b.get(name)
        if b is None:
            continue
        ratio, low, high = ratio_interval(a, b, confidence)
        out.append(Ratio(name, float(np.median(a)), float(np.median(b)), ratio, low, high,
                         verdict(low, high, threshold, resolution)))
    return out


def table(ratios: Sequence[Ratio], confidence: float = 0.95) -> str:
    """The report: per benchmark A's and B's time, B/A, its interval and the verdict."""
    width = max([len("benchmark")] + [len(r.name) for r in ratios])
    head = f"{'benchmark':<{width}}  {'A ms':>9}  {'B ms':>9}  {'B/A':>6}  {f'{confidence:.0%} interval':>16}  verdict"
    lines = [head, "-" * len(head)]
    for r in ratios:
        interval = f"[{r.low:.3f}, {r.high:.3f}]"
        lines.append(f"{r.name:<{width}}  {r.a * 1e3:>9.3f}  {r.b * 1e3:>9.3f}  {r.ratio:>6.3f}  {interval:>16}  {r.verdict}")
    return "\n".join(lines)


# ---------------------------------------------------------------- building and running

def build(commit: str, log=sys.stderr) -> Path:
    """The directory holding `commit`'s installed nardy (built now unless already cached)."""
    site = BUILDS / commit / "site"
    if (site / "nardy" / "__init__.py").exists():
        return site
    BUILDS.mkdir(parents=True, exist_ok=True)
    print(f"building {commit[:12]} into {site.parent.relative_to(ROOT)} ...", file=log, flush=True)
    work = Path(tempfile.mkdtemp(prefix=f"{commit[:12]}-", dir=BUILDS))
    archive = work / "source.tar"
    with archive.open("wb") as out:
        if subprocess.run(["git", "archive", "--format=tar", commit], cwd=ROOT, stdout=out).returncode:
            raise ToolError(f"git archive {commit[:12]} failed")
    with tarfile.open(archive) as tar:
        tar.extractall(work / "source", filter="data")
    build_log = BUILDS / f"{commit}.log"
    with build_log.open("w") as out:
        done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--wheel-dir", str(work / "wheel"),
                               str(work / "source")], stdout=out, stderr=subprocess.STDOUT)
    wheels = list((work / "wheel").glob("nardy-*.whl"))
    if done.returncode or not wheels:
        raise ToolError(f"building {commit[:12]} failed: see {build_log.relative_to(ROOT)}")
    with zipfile.ZipFile(wheels[0]) as wheel:
        wheel.extractall(work / "site")
    shutil.rmtree(work / "source"), shutil.rmtree(work / "wheel"), archive.unlink()
    try:
        work.rename(site.parent)
    except OSError:  # built meanwhile by another run: keep that one
        shutil.rmtree(work)
        if not (site / "nardy" / "__init__.py").exists():
            raise ToolError(f"cannot move the build of {commit[:12]} into {site.parent}") from None
    return site


def environment(site: Path) -> dict[str, str]:
    """The environment of a benchmark run against one build: its nardy first on the path."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(site) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["NARDY_CACHE_DIR"] = str(ROOT / ".benchmarks" / "cache")
    return env


def check_import(site: Path) -> None:
    """Refuse to time anything unless the build's own nardy is the one imported."""
    done = subprocess.run([sys.executable, "-c", "import nardy; print(nardy.__file__)"], cwd=ROOT,
                          env=environment(site), capture_output=True, text=True)
    where = done.stdout.strip()
    if done.returncode or not where.startswith(str(site)):
        raise ToolError(f"the build in {site} does not import cleanly (got {where or done.stderr.strip()[-200:]!r})")


def run_once(site: Path, selection: Sequence[str], label: str, max_time: float) -> dict[str, float]:
    """One pytest-benchmark run of `selection` against one build: {benchmark: fastest CPU time, s}."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        command = [sys.executable, "-m", "pytest", "-p", "pytest_benchmark.plugin", *selection, "-q",
                   "-p", "no:cacheprovider", "--benchmark-only",
                   "--benchmark-timer=time.process_time", f"--benchmark-max-time={max_time}",
                   "--benchmark-min-rounds=5", f"--benchmark-json={report}"]
        # no other plugins (half the start-up), and a summary line wide enough for the failure's message
        env = dict(environment(site), COLUMNS="400", PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
        if done.returncode in (4, 5) or (done.returncode == 0 and not report.exists()):
            raise ToolError(f"no benchmark matched {' '.join(selection)}")
        if done.returncode:
            lines = done.stdout.strip().splitlines()
            why = next((line for line in lines if line.startswith(("FAILED", "ERROR"))), lines[-1] if lines else "")
            raise ToolError(f"a benchmark failed on {label}: {why.strip() or done.stderr.strip()[-200:]}")
        data = json.loads(report.read_text())
    return {b["fullname"]: b["stats"]["min"] for b in data["benchmarks"]}


def interleaved(sites: dict[str, Path], selection: Sequence[str], rounds: int, max_time: float,
                log=sys.stderr, max_rounds: int | None = None,
                settled: Callable[[dict[str, dict[str, list[float]]]], bool] | None = None,
                ) -> dict[str, dict[str, list[float]]]:
    """{label: {benchmark: [time per round]}}, the revisions alternating A B, B A, ...: `rounds`
    rounds, then more, up to `max_rounds`, until `settled(times)`."""
    times: dict[str, dict[str, list[float]]] = {label: {} for label in sites}
    labels = list(sites)
    most = max(rounds, max_rounds or rounds)
    started = time.monotonic()
    for i in range(most):
        for label in labels if i % 2 == 0 else labels[::-1]:
            for name, t in run_once(sites[label], selection, label, max_time).items():
                times[label].setdefault(name, []).append(t)
        done = i + 1 >= rounds and (settled is None or settled(times))
        print(f"round {i + 1} done" + ("" if done or i + 1 < rounds else ": too noisy to tell yet, one more"),
              file=log, flush=True)
        if i == 0:
            print(expected_time(time.monotonic() - started, rounds, most), file=log, flush=True)
        if done:
            break
    return times


def expected_time(first_round: float, rounds: int, most: int) -> str:
    """How long a verdict should take, from the first round's wall time."""
    def spell(seconds: float) -> str:
        return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min"

    return (f"a round takes about {spell(first_round)}: a verdict in about {spell(rounds * first_round)} "
            f"({rounds} rounds), up to {spell(most * first_round)} ({most} rounds) while one is unclear")


def short(name: str) -> str:
    return name.removeprefix("benchmarks/")


@guarded
def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.compare", description=__doc__.split("\n\n")[0])
    parser.add_argument("a", metavar="REV_A", help="the revision to compare against (e.g. main)")
    parser.add_argument("b", metavar="REV_B", help="the revision under test (e.g. HEAD)")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help=f"alternating rounds at least (default {ROUNDS})")
    parser.add_argument("--max-rounds", type=int, default=MAX_ROUNDS,
                        help=f"rounds at most, while a benchmark's verdict is unclear (default {MAX_ROUNDS})")
    parser.add_argument("--resolution", type=float, default=RESOLUTION,
                        help=f"'same' must rule out a slowdown of this much (default {RESOLUTION})")
    parser.add_argument("--threshold", type=float, default=THRESHOLD,
                        help=f"a ratio must be surely beyond 1 + this to count (default {THRESHOLD})")
    parser.add_argument("--confidence", type=float, default=0.95, help="of the signed-rank interval (default 0.95)")
    parser.add_argument("--max-time", type=float, default=0.2,
                        help="pytest-benchmark's --benchmark-max-time per benchmark and run (default 0.2 s)")
    parser.add_argument("--benchmarks", nargs="+", metavar="NODE", default=list(FAST),
                        help="pytest node ids or files to time (default: the fast subset)")
    parser.add_argument("--history", type=Path, metavar="FILE", help="append the ratios to this JSON-lines file")
    args = parser.parse_args(argv)
    if args.rounds < 2:
        raise ToolError("--rounds must be at least 2")
    if args.max_rounds < args.rounds:
        raise ToolError(f"--max-rounds must be at least --rounds ({args.rounds})")
    if not 0 < args.confidence < 1 or args.threshold < 0 or args.resolution <= args.threshold:
        raise ToolError("--confidence must be in (0, 1), --threshold at least 0 and --resolution above --threshold")
    commits = {"A": resolve(args.a), "B": resolve(args.b)}
    sites = {label: build(commit) for label, commit in commits.items()}
    for site in sites.values():
        check_import(site)
    def judged(times: dict[str, dict[str, list[float]]]) -> list[Ratio]:
        times_a, times_b = times.values()
        return compare({short(k): v for k, v in times_a.items()}, {short(k): v for k, v in times_b.items()},
                       args.threshold, args.confidence, args.resolution)

    times = interleaved({f"{label} ({args.a if label == 'A' else args.b})": site for label, site in sites.items()},
                        args.benchmarks, args.rounds, args.max_time, max_rounds=args.max_rounds,
                        settled=lambda times: all(r.verdict != "unclear" for r in judged(times)))
    ratios = judged(times)
    times_a, times_b = times.values()
    rounds = len(next(iter(times_a.values()), []))
    print(f"A = {args.a} ({commits['A'][:12]}), B = {args.b} ({commits['B'][:12]}); {rounds} alternating rounds, "
          f"CPU time (time.process_time), fastest of each run; regression = interval wholly above "
          f"{1 + args.threshold:.2f}; same = interval below {1 + args.resolution:.2f}")
    print(table(ratios, args.confidence))
    slower = [r.name for r in ratios if r.verdict == "SLOWER"]
    unclear = [r.name for r in ratios if r.verdict == "unclear"]
    print(f"regression in {len(slower)} of {len(ratios)}: {', '.join(slower)}" if slower else
          f"no regression in {len(ratios)} benchmarks" + (
              f", but {len(unclear)} too noisy to tell after {rounds} rounds (a quieter machine or more "
              f"--max-rounds will tell): {', '.join(unclear)}" if unclear else ""))
    if args.history:
        history.append(args.history, {
            "kind": "compare", "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "machine": machine(), "a": commits["A"], "b": commits["B"], "commit": commits["B"],
            "rounds": rounds, "threshold": args.threshold, "resolution": args.resolution,
            "ratios": {r.name: {"ratio": r.ratio, "low": r.low, "high": r.high, "verdict": r.verdict} for r in ratios},
            "times": {short(name): {"a": times_a[name], "b": times_b.get(name, [])} for name in times_a},
        })
    return 1 if slower else 0


if __name__ == "__main__":
    sys.exit(main())
