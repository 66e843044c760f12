"""The `nardy` command: show or draw a board, count perft, list legal moves. The only module that prints."""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, BinaryIO, NoReturn, TextIO, cast

import numpy as np

from . import __version__, batch, _backend as engine, reference
from .formats.diagram import NUMBERS, diagram
from .errors import GameOverError, InvalidArgumentError, InvalidDiceError, InvalidNotationError, NardyError
from .files import check_writable, write_text, write_whole
from .formats.ids import xgid
from .position import Position, read_position
from .rules import OPTIONS, Color, Rules, Variant

POSITION_HELP = ("26 comma-separated ints (mover's view), a position ID (gnubg's, optionally ':MATCHID'; "
                 "NL1W:... for long nardy) or an XGID")
JACOBY_HELP = ("the .mat files are short nardy played with the Jacoby rule (a .mat header does not say; "
               "GNU Backgammon's money sessions play it by default; .sgf files say it themselves)")
TURN_HELP = ("the colour on roll of an array or a gnubg Position ID (default white); an ID that names "
             "the side on roll (nardy long ID, XGID, ID:MATCHID) must agree")
NUMBERS_ARG: dict[str, Any] = {
    "default": "mover", "choices": NUMBERS,
    "help": "whose point numbers label the board: mover (the side on roll, as its moves are written; default), "
            "white (White's fixed frame) or black"}
PROGRESS_HELP = ("report progress on stderr even when it is not a terminal (a line every 5 s; "
                 "on a terminal it is always shown); stdout is unchanged")
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
        return Position.start(rules.variant, args.turn or "white")
    return _read(args.position, rules, args.turn)


def _read(text: str, rules: Rules, turn: str | None) -> Position:
    """A POSITION argument; a --turn that contradicts the side on roll the text names is an error."""
    position = read_position(text, rules)  # the side on roll the text names, else White
    if turn is None or position.turn.name.lower() == turn:
        return position
    try:
        return read_position(text, rules, turn)  # read once already: it fails only by contradicting it
    except InvalidNotationError:
        raise InvalidNotationError(f"--turn {turn} contradicts {text!r}, which has "
                                   f"{position.turn.name.lower()} on roll") from None


_DICE = re.compile(r"\s*([0-9]{1,3})\s*[-,\s]\s*([0-9]{1,3})\s*|\s*([0-9])([0-9])\s*")  # ASCII digits only


def parse_dice(words: str | Sequence[str]) -> tuple[int, int]:
    """Two dice, written the same way everywhere: `6 5`, `6-5`, `65` or `6,5` (one word or two)."""
    text = words if isinstance(words, str) else " ".join(words)
    negative = next((w for w in text.split() if re.match(r"-[0-9]", w)), None)
    if negative is not None:  # `5 -1` is a 5 and a -1, not the roll 5-1
        raise InvalidDiceError(f"a die shows 1..6, got {negative!r} in {text!r}")
    match = _DICE.fullmatch(text)
    if match is None:
        raise InvalidNotationError(f"dice are two numbers 1..6, written 6 5, 6-5, 65 or 6,5; got {text!r}")
    d1, d2 = (int(g) for g in match.groups() if g is not None)
    return engine.check_dice((d1, d2))


def _looks_like_dice(text: str) -> bool:
    return re.fullmatch(r"[0-9](\s*[-,]?\s*[0-9])?", text.strip()) is not None


def cmd_show(args: argparse.Namespace, out: TextIO) -> None:
    rules = _rules_from(args)
    position = _position(args, rules)
    print(diagram(position, args.numbers), file=out)
    state = _match_state(args.position, rules) if args.position is not None else None
    if state is not None:
        print(_describe_state(state), file=out)
    print(f"\n{position!r}", file=out)


def _match_state(text: str, rules: Rules) -> Any:
    """The `MatchState` an ID:MATCHID or an XGID carries besides the board (None for the others)."""
    from .formats.ids import parse_match_id
    from .position import parse_xgid

    text = text.strip()
    if re.fullmatch(r"[-a-oA-O]{26}(:[^:]*)+", text):
        text = "XGID=" + text
    if text.startswith("XGID="):
        return parse_xgid(text, rules)[1]
    if re.fullmatch(r"[A-Za-z0-9+/]{14}:.+", text):
        return parse_match_id(text.partition(":")[2])
    return None


def _describe_state(state: Any) -> str:
    """A Match ID's cube, score and dice in words (its players are gnubg's: 1 is White)."""
    def name(player: int) -> str:
        return "White" if player == 1 else "Black"

    match = (f"{state.match_length}-point match, White {state.score[1]}, Black {state.score[0]}"
             if state.match_length else "money game" + (" (Jacoby)" if state.jacoby else ""))
    crawford = ", the Crawford game" if state.crawford else ""
    owner = "centred" if state.cube_owner is None else f"owned by {name(state.cube_owner)}"
    if state.double_offered:
        action = f"{name(state.on_roll)} doubles to {2 * state.cube_value}, {name(state.turn)} to take or drop"
    elif state.dice is not None:
        action = f"{name(state.on_roll)} rolled {max(state.dice)}-{min(state.dice)}"
    else:
        action = f"{name(state.on_roll)} to roll"
    resigned = f"; {name(state.turn)} offered to resign {('a single game', 'a gammon', 'a backgammon')[state.resignation - 1]}" \
        if state.resignation else ""
    return f"{match}{crawford}; cube {state.cube_value} {owner}; {action}{resigned}"


