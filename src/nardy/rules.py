"""Variants, colours and the rule options of docs/rules.md, as one immutable `Rules` value."""

from __future__ import annotations

import enum
import numbers
from typing import Any

from .errors import InvalidArgumentError, InvalidPositionError, InvalidRulesError, is_choice
from .errors import quoted as _quoted

NUM_POINTS = 24
CHECKERS = 15


class Variant(enum.Enum):
    """The two games on one board."""

    LONG = "long"
    SHORT = "short"

    @classmethod
    def parse(cls, value: Variant | str, name: str = "variant") -> Variant:
        """`Variant.LONG`, "long", "short" (any case); anything else raises `InvalidRulesError`
        naming the parameter `name`. Every public parameter that takes a variant reads it here."""
        if isinstance(value, Variant):
            return value
        if isinstance(value, str) and value.lower() in ("long", "short"):
            return cls(value.lower())
        raise InvalidRulesError(f"unknown {name} {_quoted(value)}: choose 'long' or 'short'")


class Color(enum.IntEnum):
    """White's numbering is the absolute numbering used for display and files."""

    WHITE = 0
    BLACK = 1

    @property
    def other(self) -> Color:
        return Color(1 - self)

    @classmethod
    def parse(cls, value: Color | str | int, name: str = "colour") -> Color:
        """`Color.WHITE`, 0, "white" (any case), `Color.BLACK`, 1, "black"; anything else (a bool
        too) raises `InvalidArgumentError` naming the parameter `name`. Every public parameter that
        takes a colour reads it here, so every one accepts the same spellings."""
        if isinstance(value, Color):
            return value
        if isinstance(value, str) and value.upper() in cls.__members__:
            return cls[value.upper()]
        if isinstance(value, numbers.Integral) and not isinstance(value, bool) and value in (0, 1):
            return cls(int(value))
        raise InvalidArgumentError(f"unknown colour {_quoted(value)} for {name}: choose Color.WHITE or Color.BLACK (0, 1, 'white', 'black')")


# option name -> (variants it applies to, allowed values, default per variant)
_L, _S = Variant.LONG, Variant.SHORT
_BOOL = (False, True)
OPTIONS: dict[str, tuple[tuple[Variant, ...], tuple[Any, ...], dict[Variant, Any]]] = {
    "head_exception": ((_L,), ("strict", "permission", "none"), {_L: "strict"}),
    "block_rule": ((_L,), ("ahead", "home", "none"), {_L: "ahead"}),
    "block_timing": ((_L,), ("step", "end"), {_L: "step"}),
    "koks": ((_L,), _BOOL, {_L: False}),
    "last_roll_draw": ((_L,), _BOOL, {_L: False}),
    # docs/rules.md 6: how the starter opens; long default "reroll", short default "dice"
    "opening": ((_L, _S), ("reroll", "dice"), {_L: "reroll", _S: "dice"}),
    # docs/rules.md 6: who starts the next game of a match
    "next_starter": ((_L, _S), ("winner", "black", "rolloff"), {_L: "winner", _S: "rolloff"}),
    "cube": ((_S,), _BOOL, {_S: True}),
    "crawford": ((_S,), _BOOL, {_S: True}),
    "jacoby": ((_S,), _BOOL, {_S: False}),
}


