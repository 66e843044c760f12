"""SVG boards: a position of either variant as a scalable picture (`Position._repr_svg_` uses it).

The frame is the ASCII diagram's (GNU Backgammon's): by default White plays from the bottom, with
its home (points 1..6) at the bottom right, and, as in GNU Backgammon, the points carry the
numbers of the side on roll (the side whose move is drawn), so that they agree with its move
notation; ``numbers="white"`` (or ``"black"``) keeps one side's numbers whoever is on roll.
``bottom="black"`` puts Black at the bottom, the same frame seen from Black's side of the table
(short nardy: the board turned over top to bottom; long nardy: turned half round, since both
sides move the same way); ``home="left"`` mirrors the board left to right. Each side's borne-off tray stands beside its home, and in short
nardy a side's checkers on the bar stand in the half of the bar where they enter, stacked from
the middle. Points show up to five checkers, with the count on the fifth when there are more.
Short nardy may show the doubling cube (in the margin opposite the trays: centred, or at its
owner's side), the match score and length, and the players' names.

The output is plain SVG 1.1: deterministic (no ids, no randomness), one ``viewBox`` so it scales,
a generic font family and no external resources. Elements carry classes (``checker white``,
``stack``, ``count``, ``off``, ``die``, ``arrow``...) for styling and tests.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeGuard
from html import escape

from .diagram import numbering
from .._backend import check_dice
from ..errors import InvalidArgumentError, check_flag, is_choice, quoted
from ..move import BAR, OFF, Move
from ..rules import Color, Rules, Variant, own_point, rules_for
from .ids import is_position

if TYPE_CHECKING:
    from ..game import Game
    from ..position import Position

# geometry, in viewBox units
POINT = 40  # width of a point
RADIUS = 17.5  # checker radius; stacked checkers touch
STACK = 5  # checkers drawn on one point before a count is shown
HALF = 178  # height of each half's point area (five checkers and an inset)
MIDDLE = 84  # the band between the halves, where the dice lie
BAR_WIDTH = 44
FRAME = 14  # frame at the sides
RAIL = 22  # frame above and below, holding the point numbers
TRAY = 48
BAND = 32  # the text band above and below the board, for each side's name and pips
INSET = 2
DIE = 32
SLAB = 11.5  # height of a borne-off checker seen edge on
MAX_SIZE = 10_000  # pixels: the widest `size` drawn

COLORS = {
    "frame": "#5d3a1f",
    "felt": "#2f5d46",
    "tray": "#24483a",
    "point_light": "#e9dcc0",
    "point_dark": "#b5523b",
    "numbers": "#f3e9d6",
    "text": "#222222",
    "arrow": "#f08c00",
    "badge": "#f08c00",
}
CHECKER = {  # fill, edge, text on it
    Color.WHITE: ("#f7f4ec", "#3d3d3d", "#222222"),
    Color.BLACK: ("#262626", "#000000", "#f7f4ec"),
}
PIPS = {  # die pips as (column, row) in a 3x3 grid
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}


class SVG(str):
    """An SVG document: the text itself (a `str`), which Jupyter draws (`_repr_svg_`)."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)


