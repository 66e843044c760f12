"""GNU Backgammon's SGF match files (`GM[6]`): one game tree per game (docs/formats.md, "SGF").

Short nardy is written as GNU Backgammon writes it: each game's root node holds `MI` (match
length, game number, both scores), `PW`/`PB` (the players: W is White, the `.mat` file's left
column), `RU` (`Crawford`, `Crawford:CrawfordGame`, `Jacoby`) and `RE` (`W+2`, `B+4R` for a
resignation); then one node per action: `W[31hefe]` (the dice, then each step as two letters
in the mover's own numbers, `a` = 1 ... `x` = 24, `y` the bar, `z` off; Black's letters
counted from `x` down), `B[double]`, `W[take]`, `W[drop]`.

Long nardy, and rule options SGF has no property for, use nardy's own properties, which
GNU Backgammon ignores: `NV[LongNardy]` (the variant) and `NR[block_rule=home koks=true]`
(the options that differ from the defaults, as in the `.mat` Rules tag). A drawn game is
`RE[Draw]`. Reading replays every game through the rules as `matfile.read` does, with the
same `strict` switch and warnings.
"""

from __future__ import annotations

import gc
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from .. import __version__, files
from ..errors import IllegalMoveError, InvalidArgumentError, InvalidNotationError, NardyError, check_flag, quoted
from ..game import Game, Match
from .matfile import (
    TAG_NAME, MatchRecord, ReadWarning, check_players, concede, encodable, format_options, mended, name_problem,
    parse_options, parts,
)
from ..move import BAR, OFF
from ..rules import Color, Rules, Variant

VARIANT_PROPERTY, RULES_PROPERTY, TAGS_PROPERTY = "NV", "NR", "NT"
LONG = "LongNardy"
MAX_SIZE = 50_000_000  # characters: a bigger text is refused before parsing
_MATCH_INFO = {"length": "the match length", "game": "the game number", "ws": "a score", "bs": "a score"}
_RULES = ("Crawford", "Crawford:CrawfordGame", "Jacoby")  # the RU values gnubg writes and reads
_TAGS = {"DT": "EventDate", "EV": "Event", "RO": "Round", "PC": "Place", "AN": "Annotator", "GC": "Comment"}

Node = list[tuple[str, list[str]]]
_SPACE = re.compile(r"\s*")  # what str.isspace() calls space; it always matches (the ignores of union-attr below)
_NAME = re.compile(r"[A-Za-z]+")
_SIMPLE = re.compile(r"([A-Z]+)\s*\[([^\]\\]*)\]\s*")  # a property with one value and no escapes
_VALUE = re.compile(r"\[([^\]\\]*(?:\\.[^\]\\]*)*)\]\s*", re.DOTALL)  # [...], '\' escaping any character; then space
_ESCAPE = re.compile(r"\\(?:\n|(.))", re.DOTALL)  # an escaped character is itself; an escaped newline (a soft break), nothing


def _unescape(raw: str) -> str:
    """A value's text without its escapes, by whole-string replaces (no Python step per escape):
    escaped backslashes set aside (pairs run left to right, as the escapes do), soft breaks
    dropped, every other backslash dropped before the character it escapes. A value holding
    NUL, the mark set aside with, is split on its escapes instead."""
    if "\\" not in raw:
        return raw
    if "\0" in raw:
        return "".join(filter(None, _ESCAPE.split(raw)))
    return raw.replace("\\\\", "\0").replace("\\\n", "").replace("\\", "").replace("\0", "\\")


# the SGF syntax ------------------------------------------------------------------------------------

@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector paused, then restored as it was: a parse makes a list for every
    node and value, none in a cycle, and the collector would walk them again and again (half
    the time of a text of many small nodes)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def parse(text: str) -> list[list[Node]]:
    """The game trees of an SGF collection, each as its main line of nodes (variations after
    the first are skipped). `InvalidNotationError` names the offset of what is malformed."""
    if not isinstance(text, str):
        raise InvalidArgumentError(f"an SGF file is text, got {type(text).__name__}")
    if len(text) > MAX_SIZE:
        raise InvalidNotationError(f"the SGF text has {len(text)} characters; at most {MAX_SIZE} are read")
    with _collector_paused():
        return _parse(text)