class Rules:
    """A variant and every rule option of docs/rules.md, with its defaults.

    >>> Rules(Variant.LONG, block_rule="home")
    Rules('long', block_rule='home')

    Options that do not apply to the variant may only take their default (absent).
    Unknown options and values raise `InvalidRulesError`, naming the valid choices.
    """

    __slots__ = ("variant", "_options", "_key", "_hash")

    variant: Variant
    _options: dict[str, Any]
    _key: tuple[Any, ...]
    _hash: int

    def __init__(self, variant: Variant | str = Variant.LONG, **options: Any) -> None:
        variant = Variant.parse(variant)
        values: dict[str, Any] = {}
        for name, value in options.items():
            if name not in OPTIONS:
                raise InvalidRulesError(
                    f"unknown rule option {name!r}; options are: {', '.join(OPTIONS)}"
                )
            variants, choices, _ = OPTIONS[name]
            if variant not in variants:
                raise InvalidRulesError(
                    f"rule option {name!r} applies to {' and '.join(v.value for v in variants)} nardy only"
                )
            if not is_choice(value, choices) or type(value) is not type(choices[0]):
                raise InvalidRulesError(
                    f"rule option {name}={_quoted(value)} is not valid; choose one of {', '.join(map(repr, choices))}"
                )
            values[name] = value
        for name, (variants, _, defaults) in OPTIONS.items():
            if variant in variants:
                values.setdefault(name, defaults[variant])
        object.__setattr__(self, "variant", variant)
        object.__setattr__(self, "_options", values)
        object.__setattr__(self, "_key", (variant, tuple(sorted(values.items()))))
        object.__setattr__(self, "_hash", hash(self._key))

    def __getattr__(self, name: str) -> Any:
        try:
            return self._options[name]
        except KeyError:
            if name in OPTIONS:
                raise AttributeError(f"rule option {name!r} does not apply to {self.variant.value} nardy") from None
            raise AttributeError(name) from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Rules is immutable; use Rules.replace()")

    def replace(self, **options: Any) -> Rules:
        """A copy with some options changed."""
        return Rules(self.variant, **{**self.non_defaults(), **options})

    def options(self) -> dict[str, Any]:
        """Every option that applies to this variant, with its value."""
        return dict(self._options)

    def non_defaults(self) -> dict[str, Any]:
        return {k: v for k, v in self._options.items() if OPTIONS[k][2][self.variant] != v}

    def describe(self) -> str:
        """The rules in words: "long nardy, default rules" or "long nardy; koks: yes, block rule: home"."""
        changed = [f"{k.replace('_', ' ')}: {('yes' if v else 'no') if isinstance(v, bool) else v}"
                   for k, v in self.non_defaults().items()]
        return f"{self.variant.value} nardy" + (f"; {', '.join(changed)}" if changed else ", default rules")

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Rules) and self._key == other._key)

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        extra = "".join(f", {k}={v!r}" for k, v in self.non_defaults().items())
        return f"Rules({self.variant.value!r}{extra})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rules_from, (self.variant.value, self.non_defaults()))

    @classmethod
    def of(cls, value: Rules | Variant | str, name: str = "rules") -> Rules:
        """A `Rules`, or the default rules of a `Variant` or variant name; anything else raises
        `InvalidArgumentError` naming the parameter `name`. Every public parameter that takes
        rules reads them here."""
        if isinstance(value, Rules):
            return value
        if isinstance(value, (Variant, str)):
            return cls(Variant.parse(value, name))
        raise InvalidArgumentError(f"{name} must be a Rules, a Variant or 'long'/'short', got {_quoted(value)}")


def _rules_from(variant: str, options: dict[str, Any]) -> Rules:
    return Rules(variant, **options)


def own_point(point: int, color: Color, variant: Variant) -> int:
    """Absolute (White's) point number -> `color`'s own point number (and back: it is symmetric)."""
    if color is Color.WHITE:
        return point
    if variant is Variant.LONG:
        return point + 12 if point <= 12 else point - 12
    return 25 - point


def rules_for(variant: Variant, rules: Rules | Variant | str | None) -> Rules:
    """The rules a position of `variant` is played with: `rules`, or the variant's defaults if None;
    `InvalidPositionError` for rules of the other variant."""
    if rules is None:
        return Rules(variant)
    rules = Rules.of(rules)
    if rules.variant is not variant:
        raise InvalidPositionError(f"{variant.value} nardy position played with {rules!r}")
    return rules


__all__ = ["CHECKERS", "NUM_POINTS", "OPTIONS", "Color", "Rules", "Variant", "own_point", "rules_for"]
