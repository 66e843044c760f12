"""Reading moves as players write them (docs/formats.md section 1).

GNU Backgammon's notation (written by `str(Move)`) read leniently, as gnubg's own parser does:
`bar`/`b`/`25`, `off`/`o`/`0`/`-`, with or without `*`, merged (24/13) or step by step (24/18
18/13), grouped (13/11(2)) or not, in any order. The text is resolved to the one legal move of
the roll it denotes. (Position IDs, Match IDs and XGIDs: `nardy.formats.ids`.)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .. import _backend as engine
from ..errors import check_flag, IllegalMoveError, InvalidNotationError, quoted
from ..move import BAR, OFF, Move
from ..rules import Rules, rules_for
from .ids import as_text

if TYPE_CHECKING:
    from ..position import Position

_TOKEN = re.compile(r"^([^()]+)(?:\(([0-9]{1,2})\))?$")  # ASCII digits: str.isdigit and \d take "²"
Chain = tuple[list[int], set[int]]  # the points a checker passes, and those marked as hit


def _point(text: str, whole: str) -> int:
    word = text.strip().lower()
    if word.startswith("b"):
        return BAR
    if word.startswith("o") or word == "-":
        return OFF
    if re.fullmatch(r"[0-9]{1,2}", word) and int(word) <= 25:
        return int(word)
    raise InvalidNotationError(f"{quoted(text)} is not a point (1..24, bar, off) in {quoted(whole)}")


def parse_chains(text: str) -> list[Chain]:
    """The checker paths a move text names: each a list of points, with the points marked `*`."""
    if as_text(text, "a move").strip().lower() in ("", "pass"):
        return []
    chains: list[Chain] = []
    for token in text.replace(",", " ").split():
        match = _TOKEN.match(token)
        if not match or match[1].startswith("/") or match[1].endswith("/") or "/" not in match[1]:
            raise InvalidNotationError(f"cannot read {quoted(token)} in {quoted(text)}: write moves like 24/18 or 13/11(2)")
        count = int(match[2] or 1)
        if count > 4:
            raise InvalidNotationError(f"{quoted(token)} moves more than four checkers in {quoted(text)}")
        if count < 1:
            raise InvalidNotationError(f"{quoted(token)} moves no checker in {quoted(text)}: a count (n) is 1..4")
        parts = match[1].split("/")
        points = [_point(part.replace("*", ""), text) for part in parts]
        hits = {p for part, p in zip(parts, points) if "*" in part and p != OFF}
        for _ in range(count):
            chains.append((points, hits))
        if len(chains) > 4 and sum(len(p) - 1 for p, _ in chains) > 4:
            raise InvalidNotationError(f"more than four steps in {quoted(text)}")
    return chains


def _net(pairs: Sequence[tuple[int, int]]) -> Counter[int]:
    """Where checkers left minus where they arrived (one checker passing through cancels)."""
    net: Counter[int] = Counter()
    for src, dst in pairs:
        net[src] += 1
        net[dst] -= 1
    return Counter({point: n for point, n in net.items() if n})


def resolve(position: Position, text: str, dice: Sequence[int], rules: Rules | None = None,
            backend: str | None = None, last_roll: bool = False) -> Move:
    """The legal move of `dice` from `position` that `text` denotes.

    The text denotes the legal plays that move the checkers it names (the net movement) and
    land on every point it names, in the order each of its paths gives; a `*` narrows them to
    plays that hit there. Of what remains, a play that hits on a point the text does not name
    is meant only if nothing else remains ("24/13" is the play that hits nothing on the way,
    if there is one; canonical text shows an intermediate hit, "24/18*/13").

    Raises `InvalidNotationError` (unreadable, or two plays remain), `IllegalMoveError`
    (readable but not a legal play of this roll), and the errors of `Position.legal_moves`.
    """
    chains = parse_chains(text)
    wanted = _net([(p[i], p[i + 1]) for p, _ in chains for i in range(len(p) - 1)])
    paths = [p[1:] for p, _ in chains]  # the points each path lands on, in its order
    mentioned = {q for p, _ in chains for q in p[1:]}
    starred = set().union(*(h for _, h in chains)) if chains else set()
    rules = rules_for(position.variant, rules)
    if last_roll is not False:
        last_roll = check_flag(last_roll, "last_roll")
    board = position.view()
    results = engine.results(position.to_bytes(), dice, rules, backend, last_roll)
    grouped: dict[bytes, list[engine.Pairs]] | None = None
    remaining: list[tuple[bytes, set[int]]] = []
    for child, pairs in results:
        if _net(pairs) != wanted:
            continue
        after = engine.as_ints(child)
        hit = {q for q in range(1, 25) if board[q] == -1 and after[q] >= 0}  # blots that were hit
        if not starred <= hit:
            continue
        if not _lands(pairs, paths):  # another order of the same play may land there
            if grouped is None:
                grouped = engine.sequences(position.to_bytes(), dice, rules, backend, last_roll)
            if not any(_lands(other, paths) for other in grouped[child]):
                continue
        remaining.append((child, hit))
    found = [child for child, hit in remaining if hit <= mentioned] or [child for child, _ in remaining]
    if not found:
        raise IllegalMoveError(f"{text!r} is not a legal play of {dice[0]}-{dice[1]} in {position!r}")
    by_child = dict(results)
    if len(found) > 1:
        options = " or ".join(str(position.move(dice, by_child[child])) for child in found)
        raise InvalidNotationError(f"{text!r} is ambiguous with {dice[0]}-{dice[1]}: {options}")
    return position.move(dice, by_child[found[0]])  # the representative, as legal_moves gives it


def _lands(pairs: Sequence[tuple[int, int]], paths: Sequence[Sequence[int]]) -> bool:
    """Does the sequence land on every point of every path, each path's points in its order?"""
    landings = [dst for _, dst in pairs]
    for path in paths:
        rest = iter(landings)
        if not all(any(q == dst for dst in rest) for q in path):
            return False
    return True


__all__ = ["parse_chains", "resolve"]
