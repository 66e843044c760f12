"""Exact race analysis: the one-sided bear-off table, race odds and the table's best play.

Once the sides have passed each other a game is a race decided by the dice. For every
distribution of up to 15 checkers over a side's six home points (54,264 states) the table
holds the exact probability of needing k turns to bear them all off, playing each roll to
minimise the expected turns, and the same for the turns to the *first* checker off (how a side
that may lose a gammon / mars plays). One table serves both variants: bearing off (docs/rules.md
section 3) is the same in both, and in a pure race neither hitting nor the six-block rule can
matter (a side's home checkers only move down or off, and with the other side all in its own
home, the other's checkers stand ahead of any block).

The table is built in the compiled core (about a second) the first time it is needed, then
cached in ``$NARDY_CACHE_DIR``, else ``$XDG_CACHE_HOME/nardy``, else ``~/.cache/nardy``, as
``bearoff.bin``: a header (magic, format version, sizes, a sha256 of the other header fields and
the payload) and the float64 arrays. A missing, corrupt, truncated or outdated file, or one that
is not a regular file or is larger than `MAX_FILE_BYTES`, is rebuilt and replaced atomically,
never trusted. If the cache cannot be written, the built table is kept for the process (with
one warning).

Exact odds assume both sides play to minimise their expected turns, and for gammons that the
side that may be gammoned plays to bear off its first checker as fast as possible (on average);
they are exact under those policies, which GNU Backgammon's one-sided databases also assume.
"""

from __future__ import annotations

import hashlib
import os
import struct
import tempfile
import threading
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, NoReturn

import numpy as np
import numpy.typing as npt

from .. import _backend as engine, files
from .. import batch, reference
from ..errors import (GameOverError, InvalidArgumentError, InvalidNotationError, InvalidPositionError, check_choice,
                     check_flag, is_whole)
from ..move import Move
from ..position import Position
from ..rules import CHECKERS, Rules, Variant, rules_for

STATES = 54264            # C(21, 6): 0..15 checkers over six points
FORMAT_VERSION = 2        # 2: the checksum covers the header's fields too
MAGIC = b"NARDYBO\x00"
FILE_NAME = "bearoff.bin"
PIPS_PER_TURN = 49 / 6    # the mean pips of a roll (a double counts four times)
TIE = 1e-9                # expected turns closer than this are a tie (as in the core)
_HEADER = struct.Struct("<8sIIII32s")  # magic, version, states, turn columns, first-off columns, sha256
_FIELDS = struct.Struct("<8sIIII")       # the header before its sha256, which covers these and the payload
MAX_FILE_BYTES = _HEADER.size + 8 * STATES * (2 + 2 * 128)  # a larger file is not read (about 112 MB)

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class BearoffTable:
    """The one-sided bear-off table.

    turns[s, k]: the probability that state s needs exactly k turns to bear off every checker;
    mean[s] its expectation; first[s, k] and first_mean[s] the same for the turns until at least
    one checker is off. States are numbered by `index` (see cython/nardy/_bearoff.pxd).
    `source` is "cache" or "built"; `reason` says why it was built.
    """

    turns: Floats
    mean: Floats
    first: Floats
    first_mean: Floats
    source: str = "built"
    reason: str = ""
    path: Path | None = field(default=None, repr=False)

    @staticmethod
    def index(counts: Sequence[int]) -> int:
        """The state of six home counts (points 1..6), e.g. ``index((2, 0, 0, 0, 0, 0))``."""
        values = _home(counts)
        return int(engine.compiled.bearoff_indices(_board_rows([values]), 0, 1)[0])

    @staticmethod
    def counts(index: int) -> tuple[int, ...]:
        """The six home counts (points 1..6) of a state."""
        if not is_whole(index) or not 0 <= index < STATES:
            raise InvalidArgumentError(f"a bear-off state is a whole number 0..{STATES - 1}, got {index!r}")
        return tuple(engine.compiled.board_of(int(index)))

    @cached_property
    def at_least(self) -> Floats:
        """(STATES, K + 1): P(turns >= k) for k = 0..K."""
        return _survival(self.turns)

    @cached_property
    def first_at_least(self) -> Floats:
        """(STATES, K' + 1): P(turns to the first checker off >= k)."""
        return _survival(self.first)

    @cached_property
    def variance(self) -> Floats:
        """(STATES,): the variance of the turns to bear off."""
        k = np.arange(self.turns.shape[1])
        variance: Floats = (self.turns * k * k).sum(axis=1) - self.mean ** 2
        return variance


