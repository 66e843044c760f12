"""How strong is nardy's evaluator? Cubeless money games with duplicate dice.

    python benchmarks/strength.py short --games 10000 --opponent pubeval   # gnubg_nn's pubeval
    python benchmarks/strength.py short --games 10000 --opponent gnubg     # GNU Backgammon 0-ply
    python benchmarks/strength.py short --games 10000 --opponent gnubg --ply 1   # nardy at 1 ply
    python benchmarks/strength.py long --games 10000 --opponent greedy     # or random
    python benchmarks/strength.py long --net new.npz --opponent net --against old.npz   # net against net

Every game is played twice with the same dice, nardy's net on each side once (two
environments with one seed: slot i rolls the same dice in both), and only each slot's first
game counts, so luck cancels. Prints points per game for the net with its standard error
(over game pairs). pubeval and gnubg come from the `gnubg-nn` wheel
(short nardy only); greedy plays the fewest pips left, random a uniform play, net the 0-ply play
of `--against` (default: the shipped net). `--race NET` pairs the net with a race net (a
`nardy.evaluation.net.NetSet`; `--late NET` adds a late contact net, `--net` then the early one;
`--against-race` and `--against-late` the same for the opponent). `--ply N` plays nardy's side
with `rank(..., ply=N)` (the lookahead of analysis) instead of its batched 0-ply choice.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from nardy import Position, Rules
from nardy.evaluation.analysis import board_after
from nardy.play.env import VectorEnv
from nardy.evaluation.net import Net, NetSet, default_judge, default_net, rank
from nardy.evaluation.training import greedy_chooser, net_chooser, one_blas_thread, random_chooser

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "oracle"))


def gnubg_chooser(kind: str):
    """A chooser asking gnubg_nn for each slot's play (pubeval or gnubg's 0-ply net)."""
    import gnubg_nn  # noqa: F401 - ImportError here, not at the first move, without the wheel
    from gnubg_oracle import best_play

    def played(view: list[int], d1: int, d2: int) -> bytes:
        return np.array(board_after(view, best_play(kind, view, d1, d2)), np.int8).tobytes()

    return one_at_a_time(played)


def ply_chooser(net: Net | NetSet, rules: Rules, ply: int):
    """A chooser playing `rank(position, dice, ply=ply)`'s first play for each slot asked."""
    def played(view: list[int], d1: int, d2: int) -> bytes:
        return rank(Position(view, rules=rules), (d1, d2), rules, ply=ply, net=net).afterstates[0].tobytes()

    return one_at_a_time(played)


def one_at_a_time(played):
    """A chooser asking `played(view, d1, d2)` (the afterstate's bytes) for each slot in `only`."""
    def choose(env: VectorEnv, only: np.ndarray) -> np.ndarray:
        boards, dice, after, offsets = (np.asarray(env.boards), np.asarray(env.dice), np.asarray(env.afterstates),
                                        np.asarray(env.offsets))
        actions = np.zeros(env.num_envs, np.int64)
        for i in np.flatnonzero(only):
            rows = {bytes(r.tobytes()): k for k, r in enumerate(after[offsets[i]:offsets[i + 1]])}
            if len(rows) == 1:
                continue
            actions[i] = rows[played(boards[i].astype(int).tolist(), int(dice[i, 0]), int(dice[i, 1]))]
        return actions

    return choose


def batched(chooser):
    """A chooser of the whole batch at once (cheap: it answers for every slot)."""
    return lambda env, only: chooser(env)


def duplicate(rules: Rules, me, opponent, games: int, seed: int) -> dict[str, float]:
    """`me`'s points per game over `games` pairs of duplicate games against `opponent` (choosers
    taking the environment and the slots to answer for), and its share of wins."""
    totals = np.zeros(games)
    wins = 0
    for net_color in (0, 1):
        env = VectorEnv(rules, games, seed=seed)
        env.reset()
        done = np.zeros(games, bool)
        while not done.all():
            mine = np.asarray(env.colors) == net_color
            actions = np.where(mine, me(env, mine & ~done), opponent(env, ~mine & ~done))
            _, rewards, terminated, _, _ = env.step(actions)
            first = terminated & ~done
            points = np.where(mine[first], rewards[first], -rewards[first])
            totals[first] += points
            wins += int((points > 0).sum())
            done |= terminated
    pair = totals / 2
    return {"ppg": float(pair.mean()), "se": float(pair.std(ddof=1) / np.sqrt(games)), "games": 2 * games,
            "wins": wins / (2 * games)}


def load(path: Path | None, race: Path | None, variant: str, late: Path | None = None) -> Net | NetSet:
    """A net file (default: the shipped judge, `default_judge`), paired with a race net if one is
    given (and a late contact net: a `NetSet` of three)."""
    if race:
        return NetSet(Net.load(path) if path else default_net(variant), Net.load(race), Net.load(late) if late else None)
    if late:
        raise SystemExit("--late goes with --race (a NetSet of three)")
    return Net.load(path) if path else default_judge(variant)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variant", choices=["long", "short"])
    parser.add_argument("--games", type=int, default=10000, help="games in all (half as many dice sequences)")
    parser.add_argument("--opponent", choices=["pubeval", "gnubg", "greedy", "random", "net"], default="pubeval")
    parser.add_argument("--net", type=Path, help="a net file (default: the shipped net)")
    parser.add_argument("--race", type=Path, help="a race net to judge the races beside --net")
    parser.add_argument("--against", type=Path, help="--opponent net: its net file (default: the shipped net)")
    parser.add_argument("--late", type=Path, help="with --race: a late contact net beside them (--net early)")
    parser.add_argument("--against-race", type=Path, help="--opponent net: a race net beside --against")
    parser.add_argument("--against-late", type=Path, help="--opponent net: a late contact net beside them")
    parser.add_argument("--ply", type=int, default=0, choices=[0, 1, 2], help="nardy's lookahead (default 0)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    one_blas_thread()
    rules = Rules(args.variant)
    if args.opponent in ("pubeval", "gnubg") and args.variant != "short":
        parser.error(f"{args.opponent} plays short nardy only")
    net = load(args.net, args.race, args.variant, args.late)
    if args.opponent == "net":
        opponent = batched(net_chooser(load(args.against, args.against_race, args.variant, args.against_late), rules))
    elif args.opponent in ("greedy", "random"):
        opponent = batched({"greedy": greedy_chooser, "random": random_chooser}[args.opponent])
    else:
        opponent = gnubg_chooser(args.opponent)
    me = ply_chooser(net, rules, args.ply) if args.ply else batched(net_chooser(net, rules))
    began = time.perf_counter()
    result = duplicate(rules, me, opponent, max(args.games // 2, 2), args.seed)
    name = args.net.name if args.net else "the shipped judge" if not args.race else "the shipped net"
    if args.race:
        name += f" with race net {args.race.name}" + (f" and late net {args.late.name}" if args.late else "")
    print(f"{args.variant} nardy, {name} at {args.ply} ply vs {args.opponent}: "
          f"{result['ppg']:+.3f} +- {result['se']:.3f} points per game over {result['games']} games, "
          f"{result['wins']:.1%} won (duplicate dice, {time.perf_counter() - began:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
