"""The fixed workload whose instruction counts `benchmarks.counts` tracks: one small run per kernel.

Each kernel names the compiled def (Python entry point) that it measures and returns how much work
it did, in its units. `benchmarks.counts` runs this module under callgrind with collection on only
inside those defs (`--toggle-collect`), and dumps the counts after each kernel by calling the
`MARKER` def, so Python's start-up, the imports and each kernel's setup are never counted. A setup
must therefore never call a measured def itself. Everything is seeded: the same build does the
same work, whatever the machine's load.

    python -m benchmarks.kernels UNITS.json      # (under valgrind; see benchmarks/counts.py)
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

DATA = Path(__file__).parent / "data"
MARKER = ("_hooks", "use_avx2")  # called after each kernel: callgrind dumps before entering it


@dataclass(frozen=True)
class Kernel:
    """One measured kernel: the compiled def (module, name or Class.method), its units, its run."""

    module: str
    function: str
    units: tuple[str, ...]
    run: Callable[[Callable[[], None]], dict[str, int]]


def corpus(variant: str, kind: str, positions: int) -> tuple[np.ndarray, np.ndarray]:
    """(views, rolls): the first `positions` corpus positions of `kind`, each with all 21 rolls."""
    from nardy import reference

    lines = [line for line in (DATA / f"{variant}.txt").read_text().splitlines() if not line.startswith("#")]
    boards = np.array([list(map(int, line.split(","))) for line in lines], np.int8)
    boards = boards[:1000] if kind == "contact" else boards[1000:]
    boards = boards[:positions]
    rolls = np.array(reference.ROLLS, np.int8)
    return np.repeat(boards, len(rolls), axis=0), np.tile(rolls, (len(boards), 1))


def rows(variant: str, n: int) -> np.ndarray:
    """`n` corpus positions (contact and race, tiled), C-contiguous."""
    views, _ = corpus(variant, "contact", 1000)
    race, _ = corpus(variant, "race", 1000)
    boards = np.concatenate([views[::21], race[::21]])
    return np.ascontiguousarray(np.resize(boards, (n, 26)))


def movegen(variant: str, kind: str) -> Callable[[Callable[[], None]], dict[str, int]]:
    def run(begin: Callable[[], None]) -> dict[str, int]:
        from nardy import Rules, batch

        views, rolls = corpus(variant, kind, 100)
        begin()
        children, _, _ = batch.generate(views, rolls, Rules(variant))
        return {"result": len(children), "row": len(views)}
    return run


def single_call(variant: str) -> Callable[[Callable[[], None]], dict[str, int]]:
    def run(begin: Callable[[], None]) -> dict[str, int]:
        from nardy import Rules
        from nardy import _backend as engine

        views, rolls = corpus(variant, "contact", 40)
        boards = [v.tobytes() for v in views]
        codes = engine.core_rules(Rules(variant))
        moves = engine.generator().moves
        begin()
        results = sum(moves(b, int(d[0]), int(d[1]), codes)[1] for b, d in zip(boards, rolls.tolist()))
        return {"call": len(boards), "result": results}
    return run


def kernel_or_workspace(variant: str, kind: str, form: str) -> Callable[[Callable[[], None]], dict[str, int]]:
    """The movegen rows through the bare kernel (`_hooks.kernel`: nothing checked or kept) or
    through `Workspace.generate` (every row checked, the results kept in buffers sized by the
    setup, so nothing grows): per row, their difference is what the batch API adds (issue 13)."""
    def run(begin: Callable[[], None]) -> dict[str, int]:
        from nardy import Rules
        from nardy import _backend as engine, _core, _hooks

        views, rolls = (np.ascontiguousarray(a) for a in corpus(variant, kind, 100))
        codes = engine.core_rules(Rules(variant))
        if form == "kernel":
            begin()
            results = _hooks.kernel(views, rolls, codes)
        else:
            workspace = _core.Workspace(results=64 * len(views), rows=len(views) + 1)
            begin()
            code, _, children, _, _ = workspace.generate(views, rolls, codes)
            assert code == 0, code
            results = len(children)
        return {"result": results, "row": len(views)}
    return run


def batch_overhead(begin: Callable[[], None]) -> dict[str, int]:
    from nardy import Rules, batch

    dancing = np.zeros(26, np.int8)
    dancing[25], dancing[1], dancing[19:25], dancing[18] = 1, 14, -2, -3
    views = np.ascontiguousarray(np.tile(dancing, (20_000, 1)))
    rolls = np.ones((len(views), 2), np.int8)
    begin()
    children, _, _ = batch.generate(views, rolls, Rules("short"))
    return {"row": len(views)}


def pips(variant: str) -> Callable[[Callable[[], None]], dict[str, int]]:
    def run(begin: Callable[[], None]) -> dict[str, int]:
        from nardy import Variant, batch

        views = rows(variant, 50_000)
        begin()
        batch.pips(views, Variant(variant))
        return {"row": len(views)}
    return run


def six_blocks(begin: Callable[[], None]) -> dict[str, int]:
    from nardy import Rules, batch

    views = rows("long", 50_000)
    begin()
    batch.illegal_blocks(views, Rules("long"))
    return {"row": len(views)}


def status(begin: Callable[[], None]) -> dict[str, int]:
    from nardy import Rules
    from nardy import _backend as engine
    from nardy import _core

    views = rows("long", 20_000)
    codes = engine.core_rules(Rules("long"))
    begin()
    _core.status(views, codes)
    return {"row": len(views)}


def perft(variant: str, depth: int) -> Callable[[Callable[[], None]], dict[str, int]]:
    def run(begin: Callable[[], None]) -> dict[str, int]:
        from nardy import Position, Rules
        from nardy import _backend as engine

        board, rules = Position.start(variant).to_bytes(), Rules(variant)
        begin()
        leaves = engine.perft(board, depth, rules, "cython")
        return {"leaf": leaves}
    return run


def simulate(variant: str) -> Callable[[Callable[[], None]], dict[str, int]]:
    def run(begin: Callable[[], None]) -> dict[str, int]:
        from nardy import simulate as play

        begin()
        games = play(variant, 40, seed=1, threads=1, chunk_size=40)
        return {"game": games.games, "ply": int(games.plies.sum())}
    return run


def environment(variant: str, steps: int, games: int = 256):
    """A VectorEnv of `games` games after `steps` random steps (none of them measured)."""
    from nardy.play.env import VectorEnv

    env = VectorEnv(variant, games, seed=1)
    env.reset()
    for _ in range(steps):
        env.step(env.sample_actions())
    return env


def env_step(variant: str) -> Callable[[Callable[[], None]], dict[str, int]]:
    def run(begin: Callable[[], None]) -> dict[str, int]:
        from nardy.play.env import VectorEnv

        env = VectorEnv(variant, 64, seed=1)
        env.reset()
        games = env._games  # the compiled Games: its sampled actions are not measured here
        steps = 40
        begin()
        for _ in range(steps):
            games.step(np.ascontiguousarray(games.sample(), np.int64))
        return {"step": steps * env.num_envs}
    return run


def env_sample(begin: Callable[[], None]) -> dict[str, int]:
    env = environment("long", 10)
    calls = 40
    begin()
    for _ in range(calls):
        env._games.sample()
    return {"game": calls * env.num_envs}


def afterstate_features(variant: str) -> Callable[[Callable[[], None]], dict[str, int]]:
    def run(begin: Callable[[], None]) -> dict[str, int]:
        env = environment(variant, 20)
        out = np.empty((len(env.afterstates), 198), np.float32)
        begin()
        env._games.afterstate_features(out)
        return {"afterstate": len(env.afterstates)}
    return run


def observation_features(begin: Callable[[], None]) -> dict[str, int]:
    env = environment("short", 20, 1024)
    begin()
    env._games.observation_features()
    return {"game": env.num_envs}


def bearoff_lookup(begin: Callable[[], None]) -> dict[str, int]:
    from nardy import _bearoff

    rng = np.random.default_rng(1)
    n = 50_000
    views = np.zeros((n, 26), np.int8)
    views[:, 1:7] = rng.multinomial(15, [1 / 6] * 6, size=n)
    views[:, 19:25] = -rng.multinomial(15, [1 / 6] * 6, size=n)[:, ::-1]
    mean = np.linspace(0.0, 10.0, _bearoff.N_STATES)  # the lookup's cost does not depend on the values
    begin()
    _bearoff.expected_turns(views, mean)
    return {"position": n}


def net_forward(variant: str) -> Callable[[Callable[[], None]], dict[str, int]]:
    def run(begin: Callable[[], None]) -> dict[str, int]:
        from nardy.evaluation.net import default_net

        env = environment(variant, 20)
        boards = np.ascontiguousarray(env.afterstates)
        net = default_net(variant)
        begin()
        net.forward(boards, after=True)
        return {"afterstate": len(boards)}
    return run


KERNELS: dict[str, Kernel] = {
    "movegen long contact": Kernel("_core", "generate", ("result", "row"), movegen("long", "contact")),
    "movegen long race": Kernel("_core", "generate", ("result", "row"), movegen("long", "race")),
    "movegen short contact": Kernel("_core", "generate", ("result", "row"), movegen("short", "contact")),
    "movegen short race": Kernel("_core", "generate", ("result", "row"), movegen("short", "race")),
    "movegen single call long": Kernel("_core", "Generator.moves", ("call", "result"), single_call("long")),
    "movegen single call short": Kernel("_core", "Generator.moves", ("call", "result"), single_call("short")),
    "kernel long race": Kernel("_hooks", "kernel", ("result", "row"), kernel_or_workspace("long", "race", "kernel")),
    "workspace long race": Kernel("_core", "Workspace.generate", ("result", "row"),
                                  kernel_or_workspace("long", "race", "workspace")),
    "kernel short contact": Kernel("_hooks", "kernel", ("result", "row"), kernel_or_workspace("short", "contact", "kernel")),
    "workspace short contact": Kernel("_core", "Workspace.generate", ("result", "row"),
                                      kernel_or_workspace("short", "contact", "workspace")),
    "batch overhead": Kernel("_core", "generate", ("row",), batch_overhead),
    "pips long": Kernel("_core", "pips", ("row",), pips("long")),
    "pips short": Kernel("_core", "pips", ("row",), pips("short")),
    "six-block checks": Kernel("_core", "blocks", ("row",), six_blocks),
    "status": Kernel("_core", "status", ("row",), status),
    "perft long 3": Kernel("_core", "perft", ("leaf",), perft("long", 3)),
    "perft short 2": Kernel("_core", "perft", ("leaf",), perft("short", 2)),
    "simulate long": Kernel("_simulate", "play_games", ("game", "ply"), simulate("long")),
    "simulate short": Kernel("_simulate", "play_games", ("game", "ply"), simulate("short")),
    "env step long": Kernel("_env", "Games.step", ("step",), env_step("long")),
    "env step short": Kernel("_env", "Games.step", ("step",), env_step("short")),
    "env sample": Kernel("_env", "Games.sample", ("game",), env_sample),
    "encode afterstates long": Kernel("_env", "Games.afterstate_features", ("afterstate",), afterstate_features("long")),
    "encode afterstates short": Kernel("_env", "Games.afterstate_features", ("afterstate",), afterstate_features("short")),
    "encode observations": Kernel("_env", "Games.observation_features", ("game",), observation_features),
    "bear-off lookup": Kernel("_bearoff", "expected_turns", ("position",), bearoff_lookup),
    "net forward long": Kernel("_net", "forward", ("afterstate",), net_forward("long")),
    "net forward short": Kernel("_net", "forward", ("afterstate",), net_forward("short")),
}


def main(argv: list[str]) -> int:
    """Run every kernel in order, calling the marker before and after its measured calls; write
    their units (and whether the AVX2 kernels and the x86-64-v3 walks are on) as JSON."""
    import importlib

    marker = getattr(importlib.import_module(f"nardy.{MARKER[0]}"), MARKER[1])
    avx2 = bool(marker(True))
    from nardy import _hooks

    report = {"avx2": avx2, "x86_64_v3": _hooks.use_x86_64_v3(True), "units": []}
    for kernel in KERNELS.values():
        report["units"].append(kernel.run(lambda: marker(True)))  # callgrind dumps the setup's cost (unused)
        marker(True)  # callgrind dumps what the kernel cost
    Path(argv[0]).write_text(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