def cmd_svg(args: argparse.Namespace, out: TextIO) -> None:
    from .formats.svg import board

    rules = _rules_from(args)
    position = _position(args, rules)
    output = _output(args.output, (".svg", ".png"))
    dice = parse_dice(args.dice) if args.dice is not None else None
    move = None
    if args.move is not None:
        if dice is None:
            raise InvalidNotationError("--move needs --dice: the roll it plays")
        move = position.parse_move(args.move, dice, rules)
    if args.after and move is None:
        raise InvalidNotationError("--after needs --move: the move whose result is drawn")
    text = board(position, dice=dice, move=move, after=args.after, rules=rules, bottom=Color.BLACK if args.flip else Color.WHITE,
                 home=args.home, size=args.size, numbers=args.numbers)
    if output.endswith(".png"):
        write_whole(output, lambda path: _png(text, path))
    else:
        write_text(output, text)
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
        given = ([args.position] if args.position is not None else []) + list(args.dice)
        extra = ([f"the arguments {' '.join(given)!r}"] if given else []) + \
            [flag for flag, on in (("--turn", args.turn is not None), ("--ids", args.ids)) if on]
        if extra:
            raise InvalidArgumentError(f"--batch reads every position and roll from its file, so {' and '.join(extra)} "
                                       "cannot be given with it")
        source = sys.stdin.buffer if args.batch == "-" else open(args.batch, "rb")
        try:
            for group in _line_groups(source):  # each group answered and flushed before reading on
                for answer in _batch_lines(group, rules):
                    out.write(answer + "\n")
                out.flush()
        finally:
            if source is not sys.stdin.buffer:
                source.close()
        return
    words = list(args.dice)
    if args.position is not None and _looks_like_dice(args.position):  # `nardy moves long 6 5`: the start
        words, args.position = [args.position, *words], None
    if not words:
        raise InvalidNotationError("give [POSITION] D1 D2 (POSITION defaults to the start), or --batch FILE")
    dice = parse_dice(words)
    position = _position(args, rules)
    _check_rolled(args.position, rules, dice)
    found = engine.results(position.to_bytes(), dice, rules, args.backend)
    for child, pairs in sorted(found, key=lambda r: engine.as_ints(r[0])):
        move = position.move(dice, pairs)
        if args.ids:
            print(f"{str(move):<28}{position.apply(move, rules).id()}", file=out)
        else:
            print(f"{','.join(map(str, engine.as_ints(child)))}  {move}", file=out)


def cmd_convert(args: argparse.Namespace, out: TextIO) -> None:
    rules = _rules_from(args)
    position = _read(args.position, rules, args.turn)
    if args.to == "array":
        print(",".join(map(str, position.view())), file=out)
    elif args.to == "id":
        print(position.id(), file=out)
    else:
        print(xgid(position), file=out)


_LINE_END = re.compile(rb"\r\n|\r|\n")


MAX_LINE = 4096  # bytes: a position line is under 200; a longer one is answered with an error


def _line_groups(stream: BinaryIO) -> Iterator[list[bytes]]:
    """The lines of a byte stream, whatever their endings (\\n, \\r\\n, \\r), in groups: the
    complete lines of each read, so that a line written to a pipe is answered before the next
    one is read, and a file is still answered many lines at a time. Of a line longer than
    MAX_LINE only its first MAX_LINE + 1 bytes are kept (for its error), so that no line is
    held or scanned whole."""
    pending, skip_lf = b"", False  # the start of the line still open (no line end in it)
    while True:
        chunk = stream.read1(1 << 16) if hasattr(stream, "read1") else stream.read(1 << 16)
        if not chunk:
            break
        if skip_lf and chunk.startswith(b"\n"):
            chunk = chunk[1:]  # the \n of a \r\n split between two reads
        group, start, skip_lf = [], 0, False
        for end in _LINE_END.finditer(chunk):
            group.append((pending + chunk[start:min(end.start(), start + MAX_LINE + 1)])[:MAX_LINE + 1])
            pending, start = b"", end.end()
            skip_lf = end.group() == b"\r" and start == len(chunk)
        pending += chunk[start:start + MAX_LINE + 1 - len(pending)]
        if group:
            yield group
    if pending:
        yield [pending]


def _batch_lines(lines: Sequence[bytes | str], rules: Rules) -> list[str]:
    """Answer each `<26 ints> D1 D2` line: sorted results joined by ';', '' for a pass, or 'error: ...'."""
    answers: list[str] = []
    boards, rolls, rows = [], [], []
    for raw in lines:
        try:
            if len(raw) > MAX_LINE:
                raise InvalidNotationError(f"the line is longer than {MAX_LINE} bytes (it starts {raw[:40]!r})")
            try:
                line = raw.decode("utf-8") if isinstance(raw, bytes) else raw
            except UnicodeDecodeError as exc:
                raise InvalidNotationError(f"the line is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
            words = line.split()
            if len(words) < 2:
                raise InvalidNotationError(f"expected '<26 comma-separated ints> D1 D2', got {line.strip()!r}")
            board, dice = parse_view(words[0]), parse_dice(words[1:])
            Position(board, rules.variant, rules=rules)  # the same checks, one line at a time
            engine.check_dice(dice)
            if min(reference.board.on_board(board)) == 0:
                raise GameOverError(f"the game is over: a side has borne off all 15 checkers in {tuple(board)!r}")
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


MATCH_SUFFIXES = (".mat", ".sgf")


def _load_match(path: str, strict: bool = True, jacoby: bool = False) -> Any:
    """A match file by its suffix: `.sgf` is GNU Backgammon's SGF, anything else `.mat` text
    (read as played with the Jacoby rule if `jacoby`: a .mat header does not say; SGF does)."""
    from .formats import matfile, sgf

    if path.lower().endswith(".sgf"):
        return sgf.load(path, strict=strict)
    return matfile.load(path, Rules("short", jacoby=True) if jacoby else None, strict=strict)


def _match_paths(arguments: Sequence[str]) -> list[tuple[str, bool]]:
    """Files named, the .mat, .sgf and .txt files under folders named, and what quoted globs
    match; each with whether it is to be sniffed first (a .txt file found in a folder)."""
    import glob
    import os

    paths: list[tuple[str, bool]] = []
    for argument in arguments:
        if os.path.isdir(argument):
            for folder, _, names in sorted(os.walk(argument)):
                paths += [(os.path.join(folder, n), n.lower().endswith(".txt")) for n in sorted(names)
                          if n.lower().endswith((*MATCH_SUFFIXES, ".txt"))]
        elif not os.path.exists(argument) and glob.has_magic(argument):
            paths += [(path, False) for path in sorted(glob.glob(argument, recursive=True))]
        else:
            paths.append((argument, False))
    return paths


def cmd_replay(args: argparse.Namespace, out: TextIO) -> None:
    import glob
    import os

    strict = not args.lenient
    one = args.files[0]
    if len(args.files) == 1 and (os.path.isfile(one) or not (os.path.isdir(one) or glob.has_magic(one))):
        _replay_one(args, _load_match(args.files[0], strict, args.jacoby), out)
        return
    from .formats.matfile import looks_like_match

    paths: list[str] = []
    failed = 0
    for path, sniff in _match_paths(args.files):
        if sniff and not looks_like_match(path):
            print(f"{path}: skipped: a .txt file that is not a match file (no ' N point match' line)", file=out)
            continue
        paths.append(path)
        try:
            record = _load_match(path, strict, args.jacoby)
        except (NardyError, OSError) as exc:
            failed += 1
            print(f"{path}: error: {exc}", file=out)
            continue
        match = record.match
        moves = sum(kind == "move" for game in match.games for _, kind, _ in game.history())
        names = dict(zip((Color.WHITE, Color.BLACK), record.players))
        score = f"{names[Color.WHITE]} {match.score[Color.WHITE]}, {names[Color.BLACK]} {match.score[Color.BLACK]}"
        warned = f", {len(record.warnings)} warning(s): " + "; ".join(map(str, record.warnings)) if record.warnings else ""
        print(f"{path}: {len(match.games)} game(s), {moves} moves, score {score}{warned}", file=out)
    if failed or not paths:
        raise NardyError(f"{failed} of {len(paths)} files could not be read" if paths else "no match files found")


def _replay_one(args: argparse.Namespace, record: Any, out: TextIO) -> None:
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
              f"{names[game.starter]} starts", file=out)
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
    for warning in record.warnings:
        print(f"warning: {warning}", file=out)


