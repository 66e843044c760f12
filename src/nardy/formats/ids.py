"""Position IDs, Match IDs and XGIDs (docs/formats.md sections 2 to 5), as codecs of boards and
match states: they read a position through its public methods and never build one (`Position.id`,
`Position.from_id` and `nardy.position.read_position` call down into them).

Positions: GNU Backgammon's Position ID for short nardy (bit-exact: the side *not* on roll is
encoded first, as gnubg does, whatever its manual says), and the nardy position ID for long
nardy, which adds the variant, a version and the colour on roll (see `position_id`).
"""

from __future__ import annotations

import base64
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, NamedTuple, TypeGuard

from ..errors import InvalidArgumentError, InvalidNotationError, is_whole, quoted
from ..rules import Color, Rules, Variant, own_point

if TYPE_CHECKING:
    from ..position import Position


def is_position(value: Any) -> TypeGuard[Position]:
    """Whether `value` is a position (what `Position` is: a board in the mover's view, a variant and
    a side on roll), told by its shape, for the codecs and renderers below `nardy.position`."""
    return callable(getattr(value, "view", None)) and callable(getattr(value, "to_bytes", None)) and \
        isinstance(getattr(value, "variant", None), Variant) and isinstance(getattr(value, "turn", None), Color)


def as_text(value: object, what: str) -> str:
    """`value` if it is text; else `InvalidNotationError` naming what was expected."""
    if not isinstance(value, str):
        raise InvalidNotationError(f"{what} must be a str, got {quoted(value)}")
    return value


class XgidBoard(NamedTuple):
    """An XGID's board: each side's checkers by its own point number, on the bar, and the side on roll."""

    white: dict[int, int]
    black: dict[int, int]
    white_bar: int
    black_bar: int
    turn: Color

LONG_ID_PREFIX = "NL1"


def encode_key(sides: Sequence[Sequence[int]]) -> str:
    """The 14 characters of a Position ID: gnubg's 80-bit key (per side, 25 slots in its own
    numbers: one 1 per checker, then a 0), bits LSB first in 10 bytes, as base64 without padding: 14 characters."""
    bits: list[int] = []
    for slots in sides:
        for count in slots:
            bits += [1] * count + [0]
    bits += [0] * (80 - len(bits))
    key = bytes(sum(bits[8 * i + j] << j for j in range(8)) for i in range(10))
    return base64.b64encode(key).decode("ascii").rstrip("=")


def decode_key(text: str) -> list[list[int]]:
    """The two sides' 25 slots each that the 14 characters of a Position ID encode."""
    if not re.fullmatch(r"[A-Za-z0-9+/]{14}", text):
        raise InvalidNotationError(f"a position ID is 14 base64 characters, got {quoted(text)}")
    key = base64.b64decode(text + "==")
    bits = [(key[i] >> j) & 1 for i in range(10) for j in range(8)]
    sides: list[list[int]] = []
    slots: list[int] = []
    count = 0
    for bit in bits:
        if len(sides) == 2:
            if bit:
                raise InvalidNotationError(f"position ID {text!r} has checkers beyond both sides")
            continue
        if bit:
            count += 1
            continue
        slots.append(count)
        count = 0
        if len(slots) == 25:
            sides.append(slots)
            slots = []
    if len(sides) < 2:
        raise InvalidNotationError(f"position ID {text!r} ends before both sides are complete")
    return sides


def own_slots(view: Sequence[int], variant: Variant) -> tuple[list[int], list[int]]:
    """(opponent's, mover's) 25 slots each, in each side's own numbers; slot 25 is the bar."""
    mine = [max(view[p], 0) for p in range(1, 25)] + [view[25]]
    theirs = [0] * 25
    for p in range(1, 25):
        if view[p] < 0:
            # the opponent's own number of the mover's point p
            q = 25 - p if variant is Variant.SHORT else own_point(p, Color.BLACK, Variant.LONG)
            theirs[q - 1] = -view[p]
    theirs[24] = -view[0]
    return theirs, mine


