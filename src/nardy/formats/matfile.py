"""Match files: the plain-text `.mat` format of Jellyfish and GNU Backgammon (docs/formats.md section 7).

Short nardy is written as GNU Backgammon writes it: optional `; [Tag "value"]` header lines,
` N point match` (0 for money play), then each game's score line and numbered rows with the
first player's action in the left column and the second player's in the right; moves in
Jellyfish's notation ("25/20* 6/0", every step on its own, in the mover's own numbers), cube
actions (`Doubles => 2`, `Takes`, `Drops`) and results (`Wins 2 points`; Backgammon Galaxy's
`Losses 2 points` in the loser's column is read too).

Long nardy uses the same layout with a `; [Variation "LongNardy"]` header; rule options other
than the defaults go in a `; [Rules "block_rule=home koks=true"]` header (nardy's own tag; for
short nardy XG's `Crawford` and `Jacoby` tags are read too). A drawn game (`last_roll_draw`)
ends with a `Draw` line, nardy's extension of the format.

The left column is White, the right Black. Reading replays every game through the rules: a
move that is not legal, a cube action out of turn or a result that does not match the play is
reported as the package's error, naming the game and the line. The file does not carry the
roll-off dice, so a game read back starts from its starter (`Game.starter`), without them.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .. import files
from ..errors import IllegalMoveError, InvalidArgumentError, InvalidNotationError, NardyError, check_flag, quoted
from ..game import Game, Match
from ..rules import OPTIONS, Color, Rules, Variant

VARIATIONS = {Variant.SHORT: "Backgammon", Variant.LONG: "LongNardy"}
TAG_NAME = r"[A-Za-z][\w ]*"
RULE_TAGS = ("Variation", "Rules", "Crawford", "Jacoby")  # tags the rules are read from (and written to)
RIGHT_COLUMN = 20  # an action starting at this character or later is the second player's


@dataclass
class MatchRecord:
    """A match as a file holds it: the games (as a `Match`), the players' names, the header tags
    and what reading it tolerated (`warnings`, empty unless read with `strict=False`)."""

    match: Match
    players: tuple[str, str] = ("White", "Black")
    tags: dict[str, str] = field(default_factory=dict)
    warnings: list[ReadWarning] = field(default_factory=list)  # what lenient reading tolerated

    @property
    def rules(self) -> Rules:
        return self.match.rules

    @property
    def games(self) -> list[Game]:
        return self.match.games


def format_options(options: dict[str, Any]) -> str:
    """Rule options as nardy's `Rules` tag writes them: "block_rule=home koks=true"."""
    return " ".join(f"{k}={str(options[k]).lower()}" for k in OPTIONS if k in options)


def parse_options(text: str) -> dict[str, Any]:
    """The rule options of a `Rules` tag (see `format_options`)."""
    options: dict[str, Any] = {}
    for item in text.split():
        name, _, value = item.partition("=")
        if name not in OPTIONS:
            raise InvalidNotationError(f"unknown rule option {name!r} in the Rules tag")
        if isinstance(OPTIONS[name][1][0], bool):
            if value not in ("true", "false"):
                raise InvalidNotationError(f"rule option {name} is true or false, got {value!r}")
            options[name] = value == "true"
        else:
            options[name] = value
    return options


def concede(game: Game, points: int, loser: Color) -> bool:
    """A file's win of `points` in an unfinished game: `loser`'s resignation when the points are
    1, 2 or 3 times the cube (True); otherwise False, and the reader decides (a forfeit, leniently)."""
    value, rest = divmod(points, game.cube_value)
    if rest or value not in (1, 2, 3):
        return False
    game.resign(value, by=loser)
    return True


# writing ------------------------------------------------------------------------------------------

def encodable(text: str) -> bool:
    """Whether UTF-8 can encode `text`: no lone surrogate (a str can hold one, a file cannot)."""
    return not any("\ud800" <= c <= "\udfff" for c in text)


def one_line(text: str) -> bool:
    """Whether `text` is one line a file can hold: no control character or line break (what splits
    a line on reading), and encodable."""
    return encodable(text) and not any(unicodedata.category(c) in ("Cc", "Zl", "Zp") for c in text)