def board(
    position: Position | Game,
    *,
    dice: Sequence[int] | None = None,
    move: Move | None = None,
    after: bool = False,
    rules: Rules | None = None,
    numbers: Color | str = "mover",
    bottom: Color | str = Color.WHITE,
    home: str = "right",
    size: int | None = None,
    show_pips: bool = True,
    show_numbers: bool = True,
    cube: int | None = None,
    cube_owner: Color | str | None = None,
    score: Sequence[int] | None = None,
    match_length: int | None = None,
    names: Sequence[str] | None = None,
) -> SVG:
    """The position as an SVG document (an `SVG`: a `str` that Jupyter draws). Given a started
    `Game`, its position with its rolled dice, its rules, its cube and its match score (each
    unless given here).

    `dice` draws the roll of the side on roll; `move` (a legal `Move` of that side from this
    position, under `rules`) draws an arrow per step and shows its dice unless `dice` is given;
    with `after=True` the board drawn is the one after the move (the last move, as analysis
    tools show it: the arrows end on the checkers that moved, and the badge marks the side that
    played the dice shown). `numbers` is whose point numbers label the points: "mover" (the side
    on roll, whose move is drawn; the default), "white" or "black".
    `bottom` is the colour sitting at the bottom, `home` the side ("right" or "left") where the
    bottom player's home is; `size` is the width in pixels, 1 to 10,000 (the height follows), by
    default the natural width. Short nardy: `cube` draws the doubling cube with this value (centred, or by
    `cube_owner`), `score` (White's, Black's points) and `match_length` (0 for money) the match
    score; `names` (White's, Black's) replaces "White" and "Black". Raises `InvalidDiceError`,
    `IllegalMoveError` for a move that is not legal here, `InvalidPositionError` for `rules` of
    the other variant, and `InvalidArgumentError` for any other bad argument.
    """
    if _is_game(position):  # its board, roll, rules, cube and match score, unless given
        game = position
        if game.position is None:
            raise InvalidArgumentError("board() draws a Game once it has started: call roll_off() first")
        position, rules = game.position, game.rules if rules is None else rules
        dice = game.dice if dice is None and move is None else dice
        if game.cube_enabled and cube is None:
            cube, cube_owner = game.cube_value, game.cube_owner
        if game.match_length and score is None:
            score, match_length = game.score, game.match_length if match_length is None else match_length
    if not is_position(position):
        raise InvalidArgumentError(f"board() draws a Position or a Game, got {quoted(position)}")
    if rules is not None:
        rules = rules_for(position.variant, rules)  # InvalidPositionError for the other variant's rules, as legal_moves
    labels = numbering(numbers, position.turn)
    if cube is None and cube_owner is not None:
        raise InvalidArgumentError(f"cube_owner={cube_owner!r} needs a cube value")
    if cube is not None:
        _check_cube(position, cube)
    owner = None if cube_owner is None else _bottom(cube_owner, "cube_owner")
    layout = _Layout(position.variant, _bottom(bottom), _home(home), labels, cube is not None)
    if not isinstance(after, bool) or (after and move is None):
        raise InvalidArgumentError(f"after=True draws the board after a given move, got after={after!r}, move={move!r}")
    drawn = position
    if move is not None:
        if not isinstance(move, Move):
            raise InvalidArgumentError(f"move must be a nardy Move, got {move!r}")
        following = position.apply(move, rules)  # IllegalMoveError unless the move is legal here
        drawn = following if after else position
        if dice is None:
            dice = move.dice
        elif sorted(check_dice(dice)) != sorted(move.dice):
            raise InvalidArgumentError(f"dice {dice[0]}-{dice[1]} do not match the move's {move.dice[0]}-{move.dice[1]}")
    rolled = check_dice(dice) if dice is not None else None
    if size is not None and (isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= MAX_SIZE):
        raise InvalidArgumentError(f"size is a width in pixels, a whole number 1..{MAX_SIZE}, got {quoted(size)}")
    check_flag(show_pips, "show_pips")
    check_flag(show_numbers, "show_numbers")
    points = _score(score, match_length)
    players = _names(names)
    # the badge marks the side whose dice are shown: after the move, the side that played them
    badge = (position.turn, "played") if after else (position.turn, "on roll")

    width, height = layout.width, layout.height
    shown = size if size is not None else width
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{shown}" height="{_num(shown * height / width)}" font-family="sans-serif" role="img">',
        _el("title", _title(position, players, move if after else None)),
        _el("rect", x=0, y=0, width=width, height=height, fill="#ffffff"),
    ]
    parts += layout.frame(show_numbers)
    parts += _checkers(drawn, layout)
    for color in Color:
        parts += _band(drawn, layout, color, show_pips, players[color], badge, points)
    if cube is not None:
        parts += _cube(cube, owner, layout)
    if rolled is not None:
        parts += _dice(rolled, position.turn, layout)
    if move is not None:
        parts += _arrows(position, move, layout)
    parts.append("</svg>")
    return SVG("\n".join(parts) + "\n")


def _is_game(value: Any) -> TypeGuard[Game]:
    """Whether `value` is a `Game` (told by its shape: this module sits below `nardy.game`)."""
    return all(hasattr(value, name) for name in ("roll_off", "cube_enabled", "position", "dice"))


def _check_cube(position: Position, cube: int) -> None:
    if position.variant is not Variant.SHORT:
        raise InvalidArgumentError("long nardy has no doubling cube")
    if isinstance(cube, bool) or not isinstance(cube, int) or cube < 1 or cube & (cube - 1) or cube > 2 ** 15:
        raise InvalidArgumentError(f"a cube value is a power of two from 1 to 32768, got {cube!r}")


