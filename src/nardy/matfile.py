"""Match files: the plain-text `.mat` format of Jellyfish and GNU Backgammon (docs/formats.md section 7).

Short nardy is written as GNU Backgammon writes it: optional `; [Tag "value"]` header lines,
` N point match` (0 for money play), then each game's score line and numbered rows with the
first player's action in the left column and the second player's in the right; moves in
Jellyfish's notation ("25/20* 6/0", every step on its own, in the mover's own numbers), cube
actions (`Doubles => 2`, `Takes`, `Drops`) and results (`Wins 2 points`).

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
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .errors import IllegalMoveError, InvalidArgumentError, InvalidNotationError, NardyError
from .game import Game, Match
from .rules import OPTIONS, Color, Rules, Variant

VARIATIONS = {Variant.SHORT: "Backgammon", Variant.LONG: "LongNardy"}
RIGHT_COLUMN = 20  # an action starting at this character or later is the second player's
_ACTION = re.compile(
    r"(?P<dice>[1-6][1-6]):(?P<moves>(?:[ \t]+[^\s:]*/[^\s:]*)*)"
    r"|Doubles\s*=>\s*(?P<cube>\d+)"
    r"|(?P<take>Takes)|(?P<drop>Drops)|(?P<beaver>Beavers)"
    r"|Wins\s+(?P<points>\d+)\s+points?(?:\s+and\s+the\s+match)?"
    r"|(?P<draw>Draw)"
)
_TAG = re.compile(r';\s*\[\s*([A-Za-z][\w ]*?)\s+"(.*)"\s*\]\s*')


@dataclass
class MatchRecord:
    """A match as a file holds it: the games (as a `Match`), the players' names and the header tags."""

    match: Match
    players: tuple[str, str] = ("White", "Black")
    tags: dict[str, str] = field(default_factory=dict)

    @property
    def rules(self) -> Rules:
        return self.match.rules

    @property
    def games(self) -> list[Game]:
        return self.match.games


# writing ------------------------------------------------------------------------------------------

def write(match: Match | Game | MatchRecord, players: tuple[str, str] = ("White", "Black"),
          tags: dict[str, str] | None = None) -> str:
    """The `.mat` text of a match (a single game is written as a money session of one game)."""
    if isinstance(match, MatchRecord):
        players, tags = match.players, {**match.tags, **(tags or {})}
        match = match.match
    games, length = ([match], 0) if isinstance(match, Game) else (match.games, match.length)
    rules = match.rules
    for name in players:
        if not isinstance(name, str) or not name.strip() or ":" in name or "\n" in name:
            raise InvalidArgumentError(f"a player's name is a non-empty line without ':', got {name!r}")
    lines = []
    header = {**(tags or {}), "Variation": VARIATIONS[rules.variant]}
    changed = rules.non_defaults()
    if changed:
        header["Rules"] = " ".join(f"{k}={str(changed[k]).lower()}" for k in OPTIONS if k in changed)
    for tag, value in header.items():
        if not re.fullmatch(r"[A-Za-z][\w ]*", tag) or not isinstance(value, str) or "\n" in value:
            raise InvalidArgumentError(f"a header tag is a word and a one-line value, got {tag!r}: {value!r}")
        lines.append(f'; [{tag} "{value}"]')
    lines += ["", f" {length} point match", ""]
    for number, game in enumerate(games, 1):
        lines += _write_game(game, number, players)
    return "\n".join(lines) + "\n"


def dump(match: Match | Game | MatchRecord, path: str | os.PathLike[str], **kwargs: Any) -> None:
    """Write `match` to a `.mat` file."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(write(match, **kwargs))


def _write_game(game: Game, number: int, players: tuple[str, str]) -> list[str]:
    white, black = game.score
    lines = [f" Game {number}", " " + f"{players[0]} : {white}".ljust(31) + f"{players[1]} : {black}"]
    cells = 1 if game.starter is Color.BLACK else 0  # the first action of a game Black starts is on the right
    row = "  1)".ljust(33) if cells else ""
    for color, text in _actions(game):
        if cells % 2 == 0:
            row = f"{cells // 2 + 1:3d}) {text:<27} "
        else:
            lines.append((row + text).rstrip())
            row = ""
        cells += 1
    if row:
        lines.append(row.rstrip())
    if game.result is not None:
        winner = game.result.winner
        if winner is None:
            lines.append("      Draw")
        else:
            points = game.result.points
            wins = f"Wins {points} point{'s' if points != 1 else ''}"
            lines.append(("      " if winner is Color.WHITE else " " * 34) + wins)
    return lines + [""]


def _actions(game: Game) -> Iterator[tuple[Color, str]]:
    """The game's actions as the file writes them: (who acts, text); a resignation is a result."""
    for color, kind, value in game.history():
        if kind == "move":
            yield color, f"{value.dice[0]}{value.dice[1]}: {value.plain()}".rstrip()
        elif kind == "double":
            yield color, f"Doubles => {value}"
        elif kind in ("take", "drop"):
            yield color, kind.capitalize() + "s"


