"""Score checker-play judges on the project's rolled-out decisions (benchmarks/data/decisions-*.jsonl.gz).

    python -m benchmarks.error_rate                       # both variants, ply 0/1/2 of the shipped nets
    python -m benchmarks.error_rate short --plies 0 1 --limit 500 --judges net pubeval gnubg
    python -m benchmarks.error_rate --nets OLD-short.npz OLD-long.npz   # also other nets (an earlier shipped one)

For every decision each judge picks a play; its loss is the best candidate's rolled-out equity
minus the played one's (a play that was not rolled out: the conservative loss stored with it,
see benchmarks/make_decisions.py). Reported per phase (contact, race): the mean loss per move in
millipoints (thousandths of a point) and the share of moves losing more than 0.04, 0.08 and 0.16
(gnubg's doubtful, bad and very bad). Judges: `net` (the shipped net at each of `--plies`, through
`nardy.evaluation.net.rank`), the nets of `--nets` (files `Net.save` wrote, each on its own variant's
decisions) at the same plies, and for short nardy `pubeval` and `gnubg` (GNU Backgammon's 0-ply), both
from the `gnubg-nn` wheel when it is installed (an oracle only: its choices are never stored).
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from nardy import Position, Rules
from nardy.evaluation.net import Net, NetSet, rank

DATA = Path(__file__).parent / "data"
THRESHOLDS = (0.04, 0.08, 0.16)
PHASES = ("contact", "race")

Chooser = Callable[[Position, tuple[int, int], list[Any], list[bytes]], int]


@dataclass(frozen=True)
class Decision:
    """A rolled-out decision: the position, the roll, and the loss of each of its plays (by text)."""

    index: int
    phase: str
    position: Position
    dice: tuple[int, int]
    losses: dict[str, float]
    rolled: frozenset[str]   # the plays rolled out (the others' losses are conservative estimates)
    se: float            # the largest standard error of a candidate's difference from the best


def path_of(variant: str, data: Path = DATA, check: bool = False) -> Path:
    """The benchmark file of a variant (`check`: its untruncated check's)."""
    return data / f"decisions-{variant}{'-full' if check else ''}.jsonl.gz"


def header(variant: str, path: Path | None = None) -> dict[str, Any]:
    """The benchmark file's header (its first line, '# ' and JSON)."""
    with gzip.open(path or path_of(variant), "rt") as f:
        return json.loads(f.readline()[2:])


def load(variant: str, path: Path | None = None, limit: int | None = None, only: set[int] | None = None
         ) -> list[Decision]:
    """The first `limit` decisions (all by default; `only`: those of these indices) of a variant's benchmark file."""
    rules = Rules(variant)
    out = []
    with gzip.open(path or path_of(variant), "rt") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            if limit is not None and len(out) >= limit:
                break
            r = json.loads(line)
            if only is not None and r["index"] not in only:
                continue
            best = r["plays"][0][1]
            losses = {text: best - eq for text, eq, _, _ in r["plays"]}
            losses.update({text: loss for text, loss in r["rest"]})
            out.append(Decision(r["index"], r["phase"], Position.from_id(r["id"], rules=rules), tuple(r["dice"]), losses,
                                frozenset(p[0] for p in r["plays"]), max(d for _, _, _, d in r["plays"])))
    return out


def net_chooser(ply: int, net: Net | NetSet | None = None) -> Chooser:
    """The play `rank` puts first at `ply`."""
    def choose(position: Position, dice: tuple[int, int], moves: list[Any], children: list[bytes]) -> int:
        best = str(rank(position, dice, ply=ply, net=net)[0][0])
        return [str(m) for m in moves].index(best)
    return choose


def gnubg_chooser(kind: str) -> Chooser:
    """pubeval's or GNU Backgammon's 0-ply play (the `gnubg-nn` wheel; ImportError without it)."""
    import gnubg_nn  # noqa: F401 - ImportError here, not at the first move, without the wheel

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "oracle"))
    from gnubg_oracle import best_play
    from nardy.evaluation.analysis import board_after

    def choose(position: Position, dice: tuple[int, int], moves: list[Any], children: list[bytes]) -> int:
        view = list(position.view())
        played = np.array(board_after(view, best_play(kind, view, *dice)), np.int8).tobytes()
        return children.index(played)
    return choose