def cmd_convert_match(args: argparse.Namespace, out: TextIO) -> None:
    from .formats import matfile, sgf

    if not args.source.lower().endswith((*MATCH_SUFFIXES, ".txt")):
        raise InvalidNotationError(f"{args.source!r}: a match file to read ends in .mat, .sgf or .txt (.mat text)")
    if not args.target.lower().endswith(MATCH_SUFFIXES):
        raise InvalidNotationError(f"{args.target!r}: a match file ends in .mat or .sgf")
    _output(args.target, MATCH_SUFFIXES)  # its directory checked before any work
    record = _load_match(args.source, not args.lenient, args.jacoby)
    (sgf if args.target.lower().endswith(".sgf") else matfile).dump(record, args.target)
    print(f"{args.target}: {len(record.games)} game(s) written", file=out)


def cmd_simulate(args: argparse.Namespace, out: TextIO) -> None:
    from .play.distributed import connect
    from .play.simulate import simulate

    rules = _rules_from(args)
    if args.games < 1:
        raise InvalidArgumentError(f"--games is how many games to play, at least 1, got {args.games}")
    output = _output(args.out, (".npz", ".csv")) if args.out else None  # before the games, not after
    bar = sys.stderr.isatty() and args.games >= 20000
    progress = _progress_bar(args.games) if bar else None if sys.stderr.isatty() else _progress_lines(args.games)
    client = connect(args.scheduler) if args.scheduler else None
    try:
        result = simulate(rules, args.games, seed=args.seed, policy=args.policy, threads=args.threads,
                          chunk_size=args.chunk_size, progress=progress, executor=client)
    finally:
        if client is not None:
            client.close()
    if bar:
        print(file=sys.stderr)
    print(format_summary(result), file=out)
    if output is not None:
        write_whole(output, result.save)
        print(f"per-game results written to {args.out}", file=out)


def cmd_race(args: argparse.Namespace, out: TextIO) -> None:
    from .evaluation.bearoff import race_odds

    rules = _rules_from(args)
    position = _read(args.position, rules, args.turn)
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


def _position_and_dice(args: argparse.Namespace, rules: Rules) -> tuple[Position, tuple[int, int]]:
    """[POSITION] D1 D2, as `moves` reads them (the position defaults to the start)."""
    words = list(args.dice)
    if args.position is not None and _looks_like_dice(args.position):
        words, args.position = [args.position, *words], None
    if not words:
        raise InvalidNotationError("give [POSITION] D1 D2 (POSITION defaults to the start)")
    position, dice = _position(args, rules), parse_dice(words)
    _check_rolled(args.position, rules, dice)
    return position, dice


def _check_rolled(text: str | None, rules: Rules, dice: tuple[int, int]) -> None:
    """Dice given beside an ID:MATCHID or XGID that has a roll of its own must be that roll, and one
    with a double offered has none yet."""
    state = _match_state(text, rules) if text is not None and rules.variant is Variant.SHORT else None
    if state is not None and state.double_offered:
        raise InvalidArgumentError(f"{text!r} has a double offered: it is taken or dropped before any roll; the "
                                   f"take decision: nardy hint {rules.variant.value} '{text}'")
    if state is not None and state.dice is not None and sorted(state.dice) != sorted(dice):
        d1, d2 = max(state.dice), min(state.dice)
        raise InvalidArgumentError(f"dice {dice[0]}-{dice[1]} contradict {text!r}, which has {d1}-{d2} rolled")


def _refuse_rolled(text: str | None, rules: Rules, what: str) -> None:
    """Refuse an ID:MATCHID or XGID with dice rolled for a command that judges the position before
    the roll (`what`: how it does), pointing to `hint` for the plays of that roll."""
    state = _match_state(text, rules) if text is not None and rules.variant is Variant.SHORT else None
    if state is not None and state.dice is not None:
        d1, d2 = max(state.dice), min(state.dice)
        raise InvalidArgumentError(f"{text!r} has {d1}-{d2} rolled, and {what} before the roll; to rank the "
                                   f"plays of {d1}-{d2}: nardy hint {rules.variant.value} '{text}' {d1} {d2}")


def _probabilities(probs: Any, variant: Variant) -> str:
    gammon, bg = ("gammon", "backgammon") if variant is Variant.SHORT else ("mars", "koks")
    return (f"win {probs[0]:.3f} (w{gammon[0]} {probs[1]:.3f}, w{bg[0]} {probs[2]:.3f})  "
            f"lose {1 - probs[0]:.3f} (l{gammon[0]} {probs[3]:.3f}, l{bg[0]} {probs[4]:.3f})")


def _cube_state(text: str | None, rules: Rules, position: Position, jacoby: str | None) -> Any:
    """The match state a POSITION text carries (ID:MATCHID or an XGID), else a money game with
    the Jacoby rule unless `--jacoby false` (as gnubg's money sessions), its side on roll that of
    `position`. A --jacoby that a money game's text contradicts, or dice already rolled, are errors."""
    from .formats.ids import MatchState

    state = _match_state(text, rules) if text is not None else None
    if state is None:
        side = 1 if position.turn is Color.WHITE else 0
        return MatchState(jacoby=rules.jacoby if jacoby is not None else True, on_roll=side, turn=side)
    if jacoby is not None and not state.match_length and state.jacoby != rules.jacoby:
        raise InvalidArgumentError(f"--jacoby {jacoby} contradicts {text!r}, a money game "
                                   f"{'with' if state.jacoby else 'without'} the Jacoby rule")
    _refuse_rolled(text, rules, "the cube decision comes")
    return state