def position_id(position: Position) -> str:
    """Short nardy: GNU Backgammon's Position ID. Long nardy: "NL1" + W/B (on roll) + ":" + the
    same 80-bit encoding in each side's own long-nardy numbers (bar slots empty)."""
    if not is_position(position):
        raise InvalidArgumentError(f"position_id() takes a Position, got {quoted(position)}")
    theirs, mine = own_slots(position.view(), position.variant)
    key = encode_key([theirs, mine])
    if position.variant is Variant.SHORT:
        return key
    return f"{LONG_ID_PREFIX}{'W' if position.turn is Color.WHITE else 'B'}:{key}"


def on_roll(named: Color, turn: Color | str | None, text: str) -> Color:
    """`named`, the side on roll `text` names, unless an explicit `turn` contradicts it."""
    if turn is not None and Color.parse(turn, "turn") is not named:
        raise InvalidNotationError(f"turn {Color.parse(turn).name.lower()} contradicts {quoted(text)}, which has "
                                   f"{named.name.lower()} on roll")
    return named


def of_variant(variant: Variant, rules: Rules | None, text: str) -> None:
    """`InvalidNotationError` if `rules` are given for the other variant than the one `text` denotes."""
    if rules is not None and Rules.of(rules).variant is not variant:
        raise InvalidNotationError(f"{quoted(text)} is a {variant.value} nardy position, not {Rules.of(rules).variant.value}")


def decode_position_id(text: str, turn: Color | str | None = None, *, rules: Rules | None = None
                       ) -> tuple[list[int], Variant, Color]:
    """The board (the mover's view), variant and side on roll a Position ID denotes
    (`Position.from_id` makes the position): a gnubg ID is short nardy, with `turn` on roll (default
    White); a nardy long ID names the side on roll, and a `turn` that contradicts it is an error,
    as are `rules` of the other variant."""
    text = as_text(text, "a position ID").strip()
    whole = text
    variant = Variant.SHORT
    if text.startswith(LONG_ID_PREFIX):
        match = re.fullmatch(rf"{LONG_ID_PREFIX}([WB]):(.*)", text)
        if not match:
            raise InvalidNotationError(f"a long nardy ID is {LONG_ID_PREFIX}W:<14 characters> or {LONG_ID_PREFIX}B:..., got {quoted(text)}")
        variant, text = Variant.LONG, match[2]
        turn = on_roll(Color.WHITE if match[1] == "W" else Color.BLACK, turn, whole)
    turn = Color.WHITE if turn is None else Color.parse(turn, "turn")
    of_variant(variant, rules, whole)
    theirs, mine = decode_key(text)
    view = [0] * 26
    for q in range(1, 25):
        view[q] = mine[q - 1]
    for q in range(1, 25):  # the opponent's checkers once the mover's are all placed: a shared point is seen
        if theirs[q - 1]:
            p = 25 - q if variant is Variant.SHORT else own_point(q, Color.BLACK, Variant.LONG)
            if view[p]:
                raise InvalidNotationError(f"position ID {text!r} puts both sides on point {p}")
            view[p] = -theirs[q - 1]
    view[25], view[0] = mine[24], -theirs[24]
    if any(n > 15 for n in mine + theirs) or sum(mine) > 15 or sum(theirs) > 15:
        raise InvalidNotationError(f"position ID {text!r} has more than 15 checkers for a side")
    return view, variant, turn


# match IDs and XGIDs (short nardy) --------------------------------------------------------------------