def _parse(text: str) -> list[list[Node]]:
    trees: list[list[Node]] = []
    i, n = 0, len(text)

    def skip(i: int) -> int:
        """The first offset from `i` on that is not space (a regular expression only at a space)."""
        return _SPACE.match(text, i).end() if i < n and text[i].isspace() else i  # type: ignore[union-attr]

    def error(i: int, what: str) -> InvalidNotationError:
        return InvalidNotationError(f"malformed SGF at offset {i}: {what}")

    def sequence(i: int, nodes: list[Node] | None) -> int:
        """Parse the nodes from text[i] == ';' on; append them to `nodes` (None: skip them).
        Names and values are matched by regular expressions (the scanning runs in C)."""
        space = _SPACE.match
        while i < n and text[i] == ";":
            node: Node = []
            i += 1
            if i < n and text[i].isspace():  # the space skipped inline: this loop runs once a node
                i = space(text, i).end()  # type: ignore[union-attr]
            while i < n and text[i].isalpha():
                simple = _SIMPLE.match(text, i)
                if simple and not text.startswith("[", simple.end()):  # the common case in one match
                    node.append((simple[1], [simple[2]]))
                    i = simple.end()
                    continue
                letters = _NAME.match(text, i)
                end = letters.end() if letters else i
                while end < n and text[end].isalpha():  # a letter beyond ASCII: the name is refused below
                    end += 1
                name = text[i:end]
                if not name.isupper() or not name.isascii():
                    raise error(i, f"a property name is upper-case letters, got {name!r}")
                values: list[str] = []
                i = skip(end)
                while value := _VALUE.match(text, i):
                    values.append(_unescape(value[1]))
                    i = value.end()
                if i < n and text[i] == "[":
                    raise error(i, f"the value of {name} is not closed with ']'")
                if not values:
                    raise error(i, f"property {name} has no value")
                node.append((name, values))
            if nodes is not None:
                nodes.append(node)
            if i < n and text[i].isspace():
                i = space(text, i).end()  # type: ignore[union-attr]
        return i

    def tree(i: int, nodes: list[Node]) -> int:
        """Parse the game tree at text[i] == '('; append its main line to `nodes`. Iterative, so
        variations nest as deep as the text goes: the first variation of a tree on the main line
        continues it, the others are skipped."""
        depth = main = 0  # the trees open, and how many of them (the outermost) are on the main line
        first = True  # the innermost open tree has had no variation yet
        while True:  # here text[i] == '(' opens a tree
            if main == depth and first:
                main += 1
            depth += 1
            i = skip(i + 1)
            if i >= n or text[i] != ";":
                raise error(i, "a game tree starts with a node (';')")
            i, first = sequence(i, nodes if main == depth else None), True
            while i >= n or text[i] != "(":  # close trees until a variation opens
                if i >= n or text[i] != ")":
                    raise error(i, "expected ')' to close the game tree" if i < n else "the text ends inside a game tree")
                depth, first = depth - 1, False
                main = min(main, depth)
                if not depth:
                    return i + 1
                i = skip(i + 1)

    i = skip(i)
    while i < n:
        if text[i] != "(":
            raise error(i, f"expected '(' to open a game tree, got {text[i]!r}")
        nodes: list[Node] = []
        i = skip(tree(i, nodes))
        trees.append(nodes)
    if not trees:
        raise InvalidNotationError("not an SGF file: no game tree")
    return trees


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


# writing ------------------------------------------------------------------------------------------

def _point(point: int, black: bool) -> str:
    if point == BAR:
        return "y"
    if point == OFF:
        return "z"
    return chr(ord("x") - (point - 1)) if black else chr(ord("a") + point - 1)


