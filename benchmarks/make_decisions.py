"""Make the rolled-out decision benchmarks: checker plays from nardy's own play, each judged by rollouts.

    python -m benchmarks.make_decisions run --work W [--resume]  # roll out, checkpointing to W/
    python -m benchmarks.make_decisions full --work W --count N  # the check: N contact decisions untruncated
    python -m benchmarks.make_decisions pack --work W            # W/ -> benchmarks/data/decisions-*.jsonl.gz

What is done, per variant (seeded: the same seed gives the same files):

1. **Positions**: games of self-play by the shipped net (or `--nets DIR`'s) at 0 ply, each play's equity perturbed by
   N(0, NOISE) noise before the best is taken (for variety); each ply of each game is kept as a
   decision with probability KEEP if its roll has at least two distinct results. A decision is
   "contact" (`nardy.evaluation.net.contact`) or "race" (the others, except those where both sides are home:
   the bear-off table answers them exactly, no net is judged there).
2. **Candidates**: every play's 0-ply equity; 1 ply for the WIDE best (within WIDE_WINDOW of the
   0-ply best); 2 ply for the 1-ply best POOL. The candidates are the 0-, 1- and 2-ply choices and
   the plays within MARGIN of the best at 2 ply (or 1 ply), at most CAP.
3. **Rollouts**: every candidate is rolled out over GAMES games (`--games` sets fewer for a resumed
   run; each record says how many) truncated after HORIZON plies (half-moves), each move the net's 0-ply choice; a game still going at the horizon counts the net's 0-ply
   probabilities there (exact in the bear-off table, as everywhere). The candidates of a decision
   share their dice (game j's rolls are the same after every candidate: common random numbers, so
   their differences are measured much more precisely than their equities) and the first two rolls
   are stratified (game j plays ordered rolls j mod 36, then (7 j + j div 36) mod 36: in every 36 k
   games each first and each second roll comes k times). Stored per
   candidate: the equity, its standard error, and the standard error of its difference from the
   best candidate (paired over the games).
4. **The other plays** (never rolled out) get a conservative loss: the larger of the worst
   candidate's rolled-out loss and their own loss at 1 ply (0 ply beyond the wide set), measured
   against the best play at that ply.

`full` checks the truncation: it rolls the candidates of the first contact decisions out to the
end of the game (other dice, the same number of games), records of the same form.

The decisions are processed in a fixed interleaved order (each batch of decisions draws its
variant and phase by the ratio of the targets), results are appended to W/<variant>.jsonl after
each batch, and `--resume` carries on from them: interrupting the job loses at most one batch.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from nardy import Position, Rules, batch
from nardy.evaluation import net as nets
from nardy.evaluation.net import (evaluate_boards, raw_equity, segment_argmax, swap_sides, won_outcomes,
                                  finished_rows, home_rows, lookahead)
from nardy.evaluation.rollout import stratified_rolls

SEED = 20261205
NOISE = 0.05          # sd of the noise added to each play's 0-ply equity in the self-play that finds positions
KEEP = 0.08           # chance that a ply of a game becomes a decision
WIDE_WINDOW, WIDE = 0.32, 16   # the plays judged at 1 ply: at most WIDE within WIDE_WINDOW of the 0-ply best
POOL = 6              # the plays judged at 2 ply: the 1-ply best POOL
MARGIN, CAP = 0.10, 6  # candidates: the plays within MARGIN of the best, at most CAP (the 0/1/2-ply choices first)
GAMES, HORIZON = 864, 10   # games per candidate, plies before the net judges
TARGETS = {"contact": 3000, "race": 1000}
VARIANTS = ("short", "long")
BATCH = 8             # decisions rolled out together
FULL_PLIES = 600      # the horizon of the untruncated check: no game comes near it
DATA = Path(__file__).parent / "data"


NETS: dict[str, nets.Net] = {}   # --nets: the nets judging in place of the shipped ones


def net_of(variant: Any) -> nets.Net | nets.NetSet:
    """The net that plays and judges a variant: `--nets`' or the shipped judge (`default_judge`)."""
    name = variant if isinstance(variant, str) else variant.value
    return NETS.get(name) or nets.default_judge(name)


