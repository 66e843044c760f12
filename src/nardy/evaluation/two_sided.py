"""The two-sided bear-off table: exact cubeless and cubeful money equities of short nardy
bear-offs with at most six checkers a side, all on their home points (924 states a side).

For every pair of states (the side on roll's, the other's) the table holds four equities of the
side on roll per cube unit before it rolls, each the value of *not* doubling now (the cube
actions after that taken at their best): cubeless, with the cube owned by the side on roll,
centred, and owned by the other side. They come from a dynamic programme over the 21 rolls, in
the order of the two sides' pip counts: each roll is played to the best result for each cube
state apart, and a side that may double does so when double/take and double/pass are both worth
at least no double (the other side then takes or passes, whichever is worth less to the doubler).
No gammon can happen (at least nine checkers are off), so the Jacoby rule changes nothing. This is
the table GNU Backgammon computes for the same endings (its "Bearoff2" class, six checkers on six
points), and prices their money cube decisions by.

The table takes a few seconds to compute; it is then cached (float64, with a sha256 of its
contents) beside the one-sided table's cache (`bearoff.cache_path()`), as `FILE_NAME`. A missing,
damaged or outdated file is computed again and replaced whole; if it cannot be written, the
table is kept for the process.
"""

from __future__ import annotations

import hashlib
import itertools
import struct
import threading
from pathlib import Path
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from .. import batch, files
from ..errors import InvalidPositionError
from ..rules import Rules
from .bearoff import cache_path as _one_sided_path

__all__ = ["CENTRED", "CUBELESS", "FILE_NAME", "OTHER_OWNS", "OWNED", "STATES", "covers", "equities", "build",
           "load"]

CUBELESS, OWNED, CENTRED, OTHER_OWNS = 0, 1, 2, 3   # the table's columns
POINTS = CHECKERS = 6
FILE_NAME = "two_sided.bin"
MAGIC = b"NARDYTS\x00"
FORMAT_VERSION = 1
_HEADER = struct.Struct("<8sII32s")   # magic, version, states, sha256 of the payload
_ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
_WEIGHTS = np.array([1 if a == b else 2 for a, b in _ROLLS], np.float64) / 36

Floats = npt.NDArray[np.float64]

# the states: checkers on points 1..6, at most six, ordered by pip count (the empty one first)
_STATE_LIST = sorted((s for s in itertools.product(range(CHECKERS + 1), repeat=POINTS) if sum(s) <= CHECKERS),
                     key=lambda s: (sum((i + 1) * n for i, n in enumerate(s)), s))
STATES = len(_STATE_LIST)             # 924
_STATE_ARRAY = np.array(_STATE_LIST, np.int64)
_BASE = (CHECKERS + 1) ** np.arange(POINTS)
_INDEX = np.full((CHECKERS + 1) ** POINTS, -1, np.int64)
_INDEX[_STATE_ARRAY @ _BASE] = np.arange(STATES)


def covers(view: Any) -> bool:
    """Whether a short nardy board (26 values, the mover's view) is in the table: both sides
    home with one to six checkers each, none on the bar. Raises `InvalidPositionError` for
    what is not a board."""
    v = batch.as_boards([view])[0]
    mine, theirs = v[1:7], -v[24:18:-1]
    return bool(not v[7:19].any() and v[0] == 0 and v[25] == 0 and (mine >= 0).all() and (theirs >= 0).all()
            and 0 < mine.sum() <= CHECKERS and 0 < theirs.sum() <= CHECKERS)


def equities(view: Any) -> Floats:
    """The four equities (`CUBELESS`, `OWNED`, `CENTRED`, `OTHER_OWNS`) of the side on roll of a
    board that `covers` accepts (`InvalidPositionError` for any other)."""
    if not covers(view):
        raise InvalidPositionError(f"not a two-sided bear-off of one to six checkers a side, both home: "
                                   f"{batch.as_boards([view])[0].tolist()}")
    v = batch.as_boards([view])[0].astype(np.int64)
    mine, theirs = _INDEX[v[1:7] @ _BASE], _INDEX[-v[24:18:-1] @ _BASE]
    found: Floats = load()[:, mine, theirs].copy()
    return found


