"""Steps and moves: what a turn plays, in the mover's point numbers (25 = bar, 0 = off)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from .errors import InvalidArgumentError, is_whole, quoted

BAR = 25
OFF = 0


def _point(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


@dataclass(frozen=True)
class Step:
    """One checker moved by one die: from `src` to `dst`; `hit` when it hit a blot there."""

    src: int
    dst: int
    hit: bool = field(default=False, compare=False)

    def __post_init__(self) -> None:
        for name in ("src", "dst"):
            value = getattr(self, name)
            if not is_whole(value) or not 0 <= value <= BAR:
                raise InvalidArgumentError(f"a step's {name} is a point 0..25 (0 off, 25 bar), got {quoted(value)}")
            object.__setattr__(self, name, int(value))

    def __str__(self) -> str:
        return f"{_point(self.src)}/{_point(self.dst)}{'*' if self.hit else ''}"

    def __repr__(self) -> str:
        return f"Step({self.src}, {self.dst}{', hit=True' if self.hit else ''})"


@dataclass(frozen=True)
class Move:
    """A whole turn: the roll and its steps in the order played (none when the roll is lost).

    >>> str(Move((6, 5), ((24, 18), (18, 13))))
    '24/13'
    """

    dice: tuple[int, int]
    steps: tuple[Step, ...] = ()

    def __init__(self, dice: tuple[int, int], steps: Any = ()) -> None:
        try:
            d1, d2 = dice
            pieces = [s if isinstance(s, Step) else Step(*s) for s in itertools.islice(steps, 5)]
        except (TypeError, ValueError):
            raise InvalidArgumentError(f"a Move is a roll (d1, d2) and up to four (from, to) steps, got "
                                       f"{quoted(dice)} and {quoted(steps)}") from None
        for d in (d1, d2):  # 0-0: a move whose roll is not known
            if not is_whole(d) or not 0 <= d <= 6:
                raise InvalidArgumentError(f"a Move's dice show 1..6, got {quoted(dice)}")
        if len(pieces) > 4:
            raise InvalidArgumentError(f"a Move has at most four steps, got {quoted(steps)}")
        object.__setattr__(self, "dice", (int(d1), int(d2)))
        object.__setattr__(self, "steps", tuple(pieces))

    def pairs(self) -> tuple[tuple[int, int], ...]:
        """The steps as (from, to) pairs."""
        return tuple((s.src, s.dst) for s in self.steps)

    def __str__(self) -> str:
        """GNU Backgammon's notation: one checker's steps merged (24/13, or 24/18*/13 through a
        hit), sorted by descending source, repeats grouped (13/11(2)); "pass" for a lost roll."""
        if not self.steps:
            return "pass"
        chains: list[list[Step]] = []
        for step in self.steps:
            for chain in chains:
                if chain[-1].dst == step.src and step.src != OFF:
                    chain.append(step)
                    break
            else:
                chains.append([step])
        texts = []
        for chain in sorted(chains, key=lambda c: (-c[0].src, -c[-1].dst)):
            text = _point(chain[0].src)
            for step in chain[:-1]:
                if step.hit:  # an intermediate point is kept only where it hit
                    text += f"/{_point(step.dst)}*"
            texts.append(text + f"/{_point(chain[-1].dst)}{'*' if chain[-1].hit else ''}")
        grouped: list[list[Any]] = []
        for text in texts:
            if grouped and grouped[-1][0] == text:
                grouped[-1][1] += 1
            else:
                grouped.append([text, 1])
        return " ".join(text if n == 1 else f"{text}({n})" for text, n in grouped)

    def plain(self) -> str:
        """Jellyfish's notation (.mat files): every step on its own, in the order played, numbers
        only (25 the bar, 0 off), `*` on a hit: "25/20* 6/0"; "" for a lost roll."""
        return " ".join(f"{s.src}/{s.dst}{'*' if s.hit else ''}" for s in self.steps)

    def __repr__(self) -> str:
        steps = ", ".join(f"({s.src}, {s.dst}{', True' if s.hit else ''})" for s in self.steps)
        return f"Move({self.dice!r}, ({steps}{',' if len(self.steps) == 1 else ''}))"

    def __bool__(self) -> bool:
        return bool(self.steps)


__all__ = ["BAR", "OFF", "Move", "Step"]