def command_line() -> str:
    return "python -m benchmarks.make_decisions " + " ".join(sys.argv[1:])


# 1. positions --------------------------------------------------------------------------------
def find_positions(variant: str, seed: int, targets: dict[str, int]) -> dict[str, list[tuple[str, list[int]]]]:
    """(position ID, dice) of decisions from noisy 0-ply self-play, by phase, `targets` of each."""
    rules = Rules(variant)
    net = net_of(variant)
    rng = np.random.default_rng(np.random.SeedSequence([seed, VARIANTS.index(variant), 0]))
    found: dict[str, list[tuple[str, list[int]]]] = {phase: [] for phase in targets}
    start = Position.start(variant).array()
    games = 256
    while any(len(found[p]) < n for p, n in targets.items()):
        boards = np.repeat(start[None, :], games, axis=0)
        live = np.ones(games, bool)
        for _ in range(10_000):
            rows = np.flatnonzero(live)
            if rows.size == 0:
                break
            dice = rng.integers(1, 7, size=(rows.size, 2), dtype=np.int8)
            children, offsets, _ = batch.generate(boards[rows], dice, rules)
            counts = np.diff(offsets)
            keep = (counts >= 2) & (rng.random(rows.size) < KEEP)
            if keep.any():
                here = boards[rows[keep]]
                touching = nets.contact(here, variant)
                home = home_rows(here, rules.variant)
                for board, d, c, h in zip(here, dice[keep], touching, home):
                    phase = "contact" if c else ("race" if not h else None)
                    if phase is None or len(found[phase]) >= targets[phase]:
                        continue
                    a, b = sorted(int(x) for x in d)
                    found[phase].append((Position(tuple(int(x) for x in board), variant).id(), [b, a]))
            mover = swap_sides(evaluate_boards(children, rules, net, after=True))
            noisy = raw_equity(mover) + rng.normal(0, NOISE, len(children))
            chosen = children[segment_argmax(noisy, offsets)]
            over = finished_rows(chosen)
            live[rows[over]] = False
            going = rows[~over]
            boards[going] = batch.flip(chosen[~over], rules.variant)
    return found


def order(found: dict[str, list[Any]]) -> list[tuple[str, int]]:
    """(phase, index) of every decision, the phases interleaved by their sizes (a prefix is a fair sample)."""
    total = sum(len(v) for v in found.values())
    keys = []
    for phase, items in found.items():
        keys += [((i + 0.5) / len(items), phase, i) for i in range(len(items))]
    return [(phase, i) for _, phase, i in sorted(keys)][:total]


# 2. candidates -------------------------------------------------------------------------------
def candidates(position: Position, dice: list[int], rules: Rules) -> dict[str, Any]:
    """The plays of a decision: texts, results, 0/1/2-ply equities where judged, and the candidates."""
    net = net_of(rules.variant)
    moves, children = position._plays(dice, rules, None)
    after = np.frombuffer(b"".join(children), np.int8).reshape(-1, 26)
    eq0 = raw_equity(swap_sides(evaluate_boards(after, rules, net, after=True)))
    by0 = np.argsort(-eq0, kind="stable")
    wide = [int(i) for i in by0[:WIDE] if eq0[i] >= eq0[by0[0]] - WIDE_WINDOW]
    eq1 = raw_equity(lookahead(after[wide], rules, net, 1))
    by1 = [wide[k] for k in np.argsort(-eq1, kind="stable")]
    one = dict(zip(wide, eq1))
    pool = by1[:POOL]
    eq2 = raw_equity(lookahead(after[pool], rules, net, 2))
    two = dict(zip(pool, eq2))
    by2 = sorted(pool, key=lambda i: -two[i])
    picks = [int(by0[0]), by1[0], by2[0]]
    near = [i for i in by2 if two[i] >= two[by2[0]] - MARGIN]
    near += [i for i in by1 if i not in two and one[i] >= one[by1[0]] - MARGIN]
    chosen: list[int] = []
    for i in picks + near:
        if i not in chosen and len(chosen) < CAP:
            chosen.append(i)
    # the estimate of every play's loss at the deepest ply that judged it (for the plays not rolled out)
    estimate = np.where(np.isin(np.arange(len(moves)), wide), 0.0, eq0[by0[0]] - eq0)
    for i in wide:
        estimate[i] = one[by1[0]] - one[i]
    return {"moves": [str(m) for m in moves], "after": after, "chosen": chosen, "estimate": estimate}