def name_problem(index: int, name: object, mat: bool) -> str | None:
    """What keeps `name` from being player `index`'s name in a file that reads it back as written
    (None: nothing): empty, not one line, or, in a `.mat` file (`mat`), with a ':', a leading ';'
    or space around it (the score line's layout). The one rule of the writers and the reader."""
    if isinstance(name, str) and name.strip() and one_line(name) and (
            not mat or ":" not in name and not name.startswith(";") and name == name.strip()):
        return None
    rule = ", without ':', a leading ';' or space around it" if mat else ""
    return f"player {index}'s name is one non-empty line of text{rule}, got {quoted(name)}"


def tag_problem(tag: str, value: str) -> str | None:
    """What keeps `value` from being the `tag` tag's value in a `.mat` header (None: nothing): not
    one line. The one rule of the writer and the reader."""
    return None if one_line(value) else f"the {tag} tag's value is one line of text, got {quoted(value)}"


def mended(text: str) -> str:
    """`text` with each run of control characters (and lone surrogates) read as a space, and
    stripped: what lenient reading makes of a name or tag value the writers would refuse."""
    return re.sub("[\x00-\x1f\x7f-\x9f\ud800-\udfff]+", " ", text).strip()


def check_players(players: tuple[str, str], mat: bool) -> None:
    """Refuse a player's name a file cannot read back as written (see `name_problem`)."""
    for index, name in enumerate(players, 1):
        problem = name_problem(index, name, mat)
        if problem:
            raise InvalidArgumentError(problem)


def parts(match: Match | Game | MatchRecord, players: tuple[str, str], tags: dict[str, str] | None
          ) -> tuple[list[Game], int, Rules, tuple[str, str], dict[str, str] | None]:
    """What a writer of match files needs: the games, the match length (0: a money session, as a
    single game is written), the rules, the players and the tags (a `MatchRecord`'s own, with
    `tags` over them)."""
    if not isinstance(match, (Match, Game, MatchRecord)):
        raise InvalidArgumentError(f"match must be a Match, a Game or a MatchRecord, got {quoted(match)}")
    if tags is not None and not isinstance(tags, dict):
        raise InvalidArgumentError(f"tags must be a dict of tag names to text, got {quoted(tags)}")
    if isinstance(match, MatchRecord):
        players, tags = match.players, {**match.tags, **(tags or {})}
        match = match.match
    for tag, value in (tags or {}).items():
        if not isinstance(tag, str) or not re.fullmatch(TAG_NAME, tag) or not isinstance(value, str):
            raise InvalidArgumentError(f"a tag is a name of letters, digits, '_' and spaces and a text, got {quoted(tag)}: {quoted(value)}")
        if tag in RULE_TAGS:
            raise InvalidArgumentError(f"the {tag} tag is written from the rules, not from tags")
    if not isinstance(players, (tuple, list)) or len(players) != 2:
        raise InvalidArgumentError(f"players must be two names, got {quoted(players)}")
    games, length = ([match], 0) if isinstance(match, Game) else (match.games, match.length)
    for number, game in enumerate(games, 1):
        if game.starter is None:
            raise InvalidArgumentError(f"game {number} has not started (roll_off()): a match file holds the games "
                                       f"begun")
        unplayed = all(kind in ("resign", "forfeit") for _, kind, _ in game.history())
        if unplayed and game.result is not None and game.result.winner is game.starter:
            raise InvalidArgumentError(f"game {number}: {game.starter.name.lower()} starts it and wins it before the first "
                                       f"move: a match file says only who gave up, and reads that side as the starter")
    return games, length, match.rules, players, tags


def write(match: Match | Game | MatchRecord, players: tuple[str, str] = ("White", "Black"),
          tags: dict[str, str] | None = None) -> str:
    """The `.mat` text of a match (a single game is written as a money session of one game)."""
    games, length, rules, players, tags = parts(match, players, tags)
    check_players(players, mat=True)
    lines = []
    header = {**(tags or {}), "Variation": VARIATIONS[rules.variant]}
    changed = rules.non_defaults()
    if changed:
        header["Rules"] = format_options(changed)
    for tag, value in header.items():
        problem = tag_problem(tag, value)
        if problem:
            raise InvalidArgumentError(problem)
        lines.append(f'; [{tag} "{value}"]')
    lines += ["", f" {length} point match", ""]
    for number, game in enumerate(games, 1):
        lines += _write_game(game, number, players)
    return "\n".join(lines) + "\n"


