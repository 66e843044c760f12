"""The position: an immutable value for either variant, built on the mover's-view array.

The mover's-view array (docs/rules.md section 1) is the public interchange form and the layout the
compiled core works on: 26 int8 in a row, index 1..24 the mover's points (positive = the
mover's checkers, negative = the opponent's), 25 the mover's bar, 0 the opponent's bar as a
negative count; borne-off counts are 15 minus what is on the board. A `Position` stores it
as 26 bytes together with the variant and the colour on roll, which fixes the absolute
(White's) numbering used for display.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from typing import Any

from . import _backend as engine, reference
from .errors import check_flag, is_whole, IllegalMoveError, InvalidArgumentError, InvalidNotationError, InvalidPositionError, quoted
from .formats import ids
from .formats.diagram import diagram
from .formats.notation import resolve
from .formats.svg import board as svg_board
from .move import Move, _steps_of
from .rules import CHECKERS, Color, Rules, Variant, own_point, rules_for
from .status import Status, describe

_START = {
    Variant.LONG: {24: 15},
    Variant.SHORT: {24: 2, 13: 5, 8: 3, 6: 5},
}


class Position:
    """A position of long or short nardy, with the side on roll.

    >>> p = Position.start("short")
    >>> p.pip_count(Color.WHITE), p.pip_count(Color.BLACK)
    (167, 167)

    `variant` defaults to that of `rules`, else long nardy. Raises `InvalidPositionError` for a
    malformed array, and (unless ``validate=False``) for any problem of docs/rules.md section 8;
    `status()` lists the problems without raising.
    """

    __slots__ = ("_board", "variant", "turn")

    _board: bytes
    variant: Variant
    turn: Color

    def __init__(
        self,
        view: Sequence[int] | bytes | Any,
        variant: Variant | str | None = None,
        turn: Color | str | int = Color.WHITE,
        *,
        rules: Rules | None = None,
        validate: bool = True,
    ) -> None:
        variant = _variant_of(variant, rules)
        object.__setattr__(self, "variant", variant)
        object.__setattr__(self, "turn", Color.parse(turn, "turn"))
        object.__setattr__(self, "_board", _checked_bytes(view))
        if validate:
            self.validate(rules)

    # construction ---------------------------------------------------------------------------
    @classmethod
    def start(cls, variant: Variant | str = Variant.LONG, turn: Color | str = Color.WHITE) -> Position:
        """The starting position (docs/rules.md section 2)."""
        variant = Variant.parse(variant)
        mine = _START[variant]
        return cls.from_points(variant, white=mine, black=mine, own_numbers=True, turn=turn)

    @classmethod
    def from_points(
        cls,
        variant: Variant | str,
        white: Mapping[int, int],
        black: Mapping[int, int],
        *,
        white_bar: int = 0,
        black_bar: int = 0,
        turn: Color | str = Color.WHITE,
        own_numbers: bool = False,
        rules: Rules | None = None,
        validate: bool = True,
    ) -> Position:
        """Build a position from each colour's checkers by point: {point: count}.

        Points are absolute (White's numbers) unless ``own_numbers`` gives each colour's own.
        """
        variant = Variant.parse(variant)
        turn = Color.parse(turn, "turn")
        absolute = [[0] * 25, [0] * 25]
        for color, checkers in ((Color.WHITE, white), (Color.BLACK, black)):
            if not isinstance(checkers, Mapping):
                raise InvalidPositionError(f"{color.name.lower()} must be a mapping {{point: count}}, got {quoted(checkers)}")
            for point, count in checkers.items():
                if not _is_int(point) or not 1 <= point <= 24:
                    raise InvalidPositionError(f"{color.name.lower()} has checkers on point {quoted(point)}: points are 1..24")
                if not _is_int(count) or not 0 <= count <= CHECKERS:
                    raise InvalidPositionError(f"{color.name.lower()} has {quoted(count)} checkers on point {point}: counts are whole numbers 0..15")
                point, count = int(point), int(count)
                where = own_point(point, color, variant) if own_numbers else point
                absolute[color][where] += count
        for point in range(1, 25):
            if absolute[0][point] and absolute[1][point]:
                raise InvalidPositionError(
                    f"both colours on point {point}: white {absolute[0][point]}, black {absolute[1][point]}"
                )
        for name, count in (("white_bar", white_bar), ("black_bar", black_bar)):
            if not _is_int(count) or not 0 <= count <= CHECKERS:
                raise InvalidPositionError(f"{name}={quoted(count)}: a bar holds a whole number 0..15 of checkers")
        view = [0] * 26
        for point in range(1, 25):
            signed = absolute[0][point] - absolute[1][point]  # White positive
            mine = own_point(point, turn, variant)
            view[mine] = signed if turn is Color.WHITE else -signed
        bars = (white_bar, black_bar)
        view[25], view[0] = int(bars[turn]), -int(bars[turn.other])
        return cls(view, variant, turn, rules=rules, validate=validate)

    # the interchange form -------------------------------------------------------------------
    def view(self) -> tuple[int, ...]:
        """The mover's-view array: 26 ints."""
        return engine.as_ints(self._board)

    def to_bytes(self) -> bytes:
        """The mover's-view array as 26 int8 bytes (the packed form of the compiled core)."""
        return self._board

    def array(self) -> Any:
        """The mover's-view array as a numpy int8 array of shape (26,)."""
        import numpy as np

        return np.frombuffer(self._board, np.int8).copy()

    # facts ------------------------------------------------------------------------------------
    def checkers(self, color: Color) -> dict[int, int]:
        """{absolute point: count} of `color`'s checkers on the 24 points."""
        sign = 1 if Color.parse(color) is self.turn else -1
        found = {}
        for mine, n in enumerate(self.view()[1:25], start=1):
            if n * sign > 0:
                found[own_point(mine, self.turn, self.variant)] = n * sign
        return dict(sorted(found.items()))

    def bar(self, color: Color) -> int:
        """`color`'s checkers on the bar (short nardy)."""
        v = self.view()
        return v[25] if Color.parse(color) is self.turn else -v[0]

    def borne_off(self, color: Color) -> int:
        """`color`'s checkers borne off."""
        return CHECKERS - sum(self.checkers(color).values()) - self.bar(color)

    def pip_count(self, color: Color, *, backend: str | None = None) -> int:
        """`color`'s pip count in its own numbers (bar 25, off 0)."""
        mine, theirs = engine.pips(self._board, self.variant, backend)
        return mine if Color.parse(color) is self.turn else theirs

    def is_first_turn(self) -> bool:
        """Long nardy: the mover still has all 15 checkers on its head."""
        return self.variant is Variant.LONG and self.view()[24] == CHECKERS

    def winner(self) -> Color | None:
        """The colour that has borne off all 15, if the game is over."""
        for color in Color:
            if self.borne_off(color) == CHECKERS:
                return color
        return None

    def is_game_over(self) -> bool:
        return self.winner() is not None

    def result(self, rules: Rules | None = None) -> tuple[Color, str, int] | None:
        """(winner, kind, points before the cube) once the game is over: oin/mars/koks, single/gammon/backgammon."""
        rules = self._rules(rules)
        winner = self.winner()
        if winner is None:
            return None
        board = self.view() if winner is self.turn else reference.flip(self.view(), self.variant)
        kind, points = reference.result(board, rules)  # type: ignore[misc]
        return winner, kind, points

    # validation -------------------------------------------------------------------------------
    def status(self, rules: Rules | None = None, *, backend: str | None = None) -> Status:
        """Every problem of docs/rules.md section 8 as flags; `Status.VALID` when there are none."""
        return engine.status(self._board, self._rules(rules), backend)

    def is_valid(self, rules: Rules | None = None) -> bool:
        return self.status(rules) == Status.VALID

    def validate(self, rules: Rules | None = None) -> None:
        """Raise `InvalidPositionError` naming every problem, if there is any."""
        found = self.status(rules)
        if found:
            raise InvalidPositionError(f"invalid position {self!r}: {'; '.join(describe(found))}")

    def has_illegal_block(self, color: Color, rules: Rules | None = None) -> bool:
        """Does `color` hold a six-block that the rules forbid?"""
        return reference.illegal_block(self.view(), self._rules(rules), 1 if Color.parse(color) is self.turn else -1)

    # play -------------------------------------------------------------------------------------
    def legal_moves(
        self, dice: Sequence[int], rules: Rules | None = None, *, backend: str | None = None, last_roll: bool = False
    ) -> list[Move]:
        """One move per distinct resulting position, sorted by that position's array.

        `last_roll`: long nardy with last_roll_draw, the opponent has just borne off all 15 and
        this is the final roll. Raises `InvalidDiceError`, `InvalidPositionError` or `GameOverError`.
        """
        return self._plays(dice, rules, backend, last_roll)[0]

    def children(self, dice: Sequence[int], rules: Rules | None = None, *, backend: str | None = None) -> list[Position]:
        """The distinct positions the roll leads to, with the other side on roll (same order as `legal_moves`)."""
        children = self._plays(dice, rules, backend)[1]
        return _positions(children, self.variant, self.turn.other)

    def all_sequences(self, dice: Sequence[int], rules: Rules | None = None, *, backend: str | None = None) -> dict[Position, list[Move]]:
        """Every legal step sequence of the roll, grouped by the position it leads to."""
        grouped = engine.sequences(self._board, dice, self._rules(rules), backend)
        roll, view, played = (int(dice[0]), int(dice[1])), self.view(), Move._played
        return {self._after(child): [played(roll, view, seq) for seq in seqs] for child, seqs in grouped.items()}

    def apply(
        self, move: Move | str, rules: Rules | None = None, *, backend: str | None = None, last_roll: bool = False,
        dice: Sequence[int] | None = None,
    ) -> Position:
        """The position after `move`, with the other side on roll.

        `move` is a `Move` or its text (``"24/18 13/8"``), read as `parse_move` reads it with
        `dice`, or without them with the one roll the text can be a legal play of.
        Raises `IllegalMoveError` naming why the move is not legal (e.g. "second checker from
        the head", "the larger die must be played"), `InvalidNotationError` for text that
        cannot be read or fits several rolls, or the errors of `legal_moves`.
        """
        rules = self._rules(rules)
        if last_roll is not False:
            last_roll = check_flag(last_roll, "last_roll")
        if type(move) is Move and move._child is not None and dice is None and self._trusts(move, rules, last_roll):
            engine.backend_of(backend)  # (an unknown backend is still refused)
            return self._after(move._child)
        if isinstance(move, str):
            move = self._read_move(move, dice, rules, backend, last_roll)
        elif not isinstance(move, Move):
            raise InvalidArgumentError(f"apply() takes a Move or its text, got {quoted(move)}")
        elif dice is not None:
            raise InvalidArgumentError("dice= is for a move given as text; a Move carries its dice")
        pairs = move.pairs()
        for child, seqs in engine.sequences(self._board, move.dice, rules, backend, last_roll).items():
            if pairs in seqs:
                return self._after(child)
        why = reference.explain_illegal(self.view(), move.dice, pairs, rules, last_roll) or "not a legal play of this roll"
        raise IllegalMoveError(f"illegal move {str(move)!r} with {move.dice[0]}-{move.dice[1]}: {why} (in {self!r})")

    def _read_move(self, text: str, dice: Sequence[int] | None, rules: Rules, backend: str | None, last_roll: bool) -> Move:
        """The legal move `text` denotes, with `dice`, or with the only roll whose legal plays it names."""
        if dice is not None:
            return resolve(self, text, dice, rules, backend, last_roll)
        fits: dict[tuple[int, int], Move] = {}
        for d1 in range(6, 0, -1):
            for d2 in range(d1, 0, -1):
                try:
                    fits[(d1, d2)] = resolve(self, text, (d1, d2), rules, backend, last_roll)
                except IllegalMoveError:
                    continue
        if len(fits) == 1:
            return next(iter(fits.values()))
        if not fits:
            raise IllegalMoveError(f"{text!r} is not a legal play of any roll in {self!r}")
        rolls = ", ".join(f"{a}-{b}" for a, b in fits)
        raise InvalidNotationError(f"{text!r} is a legal play of several rolls ({rolls}): give dice=")

    def parse_move(self, text: str, dice: Sequence[int], rules: Rules | None = None, *, backend: str | None = None) -> Move:
        """The legal move of `dice` that `text` denotes, read leniently (see `nardy.formats.notation`).

        Raises `InvalidNotationError` (unreadable or ambiguous) or `IllegalMoveError`.
        """
        return resolve(self, text, dice, rules, backend)

    def id(self) -> str:
        """Short nardy: GNU Backgammon's Position ID; long nardy: the nardy ID (NL1W:... / NL1B:...)."""
        return ids.position_id(self)

    @classmethod
    def from_id(cls, text: str, turn: Color | str | None = None, *, rules: Rules | None = None) -> Position:
        """The position of a Position ID: a gnubg ID is short nardy, with `turn` on roll (default
        White); a nardy long ID names the side on roll itself.

        Raises `InvalidNotationError` (also for a `turn` that contradicts the ID, or `rules` of the
        other variant), `InvalidArgumentError` for an unknown `turn`, or `InvalidPositionError` for
        an impossible position.
        """
        return position_from_id(text, turn, rules=rules)

    def pass_turn(self) -> Position:
        """The same board with the other side on roll."""
        return self._after(self._board)

    # helpers ----------------------------------------------------------------------------------
    def _plays(self, dice: Sequence[int], rules: Rules | None, backend: str | None,
               last_roll: bool = False) -> tuple[list[Move], list[bytes]]:
        """`legal_moves` and the result of each (mover's view, before the turn passes), from one
        call of the generator; the moves are the engine's, not checked again."""
        rules = self._rules(rules)
        if last_roll is not False:
            last_roll = check_flag(last_roll, "last_roll")
        dice, children, raws = engine.ordered(self._board, dice, rules, backend, last_roll)
        source = (self._board, engine.core_rules(rules), bool(last_roll))
        made = Move._made
        return [made(dice, raw, child, source) for raw, child in zip(raws, children)], children

    def _trusts(self, move: Move, rules: Rules, last_roll: bool) -> bool:
        """Was `move` made by `legal_moves` of this board under these rules and `last_roll`? Then
        it is legal and the result it remembers is the one `apply` would find."""
        if move._source is None:
            return False
        board, codes, last = move._source
        return board == self._board and last == bool(last_roll) and codes == engine.core_rules(rules)

    def _rules(self, rules: Rules | None) -> Rules:
        if rules is None:
            return _DEFAULT_RULES[self.variant]
        return rules_for(self.variant, rules)

    def _after(self, child: bytes) -> Position:
        """The position of a checked mover's-view `child`, the turn passed (not checked again)."""
        return _positions([child], self.variant, self.turn.other)[0]

    def move(self, dice: Sequence[int], pairs: Sequence[tuple[int, int]]) -> Move:
        """The move of these (from, to) steps from here, with its hits marked (not checked for legality)."""
        return Move((dice[0], dice[1]), _steps_of(self.view(), pairs))

    # value semantics ---------------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Position)
            and self._board == other._board
            and self.variant is other.variant
            and self.turn is other.turn
        )

    def __hash__(self) -> int:
        return hash((self._board, self.variant, self.turn))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Position is immutable")

    def __repr__(self) -> str:
        return f"Position({list(self.view())!r}, {self.variant.value!r}, {self.turn.name.lower()!r})"

    def __str__(self) -> str:
        return diagram(self)

    def _repr_svg_(self) -> str:
        """The board as SVG, so that positions draw themselves in Jupyter."""
        return svg_board(self)

    def __reduce__(self) -> tuple[Any, ...]:
        # not re-validated: a position may be valid only under rules other than the default
        return (_unpickled, (self._board, self.variant.value, self.turn.name.lower()))


