"""Instruction counts of the compiled kernels per unit of work, checked against a committed baseline.

    python -m benchmarks.counts check     # fail (exit 1) if a kernel's count per unit grew > 2%
    python -m benchmarks.counts update    # measure and rewrite benchmarks/counts.json

The workload (`benchmarks/kernels.py`: small, fixed, seeded) runs once under valgrind's callgrind
with the cache simulator, collecting only inside the measured compiled defs and dumping after
each kernel, so start-up and setup are never counted. Counts are a function of the code, the
compiler and its flags, Python, numpy and the CPU's features (AVX2, x86-64-v3 or not), never of the
machine's load. The baseline records that toolchain; when this build's differs, the check says
so, prints the table for information and passes (with `--strict` it fails): a new compiler is
not a regression, and the fix is `update` on the new toolchain.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Sequence

from benchmarks import history
from benchmarks.toolkit import ROOT, ToolError, guarded, head, machine

BASELINE = Path(__file__).parent / "counts.json"
TOLERANCE = 0.02  # a count per unit may grow this much before the check fails
EVENTS = ("Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw")


# ---------------------------------------------------------------- deciding (pure)

@dataclass(frozen=True)
class Row:
    """One kernel and unit: instructions per unit in the baseline and now, and the verdict."""

    kernel: str
    unit: str
    base: float | None
    now: float | None
    d1: float | None = None  # L1 data misses per unit, now
    ll: float | None = None  # last-level misses (instructions and data) per unit, now
    status: str = "ok"  # ok, SLOWER, faster, new, missing

    @property
    def change(self) -> float | None:
        return None if self.base is None or self.now is None else self.now / self.base - 1


def per_unit(entry: dict[str, Any]) -> dict[str, dict[str, float]]:
    """{unit: {"Ir": .., "D1": .., "LL": ..}} of one kernel's measured entry (events and units)."""
    events = entry["events"]
    out = {}
    for unit, amount in entry["units"].items():
        amount = max(int(amount), 1)
        out[unit] = {
            "Ir": events["Ir"] / amount,
            "D1": (events.get("D1mr", 0) + events.get("D1mw", 0)) / amount,
            "LL": (events.get("ILmr", 0) + events.get("DLmr", 0) + events.get("DLmw", 0)) / amount,
        }
    return out


def judge(baseline: dict[str, Any], now: dict[str, Any], tolerance: float = TOLERANCE) -> list[Row]:
    """A Row per kernel and unit of either side: SLOWER when instructions per unit grew by more
    than `tolerance`, faster when they shrank by more, new or missing when one side lacks it."""
    rows = []
    for kernel in list(now) + [k for k in baseline if k not in now]:
        mine = per_unit(now[kernel]) if kernel in now else {}
        theirs = per_unit(baseline[kernel]) if kernel in baseline else {}
        for unit in list(mine) + [u for u in theirs if u not in mine]:
            base = theirs.get(unit, {}).get("Ir")
            figures = mine.get(unit, {})
            current = figures.get("Ir")
            if base is None:
                status = "new"
            elif current is None:
                status = "missing"
            elif current > base * (1 + tolerance):
                status = "SLOWER"
            elif current < base * (1 - tolerance):
                status = "faster"
            else:
                status = "ok"
            rows.append(Row(kernel, unit, base, current, figures.get("D1"), figures.get("LL"), status))
    return rows


def differences(baseline_env: dict[str, Any], env: dict[str, Any]) -> list[str]:
    """What differs between the toolchain of the baseline and this build's, one phrase each."""
    return [f"{key}: baseline {baseline_env.get(key)!r}, now {env.get(key)!r}"
            for key in sorted(set(baseline_env) | set(env)) if baseline_env.get(key) != env.get(key)]


def table(rows: Sequence[Row]) -> str:
    """Baseline, now and change of instructions per unit, with the cache misses of now."""
    def number(x: float | None, digits: int = 1) -> str:
        return "-" if x is None else f"{x:,.{digits}f}"

    width = max([len("kernel")] + [len(r.kernel) for r in rows])
    head_line = (f"{'kernel':<{width}}  {'per':<10}  {'baseline Ir':>13}  {'now Ir':>13}  {'change':>7}  "
                 f"{'D1 miss':>8}  {'LL miss':>8}  status")
    lines = [head_line, "-" * len(head_line)]
    for r in rows:
        change = "-" if r.change is None else f"{r.change:+.2%}"
        lines.append(f"{r.kernel:<{width}}  {r.unit:<10}  {number(r.base):>13}  {number(r.now):>13}  {change:>7}  "
                     f"{number(r.d1, 2):>8}  {number(r.ll, 3):>8}  {r.status}")
    return "\n".join(lines)


# ---------------------------------------------------------------- measuring