def dump(match: Match | Game | MatchRecord, path: str | os.PathLike[str], **kwargs: Any) -> None:
    """Write `match` to a `.mat` file (whole or not at all: see `nardy.files.write_text`)."""
    files.write_text(path, write(match, **kwargs))


def _write_game(game: Game, number: int, players: tuple[str, str]) -> list[str]:
    white, black = game.score
    lines = [f" Game {number}", " " + f"{players[0]} : {white}".ljust(30) + f" {players[1]} : {black}"]
    cells = 1 if game.starter is Color.BLACK else 0  # the first action of a game Black starts is on the right
    row = "  1)".ljust(33) if cells and any(kind not in ("resign", "forfeit") for _, kind, _ in game.history()) else ""
    for color, text in _actions(game):
        if cells % 2 == 0:
            row = f"{cells // 2 + 1:3d}) {text:<27} "
        else:
            lines.append((row + text).rstrip())
            row = ""
        cells += 1
    result = game.result
    if result is not None and result.winner is Color.BLACK and row:
        # Black's win ends the row White's last action opened, as gnubg writes (its import needs it)
        points = result.points
        lines.append(row.ljust(34) + f"Wins {points} point{'s' if points != 1 else ''}")
        return lines + [""]
    if row:
        lines.append(row.rstrip())
    if result is not None:
        if result.winner is None:
            lines.append("      Draw")
        else:
            points = result.points
            wins = f"Wins {points} point{'s' if points != 1 else ''}"
            lines.append(("      " if result.winner is Color.WHITE else " " * 34) + wins)
    return lines + [""]


def _actions(game: Game) -> Iterator[tuple[Color, str]]:
    """The game's actions as the file writes them: (who acts, text); a resignation is a result."""
    for color, kind, value in game.history():
        if kind == "move":
            yield color, f"{value.dice[0]}{value.dice[1]}: {value.plain()}".rstrip()
        elif kind == "double":  # a cube action one character in, as gnubg writes (its import needs it)
            yield color, f" Doubles => {value}"
        elif kind in ("take", "drop"):
            yield color, " " + kind.capitalize() + "s"


# reading ------------------------------------------------------------------------------------------

MAX_SIZE = 50_000_000  # characters: a bigger text is refused before reading (a long match is under 1 MB)
MAX_LINE = 10_000  # characters: a longer line is an error, not read
MAX_DIGITS = 9  # a number in a match file (length, score, cube, points, row) has at most this many digits


@dataclass(frozen=True)
class ReadWarning:
    """What lenient reading tolerated: where (game 0 is the header) and what."""

    game: int
    line: int
    message: str

    def __str__(self) -> str:
        where = f"game {self.game}, line {self.line}" if self.game else f"line {self.line}"
        return f"{where}: {self.message}"


def read(text: str, rules: Rules | Variant | str | None = None, *, strict: bool = True) -> MatchRecord:
    """The match a `.mat` text holds, every game replayed and checked against the rules.

    `rules`, if given, are the rules the file is played with: they fill in what its header
    does not say (GNU Backgammon's export does not say Jacoby) and must agree with what it
    does say. Raises
    `InvalidNotationError` for text that is not a match file and the rules' errors
    (`IllegalMoveError`, ...) for play that is not legal, naming the game and the line.

    `strict=False` reads what archives hold (see docs/formats.md): a match that starts at a
    non-zero score, a forced move left out, a move left out that was not forced (the game is
    kept up to there, its result line read as a forfeit), server noise between the rows or
    inside one, a row number out of place, a forfeit worth more than the game, a last game cut
    off, and control characters in a name or tag (read as a space). Each is a `ReadWarning`
    in the record's `warnings`. In both modes every game's replayed result must agree with the
    file's next score line.
    """
    if not isinstance(text, str):
        raise InvalidArgumentError(f"a match file is text, got {type(text).__name__}")
    if len(text) > MAX_SIZE:
        raise InvalidNotationError(f"the match text has {len(text)} characters; at most {MAX_SIZE} are read")
    return _Reader(None if rules is None else Rules.of(rules), strict).read(text)