@dataclass(frozen=True)
class MatchState:
    """What GNU Backgammon's Match ID and XG's XGID carry besides the board.

    Players are gnubg's: 1 is White (X, the bottom player on nardy's board), 0 is Black, the
    opposite of `Color` (`Color.WHITE == 0`): `on_roll`, `turn` and `cube_owner` are gnubg's
    player numbers, never `Color` values (`on_roll=1` is White on roll), and `score` is
    (player 0's, player 1's), that is (Black's, White's).
    `cube_owner` None is a centred cube; `dice` None is "not rolled yet"; `match_length` 0 is a
    money game; `jacoby` applies to money games.
    """

    cube_value: int = 1
    cube_owner: int | None = None
    on_roll: int = 1
    crawford: bool = False
    game_state: int = 1  # 0 none, 1 playing, 2 over, 3 resigned, 4 dropped
    turn: int = 1  # who must decide now (differs from on_roll while a double is offered)
    double_offered: bool = False
    resignation: int = 0
    dice: tuple[int, int] | None = None
    match_length: int = 0
    score: tuple[int, int] = (0, 0)  # (player 0, player 1)
    jacoby: bool = False


_MATCH_FIELDS = [  # (first bit, width), 0-based, LSB first: docs/formats.md section 5
    ("cube", 0, 4), ("owner", 4, 2), ("on_roll", 6, 1), ("crawford", 7, 1), ("state", 8, 3), ("turn", 11, 1),
    ("double", 12, 1), ("resign", 13, 2), ("die1", 15, 3), ("die2", 18, 3), ("length", 21, 15),
    ("score0", 36, 15), ("score1", 51, 15), ("no_jacoby", 66, 1),
]


def _game_on(state: int, dice: object, double: bool, resignation: int) -> bool:
    """Whether a game is being played: the state says so, or, with no game stated (0), dice are
    rolled or a double or a resignation is offered."""
    return state == 1 or (state == 0 and (dice is not None or double or resignation > 0))


def _check_scores(score: tuple[int, int], length: int, playing: bool, fields: tuple[str, str], where: str) -> None:
    """The one rule for the scores of a Match ID, an XGID and a `MatchState`: each 0..32767 (the
    Match ID's 15 bits, money play too) and, in a match (length > 0), within it: below it while
    a game is played."""
    for name, points in zip(fields, score):
        if points > MAX_LENGTH:
            raise InvalidNotationError(f"{where}: field {name} = {points} is above {MAX_LENGTH} (the Match ID's 15 bits)")
        if length and (points > length or (playing and points >= length)):
            raise InvalidNotationError(f"{where}: field {name} = {points} is beyond the match length {length}")


def crawford_fits(score: Sequence[int], length: int) -> bool:
    """Whether a Crawford flag means something at `score` of a `length`-point match (0: money
    play), as for gnubg: in a match, a side needing one point."""
    return length > 0 and length - 1 in tuple(score)


def _check_crawford(crawford: bool, score: tuple[int, int], length: int, field: str, where: str) -> None:
    """A Crawford flag only where it `crawford_fits`."""
    if crawford and not crawford_fits(score, length):
        at = f"at {score[0]}-{score[1]} of {length}" if length else "in a money game"
        raise InvalidNotationError(f"{where}: field {field} says Crawford game {at}; a Crawford game is one "
                                   f"where a side needs one point")