def _survival(p: Floats) -> Floats:
    tail = np.cumsum(p[:, ::-1], axis=1)[:, ::-1]
    return np.ascontiguousarray(np.concatenate([tail, np.zeros((len(p), 1))], axis=1))


# the cache -------------------------------------------------------------------------------------
def cache_path() -> Path:
    """Where the table is cached: $NARDY_CACHE_DIR, else $XDG_CACHE_HOME/nardy, else ~/.cache/nardy."""
    explicit = os.environ.get("NARDY_CACHE_DIR")
    if explicit:
        return Path(explicit) / FILE_NAME
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "nardy" / FILE_NAME


class _Unusable(InvalidNotationError):
    """A file that is not a usable bear-off table (the message says why); `ours`: it is one of
    nardy's tables, of another version or damaged."""

    def __init__(self, message: str, ours: bool = False) -> None:
        super().__init__(message)
        self.ours = ours


_LOCK = threading.Lock()
# per path: the file's (mtime, size) when read or written, or None for a table that could not be
# written (kept for the process while the file stays missing), and the table
_LOADED: dict[Path, tuple[tuple[int, int] | None, BearoffTable]] = {}


def build() -> BearoffTable:
    """Build the table in the compiled core (no cache involved)."""
    turns, mean, first, first_mean = engine.compiled.build_bearoff(engine.core_rules(Rules(Variant.SHORT)))
    return BearoffTable(turns, mean, first, first_mean)


def load(path: str | Path | None = None, *, rebuild: bool = False) -> BearoffTable:
    """The table: read from `path` (default `cache_path()`), or built and written there when the
    file is missing, corrupt, truncated or of another format version (or `rebuild` is set). A
    file that is not a nardy table at all is replaced only if it is named `FILE_NAME` (the
    cache's own name); any other is refused with `InvalidArgumentError`, never overwritten.
    A table read once is reused while its file is unchanged. If the file cannot be written the
    table is still returned (its `reason` says so), with a `RuntimeWarning`, and kept for this
    process: it is not built again while the file stays missing."""
    rebuild = check_flag(rebuild, "rebuild")
    if path is not None:
        files.check_path(path, "the table's cache is")
    path = Path(path) if path is not None else cache_path()
    with _LOCK:
        stamp = _stamp(path)
        known = _LOADED.get(path)
        if known is not None and known[0] == stamp and not rebuild:
            return known[1]
        reason = "rebuild requested"
        if not rebuild:
            try:
                table = read(path)
                _LOADED[path] = (stamp, table)
                return table
            except FileNotFoundError:
                reason = "no cache file"
            except _Unusable as exc:
                if not exc.ours and path.name != FILE_NAME:  # someone else's file: never replaced
                    raise InvalidArgumentError(f"{path} is not a nardy bear-off table ({exc}): it is not replaced; "
                                               f"give a path of its own (a file named {FILE_NAME}) or remove it") from None
                reason = str(exc)
            except OSError as exc:
                reason = str(exc)
        built = build()
        unwritable = None
        try:
            write(path, built)
        except OSError as exc:
            unwritable = exc
            reason += f"; not cached: {exc}"
        table = BearoffTable(built.turns, built.mean, built.first, built.first_mean, "built", reason, path)
        _LOADED[path] = (_stamp(path), table)
        if unwritable is not None:
            warnings.warn(f"the bear-off table could not be cached at {path} ({unwritable}); it is kept in "
                          "memory for this process", RuntimeWarning, stacklevel=2)
        return table


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size)


