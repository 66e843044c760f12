"""Cube action agreement of nardy with GNU Backgammon (`gnubg -t`, Debian's), each with its own
net: the nets differ, so this is a figure, not a test.

    python benchmarks/cube_agreement.py                    # 0 ply, the archived matches' positions
    python benchmarks/cube_agreement.py --real             # and the bglab human matches' positions
    python benchmarks/cube_agreement.py --gnubg-matches 12 # and those of 12 matches gnubg plays itself
    python benchmarks/cube_agreement.py --plies 1 --source selfplay --positions 300

`--source archives`: the positions of the real matches in tests/data/archives (gnubg's and
server match files), each distinct one before a roll: at money (a centred cube, Jacoby) and
at its own score and cube where the side on roll may double there; `--real` adds the positions
of tests/data/bglab/positions.txt (human matches on Backgammon Studio, as gnubg's text exports
list them; see tests/data/README.md), taken the same way; `--gnubg-matches N` adds N
seeded 7-point matches that gnubg plays against itself (as the archives' gnubg exports are). `--source selfplay`: positions of seeded random short nardy self-play
(as tests/test_cube_gnubg.py), each at money (Jacoby) and at 7-point 2-4. gnubg gives its
proper cube action at `--plies`; nardy's `decide(..., ply=plies)` its own. Printed: how many
decisions, the share where the actions agree, and the shares where the double (double or not)
and the answer (take or pass) agree.
"""

from __future__ import annotations

import argparse
import importlib
import random
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Iterator

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent / "tests" / "oracle"))

from nardy import Color, Position, Rules  # noqa: E402
from nardy.formats import matfile  # noqa: E402
from nardy.evaluation.analysis import cube_turns  # noqa: E402
from nardy.evaluation.cube import can_double, decide  # noqa: E402
from nardy.formats.ids import MatchState, match_id, parse_match_id, position_id  # noqa: E402
from nardy.position import position_from_id  # noqa: E402

ARCHIVES = HERE.parent / "tests" / "data" / "archives"
REAL_IDS = HERE.parent / "tests" / "data" / "bglab" / "positions.txt"
SEED = 20261203
MONEY = MatchState(jacoby=True)


GNUBG_MATCH = """set display off
set seed {seed}
set player 0 gnubg
set player 1 gnubg
new match 7
export match mat {path}
"""


def gnubg_matches(count: int, folder: Path) -> list[Path]:
    """`count` seeded 7-point matches of gnubg against itself (its default players), as .mat."""
    oracle = importlib.import_module("gnubg_cube")
    paths = [folder / f"gnubg-{seed}.mat" for seed in range(1, count + 1)]

    def play(path: Path) -> None:
        subprocess.run([oracle.program(), "-t", "-q"], input=GNUBG_MATCH.format(seed=path.stem[6:], path=path),
                       capture_output=True, text=True, timeout=600, check=True)

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(play, paths))
    return paths


def from_archives(paths: list[Path], seen: set[tuple[object, ...]]) -> Iterator[tuple[Position, MatchState]]:
    """Every distinct position of the short nardy matches in `paths` (read leniently) before a
    roll, at money (a centred cube, Jacoby), and at its own score and cube where the side on
    roll could double there (`seen`: the (board, side, state) keys already taken)."""
    for path in paths:
        record = matfile.load(path, strict=False)
        for number, game in enumerate(record.games, 1):
            for turn in cube_turns(game, number):
                for state in ((turn.state,) if turn.decision_possible else ()) + (MONEY,):
                    key = (turn.position.view(), turn.position.turn, state)
                    if key not in seen:
                        seen.add(key)
                        yield turn.position, replace(state, on_roll=turn.state.on_roll, turn=turn.state.on_roll)


def from_ids(path: Path, seen: set[tuple[object, ...]]) -> Iterator[tuple[Position, MatchState]]:
    """Every distinct position of a list of gnubg "Position ID:Match ID" lines (the match IDs
    with the dice rolled) before its roll, taken as `from_archives` takes them."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        text, mid = line.strip().split(":")
        state = replace(parse_match_id(mid), dice=None)
        position = position_from_id(text, Color.WHITE if state.on_roll == 1 else Color.BLACK)
        for s in ((state,) if can_double(state) else ()) + (MONEY,):
            key = (position.view(), position.turn, s)
            if key not in seen:
                seen.add(key)
                yield position, replace(s, on_roll=state.on_roll, turn=state.on_roll)


def from_selfplay(count: int) -> Iterator[tuple[Position, MatchState]]:
    rng = random.Random(SEED)
    p, found = Position.start("short"), 0
    while found < count:
        if p.is_game_over():
            p = Position.start("short")
            continue
        if rng.random() < 0.2:
            found += 1
            white = p if p.turn is Color.WHITE else Position(p.view(), "short", Color.WHITE)
            yield white, MatchState(jacoby=True)
            yield white, MatchState(match_length=7, score=(2, 4))
        p = rng.choice(p.children((rng.randint(1, 6), rng.randint(1, 6)), Rules("short")))


def parts(action: str) -> tuple[bool, bool]:
    """(doubles, the opponent takes) of gnubg's words."""
    words = action.lower()
    doubles = not (words.startswith("no ") or words.startswith("too good") or words.startswith("never"))
    return doubles, "take" in words


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plies", type=int, default=0, choices=(0, 1, 2))
    parser.add_argument("--source", choices=("archives", "selfplay"), default="archives")
    parser.add_argument("--positions", type=int, default=300, help="self-play positions (two decisions each)")
    parser.add_argument("--real", action="store_true",
                        help="with --source archives: add the human matches' positions of tests/data/bglab")
    parser.add_argument("--gnubg-matches", type=int, default=0,
                        help="with --source archives: add this many seeded 7-point matches of gnubg against itself")
    args = parser.parse_args()
    oracle = importlib.import_module("gnubg_cube")
    if oracle.program() is None:
        sys.exit("GNU Backgammon's program (gnubg) is not installed")
    with tempfile.TemporaryDirectory() as folder:
        paths = sorted(ARCHIVES.glob("*.mat")) + gnubg_matches(args.gnubg_matches, Path(folder))
        seen: set[tuple[object, ...]] = set()
        if args.source == "archives":
            items = list(from_archives(paths, seen)) + (list(from_ids(REAL_IDS, seen)) if args.real else [])
        else:
            items = list(from_selfplay(args.positions))
    answers = oracle.analyse([(position_id(p), match_id(s), False) for p, s in items], plies=args.plies)
    decisions = same = same_double = same_answer = 0
    positions = set()
    for (position, state), theirs in zip(items, answers):
        if theirs.action is None:
            continue
        positions.add((position.view(), position.turn))
        ours = decide(position, state, ply=args.plies).action
        decisions += 1
        same += ours == theirs.action
        (d0, t0), (d1, t1) = parts(ours), parts(theirs.action)
        same_double += d0 == d1
        same_answer += t0 == t1
    real = " + bglab" if args.real else ""
    print(f"{args.source}{real} (+{args.gnubg_matches} gnubg matches), {args.plies} ply: {decisions} decisions of {len(positions)} positions; the same action in {same / decisions:.1%}, "
          f"the same double in {same_double / decisions:.1%}, the same take/pass in {same_answer / decisions:.1%}")


if __name__ == "__main__":
    main()