def score(decisions: list[Decision], choose: Chooser) -> dict[str, dict[str, float]]:
    """Per phase and "all": moves, mean loss (mp), and the share of losses above each threshold."""
    losses: dict[str, list[float]] = {p: [] for p in PHASES}
    for d in decisions:
        moves, children = d.position._plays(d.dice, None, None)
        texts = [str(m) for m in moves]
        missing = set(d.losses) - set(texts)
        if missing:
            raise ValueError(f"{d.position.id()} {d.dice}: stored plays {sorted(missing)} are not legal plays")
        picked = texts[choose(d.position, d.dice, moves, children)]
        losses[d.phase].append(d.losses[picked])
    losses["all"] = [x for p in PHASES for x in losses[p]]
    out = {}
    for phase, xs in losses.items():
        a = np.array(xs)
        out[phase] = {"moves": len(a), "mp": 1000 * float(a.mean()) if len(a) else float("nan"),
                      **{f">{t}": float((a > t).mean()) if len(a) else float("nan") for t in THRESHOLDS}}
    return out


def marks(decisions: list[Decision], ply: int, mark: float = THRESHOLDS[0]) -> dict[str, float]:
    """How far the marks of an analysis at `ply` can be trusted: every rolled-out play of every
    decision is judged as `nardy analyse` judges a move played (its loss against the best play,
    both at `ply`: `rank(..., include=play)`) and marked if the loss reaches `mark`; the rollout
    marks it if its rolled-out loss does. Returns the plays, the share of the ply's marks the
    rollout agrees with (precision) and the share of the rollout's marks the ply finds (recall)."""
    both = ply_only = rollout_only = plays = 0
    for d in decisions:
        moves, _ = d.position._plays(d.dice, None, None)
        for move in (m for m in moves if str(m) in d.rolled):
            ranked = rank(d.position, d.dice, ply=ply, include=move)
            mine = ranked[0][1] - next(e for m, e, _ in ranked if m == move) >= mark - 1e-12
            theirs = d.losses[str(move)] >= mark - 1e-12
            plays += 1
            both += mine and theirs
            ply_only += mine and not theirs
            rollout_only += theirs and not mine
    return {"plays": plays, "precision": both / max(both + ply_only, 1), "recall": both / max(both + rollout_only, 1),
            "ply marks": both + ply_only, "rollout marks": both + rollout_only}


def filter_misses(decisions: list[Decision], keep: int, window: float) -> dict[str, float]:
    """How often a move filter (the best `keep` 0-ply plays within `window` of the best, as
    `nardy.evaluation.net.rank` prunes before its lookahead) drops the rolled-out best play: the share of
    decisions, the share where every play kept loses more than 0.02 by the rollouts, and the
    mean number of plays kept."""
    missed = costly = kept = 0
    for d in decisions:
        ranked = rank(d.position, d.dice)
        best = ranked[0][1]
        chosen = [str(m) for m, e, _ in ranked[:keep] if e >= best - window]
        kept += len(chosen)
        loss = min(d.losses[m] if m in d.losses else 1.0 for m in chosen)
        missed += loss > 0
        costly += loss > 0.02
    n = max(len(decisions), 1)
    return {"missed": missed / n, "costly": costly / n, "kept": kept / n}


def judges(variant: str, plies: list[int], names: list[str], nets: tuple[Path, ...] = ()) -> Iterator[tuple[str, Chooser]]:
    for path in nets:
        other = Net.load(path)
        if other.variant.value != variant:
            continue  # each net is scored on its own variant's decisions
        for ply in plies:
            yield f"{path.name} {ply}-ply", net_chooser(ply, other)
    for name in names:
        if name == "net":
            for ply in plies:
                yield f"net {ply}-ply", net_chooser(ply)
        elif variant == "short":
            try:
                yield {"pubeval": "pubeval", "gnubg": "gnubg 0-ply"}[name], gnubg_chooser(name)
            except ImportError:
                print(f"({name}: the gnubg-nn wheel is not installed)", file=sys.stderr)