def read(path: str | Path) -> BearoffTable:
    """Read a cached table, checking its magic, version, sizes and sha256 (raises if unusable).

    Only a regular file of at most MAX_FILE_BYTES is read: a FIFO, a device or a directory
    named like the cache is refused at once (it is opened without blocking)."""
    files.check_path(path, "a table is read from")
    path = Path(path)
    data = _read_regular(path)
    if len(data) < _HEADER.size:
        raise _Unusable(f"truncated: {len(data)} bytes, less than the header", MAGIC.startswith(data[:len(MAGIC)]))
    magic, version, states, k_turns, k_first, digest = _HEADER.unpack_from(data)
    if magic != MAGIC:
        raise _Unusable("not a nardy bear-off table (bad magic)")
    if version != FORMAT_VERSION:
        raise _Unusable(f"format version {version}, this nardy reads version {FORMAT_VERSION}", True)
    if states != STATES or not 0 < k_turns < 256 or not 0 < k_first < 256:
        raise _Unusable(f"bad sizes in the header: {states} states, {k_turns} and {k_first} columns", True)
    expected = _HEADER.size + 8 * STATES * (2 + k_turns + k_first)
    if len(data) != expected:
        raise _Unusable(f"truncated or padded: {len(data)} bytes, expected {expected}", True)
    payload = memoryview(data)[_HEADER.size:]
    if _digest(data[:_FIELDS.size], payload) != digest:
        raise _Unusable("checksum mismatch: the file is corrupt", True)
    values = np.frombuffer(data, "<f8", offset=_HEADER.size)
    mean, first_mean = values[:STATES], values[STATES:2 * STATES]
    turns = values[2 * STATES:(2 + k_turns) * STATES].reshape(STATES, k_turns)
    first = values[(2 + k_turns) * STATES:].reshape(STATES, k_first)
    return BearoffTable(turns, mean, first, first_mean, "cache", "", path)


def _read_regular(path: Path) -> bytes:
    """The bytes of a regular file of at most MAX_FILE_BYTES (else `_Unusable`)."""
    with files.open_regular(path, _Unusable) as f:
        size = os.fstat(f.fileno()).st_size
        if size > MAX_FILE_BYTES:
            raise _Unusable(f"{size} bytes, more than a bear-off table's {MAX_FILE_BYTES}")
        data = f.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise _Unusable(f"more than a bear-off table's {MAX_FILE_BYTES} bytes")
    return data


def _digest(fields: bytes, payload: bytes | memoryview) -> bytes:
    """The sha256 of the header's fields (all that decides how the payload is read) and the payload."""
    h = hashlib.sha256(fields)
    h.update(payload)
    return h.digest()