def _score(score: Sequence[int] | None, length: int | None) -> tuple[tuple[int, int], int] | None:
    """(White's, Black's points), match length; None when no score is drawn."""
    if score is None and length is None:
        return None
    if length is not None and (isinstance(length, bool) or not isinstance(length, int) or length < 0):
        raise InvalidArgumentError(f"match_length is a whole number of points (0 for money), got {length!r}")
    values = (0, 0) if score is None else tuple(score) if _pair(score) else ()
    if len(values) != 2 or any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in values):
        raise InvalidArgumentError(f"score is (White's, Black's) points, two whole numbers >= 0, got {quoted(score)}")
    if length and max(values) >= length:
        raise InvalidArgumentError(f"score {values[0]}-{values[1]} is not below the match length {length}")
    return (values[0], values[1]), (length or 0)


def _names(names: Sequence[str] | None) -> dict[Color, str]:
    if names is None:
        return {c: c.name.capitalize() for c in Color}
    given = list(names) if _pair(names) else []
    if len(given) != 2 or not all(isinstance(n, str) and n.strip() for n in given):
        raise InvalidArgumentError(f"names is (White's, Black's), two non-empty strings, got {quoted(names)}")
    for name in given:
        bad = next((ch for ch in name if unicodedata.category(ch) in ("Cc", "Cs") or ch in "\ufffe\uffff"), None)
        if bad is not None:  # XML 1.0 forbids these (a surrogate cannot even be written as UTF-8)
            raise InvalidArgumentError(f"names: {quoted(name)} holds U+{ord(bad):04X}: a name in an SVG "
                                       "holds no control character or surrogate")
    return {Color.WHITE: given[0], Color.BLACK: given[1]}


def _pair(value: object) -> bool:
    """Whether `value` is a sequence to read two values from (a str or a number is not)."""
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes))