def _cube_hint(args: argparse.Namespace, rules: Rules, out: TextIO) -> None:
    """`hint` without dice: the cube decision of the side on roll at --ply, as gnubg's hint shows it."""
    from .evaluation.cube import decide
    from .evaluation.net import equity

    position = _position(args, rules)
    state = _cube_state(args.position, rules, position, args.jacoby)
    d = decide(position, state, args.ply, rules=rules)
    if state.match_length:
        game = (f"{state.match_length}-point match at {state.score[1]}-{state.score[0]} (white-black)"
                + (", Crawford game" if state.crawford else ""))
    else:
        game = "money" + (" (Jacoby)" if state.jacoby else "")
    owner = "centred" if state.cube_owner is None else ("white's" if state.cube_owner == 1 else "black's")
    print(f"{position.turn.name.lower()} on roll, {game}, cube {state.cube_value} {owner}: {args.ply}-ply cube decision", file=out)
    print(f"cubeless equity {float(equity(d.probabilities)):+.3f}  {_probabilities(d.probabilities, rules.variant)}", file=out)
    if not d.can_double:
        print(f"cubeful equity {d.no_double:+.3f}: {d.action}", file=out)
        return
    rows = [("No double" if state.cube_owner is None else "No redouble", d.no_double),
            ("Double, take", d.double_take), ("Double, pass", d.double_pass)]
    rows.sort(key=lambda row: abs(row[1] - d.equity) > 1e-12)  # the proper action's first
    print("cubeful equities:", file=out)
    for i, (name, value) in enumerate(rows, 1):
        diff = "" if i == 1 else f"({value - d.equity:+.3f})"
        print(f"{i:>3}. {name:<16} {value:+.3f} {diff:>8}".rstrip(), file=out)
    take_point = cast(float, d.take_point)  # a side that can double has a take point
    print(f"proper cube action: {d.action}; take point {100 * take_point:.1f}% "
          f"(cube efficiency {d.efficiency:.3f})", file=out)


def cmd_hint(args: argparse.Namespace, out: TextIO) -> None:
    from .evaluation.net import rank

    rules = _rules_from(args)
    no_dice = not args.dice and not (args.position is not None and _looks_like_dice(args.position))
    if no_dice and rules.variant is Variant.SHORT:
        _cube_hint(args, rules, out)
        return
    position, dice = _position_and_dice(args, rules)
    ranked = rank(position, dice, rules, ply=args.ply)
    best = ranked[0][1]
    print(f"{position.turn.name.lower()} to play {dice[0]}-{dice[1]}, {args.ply}-ply cubeless equities:", file=out)
    for i, (move, eq, probs) in enumerate(ranked[:args.top], 1):
        diff = "" if i == 1 else f"({eq - best:+.3f})"
        print(f"{i:>3}. {str(move):<24} {eq:+.3f} {diff:>8}  {_probabilities(probs, rules.variant)}", file=out)
    if len(ranked) > args.top:
        print(f"     ... {len(ranked) - args.top} more (--top {len(ranked)})", file=out)


def _refuse_dice(args: argparse.Namespace, rules: Rules) -> None:
    """`eval POSITION D1 D2`: eval takes no dice; `hint` ranks the plays of a roll."""
    words = list(args.dice)
    if args.position is not None and _looks_like_dice(args.position):
        words, args.position = [args.position, *words], None
    if words:
        where = "" if args.position is None else f" '{args.position}'"
        raise InvalidArgumentError(f"eval takes no dice, got {' '.join(words)!r}: it judges the position before the "
                                   f"roll; to rank the plays of a roll: nardy hint {rules.variant.value}{where} "
                                   f"{' '.join(words)}")


def cmd_eval(args: argparse.Namespace, out: TextIO) -> None:
    from .evaluation.net import equity, evaluate

    rules = _rules_from(args)
    _refuse_dice(args, rules)
    position = _position(args, rules)
    _refuse_rolled(args.position, rules, "eval judges the position")
    probs = evaluate(position, rules=rules)[0]
    print(f"{position.turn.name.lower()} on roll: cubeless equity {float(equity(probs)):+.3f}", file=out)
    print(_probabilities(probs, rules.variant), file=out)


def cmd_rollout(args: argparse.Namespace, out: TextIO) -> None:
    from .evaluation.rollout import Z95, rollout

    rules = _rules_from(args)
    position = _position(args, rules)
    _refuse_rolled(args.position, rules, "rollout plays the position out from")
    if args.cubeful:
        _cubeful_rollout(args, rules, position, out)
        return
    with _work_progress("rollout", "games", args.progress) as progress:
        result = rollout(position, args.games, seed=args.seed, rules=rules, luck=args.luck, threads=args.threads or 1,
                         progress=progress)
    adjusted = ", luck-adjusted" if result.luck_adjusted else ""
    print(f"{position.turn.name.lower()} on roll, {result.games} games (0-ply, cubeless{adjusted}): "
          f"equity {result.equity:+.3f} +- {Z95 * result.equity_se:.3f} (95%)", file=out)
    estimates = "luck-adjusted estimates (not probabilities: they can leave 0..1): " if result.luck_adjusted else ""
    print(estimates + _probabilities(result.probs, rules.variant), file=out)


def _cubeful_rollout(args: argparse.Namespace, rules: Rules, position: Position, out: TextIO) -> None:
    """`rollout --cubeful`: with the net's cube decisions, at the score and cube of the position's
    ID:MATCHID or XGID (else money with the Jacoby rule)."""
    from .evaluation.cubeful import rollout

    if (args.threads or 1) != 1:
        raise InvalidArgumentError("rollout --cubeful plays on one thread")
    result = rollout(position, _cube_state(args.position, rules, position, args.jacoby), args.games, seed=args.seed,
                     rules=rules, luck=args.luck)
    print(f"{position.turn.name.lower()} on roll, {result.games} games (0-ply plays, the net's 0-ply cube "
          f"decisions): {result}", file=out)