def load(path: str | os.PathLike[str], rules: Rules | Variant | str | None = None, *, strict: bool = True) -> MatchRecord:
    """Read a `.mat` file (see `read`; a UTF-8 byte order mark at its start is allowed; a FIFO, a
    device or a directory is an `InvalidArgumentError`)."""
    return read(files.read_text(path, "a match file is read from", MAX_SIZE), rules, strict=strict)


SNIFF = 65_536  # bytes: how much of a .txt file `looks_like_match` reads


def looks_like_match(path: str | os.PathLike[str]) -> bool:
    """Whether the file at `path` looks like a `.mat` match file (server and Backgammon Galaxy
    downloads end in `.txt`, like any other text): its first non-blank line that is not a `;`
    comment, within its first 64 KiB, is ' N point match'. A file that cannot be opened counts
    as one: reading it says why."""
    try:
        with files.open_regular(path) as f:
            head = f.read(SNIFF).decode("utf-8-sig", errors="replace")
    except (OSError, NardyError):
        return True
    for line in head.splitlines():
        words = line.split()
        if words and not words[0].startswith(";"):
            return len(words) == 3 and words[0].isdigit() and words[1:] == ["point", "match"]
    return False


def _number(text: str, what: str) -> int:
    if not text.isascii() or not text.isdigit():
        raise InvalidNotationError(f"{what} is a whole number, got {text!r}")
    if len(text) > MAX_DIGITS:
        raise InvalidNotationError(f"{what} {text[:12]}... has {len(text)} digits; at most {MAX_DIGITS} are read")
    return int(text)


@dataclass
class _Action:
    """One action of a row: its kind, where it starts (which column) and what it says."""

    kind: str  # "roll", "double", "take", "drop", "beaver", "wins", "losses", "draw"
    start: int
    text: str
    dice: tuple[int, int] = (0, 0)
    moves: str = ""
    value: int = 0
    match: bool = False  # "Wins ... and the match"


_DICE = re.compile(r"[1-6][1-6]:")
_WORDS = ("Doubles", "Takes", "Drops", "Beavers", "Wins", "Losses", "Draw")
_RESULTS = ("wins", "losses")  # the actions that give a game's result


def _starts_action(word: str) -> bool:
    """Whether a word begins an action: a roll ("63:", "63:8/2") or one of `_WORDS`."""
    return bool(_DICE.fullmatch(word) or (len(word) > 3 and _DICE.fullmatch(word[:3]) and "/" in word)) or word in _WORDS