def check_state(state: object) -> MatchState:
    """`state`, its whole numbers (numpy's too) as ints, if it is a `MatchState` that the Match ID
    (and so the XGID) can carry; else `InvalidArgumentError` (not a MatchState) or
    `InvalidNotationError` naming the field."""
    if not isinstance(state, MatchState):
        raise InvalidArgumentError(f"a match state must be a MatchState, got {quoted(state)}")
    ranges = {"cube_owner": (None, 0, 1), "on_roll": (0, 1), "game_state": range(5), "turn": (0, 1),
              "resignation": range(4), "match_length": range(MAX_LENGTH + 1)}
    for name, allowed in ranges.items():
        value = getattr(state, name)
        if not (value is None or is_whole(value)) or value not in allowed:
            raise InvalidNotationError(f"MatchState field {name} = {quoted(value)}: it takes {_listed(allowed)}")
    for name in ("crawford", "double_offered", "jacoby"):
        if not isinstance(getattr(state, name), bool):
            raise InvalidNotationError(f"MatchState field {name} = {quoted(getattr(state, name))}: it takes True or False")
    cube = state.cube_value
    if not is_whole(cube) or cube < 1 or cube & (cube - 1) or cube > 1 << MAX_CUBE_LOG:
        raise InvalidNotationError(f"MatchState field cube_value = {quoted(cube)}: a cube value is a power of two "
                                   f"1..{1 << MAX_CUBE_LOG}")
    dice = state.dice
    if dice is not None and not (isinstance(dice, tuple) and len(dice) == 2 and all(is_whole(d) and 1 <= d <= 6 for d in dice)):
        raise InvalidNotationError(f"MatchState field dice = {quoted(dice)}: it takes None or two dice 1..6")
    score = state.score
    if not (isinstance(score, tuple) and len(score) == 2 and all(is_whole(n) and 0 <= n <= MAX_LENGTH for n in score)):
        raise InvalidNotationError(f"MatchState field score = {quoted(score)}: it takes two scores 0..{MAX_LENGTH}")
    _check_scores(score, state.match_length, _game_on(state.game_state, dice, state.double_offered, state.resignation),
                  ("score0", "score1"), "MatchState")
    whole: dict[str, Any] = {name: int(getattr(state, name)) for name in (*ranges, "cube_value") if getattr(state, name) is not None}
    return replace(state, **whole, dice=None if dice is None else (int(dice[0]), int(dice[1])),
                   score=(int(score[0]), int(score[1])))


def _listed(allowed: Sequence[object]) -> str:
    """The values a field takes, for a message: "0, 1 or None", "0..4"."""
    if isinstance(allowed, range):
        return f"{allowed.start}..{allowed.stop - 1}"
    words = [str(v) for v in allowed if v is not None] + ["None"] * (None in allowed)
    return ", ".join(words[:-1]) + " or " + words[-1]


def match_id(state: MatchState) -> str:
    """GNU Backgammon's Match ID (12 characters): the dice high die first, and bit 67 set when
    Jacoby is *not* in use, as gnubg writes it (its manual omits that bit)."""
    state = check_state(state)
    d1, d2 = sorted(state.dice, reverse=True) if state.dice else (0, 0)
    values = {
        "cube": state.cube_value.bit_length() - 1, "owner": 3 if state.cube_owner is None else state.cube_owner,
        "on_roll": state.on_roll, "crawford": int(state.crawford), "state": state.game_state, "turn": state.turn,
        "double": int(state.double_offered), "resign": state.resignation, "die1": d1, "die2": d2,
        "length": state.match_length, "score0": state.score[0], "score1": state.score[1],
        "no_jacoby": int(not state.jacoby),
    }
    key = 0
    for name, start, width in _MATCH_FIELDS:
        key |= values[name] << start  # each fits its width: _check_state
    return base64.b64encode(key.to_bytes(9, "little")).decode("ascii")


def parse_match_id(text: str) -> MatchState:
    """The state a Match ID denotes; `InvalidNotationError` naming the field for a malformed one."""
    if not re.fullmatch(r"[A-Za-z0-9+/]{12}", as_text(text, "a match ID").strip()):
        raise InvalidNotationError(f"a match ID is 12 base64 characters, got {quoted(text)}")
    key = int.from_bytes(base64.b64decode(text.strip()), "little")
    if key >> 67:
        raise InvalidNotationError(f"match ID {text!r} sets bits beyond the 67 gnubg uses")
    f = {name: (key >> start) & ((1 << width) - 1) for name, start, width in _MATCH_FIELDS}
    for name, bad in (("owner", f["owner"] == 2), ("state", f["state"] > 4), ("die1", f["die1"] > 6),
                      ("die2", f["die2"] > 6 or (f["die1"] == 0) != (f["die2"] == 0))):
        if bad:
            raise InvalidNotationError(f"match ID {text!r}: field {name} = {f[name]} is impossible")
    playing = _game_on(f["state"], f["die1"] or None, bool(f["double"]), f["resign"])
    _check_scores((f["score0"], f["score1"]), f["length"], playing, ("score0", "score1"), f"match ID {text!r}")
    _check_crawford(bool(f["crawford"]), (f["score0"], f["score1"]), f["length"], "crawford", f"match ID {text!r}")
    return MatchState(
        cube_value=1 << f["cube"], cube_owner=None if f["owner"] == 3 else f["owner"], on_roll=f["on_roll"],
        crawford=bool(f["crawford"]), game_state=f["state"], turn=f["turn"], double_offered=bool(f["double"]),
        resignation=f["resign"], dice=(f["die1"], f["die2"]) if f["die1"] else None, match_length=f["length"],
        score=(f["score0"], f["score1"]), jacoby=not f["no_jacoby"],
    )