def cmd_analyse(args: argparse.Namespace, out: TextIO) -> None:
    from .evaluation.analysis import CUBE_ERRORS, MARKS, analyse

    record = _load_match(args.file, not args.lenient, args.jacoby)
    names = dict(zip((Color.WHITE, Color.BLACK), record.players))
    with _work_progress("analyse", "moves", args.progress) as progress:
        result = analyse(record.games, ply=args.ply, progress=progress, at_score=args.at_score)
    for m in result.moves:
        if m.mark is not None or args.all:
            note = f": loss {m.loss:.3f}, {m.mark}" if m.mark else ""
            print(f"game {m.game}, move {m.number}, {names[m.player]} {m.dice[0]}-{m.dice[1]}: played {m.played} "
                  f"({m.equity_played:+.3f}), best {m.best} ({m.equity_best:+.3f}){note}", file=out)
    for c in result.cube:
        for who, loss, error in ((c.player, c.double_loss, c.double_error), (c.player.other, c.answer_loss,
                                                                              c.answer_error)):
            if error is not None and (c.mark(loss) is not None or args.all):
                mark = f", {c.mark(loss)}" if c.mark(loss) else ""
                d = c.decision
                print(f"game {c.game}, before move {c.number}, {names[who]}: {error}: loss {loss:.3f}{mark} "
                      f"(no double {d.no_double:+.3f}, double/take {d.double_take:+.3f}, double/pass "
                      f"{d.double_pass:+.3f}: {d.action})", file=out)
    chequer = "at the score" if args.at_score else "cubeless"
    print(f"\n{args.ply}-ply analysis (chequer play {chequer}{', cube decisions cubeful' if result.cube else ''}); "
          "marks at losses of " + ", ".join(f"{name} {at}" for name, at in reversed(MARKS)), file=out)
    print(f"{'':26}" + "".join(f"{names[c][:14]:>16}" for c in Color), file=out)
    summaries = [result.summary(c) for c in Color]
    rows = [("moves (unforced)", [f"{s.moves} ({s.unforced})" for s in summaries]),
            ("error rate per move", [f"{s.error_rate:.1f} mEMG" for s in summaries]),
            ("equity lost", [f"{s.total_loss:.3f}" for s in summaries])]
    rows += [(name, [str(s.marks[name]) for s in summaries]) for name, _ in reversed(MARKS)]
    if result.cube:
        cube = [result.cube_summary(c) for c in Color]
        rows += [("cube decisions (close)", [f"{s.decisions} ({s.close})" for s in cube]),
                 ("cube error rate", [f"{s.error_rate:.1f} mEMG" for s in cube]),
                 ("cube equity lost", [f"{s.total_loss:.3f}" for s in cube]),
                 ("doubles, takes, passes", [f"{s.doubles}, {s.takes}, {s.passes}" for s in cube])]
        rows += [(kind.replace("pass", "passe") + "s", [str(s.errors[kind]) for s in cube]) for kind in CUBE_ERRORS]
        rows += [("overall error rate", [f"{1000 * (m.total_loss + s.total_loss) / max(m.unforced + s.close, 1):.1f} mEMG"
                                          for m, s in zip(summaries, cube)])]
    for label, cells in rows:
        print(f"{label:26}" + "".join(f"{c:>16}" for c in cells), file=out)


PLAY_COMMANDS = """in-game commands, typed at the prompt:
  a move      in notation, e.g. 24/18 13/8, 8/2*/1, 13/11(2), bar/22, 6/off
  hint, h     the net's five best plays of your roll (before it: its cube decision)
  help, ?     this list
  quit, q     abandon the game
with the cube (short nardy, --match N), before your roll:
  roll, r     (or just Enter) roll the dice
  double, d   double (the net takes or passes)
when the net doubles: take, t  or  pass, p"""


def play_game(game: Any, human: Color, ask: Callable[[str], str], out: TextIO, ply: int = 0) -> None:
    """Play `game` (rolled off) between a person (`human`, answering `ask(prompt)`) and the net.

    The person types a move in notation or a command of `PLAY_COMMANDS` (`hint`, `help`,
    `quit`); an illegal move is answered with the reason the rules refuse it. Raises EOFError
    when `ask` does (the input ended).
    """
    from .evaluation.net import net_move, rank

    from .evaluation.cube import can_double

    at_score = game.match_length is not None
    while game.result is None:
        mover = game.turn
        shown = game.dice is None and game.may_double() and can_double(game.match_state())
        if shown and not _cube_turn(game, human, ask, out, ply):
            return
        if game.result is not None:
            break
        dice = game.dice or game.roll()
        roll = f"{max(dice)}-{min(dice)}"  # high die first, as moves are written
        moves = game.legal_moves()
        if mover is not human:
            move = net_move(game, ply, at_score=at_score)
            game.play(move)
            print(f"{mover.name.lower()} rolls {roll} and plays {move or 'nothing (no legal play)'}", file=out)
            continue
        if not shown:
            print(file=out)
            print(game.position, file=out)
        if len(moves) == 1 and not moves[0]:
            print(f"you roll {roll}: no legal play", file=out)
            game.play(moves[0])
            continue
        while True:
            text = ask(f"you roll {roll}; your move (or hint, help, quit): ").strip()
            if text.lower() in ("quit", "q", "exit"):
                print("game abandoned", file=out)
                return
            if text.lower() in ("help", "?"):
                print(PLAY_COMMANDS, file=out)
                continue
            if text.lower() in ("hint", "h"):
                state = game.match_state() if at_score else None
                ranked = rank(game.position, dice, game.rules, ply=ply, state=state, last_roll=game.last_roll)
                for i, (move, eq, _) in enumerate(ranked[:5], 1):
                    print(f"  {i}. {str(move):<24} {eq:+.3f}", file=out)
                continue
            try:
                move = game.parse_move(text)
            except NardyError as exc:
                print(f"  {exc}", file=out)
                continue
            game.play(move)
            break
    result = game.result
    who = "you" if result.winner is human else "the net"
    print(f"\n{who} won: {result.kind}, {result.points} point{'s' if result.points != 1 else ''}", file=out)


def _cube_turn(game: Any, human: Color, ask: Callable[[str], str], out: TextIO, ply: int) -> bool:
    """The cube before the roll of a side that may double: the net's decision, or the person's
    (roll, double, hint); the answer to a double. False when the person quits."""
    from .evaluation.cube import decide, net_cube_action

    if game.turn is not human:
        if net_cube_action(game, ply) != "double":
            return True
        game.double()
        print(f"{game.turn.other.name.lower()} doubles to {2 * game.cube_value}", file=out)
        while True:
            text = ask("take or pass? ").strip().lower()
            if text in ("quit", "q", "exit"):
                print("game abandoned", file=out)
                return False
            if text in ("take", "t", "pass", "p", "drop"):
                game.take() if text in ("take", "t") else game.drop()
                print(f"you {'take' if text in ('take', 't') else 'pass'}", file=out)
                return True
            print("  answer take (t) or pass (p)", file=out)
    print(file=out)
    print(game.position, file=out)
    while True:
        text = ask(f"cube at {game.cube_value}: roll or double? (Enter rolls; hint, help, quit): ").strip().lower()
        if text in ("", "roll", "r"):
            return True
        if text in ("quit", "q", "exit"):
            print("game abandoned", file=out)
            return False
        if text in ("help", "?"):
            print(PLAY_COMMANDS, file=out)
        elif text in ("hint", "h"):
            d = decide(game.position, game.match_state(), ply, rules=game.rules)
            print(f"  no double {d.no_double:+.3f}, double/take {d.double_take:+.3f}, double/pass "
                  f"{d.double_pass:+.3f}: {d.action}", file=out)
        elif text in ("double", "d"):
            game.double()
            answer = net_cube_action(game, ply)
            print(f"you double to {2 * game.cube_value}; the net {'takes' if answer == 'take' else 'passes'}", file=out)
            game.take() if answer == "take" else game.drop()
            return True
        else:
            print("  roll (Enter), double, hint, help or quit", file=out)


