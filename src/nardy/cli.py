"""The `nardy` command: show or draw a board, count perft, list legal moves. The only module that prints."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from typing import Any, TextIO

import numpy as np

from . import __version__, batch, engine
from .errors import InvalidNotationError, NardyError
from .notation import read_position, xgid
from .position import Position
from .rules import OPTIONS, Color, Rules, Variant

POSITION_HELP = ("26 comma-separated ints (mover's view), a position ID (gnubg's, optionally ':MATCHID'; "
                 "NL1W:... for long nardy) or an XGID")
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
    return read_position(args.position, rules, args.turn)


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


def cmd_svg(args: argparse.Namespace, out: TextIO) -> None:
    from .svg import board

    rules = _rules_from(args)
    position = _position(args, rules)
    dice = None
    if args.dice is not None:
        parts = args.dice.replace(",", "-").split("-")
        if len(parts) != 2:
            raise InvalidNotationError(f"--dice takes two dice as D1-D2, e.g. 6-5, got {args.dice!r}")
        dice = (_die(parts[0]), _die(parts[1]))
    move = None
    if args.move is not None:
        if dice is None:
            raise InvalidNotationError("--move needs --dice: the roll it plays")
        move = position.parse_move(args.move, dice, rules)
    if args.after and move is None:
        raise InvalidNotationError("--after needs --move: the move whose result is drawn")
    text = board(position, dice=dice, move=move, after=args.after, rules=rules, bottom=Color.BLACK if args.flip else Color.WHITE,
                 home=args.home, size=args.size)
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(text)
    print(args.output, file=out)


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
    position = read_position(args.position, rules, args.turn)
    dice = (_die(args.dice[0]), _die(args.dice[1]))
    found = engine.results(position.to_bytes(), dice, rules, args.backend)
    for child, pairs in sorted(found, key=lambda r: engine.as_ints(r[0])):
        move = position.move(dice, pairs)
        if args.ids:
            print(f"{str(move):<28}{position.apply(move, rules).id()}", file=out)
        else:
            print(f"{','.join(map(str, engine.as_ints(child)))}  {move}", file=out)


def cmd_convert(args: argparse.Namespace, out: TextIO) -> None:
    rules = _rules_from(args)
    position = read_position(args.position, rules, args.turn)
    if args.to == "array":
        print(",".join(map(str, position.view())), file=out)
    elif args.to == "id":
        print(position.id(), file=out)
    else:
        print(xgid(position), file=out)


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


def cmd_replay(args: argparse.Namespace, out: TextIO) -> None:
    from . import matfile

    record = matfile.load(args.file)
    names = dict(zip((Color.WHITE, Color.BLACK), record.players))
    width = max(map(len, record.players))
    match = record.match
    length = f"{match.length} point match" if match.length else "money session"
    print(f"{length} of {record.rules.variant.value} nardy, {record.rules!r}: "
          f"{names[Color.WHITE]} (White) vs {names[Color.BLACK]} (Black)", file=out)
    for tag, value in record.tags.items():
        print(f"  {tag}: {value}", file=out)
    for number, game in enumerate(match.games, 1):
        white, black = game.score
        crawford = ", the Crawford game" if game.crawford_game else ""
        print(f"\nGame {number}: {names[Color.WHITE]} {white}, {names[Color.BLACK]} {black}{crawford}; "
              f"{names[game.starter]} starts", file=out)  # type: ignore[index]
        turn = 0
        for color, kind, value in game.history():
            who = names[color].ljust(width)
            if kind == "move":
                turn += 1
                print(f"{turn:4d}  {who}  {value.dice[0]}{value.dice[1]}  {value}", file=out)
            elif kind == "double":
                print(f"      {who}  doubles to {value}", file=out)
            elif kind == "resign":
                print(f"      {who}  resigns", file=out)
            else:
                print(f"      {who}  {kind}s", file=out)
        result = game.result
        if result is None:
            print("      (unfinished)", file=out)
        elif result.winner is None:
            print("      drawn", file=out)
        else:
            print(f"      {names[result.winner]} wins {result.points} point{'s' if result.points != 1 else ''} "
                  f"({result.kind})", file=out)
        if args.boards:
            print(game.position, file=out)
    score = ", ".join(f"{names[c]} {match.score[c]}" for c in (Color.WHITE, Color.BLACK))
    won = f"; {names[match.winner]} wins the match" if match.winner is not None else ""
    print(f"\n{len(match.games)} game(s), every move checked. Score: {score}{won}", file=out)


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


def cmd_race(args: argparse.Namespace, out: TextIO) -> None:
    from .race import race_odds

    rules = _rules_from(args)
    position = read_position(args.position, rules, args.turn)
    odds = race_odds(position)
    gammon = "gammon" if rules.variant is Variant.SHORT else "mars"
    names = (position.turn.name.lower() + " (on roll)", position.turn.other.name.lower())
    print(f"{'':18}{names[0]:>16}{names[1]:>12}", file=out)
    print(f"{'pips':18}{odds.pips[0]:>16}{odds.pips[1]:>12}", file=out)
    print(f"{'expected turns':18}{odds.expected_turns[0]:>16.3f}{odds.expected_turns[1]:>12.3f}", file=out)
    print(f"{'effective pips':18}{odds.effective_pips[0]:>16.2f}{odds.effective_pips[1]:>12.2f}", file=out)
    print(f"{'wins':18}{100 * odds.win:>15.3f}%{100 * odds.lose:>11.3f}%", file=out)
    print(f"{'wins a ' + gammon:18}{100 * odds.win_gammon:>15.3f}%{100 * odds.lose_gammon:>11.3f}%", file=out)
    print(f"method: {odds.method}", file=out)


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
    show.add_argument("position", nargs="?", help=f"{POSITION_HELP}; default: the start")
    show.add_argument("--turn", default="white", choices=["white", "black"], help="the colour on roll")
    show.set_defaults(run=cmd_show)

    svg = commands.add_parser("svg", help="draw a board as an SVG file")
    common(svg, backend=False)
    svg.add_argument("position", nargs="?", help=f"{POSITION_HELP}; default: the start")
    svg.add_argument("--turn", default="white", choices=["white", "black"], help="the colour on roll")
    svg.add_argument("-o", "--output", required=True, metavar="FILE", help="the SVG file to write")
    svg.add_argument("--dice", metavar="D1-D2", help="draw the roll of the side on roll, e.g. 6-5")
    svg.add_argument("--move", metavar="MOVE", help="draw a legal move of --dice as arrows, e.g. '24/18 13/8'")
    svg.add_argument("--after", action="store_true", help="draw the board after --move, with its arrows (the last move)")
    svg.add_argument("--flip", action="store_true", help="Black at the bottom, the points in Black's numbers")
    svg.add_argument("--home", default="right", choices=["right", "left"], help="the bottom player's home side")
    svg.add_argument("--size", type=int, default=None, help="width in pixels (default: the natural width)")
    svg.set_defaults(run=cmd_svg)

    perft = commands.add_parser("perft", help="count the leaves of the game tree (docs/rules.md section 7)")
    common(perft)
    perft.add_argument("depth", type=int)
    perft.add_argument("position", nargs="?", help=f"{POSITION_HELP}; default: the start")
    perft.add_argument("--turn", default="white", choices=["white", "black"], help=argparse.SUPPRESS)
    perft.set_defaults(run=cmd_perft)

    moves = commands.add_parser("moves", help="list the distinct results of a roll")
    common(moves)
    moves.add_argument("position", nargs="?", help=POSITION_HELP)
    moves.add_argument("dice", nargs="*", help="D1 D2")
    moves.add_argument("--turn", default="white", choices=["white", "black"], help="the colour on roll (for a gnubg ID)")
    moves.add_argument("--ids", action="store_true", help="print each move with the ID of its result")
    moves.add_argument("--batch", metavar="FILE", help="read '<26 ints> D1 D2' lines from FILE ('-' for stdin)")
    moves.set_defaults(run=cmd_moves)

    convert = commands.add_parser("convert", help="print a position in another form")
    common(convert, backend=False)
    convert.add_argument("position", help=POSITION_HELP)
    convert.add_argument("--to", required=True, choices=["id", "xgid", "array"],
                         help="id: gnubg Position ID (short) or nardy ID (long); xgid: short only; array: mover's view")
    convert.add_argument("--turn", default="white", choices=["white", "black"], help="the colour on roll (for a gnubg ID or an array)")
    convert.set_defaults(run=cmd_convert)

    replay = commands.add_parser("replay", help="read a .mat match file, check every move and print the match")
    replay.add_argument("file", help="the .mat file (Jellyfish / GNU Backgammon text; LongNardy variation for long nardy)")
    replay.add_argument("--boards", action="store_true", help="print each game's final board")
    replay.set_defaults(run=cmd_replay)

    race = commands.add_parser("race", help="race odds: pips, expected turns, win and gammon/mars chances")
    common(race, backend=False)
    race.add_argument("position", help=POSITION_HELP)
    race.add_argument("--turn", default="white", choices=["white", "black"], help="the colour on roll")
    race.set_defaults(run=cmd_race)

    sim = commands.add_parser("simulate", help="play many games of self-play and summarise them")
    common(sim, backend=False)
    sim.add_argument("--games", type=int, required=True, help="how many games")
    sim.add_argument("--seed", type=int, default=None, help="root seed (default: a fresh one, printed)")
    sim.add_argument("--policy", default="random", help="random (default), first, greedy or bearoff")
    sim.add_argument("--threads", type=int, default=None, help="worker threads (default: all cores)")
    sim.add_argument("--chunk-size", type=int, default=1000, help="games per seeded chunk (default 1000)")
    sim.add_argument("--scheduler", metavar="ADDRESS", help="play the chunks on the Dask cluster of this scheduler "
                     "(tcp://host:8786; needs the dask extra, pip install '.[dask]') instead of local threads")
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