def toolchain() -> dict[str, Any]:
    """The build's compiler and flags (as the compiler recorded them in the core), Cython, Python,
    numpy, valgrind and the CPU architecture: everything but the code that moves the counts."""
    import numpy

    core = Path(importlib.import_module("nardy._core").__file__)
    env: dict[str, Any] = {"python": platform.python_version(), "numpy": numpy.__version__,
                           "machine": platform.machine(), "valgrind": valgrind_version()}
    env["compiler"], env["flags"] = compiler_of(core)
    found = re.search(rb"_cython_(\d+_\d+_\d+\w*?)\.", core.read_bytes())
    env["cython"] = found[1].decode().replace("_", ".") if found else "unknown"
    return env


def compiler_of(library: Path) -> tuple[str, str]:
    """(compiler, flags) of a compiled module from its .comment section and DWARF producer."""
    def readelf(*args: str) -> str:
        try:
            return subprocess.run(["readelf", *args, str(library)], capture_output=True, text=True).stdout
        except FileNotFoundError:
            return ""

    comment = re.search(r"\]\s+(GCC:.*|clang.*)", readelf("-p", ".comment"))
    producer = re.search(r"DW_AT_producer\s*:.*?:\s*(.*)", readelf("--debug-dump=info", "--dwarf-depth=1"))
    compiler = comment[1].strip() if comment else "unknown"
    flags = " ".join(w for w in producer[1].split() if w.startswith("-")) if producer else "unknown"
    return compiler, flags


def valgrind_version() -> str:
    path = shutil.which("valgrind")
    if path is None:
        raise ToolError("valgrind is not installed (Debian: apt-get install valgrind)")
    return subprocess.run([path, "--version"], capture_output=True, text=True).stdout.strip()


def symbol(module: str, function: str) -> str:
    """The C name of a compiled def's Python wrapper (Cython: __pyx_pw_5nardy_<module>_<n><name>),
    read from the module's symbol table so that renumbering by new defs cannot break it."""
    library = Path(importlib.import_module(f"nardy.{module}").__file__)
    try:
        names = subprocess.run(["nm", "--defined-only", str(library)], capture_output=True, text=True).stdout
    except FileNotFoundError:
        raise ToolError("nm (binutils) is not installed") from None
    prefix = f"__pyx_pw_5nardy_{len(module)}{module}_"
    if "." in function:
        cls, name = function.split(".")
        pattern = re.compile(rf"\b({re.escape(prefix)}{len(cls)}{re.escape(cls)}_\d+{re.escape(name)})$", re.M)
    else:
        pattern = re.compile(rf"\b({re.escape(prefix)}\d+{re.escape(function)})$", re.M)
    found = set(pattern.findall(names))
    if len(found) != 1:
        raise ToolError(f"cannot find the compiled def nardy.{module}.{function} in {library.name} "
                        f"({'no symbol' if not found else 'several symbols'}; is the core built without -s?)")
    return found.pop()


def totals(dump: Path) -> dict[str, int]:
    """{event: count} of one callgrind dump (its `events:` and `totals:`/`summary:` lines)."""
    events, values = None, None
    for line in dump.read_text().splitlines():
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith(("totals:", "summary:")):
            values = [int(v) for v in line.split()[1:]]
    if events is None or values is None:
        raise ToolError(f"{dump.name} is not a callgrind profile")
    values += [0] * (len(events) - len(values))  # callgrind leaves trailing zeros out
    return dict(zip(events, values))


