"""Steps and moves: what a turn plays, in the mover's point numbers (25 = bar, 0 = off)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

BAR = 25
OFF = 0


@dataclass(frozen=True)
class Step:
    """One checker moved by one die: from `src` to `dst`; `hit` when it hit a blot there."""

    src: int
    dst: int
    hit: bool = field(default=False, compare=False)

    def __str__(self) -> str:
        src = "bar" if self.src == BAR else str(self.src)
        dst = "off" if self.dst == OFF else str(self.dst)
        return f"{src}/{dst}{'*' if self.hit else ''}"

    def __repr__(self) -> str:
        return f"Step({self.src}, {self.dst}{', hit=True' if self.hit else ''})"


@dataclass(frozen=True)
class Move:
    """A whole turn: the roll and its steps in the order played (none when the roll is lost).

    >>> str(Move((6, 5), ((24, 18), (18, 13))))
    '24/18 18/13'
    """

    dice: tuple[int, int]
    steps: tuple[Step, ...] = ()

    def __init__(self, dice: tuple[int, int], steps: Any = ()) -> None:
        object.__setattr__(self, "dice", tuple(dice))
        object.__setattr__(self, "steps", tuple(s if isinstance(s, Step) else Step(*s) for s in steps))

    def pairs(self) -> tuple[tuple[int, int], ...]:
        """The steps as (from, to) pairs."""
        return tuple((s.src, s.dst) for s in self.steps)

    def __str__(self) -> str:
        return " ".join(map(str, self.steps)) if self.steps else "pass"

    def __repr__(self) -> str:
        steps = ", ".join(f"({s.src}, {s.dst}{', True' if s.hit else ''})" for s in self.steps)
        return f"Move({self.dice!r}, ({steps}{',' if len(self.steps) == 1 else ''}))"

    def __bool__(self) -> bool:
        return bool(self.steps)
