"""Make long nardy's match equity tables (`nardy.met.LONG`, `LONG_KOKS`) from nardy's own
self-play: writes src/nardy/evaluation/_met_long.py.

    python benchmarks/make_long_met.py                   # 100,000 games a table, seed 20261203

Long nardy has no cube, so a match's equity follows from one game's outcome distribution by the
standard recurrence. The distribution is that of seeded self-play from the starting position
with the shipped net (`policy="net"`, its 0-ply best play on both sides): random play would
price mars far above what competent players concede. It is counted from the side that starts
the game (the starter wins more often), as oin, mars and koks won and lost, once with the
default rules and once with `koks=True`. Then, for matches up to 25 points:

- `STARTER[a-1][b-1]`: the match-winning chance (MWC) of the side that starts the next game,
  needing a points against b, when the winner of a game starts the next (`next_starter=
  "winner"`, long nardy's default): S(a, b) = sum_k won_k S(a - k, b) + lost_k (1 - S(b - k, a)),
  S = 1 once a <= 0, 0 once b <= 0 (a > 0).
- `ROLLOFF[a-1][b-1]`: the MWC needing a against b when a roll-off decides who starts each
  game, so either side wins k points with p_k = (won_k + lost_k) / 2:
  R(a, b) = sum_k p_k (R(a - k, b) + 1 - R(b - k, a)).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from nardy import Rules
from nardy.play.simulate import simulate

SEED = 20261203
GAMES = 100_000
LENGTH = 25
OUT = Path(__file__).parent.parent / "src" / "nardy" / "evaluation" / "_met_long.py"


def outcomes(koks: bool, games: int, seed: int) -> tuple[list[float], list[float]]:
    """(won, lost): the starter's chances to win and to lose 1, 2 and 3 points."""
    sim = simulate(Rules("long", koks=koks), games, policy="net", seed=seed)
    won = [float(np.mean((sim.winner == sim.starter) & (sim.kind == k))) for k in (1, 2, 3)]
    lost = [float(np.mean((sim.winner == 1 - sim.starter) & (sim.kind == k))) for k in (1, 2, 3)]
    return won, lost


def starter_table(won: list[float], lost: list[float], length: int) -> list[list[float]]:
    """S(a, b) for a, b in 1..length (see the module's docstring)."""
    memo: dict[tuple[int, int], float] = {}

    def s(a: int, b: int) -> float:
        if a <= 0:
            return 1.0
        if b <= 0:
            return 0.0
        if (a, b) not in memo:
            memo[(a, b)] = sum(w * s(a - k, b) + l * (1.0 - s(b - k, a))
                               for k, w, l in zip((1, 2, 3), won, lost))
        return memo[(a, b)]

    for total in range(2, 2 * length + 1):   # smaller scores first: no deep recursion
        for a in range(max(1, total - length), min(length, total - 1) + 1):
            s(a, total - a)
    return [[s(a, b) for b in range(1, length + 1)] for a in range(1, length + 1)]


def rolloff_table(won: list[float], lost: list[float], length: int) -> list[list[float]]:
    """R(a, b): each game's starter by a roll-off, so each side wins k points with the average of
    the starter's and the other side's chance."""
    win = [(w + l) / 2 for w, l in zip(won, lost)]
    memo: dict[tuple[int, int], float] = {}

    def r(a: int, b: int) -> float:
        if a <= 0:
            return 1.0
        if b <= 0:
            return 0.0
        if (a, b) not in memo:
            memo[(a, b)] = sum(p * (r(a - k, b) + 1.0 - r(b - k, a)) for k, p in zip((1, 2, 3), win))
        return memo[(a, b)]

    for total in range(2, 2 * length + 1):
        for a in range(max(1, total - length), min(length, total - 1) + 1):
            r(a, total - a)
    return [[r(a, b) for b in range(1, length + 1)] for a in range(1, length + 1)]


def rows(table: list[list[float]] | tuple[tuple[float, ...], ...]) -> str:
    """A table as Python source: a tuple of rows, ten numbers a line."""
    def row(values: list[float] | tuple[float, ...]) -> str:
        lines = [", ".join(f"{v:.5f}" for v in values[i:i + 10]) for i in range(0, len(values), 10)]
        return "    (" + ",\n     ".join(lines) + "),\n"

    return "(\n" + "".join(row(r) for r in table) + ")"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args()
    command = "python benchmarks/make_long_met.py" + (f" --games {args.games}" if args.games != GAMES else "") + (
        f" --seed {args.seed}" if args.seed != SEED else "")
    parts = [f'"""Long nardy\'s match equity tables, as data: made by `{command}`\n'
             f"(benchmarks/make_long_met.py says how). Do not edit by hand.\n"
             f'"""\n\nGAMES = {args.games}\nSEED = {args.seed}\n']
    for name, koks in (("", False), ("KOKS_", True)):
        won, lost = outcomes(koks, args.games, args.seed)
        parts.append(f"\n{name}WON = ({', '.join(f'{v:.5f}' for v in won)})  # the starter's oin, mars, koks\n"
                     f"{name}LOST = ({', '.join(f'{v:.5f}' for v in lost)})\n"
                     f"{name}STARTER = {rows(starter_table(won, lost, LENGTH))}\n"
                     f"{name}ROLLOFF = {rows(rolloff_table(won, lost, LENGTH))}\n")
    names = [f"{prefix}{what}" for prefix in ("", "KOKS_") for what in ("WON", "LOST", "STARTER", "ROLLOFF")]
    parts.append(f"\n__all__ = {['GAMES', 'SEED', *names]!r}\n".replace("'", '"'))
    OUT.write_text("".join(parts))
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