def xgid(position: Position, state: MatchState | None = None, max_cube: int = 1024) -> str:
    """XG's XGID of a short nardy position: White (bottom) upper case in White's numbers.

    While a double is offered (dice field ``D``) the turn field names the side that must take or
    drop, not the doubler on roll. Raises `InvalidArgumentError` for an argument of the wrong
    kind and the errors of `match_id` for a state it cannot carry."""
    if not is_position(position):
        raise InvalidArgumentError(f"xgid() takes a Position, got {quoted(position)}")
    if position.variant is not Variant.SHORT:
        raise InvalidNotationError("XGID is a backgammon (short nardy) format")
    on_roll = 1 if position.turn is Color.WHITE else 0
    state = MatchState(on_roll=on_roll) if state is None else check_state(state)
    if state.on_roll != on_roll:
        raise InvalidNotationError(f"MatchState field on_roll = {state.on_roll} contradicts the position, which has "
                                   f"{position.turn.name.lower()} on roll")
    if not is_whole(max_cube) or max_cube < 1 or max_cube & (max_cube - 1) or max_cube > 1 << MAX_CUBE_LOG:
        raise InvalidArgumentError(f"max_cube is a power of two 1..{1 << MAX_CUBE_LOG}, got {quoted(max_cube)}")
    max_cube = int(max_cube)
    if state.cube_value << state.double_offered > max_cube:
        raise InvalidArgumentError(f"a cube of {state.cube_value}{' doubled' if state.double_offered else ''} is above "
                                   f"max_cube = {max_cube}")
    chars = ["-"] * 26
    for point, n in position.checkers(Color.WHITE).items():
        chars[point] = chr(ord("A") + n - 1)
    for point, n in position.checkers(Color.BLACK).items():
        chars[point] = chr(ord("a") + n - 1)
    for index, color, base in ((25, Color.WHITE, "A"), (0, Color.BLACK, "a")):
        if position.bar(color):
            chars[index] = chr(ord(base) + position.bar(color) - 1)
    owner = {None: 0, 1: 1, 0: -1}[state.cube_owner]
    dice = "D" if state.double_offered else "".join(map(str, state.dice)) if state.dice else "00"
    cj = int(state.crawford) if state.match_length else int(state.jacoby)
    acting = position.turn.other if state.double_offered else position.turn
    return ":".join(["XGID=" + "".join(chars), str(state.cube_value.bit_length() - 1), str(owner),
                     "1" if acting is Color.WHITE else "-1", dice, str(state.score[1]), str(state.score[0]),
                     str(cj), str(state.match_length), str(max_cube.bit_length() - 1)])


# the XGID's fields: name, pattern (ASCII digits, a few: the text is never converted unbounded)
_XGID_FIELDS = (
    ("position", r"[-a-pA-P]{26}"), ("cube", r"[0-9]{1,2}"), ("cube owner", r"-1|0|1"), ("turn", r"-1|1"),
    ("dice", r"D|B|R|00|[1-6][1-6]"), ("bottom score", r"[0-9]{1,5}"), ("top score", r"[0-9]{1,5}"),
    ("crawford/jacoby", r"[0-3]"), ("match length", r"[0-9]{1,5}"), ("max cube", r"[0-9]{1,2}"),
)
MAX_CUBE_LOG = 15  # the Match ID's 4 bits
MAX_LENGTH = (1 << 15) - 1  # the Match ID's 15 bits