class _Layout:
    """Where things go: points, bar, trays and bands for one variant and orientation."""

    def __init__(self, variant: Variant, bottom: Color, home: str, labels: Color, cube: bool = False) -> None:
        self.variant, self.bottom, self.home, self.labels = variant, bottom, home, labels
        # each side's tray stands beside its home: (left or right, top or bottom)
        self.tray_side = {c: self.corner(self.absolute(1, c)) for c in Color}
        sides = {side for side, _ in self.tray_side.values()}
        # the cube has a margin of its own opposite the trays (short nardy: both on one side)
        self.cube_side = ("right" if "left" in sides else "left") if cube else None
        self.left_tray, self.right_tray = "left" in sides or self.cube_side == "left", "right" in sides or self.cube_side == "right"
        self.board_left = (FRAME + TRAY if self.left_tray else 0) + FRAME
        self.board_top = BAND + RAIL
        self.inner_width = 12 * POINT + BAR_WIDTH
        self.inner_height = 2 * HALF + MIDDLE
        self.width = self.board_left + self.inner_width + FRAME + (TRAY + FRAME if self.right_tray else 0)
        self.height = 2 * (BAND + RAIL) + self.inner_height
        self.mid_x = self.board_left + 6 * POINT + BAR_WIDTH / 2
        self.mid_y = self.board_top + self.inner_height / 2
        self.board_bottom = self.board_top + self.inner_height

    def absolute(self, point: int, color: Color) -> int:
        """`color`'s own point number -> White's."""
        return own_point(point, color, self.variant)

    def column(self, point: int) -> tuple[int, bool]:
        """The column (0..11, left to right) and half (True = top) of an absolute point."""
        q = own_point(point, self.bottom, self.variant)  # the bottom side's number
        top = q > 12
        col = q - 13 if top else 12 - q
        return (11 - col if self.home == "left" else col), top

    def corner(self, point: int) -> tuple[str, bool]:
        col, top = self.column(point)
        return ("left" if col < 6 else "right"), top

    def x(self, col: int) -> float:
        return self.board_left + col * POINT + POINT / 2 + (BAR_WIDTH if col >= 6 else 0)

    def stack_y(self, top: bool, i: int) -> float:
        """Centre of the i-th checker (0 = at the edge) of a stack in the top or bottom half."""
        offset = INSET + RADIUS + i * 2 * RADIUS
        return self.board_top + offset if top else self.board_bottom - offset

    def point_xy(self, point: int, i: int) -> tuple[float, float]:
        col, top = self.column(point)
        return self.x(col), self.stack_y(top, min(i, STACK - 1))

    def bar_xy(self, color: Color, i: int) -> tuple[float, float]:
        """The i-th of `color`'s checkers on the bar, in the half where it enters, from the middle."""
        _, top = self.column(self.absolute(24, color))
        offset = 8 + RADIUS + min(i, STACK - 1) * 2 * RADIUS
        return self.mid_x, self.mid_y - offset if top else self.mid_y + offset

    def tray(self, color: Color) -> tuple[float, float, float, float, bool]:
        """x, y, width, height of `color`'s tray and whether it is in the top half."""
        side, top = self.tray_side[color]
        x = FRAME if side == "left" else self.board_left + self.inner_width + FRAME
        y = self.board_top if top else self.mid_y + 4
        return x, y, TRAY, self.inner_height / 2 - 4, top

    def frame(self, show_numbers: bool) -> list[str]:
        left, top = self.board_left, self.board_top
        parts = [
            _el("rect", x=0, y=BAND, width=self.width, height=self.height - 2 * BAND, rx=6, fill=COLORS["frame"], **{"class": "frame"}),
            _el("rect", x=left, y=top, width=6 * POINT, height=self.inner_height, fill=COLORS["felt"]),
            _el("rect", x=left + 6 * POINT + BAR_WIDTH, y=top, width=6 * POINT, height=self.inner_height, fill=COLORS["felt"]),
        ]
        for color in Color:
            x, y, w, h, _ = self.tray(color)
            parts.append(_el("rect", x=x, y=y, width=w, height=h, rx=3, fill=COLORS["tray"], **{"class": f"tray {color.name.lower()}"}))
        for point in range(1, 25):
            col, is_top = self.column(point)
            x0 = self.x(col) - POINT / 2
            base, tip = (top, top + HALF - 6) if is_top else (self.board_bottom, self.board_bottom - HALF + 6)
            fill = COLORS["point_dark"] if (col + is_top) % 2 else COLORS["point_light"]
            parts.append(_el("polygon", points=f"{_num(x0)},{_num(base)} {_num(x0 + POINT)},{_num(base)} {_num(x0 + POINT / 2)},{_num(tip)}",
                             fill=fill, **{"class": "point"}))
            if show_numbers:
                y = top - RAIL / 2 if is_top else self.board_bottom + RAIL / 2
                parts.append(_text(str(own_point(point, self.labels, self.variant)), self.x(col), y, 12, COLORS["numbers"], cls="number"))
        return parts


def _checkers(position: Position, layout: _Layout) -> list[str]:
    parts = []
    for color in Color:
        name = color.name.lower()
        for point, n in position.checkers(color).items():
            parts += _stack(color, n, [layout.point_xy(point, i) for i in range(min(n, STACK))])
        on_bar = position.bar(color)
        if on_bar:
            parts += _stack(color, on_bar, [layout.bar_xy(color, i) for i in range(min(on_bar, STACK))], "bar")
        off = position.borne_off(color)
        x, y, w, h, top = layout.tray(color)
        parts.append(f'<g class="off {name}">')
        for i in range(off):
            sy = y + 4 + i * SLAB if top else y + h - 4 - (i + 1) * SLAB
            parts.append(_el("rect", x=x + 5, y=_num(sy + 1), width=w - 10, height=SLAB - 2, rx=2,
                             fill=CHECKER[color][0], stroke=CHECKER[color][1], **{"stroke-width": 1, "class": f"slab {name}"}))
        if off:  # the count just beyond the last slab, by its checkers
            ty = y + 4 + off * SLAB + 9 if top else y + h - 4 - off * SLAB - 9
            parts.append(_text(str(off), x + w / 2, ty, 14, COLORS["numbers"], bold=True, cls="count"))
        parts.append("</g>")
    return parts