def write(path: str | Path, table: BearoffTable) -> None:
    """Write a table atomically (a temporary file in the same directory, then a rename)."""
    if not isinstance(table, BearoffTable):
        raise InvalidArgumentError(f"write() writes a BearoffTable, got {table!r}")
    files.check_path(path, "a table is written to")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    parts = [np.ascontiguousarray(a, "<f8") for a in (table.mean, table.first_mean, table.turns, table.first)]
    payload = b"".join(a.tobytes() for a in parts)
    fields = _FIELDS.pack(MAGIC, FORMAT_VERSION, STATES, table.turns.shape[1], table.first.shape[1])
    header = fields + _digest(fields, payload)
    fd, temp = tempfile.mkstemp(prefix=".bearoff-", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(header)
            f.write(payload)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise


# one-sided lookups over batches ----------------------------------------------------------------
def indices(views: Any, *, side: str = "mover", variant: Variant | str = Variant.SHORT) -> npt.NDArray[np.int32]:
    """(n,) int32: each row's home state of the mover, or (side="opponent") of the opponent,
    whose home is the mover's 19..24 in short nardy and 13..18 in long nardy.

    Raises `InvalidPositionError` naming the first row where that side has a checker outside
    its home or on the bar, or more than 15 checkers.
    """
    boards = batch.as_boards(views)
    check_choice(side, "side", ("mover", "opponent"))
    variant = Variant.parse(variant)
    found: npt.NDArray[np.int32] = engine.compiled.bearoff_indices(boards, 0 if side == "mover" else 1, 0 if variant is Variant.LONG else 1)
    bad = np.nonzero(found < 0)[0]
    if bad.size:
        row = int(bad[0])
        _raise_outside(row, int(found[row]), side, boards[row])
    return found


def _raise_outside(row: int, code: int, side: str, board: Any) -> NoReturn:
    whose = "the mover has" if side == "mover" else "the opponent has"
    if code == -2:
        raise InvalidPositionError(f"row {row}: {whose} more than {CHECKERS} checkers: {board.tolist()}")
    raise InvalidPositionError(f"row {row}: {whose} a checker outside its home (points 1..6) or on the bar, "
                               f"so the bear-off table does not apply: {board.tolist()}")


def expected_turns(views: Any) -> Floats:
    """(n,) float64: the exact expected turns each row's mover needs to bear off (its checkers
    must all be on points 1..6; the opponent's are ignored). Raises `InvalidPositionError`."""
    boards = batch.as_boards(views)
    code, bad, out = engine.compiled.expected_turns(boards, load().mean)
    if out is None:  # (None only with a nonzero code)
        _raise_outside(bad, code, "mover", boards[bad])
    return out


def turn_distribution(views: Any) -> Floats:
    """(n, K) float64: P(k turns) for k = 0..K-1 of each row's mover (checkers all home)."""
    return load().turns[indices(views)]


def race_probabilities(views: Any, variant: Variant | str) -> Floats:
    """(n, 3) float64 per row, for the side on roll: P(win), P(win a gammon / mars), P(lose a
    gammon / mars), exact, with both sides' checkers all in their homes (else
    `InvalidPositionError` naming the row)."""
    table = load()
    mine = indices(views, side="mover", variant=variant)
    theirs = indices(views, side="opponent", variant=variant)
    return _odds(table, mine, theirs)


def _odds(table: BearoffTable, mine: npt.NDArray[np.int32], theirs: npt.NDArray[np.int32]) -> Floats:
    return _combine_rows(table.turns[mine], table.turns[theirs], table.at_least[theirs], table.first_at_least[theirs],
                         table.first_at_least[mine], _left(mine) == CHECKERS, _left(theirs) == CHECKERS)


def _combine_rows(p_mine: Floats, p_theirs: Floats, s_theirs: Floats, first_s_theirs: Floats, first_s_mine: Floats,
                  full_mine: npt.NDArray[np.bool_], full_theirs: npt.NDArray[np.bool_]) -> Floats:
    """(n, 3): P(win), P(win a gammon), P(lose a gammon) of the side on roll in each row, from
    independent turn distributions: p_* P(k turns), s_* P(turns >= k) and first_s_* the same
    for the first checker off (each ending in a 0 column, so that what lies beyond is 0). The
    side on roll wins when it needs no more turns than the other, since it rolls first, and
    wins a gammon when the other needed at least as many for its first checker; a side that
    has borne off some cannot lose one (`full_*` says who has not)."""
    def dot(a: Floats, b: Floats) -> Floats:  # row by row, over the columns both have
        k = min(a.shape[1], b.shape[1])
        product: Floats = np.einsum("ij,ij->i", a[:, :k], b[:, :k])
        return product

    win = np.clip(dot(p_mine, s_theirs), 0.0, 1.0)  # a sure win summed to 1 + 2e-16
    win_gammon = np.clip(dot(p_mine, first_s_theirs) * full_theirs, 0.0, win)
    lose_gammon = np.clip(dot(p_theirs, first_s_mine[:, 1:]) * full_mine, 0.0, 1.0 - win)
    return np.column_stack([win, win_gammon, lose_gammon])


_LEFT: npt.NDArray[np.int8] | None = None


def _left(states: npt.NDArray[np.int32]) -> npt.NDArray[np.int8]:
    """Checkers left in each state (b_6 = n + 5: the state's top combination element)."""
    global _LEFT
    if _LEFT is None:
        from math import comb

        tops = np.array([comb(n + 5, 6) for n in range(CHECKERS + 2)])  # first index with n checkers
        _LEFT = (np.searchsorted(tops, np.arange(STATES), side="right") - 1).astype(np.int8)
    return _LEFT[states]


def _home(counts: Sequence[int]) -> list[int]:
    try:
        values = list(counts) if not isinstance(counts, (str, bytes)) else None
    except TypeError:  # not a sequence at all
        values = None
    if values is None or len(values) != 6 or any(not is_whole(c) or c < 0 for c in values):
        raise InvalidPositionError(f"home counts are six whole numbers >= 0 (points 1..6), got {counts!r}")
    if sum(values) > CHECKERS:
        raise InvalidPositionError(f"home counts hold at most {CHECKERS} checkers, got {sum(values)} in {counts!r}")
    return [int(c) for c in values]


def _board_rows(homes: Sequence[Sequence[int] | npt.NDArray[Any]]) -> npt.NDArray[np.int8]:
    boards = np.zeros((len(homes), 26), np.int8)
    for i, home in enumerate(homes):
        boards[i, 1:7] = home
    return boards


# positions ---------------------------------------------------------------------------------------
def _checked(position: Position) -> Position:
    if not isinstance(position, Position):
        raise InvalidArgumentError(f"a race is judged on a Position, got {position!r}")
    return position


def _sides(position: Position) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Each side's checkers on its own points 1..24 and bar (index 25), index 0 unused: (mover, opponent)."""
    _checked(position)
    view = np.array(position.view(), np.int64)
    other = np.array(reference.flip(position.view(), position.variant), np.int64)
    return np.maximum(view, 0), np.maximum(other, 0)


def home_counts(position: Position) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None]:
    """(mover's, opponent's) checkers on their own home points 1..6, each None if that side has
    a checker outside its home or on the bar. In the mover's-view array the opponent's home is
    the mover's 19..24 in short nardy and 13..18 in long nardy."""
    return tuple(  # type: ignore[return-value]
        None if side[7:].any() else tuple(int(n) for n in side[1:7]) for side in _sides(position)
    )


