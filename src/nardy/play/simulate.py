"""High-throughput self-play: whole games in the compiled core, chunked, seeded, threaded.

Games are split into chunks of `chunk_size`; chunk k draws its dice from a numpy PCG64 seeded
by `SeedSequence(seed).spawn(chunks)[k]`, so the results depend only on the seed and the chunk
size, never on the number of threads or Dask workers. `play_chunk` plays one chunk and `merge`
joins chunks in order; local threads and a Dask cluster (`nardy.play.distributed`) both use them.
"""

from __future__ import annotations

import json
import math
import os
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from . import distributed
from .. import _backend as engine, files
from .. import batch, reference
from ..errors import GameOverError, InvalidArgumentError, NardyError, check_flag, check_whole, is_choice
from ..position import Position
from ..rules import Rules, Variant
from .threads import map_in_order

POLICIES = ("random", "first", "greedy", "bearoff")
MAX_PLIES = 100_000  # a game still going after this many plies is an error (as in the core's loop)
KINDS = {
    Variant.LONG: {0: "draw", 1: "oin", 2: "mars", 3: "koks"},
    Variant.SHORT: {0: "draw", 1: "single", 2: "gammon", 3: "backgammon"},
}


GAME_BYTES = 37  # a game's results: winner, starter, kind (1 byte each), plies (4), final pips (4), board (26)


class SimulationError(InvalidArgumentError):
    """Bad arguments to `simulate`."""


