"""Train an evaluator (`nardy.evaluation.net.Net`) from zero by TD(lambda) self-play, numpy only.

    python -m nardy.evaluation.training short --games 200000 --seed 1 --out short.npz

Many games run at once in `nardy.play.env.VectorEnv`; every move is the net's greedy 0-ply choice
(the dice explore). When a game ends, each position of it, seen by its side on roll, gets the
lambda-return as its target (offline TD(lambda), the forward view: the target of a position mixes
the net's value of every later position of its game, weighted (1 - lambda) lambda^k, with the
exact result at the end), and the net takes Adam steps on the cross-entropy of its five
outputs against those targets, a batch at a time. Everything is seeded: the same command gives
the same weights (on one machine; BLAS may sum in another order elsewhere).

`--inputs expert` trains a net of TD-Gammon's units and the expert inputs
(docs/evaluator-inputs.md); `--phase race --contact NET` a race net beside a fixed contact net
(a `nardy.evaluation.net.NetSet`: the pair plays, only race positions are fitted).

Every `--checkpoint-every` games the net is saved (`OUT` with `.ckpt-<games>` before the
suffix) and measured against the previous checkpoint and against random play; each line of
the `--log` file (JSON lines) holds those figures.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np
import numpy.typing as npt

from .. import batch
from ..play.env import VectorEnv
from ..errors import InvalidArgumentError, NardyError, check_whole, is_whole, quoted
from .net import Net, NetSet, contact, evaluate_boards, raw_equity, swap_sides
from ..files import check_writable
from ..rules import Rules

Floats = npt.NDArray[np.float64]


@dataclass
class Adam:
    """Adam over the net's four arrays (float64 master copies)."""

    params: list[Floats]
    lr: float = 1e-3
    beta1: float = 0.9
    beta2: float = 0.999
    eps: float = 1e-8
    t: int = 0
    m: list[Floats] = field(default_factory=list)
    v: list[Floats] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.m = [np.zeros_like(p) for p in self.params]
        self.v = [np.zeros_like(p) for p in self.params]

    def step(self, grads: Sequence[Floats]) -> None:
        self.t += 1
        c1, c2 = 1 - self.beta1 ** self.t, 1 - self.beta2 ** self.t
        for p, g, m, v in zip(self.params, grads, self.m, self.v):
            m *= self.beta1
            m += (1 - self.beta1) * g
            v *= self.beta2
            v += (1 - self.beta2) * g * g
            p -= self.lr * (m / c1) / (np.sqrt(v / c2) + self.eps)


def gradients(params: Sequence[Floats], x: Floats, y: Floats) -> tuple[float, list[Floats]]:
    """Mean cross-entropy of the five outputs against targets y, and its gradients."""
    w1, b1, w2, b2 = params
    z1 = x @ w1 + b1
    a = 1 + np.abs(z1)
    h = z1 / a
    p = 1 / (1 + np.exp(-(h @ w2.T + b2)))
    q = np.clip(p, 1e-7, 1 - 1e-7)
    loss = float(-(y * np.log(q) + (1 - y) * np.log(1 - q)).sum(axis=1).mean())
    d2 = (p - y) / len(x)
    dz1 = (d2 @ w2) / (a * a)
    return loss, [x.T @ dz1, dz1.sum(axis=0), d2.T @ h, d2.sum(axis=0)]


def lambda_returns(values: Floats, lam: float) -> Floats:
    """Targets of a game's positions 0..T-1 from the values of positions 0..T (each for its own
    side on roll, sides alternating; the last is the exact result)."""
    targets = np.empty((len(values) - 1, values.shape[1]))
    ahead = values[-1]
    for t in range(len(values) - 2, -1, -1):
        targets[t] = swap_sides(ahead)
        ahead = (1 - lam) * values[t] + lam * targets[t]
    return targets


Chooser = Callable[[VectorEnv], npt.NDArray[np.int64]]


def net_chooser(net: Net | NetSet, rules: Rules) -> Chooser:
    """The greedy 0-ply policy of a net: the afterstate best for the mover."""
    def choose(env: VectorEnv) -> npt.NDArray[np.int64]:
        theirs = evaluate_boards(np.asarray(env.afterstates), rules, net, after=True)
        return env.best_actions(-raw_equity(theirs))
    return choose


def greedy_chooser(env: VectorEnv) -> npt.NDArray[np.int64]:
    """The afterstate with the fewest pips left for the mover (the first on ties)."""
    pips = batch.pips(np.asarray(env.afterstates), env.variant)[:, 0]
    return env.best_actions(-pips.astype(np.float64))