def _stack(color: Color, n: int, centres: list[tuple[float, float]], where: str = "point") -> list[str]:
    fill, edge, ink = CHECKER[color]
    name = color.name.lower()
    parts = [f'<g class="stack {where} {name}">']
    for cx, cy in centres:
        parts.append(_el("circle", cx=cx, cy=cy, r=RADIUS - 0.6, fill=fill, stroke=edge, **{"stroke-width": 1.2, "class": f"checker {name}"}))
        parts.append(_el("circle", cx=cx, cy=cy, r=RADIUS * 0.68, fill="none", stroke=edge, **{"stroke-width": 0.8, "stroke-opacity": 0.35}))
    if n > len(centres):
        cx, cy = centres[-1]
        parts.append(_text(str(n), cx, cy, 15, ink, bold=True, cls="count"))
    parts.append("</g>")
    return parts


def _band(position: Position, layout: _Layout, color: Color, show_pips: bool, name: str,
          badge: tuple[Color, str], points: tuple[tuple[int, int], int] | None) -> list[str]:
    """The side's name, pip count, score and badge ("on roll", or "played" for the last move), above or below the board."""
    at_bottom = color is layout.bottom
    y = layout.height - BAND / 2 if at_bottom else BAND / 2
    x = layout.board_left
    fill, edge, _ = CHECKER[color]
    marked = color is badge[0]
    parts = [f'<g class="band {color.name.lower()}">',
             _el("circle", cx=x + 8, cy=y, r=7, fill=fill, stroke=edge, **{"stroke-width": 1.2}),
             _text(name, x + 22, y, 15, COLORS["text"], anchor="start", bold=marked, cls="name")]
    after = max(x + 90, x + 22 + _width(name, 15) + 14)  # what follows the name starts beyond it
    if show_pips:
        parts.append(_text(f"pips {position.pip_count(color)}", after, y, 14, COLORS["text"], anchor="start", cls="pips"))
        after += 90
    if marked:
        parts.append(_el("rect", x=after, y=y - 10, width=62, height=20, rx=10, fill=COLORS["badge"], **{"class": "on-roll"}))
        parts.append(_text(badge[1], after + 31, y, 12, "#ffffff", bold=True, cls="badge"))
    if points is not None:
        (white, black), length = points
        own = white if color is Color.WHITE else black
        parts.append(_text(f"{own} point{'s' if own != 1 else ''}", layout.width - FRAME, y, 14, COLORS["text"],
                           anchor="end", bold=True, cls="score"))
    if not at_bottom:
        game = "long nardy" if position.variant is Variant.LONG else "short nardy"
        if points is not None:
            game += f", {points[1]}-point match" if points[1] else ", money game"
        right = layout.width - FRAME - (_width("00 points", 14) + 16 if points is not None else 0)
        parts.append(_text(game, right, y, 13, "#777777", anchor="end", cls="variant"))
    parts.append("</g>")
    return parts


def _width(text: str, size: int) -> float:
    """A generous estimate of the width of `text` in a sans-serif font of `size`."""
    return 0.62 * size * len(text)


def _cube(value: int, owner: Color | None, layout: _Layout) -> list[str]:
    """The doubling cube in its margin: in the middle when centred (showing 64), else at the owner's side."""
    side = 36
    x = FRAME + (TRAY - side) / 2 if layout.cube_side == "left" else layout.board_left + layout.inner_width + FRAME + (TRAY - side) / 2
    if owner is None:
        y = layout.mid_y - side / 2
    elif owner is layout.bottom:
        y = layout.board_bottom - side - 6
    else:
        y = layout.board_top + 6
    shown = 64 if owner is None and value == 1 else value
    where = "centre" if owner is None else owner.name.lower()
    return [f'<g class="cube {where}" data-value="{value}">',
            _el("rect", x=x, y=y, width=side, height=side, rx=4, fill="#fbf8f0", stroke="#222222", **{"stroke-width": 1.2}),
            _text(str(shown), x + side / 2, y + side / 2, 16 if shown < 1000 else 11, "#222222", bold=True, cls="cube-value"),
            "</g>"]


def _dice(dice: tuple[int, int], color: Color, layout: _Layout) -> list[str]:
    """The roll in the middle of a half: the bottom player's on its home side, the top player's opposite."""
    home_side = 6 if layout.home == "right" else 0
    col = home_side if color is layout.bottom else 6 - home_side
    cx = layout.x(col) - POINT / 2 + 3 * POINT
    fill, edge, ink = CHECKER[color]
    parts = []
    for k, value in enumerate(dice):
        x0 = cx + (-DIE - 6 if k == 0 else 6)
        y0 = layout.mid_y - DIE / 2
        parts.append(f'<g class="die {color.name.lower()}" data-value="{value}">')
        parts.append(_el("rect", x=x0, y=y0, width=DIE, height=DIE, rx=5, fill=fill, stroke=edge, **{"stroke-width": 1.2}))
        for c, r in PIPS[value]:
            parts.append(_el("circle", cx=x0 + DIE * (0.24 + 0.26 * c), cy=y0 + DIE * (0.24 + 0.26 * r), r=DIE * 0.085, fill=ink))
        parts.append("</g>")
    return parts


