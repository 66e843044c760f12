"""Steps and moves: what a turn plays, in the mover's point numbers (25 = bar, 0 = off)."""

from __future__ import annotations

import functools
import itertools
import struct
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from .errors import InvalidArgumentError, is_unordered, is_whole, quoted

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


class Move:
    """A whole turn: the roll and its steps in the order played (none when the roll is lost).

    >>> str(Move((6, 5), ((24, 18), (18, 13))))
    '24/13'

    Immutable; equal moves have the same dice and the same (from, to) steps (`hit` is not compared).
    A move from `Position.legal_moves` also remembers the position it leads to, so that
    `Position.apply` need not generate again; its steps are made when first asked for.
    """

    __slots__ = ("_dice", "_steps", "_raw", "_child", "_source")
    _dice: tuple[int, int]
    _steps: tuple[Step, ...]
    _raw: bytes | None  # the engine's (from, to) bytes, -1 padded (None: a move built by hand)
    _child: bytes | None  # the board it leads to
    _source: tuple[bytes, Any, bool] | None  # the board it is played from, the rules' codes, last_roll
    __match_args__ = ("dice", "steps")

    def __init__(self, dice: tuple[int, int], steps: Any = ()) -> None:
        try:
            if is_unordered(dice):
                raise TypeError
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
        self._dice = (int(d1), int(d2))
        self._steps = tuple(pieces)
        self._raw = self._child = self._source = None

    @property
    def dice(self) -> tuple[int, int]:
        """The roll (d1, d2)."""
        return self._dice

    @property
    def steps(self) -> tuple[Step, ...]:
        """The steps in the order played."""
        try:
            return self._steps
        except AttributeError:  # made by the engine: the steps from its (from, to) bytes
            source, raw = cast(tuple[bytes, Any, bool], self._source), cast(bytes, self._raw)
            self._steps = _steps_of(_unpack(source[0]), _pairs_of(raw))
            return self._steps

    def pairs(self) -> tuple[tuple[int, int], ...]:
        """The steps as (from, to) pairs."""
        if self._raw is not None:
            return _pairs_of(self._raw)
        return tuple((s.src, s.dst) for s in self._steps)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self._dice == other._dice and self.pairs() == other.pairs()

    def __hash__(self) -> int:
        return hash((self._dice, self.pairs()))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled and copied as a plain move (the remembered result is not carried)."""
        return (Move, (self._dice, self.steps))

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
        return self.pairs() != ()

    @classmethod
    def _made(cls, dice: tuple[int, int], raw: bytes, child: bytes, source: tuple[bytes, Any, bool]) -> Move:
        """A move the engine made, not checked again: `raw` its (from, to) bytes (-1 padded),
        `child` the board it leads to, `source` (the board it is played from, the rules' codes,
        last_roll)."""
        move = _new(cls)
        move._dice = dice
        move._raw = raw
        move._child = child
        move._source = source
        return move

    @classmethod
    def _played(cls, dice: tuple[int, int], view: Sequence[int], pairs: Sequence[tuple[int, int]]) -> Move:
        """A move of the engine's (from, to) `pairs` played from `view`, hits marked, not checked again."""
        move = _new(cls)
        move._dice = dice
        move._steps = _steps_of(view, pairs)
        move._raw = move._child = move._source = None
        return move


_new = object.__new__
_unpack = struct.Struct("26b").unpack


@functools.lru_cache(maxsize=1 << 16)
def _pairs_of(raw: bytes) -> tuple[tuple[int, int], ...]:
    """(from, to) pairs of the core's 8 bytes, -1 padded."""
    return tuple((raw[i], raw[i + 1]) for i in range(0, 8, 2) if raw[i] != 0xFF)


@functools.lru_cache(maxsize=1 << 10)
def _step(src: int, dst: int, hit: bool) -> Step:
    """One shared `Step` per (src, dst, hit): steps are immutable."""
    return Step(src, dst, hit)


def _steps_of(view: Sequence[int], pairs: Sequence[tuple[int, int]]) -> tuple[Step, ...]:
    """The steps of `pairs` played from `view`, each hit marked."""
    board = list(view)
    steps = []
    for src, dst in pairs:
        hit = dst > 0 and board[dst] == -1
        board[src] -= 1
        if dst > 0:
            board[dst] = 1 if hit else board[dst] + 1
        steps.append(_step(src, dst, hit))
    return tuple(steps)


__all__ = ["BAR", "OFF", "Move", "Step"]
