"""Teach a net what its own lookahead sees: self-play positions labelled by an n-ply evaluation.

    python -m nardy.evaluation.distill short --positions 2000000 --ply 1 --seed 1 --out short.npz
    python -m nardy.evaluation.distill short --positions 1000000 --rollouts 36 --horizon 10 --out short.npz
    python -m nardy.evaluation.distill short --positions 1000000 --phase race --out short-race.npz

TD self-play (`nardy.evaluation.training`) fits a net to the net's own later values, so its 0-ply
errors become its targets and it stalls. Here a teacher (the shipped judge, `default_judge`: a
net per phase, unless `--teacher` names a net) labels positions with its probabilities `--ply` rolls ahead
(`net.lookahead`: each of the other side's 21 rolls answered by its best play, exact where the
game is over or the bear-off table answers), and a student (a copy of the teacher's net of the phase unless
`--start`, or an untrained net of `--hidden` units; `--widen HIDDEN` makes the start wider
first, `Net.widened`) takes Adam steps on the cross-entropy of its five outputs against those
labels: the 0-ply net learns what its search knows, at 0-ply's cost. With `--rollouts TRIALS` the labels
are instead the mean outcomes of TRIALS games of the teacher's 0-ply play from each position
(`rollout.rollout_boards`: the first two rolls stratified), cut after `--horizon` plies
(default 10; 0: played out) where the teacher's 0-ply probabilities count: noisy but unbiased
for the teacher's play, and they see further than a lookahead.

The positions come from the teacher's greedy 0-ply self-play, a random play at a share
`--explore` of the moves (the dice alone explore too little); positions the net never judges
(games over, the bear-off table's) are left out; with `--phase race` (or `contact`) only the
positions of that phase are kept and the student becomes a net of that phase, one of a
`nardy.evaluation.net.NetSet` (`--phase early` or `late`: the contact positions are labelled, as
for `contact`, and those of the phase fitted, so one `--data` file serves both). A share `--holdout` is kept aside and its loss
reported after every epoch (a line of `--log`). `--data FILE` keeps the labelled positions, made
once: a later command with the same file fits again without labelling. The net is written after
every epoch, its meta holding this command and, under "previous", the commands that made the
start net, oldest first (under "teacher" those that made the teacher, when it is another net).
Seeded: the same command gives the same net on one machine.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
import zipfile
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np
import numpy.typing as npt

from .. import batch, _backend as engine
from ..errors import InvalidArgumentError, check_whole
from ..files import check_writable
from ..play.env import VectorEnv
from ..play.threads import map_in_order
from ..rules import Rules
from .net import PHASES, Net, NetSet, default_judge, evaluate_boards, finished_rows, home_rows, lookahead, phase_rows, \
    raw_equity, swap_sides
from .rollout import rollout_boards
from .training import Adam, check_run_files, gradients, net_of, one_blas_thread, params_of, run_reported

Floats = npt.NDArray[np.float64]
Boards = npt.NDArray[np.int8]
POSITION_BYTES = 26 + 2 * 8 * 5   # a labelled position held: its board, its label and the fit's copy
WIDEN_NOISE = 0.01   # `--widen`: the noise that lets the copies of a unit part (a share of the mean |w1|)
Progress = Callable[[str, int, int], None]


def judged_by_net(boards: Boards, rules: Rules) -> npt.NDArray[np.bool_]:
    """Rows (side on roll) whose value comes from the net: not over, not in the bear-off table."""
    return ~finished_rows(boards) & ~home_rows(boards, rules.variant)


def in_phase(boards: Boards, rules: Rules, phase: str) -> npt.NDArray[np.bool_]:
    """Rows (side on roll) of `phase`: "any" (all), "contact", "race", "early" or "late"
    (`net.phase_rows`)."""
    if phase not in PHASES:
        raise InvalidArgumentError(f"a phase is one of {', '.join(PHASES)}, got {phase!r}")
    if phase == "any":
        return np.ones(len(boards), np.bool_)
    which = phase_rows(boards, rules.variant, late=phase in ("early", "late"))
    found: npt.NDArray[np.bool_] = {"contact": which != 1, "race": which == 1, "early": which == 0,
                                    "late": which == 2}[phase]
    return found


def net_of_phase(teacher: Net | NetSet, phase: str) -> Net:
    """The net a student of `phase` starts from: the teacher, or of a set its net of that phase
    (its contact net for "any" and "contact", for "late" where it has no late net)."""
    if isinstance(teacher, Net):
        return teacher
    if phase == "race":
        return teacher.race
    return teacher.late if phase == "late" and teacher.late is not None else teacher.contact


def labelled_phase(phase: str) -> str:
    """The phase whose positions are labelled for a net of `phase`: "contact" for "early" and
    "late" (one file of labels serves both), else the phase itself."""
    return "contact" if phase in ("early", "late") else phase


def self_play(rules: Rules, net: Net | NetSet, count: int, *, seed: int, explore: float = 0.05, parallel: int = 256,
              phase: str = "any", progress: Progress | None = None) -> Boards:
    """`count` positions (side on roll) of the net's greedy self-play, a random play at a share
    `explore` of the moves, only those `judged_by_net` and of `phase`, in the order they were met."""
    env = VectorEnv(rules, parallel, seed=seed)
    env.reset()
    rng = np.random.default_rng([seed, 1])
    found: list[Boards] = []
    have = 0
    while have < count:
        theirs = evaluate_boards(np.asarray(env.afterstates), rules, net, after=True)
        actions = np.where(rng.random(parallel) < explore, env.sample_actions(), env.best_actions(-raw_equity(theirs)))
        env.step(actions)
        boards = np.asarray(env.boards)
        kept = boards[judged_by_net(boards, rules) & in_phase(boards, rules, phase)].copy()
        found.append(kept)
        have += len(kept)
        if progress:
            progress("self-play", min(have, count), count)
    return np.concatenate(found)[:count]


def label(boards: Boards, rules: Rules, teacher: Net | NetSet, ply: int, *, chunk: int = 1024, threads: int = 1,
          progress: Progress | None = None) -> Floats:
    """The teacher's probabilities of each position (side on roll) `ply` (>= 1) rolls ahead,
    chunks of `chunk` positions on `threads` threads (the same answer for any number)."""
    check_whole(ply, "ply (rolls ahead, >= 1)", 1)
    check_whole(threads, "threads", 1)
    out = np.empty((len(boards), 5))
    starts = range(0, len(boards), chunk)

    def one(lo: int) -> int:
        part = boards[lo:lo + chunk]
        out[lo:lo + chunk] = swap_sides(lookahead(batch.flip(part, rules.variant), rules, teacher, ply))
        return lo + len(part)

    def done(end: int) -> None:
        if progress:
            progress("label", end, len(boards))

    map_in_order(one, starts, threads, done)
    return out


def fit(net: Net, boards: Boards, targets: Floats, *, epochs: int, lr: float, lr_end: float | None = None,
        batch_size: int = 256, holdout: float = 0.02, seed: int = 1,
        epoch_done: Callable[[int, Net, float, float], None] | None = None,
        progress: Progress | None = None) -> Net:
    """`net` fitted to `targets` (five probabilities per board) over `epochs` passes in a seeded
    order, a share `holdout` kept aside; `epoch_done(epoch, net, train_loss, holdout_loss)` after each."""
    if not 0 <= holdout < 1 or epochs < 1 or batch_size < 1:
        raise InvalidArgumentError(f"0 <= holdout < 1, epochs and batch size >= 1; got {holdout}, {epochs}, {batch_size}")
    kept = held_out(len(boards), holdout)
    rng = np.random.default_rng([seed, 2])
    order = rng.permutation(len(boards))
    test, train = order[:kept], order[kept:]
    params = params_of(net)
    adam = Adam(params, lr)
    steps = epochs * -(-len(train) // batch_size)
    for epoch in range(1, epochs + 1):
        rng.shuffle(train)
        losses = []
        for lo in range(0, len(train), batch_size):
            if lr_end is not None:
                adam.lr = lr * (lr_end / lr) ** (adam.t / steps)
            part = train[lo:lo + batch_size]
            loss, grads = gradients(params, net.inputs_of(boards[part]).astype(np.float64), targets[part])
            adam.step(grads)
            losses.append(loss)
            if progress and len(losses) % 200 == 0:
                progress(f"epoch {epoch}", lo + len(part), len(train))
        net = net_of(net, params)
        if epoch_done:
            epoch_done(epoch, net, float(np.mean(losses)), held_out_loss(net, boards[test], targets[test]))
    return net


def held_out(count: int, holdout: float) -> int:
    """How many of `count` positions a share `holdout` keeps aside; InvalidArgumentError if that
    leaves none to fit."""
    kept = int(round(count * holdout))
    if kept >= count:
        raise InvalidArgumentError(f"a holdout of {holdout} keeps all {count:,} positions aside: none is left to fit")
    return kept


def held_out_loss(net: Net, boards: Boards, targets: Floats) -> float:
    """The mean cross-entropy of the net's outputs against `targets` (NaN for no rows)."""
    if len(boards) == 0:
        return float("nan")
    params = params_of(net)
    total = 0.0
    for lo in range(0, len(boards), 4096):
        rows = slice(lo, lo + 4096)
        total += gradients(params, net.inputs_of(boards[rows]).astype(np.float64), targets[rows])[0] * len(boards[rows])
    return total / len(boards)