def check(variant: str, data: Path, plies: list[int]) -> None:
    """The truncated rollouts against the untruncated ones of the same decisions (the check file)."""
    untruncated = load(variant, path_of(variant, data, check=True))
    truncated = {d.index: d for d in load(variant, path_of(variant, data), only={d.index for d in untruncated})}
    pairs = [(truncated[d.index], d) for d in untruncated]
    same = np.mean([min(t.losses, key=t.losses.get) == min(u.losses, key=u.losses.get) for t, u in pairs])
    cost = np.mean([u.losses[min(t.losses, key=t.losses.get)] for t, u in pairs])
    print(f"\n{variant} nardy, {len(pairs)} contact decisions rolled out to the end: the truncated rollouts' best "
          f"play is the untruncated best in {100 * same:.0f}%, losing {1000 * cost:.1f} mp on average by the "
          f"untruncated rollouts (their mean se of a difference {np.mean([u.se for _, u in pairs]):.4f})")
    print("| judge | truncated mp | untruncated mp | truncated >0.04 | untruncated >0.04 |\n|---|---|---|---|---|")
    for name, choose in judges(variant, plies, ["net"]):
        a = score([t for t, _ in pairs], choose)["contact"]
        b = score([u for _, u in pairs], choose)["contact"]
        print(f"| {name} | {a['mp']:.1f} | {b['mp']:.1f} | {100 * a['>0.04']:.1f}% | {100 * b['>0.04']:.1f}% |",
              flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="*", metavar="variant", help="short, long (default: both)")
    parser.add_argument("--plies", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--judges", nargs="*", choices=["net", "pubeval", "gnubg"], default=["net", "pubeval", "gnubg"])
    parser.add_argument("--nets", type=Path, nargs="*", default=[], metavar="NET",
                        help="also score these nets (.npz files, e.g. an earlier shipped net) at each ply")
    parser.add_argument("--data", type=Path, default=DATA, help="the directory of the decisions-*.jsonl.gz files")
    parser.add_argument("--marks", action="store_true",
                        help="also the agreement of each ply's doubtful-or-worse marks with the rollouts'")
    parser.add_argument("--filters", action="store_true",
                        help="also how often move filters of a few widths drop the rolled-out best play")
    parser.add_argument("--check", action="store_true",
                        help="only compare the truncated rollouts with the untruncated check (decisions-*-full)")
    parser.add_argument("--limit", type=int, default=None, help="score the first LIMIT decisions of each file")
    args = parser.parse_args(argv)
    if not set(args.variants) <= {"short", "long"}:
        parser.error(f"the variants are short and long, got {' '.join(args.variants)}")
    for variant in args.variants or ["short", "long"]:
        if args.check:
            check(variant, args.data, args.plies)
            continue
        decisions = load(variant, path_of(variant, args.data), limit=args.limit)
        info = header(variant, path_of(variant, args.data))
        counts = {p: sum(d.phase == p for d in decisions) for p in PHASES}
        games = " or ".join(sorted(info["games"], key=int, reverse=True))
        print(f"\n{variant} nardy: {len(decisions)} decisions ({counts['contact']} contact, {counts['race']} race), "
              f"{games} games a candidate truncated at {info['horizon']} plies; "
              f"mean se of a difference {np.mean([d.se for d in decisions]):.4f}")
        print(f"| judge | {' | '.join(f'{p} mp' for p in PHASES)} | contact >0.04 / >0.08 / >0.16 "
              f"| race >0.04 / >0.08 / >0.16 | seconds |")
        print("|---|---|---|---|---|---|")
        for name, choose in judges(variant, args.plies, args.judges, tuple(args.nets)):
            start = time.perf_counter()
            s = score(decisions, choose)
            rates = [" / ".join(f"{100 * s[p][f'>{t}']:.1f}%" for t in THRESHOLDS) for p in PHASES]
            print(f"| {name} | {s['contact']['mp']:.1f} | {s['race']['mp']:.1f} | {rates[0]} | {rates[1]} "
                  f"| {time.perf_counter() - start:.0f} |", flush=True)
        if args.filters:
            print("\n| move filter | best play dropped | and every play kept loses > 0.02 | plays kept |\n"
                  "|---|---|---|---|")
            for keep, window in ((8, 0.16), (16, 0.16), (16, 0.24)):
                f = filter_misses(decisions, keep, window)
                print(f"| {keep} within {window} | {100 * f['missed']:.2f}% | {100 * f['costly']:.2f}% "
                      f"| {f['kept']:.2f} |", flush=True)
        if args.marks:
            print("\n| analysis | plays | marked (rollout's) | rollout agrees | marks found |\n|---|---|---|---|---|")
            for ply in args.plies:
                m = marks(decisions, ply)
                print(f"| {ply}-ply | {m['plays']} | {m['ply marks']} ({m['rollout marks']}) | "
                      f"{100 * m['precision']:.0f}% | {100 * m['recall']:.0f}% |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