def random_chooser(env: VectorEnv) -> npt.NDArray[np.int64]:
    return env.sample_actions()


def duel(rules: Rules, a: Chooser, b: Chooser, games: int, *, seed: int, parallel: int = 200) -> dict[str, float]:
    """Points per game of policy `a` against `b` over `games` cubeless games (a plays White in
    even slots, Black in odd ones), with the standard error and a's share of wins."""
    env = VectorEnv(rules, parallel, seed=seed)
    env.reset()
    a_color = (np.arange(parallel) % 2).astype(np.int8)
    points: list[float] = []
    while len(points) < games:
        a_moves = np.asarray(env.colors) == a_color
        actions = np.where(a_moves, a(env), b(env))
        _, rewards, terminated, _, _ = env.step(actions)
        for i in np.flatnonzero(terminated):
            points.append(float(rewards[i] if a_moves[i] else -rewards[i]))
    got = np.array(points[:games])
    return {"ppg": float(got.mean()), "se": float(got.std(ddof=1) / np.sqrt(len(got))),
            "wins": float((got > 0).mean()), "games": len(got)}


def train(rules: Rules, games: int, *, hidden: int = 64, seed: int = 1, parallel: int = 128, lam: float = 0.7,
          lr: float = 1e-3, lr_end: float | None = None, batch_size: int = 2048, start: Net | None = None,
          inputs: str = "td198", phase: str = "any", contact_net: Net | None = None,
          progress: Callable[[dict[str, Any]], None] | None = None,
          checkpoint: Callable[[Net, int], None] | None = None, checkpoint_every: int = 0) -> Net:
    """A net trained on `games` games of self-play (see the module's docstring). With `lr_end`,
    Adam's step size falls geometrically from `lr` to `lr_end` over the games. With `phase="race"`
    the net trained is a race net: the moves and values of contact positions come from
    `contact_net` (held fixed), and only race positions (`nardy.evaluation.net.contact` false) are fitted."""
    if (games < 1 or parallel < 1 or batch_size < 1 or not 0 <= lam <= 1 or not positive(lr)
            or (lr_end is not None and not positive(lr_end))):
        raise InvalidArgumentError(f"games, parallel, batch size >= 1, 0 <= lambda <= 1, lr and lr_end finite "
                                   f"and > 0; got {games}, {parallel}, {batch_size}, {lam}, {lr}, {lr_end}")
    check_whole(checkpoint_every, "checkpoint_every (games between checkpoints, 0 for none)", 0)
    variant = rules.variant
    if phase not in ("any", "race") or (phase == "race") is (contact_net is None):
        raise InvalidArgumentError(f"phase is 'any', or 'race' with a contact net; got {phase!r} and {contact_net!r}")
    net = start or Net.initial(variant, hidden, seed=seed, inputs=inputs, phase=phase)
    if net.phase != phase:
        raise InvalidArgumentError(f"the start net's phase is {net.phase!r}, training {phase!r}")

    def judge(net: Net) -> Net | NetSet:
        return net if contact_net is None else NetSet(contact_net, net)

    params = params_of(net)
    adam = Adam(params, lr)
    env = VectorEnv(rules, parallel, seed=seed)
    env.reset()
    boards: list[list[npt.NDArray[np.int8]]] = [[np.asarray(env.boards[i]).copy()] for i in range(parallel)]
    values: list[list[Floats]] = [[v] for v in evaluate_boards(np.asarray(env.boards), rules, judge(net), after=False)]
    xs: list[npt.NDArray[np.int8]] = []
    ys: list[Floats] = []
    done = steps = 0
    loss = float("nan")
    began = time.process_time()
    while done < games:
        theirs = evaluate_boards(np.asarray(env.afterstates), rules, judge(net), after=True)
        actions = env.best_actions(-raw_equity(theirs))
        chosen = np.asarray(env.offsets)[:-1] + actions
        after = batch.flip(np.asarray(env.afterstates)[chosen], variant)
        _, _, terminated, _, _ = env.step(actions)
        steps += 1
        for i in range(parallel):
            boards[i].append(after[i])
            values[i].append(theirs[chosen[i]])
        for ended in np.flatnonzero(terminated):
            xs.extend(boards[ended][:-1])
            ys.append(lambda_returns(np.array(values[ended]), lam))
            done += 1
            boards[ended] = [np.asarray(env.boards[ended]).copy()]
            values[ended] = [evaluate_boards(np.asarray(env.boards[ended : ended + 1]), rules, judge(net), after=False)[0]]
            if checkpoint and checkpoint_every and done % checkpoint_every == 0:
                checkpoint(net_of(net, params), done)
        if len(xs) >= batch_size:
            rows = np.array(xs)
            y = np.concatenate(ys)
            if phase == "race":
                race = ~contact(rows, variant)
                rows, y = rows[race], y[race]
            x = net.inputs_of(rows).astype(np.float64)
            order = np.random.default_rng([seed, adam.t]).permutation(len(x))
            if lr_end is not None:
                adam.lr = lr * (lr_end / lr) ** min(1.0, done / games)
            for lo in range(0, len(x), batch_size):
                part = order[lo:lo + batch_size]
                loss, grads = gradients(params, x[part], y[part])
                adam.step(grads)
            xs, ys = [], []
            net = net_of(net, params)
            if progress:
                progress({"games": done, "steps": steps, "loss": loss, "cpu_s": time.process_time() - began})
    return net_of(net, params)