def decode_xgid(text: str, rules: Rules | None = None) -> tuple[XgidBoard, MatchState]:
    """The board and state of an XGID (gnubg's reading: the string is never flipped);
    `nardy.position.parse_xgid` makes the position.

    With a double offered (``D``) the turn field is the side that must take or drop; the doubler
    is on roll. Raises `InvalidNotationError` naming the field that is wrong."""
    whole = as_text(text, "an XGID").strip()
    of_variant(Variant.SHORT, rules, whole)
    fields = whole.removeprefix("XGID=").split(":", len(_XGID_FIELDS))
    if len(fields) not in (len(_XGID_FIELDS) - 1, len(_XGID_FIELDS)):
        raise InvalidNotationError(f"not an XGID: {quoted(whole)} (9 or 10 fields separated by ':')")
    for (name, pattern), value in zip(_XGID_FIELDS, fields):
        if not re.fullmatch(pattern, value):
            raise InvalidNotationError(f"not an XGID: {quoted(whole)}: field {name} is {quoted(value)}")
    chars, cube, owner, turn, dice = fields[:5]
    bottom, top, cj, length = (int(v) for v in fields[5:9])
    max_cube = int(fields[9]) if len(fields) > 9 else None
    for name, number, most in (("cube", int(cube), MAX_CUBE_LOG), ("max cube", max_cube or 0, MAX_CUBE_LOG),
                               ("match length", length, MAX_LENGTH)):
        if number > most:
            raise InvalidNotationError(f"XGID {quoted(whole)}: field {name} = {number} is above {most}")
    if max_cube is not None and int(cube) + (dice == "D") > max_cube:
        raise InvalidNotationError(f"XGID {quoted(whole)}: a cube of {1 << int(cube)}"
                                   f"{' doubled' if dice == 'D' else ''} is above the max cube, "
                                   f"{1 << max_cube} (field max cube = {max_cube})")
    _check_scores((bottom, top), length, True, ("bottom score", "top score"), f"XGID {quoted(whole)}")
    if length:  # in money play the field is Jacoby's
        _check_crawford(bool(cj & 1), (bottom, top), length, "crawford/jacoby", f"XGID {quoted(whole)}")
    white: dict[int, int] = {}
    black: dict[int, int] = {}
    for point in range(1, 25):
        c = chars[point]
        if c != "-":
            (white if c.isupper() else black)[point] = ord(c.lower()) - ord("a") + 1
    bars = {c.isupper(): ord(c.lower()) - ord("a") + 1 for c in (chars[0], chars[25]) if c != "-"}
    if chars[0].isupper() or chars[25].islower():
        raise InvalidNotationError(f"XGID {quoted(whole)}: the bars hold the wrong side's checkers")
    acting = Color.WHITE if turn == "1" else Color.BLACK
    doubled = dice == "D"
    color = acting.other if doubled else acting  # on roll: the doubler, while a double is offered
    board = XgidBoard(white, black, bars.get(True, 0), bars.get(False, 0), color)
    state = MatchState(
        cube_value=1 << int(cube), cube_owner={"0": None, "1": 1, "-1": 0}[owner], on_roll=int(color is Color.WHITE),
        crawford=bool(cj & 1) and length > 0, turn=int(acting is Color.WHITE), double_offered=doubled,
        dice=(int(dice[0]), int(dice[1])) if re.fullmatch("[1-6][1-6]", dice) else None, match_length=length,
        score=(top, bottom), jacoby=bool(cj & 1) and length == 0,
    )
    return board, state


__all__ = [
    "LONG_ID_PREFIX", "MAX_LENGTH", "MatchState", "XgidBoard", "decode_position_id", "decode_xgid", "match_id",
    "parse_match_id", "position_id", "xgid",
]