def cmd_play(args: argparse.Namespace, out: TextIO) -> None:
    from .game import Game, Match

    rules = _rules_from(args)
    human = Color.WHITE if args.color == "white" else Color.BLACK
    if args.match:
        _play_match(Match(rules, args.match, seed=args.seed), human, args.ply, out)
        return
    game = Game(rules, seed=args.seed, cube=False)
    white, black = game.roll_off()
    print(f"you play {human.name.lower()} against the net ({args.ply}-ply, no cube); "
          f"roll-off: white {white}, black {black}", file=out)
    try:
        play_game(game, human, input, out, args.ply)
    except EOFError:
        print("\ngame abandoned", file=out)


def _play_match(match: Any, human: Color, ply: int, out: TextIO) -> None:
    """A match against the net, game after game (the cube in short nardy as the rules say)."""
    cube = "with the cube" if match.rules.variant is Variant.SHORT and match.rules.cube else "no cube"
    print(f"you play {human.name.lower()} against the net ({ply}-ply, {cube}), a {match.length}-point match",
          file=out)
    while match.winner is None:
        game = match.new_game()
        if game.starter is None:
            white, black = game.roll_off()
            print(f"\ngame {len(match.games)}: roll-off: white {white}, black {black}", file=out)
        try:
            play_game(game, human, input, out, ply)
        except EOFError:
            print("\ngame abandoned", file=out)
        if game.result is None:
            return
        match.finish_game()
        print(f"score: you {match.score[human]}, the net {match.score[human.other]} (to {match.length})", file=out)
    print(f"{'you win' if match.winner is human else 'the net wins'} the match", file=out)



@contextlib.contextmanager
def _work_progress(command: str, unit: str, asked: bool) -> Iterator[Callable[[int, int], None] | None]:
    """A progress function for long work, writing to stderr (stdout keeps its stable output): a
    line redrawn in place when stderr is a terminal; with `asked` (--progress) and no terminal,
    a line every 5 s. None (no progress) otherwise."""
    terminal = sys.stderr.isatty()
    if not (terminal or asked):
        yield None
        return
    started = time.monotonic()
    last = [started if not terminal else 0.0]
    drawn = [False]

    def show(done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] < (0.1 if terminal else 5.0) and done < total:
            return
        last[0] = now
        text = f"nardy {command}: {done:,}/{total:,} {unit} ({100 * done / max(total, 1):.0f}%), {now - started:.0f} s"
        print(f"\r{text}" if terminal else text, end="" if terminal else "\n", file=sys.stderr, flush=True)
        drawn[0] = True

    try:
        yield show
    finally:
        if terminal and drawn[0]:
            print(file=sys.stderr, flush=True)


