"""Fit and validate nardy.race's approximations for races outside the bear-off table.

    python benchmarks/race_approximation.py [--sides 2000] [--trials 2000] [--races 300] [--games 10000]

1. Race positions come from seeded greedy self-play of each variant (every ply whose sides
   have passed each other, `race.is_race`).
2. Fit: for `--sides` one-sided positions with a checker outside home, the mean and variance
   of the turns to bear off alone and to the first checker off are measured by rollouts in the
   core (`_simulate.race_turns`, the "bearoff" policy); least squares gives `race.MODELS`
   (short nardy: Keith's adjustments with a fitted base and weight; long nardy: each term
   fitted). It prints the models and the fit's error in effective pips.
3. Validate: on `--races` other two-sided race positions (at least one side outside the
   table), `race.race_odds` with the fitted models against `simulate(start=..., policy="bearoff")`
   of `--games` games each: mean absolute and largest error of the win and gammon/mars rates,
   beside the rollouts' own standard error.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from nardy import Position, Rules, Variant, batch, simulate
from nardy.evaluation import bearoff as race
from nardy import _simulate

P = race.PIPS_PER_TURN


def race_positions(variant: Variant, seed: int) -> np.ndarray:
    sim = simulate(variant, 4000, seed=seed, policy="greedy", record=True, threads=2)
    boards = np.unique(sim.trace[:, :26], axis=0)
    keep = [b for b in boards if race.is_race(Position(b, variant, validate=False))]
    return np.array(keep, np.int8)


def features(sides: np.ndarray) -> dict[str, np.ndarray]:
    c = sides[:, 1:26].astype(float)
    return {
        "pips": (c * np.arange(1, 26)).sum(1), "n": c.sum(1), "ones": np.maximum(c[:, 0] - 1, 0),
        "twos": np.maximum(c[:, 1] - 1, 0), "threes": np.maximum(c[:, 2] - 3, 0), "gaps": (c[:, 3:6] == 0).sum(1),
        "outside": c[:, 6:].sum(1), "cross": (np.maximum(np.arange(1, 26) - 6, 0) * c).sum(1),
    }


def fit(variant: Variant, sides: np.ndarray, rollouts: np.ndarray) -> tuple[race.Model, float]:
    f = features(sides)
    waste = rollouts[:, 0] * P - f["pips"]
    one = np.ones(len(waste))
    if variant is Variant.SHORT:
        keith = 2 * f["ones"] + f["twos"] + f["threes"] + f["gaps"]
        (base, weight), *_ = np.linalg.lstsq(np.column_stack([one, keith]), waste, rcond=None)
        coef = dict(base=base, checkers=0.0, ones=2 * weight, twos=weight, threes=weight, gaps=weight, outside=0.0)
    else:
        names = ["n", "ones", "twos", "threes", "gaps", "outside"]
        x = np.column_stack([one] + [f[k] for k in names])
        solution, *_ = np.linalg.lstsq(x, waste, rcond=None)
        coef = dict(base=solution[0], checkers=solution[1], ones=solution[2], twos=solution[3], threes=solution[4],
                    gaps=solution[5], outside=solution[6])
    (var_base, var_slope), *_ = np.linalg.lstsq(np.column_stack([one, rollouts[:, 0]]), rollouts[:, 1], rcond=None)
    full = f["n"] == 15
    x = np.column_stack([one[full], f["cross"][full] / P, f["outside"][full]])
    (fb, fc, fo), *_ = np.linalg.lstsq(x, rollouts[full, 2], rcond=None)
    (fvb, fvs), *_ = np.linalg.lstsq(np.column_stack([one[full], rollouts[full, 2]]), rollouts[full, 3], rcond=None)
    model = race.Model(**{k: round(float(v), 3) for k, v in coef.items()}, var_base=round(float(var_base), 3),
                       var_slope=round(float(var_slope), 3), first_base=round(float(fb), 3),
                       first_cross=round(float(fc), 3), first_outside=round(float(fo), 3),
                       first_var_base=round(float(fvb), 3), first_var_slope=round(float(fvs), 3))
    predicted = np.array([model.effective_pips(s.astype(np.int64)) for s in sides])
    return model, float(np.sqrt(((predicted - rollouts[:, 0] * P) ** 2).mean()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sides", type=int, default=2000)
    parser.add_argument("--trials", type=int, default=2000)
    parser.add_argument("--races", type=int, default=300)
    parser.add_argument("--games", type=int, default=10000)
    args = parser.parse_args()
    table = race.load()
    for variant in Variant:
        rng = np.random.default_rng(7)
        started = time.perf_counter()
        races = race_positions(variant, seed=11)
        rng.shuffle(races)
        half = len(races) // 2
        train, test = races[:half], races[half:]
        sides = np.concatenate([train, batch.flip(train, variant)])
        sides = np.where(sides > 0, sides, 0).astype(np.int8)
        sides = np.unique(sides[(sides[:, 7:26] > 0).any(1)], axis=0)
        sides = sides[rng.choice(len(sides), min(args.sides, len(sides)), replace=False)]
        rules = Rules(variant)
        from nardy import _backend as engine

        rollouts = _simulate.race_turns(sides, args.trials, np.random.PCG64(3), engine.core_rules(rules), table.mean)
        model, rms = fit(variant, sides, rollouts)
        race.MODELS[variant] = model
        noise = float(np.sqrt(rollouts[:, 1].mean() / args.trials) * P)
        print(f"{variant.value}: {len(races)} race positions; fitted on {len(sides)} one-sided positions x {args.trials} rollouts")
        print(f"  {model!r}")
        print(f"  effective pips: rms error {rms:.2f} pips (rollout noise {noise:.2f})")
        chosen = []
        for board in test:
            position = Position(board, variant, validate=False)
            if position.is_game_over() or not position.is_valid(rules):
                continue
            mine, theirs = race.home_counts(position)
            if mine is None or theirs is None:
                chosen.append(position)
            if len(chosen) == args.races:
                break
        errors, gammon_errors, ses = [], [], []
        for k, position in enumerate(chosen):
            odds = race.race_odds(position)
            sim = simulate(rules, args.games, seed=100 + k, policy="bearoff", start=position, threads=2)
            won = sim.winner == int(position.turn)
            rate = won.mean()
            errors.append(odds.win - rate)
            gammon_errors.append(odds.win_gammon - (won & (sim.kind >= 2)).mean())
            gammon_errors.append(odds.lose_gammon - (~won & (sim.kind >= 2)).mean())
            ses.append(np.sqrt(max(rate * (1 - rate), 1e-12) / args.games))
        e, g = np.abs(errors), np.abs(gammon_errors)
        print(f"  win probability on {len(chosen)} held-out races x {args.games} games: mean abs error "
              f"{100 * e.mean():.2f} points, rms {100 * np.sqrt((e ** 2).mean()):.2f}, max {100 * e.max():.2f} "
              f"(rollout standard error {100 * np.mean(ses):.2f})")
        print(f"  gammon/mars probabilities: mean abs error {100 * g.mean():.2f} points, max {100 * g.max():.2f}")
        print(f"  {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