def is_race(position: Position) -> bool:
    """Have the sides passed each other, so that neither can ever block or hit the other?

    Short nardy: no checker on a bar and every mover's checker below every opponent's
    (mover's numbers). Long nardy, where both sides run the same way round: each side's
    checkers all on its own points 1..12 (an opponent checker on the mover's 1..12 would still
    pass the mover's home, and a mover's checker above 12 would have to pass the opponent's).
    """
    view = _checked(position).view()
    mine = [p for p in range(1, 26) if view[p] > 0]
    theirs = [p for p in range(0, 25) if view[p] < 0]
    if not mine or not theirs:
        return True
    if position.variant is Variant.SHORT:
        return view[0] == 0 and view[25] == 0 and max(mine) < min(theirs)
    return max(mine) <= 12 and min(theirs) >= 13


@dataclass(frozen=True)
class RaceOdds:
    """A race seen by the side on roll. `win_gammon`: it wins and the loser has borne off none
    (gammon or backgammon; mars or koks); `lose_gammon` the same the other way. `exact` when
    both sides are inside the bear-off table; otherwise `method` names the approximation.
    pips, expected_turns and effective_pips (expected turns x 49/6) are (on roll, opponent)."""

    win: float
    win_gammon: float
    lose_gammon: float
    exact: bool
    method: str
    pips: tuple[int, int]
    expected_turns: tuple[float, float]
    effective_pips: tuple[float, float]

    @property
    def lose(self) -> float:
        return 1.0 - self.win


def race_odds(position: Position) -> RaceOdds:
    """The odds of a race for the side on roll: exact when both sides' checkers are all home
    (the bear-off table), else approximated (see `effective_pips`), with `exact` False.

    Raises `InvalidPositionError` if the sides have not passed each other (`is_race`) and
    `GameOverError` if the game is over.
    """
    if not isinstance(position, Position):
        raise InvalidArgumentError(f"race_odds takes a Position, got {position!r}")
    if position.is_game_over():
        raise GameOverError(f"the game is over in {position!r}")
    if not is_race(position):
        raise InvalidPositionError(f"not a race: the sides have not passed each other in {position!r}")
    table = load()
    sides = _sides(position)
    found = [_side(table, side, position.variant) for side in sides]
    (p_mine, f_mine, exact_mine), (p_theirs, f_theirs, exact_theirs) = found
    win, win_gammon, lose_gammon = _combine(p_mine, f_mine, p_theirs, f_theirs,
                                            sides[0].sum() == CHECKERS, sides[1].sum() == CHECKERS)
    exact = exact_mine and exact_theirs
    if exact:
        method = "exact: one-sided bear-off table, both sides"
    else:
        count = "Keith-style count" if position.variant is Variant.SHORT else "long nardy count"
        method = (f"approximate: {count} for a side outside the table, turns taken as normal "
                  f"(win probability error: {APPROXIMATION_ERROR[position.variant]})")
    turns = tuple(float((p * np.arange(len(p))).sum()) for p in (p_mine, p_theirs))
    pips = tuple(int((side * np.arange(26)).sum()) for side in sides)
    return RaceOdds(float(win), float(win_gammon), float(lose_gammon), exact, method, pips,  # type: ignore[arg-type]
                    turns, tuple(PIPS_PER_TURN * t for t in turns))  # type: ignore[arg-type]