def rolled_out(boards: Boards, rules: Rules, teacher: Net | NetSet, trials: int, horizon: int | None, *, seed: int,
               threads: int = 1, progress: Progress | None = None) -> Floats:
    """Each position's (side on roll) mean outcome over `trials` games of the teacher's 0-ply
    play, cut after `horizon` plies (None: played out), on `threads` threads (the same answer)."""
    def games_done(done: int, total: int) -> None:
        if progress:
            progress("roll out", done, total)

    return rollout_boards(boards, trials, rules=rules, net=teacher, horizon=horizon, seed=seed, threads=threads,
                          progress=games_done)


def labelled(path: Path | None, rules: Rules, teacher: Net | NetSet, count: int, ply: int, *, seed: int, explore: float,
             threads: int = 1, trials: int = 0, horizon: int | None = None, phase: str = "any",
             progress: Progress | None = None) -> tuple[Boards, Floats]:
    """The labelled positions of `phase`, by the teacher's `ply` lookahead, or with `trials`
    its rollouts cut after `horizon` plies: `count` positions of `labelled_phase(phase)` read
    from `path` when it exists (made by the same settings and teacher weights), else made and,
    with a path, written there; then those of `phase` among them."""
    made = labelled_phase(phase)
    boards, targets = _labelled(path, rules, teacher, count, ply, seed=seed, explore=explore, threads=threads,
                                trials=trials, horizon=horizon, phase=made, progress=progress)
    if made == phase:
        return boards, targets
    kept = in_phase(boards, rules, phase)
    return boards[kept], targets[kept]


