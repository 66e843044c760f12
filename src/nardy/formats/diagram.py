"""The ASCII board: GNU Backgammon's frame, White (X) moving round to its home at the bottom right.

Short nardy: Black (O) moves the other way, home at the top right. Long nardy: both sides move
the same way; White's head is White's point 24 (top right), Black's head White's 12 (bottom
left). The checkers always stand in this frame; the point labels are, as in GNU Backgammon, the
numbers of the side on roll, so that they agree with the moves printed for it
(``numbers="white"`` or ``"black"`` fixes one side's numbers instead).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import InvalidArgumentError, quoted
from ..rules import Color, Variant, own_point
from .ids import is_position

if TYPE_CHECKING:
    from ..position import Position

SYMBOL = {Color.WHITE: "X", Color.BLACK: "O"}
ROWS = 5
NUMBERS = ("mover", "white", "black")


def numbering(numbers: str | Color, mover: Color) -> Color:
    """The colour whose point numbers label a board: "mover" (the side on roll), "white", "black" or a `Color`."""
    if isinstance(numbers, Color):
        return numbers
    if isinstance(numbers, str) and numbers.lower() in NUMBERS:
        return mover if numbers.lower() == "mover" else Color[numbers.upper()]
    raise InvalidArgumentError(f"numbers is whose point numbers label the board, 'mover', 'white' or 'black', got {numbers!r}")


def _cell(count: int, row: int) -> str:
    """Row `row` (0 = at the edge) of a point holding `count` (White positive)."""
    n = abs(count)
    if n <= row:
        return "   "
    if row == ROWS - 1 and n > ROWS:
        return f"{n:>2} "
    return " X " if count > 0 else " O "


def diagram(position: Position, numbers: str | Color = "mover") -> str:
    """The board as text, with each side's pips, bar and borne-off checkers beside it.

    `numbers` says whose point numbers label the points: the side on roll's by default.
    Raises `InvalidArgumentError` for anything but a Position or a bad `numbers`.
    """
    if not is_position(position):
        raise InvalidArgumentError(f"diagram() draws a Position, got {quoted(position)}")
    labeller = numbering(numbers, position.turn)
    signed = [0] * 25
    for color, sign in ((Color.WHITE, 1), (Color.BLACK, -1)):
        for point, n in position.checkers(color).items():
            signed[point] = sign * n
    short = position.variant is Variant.SHORT

    def edge(points: range) -> str:
        return "".join(f"{own_point(p, labeller, position.variant):->2}-" for p in points)

    def side(color: Color) -> list[str]:
        on_roll = "  (on roll)" if color is position.turn else ""
        facts = [f"{SYMBOL[color]}: {color.name.lower()}{on_roll}", f"pips {position.pip_count(color)}",
                 f"off {position.borne_off(color)}"]
        if short:
            facts.append(f"bar {position.bar(color)}")
        return facts

    def row(left: range, right: range, r: int) -> str:
        cells = "".join(_cell(signed[p], r) for p in left), "".join(_cell(signed[p], r) for p in right)
        return f" |{cells[0]}|   |{cells[1]}|"

    top_notes, bottom_notes = side(Color.BLACK), side(Color.WHITE)
    title = "Long nardy" if not short else "Short nardy (backgammon)"
    arrow = (" " if not short else "v" if position.turn is Color.WHITE else "^")  # gnubg: towards the side on roll
    lines = [f" {title:<26}Position ID: {position.id()}", f" +{edge(range(13, 19))}-----{edge(range(19, 25))}+"]
    lines += [row(range(13, 19), range(19, 25), r) for r in range(ROWS)]
    lines.append(f"{arrow}|                  |{'BAR' if short else '   '}|                  |")
    lines += [row(range(12, 6, -1), range(6, 0, -1), r) for r in reversed(range(ROWS))]
    lines.append(f" +{edge(range(12, 6, -1))}-----{edge(range(6, 0, -1))}+")
    for i, note in enumerate(top_notes):
        lines[1 + i] += "     " + note
    for i, note in enumerate(bottom_notes):
        lines[-1 - i] += "     " + note
    return "\n".join(lines)


__all__ = ["diagram", "numbering"]