def _progress_bar(total: int) -> Any:
    def show(done: int, games: int) -> None:
        filled = 30 * done // max(games, 1)
        print(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{games} games", end="", file=sys.stderr, flush=True)

    return show


def _progress_lines(total: int, every: float = 5.0) -> Callable[[int, int], None]:
    """Progress for a log (stderr not a terminal): a line every `every` seconds, none for a short run."""
    started = last = time.monotonic()

    def show(done: int, games: int) -> None:
        nonlocal last
        now = time.monotonic()
        if now - last >= every and done < games:
            last = now
            print(f"nardy simulate: {done:,}/{games:,} games ({100 * done / games:.0f}%), {now - started:.0f} s",
                  file=sys.stderr, flush=True)

    return show


# output files: checked before the work, written whole or not at all --------------------------

def _output(path: str, extensions: tuple[str, ...]) -> str:
    """Check an output path before any work: a known extension, then `files.check_writable`."""
    if not path.lower().endswith(extensions):
        raise InvalidArgumentError(f"cannot write {path!r}: the file name must end in {' or '.join(extensions)}")
    check_writable(path)
    if path.lower().endswith(".png"):
        _png_converter()
    return path


def _png_converter() -> Callable[[str, str], None]:
    """A way to turn SVG text into a PNG file: cairosvg, or rsvg-convert on the PATH; else an error."""
    try:
        import cairosvg  # type: ignore[import-not-found]

        return lambda text, path: cairosvg.svg2png(bytestring=text.encode("utf-8"), write_to=path)
    except ImportError:
        pass
    program = shutil.which("rsvg-convert")
    if program is not None:
        def convert(text: str, path: str) -> None:
            subprocess.run([program, "-f", "png", "-o", path], input=text.encode("utf-8"), check=True,
                           capture_output=True)
        return convert
    raise InvalidArgumentError("cannot write a PNG: that needs cairosvg (pip install cairosvg) or rsvg-convert "
                               "(librsvg); write .svg instead")


def _png(text: str, path: str) -> None:
    try:
        _png_converter()(text, path)
    except subprocess.CalledProcessError as exc:
        raise InvalidArgumentError(f"rsvg-convert failed: {exc.stderr.decode(errors='replace').strip()}") from None


def format_summary(result: Any) -> str:
    """A simulation's summary as a few readable lines."""
    s = result.summary()
    variant = result.rules.variant.value
    lines = [
        f"{result.games:,} games of {result.rules.describe()}; policy {result.policy}, seed {result.seed}",
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
    lines += ["", *LEGEND[result.rules.variant]]
    if result.rules.variant is Variant.LONG and result.rules.koks:
        lines.append("koks: mars with a checker still in the loser's first quarter, 3 points")
    return "\n".join(lines)


LEGEND = {
    Variant.LONG: ["oin: the loser has borne off at least one checker, 1 point",
                   "mars: the loser has borne off none, 2 points"],
    Variant.SHORT: ["single: the loser has borne off at least one checker, 1 point",
                    "gammon: the loser has borne off none, 2 points",
                    "backgammon: a gammon with a loser's checker on the bar or in the winner's home, 3 points"],
}


def _variant(text: str) -> Variant:
    try:
        return Variant.parse(text)
    except NardyError as exc:
        raise argparse.ArgumentTypeError(f"{exc}: nardy plays long nardy and short nardy (backgammon)") from None


_WHOLE = re.compile(r"-?[0-9]+")


def _whole(text: str) -> int:
    """A whole number in the digits 0-9 (argparse's `int` also reads other scripts' digits)."""
    if not _WHOLE.fullmatch(text):
        raise argparse.ArgumentTypeError(f"a whole number in the digits 0-9, got {text!r}")
    return int(text)


def _count(text: str) -> int:
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"a whole number >= 1, got {value}")
    return value


# an argument starting "-digit" (an array whose first entry is negative) or an XGID's board
# without its prefix is a value, never an option
_NEGATIVE = re.compile(r"^-([0-9]|[-a-oA-O]{25}:)")


class _Parser(argparse.ArgumentParser):
    """A parser whose errors are one line, as every other error of the CLI (`-h` shows the usage)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (`{self.prog} -h` for help)\n")


class _CommandParser(_Parser):
    """A command's parser: its options may come before, between or after its positionals
    (argparse alone fills optional positionals with nothing at the first option)."""

    _inside = False

    def parse_known_args(  # type: ignore[override]  # one signature for typeshed's three overloads
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        if self._inside:  # parse_known_intermixed_args calls back here
            return super().parse_known_args(args, namespace)
        self._inside = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._inside = False


def _option(parser: argparse.ArgumentParser, dest: str) -> argparse.Action:
    """The action of `parser`'s option that stores `dest`."""
    return next(a for a in parser._actions if a.dest == dest)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="nardy", description="Rules engine for long nardy and short nardy (backgammon).")
    parser.add_argument("--version", action="version", version=f"nardy {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_CommandParser)

    with_rules: list[argparse.ArgumentParser] = []

    def rule_options(p: argparse.ArgumentParser) -> None:
        group = p.add_argument_group("rule options", "the rules played (docs/rules.md); each defaults to the variant's")
        for name, (variants, choices, defaults) in OPTIONS.items():
            kinds = "/".join(v.value for v in variants)
            shown = "true|false" if isinstance(choices[0], bool) else "|".join(choices)
            group.add_argument(f"--{name.replace('_', '-')}", dest=name, metavar=shown,
                               help=f"{kinds}; default " + ", ".join(f"{v.value}: {d}" for v, d in defaults.items()))

    def common(p: argparse.ArgumentParser, backend: bool = True) -> None:
        p.add_argument("variant", type=_variant, metavar="long|short")
        with_rules.append(p)  # the rule options come after the command's own arguments
        if backend:
            p.add_argument("--backend", choices=engine.BACKENDS, default=None, help="cython (default) or python (the reference)")

    show = commands.add_parser("show", help="print a board with pip counts")
    common(show)
    show.add_argument("position", nargs="?", help=f"{POSITION_HELP}; default: the start")
    show.add_argument("--turn", choices=["white", "black"], help=TURN_HELP)
    show.add_argument("--numbers", **NUMBERS_ARG)
    show.set_defaults(run=cmd_show)

    svg = commands.add_parser("svg", help="draw a board as an SVG file")
    common(svg, backend=False)
    svg.add_argument("position", nargs="?", help=f"{POSITION_HELP}; default: the start")
    svg.add_argument("--turn", choices=["white", "black"], help=TURN_HELP)
    svg.add_argument("-o", "--output", required=True, metavar="FILE",
                     help="the file to write: .svg, or .png (needs cairosvg or rsvg-convert)")
    svg.add_argument("--dice", metavar="D1-D2", help="draw the roll of the side on roll: 6-5, 65, 6,5 or '6 5'")
    svg.add_argument("--move", metavar="MOVE", help="draw a legal move of --dice as arrows, e.g. '24/18 13/8'")
    svg.add_argument("--after", action="store_true", help="draw the board after --move, with its arrows (the last move)")
    svg.add_argument("--flip", action="store_true", help="Black at the bottom")
    svg.add_argument("--numbers", **NUMBERS_ARG)
    svg.add_argument("--home", default="right", choices=["right", "left"], help="the bottom player's home side")
    svg.add_argument("--size", type=_whole, default=None, help="width in pixels (default: the natural width)")
    svg.set_defaults(run=cmd_svg)

    perft = commands.add_parser("perft", help="count the leaves of the game tree (docs/rules.md section 7)")
    common(perft)
    perft.add_argument("depth", type=_whole)
    perft.add_argument("position", nargs="?", help=f"{POSITION_HELP}; default: the start")
    perft.add_argument("--turn", choices=["white", "black"], help=argparse.SUPPRESS)
    perft.set_defaults(run=cmd_perft)

    moves = commands.add_parser("moves", help="list the distinct results of a roll")
    common(moves)
    moves.add_argument("position", nargs="?", help=f"{POSITION_HELP}; default: the start")
    moves.add_argument("dice", nargs="*", help="D1 D2 (also 6-5, 65 or 6,5)")
    moves.add_argument("--turn", choices=["white", "black"], help=TURN_HELP)
    moves.add_argument("--ids", action="store_true", help="print each move with the ID of its result")
    moves.add_argument("--batch", metavar="FILE", help="read '<26 ints> D1 D2' lines from FILE ('-' for stdin)")
    moves.set_defaults(run=cmd_moves)

    convert = commands.add_parser("convert", help="print a position in another form")
    common(convert, backend=False)
    convert.add_argument("position", help=POSITION_HELP)
    convert.add_argument("--to", required=True, choices=["id", "xgid", "array"],
                         help="id: gnubg Position ID (short) or nardy ID (long); xgid: short only; array: mover's view")
    convert.add_argument("--turn", choices=["white", "black"], help=TURN_HELP)
    convert.set_defaults(run=cmd_convert)

    replay = commands.add_parser("replay", help="read match files, check every move and print the match "
                                                "(several files or folders: one summary line each)")
    replay.add_argument("files", nargs="+", metavar="FILE",
                        help=".mat (Jellyfish / GNU Backgammon text, also as .txt) or .sgf files, folders of them "
                             "(a .txt file that is not a match file is skipped, with a line), or quoted globs")
    replay.add_argument("--boards", action="store_true", help="print each game's final board (one file)")
    replay.add_argument("--lenient", action="store_true",
                        help="read archives: mid-match starts, moves left out, server noise, forfeits (warned)")
    replay.add_argument("--jacoby", action="store_true", help=JACOBY_HELP)
    replay.set_defaults(run=cmd_replay)

    convert_match = commands.add_parser("convert-match", help="convert a match file between .mat and .sgf")
    convert_match.add_argument("source", help="the .mat (or .txt) or .sgf file to read")
    convert_match.add_argument("target", help="the .mat or .sgf file to write")
    convert_match.add_argument("--lenient", action="store_true", help="read the source as replay --lenient does")
    convert_match.add_argument("--jacoby", action="store_true", help=JACOBY_HELP)
    convert_match.set_defaults(run=cmd_convert_match)

    race = commands.add_parser("race", help="race odds: pips, expected turns, win and gammon/mars chances")
    common(race, backend=False)
    race.add_argument("position", help=POSITION_HELP)
    race.add_argument("--turn", choices=["white", "black"], help=TURN_HELP)
    race.set_defaults(run=cmd_race)

    hint = commands.add_parser("hint", help="rank every play of a roll by the evaluator's equity; "
                               "without dice (short nardy), the cube decision")
    common(hint, backend=False)
    hint.add_argument("position", nargs="?", help=f"{POSITION_HELP}; default: the start")
    hint.add_argument("dice", nargs="*", help="D1 D2 (also 6-5, 65 or 6,5); none: the cube decision before the "
                      "roll (short nardy; the score and cube from ID:MATCHID or an XGID, else money with Jacoby)")
    hint.add_argument("--turn", choices=["white", "black"], help=TURN_HELP)
    hint.add_argument("--ply", type=_whole, default=0, choices=[0, 1, 2], help="lookahead: 0 (default), 1 or 2 rolls")
    hint.add_argument("--top", type=_count, default=10, help="how many plays to print (default 10)")
    hint.set_defaults(run=cmd_hint)

    evaluate = commands.add_parser("eval", help="the evaluator's probabilities and equity for the side on roll")
    common(evaluate, backend=False)
    evaluate.add_argument("position", nargs="?", help=f"{POSITION_HELP}; default: the start")
    evaluate.add_argument("dice", nargs="*", help=argparse.SUPPRESS)  # refused by name: eval takes none
    evaluate.add_argument("--turn", choices=["white", "black"], help=TURN_HELP)
    evaluate.set_defaults(run=cmd_eval)

    roll = commands.add_parser("rollout", help="play a position out many times with the evaluator")
    common(roll, backend=False)
    roll.add_argument("position", nargs="?", help=f"{POSITION_HELP}; default: the start")
    roll.add_argument("--turn", choices=["white", "black"], help=TURN_HELP)
    roll.add_argument("--games", type=_count, default=1296, help="how many games (default 1296)")
    roll.add_argument("--seed", type=_whole, default=1, help="root seed (default 1)")
    roll.add_argument("--luck", action="store_true", help="luck adjustment (about 25 times the work)")
    roll.add_argument("--threads", type=_count, default=None, help="worker threads (default 1)")
    roll.add_argument("--progress", action="store_true", help=PROGRESS_HELP)
    roll.add_argument("--cubeful", action="store_true",
                      help="short nardy: play with the net's cube decisions at the position's score and cube "
                           "(ID:MATCHID or XGID; else money with Jacoby)")
    roll.set_defaults(run=cmd_rollout)

    analyse = commands.add_parser("analyse", help="each move of a match file against the evaluator's best play")
    analyse.add_argument("file", help="the match file (.mat or .sgf)")
    analyse.add_argument("--lenient", action="store_true", help="read the file leniently, as `replay --lenient` does")
    analyse.add_argument("--jacoby", action="store_true", help=JACOBY_HELP)
    analyse.add_argument("--ply", type=_whole, default=2, choices=[0, 1, 2],
                         help="lookahead: 0, 1 or 2 rolls (default 2: its marks agree best with rollouts)")
    analyse.add_argument("--all", action="store_true", help="print every move, not only the marked ones")
    analyse.add_argument("--at-score", action="store_true",
                         help="judge the plays at the score and cube (short nardy: cubeful), not cubeless")
    analyse.add_argument("--progress", action="store_true", help=PROGRESS_HELP)
    analyse.set_defaults(run=cmd_analyse)

    play = commands.add_parser("play", help="play a game against the evaluator in the terminal", epilog=PLAY_COMMANDS,
                               formatter_class=argparse.RawDescriptionHelpFormatter)
    common(play, backend=False)
    play.add_argument("--color", choices=["white", "black"], default="white", help="your colour (default white)")
    play.add_argument("--ply", type=_whole, default=0, choices=[0, 1, 2], help="the net's lookahead in rolls (default 0)")
    play.add_argument("--seed", type=_whole, default=None, help="seed of the dice (default: fresh)")
    play.add_argument("--match", type=_count, default=None,
                      help="play a match to this many points, at least 1 (short nardy: with the cube); default "
                           "one game")
    play.set_defaults(run=cmd_play)

    sim = commands.add_parser("simulate", help="play many games of self-play and summarise them")
    common(sim, backend=False)
    sim.add_argument("--games", type=_count, required=True, help="how many games (at least 1)")
    sim.add_argument("--seed", type=_whole, default=None, help="root seed (default: a fresh one, printed)")
    sim.add_argument("--policy", default="random", help="random (default), first, greedy, bearoff or net (the evaluator)")
    sim.add_argument("--threads", type=_whole, default=None, help="worker threads (default: all cores)")
    sim.add_argument("--chunk-size", type=_whole, default=1000, help="games per seeded chunk (default 1000)")
    sim.add_argument("--scheduler", metavar="ADDRESS", help="play the chunks on the Dask cluster of this scheduler "
                     "(tcp://host:8786; needs the dask extra, pip install '.[dask]') instead of local threads")
    sim.add_argument("--out", metavar="FILE", help="write per-game results to FILE (.npz or .csv)")
    sim.set_defaults(run=cmd_simulate)
    for p in with_rules:
        rule_options(p)
    for p, what in ((hint, "hint without dice judges"), (roll, "rollout --cubeful plays")):
        _option(p, "jacoby").help = (f"short; default short: False, but {what} a bare position as money with the "
                                     "Jacoby rule unless --jacoby false (an ID:MATCHID or XGID says it itself)")
    for p in (parser, *commands.choices.values()):
        p._negative_number_matcher = _NEGATIVE
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; 0 on success, 2 on bad input (the error is printed to stderr)."""
    parser = build_parser()
    try:
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # argparse has printed the usage and the error (or --help)
            return exc.code if isinstance(exc.code, int) else 0
        args.run(args, out or sys.stdout)
    except BrokenPipeError:  # the reader went away (`nardy ... | head -1`): stop quietly, as a
        try:                  # command whose output fitted in the pipe does (so every command exits 0)
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        except (OSError, ValueError):
            pass
        return 0
    except KeyboardInterrupt:
        print("nardy: interrupted", file=sys.stderr)
        return 130
    except (NardyError, ValueError) as exc:
        print(f"nardy: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"nardy: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())


__all__ = ["build_parser", "main"]