def build() -> Floats:
    """Compute the table: (4, STATES, STATES), [column, side on roll's state, other's state]."""
    n = STATES
    boards = np.zeros((n - 1, 26), np.int8)
    boards[:, 1:7] = _STATE_ARRAY[1:]
    boards[:, 24] = -1                                   # the other side, anywhere in its home
    rows = np.repeat(boards, len(_ROLLS), axis=0)
    rolls = np.tile(np.array(_ROLLS, np.int8), (n - 1, 1))
    children, offsets, _ = batch.generate(rows, rolls, Rules("short"))
    results = _INDEX[children[:, 1:7].astype(np.int64) @ _BASE]
    pips = _STATE_ARRAY @ np.arange(1, POINTS + 1)
    by_pips = {int(p): np.flatnonzero(pips == p) for p in np.unique(pips)}
    groups = []                                          # per pip count: its states, their results, the rolls' starts
    for p, states in by_pips.items():
        if p == 0:
            continue
        segments = [(a - 1) * len(_ROLLS) + r for a in states for r in range(len(_ROLLS))]
        flat = np.concatenate([results[offsets[s]:offsets[s + 1]] for s in segments])
        starts = np.concatenate([[0], np.cumsum(np.diff(offsets)[segments])[:-1]])
        groups.append((p, states, flat, starts))
    # value[k]: as the table's columns, with the side on roll's cube action taken
    value = np.zeros((4, n, n))
    value[:, 0, :] = 1.0                                  # the side on roll has borne off: it won
    value[:, 1:, 0] = -1.0                                # the other has: it lost
    table: Floats = value.copy()
    theirs = (CUBELESS, OTHER_OWNS, CENTRED, OWNED)       # each column seen from the other side
    for total in range(2, 2 * max(by_pips) + 1):
        for p, states, flat, starts in groups:
            others = by_pips.get(total - p)
            if others is None or total - p == 0:
                continue
            no_double = []
            for k in range(4):
                seen = -np.take(value[theirs[k]][others], flat, axis=1)
                best = np.maximum.reduceat(seen, starts, axis=1).reshape(len(others), len(states), len(_ROLLS))
                no_double.append((best @ _WEIGHTS).T)      # (states, others)
            take = 2.0 * no_double[OTHER_OWNS]
            cell = np.ix_(states, others)
            for k in range(4):
                table[k][cell] = no_double[k]
                doubles = (k in (OWNED, CENTRED)) & (take >= no_double[k]) & (1.0 >= no_double[k])
                value[k][cell] = np.where(doubles, np.minimum(take, 1.0), no_double[k])
    return table


_LOCK = threading.Lock()
_TABLE: list[Floats] = []


def load(path: str | Path | None = None) -> Floats:
    """The table: from the cache file (default: `FILE_NAME` beside the one-sided table's
    cache), or computed and written there when it is missing or unusable."""
    with _LOCK:
        if path is None and _TABLE:
            return _TABLE[0]
        target = Path(path) if path is not None else _one_sided_path().with_name(FILE_NAME)
        table = _read(target)
        if table is None:
            table = build()
            table.setflags(write=False)  # shared by the process, as a table read from its file is
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                files.write_file(target, lambda f: _write(f, table), binary=True)
            except (OSError, ValueError):
                pass                                     # kept for this process only
        if path is None:
            _TABLE.append(table)
        return table


def _read(path: Path) -> Floats | None:
    """The table in `path`, or None if the file is missing or not a whole table of this version."""
    size = _HEADER.size + 4 * STATES * STATES * 8
    try:
        with files.open_regular(path) as f:
            data = f.read(size + 1)
    except (OSError, ValueError):
        return None
    if len(data) != size:
        return None
    magic, version, states, digest = _HEADER.unpack_from(data)
    payload = memoryview(data)[_HEADER.size:]
    if (magic, version, states) != (MAGIC, FORMAT_VERSION, STATES) or hashlib.sha256(payload).digest() != digest:
        return None
    return np.frombuffer(data, "<f8", offset=_HEADER.size).reshape(4, STATES, STATES)


def _write(f: IO[Any], table: Floats) -> None:
    payload = np.ascontiguousarray(table, "<f8").tobytes()
    f.write(_HEADER.pack(MAGIC, FORMAT_VERSION, STATES, hashlib.sha256(payload).digest()))
    f.write(payload)