def measure(log=sys.stderr) -> dict[str, Any]:
    """Run the workload under callgrind once: {"environment": .., "kernels": {name: {units, events}}}."""
    from benchmarks import kernels

    env = toolchain()
    toggles = sorted({symbol(k.module, k.function) for k in kernels.KERNELS.values()})
    marker = symbol(*kernels.MARKER)
    with tempfile.TemporaryDirectory(prefix="nardy-counts-") as tmp:
        out, units = Path(tmp) / "cg.out", Path(tmp) / "units.json"
        # with address-space randomisation off, even the allocator's paths repeat exactly
        norandom = ["setarch", platform.machine(), "--addr-no-randomize"] if shutil.which("setarch") else []
        command = [*norandom, "valgrind", "--tool=callgrind", "--cache-sim=yes", "--collect-atstart=no",
                   *(f"--toggle-collect={s}" for s in toggles), f"--dump-before={marker}",
                   f"--callgrind-out-file={out}", sys.executable, "-m", "benchmarks.kernels", str(units)]
        workload_env = dict(os.environ, PYTHONHASHSEED="0", NARDY_CACHE_DIR=str(Path(tmp) / "cache"),
                            OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
        print(f"running {len(kernels.KERNELS)} kernels under callgrind (about a minute) ...", file=log, flush=True)
        done = subprocess.run(command, cwd=ROOT, env=workload_env, capture_output=True, text=True)
        if done.returncode or not units.exists():
            lines = [line for line in done.stderr.splitlines() if line.strip() and not line.startswith("==")]
            raise ToolError(f"the workload failed under valgrind: {lines[-1] if lines else done.stderr.strip()[-200:]}")
        report = json.loads(units.read_text())
        # dump 1 is the marker's first call; then each kernel's setup, then the kernel itself
        dumps = sorted(Path(tmp).glob("cg.out.*"), key=lambda p: int(p.suffix[1:]))
        if len(dumps) != 1 + 2 * len(kernels.KERNELS):
            raise ToolError(f"expected {1 + 2 * len(kernels.KERNELS)} callgrind dumps, got {len(dumps)}")
        measured = {name: {"units": report["units"][i], "events": totals(dumps[2 + 2 * i])}
                    for i, name in enumerate(kernels.KERNELS)}
    env["avx2"] = report["avx2"]
    env["x86_64_v3"] = report["x86_64_v3"]  # which build of the move generator's walks ran
    return {"environment": env, "kernels": measured}


# ---------------------------------------------------------------- the commands

def read_baseline(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text())
    except FileNotFoundError:
        raise ToolError(f"no baseline {path}: run `python -m benchmarks.counts update` and commit it") from None
    except json.JSONDecodeError as error:
        raise ToolError(f"{path} is not JSON ({error.msg}); rewrite it with `python -m benchmarks.counts update`") from None
    if not isinstance(data, dict) or not isinstance(data.get("kernels"), dict) or "environment" not in data:
        raise ToolError(f"{path} is not a counts baseline; rewrite it with `python -m benchmarks.counts update`")
    return data


def record(measurement: dict[str, Any]) -> dict[str, Any]:
    """A history line: commit, date, machine, toolchain and each kernel's figures per unit."""
    counts = {}
    for kernel, entry in measurement["kernels"].items():
        for unit, figures in per_unit(entry).items():
            counts[f"{kernel} per {unit}"] = figures
    return {"kind": "counts", "commit": head(), "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "machine": machine(), "environment": measurement["environment"], "counts": counts}


def check(baseline_path: Path, tolerance: float, strict: bool, history_path: Path | None) -> int:
    baseline = read_baseline(baseline_path)  # first, so a missing baseline costs no valgrind run
    now = measure()
    if history_path:
        history.append(history_path, record(now))
    rows = judge(baseline["kernels"], now["kernels"], tolerance)
    print(f"instructions (Ir) per unit of work under callgrind; baseline {baseline_path.name} "
          f"(commit {str(baseline.get('commit', '?'))[:12]}), tolerance {tolerance:.0%}")
    print(table(rows))
    changed = differences(baseline["environment"], now["environment"])
    if changed:
        print(f"NOT COMPARED: this build's toolchain differs from the baseline's ({'; '.join(changed)}). "
              "Counts depend on it, so the table is for information only; run "
              "`python -m benchmarks.counts update` on this toolchain to make a new baseline.")
        return 1 if strict else 0
    bad = [r for r in rows if r.status in ("SLOWER", "new", "missing")]
    if bad:
        print(f"FAILED: {len(bad)} of {len(rows)} rows: " + ", ".join(f"{r.kernel} per {r.unit} ({r.status})" for r in bad))
        print("If the change is intended, run `python -m benchmarks.counts update` and commit "
              f"{baseline_path.relative_to(ROOT) if baseline_path.is_relative_to(ROOT) else baseline_path} with it.")
        return 1
    faster = [r for r in rows if r.status == "faster"]
    print(f"passed: no kernel grew by more than {tolerance:.0%}"
          + (f"; {len(faster)} got faster (run `update` to lock that in)" if faster else ""))
    return 0


def update(baseline_path: Path, history_path: Path | None) -> int:
    now = measure()
    if history_path:
        history.append(history_path, record(now))
    old = None
    if baseline_path.exists():
        try:
            old = read_baseline(baseline_path)
        except ToolError:
            old = None
    data = {"about": "instruction counts of benchmarks/kernels.py under callgrind; "
                     "rewrite with `python -m benchmarks.counts update`",
            "commit": head(), "environment": now["environment"], "kernels": now["kernels"]}
    baseline_path.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n")
    if old is not None:
        print(table(judge(old["kernels"], now["kernels"], TOLERANCE)))
    print(f"wrote {baseline_path} ({len(now['kernels'])} kernels)")
    return 0


@guarded
def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.counts", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for name, text in (("check", "compare with the baseline; exit 1 on a regression"),
                       ("update", "measure and rewrite the baseline")):
        command = commands.add_parser(name, help=text)
        command.add_argument("--baseline", type=Path, default=BASELINE, help="the baseline file (benchmarks/counts.json)")
        command.add_argument("--history", type=Path, metavar="FILE", help="append this run's figures to a JSON-lines file")
        if name == "check":
            command.add_argument("--tolerance", type=float, default=TOLERANCE, help="allowed growth (default 0.02)")
            command.add_argument("--strict", action="store_true", help="fail when the toolchain differs from the baseline's")
    args = parser.parse_args(argv)
    if args.command == "check":
        return check(args.baseline.resolve(), args.tolerance, args.strict, args.history)
    return update(args.baseline.resolve(), args.history)


if __name__ == "__main__":
    sys.exit(main())
