"""The `nardy` command: show a board, count perft, list legal moves. The only module that prints."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from typing import Any, TextIO

import numpy as np

from . import __version__, batch, engine
from .errors import InvalidNotationError, NardyError
from .position import Position
from .rules import OPTIONS, Color, Rules, Variant

_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


def parse_view(text: str) -> list[int]:
    """A POSITION argument: 26 comma-separated integers (the mover's-view array)."""
    parts = [p.strip() for p in text.replace(" ", "").split(",")]
    try:
        values = [int(p) for p in parts]
    except ValueError:
        raise InvalidNotationError(f"a position is 26 comma-separated integers, got {text!r}") from None
    if len(values) != 26:
        raise InvalidNotationError(f"a position is 26 comma-separated integers, got {len(values)} in {text!r}")
    return values


def _rules_from(args: argparse.Namespace) -> Rules:
    chosen: dict[str, Any] = {}
    for name, (_, choices, _) in OPTIONS.items():
        value = getattr(args, name)
        if value is None:
            continue
        if isinstance(choices[0], bool):
            if value.lower() not in _TRUE + _FALSE:
                raise InvalidNotationError(f"--{name.replace('_', '-')} takes true or false, got {value!r}")
            value = value.lower() in _TRUE
        chosen[name] = value
    return Rules(args.variant, **chosen)


def _position(args: argparse.Namespace, rules: Rules) -> Position:
    if args.position is None:
        return Position.start(rules.variant, args.turn)
    return Position(parse_view(args.position), rules.variant, args.turn, rules=rules)


def _die(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise InvalidNotationError(f"a die is a number 1..6, got {text!r}") from None


def cmd_show(args: argparse.Namespace, out: TextIO) -> None:
    rules = _rules_from(args)
    position = _position(args, rules)
    print(position, file=out)
    print(f"\n{position!r}", file=out)


def cmd_perft(args: argparse.Namespace, out: TextIO) -> None:
    rules = _rules_from(args)
    position = _position(args, rules)
    board = position.to_bytes()
    started = time.perf_counter()
    count = engine.perft(board, args.depth, rules, args.backend)
    seconds = time.perf_counter() - started
    print(f"# {rules!r} depth {args.depth}, backend {args.backend or engine.BACKEND}, {seconds:.3f} s", file=out)
    print(count, file=out)


def cmd_moves(args: argparse.Namespace, out: TextIO) -> None:
    rules = _rules_from(args)
    if args.batch is not None:
        source = sys.stdin if args.batch == "-" else open(args.batch, encoding="utf-8")
        with source:
            for line in _batch_lines(source, rules):
                print(line, file=out)
        return
    if args.position is None or args.dice is None or len(args.dice) != 2:
        raise InvalidNotationError("give POSITION D1 D2, or --batch FILE")
    position = Position(parse_view(args.position), rules.variant, rules=rules)
    dice = (_die(args.dice[0]), _die(args.dice[1]))
    found = engine.results(position.to_bytes(), dice, rules, args.backend)
    for child, pairs in sorted(found, key=lambda r: engine.as_ints(r[0])):
        move = position.move(dice, pairs)
        print(f"{','.join(map(str, engine.as_ints(child)))}  {move}", file=out)


def _batch_lines(lines: Any, rules: Rules) -> list[str]:
    """Answer each `<26 ints> D1 D2` line: sorted results joined by ';', '' for a pass, or 'error: ...'."""
    answers: list[str] = []
    boards, rolls, rows = [], [], []
    for line in lines:
        try:
            words = line.split()
            if len(words) != 3:
                raise InvalidNotationError(f"expected '<26 comma-separated ints> D1 D2', got {line.strip()!r}")
            board, dice = parse_view(words[0]), (_die(words[1]), _die(words[2]))
            Position(board, rules.variant, rules=rules)  # the same checks, one line at a time
            engine.check_dice(dice)
            if min(engine.reference.board.on_board(board)) == 0:
                raise engine.GameOverError(f"the game is over: a side has borne off all 15 checkers in {tuple(board)!r}")
        except NardyError as exc:
            answers.append(f"error: {exc}")
            continue
        rows.append(len(answers))
        answers.append("")
        boards.append(board)
        rolls.append(dice)
    if boards:
        children, offsets, _ = batch.generate(np.array(boards), np.array(rolls), rules)
        for i, row in enumerate(rows):
            found = children[offsets[i]:offsets[i + 1]]
            if len(found) == 1 and (found[0] == boards[i]).all():
                continue  # the turn passes: an empty line
            answers[row] = ";".join(",".join(map(str, r)) for r in sorted(map(tuple, found.tolist())))
    return answers


def cmd_simulate(args: argparse.Namespace, out: TextIO) -> None:
    from .distributed import connect
    from .simulate import simulate

    rules = _rules_from(args)
    progress = _progress_bar(args.games) if sys.stderr.isatty() and args.games >= 20000 else None
    client = connect(args.scheduler) if args.scheduler else None
    try:
        result = simulate(rules, args.games, seed=args.seed, policy=args.policy, threads=args.threads,
                          chunk_size=args.chunk_size, progress=progress, executor=client)
    finally:
        if client is not None:
            client.close()
    if progress is not None:
        print(file=sys.stderr)
    print(format_summary(result), file=out)
    if args.out:
        result.save(args.out)
        print(f"per-game results written to {args.out}", file=out)


def _progress_bar(total: int) -> Any:
    def show(done: int, games: int) -> None:
        filled = 30 * done // max(games, 1)
        print(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{games} games", end="", file=sys.stderr, flush=True)

    return show


def format_summary(result: Any) -> str:
    """A simulation's summary as a few readable lines."""
    s = result.summary()
    variant = result.rules.variant.value
    lines = [
        f"{result.games} games of {variant} nardy, {result.rules!r}, policy {result.policy}, seed {result.seed}",
        f"{result.seconds:.2f} s on {result.threads} thread(s): {s['games_per_second']:,.0f} games/s",
        "",
        f"{'':16}{'rate':>8}   95% interval",
    ]
    kinds = ["single", "gammon", "backgammon"] if variant == "short" else ["oin", "mars"] + (["koks"] if result.rules.koks else [])
    rows = ["white_wins", "black_wins", "starter_wins", *kinds]
    if result.rules.variant.value == "long" and result.rules.last_roll_draw:
        rows.append("draws")
    for name in rows:
        rate, low, high = s[name]
        lines.append(f"{name.replace('_', ' '):16}{100 * rate:7.2f}%   {100 * low:.2f}% .. {100 * high:.2f}%")
    lines.append(f"{'mean plies':16}{s['mean_plies']:8.1f}")
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="nardy", description="Rules engine for long nardy and short nardy (backgammon).")
    parser.add_argument("--version", action="version", version=f"nardy {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def common(p: argparse.ArgumentParser, backend: bool = True) -> None:
        p.add_argument("variant", type=Variant.parse, metavar="long|short")
        for name, (variants, choices, defaults) in OPTIONS.items():
            kinds = "/".join(v.value for v in variants)
            shown = "true|false" if isinstance(choices[0], bool) else "|".join(choices)
            p.add_argument(f"--{name.replace('_', '-')}", dest=name, metavar=shown,
                           help=f"rule option ({kinds}); default " + ", ".join(f"{v.value}: {d}" for v, d in defaults.items()))
        if backend:
            p.add_argument("--backend", choices=engine.BACKENDS, default=None, help="cython (default) or python (the reference)")

    show = commands.add_parser("show", help="print a board with pip counts")
    common(show)
    show.add_argument("position", nargs="?", help="26 comma-separated ints (mover's view); default: the start")
    show.add_argument("--turn", default="white", choices=["white", "black"], help="the colour on roll")
    show.set_defaults(run=cmd_show)

    perft = commands.add_parser("perft", help="count the leaves of the game tree (RULES.md section 7)")
    common(perft)
    perft.add_argument("depth", type=int)
    perft.add_argument("position", nargs="?", help="26 comma-separated ints (mover's view); default: the start")
    perft.add_argument("--turn", default="white", choices=["white", "black"], help=argparse.SUPPRESS)
    perft.set_defaults(run=cmd_perft)

    moves = commands.add_parser("moves", help="list the distinct results of a roll")
    common(moves)
    moves.add_argument("position", nargs="?", help="26 comma-separated ints (mover's view)")
    moves.add_argument("dice", nargs="*", help="D1 D2")
    moves.add_argument("--batch", metavar="FILE", help="read '<26 ints> D1 D2' lines from FILE ('-' for stdin)")
    moves.set_defaults(run=cmd_moves)

    sim = commands.add_parser("simulate", help="play many games of self-play and summarise them")
    common(sim, backend=False)
    sim.add_argument("--games", type=int, required=True, help="how many games")
    sim.add_argument("--seed", type=int, default=None, help="root seed (default: a fresh one, printed)")
    sim.add_argument("--policy", default="random", help="random (default), first or greedy")
    sim.add_argument("--threads", type=int, default=None, help="worker threads (default: all cores)")
    sim.add_argument("--chunk-size", type=int, default=1000, help="games per seeded chunk (default 1000)")
    sim.add_argument("--scheduler", metavar="ADDRESS", help="play the chunks on the Dask cluster of this scheduler "
                     "(tcp://host:8786; needs nardy[dask]) instead of local threads")
    sim.add_argument("--out", metavar="FILE", help="write per-game results to FILE (.npz or .csv)")
    sim.set_defaults(run=cmd_simulate)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; 0 on success, 2 on bad input (the error is printed to stderr)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        args.run(args, out or sys.stdout)
    except (NardyError, ValueError) as exc:
        print(f"nardy: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"nardy: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