_DEFAULT_RULES = {variant: Rules(variant) for variant in Variant}
_NEGATED = bytes(-n & 0xFF for n in range(256))  # bytes.translate's table: each int8 negated
_new = object.__new__
_set_board, _set_variant, _set_turn = (getattr(Position, name).__set__ for name in Position.__slots__)


def _positions(children: list[bytes], variant: Variant, turn: Color) -> list[Position]:
    """The positions of checked mover's-view boards after a move, seen by `turn` (not checked again)."""
    made = []
    short = variant is Variant.SHORT
    for child in children:
        flipped = child.translate(_NEGATED)
        position = _new(Position)
        _set_board(position, flipped[::-1] if short else flipped[25:] + flipped[13:25] + flipped[1:13] + flipped[:1])
        _set_variant(position, variant)
        _set_turn(position, turn)
        made.append(position)
    return made


def _unpickled(board: bytes, variant: str, turn: str) -> Position:
    """A pickled position as it was (its array was checked when it was made)."""
    return Position(board, variant, turn, validate=False)


def _variant_of(variant: Variant | str | None, rules: Rules | None) -> Variant:
    """`variant`, or that of `rules`; `InvalidArgumentError` when both are given and differ."""
    if rules is None:
        return Variant.LONG if variant is None else Variant.parse(variant)
    rules = Rules.of(rules)
    if variant is not None and Variant.parse(variant) is not rules.variant:
        raise InvalidArgumentError(f"a {Variant.parse(variant).value} nardy position with the rules of "
                                   f"{rules.variant.value} nardy {rules!r}")
    return rules.variant