def write(match: Match | Game | MatchRecord, players: tuple[str, str] = ("White", "Black"),
          tags: dict[str, str] | None = None) -> str:
    """The SGF text of a match (a single game is written as a money session of one game)."""
    games, length, rules, players, tags = parts(match, players, tags)
    if not games:
        raise InvalidArgumentError("an SGF file holds one game tree or more: the match has no game to write")
    check_players(players, mat=False)
    tags = tags or {}
    for tag, value in tags.items():
        # "\r" is a newline on loading; DT writes "." as "-"; UTF-8 cannot encode a lone surrogate
        if "\r" in value or tag == "EventDate" and "-" in value or not encodable(value):
            raise InvalidArgumentError(f"the {tag} tag's value cannot be written to SGF as it is: {quoted(value)}")
    options = rules.non_defaults()
    options.pop("crawford" if length > 1 else "jacoby" if not length else "", None)
    out = []
    for number, game in enumerate(games):
        white, black = game.score
        head = [f"FF[4]GM[6]CA[UTF-8]AP[nardy:{__version__}]MI[length:{length}][game:{number}][ws:{white}][bs:{black}]",
                f"PW[{_escape(players[0])}]PB[{_escape(players[1])}]"]
        if number == 0:
            for prop, tag in _TAGS.items():
                if tag in tags:
                    value = tags[tag].replace(".", "-") if prop == "DT" else tags[tag]
                    head.append(f"{prop}[{_escape(value)}]")
            others = [f"[{_escape(tag)}:{_escape(value)}]" for tag, value in tags.items() if tag not in _TAGS.values()]
            if others:
                head.append(TAGS_PROPERTY + "".join(others))
        if rules.variant is Variant.LONG:
            head.append(f"{VARIANT_PROPERTY}[{LONG}]")
        if options:
            head.append(f"{RULES_PROPERTY}[{format_options(options)}]")
        if rules.variant is Variant.SHORT and length > 1 and rules.crawford:
            head.append("RU[Crawford:CrawfordGame]" if game.crawford_game else "RU[Crawford]")
        elif rules.variant is Variant.SHORT and not length and rules.jacoby:
            head.append("RU[Jacoby]")
        result = game.result
        if result is not None:
            if result.winner is None:
                head.append("RE[Draw]")
            else:
                given_up = "R" if result.kind in ("resigned", "forfeit") else ""
                head.append(f"RE[{'W' if result.winner is Color.WHITE else 'B'}+{result.points}{given_up}]")
        nodes = []
        for color, kind, value in game.history():
            side = "W" if color is Color.WHITE else "B"
            if kind == "move":
                steps = "".join(_point(s.src, side == "B") + _point(s.dst, side == "B") for s in value.steps)
                nodes.append(f";{side}[{value.dice[0]}{value.dice[1]}{steps}]")
            elif kind in ("double", "take", "drop"):
                nodes.append(f";{side}[{kind}]")
        out.append("(;" + "".join(head) + "".join("\n" + node for node in nodes) + ")\n")
    return "".join(out)


def dump(match: Match | Game | MatchRecord, path: str | os.PathLike[str], **kwargs: Any) -> None:
    """Write `match` to an SGF file (whole or not at all: see `nardy.files.write_text`)."""
    files.write_text(path, write(match, **kwargs))


# reading ------------------------------------------------------------------------------------------

def read(text: str, rules: Rules | Variant | str | None = None, *, strict: bool = True) -> MatchRecord:
    """The match an SGF text holds, every game replayed and checked against the rules.

    Errors and `strict` as in `matfile.read`; a warning's `line` is the node's number in its
    game tree (the root is node 1).
    """
    trees = parse(text)
    return _Reader(None if rules is None else Rules.of(rules), strict).read(trees)


def load(path: str | os.PathLike[str], rules: Rules | Variant | str | None = None, *, strict: bool = True) -> MatchRecord:
    """Read an SGF file (see `read`; as `matfile.load`, a byte order mark is allowed, and only a
    regular file is read)."""
    return read(files.read_text(path, "an SGF file is read from", MAX_SIZE), rules, strict=strict)


@dataclass
class _Root:
    length: int = 0
    number: int = 0
    score: tuple[int, int] = (0, 0)
    players: tuple[str, str] = ("White", "Black")
    rules: Rules | None = None
    crawford_game: bool = False
    result: str | None = None


def _number(text: str, what: str) -> int:
    text = text.strip()
    if not text.isascii() or not text.isdigit() or len(text) > 9:
        raise InvalidNotationError(f"{what} is a whole number of at most 9 digits, got {text[:20]!r}")
    return int(text)


