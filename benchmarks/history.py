"""The performance history: one JSON object per line, and a plot of every kernel's count over commits.

    python -m benchmarks.history plot FILE [-o history.svg] [--metric Ir]
    python -m benchmarks.history verdicts FILE    # how often the comparisons called a regression

`python -m benchmarks.counts check --history FILE` appends the counts of a run (kind "counts"),
`python -m benchmarks.compare ... --history FILE` its ratios (kind "compare"). The plot draws
one small panel per kernel (its own scale: kernels differ by orders of magnitude), the counts
per unit of work of each "counts" record in the order they were appended, labelled by commit;
a step in a line is where a change came in. The SVG is written by hand: no plotting dependency.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import stat
import sys
from html import escape
from pathlib import Path
from typing import Any, Sequence

from benchmarks.toolkit import ToolError, guarded


LIMIT = 64 << 20  # bytes of a history file: years of records; /dev/zero or a stray large file is refused
VERDICTS = ("SLOWER", "FASTER", "same", "unclear")


def append(path: Path, record: dict[str, Any]) -> None:
    """Add one record as one line (the file and its folder are created if missing). A last line
    without its newline is a record cut short by an interrupted write: it is dropped, said on
    stderr, rather than glued to this one (a whole record missing only its newline gets one)."""
    path = Path(path)
    try:
        line = json.dumps(record, sort_keys=True, allow_nan=False) + "\n"
    except ValueError as error:
        raise ToolError(f"cannot append to {path}: {error}") from None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with _open_regular(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, "r+b") as f:
            data = f.read(LIMIT + 1)
            if len(data) > LIMIT:
                raise ToolError(f"cannot append to {path}: larger than {LIMIT} bytes, not a history file")
            if data and not data.endswith(b"\n"):
                start = data.rfind(b"\n") + 1
                if _record(data[start:]) is None:
                    f.truncate(start)
                    number = data.count(b"\n") + 1
                    print(f"{path}:{number}: dropped a record cut short (no newline at its end)", file=sys.stderr)
                else:
                    f.write(b"\n")
            f.write(line.encode())
    except OSError as error:
        raise ToolError(f"cannot append to {path}: {error.strerror or error}") from None


def _open_regular(path: Path, flags: int, mode: str) -> Any:
    """`path` opened (`flags`, then as `mode`) if it is a regular file, else a ToolError: opened
    without blocking, as `nardy.files.open_regular` does (a FIFO would wait for its other end)."""
    fd = os.open(path, flags | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0), 0o666)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ToolError(f"{path} is not a regular file")
        return os.fdopen(fd, mode)
    except BaseException:
        os.close(fd)
        raise


def _record(line: bytes) -> dict[str, Any] | None:
    """The JSON object of one line, or None if it is not one."""
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):  # (UnicodeDecodeError, and an int of too many digits, are ValueErrors)
        return None
    return record if isinstance(record, dict) else None


def read(path: Path) -> list[dict[str, Any]]:
    """Every record of a history file, in order; a ToolError names a missing file or a bad line
    (a record whose figures are not finite numbers, of the form `plot` and `verdicts` read). A
    last line without its newline that is not a record was cut short by an interrupted write:
    it is skipped, said on stderr."""
    path = Path(path)
    try:
        with _open_regular(path, os.O_RDONLY, "rb") as f:
            data = f.read(LIMIT + 1)
    except FileNotFoundError:
        raise ToolError(f"no history file {path}") from None
    except OSError as error:
        raise ToolError(f"cannot read {path}: {error.strerror or error}") from None
    if len(data) > LIMIT:
        raise ToolError(f"{path} is larger than {LIMIT} bytes: not a history file")
    lines = data.split(b"\n")
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        record = _record(line)
        if record is None and number == len(lines):
            print(f"{path}:{number}: skipped a record cut short (no newline at its end)", file=sys.stderr)
            continue
        if record is None:
            try:
                json.loads(line)
                why = "a record is a JSON object"
            except json.JSONDecodeError as error:
                why = f"not JSON ({error.msg})"
            except (ValueError, RecursionError) as error:
                why = f"not JSON ({type(error).__name__})"
            raise ToolError(f"{path}:{number}: {why}")
        problem = _problem(record)
        if problem:
            raise ToolError(f"{path}:{number}: {problem}")
        records.append(record)
    return records


def _number(value: Any) -> bool:
    """A finite number (not a bool), within +-1e300 (so that the plot's scales stay finite)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) \
        and abs(value) <= 1e300


def _problem(record: dict[str, Any]) -> str | None:
    """What is wrong with a record's fields, as `series` and `verdicts` read them (absent ones are
    taken as empty), or None."""
    kind = record.get("kind")
    if kind == "counts":
        counts = record.get("counts", {})
        if not isinstance(counts, dict) or not all(isinstance(f, dict) for f in counts.values()):
            return "a counts record's counts are {kernel: {metric: number}}"
        bad = next((f"{k} {m}" for k, f in counts.items() for m, v in f.items() if not _number(v)), None)
        return f"the count {bad} is not a finite number (within +-1e300)" if bad else None
    if kind == "compare":
        rounds, ratios = record.get("rounds", 0), record.get("ratios", {})
        if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 0:
            return f"a compare record's rounds are a whole number >= 0, got {json.dumps(rounds)[:40]}"
        if not isinstance(ratios, dict) or not all(isinstance(v, dict) for v in ratios.values()):
            return "a compare record's ratios are {benchmark: {ratio, verdict, ...}}"
        for name, v in ratios.items():
            if not (_number(v.get("ratio")) and v["ratio"] > 0) or v.get("verdict") not in VERDICTS:
                return f"the ratio of {name} needs a finite ratio > 0 and a verdict ({', '.join(VERDICTS)})"
    return None


def series(records: Sequence[dict[str, Any]], metric: str = "Ir") -> tuple[list[str], dict[str, list[float | None]]]:
    """(commit labels, {kernel: value per point}) from the "counts" records; a commit measured more
    than once keeps its last place and figures; None where a kernel was not measured."""
    runs: dict[str, dict[str, Any]] = {}
    for record in records:
        if record.get("kind") == "counts":
            runs.pop(str(record.get("commit")), None)
            runs[str(record.get("commit"))] = record
    commits = list(runs)
    kernels: dict[str, list[float | None]] = {}
    for i, commit in enumerate(commits):
        for kernel, figures in runs[commit].get("counts", {}).items():
            kernels.setdefault(kernel, [None] * len(commits))[i] = figures.get(metric)
    return [c[:8] for c in commits], kernels


def svg(labels: Sequence[str], kernels: dict[str, list[float | None]], metric: str = "Ir", columns: int = 3) -> str:
    """Small multiples: one panel per kernel, x the commits in order, y its count per unit."""
    pw, ph, left, top, bottom = 320, 150, 64, 28, 34
    rows = max(1, -(-len(kernels) // columns))
    width, height = columns * pw, rows * ph + 30
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="10">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="8" y="18" font-size="13">{escape(metric)} per unit of work, by commit (oldest left)</text>']
    for k, (kernel, values) in enumerate(kernels.items()):
        x0, y0 = (k % columns) * pw + left, (k // columns) * ph + 30 + top
        w, h = pw - left - 12, ph - top - bottom
        out.append(f'<text x="{x0 - left + 8}" y="{y0 - 10}" font-size="11">{escape(kernel)}</text>')
        out.append(f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="none" stroke="#bbb"/>')
        known = [v for v in values if v is not None]
        if not known:
            continue
        lo, hi = min(known), max(known)
        pad = (hi - lo) * 0.1 or abs(hi) * 0.01 or 1.0
        lo, hi = lo - pad, hi + pad
        n = len(values)

        def at(i: int, v: float) -> tuple[float, float]:
            return x0 + (w * (i + 0.5) / n), y0 + h - h * (v - lo) / (hi - lo)

        for v, y in ((hi - pad, y0 + h * pad / (hi - lo)), (lo + pad, y0 + h - h * pad / (hi - lo))):
            out.append(f'<text x="{x0 - 4}" y="{y + 3:.1f}" text-anchor="end">{v:.4g}</text>')
        points = [at(i, v) for i, v in enumerate(values) if v is not None]
        out.append('<polyline fill="none" stroke="#1f77b4" stroke-width="1.5" points="'
                   + " ".join(f"{x:.1f},{y:.1f}" for x, y in points) + '"/>')
        for (x, y), (i, v) in zip(points, [(i, v) for i, v in enumerate(values) if v is not None]):
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="#1f77b4">'
                       f'<title>{escape(labels[i])}: {v:.6g}</title></circle>')
        step = max(1, -(-n // 6))
        for i in range(0, n, step):
            x, _ = at(i, lo)
            out.append(f'<text x="{x:.1f}" y="{y0 + h + 12}" text-anchor="middle">{escape(labels[i][:7])}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def verdicts(records: Sequence[dict[str, Any]]) -> str:
    """How often the "compare" records called each benchmark SLOWER or FASTER, and any benchmark SLOWER."""
    runs = [r for r in records if r.get("kind") == "compare"]
    if not runs:
        raise ToolError("the history holds no compare records")
    names = list(dict.fromkeys(name for r in runs for name in r.get("ratios", {})))
    rounds = sorted(int(r.get("rounds", 0)) for r in runs)
    lines = [f"{len(runs)} comparisons ({rounds[0]}-{rounds[-1]} rounds, median {rounds[len(rounds) // 2]}); "
             f"a regression (any benchmark SLOWER) in "
             f"{sum(any(v.get('verdict') == 'SLOWER' for v in r.get('ratios', {}).values()) for r in runs)}"]
    for name in names:
        got = [r["ratios"][name] for r in runs if name in r.get("ratios", {})]
        ratios = sorted(v["ratio"] for v in got)
        counted = ", ".join(f"{kind} {sum(v['verdict'] == kind for v in got)}" for kind in VERDICTS)
        lines.append(f"  {name}: {counted} of {len(got)}; ratio {ratios[0]:.3f}..{ratios[-1]:.3f}")
    return "\n".join(lines)


@guarded
def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.history", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    plot = commands.add_parser("plot", help="draw every kernel's count over commits as SVG")
    plot.add_argument("file", type=Path, help="the JSON-lines history")
    plot.add_argument("-o", "--output", type=Path, default=Path("history.svg"), help="the SVG to write (history.svg)")
    plot.add_argument("--metric", default="Ir", help="Ir (instructions, default), D1mr, LLmr, ... per unit")
    summary = commands.add_parser("verdicts", help="how often the comparisons in the file called a regression")
    summary.add_argument("file", type=Path, help="the JSON-lines history")
    args = parser.parse_args(argv)
    if args.command == "verdicts":
        print(verdicts(read(args.file)))
        return 0
    labels, kernels = series(read(args.file), args.metric)
    if not labels:
        raise ToolError(f"{args.file} holds no counts records (append some with `python -m benchmarks.counts check --history {args.file}`)")
    try:
        args.output.write_text(svg(labels, kernels, args.metric))
    except OSError as error:
        raise ToolError(f"cannot write {args.output}: {error.strerror}") from None
    print(f"{args.output}: {len(kernels)} kernels over {len(labels)} commits")
    return 0


if __name__ == "__main__":
    sys.exit(main())