@dataclass(repr=False)
class Simulation:
    """Per-game results of `simulate` (numpy arrays, one row per game) and a summary.

    winner: 0 White, 1 Black, -1 a draw (long nardy, last_roll_draw); starter: the colour that
    won the roll-off; kind: 1, 2, 3 for oin/mars/koks or single/gammon/backgammon, 0 a draw;
    points = kind (no doubling cube in self-play); plies: turns played, passes included;
    threads: the threads that played (no more than the chunks; a Dask cluster's worker threads);
    final_pips: (White's, Black's); final: the last move's result (26 ints, the view of the
    side that made it, before the turn passed). With `record`, trace[trace_offsets[i]:trace_offsets[i+1]]
    are game i's plies: 26 mover's-view ints, the two dice, and the colour on roll.
    """

    rules: Rules
    policy: str
    seed: int
    chunk_size: int
    threads: int
    seconds: float
    winner: npt.NDArray[np.int8]
    starter: npt.NDArray[np.int8]
    kind: npt.NDArray[np.int8]
    plies: npt.NDArray[np.int32]
    final_pips: npt.NDArray[np.int16]
    final: npt.NDArray[np.int8]
    trace: npt.NDArray[np.int8] | None = field(default=None, repr=False)
    trace_offsets: npt.NDArray[np.int64] | None = field(default=None, repr=False)

    @property
    def games(self) -> int:
        return len(self.winner)

    @property
    def points(self) -> npt.NDArray[np.int8]:
        return self.kind

    def summary(self) -> dict[str, Any]:
        """Rates with 95% Wilson intervals, mean plies and speed."""
        n = self.games
        kinds = KINDS[self.rules.variant]
        decided = self.winner >= 0
        out: dict[str, Any] = {
            "games": n,
            "white_wins": _rate(int((self.winner == 0).sum()), n),
            "black_wins": _rate(int((self.winner == 1).sum()), n),
            "starter_wins": _rate(int((self.winner == self.starter).sum()), n),
            "draws": _rate(int((~decided).sum()), n),
            "mean_plies": float(self.plies.mean()) if n else 0.0,
            "games_per_second": n / self.seconds if self.seconds > 0 else float("inf"),
        }
        for code, name in kinds.items():
            if code:
                out[name] = _rate(int((self.kind == code).sum()), n)
        return out

    def __repr__(self) -> str:
        s = self.summary()
        rates = f": White wins {100 * s['white_wins'][0]:.1f}%, Black {100 * s['black_wins'][0]:.1f}%" if self.games else ""
        return (f"<Simulation of {self.games:,} games, {self.rules.describe()}, policy {self.policy}, "
                f"seed {self.seed}{rates}>")

    def _repr_html_(self) -> str:
        """The summary as a table, for Jupyter."""
        from html import escape

        s = self.summary()
        names = ["white_wins", "black_wins", "starter_wins", *[k for k in KINDS[self.rules.variant].values()
                                                         if k != "draw" and (k != "koks" or self.rules.koks)]]
        if self.rules.variant is Variant.LONG and self.rules.last_roll_draw:
            names.append("draws")
        rows = "".join(f"<tr><td>{name.replace('_', ' ')}</td><td>{100 * s[name][0]:.2f}%</td>"
                       f"<td>{100 * s[name][1]:.2f}% .. {100 * s[name][2]:.2f}%</td></tr>" for name in names)
        return (f"<p>{escape(repr(self))}</p><table><tr><th></th><th>rate</th><th>95% interval</th></tr>{rows}"
                f"<tr><td>mean plies</td><td>{s['mean_plies']:.1f}</td><td></td></tr></table>")

    def save(self, path: str) -> None:
        """Per-game results as .npz (every array and the run's rules, policy, seed, chunk size,
        threads and seconds: `Simulation.load` reads it back) or .csv (one line per game)."""
        files.check_path(path, "a simulation is saved to")
        columns = {
            "winner": self.winner, "starter": self.starter, "kind": self.kind, "points": self.points,
            "plies": self.plies, "white_pips": self.final_pips[:, 0], "black_pips": self.final_pips[:, 1],
        }
        kind = str(path).lower()
        if kind.endswith(".npz"):
            arrays: dict[str, Any] = dict(columns, final=self.final, meta=np.array(json.dumps(self._meta())))
            if self.trace is not None:
                arrays.update(trace=self.trace, trace_offsets=self.trace_offsets)
            with open(path, "wb") as f:  # a file object: numpy adds no ".npz" to a name in other case
                np.savez_compressed(f, **arrays)
        elif kind.endswith(".csv"):
            table: npt.NDArray[Any] = np.column_stack([np.asarray(c) for c in columns.values()])
            np.savetxt(path, table, fmt="%d", delimiter=",", header=",".join(columns), comments="")
        else:
            raise SimulationError(f"cannot save a simulation to {os.fspath(path)!r}: the file name must end in .npz or .csv")


    def _meta(self) -> dict[str, Any]:
        return {"format": _FORMAT, "variant": self.rules.variant.value, "rules": self.rules.options(),
                "policy": self.policy, "seed": self.seed, "chunk_size": self.chunk_size, "threads": self.threads,
                "seconds": self.seconds}

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Simulation:
        """The `Simulation` that `save` (or `nardy simulate --out`) wrote to a .npz file, checked:
        a file that is not one (a .csv, which holds the per-game columns only, another .npz, a
        damaged or inconsistent one) is a `SimulationError` naming the path and what is wrong."""
        files.check_path(path, "a simulation is loaded from")
        name = os.fspath(path)
        if not str(name).lower().endswith(".npz"):
            raise SimulationError(f"cannot load a simulation from {name!r}: Simulation.load reads the .npz files save "
                                  "writes (a .csv holds the per-game columns only, without the rules and final boards)")
        try:
            with files.open_regular(path, SimulationError) as f, np.load(f, allow_pickle=False) as data:
                arrays = {key: data[key] for key in data.files}
        except SimulationError:
            raise
        except OSError as exc:
            raise SimulationError(f"cannot read {name!r}: {exc.strerror or exc}") from None
        except (ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
            raise SimulationError(f"{name}: not a simulation file nardy saved ({exc})") from None
        except MemoryError:  # an entry whose header declares more than memory holds
            raise SimulationError(f"{name}: not a simulation file nardy saved (an entry larger than memory)") from None
        try:
            return _from_arrays(arrays)
        except RecursionError:
            raise SimulationError(f"{name}: not a simulation file nardy saved (the header nests too deep)") from None
        except (ValueError, KeyError, TypeError, NardyError) as exc:
            raise SimulationError(f"{name}: not a simulation file nardy saved ({exc})") from None


_FORMAT = "nardy-simulation-1"
_COLUMNS = {"winner": (-1, 1), "starter": (0, 1), "kind": (0, 3), "points": (0, 3), "plies": (0, 2**31 - 1),
            "white_pips": (0, 375), "black_pips": (0, 375)}  # a column's lowest and highest value


def _from_arrays(arrays: dict[str, Any]) -> Simulation:
    """A Simulation from the arrays of a saved .npz, every array and the header checked."""
    if "meta" not in arrays or arrays["meta"].shape != () or arrays["meta"].dtype.kind != "U":
        raise ValueError("no header (the 'meta' entry)")
    meta = json.loads(str(arrays["meta"]))
    if not isinstance(meta, dict) or meta.get("format") != _FORMAT:
        raise ValueError(f"the header is not a {_FORMAT} header")
    rules = Rules(meta["variant"], **meta["rules"])
    for key, low in (("seed", 0), ("chunk_size", 1), ("threads", 1)):
        check_whole(meta[key], key, low)
    if not isinstance(meta["policy"], str) or not isinstance(meta["seconds"], (int, float)):
        raise ValueError("the header's policy or seconds is malformed")
    n = len(arrays.get("winner", ()))
    for key, (low, high) in _COLUMNS.items():
        column = arrays.get(key)
        if column is None or column.ndim != 1 or column.dtype.kind not in "iu" or len(column) != n:
            raise ValueError(f"{key!r} is missing or not a column of whole numbers as long as the others")
        if len(column) and (column.min() < low or column.max() > high):
            raise ValueError(f"{key!r} has values outside {low}..{high}")
    if (arrays["points"] != arrays["kind"]).any():
        raise ValueError("'points' differs from 'kind'")
    final = arrays.get("final")
    if final is None or final.shape != (n, 26) or final.dtype.kind not in "iu":
        raise ValueError("'final' is missing or not one 26-int board per game")
    if final.size and (final.min() < -15 or final.max() > 15):
        raise ValueError("'final' has entries outside -15..15")
    trace, offsets = arrays.get("trace"), arrays.get("trace_offsets")
    if (trace is None) != (offsets is None):
        raise ValueError("'trace' and 'trace_offsets' come together")
    if trace is not None and offsets is not None:
        if trace.ndim != 2 or trace.shape[1] != 29 or trace.dtype.kind not in "iu" or offsets.dtype.kind not in "iu" \
                or offsets.shape != (n + 1,) or offsets[0] != 0 \
                or (np.diff(offsets) < 0).any() or offsets[-1] != len(trace):
            raise ValueError("'trace' and 'trace_offsets' do not fit the games")
        if trace.size and (trace.min() < -128 or trace.max() > 127):
            raise ValueError("'trace' has entries outside int8's -128..127")
        trace, offsets = trace.astype(np.int8), offsets.astype(np.int64)
    return Simulation(
        rules=rules, policy=meta["policy"], seed=meta["seed"], chunk_size=meta["chunk_size"],
        threads=meta["threads"], seconds=float(meta["seconds"]),
        winner=arrays["winner"].astype(np.int8), starter=arrays["starter"].astype(np.int8),
        kind=arrays["kind"].astype(np.int8), plies=arrays["plies"].astype(np.int32),
        final_pips=np.column_stack([arrays["white_pips"], arrays["black_pips"]]).astype(np.int16).reshape(n, 2),
        final=final.astype(np.int8), trace=trace, trace_offsets=offsets)


def _rate(count: int, n: int) -> tuple[float, float, float]:
    """(rate, low, high): the share and its 95% Wilson score interval."""
    if n == 0:
        return (0.0, 0.0, 0.0)
    z = 1.959963984540054
    p = count / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (p, max(0.0, centre - half), min(1.0, centre + half))


def simulate(
    rules: Rules | Variant | str,
    games: int,
    *,
    seed: int | None = None,
    policy: str | Callable[[npt.NDArray[np.int8]], Any] = "random",
    threads: int | None = None,
    chunk_size: int = 1000,
    record: bool = False,
    start: Position | None = None,
    progress: Callable[[int, int], None] | None = None,
    executor: Any = None,
) -> Simulation:
    """Play `games` complete games of self-play in the compiled core.

    Parameters
    ----------
    rules : Rules or str
        The rules, or a variant ("long", "short") for its default rules.
    games : int
        The number of games.
    seed : int or None
        The root seed; None draws one (it is kept in the result).
    policy : str or callable
        "random" (uniform among the distinct resulting positions), "first" (the first
        legal play generated) or "greedy" (a race policy: the lowest own pip count after the
        move, then the fewest blots, then the first generated), "bearoff" (the bear-off table's
        play, `nardy.evaluation.bearoff`, whenever the mover's checkers are all home; else the lowest pip
        count, then the fewest checkers outside home, then the least waste of those home), "net"
        (the evaluator's 0-ply play, `nardy.evaluation.net.NetPolicy`); or a function that scores
        afterstates: given an (m, 26) int8 array of positions after the move (the mover's view,
        before the turn passes) it returns m numbers, and each game plays its highest-scored
        one (the first on ties). It is called once per ply for all unfinished games of a chunk
        at once, from the calling thread (so `threads` does not apply), and `record` is not
        available with it.
    threads : int or None
        Worker threads over chunks; default all cores. Results do not depend on it.
    chunk_size : int
        Games per chunk (and per seed of the SeedSequence).
    record : bool
        Also keep every ply (board, dice, colour on roll).
    start : Position or None
        Play every game on from this position (a rollout) with its side on roll, which
        rolls at once; by default each game is new and starts with the roll-off.
    progress : callable or None
        Called as progress(games_done, games) after each chunk.
    executor : distributed.Client or None
        A Dask client to play the chunks on its cluster's workers, one task per chunk,
        instead of on local threads (then `threads` must be left out). The results are the same as a local run's with the same seed and chunk size; see
        `nardy.play.distributed`. A function `policy` must then be picklable (cloudpickle).

    Raises
    ------
    SimulationError
        For bad arguments, and if a game has not ended after `MAX_PLIES` plies. Ctrl-C
        (KeyboardInterrupt) stops every chunk within a fraction of a second.
    """
    rules = rules if isinstance(rules, Rules) else Rules(rules)
    check_whole(games, "games", 0, error=SimulationError)
    record = check_flag(record, "record", error=SimulationError)
    if is_choice(policy, ("net",)):
        from ..evaluation.net import NetPolicy

        policy = NetPolicy(rules)
    if not callable(policy) and not is_choice(policy, POLICIES):
        raise SimulationError(f"unknown policy {policy!r}; choose one of {', '.join(POLICIES)}, net or give a function")
    if callable(policy) and record:
        raise SimulationError("record=True needs a built-in policy")
    check_whole(chunk_size, "chunk_size", 1, error=SimulationError)
    engine.check_memory(games * GAME_BYTES, f"{games:,} games need {games * GAME_BYTES:,} bytes for their results "
                        f"({GAME_BYTES} a game)", "play them in parts", SimulationError)
    if executor is not None:
        distributed.check_executor(executor, threads is not None, SimulationError)
        problem = distributed.pickling_error(policy) if callable(policy) else None
        if problem:
            raise SimulationError(f"the policy function cannot be sent to the Dask workers: {problem}")
    threads = threads if threads is not None else (os.cpu_count() or 1)
    check_whole(threads, "threads", 1, error=SimulationError)
    if seed is None:
        seed = int(np.random.SeedSequence().entropy)  # type: ignore[arg-type]
    check_whole(seed, "seed", 0, error=SimulationError)
    if start is None:
        first_mover, start_view = -1, np.frombuffer(Position.start(rules.variant).to_bytes(), np.int8)
    else:
        if not isinstance(start, Position):
            raise SimulationError(f"start must be a Position, got {start!r}")
        start.validate(rules)
        if start.is_game_over():
            raise GameOverError(f"the game is over in the start position {start!r}")
        first_mover, start_view = int(start.turn), np.frombuffer(start.to_bytes(), np.int8)

    sizes = [min(chunk_size, games - first) for first in range(0, games, chunk_size)]
    chunks = [Chunk(rules, policy, start_view, first_mover, seq, size, record)
              for seq, size in zip(np.random.SeedSequence(seed).spawn(len(sizes)), sizes)]
    done = 0

    def finished(chunk_games: int) -> None:
        nonlocal done
        done += chunk_games
        if progress is not None:
            progress(done, games)

    started = time.perf_counter()
    name = policy if isinstance(policy, str) else getattr(policy, "__name__", "evaluator")
    if executor is None:
        joined = Joined(games, record)  # each chunk joined as it arrives, its trace let go
        stop = np.zeros(1, np.int8)  # set when this thread gives up: the chunks still playing stop
        threads = 1 if callable(policy) else max(1, min(threads, len(chunks)))  # the threads that play

        def take(result: dict[str, npt.NDArray[Any]]) -> None:
            joined.add(result)
            finished(len(result["winner"]))

        try:
            map_in_order(lambda chunk: play_chunk(chunk, stop), chunks, threads, take)
        except BaseException:  # an interrupt (Ctrl-C) or an error: the chunks still playing stop
            stop[0] = 1
            raise
        return joined.simulation(rules=rules, policy=name, seed=seed, chunk_size=chunk_size, threads=threads,
                                 seconds=time.perf_counter() - started)
    threads = distributed.threads(executor)
    results = distributed.run_in_order(executor, play_chunk, chunks, f"nardy-simulate-seed{seed}",
                                       lambda result: finished(len(result["winner"])))
    return merge(results, rules=rules, policy=name, seed=seed, chunk_size=chunk_size, threads=threads,
                 seconds=time.perf_counter() - started, record=record)


@dataclass(frozen=True)
class Chunk:
    """One chunk of a run, all that playing it needs: small picklable values, no position objects.

    `start` is the start board (26 int8, the view of the side on roll: colour `first_mover`,
    or -1 for new games that start with the roll-off); `seed` the chunk's own SeedSequence.
    """

    rules: Rules
    policy: str | Callable[[npt.NDArray[np.int8]], Any]
    start: npt.NDArray[np.int8]
    first_mover: int
    seed: np.random.SeedSequence
    games: int
    record: bool


class _Stopped(Exception):
    """A chunk stopped because its run was given up (the run raises its own exception)."""


def play_chunk(chunk: Chunk, stop: npt.NDArray[np.int8] | None = None) -> dict[str, npt.NDArray[Any]]:
    """Play one chunk with dice from PCG64(chunk.seed): the per-game arrays, a function of `chunk` alone.

    The unit of work of every executor (local threads, a Dask cluster's workers). `stop[0]` set
    by another thread makes it give up within a few games.
    """
    bit_generator = np.random.PCG64(chunk.seed)
    if callable(chunk.policy):
        return _play_evaluated(chunk.games, bit_generator, chunk.rules, chunk.policy, chunk.start, chunk.first_mover)
    rules = chunk.rules
    bearoff = None
    if chunk.policy == "bearoff":
        from ..evaluation.bearoff import load

        bearoff = load().mean  # the expected turns of every bear-off state (cached per process)
    out = engine.compiled.play_games(chunk.games, bit_generator, engine.core_rules(rules),
                               rules.variant is Variant.LONG and rules.koks, rules.opening == "dice",
                               engine.compiled.POLICIES[chunk.policy], chunk.start, chunk.first_mover, chunk.record,
                               bearoff, MAX_PLIES, stop)
    if out.get("error") == "too long":
        raise _too_long(chunk.start)
    if out.get("error") == "stopped":
        raise _Stopped()
    return out


def _too_long(start: npt.NDArray[np.int8]) -> SimulationError:
    return SimulationError(f"a game went on for {MAX_PLIES:,} plies (MAX_PLIES, the limit) without ending; "
                           f"start board (mover's view) {start.tolist()}")


def merge(chunks: list[dict[str, npt.NDArray[Any]]], *, rules: Rules, policy: str, seed: int, chunk_size: int,
          threads: int, seconds: float, record: bool) -> Simulation:
    """The chunks' per-game arrays, joined in chunk order, as one Simulation (the list is emptied
    as it is read, so that each chunk's trace is let go once it is joined)."""
    joined = Joined(sum(len(c["winner"]) for c in chunks), record)
    chunks.reverse()
    while chunks:
        joined.add(chunks.pop())
    return joined.simulation(rules=rules, policy=policy, seed=seed, chunk_size=chunk_size, threads=threads,
                             seconds=seconds)


class Joined:
    """Chunks' per-game arrays joined in order as they arrive. The trace, nearly all of a recorded
    run's memory, is copied into one buffer that grows in place to the size the games so far
    foretell (3% over), so that at most about 1.1x the output is held, not the chunks and their join."""

    NAMES = ("winner", "starter", "kind", "plies", "final_pips", "final")

    def __init__(self, games: int, record: bool) -> None:
        self.games, self.record, self.done = games, record, 0
        self.parts: dict[str, list[npt.NDArray[Any]]] = {name: [] for name in self.NAMES + ("lengths",)}
        self.trace: npt.NDArray[np.int8] | None = None
        self.plies = 0  # rows of the trace filled

    def add(self, chunk: dict[str, npt.NDArray[Any]]) -> None:
        for name in self.NAMES:
            self.parts[name].append(chunk[name])
        self.done += len(chunk["winner"])
        if self.record:
            self.parts["lengths"].append(np.diff(chunk["trace_offsets"]))
            self._add_trace(chunk.pop("trace"))

    def _add_trace(self, trace: npt.NDArray[np.int8]) -> None:
        end = self.plies + len(trace)
        if self.trace is None and self.done == self.games:  # one chunk: its own array, not copied
            self.trace, self.plies = trace, end
            return
        if self.trace is None:
            self.trace = np.empty((0, 29), np.int8)
        if end > len(self.trace):
            foretold = int(end * self.games / max(self.done, 1) * 1.03) + 1
            self.trace.resize((max(end, foretold), 29), refcheck=False)  # in place where it can
        self.trace[self.plies:end] = trace
        self.plies = end

    def simulation(self, *, rules: Rules, policy: str, seed: int, chunk_size: int, threads: int,
                   seconds: float) -> Simulation:
        def joined(name: str, shape: tuple[int, ...], dtype: Any) -> Any:
            return np.concatenate(self.parts[name]) if self.parts[name] else np.empty(shape, dtype)

        trace = offsets = None
        if self.record:
            trace = self.trace if self.trace is not None else np.empty((0, 29), np.int8)
            if len(trace) != self.plies:
                trace.resize((self.plies, 29), refcheck=False)
            lengths = joined("lengths", (0,), np.int64)
            offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
        return Simulation(
            rules=rules, policy=policy, seed=seed, chunk_size=chunk_size, threads=threads, seconds=seconds,
            winner=joined("winner", (0,), np.int8), starter=joined("starter", (0,), np.int8),
            kind=joined("kind", (0,), np.int8), plies=joined("plies", (0,), np.int32),
            final_pips=joined("final_pips", (0, 2), np.int16), final=joined("final", (0, 26), np.int8),
            trace=trace, trace_offsets=offsets,
        )


def _play_evaluated(
    games: int, bit_generator: np.random.BitGenerator, rules: Rules, evaluate: Callable[..., Any],
    start: npt.NDArray[np.int8], first_mover: int,
) -> dict[str, Any]:
    """One chunk with a user's afterstate evaluator: every unfinished game advances one ply per
    round, all of their afterstates scored in one call. The same game rules as the core's loop."""
    rng = np.random.Generator(bit_generator)
    variant = rules.variant
    boards = np.tile(start, (games, 1))
    opening = np.zeros((games, 2), np.int64)
    if first_mover < 0:  # the roll-off, ties rolled again
        starter = np.empty(games, np.int8)
        for g in range(games):
            while True:
                a, b = rng.integers(1, 7, size=2)
                if a != b:
                    break
            starter[g] = 0 if a > b else 1
            opening[g] = (a, b)
    else:
        starter = np.full(games, first_mover, np.int8)
    use_opening = first_mover < 0 and rules.opening == "dice"
    mover = starter.copy()
    plies = np.zeros(games, np.int32)
    winner = np.full(games, -2, np.int8)
    kind = np.zeros(games, np.int8)
    final = np.zeros((games, 26), np.int8)
    last_roll = np.zeros(games, bool)
    names = {"oin": 1, "mars": 2, "koks": 3, "single": 1, "gammon": 2, "backgammon": 3}
    active = np.arange(games)
    while active.size:
        if plies[active[0]] == MAX_PLIES:  # every unfinished game has played as many plies
            raise _too_long(start)
        dice = rng.integers(1, 7, size=(active.size, 2))
        if use_opening:
            first = plies[active] == 0
            dice[first] = opening[active[first]]
        children, offsets, _ = batch.generate(boards[active], dice, rules) if not last_roll[active].any() else \
            _generate_rows(boards[active], dice, rules, last_roll[active])
        try:
            scores = np.asarray(evaluate(children), dtype=np.float64)
        except (TypeError, ValueError) as exc:  # not numbers: say so as the other checks do
            raise SimulationError(f"the evaluator must return {len(children)} finite scores, got what is not "
                                  f"numbers ({exc})") from None
        if scores.shape != (len(children),) or not np.isfinite(scores).all():
            raise SimulationError(f"the evaluator must return {len(children)} finite scores, got shape {scores.shape}")
        counts = np.diff(offsets)
        segment = np.repeat(np.arange(active.size), counts)
        best = np.maximum.reduceat(scores, offsets[:-1])
        index = np.where(scores == best[segment], np.arange(len(scores)), len(scores))
        chosen = children[np.minimum.reduceat(index, offsets[:-1])]
        plies[active] += 1
        left = (np.where(chosen[:, 1:26] > 0, chosen[:, 1:26], 0)).sum(axis=1)
        keep = []
        for i, g in enumerate(active.tolist()):
            board = tuple(int(n) for n in chosen[i])
            if last_roll[g] or left[i] == 0:
                final[g] = chosen[i]
                if last_roll[g]:
                    if left[i] == 0:
                        winner[g], kind[g] = -1, 0
                        continue
                    winner[g] = 1 - mover[g]
                    kind[g] = names[reference.result(reference.flip(board, variant), rules)[0]]  # type: ignore[index]
                    continue
                if variant is Variant.LONG and rules.last_roll_draw and mover[g] == starter[g]:
                    last_roll[g] = True
                else:
                    winner[g] = mover[g]
                    kind[g] = names[reference.result(board, rules)[0]]  # type: ignore[index]
                    continue
            keep.append(i)
        keep_index = np.array(keep, np.int64)
        moving = active[keep_index]
        boards[moving] = batch.flip(chosen[keep_index], variant) if len(keep_index) else boards[moving]
        mover[moving] = 1 - mover[moving]
        active = moving
    final_pips = np.zeros((games, 2), np.int16)
    for g in range(games):  # (White's, Black's): `final` is seen by its last mover
        last = int(starter[g] if plies[g] % 2 else 1 - starter[g])
        mine, theirs = reference.pips(tuple(int(n) for n in final[g]), variant)
        final_pips[g, last], final_pips[g, 1 - last] = mine, theirs
    return {"winner": winner, "kind": kind, "plies": plies, "starter": starter, "final_pips": final_pips,
            "final": final}


def _generate_rows(boards: Any, dice: Any, rules: Rules, last_roll: Any) -> tuple[Any, Any, Any]:
    """batch.generate, but rows whose opponent has just finished take their last roll."""
    children, offsets, moves = [], [0], []
    for board, roll, last in zip(boards, dice.tolist(), last_roll.tolist()):
        n, found, steps = engine.raw_results(board.tobytes(), roll, rules, last)
        children.append(np.frombuffer(found, np.int8).reshape(n, 26))
        moves.append(np.frombuffer(steps, np.int8).reshape(n, 8))
        offsets.append(offsets[-1] + n)
    return np.concatenate(children), np.array(offsets), np.concatenate(moves)


__all__ = ["MAX_PLIES", "Simulation", "SimulationError", "simulate"]