def _side(table: BearoffTable, side: npt.NDArray[np.int64], variant: Variant) -> tuple[Floats, Floats, bool]:
    """A side's turn distributions (to bear off all, to the first checker off), and whether exact."""
    if not side[7:].any():
        state = int(engine.compiled.bearoff_indices(_board_rows([side[1:7]]), 0, 1)[0])
        return table.turns[state], table.first[state], True
    mean = effective_pips_of(side, variant) / PIPS_PER_TURN
    model = MODELS[variant]
    first = model.first_base + model.first_cross * _crossover(side) / PIPS_PER_TURN + model.first_outside * side[7:].sum()
    return (_normal(mean, model.var_base + model.var_slope * mean),
            _normal(first, model.first_var_base + model.first_var_slope * first), False)


def _normal(mean: float, variance: float, support: int = 128) -> Floats:
    """A normal number of turns, discretised to k = 1, 2, ... (k < 1.5 all at 1)."""
    from math import erf, sqrt

    sd = sqrt(max(variance, 0.05))
    cdf = np.array([0.5 * (1 + erf((k + 0.5 - mean) / (sd * sqrt(2)))) for k in range(support)])
    p: Floats = np.diff(np.concatenate([[0.0], cdf]))
    p[1] += p[0]
    p[0] = 0.0
    return p / float(p.sum())


def _combine(p_mine: Floats, f_mine: Floats, p_theirs: Floats, f_theirs: Floats, full_mine: bool,
             full_theirs: bool) -> tuple[float, float, float]:
    """`_combine_rows` for one race, from its four distributions."""
    row = _combine_rows(p_mine[None], p_theirs[None], _survival(p_theirs[None]), _survival(f_theirs[None]),
                        _survival(f_mine[None]), np.array([full_mine]), np.array([full_theirs]))[0]
    return float(row[0]), float(row[1]), float(row[2])


def best_plays(position: Position, dice: Sequence[int], rules: Rules | None = None) -> list[Move]:
    """The legal plays of `dice` that minimise the mover's expected turns to bear off, by the
    table: every play within 1e-9 turns of the least, the table's own choice (the lowest state)
    first. The mover's checkers must all be home (`InvalidPositionError` otherwise); the
    opponent's checkers only limit which plays are legal."""
    if not isinstance(position, Position):
        raise InvalidArgumentError(f"best_plays takes a Position, got {position!r}")
    if home_counts(position)[0] is None:
        raise InvalidPositionError(f"the mover has a checker outside its home, so the bear-off table does not apply: {position!r}")
    rules = rules_for(position.variant, rules)
    found = engine.results(position.to_bytes(), dice, rules)
    children = np.frombuffer(b"".join(child for child, _ in found), np.int8).reshape(-1, 26)
    states = engine.compiled.bearoff_indices(children, 0, 1)
    means = load().mean[states]
    order = sorted((m, s, i) for i, (m, s) in enumerate(zip(means.tolist(), states.tolist())) if m <= means.min() + TIE)
    return [position.move(tuple(dice), found[i][1]) for _, _, i in sorted(order, key=lambda t: t[1])]