def positive(value: float) -> bool:
    """A finite number above 0 (NaN and infinity are not)."""
    try:
        return math.isfinite(value) and value > 0
    except TypeError:
        return False


def params_of(net: Net) -> list[Floats]:
    """The net's four arrays as float64 copies: what `gradients` and `Adam` work on."""
    return [a.astype(np.float64) for a in (net.w1, net.b1, net.w2, net.b2)]


def net_of(net: Net, params: Sequence[Floats]) -> Net:
    """A net of `net`'s kind (variant, inputs, phase, meta) with the weights `params`."""
    w1, b1, w2, b2 = (p.astype(np.float32) for p in params)
    return Net(net.variant, w1, b1, w2, b2, meta=dict(net.meta), inputs=net.inputs, phase=net.phase)


def _checkpoint_path(out: Path, done: int) -> Path:
    return out.with_name(f"{out.stem}.ckpt-{done}{out.suffix}")


def check_outputs(args: argparse.Namespace) -> None:
    """Refuse, before any training, arguments that would fail only at its end or at a checkpoint:
    an output that is not a writable .npz path (the net, a checkpoint, the log), a negative
    checkpoint interval, a step size that is not a finite number above 0."""
    check_whole(args.checkpoint_every, "--checkpoint-every (games between checkpoints, 0 for none)", 0)
    check_whole(args.duel_games, "--duel-games", 1)
    check_run_files(args)
    if args.checkpoint_every:
        check_writable(_checkpoint_path(args.out, args.checkpoint_every))


def check_run_files(args: argparse.Namespace) -> None:
    """What a training command shares: `--lr` and `--lr-end` finite numbers above 0, `--out` a
    writable .npz path, `--log` (if given) a writable regular file."""
    for name, value in (("--lr", args.lr), ("--lr-end", args.lr_end)):
        if value is not None and not positive(value):
            raise InvalidArgumentError(f"{name} must be a finite number above 0, got {value}")
    if args.out.suffix.lower() != ".npz":
        raise InvalidArgumentError(f"cannot write {str(args.out)!r}: the file name must end in .npz")
    check_writable(args.out)
    if args.log is not None:
        check_writable(args.log)
        if args.log.exists() and not args.log.is_file():  # (appended to: a FIFO would wait for a reader)
            raise InvalidArgumentError(f"cannot write {str(args.log)!r}: it is not a regular file")


def run_reported(prog: str, shown: list[float], body: Callable[[], None]) -> int:
    """Run a command's `body`: 0 when done, 130 on Ctrl-C, 2 with one error line for nardy's errors
    and the OS's (after the progress line, if one is shown)."""
    try:
        body()
    except KeyboardInterrupt:
        print(f"{end_line(shown)}{prog}: interrupted", file=sys.stderr)
        return 130
    except (NardyError, OSError) as exc:
        print(f"{end_line(shown)}{prog}: error: {exc}", file=sys.stderr)
        return 2
    return 0


def end_line(shown: list[float]) -> str:
    """A newline if a progress line (ended by a carriage return) has been shown, else nothing."""
    return "\n" if shown[0] else ""