def _labelled(path: Path | None, rules: Rules, teacher: Net | NetSet, count: int, ply: int, *, seed: int, explore: float,
              threads: int, trials: int, horizon: int | None, phase: str,
              progress: Progress | None) -> tuple[Boards, Floats]:
    nets = teacher.nets if isinstance(teacher, NetSet) else (teacher,)
    weights = hashlib.sha256(b"".join(np.ascontiguousarray(a).tobytes() for net in nets
                                      for a in (net.w1, net.b1, net.w2, net.b2)))
    settings: dict[str, Any] = {"variant": rules.variant.value, "positions": count, "ply": ply, "seed": seed,
                                "explore": explore, "teacher": weights.hexdigest()}
    if trials:
        settings.update(ply=0, trials=trials, horizon=horizon)
    if phase != "any":
        settings["phase"] = phase
    if path is not None and path.exists():
        try:
            with np.load(path) as data:
                stored = json.loads(str(data["settings"]))
                boards, targets = data["boards"], data["targets"]
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
            raise InvalidArgumentError(f"{path}: not a file of labelled positions ({exc})") from None
        if stored != settings:
            raise InvalidArgumentError(f"{path} holds positions made by other settings: {stored}, not {settings}")
        if (boards.dtype != np.int8 or boards.shape != (count, 26) or targets.shape != (count, 5)
                or not np.isfinite(targets).all()):
            raise InvalidArgumentError(f"{path}: not a file of labelled positions (boards {boards.dtype} "
                                       f"{boards.shape}, targets {targets.dtype} {targets.shape})")
        return boards, targets
    boards = self_play(rules, teacher, count, seed=seed, explore=explore, phase=phase, progress=progress)
    if trials:
        targets = rolled_out(boards, rules, teacher, trials, horizon, seed=seed, threads=threads, progress=progress)
    else:
        targets = label(boards, rules, teacher, ply, threads=threads, progress=progress)
    if path is not None:
        np.savez_compressed(path, settings=json.dumps(settings), boards=boards, targets=targets)
    return boards, targets


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m nardy.evaluation.distill", description=__doc__.split("\n\n")[0])
    parser.add_argument("variant", choices=["long", "short"])
    parser.add_argument("--positions", type=int, required=True, help="positions to label")
    parser.add_argument("--ply", type=int, help="the teacher's lookahead (rolls ahead, >= 1; default 1)")
    parser.add_argument("--rollouts", type=int, metavar="TRIALS",
                        help="label by TRIALS games of the teacher's play instead")
    parser.add_argument("--horizon", type=int,
                        help="with --rollouts: plies before the teacher judges (default 10; 0: none)")
    parser.add_argument("--teacher", type=Path, help="the labelling net (default: the shipped judge, a net per phase)")
    parser.add_argument("--start", type=Path, help="the net to fit (default: the teacher, or its net of --phase)")
    parser.add_argument("--hidden", type=int, help="fit an untrained net of this many hidden units instead (seeded)")
    parser.add_argument("--widen", type=int, metavar="HIDDEN",
                        help="widen the start net to HIDDEN units first (each unit copied, seeded noise; "
                             "`Net.widened`)")
    parser.add_argument("--phase", choices=PHASES, default="any",
                        help="label and fit only positions of this phase (the net's phase: one of a NetSet; early and "
                             "late label contact positions and fit their share; default any)")
    parser.add_argument("--explore", type=float, default=0.05, help="share of random plays in the self-play (default 0.05)")
    parser.add_argument("--epochs", type=int, default=4, help="passes over the positions (default 4)")
    parser.add_argument("--lr", type=float, default=3e-4, help="Adam's step size (default 3e-4)")
    parser.add_argument("--lr-end", type=float, help="the step size at the end (falling geometrically from --lr)")
    parser.add_argument("--batch-size", type=int, default=256, help="positions per Adam step (default 256)")
    parser.add_argument("--holdout", type=float, default=0.02, help="share of the positions kept aside (default 0.02)")
    parser.add_argument("--seed", type=int, default=1, help="the self-play's and the fit's seed (default 1)")
    parser.add_argument("--threads", type=int, default=1, help="threads labelling (the same labels for any number; default 1)")
    parser.add_argument("--data", type=Path, help="keep the labelled positions in this .npz (reused when it exists)")
    parser.add_argument("--out", type=Path, required=True, help="where to write the net (.npz)")
    parser.add_argument("--log", type=Path, help="JSON lines: each epoch's losses")
    args = parser.parse_args(argv)
    one_blas_thread()
    rules = Rules(args.variant)
    command = "python -m nardy.evaluation.distill " + " ".join(sys.argv[1:] if argv is None else argv)
    shown = [0.0]
    lineage: list[str] = []   # the commands that made the start net, oldest first
    taught_by: list[str] = []  # the commands that made the teacher, when it is not the start (a set: each other net's)

    terminal, last = sys.stderr.isatty(), [0.0]

    def progress(stage: str, done: int, total: int) -> None:
        """On a terminal one line redrawn every 2 s (`shown`: when); elsewhere a line a minute."""
        now = time.monotonic()
        if now - last[0] >= (2 if terminal else 60) or done >= total:
            last[0] = now
            if terminal:
                shown[0] = now
                print(f"\r{stage}: {done:>10,} / {total:,}   ", end="", file=sys.stderr, flush=True)
            else:
                print(f"{stage}: {done:,} / {total:,}", file=sys.stderr, flush=True)

    def epoch_done(epoch: int, net: Net, train_loss: float, test_loss: float) -> None:
        meta: dict[str, Any] = {"command": command, "epochs": epoch, "previous": lineage}
        if taught_by:
            meta["teacher"] = taught_by
        net.with_meta(meta).save(args.out)
        back = "\r" if terminal else ""
        print(f"{back}epoch {epoch}: loss {train_loss:.5f}, held out {test_loss:.5f}; wrote {args.out}", file=sys.stderr)
        if args.log:
            with open(args.log, "a") as f:
                held = None if test_loss != test_loss else test_loss   # (no holdout: NaN, not JSON)
                f.write(json.dumps({"epoch": epoch, "loss": train_loss, "holdout": held, "time": time.time()},
                                   allow_nan=False) + "\n")

    def body() -> None:
        check_whole(args.positions, "--positions", 1)
        need = args.positions * POSITION_BYTES
        engine.check_memory(need, f"--positions {args.positions:,} need {need:,} bytes", "label fewer positions")
        if args.rollouts is not None and args.ply is not None:
            raise InvalidArgumentError("--ply and --rollouts are two ways of labelling: give one")
        if args.rollouts is not None:
            check_whole(args.rollouts, "--rollouts (games per position)", 1)
            args.horizon = 10 if args.horizon is None else args.horizon
            check_whole(args.horizon, "--horizon (plies, 0: none)", 0)
        elif args.horizon is not None:
            raise InvalidArgumentError("--horizon cuts the rollouts of --rollouts: give both or neither")
        else:
            args.ply = 1 if args.ply is None else args.ply
            check_whole(args.ply, "--ply (rolls ahead)", 1)
        check_whole(args.epochs, "--epochs", 1)
        check_whole(args.threads, "--threads", 1)
        check_whole(args.batch_size, "--batch-size", 1)
        if args.hidden is not None and args.start:
            raise InvalidArgumentError("--start and --hidden are two starts: give one")
        if args.hidden is not None and args.widen is not None:
            raise InvalidArgumentError("--widen widens a trained start; --hidden starts untrained: give one")
        if not 0 <= args.explore <= 1 or not 0 <= args.holdout < 1:
            raise InvalidArgumentError(f"--explore is in [0, 1] and --holdout in [0, 1); got {args.explore}, {args.holdout}")
        held_out(args.positions, args.holdout)
        if args.data and args.data.suffix.lower() != ".npz":
            raise InvalidArgumentError(f"cannot write {str(args.data)!r}: the file name must end in .npz")
        check_run_files(args)
        if args.data and not args.data.exists():
            check_writable(args.data)
        teacher = Net.load(args.teacher) if args.teacher else default_judge(rules.variant)
        own = net_of_phase(teacher, args.phase)
        if args.hidden is not None:
            start = Net.initial(rules.variant, args.hidden, seed=args.seed, inputs=own.inputs)
        else:
            start = Net.load(args.start) if args.start else own
            if args.widen is not None:
                start = start.widened(args.widen, seed=args.seed, noise=WIDEN_NOISE)
        if start.phase != args.phase:
            start = Net(start.variant, start.w1, start.b1, start.w2, start.b2, meta=dict(start.meta),
                        inputs=start.inputs, phase=args.phase)
        for name, net in (("teacher", teacher), ("start", start)):
            if net.variant is not rules.variant:
                raise InvalidArgumentError(f"the {name} net is a {net.variant.value} nardy net, not {rules.variant.value}")
        def commands(net: Net) -> list[str]:
            return list(net.meta.get("previous", [])) + [net.meta.get("command", "(no command)")]

        lineage[:] = [] if args.hidden is not None else commands(start)
        copied = args.start is None and args.hidden is None   # the start is the teacher's own net (or it widened)
        if isinstance(teacher, NetSet):
            taught_by[:] = [f"{role}: {command}" for role, net in zip(NetSet.ROLES, teacher.nets)
                            if not (copied and net is own) for command in commands(net)]
        elif not copied:
            taught_by[:] = commands(teacher)
        boards, targets = labelled(args.data, rules, teacher, args.positions, args.ply or 0, seed=args.seed,
                                   explore=args.explore, threads=args.threads, trials=args.rollouts or 0,
                                   horizon=args.horizon or None, phase=args.phase, progress=progress)
        fit(start, boards, targets, epochs=args.epochs, lr=args.lr, lr_end=args.lr_end, batch_size=args.batch_size,
            holdout=args.holdout, seed=args.seed, epoch_done=epoch_done, progress=progress)

    return run_reported("nardy.evaluation.distill", shown, body)


__all__ = ["fit", "in_phase", "judged_by_net", "label", "labelled", "labelled_phase", "main", "net_of_phase", "rolled_out", "self_play"]

if __name__ == "__main__":
    raise SystemExit(main())