# 3. rollouts ---------------------------------------------------------------------------------
def dice_of(seed: int, variant: str, index: int, games: int, horizon: int) -> np.ndarray:
    """(games, horizon, 2) rolls of a decision's games: the first two stratified, the others drawn."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, VARIANTS.index(variant), 1, index]))
    out = rng.integers(1, 7, size=(games, horizon, 2), dtype=np.int8)
    j = np.arange(games)
    out[:, 0] = stratified_rolls(j, 0)
    if horizon > 1:   # each pair of first rolls once in 1296 games; each second roll equally often in 36k games
        out[:, 1] = stratified_rolls(j, 1)
    return out


def truncated_rollouts(afters: np.ndarray, dice: np.ndarray, rules: Rules) -> np.ndarray:
    """(n, games) equities for the mover of each afterstate (n, 26), game j of row i rolling
    dice[i, j] (n, games, horizon, 2): 0-ply play, the net's 0-ply judgement at the horizon."""
    net = net_of(rules.variant)
    n, games, horizon, _ = dice.shape
    boards = np.repeat(batch.flip(afters, rules.variant), games, axis=0)   # the other side on roll
    rolls = dice.reshape(n * games, horizon, 2)
    ours = np.zeros(n * games, bool)          # is the side on roll the decision's mover?
    value = np.zeros(n * games)
    won = finished_rows(afters)               # the play itself bears off the last checker
    live = ~np.repeat(won, games)
    if won.any():
        value[~live] = np.repeat(raw_equity(won_outcomes(afters[won], rules)), games)
    for ply in range(horizon):
        rows = np.flatnonzero(live)
        if rows.size == 0:
            break
        children, offsets, _ = batch.generate(boards[rows], np.ascontiguousarray(rolls[rows, ply]), rules)
        mover = swap_sides(evaluate_boards(children, rules, net, after=True))
        pick = segment_argmax(raw_equity(mover), offsets)
        chosen = children[pick]
        over = finished_rows(chosen)
        if over.any():
            ended = rows[over]
            eq = raw_equity(won_outcomes(chosen[over], rules))
            value[ended] = np.where(ours[ended], eq, -eq)
            live[ended] = False
        going = rows[~over]
        boards[going] = batch.flip(chosen[~over], rules.variant)
        ours[going] = ~ours[going]
    rows = np.flatnonzero(live)
    if rows.size:
        eq = raw_equity(evaluate_boards(boards[rows], rules, net, after=False))
        value[rows] = np.where(ours[rows], eq, -eq)
    return value.reshape(n, games)


def judge(batch_items: list[dict[str, Any]], variant: str, seed: int, rules: Rules, games: int = GAMES
          ) -> list[dict[str, Any]]:
    """The records of a batch of decisions (each with its position, dice, index, phase)."""
    prepared = []
    for item in batch_items:
        position = Position.from_id(item["id"], rules=rules)
        prepared.append(candidates(position, item["dice"], rules))
    afters = np.concatenate([p["after"][p["chosen"]] for p in prepared])
    dice = np.concatenate([np.repeat(dice_of(seed, variant, item["index"], games, HORIZON)[None], len(p["chosen"]), 0)
                           for item, p in zip(batch_items, prepared)])
    values = truncated_rollouts(afters, dice, rules)
    records, at = [], 0
    for item, p in zip(batch_items, prepared):
        k = len(p["chosen"])
        v = values[at:at + k]
        at += k
        means = v.mean(axis=1)
        best = int(np.argmax(means))
        se = v.std(axis=1, ddof=1) / np.sqrt(games)
        dse = (v - v[best]).std(axis=1, ddof=1) / np.sqrt(games)
        plays = sorted(([p["moves"][i], round(float(m), 4), round(float(s), 4), round(float(d), 4)]
                        for i, m, s, d in zip(p["chosen"], means, se, dse)), key=lambda r: -r[1])
        worst = float(means.max() - means.min())
        rest = [[p["moves"][i], round(max(worst, float(p["estimate"][i])), 3)]
                for i in np.argsort(p["estimate"], kind="stable") if i not in p["chosen"]]
        records.append({"index": item["index"], "phase": item["phase"], "id": item["id"], "dice": item["dice"],
                        "games": games, "plays": plays, "rest": rest})
    return records