def _is_int(value: Any) -> bool:
    """A whole number and not a bool: the one rule for every count and point of a position."""
    return is_whole(value)


def _checked_bytes(view: Sequence[int] | bytes | Any) -> bytes:
    """26 entries in -15..15 as int8 bytes, or `InvalidPositionError` quoting the input."""
    if isinstance(view, bytes):
        values = list(engine.as_ints(view)) if len(view) == 26 else None
    else:
        try:
            values = list(itertools.islice(view, 27))  # no more than needed: an iterator may be endless
        except TypeError:
            raise InvalidPositionError(f"a position is 26 integers, got {quoted(view)}") from None
    if values is None or len(values) != 26:
        count = len(view) if values is None else "more than 26" if len(values) > 26 else len(values)
        raise InvalidPositionError(f"a position is 26 integers, got {count}: {quoted(view)}")
    ints = []
    for i, v in enumerate(values):
        if not _is_int(v):
            raise InvalidPositionError(f"entry {i} of the position is {quoted(v)}, not an integer")
        v = int(v)
        if not -CHECKERS <= v <= CHECKERS:
            raise InvalidPositionError(f"entry {i} of the position is {quoted(v)}: a point holds at most 15 checkers")
        ints.append(v)
    return engine.as_bytes(ints)


# positions read from text (the codecs: nardy.formats.ids) ---------------------------------------

