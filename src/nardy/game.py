"""Games and matches (docs/rules.md sections 4 to 6): roll-off, turns, scoring, the doubling cube.

Pure Python (nothing here is hot): the rules of each move come from `Position`. Dice come from
a seeded numpy `Generator`, or from a given list; a game's `record` replays it exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import reference
from .errors import GameOverError, IllegalMoveError, InvalidArgumentError, InvalidDiceError, NardyError, check_whole, is_whole, quoted
from .move import Move
from .formats.ids import MAX_LENGTH, MatchState, match_id
from .formats.notation import parse_chains, resolve
from .formats.svg import board as svg_board
from .position import Position
from .rules import CHECKERS, Color, Rules, Variant

Event = tuple[Any, ...]
MAX_POINTS = 10**9 - 1  # the most a forfeit gives: match files and SGF carry numbers of 9 digits


def _check_seed(seed: int | None) -> None:
    """The seed of a game's or a match's dice: None (fresh entropy) or a whole number >= 0."""
    if seed is not None:
        check_whole(seed, "seed", 0)


class _Dice:
    """Dice from a seeded generator, or from a list that must not run out."""

    def __init__(self, seed: int | None, dice: Iterable[int] | None) -> None:
        _check_seed(seed)
        try:
            self._given = None if dice is None else iter(dice)
        except TypeError:
            raise InvalidDiceError(f"dice must be an iterable of dice, got {quoted(dice)}") from None
        self._rng = np.random.default_rng(seed)

    def die(self) -> int:
        if self._given is None:
            return int(self._rng.integers(1, 7))
        try:
            d = next(self._given)
        except StopIteration:
            raise InvalidDiceError("the given dice ran out") from None
        if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6:
            raise InvalidDiceError(f"a die shows 1..6, got {quoted(d)}")
        return d


@dataclass(frozen=True)
class Result:
    """How a game ended: the winner (None for a draw), the kind, the points with the cube."""

    winner: Color | None
    kind: str
    points: int


class Game:
    """One game of long or short nardy; `cube` (short nardy) True or False plays it with or
    without the doubling cube, None as the rules' `cube` option says.

    >>> g = Game("short", seed=1)
    >>> g.roll_off() in [(w, b) for w in range(1, 7) for b in range(1, 7) if w != b]
    True

    `starter` is the colour that begins, None until it is decided: by `roll_off()`, by the
    `starter` argument, or by a match's `next_starter` rule (long nardy: the last winner starts
    the next game with no roll-off). `needs_roll_off` says whether `roll_off()` is still due.

    The side on roll calls `roll()` (short nardy: `double()` first, if it may), then `play(move)`
    with one of `legal_moves()`; the other side answers a double with `take()` or `drop()`.
    Acting out of turn raises `IllegalMoveError`; acting on a finished game, `GameOverError`.
    """

    def __init__(
        self,
        rules: Rules | Variant | str = Variant.LONG,
        *,
        seed: int | None = None,
        dice: Iterable[int] | None = None,
        starter: Color | None = None,
        cube: bool | None = None,
    ) -> None:
        self.rules = Rules.of(rules)
        if cube is not None and not isinstance(cube, bool):
            raise InvalidArgumentError(f"cube must be True, False or None (the rules' cube option), got {quoted(cube)}")
        if cube and self.rules.variant is Variant.LONG:
            raise InvalidArgumentError("cube=True: long nardy is played without the doubling cube")
        self._dice = _Dice(seed, dice)
        self.record: list[Event] = []
        self.position: Position | None = None
        self.starter: Color | None = None
        self.dice: tuple[int, int] | None = None
        self.result: Result | None = None
        short = self.rules.variant is Variant.SHORT
        self.cube_enabled = short and (self.rules.cube if cube is None else cube)
        self.cube_value = 1
        self.cube_owner: Color | None = None  # None: centred
        self.doubled_by: Color | None = None  # a double waiting for take or drop
        self._last_roll = False  # long nardy, last_roll_draw: the other side's final roll
        if starter is not None:
            self._begin(Color.parse(starter, "starter"))

    # the start ------------------------------------------------------------------------------
    def roll_off(self) -> tuple[int, int]:
        """Each side rolls one die, ties roll again; (White's, Black's) of the deciding roll.
        Only while `needs_roll_off` (`IllegalMoveError` once the starter is decided)."""
        if self.starter is not None:
            how = "a roll-off" if self.record and self.record[0][0] == "rolloff" else "the rules or the caller"
            raise IllegalMoveError(f"the game has already started: {how} made {self.starter.name.lower()} "
                                   "the starter (needs_roll_off is False)")
        while True:
            white, black = self._dice.die(), self._dice.die()
            self.record.append(("rolloff", white, black))
            if white != black:
                break
        self._begin(Color.WHITE if white > black else Color.BLACK)
        if self.rules.opening == "dice":  # the starter plays the roll-off dice
            self.dice = (white, black) if self.starter is Color.WHITE else (black, white)
        return white, black

    @property
    def needs_roll_off(self) -> bool:
        """Whether `roll_off()` is due: True while no starter is decided, False once one is."""
        return self.starter is None

    def _begin(self, starter: Color) -> None:
        self.starter = starter
        self.position = Position.start(self.rules.variant, starter)
        if not self.record or self.record[-1][0] != "rolloff":
            self.record.append(("starter", int(starter)))

    # turns -----------------------------------------------------------------------------------
    @property
    def turn(self) -> Color:
        """The colour that acts next (the one answering a double, while one is offered)."""
        position = self._started()
        return position.turn.other if self.doubled_by is not None else position.turn

    def roll(self, by: Color | None = None) -> tuple[int, int]:
        """The side on roll rolls its dice."""
        self._playing(by)
        if self.doubled_by is not None:
            raise IllegalMoveError("a double was offered: take or drop it first")
        if self.dice is not None:
            raise IllegalMoveError(f"the dice are already rolled: {self.dice}")
        self.dice = (self._dice.die(), self._dice.die())
        self.record.append(("roll", *self.dice))
        return self.dice

    def legal_moves(self) -> list[Move]:
        """The distinct plays of the rolled dice (one move with no steps when the roll is lost)."""
        self._playing()
        if self.dice is None:
            raise IllegalMoveError("roll the dice first")
        return self._started().legal_moves(self.dice, self.rules, last_roll=self._last_roll)

    def parse_move(self, text: str) -> Move:
        """The legal move of the rolled dice that `text` denotes (read as `nardy.formats.notation` reads);
        `IllegalMoveError` for a readable move the rules forbid says why (the head rule, a blocked
        point, the larger die must be played, a six-block...)."""
        self._playing()
        if self.dice is None:
            raise IllegalMoveError("roll the dice first")
        try:
            return resolve(self._started(), text, self.dice, self.rules, last_roll=self._last_roll)
        except IllegalMoveError:
            high, low = sorted(self.dice, reverse=True)
            raise IllegalMoveError(f"{text!r} is not a legal play of {high}-{low}: {self._why_illegal(text)}") from None

    def _why_illegal(self, text: str) -> str:
        """Why the readable move `text` is not a legal play of the roll: the reason the rules give
        for the first way its paths split into steps of the dice."""
        segments = [(p[i], p[i + 1]) for p, _ in parse_chains(text) for i in range(len(p) - 1)]
        dice = self.dice or (0, 0)
        left = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
        board, last_roll = self._started().view(), self._last_roll
        reasons = [reference.explain_illegal(board, dice, pairs, self.rules, last_roll) for pairs in _splits(segments, left)]
        if None in reasons:  # its steps are a legal play: only a `*` asks for what it does not do
            return "it marks a hit (*) on a point where it hits no blot"
        return (reasons or [reference.explain_illegal(board, dice, segments, self.rules, last_roll)])[0] or "not a legal play"

    def play(self, move: Move | str, by: Color | None = None) -> Position:
        """Play `move` (a `Move`, or its text read as `parse_move` reads it) for the side on roll;
        the new position (other side on roll)."""
        self._playing(by)
        if self.dice is None:
            raise IllegalMoveError("roll the dice first")
        if isinstance(move, str):
            move = self.parse_move(move)
        elif not isinstance(move, Move):
            raise InvalidArgumentError(f"play() takes a Move or its text, got {quoted(move)}")
        if tuple(move.dice) != self.dice and tuple(move.dice) != self.dice[::-1]:
            raise IllegalMoveError(f"the move is for {move.dice}, but the roll is {self.dice}")
        mover = self._started().turn
        after = self._started().apply(Move(self.dice, move.steps), self.rules, last_roll=self._last_roll)
        self.record.append(("move", str(self._started().move(self.dice, move.pairs())), move.pairs()))
        self.position, self.dice = after, None
        self._check_end(mover)
        return after

    def _check_end(self, mover: Color) -> None:
        position = self._started()
        if self._last_roll:
            drawn = position.borne_off(mover) == CHECKERS
            winner = None if drawn else mover.other
            kind, points = ("draw", 0) if winner is None else self._score(winner)
            self.result = Result(winner, kind, points)
        elif position.borne_off(mover) == CHECKERS:
            if self.rules.variant is Variant.LONG and self.rules.last_roll_draw and mover is self.starter:
                self._last_roll = True  # the other side rolls once more
            else:
                kind, points = self._score(mover)
                self.result = Result(mover, kind, points)
        if self.result is not None:
            self.record.append(("result", None if self.result.winner is None else int(self.result.winner),
                                self.result.kind, self.result.points))

    def _score(self, winner: Color) -> tuple[str, int]:
        position = self._started()
        board = position.view() if position.turn is winner else position.pass_turn().view()
        kind, points = reference.result(board, self.rules)  # type: ignore[misc]
        if self.cube_enabled and self.rules.jacoby and self.match_length is None and self.cube_value == 1:
            points = 1  # Jacoby: gammons count only once the cube has been turned
        return kind, points * self.cube_value

    # the doubling cube (short nardy) ----------------------------------------------------------
    match_length: int | None = None  # set by Match; None for money play
    crawford_game: bool = False

    def may_double(self) -> bool:
        """May the side on roll double now (before rolling)?"""
        if not self.cube_enabled or self.crawford_game or self.result is not None:
            return False
        position = self._started()
        return self.dice is None and self.doubled_by is None and self.cube_owner in (None, position.turn)

    def double(self, by: Color | None = None) -> None:
        """The side on roll offers to double the stakes."""
        self._playing(by)
        if not self.may_double():
            raise IllegalMoveError(self._why_no_double())
        self.doubled_by = self._started().turn
        self.record.append(("double", self.cube_value * 2))

    def _why_no_double(self) -> str:
        if not self.cube_enabled:
            return "this game is played without the doubling cube"
        if self.crawford_game:
            return "no doubling in the Crawford game"
        if self.dice is not None:
            return "doubling comes before rolling"
        if self.doubled_by is not None:
            return "a double is already offered"
        return "the cube belongs to the other side"

    def take(self, by: Color | None = None) -> None:
        """The side doubled accepts: the cube value doubles and it owns the cube."""
        doubler = self._answer(by)
        self.cube_value *= 2
        self.cube_owner = doubler.other
        self.doubled_by = None
        self.record.append(("take",))

    def drop(self, by: Color | None = None) -> None:
        """The side doubled passes: it loses the current cube value."""
        winner = self._answer(by)
        self.doubled_by = None
        self.result = Result(winner, "dropped", self.cube_value)
        self.record.append(("drop",))
        self.record.append(("result", int(winner), "dropped", self.cube_value))

    def resign(self, value: int = 1, by: Color | None = None) -> None:
        """`by` (default: the side to act) gives up the game: `value` 1, 2 or 3 (a single game,
        gammon or backgammon; oin, mars or koks) times the cube goes to the other side."""
        self._started()
        if self.result is not None:
            raise GameOverError(f"the game is over: {self.result}")
        if not is_whole(value) or value not in (1, 2, 3):
            raise InvalidArgumentError(f"a resignation gives up 1, 2 or 3 points (times the cube), got {quoted(value)}")
        value = int(value)
        loser = self.turn if by is None else Color.parse(by, "by")
        self.doubled_by = self.dice = None
        self.result = Result(loser.other, "resigned", value * self.cube_value)
        self.record.append(("resign", int(loser), value))
        self.record.append(("result", int(loser.other), "resigned", self.result.points))

    def forfeit(self, points: int, by: Color | None = None) -> None:
        """`by` (default: the side to act) loses the game by forfeit or penalty: `points` go to the
        other side whatever the game could be worth (a server's record of an abandoned match), at
        most `MAX_POINTS`."""
        self._started()
        if self.result is not None:
            raise GameOverError(f"the game is over: {self.result}")
        check_whole(points, "a forfeit's points", 1, MAX_POINTS, kinds=(int, np.integer))
        points = int(points)
        loser = self.turn if by is None else Color.parse(by, "by")
        self.doubled_by = self.dice = None
        self.result = Result(loser.other, "forfeit", points)
        self.record.append(("forfeit", int(loser), points))
        self.record.append(("result", int(loser.other), "forfeit", points))

    def _answer(self, by: Color | None) -> Color:
        """The doubler, whose double `by` (default: the side to act) answers now."""
        self._playing(by)
        if self.doubled_by is None:
            raise IllegalMoveError("no double has been offered")
        return self.doubled_by

    # state -------------------------------------------------------------------------------------
    score: tuple[int, int] = (0, 0)  # (White's, Black's) before this game; set by Match

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def last_roll(self) -> bool:
        """Long nardy with last_roll_draw: the side on roll has its last roll (the other has borne
        off all 15 first), a draw if it bears off its last checker too."""
        return self._last_roll

    def match_state(self) -> MatchState:
        """The state GNU Backgammon's Match ID and XGID carry (short nardy: White is gnubg's player 1)."""
        position = self._started()
        kind = self.result.kind if self.result is not None else None
        return MatchState(
            cube_value=self.cube_value,
            cube_owner=None if self.cube_owner is None else int(self.cube_owner is Color.WHITE),
            on_roll=int(position.turn is Color.WHITE),
            crawford=self.crawford_game,
            game_state={None: 1, "dropped": 4, "resigned": 3, "forfeit": 3}.get(kind, 2),
            turn=int(self.turn is Color.WHITE),
            double_offered=self.doubled_by is not None,
            dice=self.dice,
            match_length=self.match_length or 0,
            score=(self.score[1], self.score[0]),
            jacoby=self.match_length is None and self.cube_enabled and self.rules.jacoby,
        )

    def match_id(self) -> str:
        """GNU Backgammon's Match ID of the game as it stands (short nardy)."""
        if self.rules.variant is not Variant.SHORT:
            raise InvalidArgumentError("the Match ID is a backgammon (short nardy) format")
        return match_id(self.match_state())

    def _started(self) -> Position:
        if self.position is None:
            raise IllegalMoveError("the game has not started: call roll_off()")
        return self.position

    def _playing(self, by: Color | None = None) -> None:
        """Raise unless the game is on and, if `by` is given, it is `by`'s turn to act."""
        self._started()
        if self.result is not None:
            raise GameOverError(f"the game is over: {self.result}")
        if by is not None and Color.parse(by, "by") is not self.turn:
            raise IllegalMoveError(f"it is {self.turn.name.lower()}'s turn, not {Color.parse(by).name.lower()}'s")

    def history(self) -> list[tuple[Color, str, Any]]:
        """What was played, in order: (who, "move", Move) with the dice and hits, (who, "double",
        new cube value), (who, "take" | "drop", None), (who, "resign", 1 | 2 | 3), (who, "forfeit",
        points). The roll-off is
        not part of it: `starter` says who began."""
        if self.starter is None:
            return []
        position = Position.start(self.rules.variant, self.starter)
        dice: tuple[int, int] | None = None
        out: list[tuple[Color, str, Any]] = []
        for event in self.record:
            kind = event[0]
            if kind == "rolloff" and self.rules.opening == "dice":
                white, black = event[1:3]
                dice = (white, black) if self.starter is Color.WHITE else (black, white)
            elif kind == "roll":
                dice = event[1:3]
            elif kind == "move":
                assert dice is not None
                move = position.move(dice, event[2])
                out.append((position.turn, "move", move))
                last_roll = position.borne_off(position.turn.other) == CHECKERS
                position, dice = position.apply(move, self.rules, last_roll=last_roll), None
            elif kind == "double":
                out.append((position.turn, "double", event[1]))
            elif kind in ("take", "drop"):
                out.append((position.turn.other, kind, None))
            elif kind == "resign":
                out.append((Color(event[1]), "resign", event[2]))
            elif kind == "forfeit":
                out.append((Color(event[1]), "forfeit", event[2]))
        return out

    # display -----------------------------------------------------------------------------------
    def __repr__(self) -> str:
        facts = [f"{self.rules.describe()}"]
        if self.position is None:
            facts.append("not started")
        elif self.result is not None:
            who = "drawn" if self.result.winner is None else f"{self.result.winner.name.capitalize()} wins"
            facts.append(f"over: {who} {self.result.points} point{'s' if self.result.points != 1 else ''} ({self.result.kind})")
        else:
            facts.append(f"{self.turn.name.capitalize()} to act" if self.doubled_by is not None
                         else f"{self.position.turn.name.capitalize()} on roll")
            if self.dice is not None:
                facts.append(f"rolled {self.dice[0]}-{self.dice[1]}")
            if self.doubled_by is not None:
                facts.append(f"{self.doubled_by.name.capitalize()} doubles to {2 * self.cube_value}")
        if self.cube_enabled:
            owner = "centred" if self.cube_owner is None else f"owned by {self.cube_owner.name.capitalize()}"
            facts.append(f"cube {self.cube_value} {owner}")
        if self.match_length:
            facts.append(f"score {self.score[0]}-{self.score[1]} of {self.match_length}")
        return f"<Game {', '.join(facts)}>"

    def _repr_svg_(self) -> str | None:
        """The board with the dice, the cube and the score, for Jupyter (nothing before the start)."""
        if self.position is None:
            return None
        return str(svg_board(self))

    # replay --------------------------------------------------------------------------------------
    @classmethod
    def replay(cls, rules: Rules | Variant | str, record: Sequence[Event], **kwargs: Any) -> Game:
        """Play a record again, checking every move; the game as it stands at the end.

        Every entry must be one the game records at that point (a tie's roll-offs and a
        "result" are recorded with the action before them); `InvalidArgumentError` names the
        first entry that is not, and the errors of an action it records name the entry too."""
        if isinstance(record, (str, bytes)) or not isinstance(record, Sequence):
            raise InvalidArgumentError(f"record must be a sequence of a game's events, got {quoted(record)}")
        for i, event in enumerate(record):
            if (not isinstance(event, (tuple, list)) or not event or not isinstance(event[0], str)
                    or _EVENT_LENGTHS.get(event[0]) != len(event)):
                raise InvalidArgumentError(f"record entry {i} is not an event of a game: {quoted(event)}")
        dice = [d for event in record if event[0] in ("rolloff", "roll") for d in event[1:3]]
        game = cls(rules, dice=dice, **kwargs)
        for i, event in enumerate(record):
            try:
                if i == len(game.record):  # else an earlier action recorded it: it is only compared
                    game._replay_event(event)
                if i >= len(game.record):
                    raise InvalidArgumentError(f"the game records no {event[0]!r} here")
                done = game.record[i]
                if (done[:2] != tuple(event[:2])) if event[0] == "move" else (done != tuple(event)):
                    raise InvalidArgumentError(f"the game records {quoted(done)} here")
            except NardyError as exc:
                raise type(exc)(f"record entry {i} {quoted(event)}: {exc}") from None
        return game

    def _replay_event(self, event: Event) -> None:
        """Do the action a record's entry records (a "result" records none)."""
        kind = event[0]
        if kind == "rolloff":
            self.roll_off()
        elif kind == "starter":
            if self.starter is not None:
                raise IllegalMoveError("the game has already started")
            self._begin(Color.parse(event[1], "starter"))
        elif kind == "roll":
            self.roll()
        elif kind == "move":
            self.play(Move(self.dice or (0, 0), event[2]))
        elif kind in ("double", "take", "drop"):
            getattr(self, kind)()
        elif kind == "resign":
            self.resign(event[2], Color.parse(event[1], "by"))
        elif kind == "forfeit":
            self.forfeit(event[2], Color.parse(event[1], "by"))