def one_blas_thread() -> bool:
    """Ask numpy's OpenBLAS for one thread (True if it could be found): the batches are small,
    threads only contend on a busy machine, and one thread sums in one order (the same weights
    from the same seed)."""
    import ctypes

    try:
        with open("/proc/self/maps") as maps:
            paths = {line.split()[-1] for line in maps if "openblas" in line.lower() and "/" in line}
    except OSError:
        return False
    for path in sorted(paths):
        lib = ctypes.CDLL(path)
        for name in ("scipy_openblas_set_num_threads64_", "openblas_set_num_threads64_", "openblas_set_num_threads"):
            if hasattr(lib, name):
                getattr(lib, name)(1)
                return True
    return False


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m nardy.evaluation.training",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("variant", choices=["long", "short"])
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--inputs", choices=["td198", "expert"], default="td198",
                        help="the net's inputs: TD-Gammon's 198 units, or those and the expert inputs")
    parser.add_argument("--parallel", type=int, default=128, help="games played at once")
    parser.add_argument("--lam", type=float, default=0.7, help="TD lambda")
    parser.add_argument("--lr", type=float, default=1e-3, help="Adam's step size")
    parser.add_argument("--lr-end", type=float, help="the step size at the end (falling geometrically from --lr)")
    parser.add_argument("--phase", choices=["any", "race"], default="any",
                        help="train a net for every position, or a race net beside --contact's net")
    parser.add_argument("--contact", type=Path, help="with --phase race: the contact net (a net file), held fixed")
    parser.add_argument("--batch-size", type=int, default=2048)
    parser.add_argument("--out", type=Path, required=True, help="where to write the net (.npz)")
    parser.add_argument("--start", type=Path, help="go on training this net")
    parser.add_argument("--checkpoint-every", type=int, default=0, help="games between checkpoints")
    parser.add_argument("--duel-games", type=int, default=400, help="games of each checkpoint's strength test")
    parser.add_argument("--log", type=Path, help="JSON lines of each checkpoint's strength")
    args = parser.parse_args(argv)
    one_blas_thread()
    rules = Rules(args.variant)
    command = "python -m nardy.evaluation.training " + " ".join(sys.argv[1:] if argv is None else argv)
    previous: list[Net] = []
    shown = [0.0]

    def progress(state: dict[str, Any]) -> None:
        now = time.monotonic()
        if now - shown[0] >= 2 or state["games"] >= args.games:
            shown[0] = now
            rate = state["games"] / max(state["cpu_s"], 1e-9)
            print(f"\r{state['games']:>9,} / {args.games:,} games  {rate:,.0f} games/cpu-s  loss {state['loss']:.4f}",
                  end="", file=sys.stderr, flush=True)

    def checkpoint(net: Net, done: int) -> None:
        net = net.with_meta({"command": command, "games": done})
        net.save(_checkpoint_path(args.out, done))
        record: dict[str, Any] = {"games": done, "time": time.time()}
        me = net_chooser(net if contact_net is None else NetSet(contact_net, net), rules)
        record["vs_random"] = duel(rules, me, random_chooser, args.duel_games, seed=args.seed + done)
        record["vs_greedy"] = duel(rules, me, greedy_chooser, args.duel_games, seed=args.seed + done)
        if previous:
            before = previous[-1] if contact_net is None else NetSet(contact_net, previous[-1])
            record["vs_previous"] = duel(rules, me, net_chooser(before, rules), args.duel_games,
                                         seed=args.seed + done)
        previous[:] = [net]
        if args.log:
            with open(args.log, "a") as f:
                f.write(json.dumps(record) + "\n")
        print(f"\ncheckpoint {done:,}: " + ", ".join(f"{k} {v['ppg']:+.3f} ppg ({v['wins']:.1%} wins)"
                                                      for k, v in record.items() if isinstance(v, dict)),
              file=sys.stderr)

    contact_net: Net | None = None

    def body() -> None:
        nonlocal contact_net
        check_outputs(args)
        if (args.phase == "race") is (args.contact is None):
            raise InvalidArgumentError("--contact NET goes with --phase race, and only with it")
        contact_net = Net.load(args.contact) if args.contact else None
        start = Net.load(args.start) if args.start else None
        before = start.meta.get("games", 0) if start else 0
        if not is_whole(before) or before < 0:
            raise InvalidArgumentError(f"{args.start}: the net's meta 'games' must be a whole number >= 0, "
                                       f"got {quoted(before)}")
        net = train(rules, args.games, hidden=args.hidden, seed=args.seed, parallel=args.parallel, lam=args.lam,
                    lr=args.lr, lr_end=args.lr_end, batch_size=args.batch_size, start=start, inputs=args.inputs,
                    phase=args.phase, contact_net=contact_net, progress=progress,
                    checkpoint=checkpoint, checkpoint_every=args.checkpoint_every)
        meta = {"command": command, "games": int(before) + args.games}
        net.with_meta(meta).save(args.out)

    code = run_reported("nardy.evaluation.training", shown, body)
    if code == 0:
        print(f"\nwrote {args.out}", file=sys.stderr)
    return code


__all__ = ["Adam", "check_run_files", "duel", "gradients", "lambda_returns", "main", "net_of", "params_of",
           "run_reported", "train"]

if __name__ == "__main__":
    raise SystemExit(main())