# reading ------------------------------------------------------------------------------------------

def read(text: str, rules: Rules | None = None) -> MatchRecord:
    """The match a `.mat` text holds, every game replayed and checked against the rules.

    `rules`, if given, must agree with what the file's header says. Raises
    `InvalidNotationError` for text that is not a match file and the rules' errors
    (`IllegalMoveError`, ...) for play that is not legal, naming the game and the line.
    """
    return _Reader(rules).read(text)


def load(path: str | os.PathLike[str], rules: Rules | None = None) -> MatchRecord:
    """Read a `.mat` file (see `read`)."""
    with open(path, encoding="utf-8") as f:
        return read(f.read(), rules)


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
    def __init__(self, rules: Rules | None) -> None:
        self.given = rules
        self.tags: dict[str, str] = {}
        self.match: Match | None = None
        self.players: tuple[str, str] | None = None
        self.number = 0  # the game being read
        self.game: Game | None = None
        self.dice = _Dice()
        self.line = 0
        self.expect_players = False  # the line after ' Game k' is the score line
        self.rolled_off = True  # the current game's starter was decided by a roll-off
        self.shown_roll: int | None = None  # the line of a roll shown without its move (gnubg, before a resignation)

    def read(self, text: str) -> MatchRecord:
        if not isinstance(text, str):
            raise InvalidArgumentError(f"a match file is text, got {type(text).__name__}")
        for self.line, raw in enumerate(text.splitlines(), 1):
            try:
                self._line(raw)
            except NardyError as exc:
                raise type(exc)(f"{self._where()}: {exc}") from exc
        if self.match is None:
            raise InvalidNotationError("not a match file: no ' N point match' line")
        self._end_game(last=True)
        return MatchRecord(self.match, self.players or ("White", "Black"), self.tags)

    def _where(self) -> str:
        return f"game {self.number}, line {self.line}" if self.number else f"line {self.line}"

    def _line(self, raw: str) -> None:
        stripped = raw.strip()
        if not stripped:
            return
        if stripped.startswith(";"):
            tag = _TAG.fullmatch(stripped)
            if tag and self.match is None:
                self.tags[tag[1]] = tag[2]
            return
        if match := re.fullmatch(r"(\d+)\s+point\s+match", stripped):
            if self.match is not None:
                raise InvalidNotationError("a second ' N point match' line")
            self.match = Match(self._rules(), int(match[1]))
            return
        if self.match is None:
            raise InvalidNotationError(f"expected ' N point match' before {stripped!r}")
        if match := re.fullmatch(r"Game\s+(\d+)", stripped):
            self._end_game(last=False)
            self.number += 1
            if int(match[1]) != self.number:
                raise InvalidNotationError(f"game {match[1]} where game {self.number} was expected")
            self.expect_players = True
            return
        if self.number == 0:
            raise InvalidNotationError(f"expected ' Game 1' before {stripped!r}")
        if self.expect_players:
            self.expect_players = False
            self._score_line(stripped)
            return
        row = re.match(r"\s*\d+\)", raw)
        start, actions = row.end() if row else 0, []
        while True:
            while start < len(raw) and raw[start].isspace():
                start += 1
            if start >= len(raw):
                break
            action = _ACTION.match(raw, start)
            if action is None:
                raise InvalidNotationError(f"cannot read {raw[start:].strip()!r}")
            actions.append(action)
            start = action.end()
        for action in actions:
            self._act(action, Color.BLACK if action.start() >= RIGHT_COLUMN else Color.WHITE)

    def _rules(self) -> Rules:
        name = self.tags.pop("Variation", VARIATIONS[Variant.SHORT])
        variants = {v: k for k, v in VARIATIONS.items()}
        if name not in variants:
            raise InvalidNotationError(f"unsupported variation {name!r}: nardy reads {', '.join(variants)}")
        variant = variants[name]
        options: dict[str, Any] = {}
        for tag, option in (("Crawford", "crawford"), ("Jacoby", "jacoby")):
            if tag in self.tags and variant is Variant.SHORT:
                value = self.tags.pop(tag).lower()
                if value not in ("on", "off", "true", "false"):
                    raise InvalidNotationError(f"the {tag} tag is On or Off, got {value!r}")
                options[option] = value in ("on", "true")
        for item in self.tags.pop("Rules", "").split():
            name, _, value = item.partition("=")
            if name not in OPTIONS:
                raise InvalidNotationError(f"unknown rule option {name!r} in the Rules tag")
            if isinstance(OPTIONS[name][1][0], bool):
                if value not in ("true", "false"):
                    raise InvalidNotationError(f"rule option {name} is true or false, got {value!r}")
                options[name] = value == "true"
            else:
                options[name] = value
        rules = Rules(variant, **options)
        if self.given is not None and self.given != rules:
            raise InvalidNotationError(f"the file is played with {rules!r}, not {self.given!r}")
        return rules

    def _score_line(self, text: str) -> None:
        match = re.fullmatch(r"(.+?)\s*:\s*(\d+)\s+(.+?)\s*:\s*(\d+)", text)
        if match is None:
            raise InvalidNotationError(f"expected the score line 'name : score   name : score', got {text!r}")
        assert self.match is not None
        players = (match[1], match[3])
        self.players = self.players or players
        if players != self.players:
            raise InvalidNotationError(f"the players are {self.players}, not {players}")
        said = (int(match[2]), int(match[4]))
        score = (self.match.score[Color.WHITE], self.match.score[Color.BLACK])
        if said != score:
            raise IllegalMoveError(f"the score line says {said[0]}-{said[1]}, but the games before make it {score[0]}-{score[1]}")

    def _end_game(self, last: bool) -> None:
        assert self.match is not None
        if self.game is not None and self.game.over:
            self.match.finish_game()
        elif self.number and not last:
            raise IllegalMoveError(f"game {self.number} ends without a result")
        self.game, self.shown_roll = None, None

    def _act(self, action: re.Match[str], column: Color) -> None:
        assert self.match is not None
        game = self.game
        if game is None:
            if action["points"] or action["draw"]:
                raise IllegalMoveError("a result before any play")
            self.rolled_off = self.match.forced_starter() is None
            game = self.game = self.match.new_game(starter=column, dice=self.dice)
        if self.shown_roll is not None and not action["points"]:
            raise IllegalMoveError(f"the roll on line {self.shown_roll} shows no move, but it can be played")
        if not (action["points"] or action["draw"] or action["beaver"]) and column is not game.turn:
            raise IllegalMoveError(
                f"{action[0].strip()!r} stands in {column.name.lower()}'s column, but {game.turn.name.lower()} is to act"
            )
        if action["dice"]:
            self._move(game, (int(action["dice"][0]), int(action["dice"][1])), action["moves"])
        elif action["cube"]:
            game.double()
            if int(action["cube"]) != game.cube_value * 2:
                raise IllegalMoveError(f"a double of a {game.cube_value}-cube is to {game.cube_value * 2}, not {action['cube']}")
        elif action["take"]:
            game.take()
        elif action["drop"]:
            game.drop()
        elif action["beaver"]:
            raise InvalidNotationError("beavers are not part of the rules nardy plays")
        elif action["draw"]:
            if game.result is None or game.result.winner is not None:
                raise IllegalMoveError(f"'Draw', but the game stands {game.result or 'unfinished'}")
        else:
            points = int(action["points"])
            if game.result is None:  # the other side resigned
                value, rest = divmod(points, game.cube_value)
                if rest or value not in (1, 2, 3):
                    raise IllegalMoveError(f"a resignation at cube {game.cube_value} gives 1, 2 or 3 times it, not {points}")
                game.resign(value, by=column.other)
                self.shown_roll = None
            elif game.result.winner is not column or game.result.points != points:
                winner = "nobody" if game.result.winner is None else game.result.winner.name.lower()
                raise IllegalMoveError(
                    f"the file says {column.name.lower()} wins {points}, but the play gives {winner} {game.result.points}"
                )

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