def _arrows(position: Position, move: Move, layout: _Layout) -> list[str]:
    """An arrow per step, from the checker that moves to where it lands."""
    mover = position.turn
    counts = list(position.view())  # the mover's numbers; kept up to date step by step
    parts = []
    for step in move.steps:
        if step.src == BAR:
            start = layout.bar_xy(mover, counts[BAR] - 1)
        else:
            start = layout.point_xy(layout.absolute(step.src, mover), counts[step.src] - 1)
        counts[step.src] -= 1
        if step.dst == OFF:
            x, y, w, h, top = layout.tray(mover)
            end = (x + w / 2, y + h / 2)
        else:
            counts[step.dst] = 1 if counts[step.dst] < 0 else counts[step.dst] + 1
            end = layout.point_xy(layout.absolute(step.dst, mover), counts[step.dst] - 1)
        parts.append(_arrow(start, end))
    return parts


def _arrow(start: tuple[float, float], end: tuple[float, float]) -> str:
    (x1, y1), (x2, y2) = start, end
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    head, wing = 16, 9
    x1, y1 = x1 + ux * min(10, length / 4), y1 + uy * min(10, length / 4)  # leave a count label on the checker readable
    bx, by = x2 - ux * head, y2 - uy * head
    wings = f"{_num(bx - uy * wing)},{_num(by + ux * wing)} {_num(x2)},{_num(y2)} {_num(bx + uy * wing)},{_num(by - ux * wing)}"
    return "".join([
        '<g class="arrow" opacity="0.9">',
        _el("line", x1=x1, y1=y1, x2=bx, y2=by, stroke=COLORS["arrow"], **{"stroke-width": 5, "stroke-linecap": "round"}),
        _el("polygon", points=wings, fill=COLORS["arrow"]),
        "</g>",
    ])


def _title(position: Position, names: dict[Color, str], played: Move | None) -> str:
    """"Short nardy, White on roll", or after a move "Short nardy, White played 6-5 24/18 13/8, Black on roll"."""
    game = "Long nardy" if position.variant is Variant.LONG else "Short nardy"
    mover = names[position.turn]
    if played is None:
        return f"{game}, {mover} on roll"
    return f"{game}, {mover} played {played.dice[0]}-{played.dice[1]} {played}, {names[position.turn.other]} on roll"


def _bottom(value: Color | str, name: str = "bottom") -> Color:
    if isinstance(value, Color):
        return value
    if isinstance(value, str) and value.upper() in Color.__members__:
        return Color[value.upper()]
    raise InvalidArgumentError(f"{name} is a colour, 'white' or 'black', got {value!r}")


def _home(value: str) -> str:
    if not is_choice(value, ("right", "left")):
        raise InvalidArgumentError(f"home is where the bottom player's home is, 'right' or 'left', got {value!r}")
    return value


def _num(value: float) -> str:
    """A coordinate as short, fixed text: at most two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _text(content: str, x: float, y: float, size: int, fill: str, *, anchor: str = "middle", bold: bool = False,
          cls: str | None = None) -> str:
    """Text centred vertically on y (by a baseline shift every renderer understands)."""
    attrs: dict[str, object] = {"x": x, "y": float(y + 0.36 * size), "fill": fill, "font-size": size, "text-anchor": anchor}
    if bold:
        attrs["font-weight"] = "bold"
    if cls:
        attrs["class"] = cls
    return _el("text", content, **attrs)


def _el(tag: str, text: str | None = None, /, **attrs: object) -> str:
    """One element; numbers go through `_num`, every attribute and text is escaped."""
    head = "".join(f' {k}="{escape(_num(v) if isinstance(v, float) else str(v))}"' for k, v in attrs.items())
    if text is None:
        return f"<{tag}{head}/>"
    return f"<{tag}{head}>{escape(text, quote=False)}</{tag}>"


__all__ = ["SVG", "board"]
