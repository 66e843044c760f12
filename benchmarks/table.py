"""The speed table of README.md and docs/performance.md, every row from one run on this machine.

    python -m benchmarks.table              # runs the benchmarks (a few minutes), prints the table
    python -m benchmarks.table --json F     # also keeps the pytest-benchmark JSON of the run
    python -m benchmarks.table --targets    # with each row's target (docs/performance.md's table)

It runs the rows' benchmarks twice in one invocation, one after the other: once in CPU time
(`--benchmark-timer=time.process_time`, every row but the threaded one) and once in wall time
(random self-play on one and on two threads), then derives each row from that run's minimums.
Every benchmark checks its own result, so a table is never printed from wrong answers.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent

# (file, -k expression) of the benchmarks each run needs
CPU = [("test_movegen.py", "movegen_core_corpus or movegen_speedup_sample"),
       ("test_board_batches.py", "pips_batch or six_block_batch"),
       ("test_perft.py", "perft_long_depth_4_core"),
       ("test_selfplay.py", "selfplay_random and 1"),
       ("test_env.py", "env_steps and 4096"),
       ("test_race.py", "build or expected_turns_batch"),
       ("test_eval.py", "test_forward and not expert"),
       ("test_objects.py", "legal_moves or rank"),
       ("test_cube.py", "with_probabilities")]
WALL = [("test_selfplay.py", "selfplay_random")]

Bench = dict

# each row's target (the issues that set them); a row without one is only measured
TARGETS = {
    "move generation, contact positions (`batch.generate`)": "<= 25 ns per result",
    "core vs the pure-Python reference, same positions": ">= 300x",
    "pip counts and six-block checks, 1M positions": "<= 5 ns per position",
    "long nardy perft(4) from the start (2,410,395 leaves)": "< 2 s",
    "random self-play, one thread, per CPU second": "short >= 15,000, long >= 12,000 and >= short's",
    "random self-play, two threads (wall)": ">= 1.8x one thread",
    "batched environment, N = 4096, one core": ">= 1M steps/s",
    "bear-off table": "build < 10 s, lookups <= 50 ns",
    "evaluator forward pass, contact afterstates (shipped nets)": ">= 5M/s",
    "`Position.legal_moves`, short contact, one call": "<= 10 us",
    "`rank(ply=0)` of a 20-play roll": "<= 100 us",
    "0-ply cube decision (`cube.decide`, given probabilities)": "<= 50 us",
}


def run(selection: list[tuple[str, str]], timer: str | None, keep: Path) -> list[Bench]:
    """Run the selected benchmarks once in a pytest subprocess; their JSON records."""
    files = sorted({name for name, _ in selection})
    expression = " or ".join(f"({k})" for _, k in selection)
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *files, "-k", expression,
               f"--benchmark-json={keep}"]
    if timer:
        command.append(f"--benchmark-timer={timer}")
    subprocess.run(command, cwd=HERE, check=True, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    records: list[Bench] = json.loads(keep.read_text())["benchmarks"]
    return records


def pick(records: list[Bench], name: str, **params: object) -> Bench:
    """The one record of benchmark `name` with these parameters."""
    found = [r for r in records if r["name"].split("[")[0] == name
             and all((r.get("params") or {}).get(k) == v for k, v in params.items())]
    if len(found) != 1:
        raise SystemExit(f"benchmarks.table: expected one {name} {params}, found {len(found)}")
    return found[0]


def low(record: Bench) -> float:
    return float(record["stats"]["min"])


def ns_per(record: Bench, key: str = "items") -> float:
    return low(record) / record["extra_info"][key] * 1e9


def rows(cpu: list[Bench], wall: list[Bench]) -> list[tuple[str, str]]:
    """The table's rows from the two runs' records."""
    def both(fmt: Callable[[str], str]) -> str:
        return f"long {fmt('long')}, short {fmt('short')}"

    def speedups() -> str:
        ratios = [low(pick(cpu, "test_movegen_speedup_sample", variant=v, kind=k, backend="python"))
                  / low(pick(cpu, "test_movegen_speedup_sample", variant=v, kind=k, backend="cython"))
                  for v in ("long", "short") for k in ("contact", "race")]
        return f"{min(ratios):,.0f}x to {max(ratios):,.0f}x"

    perft = pick(cpu, "test_perft_long_depth_4_core")
    selfplay = {v: pick(cpu, "test_selfplay_random", variant=v, threads=1)["extra_info"]["games_per_second"]
                for v in ("long", "short")}
    threads = {v: low(pick(wall, "test_selfplay_random", variant=v, threads=1))
               / low(pick(wall, "test_selfplay_random", variant=v, threads=2)) for v in ("long", "short")}
    env = {v: 1e9 / ns_per(pick(cpu, "test_env_steps", variant=v, n=4096)) for v in ("long", "short")}
    forward = {v: 1e9 / ns_per(pick(cpu, "test_forward", variant=v, kind="contact")) for v in ("long", "short")}
    pips = {v: ns_per(pick(cpu, "test_pips_batch", variant=v)) for v in ("long", "short")}
    legal = pick(cpu, "test_one_position_at_a_time", variant="short", form="legal_moves")
    rank = pick(cpu, "test_rank_of_a_twenty_play_roll", form="rank")
    return [
        ("move generation, contact positions (`batch.generate`)",
         both(lambda v: f"{ns_per(pick(cpu, 'test_movegen_core_corpus', variant=v, kind='contact'), 'results'):.1f} ns")
         + " per result"),
        ("core vs the pure-Python reference, same positions", speedups()),
        ("pip counts and six-block checks, 1M positions",
         f"pips {both(lambda v: f'{pips[v]:.1f} ns')}; six blocks "
         f"{ns_per(pick(cpu, 'test_six_block_batch', timing='step')):.1f} ns per position"),
        ("long nardy perft(4) from the start (2,410,395 leaves)", f"{low(perft):.3f} s"),
        ("random self-play, one thread, per CPU second", both(lambda v: f"{selfplay[v]:,.0f}") + " games"),
        ("random self-play, two threads (wall)", both(lambda v: f"{threads[v]:.2f}x") + " one thread"),
        ("batched environment, N = 4096, one core", both(lambda v: f"{env[v] / 1e6:.1f}M") + " full-turn steps/s"),
        ("bear-off table", f"build {low(pick(cpu, 'test_build')):.2f} s, "
                           f"{ns_per(pick(cpu, 'test_expected_turns_batch')):.1f} ns per lookup"),
        ("evaluator forward pass, contact afterstates (shipped nets)",
         both(lambda v: f"{forward[v] / 1e6:.1f}M") + " evaluations/s"),
        ("`Position.legal_moves`, short contact, one call", f"{legal['extra_info']['us_per_call_min']:.1f} us"),
        ("`rank(ply=0)` of a 20-play roll", f"{rank['extra_info']['us_per_call_min']:.1f} us"),
        ("0-ply cube decision (`cube.decide`, given probabilities)",
         f"{ns_per(pick(cpu, 'test_decide_with_probabilities')) / 1e3:.1f} us"),
    ]


def markdown(table: list[tuple[str, str]], targets: bool = False) -> str:
    """The rows as a Markdown table (`targets`: with each row's target between the two columns)."""
    if targets:
        return "\n".join(["| what | target | measured |", "|---|---|---|",
                          *(f"| {what} | {TARGETS.get(what, '')} | {value} |" for what, value in table)])
    return "\n".join(["| what | measured |", "|---|---|", *(f"| {what} | {value} |" for what, value in table)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.table", description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path, help="keep the CPU-time run's pytest-benchmark JSON here")
    parser.add_argument("--targets", action="store_true", help="also each row's target (docs/performance.md)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        cpu = run(CPU, "time.process_time", args.json or Path(tmp) / "cpu.json")
        wall = run(WALL, None, Path(tmp) / "wall.json")
    print(markdown(rows(cpu, wall), args.targets))
    return 0


if __name__ == "__main__":
    sys.exit(main())