def _row_actions(raw: str, start: int, noise: list[str] | None = None) -> list[_Action]:
    """The actions of a row from character `start` on; one pass over its words (linear time).

    With `noise` (lenient reading), words that are no action, up to the next word that starts
    one, are server noise: added to `noise` and skipped; a roll shown without its move, noise,
    and the same roll again (the server's "Illegal play", then the play) are one action, in the
    first roll's column."""
    words = [(m.start(), m.group()) for m in re.finditer(r"\S+", raw[start:])]
    words = [(start + at, word) for at, word in words]
    actions: list[_Action] = []
    i = 0
    after_noise = False

    def fail() -> None:
        raise InvalidNotationError(f"cannot read {raw[words[i][0]:].strip()[:60]!r}")

    while i < len(words):
        at, word = words[i]
        if _DICE.fullmatch(word) or (len(word) > 3 and _DICE.fullmatch(word[:3]) and "/" in word):
            first = [word[3:]] if len(word) > 3 else []
            j = i + 1
            while j < len(words) and "/" in words[j][1] and ":" not in words[j][1]:
                j += 1
            moves = " ".join(first + [w for _, w in words[i + 1:j]])
            dice = (int(word[0]), int(word[1]))
            if after_noise and actions and actions[-1].kind == "roll" and not actions[-1].moves and actions[-1].dice == dice:
                at = actions.pop().start  # the roll again, after the server's noise: the same turn
            actions.append(_Action("roll", at, f"{word[:3]} {moves}".strip(), dice, moves))
            i = j
        elif word == "Doubles" and i + 2 < len(words) and words[i + 1][1] == "=>":
            actions.append(_Action("double", at, f"Doubles => {words[i + 2][1]}", value=_number(words[i + 2][1], "a cube value")))
            i += 3
        elif word in ("Takes", "Drops", "Beavers", "Draw"):
            actions.append(_Action({"Takes": "take", "Drops": "drop", "Beavers": "beaver", "Draw": "draw"}[word], at, word))
            i += 1
        elif word in ("Wins", "Losses") and i + 2 < len(words) and words[i + 2][1] in ("point", "points"):
            action = _Action(word.lower(), at, word, value=_number(words[i + 1][1], "the points won"))
            i += 3
            if word == "Wins" and [w for _, w in words[i:i + 3]] == ["and", "the", "match"]:
                action.match, i = True, i + 3
            actions.append(action)
        elif noise is not None and not _starts_action(word):
            j = i + 1
            while j < len(words) and not _starts_action(words[j][1]):
                j += 1
            noise.append(" ".join(w for _, w in words[i:j]))
            i, after_noise = j, True
            continue
        else:
            fail()
        after_noise = False
    return actions


def _tag(stripped: str) -> tuple[str, str] | None:
    """`; [Name "value"]` as (name, value); None for another comment (linear time)."""
    inner = stripped[1:].strip()
    if not (inner.startswith("[") and inner.endswith("]")):
        return None
    inner = inner[1:-1].strip()
    quote = inner.find('"')
    if quote < 1 or not inner.endswith('"') or quote == len(inner) - 1:
        return None
    name = inner[:quote].strip()
    if not re.fullmatch(TAG_NAME, name) or not inner[quote - 1].isspace():
        return None
    return name, inner[quote + 1:-1]


class _Dice:
    """The dice a game will roll, fed one turn at a time from the file."""

    def __init__(self) -> None:
        self.pending: deque[int] = deque()

    def __iter__(self) -> _Dice:
        return self

    def __next__(self) -> int:
        if not self.pending:
            raise StopIteration
        return self.pending.popleft()