class _Reader:
    def __init__(self, rules: Rules | None, strict: bool) -> None:
        self.given, self.strict = rules, check_flag(strict, "strict")
        self.warnings: list[ReadWarning] = []
        self.match: Match | None = None
        self.players: tuple[str, str] | None = None
        self.tags: dict[str, str] = {}
        self.game_number = 0
        self.node = 0

    def _tolerate(self, message: str, error: type[NardyError] = IllegalMoveError) -> None:
        if self.strict:
            raise error(message + " (lenient reading, strict=False, accepts this)")
        self.warnings.append(ReadWarning(self.game_number, self.node, message))

    def read(self, trees: list[list[Node]]) -> MatchRecord:
        self.game_count = len(trees)
        for index, nodes in enumerate(trees, 1):
            self.game_number, self.node = index, 1
            try:
                self._game(nodes, index)
            except NardyError as exc:
                raise type(exc)(f"game {index}, node {self.node}: {exc}") from exc
        assert self.match is not None
        return MatchRecord(self.match, self.players or ("White", "Black"), self.tags, self.warnings)

    def _root(self, node: Node, first: bool) -> _Root:
        root = _Root()
        props = {name: values for name, values in node}
        if "GM" not in props:
            self._tolerate("the root has no GM[6]: read as backgammon", InvalidNotationError)
        elif props["GM"][0].strip() != "6":
            raise InvalidNotationError(f"GM[{props['GM'][0]}] is not backgammon (GM[6])")
        seen = set()
        for value in props.get("MI", []):
            key, _, number = value.partition(":")
            if key not in _MATCH_INFO or key in seen:
                self._tolerate(f"skipped MI[{value[:40]}]: MI holds length:, game:, ws: and bs: once each", InvalidNotationError)
                continue
            seen.add(key)
            score = _number(number, _MATCH_INFO[key])
            if key == "length":
                root.length = score
            elif key == "game":
                root.number = score
            else:
                root.score = (score, root.score[1]) if key == "ws" else (root.score[0], score)
        root.players = (self._name(1, props.get("PW", ["White"])[0]), self._name(2, props.get("PB", ["Black"])[0]))
        ru = props.get("RU", [""])[0]
        if "RU" in props and ru not in _RULES:
            self._tolerate(f"RU[{ru[:40]}] is none of RU[{'], RU['.join(_RULES)}]: read as no rule", InvalidNotationError)
        variant = Variant.SHORT
        if VARIANT_PROPERTY in props:
            if props[VARIANT_PROPERTY][0] != LONG:
                raise InvalidNotationError(f"unsupported variant {VARIANT_PROPERTY}[{props[VARIANT_PROPERTY][0]}]")
            variant = Variant.LONG
        options = parse_options(props.get(RULES_PROPERTY, [""])[0])
        if variant is Variant.SHORT:
            if root.length > 1:  # gnubg writes no Crawford rule for a 1-point match
                options["crawford"] = ru.startswith("Crawford")
            else:
                options["jacoby"] = ru == "Jacoby" or options.get("jacoby", False)
        root.crawford_game = ru == "Crawford:CrawfordGame"
        root.rules = Rules(variant, **options)
        root.result = props.get("RE", [None])[0]
        if first:
            for prop, tag in _TAGS.items():
                if prop in props:
                    self.tags[tag] = props[prop][0].replace("-", ".") if prop == "DT" else props[prop][0]
            for value in props.get(TAGS_PROPERTY, []):
                tag, colon, text = value.partition(":")
                if not colon or not re.fullmatch(TAG_NAME, tag) or tag in self.tags:
                    raise InvalidNotationError(f"{TAGS_PROPERTY}[{value[:60]}] is not a new tag as [name:value]")
                self.tags[tag] = text
        return root

    def _name(self, index: int, name: str) -> str:
        """A player's name by the writer's rule (`name_problem`): an error when strict; else, if
        reading control characters as a space mends it, that, with a warning (first game only)."""
        said = name_problem(index, name, mat=False)
        if said is None:
            return name
        if name_problem(index, mended(name), mat=False) is not None:
            raise InvalidNotationError(said)
        if self.match is None:
            self._tolerate(f"{said}: read as {mended(name)!r}", InvalidNotationError)
        return mended(name)

    def _game(self, nodes: list[Node], index: int) -> None:
        root = self._root(nodes[0], self.match is None)
        if self.match is None:
            if self.given is not None and self.given != root.rules:
                raise InvalidNotationError(f"the file is played with {root.rules!r}, not {self.given!r}")
            assert root.rules is not None
            self.match = Match(root.rules, root.length)
            self.players = root.players
            if root.score != (0, 0):
                self._tolerate(f"the match starts at {root.score[0]}-{root.score[1]}, not 0-0")
                self.match.score = {Color.WHITE: root.score[0], Color.BLACK: root.score[1]}
        match = self.match
        if root.rules != match.rules or root.length != match.length:
            raise InvalidNotationError("every game of a match has the same rules and length")
        if root.players != self.players:
            raise InvalidNotationError(f"the players are {self.players}, not {root.players}")
        score = (match.score[Color.WHITE], match.score[Color.BLACK])
        if root.score != score:
            raise IllegalMoveError(f"MI says the score is {root.score[0]}-{root.score[1]}, but the games before make it "
                                   f"{score[0]}-{score[1]}")
        game: Game | None = None
        dice: list[int] = []
        for self.node, node in enumerate(nodes[1:], 2):
            for name, values in node:
                if name in ("AE", "AB", "AW"):
                    raise InvalidNotationError("set-up positions (AE, AB, AW) are not read: nardy reads played games")
                if name not in ("W", "B"):
                    continue  # analysis, comments, dice set-up: not part of the play
                column = Color.WHITE if name == "W" else Color.BLACK
                game = game or self._new_game(root, column, dice)
                self._act(game, column, values[0].strip(), dice)
        winner = (root.result or "").strip()[:1]
        if game is None and winner in ("W", "B"):  # the loser gave up on its first turn, so it started the game
            self.node = 1
            game = self._new_game(root, Color.BLACK if winner == "W" else Color.WHITE, dice)
        if game is None:
            if index != self.game_count:
                raise IllegalMoveError("a game with no play")
            self._tolerate(f"the file ends before game {index} is played")  # gnubg saves a game just begun
            return
        self._result(game, root.result)
        if game.over:
            match.finish_game()
        elif index != self.game_count:
            raise IllegalMoveError(f"game {index} ends without a result")

    game_count = 0
    rolled_off = True

    def _new_game(self, root: _Root, starter: Color, dice: list[int]) -> Game:
        match = self.match
        assert match is not None
        self.rolled_off = match.forced_starter() is None  # the starter won a roll-off
        game = match.new_game(starter=starter, dice=dice)
        if match.length > 1 and match.rules.variant is Variant.SHORT and root.crawford_game != game.crawford_game:
            self._tolerate(f"RU says this is {'' if root.crawford_game else 'not '}the Crawford game")
            game.crawford_game = root.crawford_game
        return game

    def _act(self, game: Game, column: Color, value: str, dice: list[int]) -> None:
        if column is not game.turn:
            raise IllegalMoveError(f"{column.name[0]}[{value}] is {column.name.lower()}'s, but {game.turn.name.lower()} is to act")
        if value in ("double", "take", "drop"):
            getattr(game, value)()
            return
        if len(value) < 2 or not all(c in "123456" for c in value[:2]) or len(value) % 2 or len(value) > 10:
            raise InvalidNotationError(f"a move is the dice and up to four steps of two letters, got {value!r}")
        black = column is Color.BLACK
        steps = []
        for k in range(2, len(value), 2):
            pair = []
            for c in value[k:k + 2]:
                if c == "y":
                    pair.append(BAR)
                elif c == "z":
                    pair.append(OFF)
                elif "a" <= c <= "x":
                    pair.append(ord("x") - ord(c) + 1 if black else ord(c) - ord("a") + 1)
                else:
                    raise InvalidNotationError(f"{c!r} is not a point letter (a-x, y the bar, z off) in {value!r}")
            steps.append(f"{pair[0]}/{pair[1]}")
        if (self.rolled_off and game.rules.opening == "dice" and value[0] == value[1]
                and not any(event[0] == "move" for event in game.record)):
            raise IllegalMoveError(f"the opening roll {value[:2]} is a double, but the starter plays the roll-off dice")
        dice.extend((int(value[0]), int(value[1])))
        game.roll()
        if not steps and any(move.steps for move in game.legal_moves()):
            moves = game.legal_moves()
            if self.strict or len(moves) != 1:
                raise IllegalMoveError(f"the roll {value[:2]} shows no move, but it can be played")
            game.play(moves[0])
            self.warnings.append(ReadWarning(self.game_number, self.node, f"played the forced move {moves[0]}, which the file leaves out"))
            return
        game.play(game.parse_move(" ".join(steps)))

    def _result(self, game: Game, text: str | None) -> None:
        if text is None:
            if not game.over:
                self._tolerate(f"game {self.game_number} has no result (RE) and is unfinished")
            return
        text = text.strip()
        if text in ("Draw", "0"):
            if game.result is None or game.result.winner is not None:
                raise IllegalMoveError(f"RE[{text}], but the game stands {game.result or 'unfinished'}")
            return
        if len(text) < 3 or text[0] not in "WB" or text[1] != "+":
            raise InvalidNotationError(f"RE is W+points or B+points (R: resigned), got {text!r}")
        winner = Color.WHITE if text[0] == "W" else Color.BLACK
        resigned = text.endswith("R")
        points = _number(text[2:-1] if resigned else text[2:], "the points won")
        if game.result is None:
            if not resigned:
                raise IllegalMoveError(f"RE[{text}], but the game is unfinished")
            if not concede(game, points, winner.other):
                self._tolerate(f"{winner.name.lower()} wins {points} points at cube {game.cube_value}, which no "
                               f"resignation gives: read as a forfeit")
                game.forfeit(points, by=winner.other)
        elif game.result.winner is not winner or game.result.points != points:
            actual = "nobody" if game.result.winner is None else game.result.winner.name.lower()
            raise IllegalMoveError(f"RE[{text}], but the play gives {actual} {game.result.points}")


__all__ = ["dump", "load", "parse", "read", "write"]
