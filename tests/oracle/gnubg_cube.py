"""GNU Backgammon's program (`gnubg -t`, Debian's) as an oracle of cube decisions (0 ply, or
`plies` 1 or 2 for its n-ply cubeful look-ahead).

`analyse(items)` runs one gnubg process over many (position ID, match ID) pairs: for each it sets
the match and the board, then `eval` (the evaluator class, the five cubeless probabilities and
the cubeful equity) and `hint` before the roll (the three cubeful equities and the proper cube
action, or none when the side on roll cannot double). Six decimals are asked for
(`set output digits 6`), match equities as equivalent-to-money equity (`set output mwc off`).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

SETUP = """set display off
set player 0 human
set player 1 human
set evaluation cubedecision evaluation plies {plies}
set evaluation chequerplay evaluation plies {plies}
set output digits 6
set output mwc off
set jacoby on
set beavers 0
new session
"""


def program() -> str | None:
    """The gnubg program, if installed (Debian puts it in /usr/games)."""
    found = shutil.which("gnubg")
    if found:
        return found
    return "/usr/games/gnubg" if os.access("/usr/games/gnubg", os.X_OK) else None


@dataclass
class Analysis:
    probabilities: tuple[float, float, float, float, float]
    evaluator: str | None = None  # with `eval`
    cubeful: float | None = None  # with `eval`
    no_double: float | None = None  # the hint's (None when the side on roll cannot double)
    double_take: float | None = None
    double_pass: float | None = None
    action: str | None = None


_NUMBER = r"[+-]?\d+\.\d+"
_MARK = "show jacoby\n"
_MARKED = "New money sessions are played"


def _parse(chunk: str) -> Analysis:
    result = Analysis((0.0,) * 5)  # type: ignore[arg-type]
    evaluator = re.search(r"Evaluator:\s*(.+)", chunk)
    if evaluator:
        static = re.search(r"static:\s+((?:" + _NUMBER + r"\s+){7})", chunk)[1].split()
        result.evaluator, result.cubeful = evaluator[1].strip(), float(static[6])
        result.probabilities = tuple(float(v) for v in static[:5])  # type: ignore[assignment]
    cube = chunk.split("Cube analysis", 1)
    if len(cube) == 2:
        line = re.search(r"^\s+(" + _NUMBER + r") (" + _NUMBER + r") (" + _NUMBER + r") - " + _NUMBER
                         + r" (" + _NUMBER + r") (" + _NUMBER + ")", cube[1], re.M)
        result.probabilities = tuple(float(v) for v in line.groups())  # type: ignore[assignment]
        for label, value in re.findall(r"^\d\. ([A-Za-z ,]+?)\s+(" + _NUMBER + ")", cube[1], re.M)[:3]:
            if label.startswith("No "):
                result.no_double = float(value)
            elif label.endswith("take"):
                result.double_take = float(value)
            else:
                result.double_pass = float(value)
        result.action = re.search(r"Proper cube action: ([^(\n]+)", cube[1])[1].strip()
    return result


def _run(items: list[tuple[str, str, bool]], gnubg: str, plies: int = 0) -> list[Analysis]:
    lines = [SETUP.format(plies=plies), _MARK]
    for position_id, match_id, with_eval in items:
        lines.append(f"set matchid {match_id}\nset board {position_id}\n{'eval' if with_eval else ''}\nhint\n{_MARK}")
    with tempfile.TemporaryDirectory() as home:   # (its own ~/.gnubg: no process shares another's files)
        done = subprocess.run([gnubg, "-t", "-q"], input="".join(lines), capture_output=True,
                              text=True, timeout=600, env=dict(os.environ, HOME=home))
    if done.returncode:
        raise RuntimeError(f"gnubg exited with status {done.returncode}:\n{done.stderr[-2000:]}{done.stdout[-2000:]}")
    out = done.stdout
    chunks = out.split(_MARKED)[1:-1]
    if len(chunks) != len(items):
        raise RuntimeError(f"gnubg answered {len(chunks)} of {len(items)} positions:\n{out[-2000:]}")
    return [_parse(chunk) for chunk in chunks]


def analyse(items: list[tuple[str, str, bool]], gnubg: str | None = None, processes: int = 8,
            plies: int = 0) -> list[Analysis]:
    """gnubg's analysis of each (position ID, match ID, with `eval`?), in order: always `hint`,
    and `eval` too when asked. The items are shared among a few gnubg processes run at once:
    gnubg spends most of each command waiting, not computing (about 8 ms a hint, 0.1 ms of CPU)."""
    program_path = gnubg or program()
    size = -(-len(items) // processes)
    parts = [items[i:i + size] for i in range(0, len(items), size)]
    with ThreadPoolExecutor(len(parts)) as pool:
        return [a for part in pool.map(lambda part: _run(part, program_path, plies), parts) for a in part]