# approximations outside the table ----------------------------------------------------------------
@dataclass(frozen=True)
class Model:
    """The fitted approximation of one variant (see benchmarks/race_approximation.py).

    Effective pips = pips + base + checkers * n + ones * (c1 - 1)+ + twos * (c2 - 1)+
    + threes * (c3 - 3)+ + gaps * (empty points among 4..6) + outside * (checkers above 6);
    expected turns = effective pips / (49/6); their variance = var_base + var_slope * turns.
    Turns to the first checker off = first_base + first_cross * crossover / (49/6)
    + first_outside * (checkers above 6), where crossover = sum of (point - 6) over checkers
    above 6; variance first_var_base + first_var_slope * that.
    """

    base: float
    checkers: float
    ones: float
    twos: float
    threes: float
    gaps: float
    outside: float
    var_base: float
    var_slope: float
    first_base: float
    first_cross: float
    first_outside: float
    first_var_base: float
    first_var_slope: float

    def effective_pips(self, side: npt.NDArray[np.int64]) -> float:
        """The estimate for one side: counts on its own points, index 1..24, bar at 25."""
        c = side
        gaps = int((c[4:7] == 0).sum())
        return float((c * np.arange(26)).sum() + self.base + self.checkers * c[1:].sum()
                     + self.ones * max(c[1] - 1, 0) + self.twos * max(c[2] - 1, 0)
                     + self.threes * max(c[3] - 3, 0) + self.gaps * gaps + self.outside * c[7:].sum())


def _keith_style(base: float, weight: float, **rest: float) -> Model:
    """Keith's count (2 per checker beyond one on the 1-point, 1 per checker beyond one on the
    2-point and beyond three on the 3-point, 1 per empty 4-, 5- or 6-point) as effective pips."""
    return Model(base=base, checkers=0.0, ones=2 * weight, twos=weight, threes=weight, gaps=weight, outside=0.0, **rest)


# fitted by benchmarks/race_approximation.py (one-sided rollouts of race positions from greedy self-play)
MODELS: dict[Variant, Model] = {
    Variant.SHORT: _keith_style(7.031, 1.124, var_base=-1.722, var_slope=0.327, first_base=0.848, first_cross=0.911,
                                first_outside=0.265, first_var_base=-0.172, first_var_slope=0.215),
    Variant.LONG: Model(base=0.04, checkers=0.593, ones=2.039, twos=1.161, threes=0.906, gaps=0.991, outside=-0.359,
                        var_base=-1.583, var_slope=0.307, first_base=0.933, first_cross=0.653, first_outside=0.278,
                        first_var_base=-0.211, first_var_slope=0.213),
}

# measured by benchmarks/race_approximation.py: 200 held-out races per variant (at least one
# side outside the table) against 10,000 rollouts each (rollout standard error 0.2 points)
APPROXIMATION_ERROR: dict[Variant, str] = {
    Variant.SHORT: "mean 1.0 points, rms 1.7, worst 8 of 200 races checked by rollouts",
    Variant.LONG: "mean 1.2 points, rms 2.3, worst 13 of 200 races checked by rollouts",
}


def effective_pips_of(side: npt.NDArray[np.int64], variant: Variant) -> float:
    """One side's effective pips (counts on its own points 1..24, bar at 25): exact from the
    table when all its checkers are home, else the variant's fitted count (`MODELS`)."""
    if not side[7:].any():
        state = int(engine.compiled.bearoff_indices(_board_rows([side[1:7]]), 0, 1)[0])
        return PIPS_PER_TURN * float(load().mean[state])
    return MODELS[variant].effective_pips(side)


def effective_pips(position: Position) -> tuple[float, float]:
    """(mover's, opponent's) effective pip counts: the expected turns to bear off times 49/6,
    exact for a side whose checkers are all home, else estimated by `MODELS[variant]`."""
    return tuple(effective_pips_of(side, position.variant) for side in _sides(position))  # type: ignore[return-value]


def _crossover(side: npt.NDArray[np.int64]) -> int:
    """Pips that a side's checkers above its 6-point need just to reach its home."""
    points = np.arange(26)
    return int((np.maximum(points - 6, 0) * side).sum())


__all__ = [
    "BearoffTable", "MAX_FILE_BYTES", "RaceOdds", "STATES", "best_plays", "build", "cache_path",
    "effective_pips", "expected_turns", "indices", "is_race", "load", "race_odds", "race_probabilities",
    "read", "turn_distribution", "write",
]