def position_from_id(text: str, turn: Color | str | None = None, *, rules: Rules | None = None) -> Position:
    """The position a Position ID denotes: a gnubg ID is short nardy, with `turn` on roll (default
    White); a nardy long ID names the side on roll, and a `turn` that contradicts it is an error,
    as are `rules` of the other variant."""
    view, variant, color = ids.decode_position_id(text, turn, rules=rules)
    return Position(view, variant, color, rules=rules)


def parse_xgid(text: str, rules: Rules | None = None) -> tuple[Position, ids.MatchState]:
    """The position and state of an XGID (gnubg's reading: the string is never flipped).

    With a double offered (``D``) the turn field is the side that must take or drop; the doubler
    is on roll. Raises `InvalidNotationError` naming the field that is wrong."""
    board, state = ids.decode_xgid(text, rules)
    position = Position.from_points("short", board.white, board.black, white_bar=board.white_bar,
                                    black_bar=board.black_bar, turn=board.turn, rules=rules)
    return position, state


def read_position(text: str, rules: Rules, turn: Color | str | None = None) -> Position:
    """A position written in any of the forms nardy reads, for the variant of `rules`.

    The mover's-view array (26 comma-separated integers, `turn` on roll, default White); a nardy
    long ID (``NL1W:...``); a GNU Backgammon Position ID (`turn` on roll), optionally followed by
    ``:`` and a Match ID that says who is on roll; an XGID. A `turn` that contradicts the side on
    roll the text names is an error, as is a position of the other variant.
    """
    text = ids.as_text(text, "a position").strip()
    rules = Rules.of(rules)
    variant = rules.variant
    if re.fullmatch(r"[-a-oA-O]{26}(:[^:]*)+", text):
        text = "XGID=" + text  # an XGID written without its prefix
    if "," in text:
        parts = text.replace(" ", "").split(",")
        # ASCII digits, few of them: int() takes "١" and refuses more than 4,300 digits
        if len(parts) != 26 or not all(re.fullmatch(r"[-+]?[0-9]{1,3}", part) for part in parts):
            raise InvalidNotationError(f"a position array is 26 comma-separated integers in -15..15, got {quoted(text)}")
        return Position([int(part) for part in parts], variant, Color.WHITE if turn is None else turn, rules=rules)
    if text.startswith(ids.LONG_ID_PREFIX) or text.startswith("XGID=") or re.fullmatch(r"[A-Za-z0-9+/]{14}(:.*)?", text):
        if text.startswith(ids.LONG_ID_PREFIX):
            return position_from_id(text, turn, rules=rules)
        if text.startswith("XGID="):
            position = parse_xgid(text, rules)[0]
            ids.on_roll(position.turn, turn, text)
            return position
        position_text, colon, match_text = text.partition(":")
        ids.of_variant(Variant.SHORT, rules, text)
        if colon and not match_text:
            raise InvalidNotationError(f"{quoted(text)} ends in ':' without its match ID (ID:MATCHID)")
        if match_text:
            turn = ids.on_roll(Color.WHITE if ids.parse_match_id(match_text).on_roll == 1 else Color.BLACK, turn, text)
        return position_from_id(position_text, turn, rules=rules)
    raise InvalidNotationError(
        f"cannot read the position {quoted(text)}: give 26 comma-separated integers, a position ID "
        f"(gnubg's 14 characters, or {ids.LONG_ID_PREFIX}W:... for long nardy) or an XGID"
    )


__all__ = ["Position", "own_point", "parse_xgid", "position_from_id", "read_position"]