# the job -------------------------------------------------------------------------------------
def run(work: Path, resume: bool, seed: int, until: float | None, limit: int | None, games: int | None = None
        ) -> None:
    work.mkdir(parents=True, exist_ok=True)
    plan_file = work / "plan.json"
    if resume and not plan_file.exists():
        raise SystemExit(f"{plan_file}: nothing to resume (run without --resume to start)")
    if resume:
        plan = json.loads(plan_file.read_text())
        if seed != plan["seed"]:
            print(f"(resuming with the plan's seed {plan['seed']}, not {seed})", file=sys.stderr)
        plan["resumed"] = plan.get("resumed", []) + [command_line()]
        plan_file.write_text(json.dumps(plan))
    else:
        plan = {"seed": seed, "command": command_line(), "games": GAMES, "horizon": HORIZON, "variants": {}}
        for variant in VARIANTS:
            found = find_positions(variant, seed, TARGETS)
            items = [{"index": k, "phase": phase, "id": found[phase][i][0], "dice": found[phase][i][1]}
                     for k, (phase, i) in enumerate(order(found))]
            plan["variants"][variant] = items
            print(f"{variant}: {len(items)} decisions", flush=True)
        plan_file.write_text(json.dumps(plan))
        for variant in VARIANTS:
            (work / f"{variant}.jsonl").write_text("")
    seed = plan["seed"]
    done = {}
    for variant in VARIANTS:
        path = work / f"{variant}.jsonl"
        lines = path.read_text().splitlines() if path.exists() else []
        done[variant] = {json.loads(line)["index"] for line in lines if line.strip()}
    todo = {v: [it for it in plan["variants"][v] if it["index"] not in done[v]] for v in VARIANTS}
    # alternate the variants batch by batch
    start = time.time()
    count = {v: len(done[v]) for v in VARIANTS}
    while any(todo.values()):
        for variant in VARIANTS:
            if not todo[variant]:
                continue
            if until is not None and time.time() >= until:
                print("time is up", flush=True)
                return
            items, todo[variant] = todo[variant][:BATCH], todo[variant][BATCH:]
            records = judge(items, variant, seed, Rules(variant), games or plan["games"])
            with open(work / f"{variant}.jsonl", "a") as f:
                f.write("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records))
                f.flush()
            count[variant] += len(records)
            print(f"{variant} {count[variant]} done, {time.time() - start:.0f} s", flush=True)
            if limit is not None and sum(count.values()) >= limit:
                return


def full(work: Path, count: int, until: float | None, games: int = GAMES) -> None:
    """Roll the candidates of the first `count` contact decisions of each variant out to the end
    of the game (no truncation; the same games a candidate, other dice), appending records of
    the same form to W/full-<variant>.jsonl: the check of the truncation (docs/evaluator.md)."""
    plan = json.loads((work / "plan.json").read_text())
    for variant in VARIANTS:
        rules = Rules(variant)
        path = work / f"full-{variant}.jsonl"
        done = {json.loads(x)["index"] for x in path.read_text().splitlines()} if path.exists() else set()
        records = [json.loads(x) for x in (work / f"{variant}.jsonl").read_text().splitlines() if x.strip()]
        todo = [r for r in sorted(records, key=lambda r: r["index"]) if r["phase"] == "contact"][:count]
        todo = [r for r in todo if r["index"] not in done]
        start = time.time()
        for k in range(0, len(todo), BATCH):
            if until is not None and time.time() >= until:
                print("time is up", flush=True)
                return
            items = todo[k:k + BATCH]
            afters, dice = [], []
            for r in items:
                position = Position.from_id(r["id"], rules=rules)
                moves, children = position._plays(r["dice"], rules, None)
                result = dict(zip((str(m) for m in moves), children))
                afters += [np.frombuffer(result[p[0]], np.int8) for p in r["plays"]]
                rolls = dice_of(plan["seed"] + 1, variant, r["index"], games, FULL_PLIES)
                dice += [rolls] * len(r["plays"])
            values = truncated_rollouts(np.stack(afters), np.stack(dice), rules)
            at, lines = 0, []
            for r in items:
                v = values[at:at + len(r["plays"])]
                at += len(r["plays"])
                means = v.mean(axis=1)
                best = int(np.argmax(means))
                se = v.std(axis=1, ddof=1) / np.sqrt(games)
                dse = (v - v[best]).std(axis=1, ddof=1) / np.sqrt(games)
                plays = sorted(([p[0], round(float(m), 4), round(float(s_), 4), round(float(d), 4)]
                                for p, m, s_, d in zip(r["plays"], means, se, dse)), key=lambda x: -x[1])
                lines.append(json.dumps({**r, "games": games, "plays": plays}, separators=(",", ":")) + "\n")
            with open(path, "a") as f:
                f.write("".join(lines))
            print(f"full {variant} {len(done) + k + len(items)} done, {time.time() - start:.0f} s", flush=True)


def pack(work: Path, out: Path) -> None:
    """Write W's results as benchmarks/data/decisions-<variant>.jsonl.gz (and the untruncated
    check's as decisions-<variant>-full.jsonl.gz): a '# ' JSON header line, then a record a line."""
    plan = json.loads((work / "plan.json").read_text())
    for variant in VARIANTS:
        for name, source, extra in ((f"decisions-{variant}", f"{variant}.jsonl", {"horizon": plan["horizon"]}),
                                    (f"decisions-{variant}-full", f"full-{variant}.jsonl",
                                     {"horizon": None, "full": _read_command(work / "full-command.txt")})):
            if not (work / source).exists():
                continue
            lines = sorted((json.loads(x) for x in (work / source).read_text().splitlines() if x.strip()),
                           key=lambda r: r["index"])
            phases = {p: sum(r["phase"] == p for r in lines) for p in TARGETS}
            games: dict[str, int] = {}
            for r in lines:
                games[str(r.get("games", plan["games"]))] = games.get(str(r.get("games", plan["games"])), 0) + 1
            header = {"format": "nardy-decisions", "version": 1, "variant": variant, "seed": plan["seed"],
                      "command": plan["command"], "resumed": plan.get("resumed", []), **extra,
                      "pack": command_line(), "games": games, "decisions": len(lines), "phases": phases,
                      "method": "docs/evaluator.md, Decision benchmarks; benchmarks/make_decisions.py's docstring"}
            path = out / f"{name}.jsonl.gz"
            with gzip.GzipFile(path, "wb", mtime=0) as raw:
                raw.write(("# " + json.dumps(header) + "\n").encode())
                for r in lines:
                    raw.write((json.dumps(r, separators=(",", ":")) + "\n").encode())
            print(f"{path}: {len(lines)} decisions {phases}")


def _read_command(path: Path) -> str | None:
    return path.read_text().strip() if path.exists() else None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("run", "full", "pack"))
    parser.add_argument("--work", type=Path, required=True, help="the checkpoint directory")
    parser.add_argument("--resume", action="store_true", help="carry on from the work directory's results")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--until", type=float, default=None, help="stop at this Unix time (after a batch)")
    parser.add_argument("--limit", type=int, default=None, help="stop after this many decisions")
    parser.add_argument("--games", type=int, default=None, help="run: games a candidate (default: the plan's)")
    parser.add_argument("--count", type=int, default=200, help="full: the contact decisions of each variant")
    parser.add_argument("--out", type=Path, default=DATA)
    parser.add_argument("--nets", type=Path, default=None,
                        help="a directory with short.npz and long.npz to use instead of the shipped nets "
                             "(the stored files were made with the TD nets of commit 5ddedd3)")
    args = parser.parse_args(argv)
    NETS.clear()
    if args.nets is not None:
        NETS.update({v: nets.Net.load(args.nets / f"{v}.npz") for v in VARIANTS})
    if args.action == "run":
        run(args.work, args.resume, args.seed, args.until, args.limit, args.games)
    elif args.action == "full":
        if not (args.work / "full-command.txt").exists():
            (args.work / "full-command.txt").write_text(command_line())
        full(args.work, args.count, args.until, args.games or GAMES)
    else:
        pack(args.work, args.out)


if __name__ == "__main__":
    main()