def _splits(segments: Sequence[tuple[int, int]], dice: list[int]) -> Iterable[list[tuple[int, int]]]:
    """The ways to play `segments` ((from, to), 0 off) as steps of one die each, from `dice`."""
    if not segments:
        yield []
        return
    (src, dst), rest = segments[0], segments[1:]
    for die in sorted(set(dice), reverse=True):
        left = list(dice)
        left.remove(die)
        to = src - die
        if to == dst or (dst == 0 and to < 0):
            for more in _splits(rest, left):
                yield [(src, dst), *more]
        elif to > max(dst, 0):
            for more in _splits([(to, dst), *rest], left):
                yield [(src, to), *more]


# the entries of a game's record: kind -> length
_EVENT_LENGTHS = {"rolloff": 3, "starter": 2, "roll": 3, "move": 3, "double": 2, "take": 1, "drop": 1,
                  "resign": 3, "forfeit": 3, "result": 4}


class Match:
    """A match to `length` points: games in a row, the Crawford rule, who starts each game.

    `length` 0 is a money session: games in a row with a running score, played for money
    (no Crawford rule; Jacoby if the rules ask for it), never won. A match is at most 32,767
    points, the most GNU Backgammon's Match ID (15 bits) and so every format nardy writes carry.
    """

    def __init__(self, rules: Rules | Variant | str, length: int, *, seed: int | None = None) -> None:
        if isinstance(length, bool) or not isinstance(length, int) or not 0 <= length <= MAX_LENGTH:
            raise InvalidArgumentError(f"a match is played to a whole number of points (0 for money), at most "
                                       f"{MAX_LENGTH} (the Match ID's 15-bit field), got {quoted(length)}")
        self.rules = Rules.of(rules)
        _check_seed(seed)
        self.length = length
        self.score = {Color.WHITE: 0, Color.BLACK: 0}
        self.games: list[Game] = []
        self._seeds = np.random.SeedSequence(seed)
        self._crawford_done = False
        self._counted = 0  # how many of `games` finish_game() has added to the score

    @property
    def winner(self) -> Color | None:
        for color, points in self.score.items():
            if self.length and points >= self.length:
                return color
        return None

    def forced_starter(self) -> Color | None:
        """Who must start the next game by `next_starter` (None: a roll-off decides)."""
        last = self.games[-1] if self.games else None
        if last is not None and self.rules.next_starter == "winner" and last.result.winner is not None:  # type: ignore[union-attr]
            return last.result.winner  # type: ignore[union-attr]
        if last is not None and self.rules.next_starter == "black":
            return Color.BLACK
        return None

    def new_game(self, *, starter: Color | None = None, dice: Iterable[int] | None = None) -> Game:
        """The next game: its starter by `next_starter` (long: the last winner by default).

        `starter` names who starts a game that the rules leave to a roll-off (for a record whose
        roll-off is not known); `dice` gives the game's dice instead of the seeded ones. The game
        before must be over and counted by `finish_game` (`IllegalMoveError` otherwise).
        """
        if self.winner is not None:
            white, black = self.score[Color.WHITE], self.score[Color.BLACK]
            raise GameOverError(f"the match is over: {self.winner.name.lower()} won, {white}-{black} "
                                f"(White-Black) in a {self.length}-point match")
        if self.games and not self.games[-1].over:
            raise IllegalMoveError("finish the current game first")
        if self._counted < len(self.games):
            raise IllegalMoveError(f"game {len(self.games)} is over but not counted: call finish_game() first")
        seed = int(self._seeds.spawn(1)[0].generate_state(1)[0])
        forced = self.forced_starter()
        if starter is not None:
            starter = Color.parse(starter, "starter")
        if starter is not None and forced is not None and starter is not forced:
            raise IllegalMoveError(
                f"{forced.name.lower()} starts game {len(self.games) + 1} "
                f"(next_starter={self.rules.next_starter!r}), not {starter.name.lower()}"
            )
        game = Game(self.rules, seed=seed, dice=dice, starter=forced if starter is None else starter)
        game.match_length = self.length or None
        game.score = (self.score[Color.WHITE], self.score[Color.BLACK])
        # as gnubg decides it: one side at match point and the other not (so never in a 1-point match)
        leader, trailer = max(self.score.values()), min(self.score.values())
        at_match_point = self.length > 0 and leader == self.length - 1 and trailer < self.length - 1
        if self.rules.variant is Variant.SHORT and self.rules.crawford and at_match_point and not self._crawford_done:
            game.crawford_game = True
            self._crawford_done = True
        self.games.append(game)
        return game

    def finish_game(self) -> None:
        """Add the finished current game's points to the score, once: `new_game` asks for it."""
        if not self.games:
            raise IllegalMoveError("the match has no game yet: new_game() begins one")
        game = self.games[-1]
        if not game.over:
            raise IllegalMoveError(f"game {len(self.games)} is not over")
        if self._counted == len(self.games):
            raise IllegalMoveError(f"game {len(self.games)} is already counted in the score")
        self._counted = len(self.games)
        result = game.result  # (set: the game is over)
        if result is not None and result.winner is not None:
            self.score[result.winner] += result.points

    def __repr__(self) -> str:
        length = f"to {self.length} point{'s' if self.length != 1 else ''}" if self.length else "for money"
        score = f"White {self.score[Color.WHITE]}, Black {self.score[Color.BLACK]}"
        state = (f"{self.winner.name.capitalize()} has won" if self.winner is not None
                 else f"game {len(self.games)} in play" if self.games and not self.games[-1].over
                 else f"game {len(self.games)} over, not counted" if self._counted < len(self.games)
                 else f"{len(self.games)} game{'s' if len(self.games) != 1 else ''} played")
        return f"<Match {self.rules.describe()}, {length}: {score}; {state}>"

    def _repr_svg_(self) -> str | None:
        """The board of the current (or last) game, for Jupyter."""
        return self.games[-1]._repr_svg_() if self.games else None


__all__ = ["Event", "Game", "MAX_POINTS", "Match", "Result"]