class _Reader:
    def __init__(self, rules: Rules | None, strict: bool) -> None:
        self.given = rules
        self.strict = check_flag(strict, "strict")
        self.warnings: list[ReadWarning] = []
        self.tags: dict[str, str] = {}
        self.match: Match | None = None
        self.players: tuple[str, str] | None = None
        self.number = 0  # the game being read
        self.games_read = 0
        self.game: Game | None = None
        self.dice = _Dice()
        self.line = 0
        self.expect_players = False  # the line after ' Game k' is the score line
        self.rolled_off = True  # the current game's starter was decided by a roll-off
        self.shown_roll: int | None = None  # the line of a roll shown without its move (gnubg, before a resignation)
        self.cells = 0  # the current game's actions so far, counting an empty left cell when Black starts
        self.cut = False  # the current game is cut short (a move left out that was not forced): rows passed over
        self.cleaned: set[str] = set()  # the names and tag values read with control characters replaced

    def read(self, text: str) -> MatchRecord:
        for self.line, raw in enumerate(text.splitlines(), 1):
            try:
                if len(raw) > MAX_LINE:
                    raise InvalidNotationError(f"the line has {len(raw)} characters; a match file's lines have at most {MAX_LINE}")
                self._line(raw)
            except NardyError as exc:
                raise type(exc)(f"{self._where()}: {exc}") from exc
        self.line += 1
        if self.match is None:
            raise InvalidNotationError("not a match file: no ' N point match' line")
        try:
            self._end_game(last=True)
        except NardyError as exc:
            raise type(exc)(f"{self._where()}: {exc}") from exc
        return MatchRecord(self.match, self.players or ("White", "Black"), self.tags, self.warnings)

    def _where(self) -> str:
        return f"game {self.number}, line {self.line}" if self.number else f"line {self.line}"

    def _tolerate(self, message: str, error: type[NardyError] = IllegalMoveError) -> None:
        """A deviation: an error when strict, else a warning."""
        if self.strict:
            raise error(message + " (lenient reading, strict=False, accepts this)")
        self.warnings.append(ReadWarning(self.number, self.line, message))

    def _line(self, raw: str) -> None:
        stripped = raw.strip()
        if not stripped:
            return
        if stripped.startswith(";"):
            tag = _tag(stripped)
            if tag and self.match is None:
                name = tag[0]
                self.tags[name] = self._one_line(tag[1], lambda value: tag_problem(name, value))
            elif not tag and stripped[1:].lstrip().startswith("["):
                self._tolerate(f"skipped a broken tag line (a tag is '; [Name \"value\"]'): {stripped[:60]!r}", InvalidNotationError)
            return
        words = stripped.split()
        if len(words) == 3 and words[1:] == ["point", "match"]:
            if self.match is not None:
                raise InvalidNotationError("a second ' N point match' line")
            self.match = Match(self._rules(), _number(words[0], "a match length"))
            return
        if self.match is None:
            raise InvalidNotationError(f"expected ' N point match' before {stripped[:60]!r}")
        if len(words) == 2 and words[0] == "Game":
            self._end_game(last=False)
            number = _number(words[1], "a game number")
            self.number += 1
            if number != self.number:
                if self.games_read == 0 and number > 0:
                    self.number = number
                    self._tolerate(f"the file starts at game {number}, not game 1")
                else:
                    raise InvalidNotationError(f"game {number} where game {self.number} was expected")
            self.expect_players = True
            return
        if self.number == 0:
            raise InvalidNotationError(f"expected ' Game 1' before {stripped[:60]!r}")
        if self.expect_players:
            self.expect_players = False
            self._score_line(stripped)
            return
        row = re.match(r"\s*([0-9]+)\)", raw)
        try:
            actions = _row_actions(raw, row.end() if row else 0)
        except InvalidNotationError:
            first = words[0]
            if self.strict:
                raise
            if row is None and not _starts_action(first):  # a line that starts as an action does is never noise
                self.warnings.append(ReadWarning(self.number, self.line, f"skipped a line that is not a row: {stripped[:60]!r}"))
                return
            noise: list[str] = []
            actions = _row_actions(raw, row.end() if row else 0, noise)
            for text in noise:
                self.warnings.append(ReadWarning(self.number, self.line, f"skipped server noise inside a row: {text[:60]!r}"))
        row_number = _number(row[1], "a row number") if row else None
        for action in actions:
            self._act(action, Color.BLACK if action.start >= RIGHT_COLUMN else Color.WHITE, row_number)

    def _one_line(self, text: str, problem: Callable[[str], str | None]) -> str:
        """A name or a tag's value, checked by the writers' rule (`problem`): an error when strict;
        else, if reading each run of control characters as a space mends it, that, with a warning
        (once per text)."""
        said = problem(text)
        if said is None:
            return text
        cleaned = mended(text)
        if problem(cleaned) is not None:
            raise InvalidNotationError(said)
        if text not in self.cleaned:
            self._tolerate(f"{said}: read as {cleaned!r}", InvalidNotationError)
            self.cleaned.add(text)
        return cleaned

    def _check_row(self, number: int, column: Color) -> None:
        """Row `number`'s cell in `column` must be the next cell of the game."""
        cell = 2 * (number - 1) + (column is Color.BLACK)
        if cell != self.cells:
            self._tolerate(f"row {number} where row {self.cells // 2 + 1} was expected")
            self.cells = cell
        self.cells += 1

    def _rules(self) -> Rules:
        """The header's rules; where it is silent, the caller's (if given), else the defaults."""
        given = self.given
        name = self.tags.pop("Variation", VARIATIONS[Variant.SHORT])  # no tag: backgammon, as the format has it
        variants = {v: k for k, v in VARIATIONS.items()}
        if name not in variants:
            raise InvalidNotationError(f"unsupported variation {name!r}: nardy reads {', '.join(variants)}")
        variant = variants[name]
        if given is not None and given.variant is not variant:
            raise InvalidNotationError(f"the file is {variant.value} nardy, not {given!r}")
        options: dict[str, Any] = {}
        for tag, option in (("Crawford", "crawford"), ("Jacoby", "jacoby")):
            if tag in self.tags and variant is Variant.SHORT:
                value = self.tags.pop(tag).lower()
                if value not in ("on", "off", "true", "false"):
                    raise InvalidNotationError(f"the {tag} tag is On or Off, got {value!r}")
                options[option] = value in ("on", "true")
        options.update(parse_options(self.tags.pop("Rules", "")))
        stated = Rules(variant, **options)
        if given is None:
            return stated
        differ = {name: value for name, value in options.items() if getattr(given, name) != value}
        if differ:
            raise InvalidNotationError(f"the file's header says {format_options(differ)}, but the rules given are {given!r}")
        return given

    def _score_line(self, text: str) -> None:
        parts = text.split(":")
        middle = parts[1].split(None, 1) if len(parts) == 3 else []
        if len(middle) != 2 or not parts[0].strip() or len(parts[2].split()) != 1:
            raise InvalidNotationError(f"expected the score line 'name : score   name : score', got {text[:60]!r}")
        assert self.match is not None
        players = (self._one_line(parts[0].strip(), lambda name: name_problem(1, name, mat=True)),
                   self._one_line(middle[1].strip(), lambda name: name_problem(2, name, mat=True)))
        said = (_number(middle[0], "a score"), _number(parts[2].strip(), "a score"))
        self.players = self.players or players
        if players != self.players:
            raise InvalidNotationError(f"the players are {self.players}, not {players}")
        score = (self.match.score[Color.WHITE], self.match.score[Color.BLACK])
        if said != score and self.games_read == 0 and not self.match.games:
            self._tolerate(f"the match starts at {said[0]}-{said[1]}, not 0-0")
            self.match.score = {Color.WHITE: said[0], Color.BLACK: said[1]}
        elif said != score:
            raise IllegalMoveError(f"the score line says {said[0]}-{said[1]}, but the games before make it {score[0]}-{score[1]}")

    def _end_game(self, last: bool) -> None:
        assert self.match is not None
        if self.shown_roll is not None:
            assert self.game is not None
            if last and not self.strict and len(self.game.legal_moves()) != 1:
                self.shown_roll = None  # the file ends after the roll (gnubg saves a game just begun): warned below
            else:
                self._forced(None)
        if self.game is not None and self.game.over:
            self.match.finish_game()
        elif self.number and not last:
            raise IllegalMoveError(f"game {self.number} ends without a result")
        elif self.number:
            self._tolerate(f"the file ends in the middle of game {self.number}: it has no result")
        if self.number:
            self.games_read += 1
        self.game, self.shown_roll, self.cells, self.cut = None, None, 0, False

    def _forced(self, action: _Action | None) -> None:
        """A roll shown without its move, and what follows is not a resignation: lenient reading
        plays the move if it is forced (the only legal play), as gnubg does on import; if it is
        not, and a later action follows (`action`), it cuts the game there (`self.cut`: the
        rest of its rows are passed over up to its result line)."""
        assert self.game is not None
        line, self.shown_roll = self.shown_roll, None
        moves = self.game.legal_moves()
        if not self.strict and len(moves) == 1:
            self.game.play(moves[0])
            self.warnings.append(ReadWarning(self.number, line or self.line, f"played the forced move {moves[0]}, which the file leaves out"))
            return
        if not self.strict and action is not None:
            self.cut = True
            self.warnings.append(ReadWarning(self.number, line or self.line, "the roll shows no move and the move is not forced: "
                                             "the game is kept up to here, its result taken from its result line (as a forfeit)"))
            return
        raise IllegalMoveError(f"the roll on line {line} shows no move, but it can be played"
                               + ("" if len(moves) != 1 else " (it is forced: lenient reading, strict=False, plays it)"))

    def _act(self, action: _Action, column: Color, row: int | None) -> None:
        assert self.match is not None
        if action.kind == "beaver":
            raise InvalidNotationError("beavers are not part of the rules nardy plays")
        game = self.game
        if game is None:
            if action.kind == "draw":
                raise IllegalMoveError("a draw before any play")
            self.rolled_off = self.match.forced_starter() is None
            # a win before any play: the loser gave up on its first turn, so it started the game
            game = self.game = self.match.new_game(starter=column.other if action.kind == "wins" else column, dice=self.dice)
            self.cells = int(game.starter is Color.BLACK)  # Black starts: the first row's left cell is empty
        if self.shown_roll is not None and action.kind not in _RESULTS:
            self._forced(action)
        if self.cut:  # a game cut short: its rows passed over up to its result line, taken as a forfeit
            if action.kind in _RESULTS:
                winner = column if action.kind == "wins" else column.other
                game.forfeit(action.value, by=winner.other)
                self.cut = False
                self._match_won(action, winner)
            return
        if action.kind not in (*_RESULTS, "draw") and column is not game.turn:
            raise IllegalMoveError(
                f"{action.text!r} stands in {column.name.lower()}'s column, but {game.turn.name.lower()} is to act"
            )
        if row is not None and action.kind not in (*_RESULTS, "draw"):
            self._check_row(row, column)
        if action.kind == "roll":
            self._move(game, action.dice, action.moves)
        elif action.kind == "double":
            if game.crawford_game and not self.strict and self.games_read == 0 and self.match.games == [game]:
                game.crawford_game = False  # the archive starts after the Crawford game
                self.warnings.append(ReadWarning(self.number, self.line, "a double in the first game read: it is after the Crawford game"))
            game.double()
            if action.value != game.cube_value * 2:
                raise IllegalMoveError(f"a double of a {game.cube_value}-cube is to {game.cube_value * 2}, not {action.value}")
        elif action.kind == "take":
            game.take()
        elif action.kind == "drop":
            game.drop()
        elif action.kind == "draw":
            if game.result is None or game.result.winner is not None:
                raise IllegalMoveError(f"'Draw', but the game stands {game.result or 'unfinished'}")
        else:  # "Wins" in the winner's column, or Backgammon Galaxy's "Losses" in the loser's
            self._wins(game, action, column if action.kind == "wins" else column.other)

    def _wins(self, game: Game, action: _Action, column: Color) -> None:
        assert self.match is not None
        points = action.value
        if game.result is None:  # the other side resigned, or forfeited
            if not concede(game, points, column.other):
                self._tolerate(f"{column.name.lower()} wins {points} points at cube {game.cube_value}, which no "
                               f"resignation gives (1, 2 or 3 times the cube): read as a forfeit")
                game.forfeit(points, by=column.other)
            self.shown_roll = None
        elif game.result.winner is not column or game.result.points != points:
            winner = "nobody" if game.result.winner is None else game.result.winner.name.lower()
            raise IllegalMoveError(
                f"the file says {column.name.lower()} wins {points}, but the play gives {winner} {game.result.points}"
            )
        self._match_won(action, column)

    def _match_won(self, action: _Action, winner: Color) -> None:
        """`Wins ... and the match` must win the match."""
        assert self.match is not None
        if action.match:
            total = self.match.score[winner] + action.value
            if not self.match.length or total < self.match.length:
                raise IllegalMoveError(f"the file says {winner.name.lower()} wins the match, but that makes "
                                       f"{total} of {self.match.length or 'a money session'}")

    def _move(self, game: Game, dice: tuple[int, int], text: str) -> None:
        opening = game.position is not None and game.dice is None and not any(e[0] == "move" for e in game.record)
        if opening and self.rolled_off and game.rules.opening == "dice" and dice[0] == dice[1]:
            raise IllegalMoveError(f"the opening roll {dice[0]}{dice[1]} is a double, but the starter plays the roll-off dice")
        if game.dice is None:
            self.dice.pending.extend(dice)
            game.roll()
        if not text.strip() and any(move.steps for move in game.legal_moves()):
            self.shown_roll = self.line  # rolled, then resigned: only a resignation may follow
            return
        game.play(game.parse_move(text.strip()))


__all__ = [
    "MAX_DIGITS", "MAX_LINE", "MAX_SIZE", "MatchRecord", "ReadWarning", "dump", "load", "read", "write",
]
