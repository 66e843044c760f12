"""perft (docs/rules.md section 7) from the suites in tests/data/perft/*.perft, on both backends.

Each `perft DEPTH COUNT` line runs on the compiled core, and on the pure-Python reference when
DEPTH is at most the entry's `reference-depth` (default 2), to keep the file fast. The counts
are distinct resulting positions per roll (docs/rules.md 7), not step sequences; the file headers
say where each number comes from. On a mismatch the failure message gives the per-roll
breakdown (distinct children and subtotal of each of the 21 rolls) from both backends.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

import nardy
from nardy import Position, Rules
from nardy import _backend as engine

DATA = Path(__file__).parent / "data" / "perft"
FILES = ("short.perft", "long.perft")
ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(1, d1 + 1)]
DEFAULT_REFERENCE_DEPTH = 2


@dataclass
class Entry:
    id: str
    where: str
    variant: str = ""
    pos: tuple[int, ...] = ()
    rules: dict = field(default_factory=dict)
    reference_depth: int = DEFAULT_REFERENCE_DEPTH
    perft: list[tuple[int, int]] = field(default_factory=list)

    def make_rules(self) -> Rules:
        return Rules(self.variant, **self.rules)


def _value(text: str):
    return {"true": True, "false": False}.get(text.lower(), text)


def parse(path: Path) -> list[Entry]:
    """The entries of a perft file; raises ValueError naming the line of anything malformed."""
    entries: list[Entry] = []
    for lineno, raw in enumerate(path.read_text().splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, _, rest = line.partition(" ")
        rest = rest.strip()
        where = f"{path.name}:{lineno}"
        if key == "id":
            entries.append(Entry(rest, where))
            continue
        if not entries:
            raise ValueError(f"{where}: {key!r} before the first id")
        e = entries[-1]
        if key == "variant":
            if rest not in ("long", "short"):
                raise ValueError(f"{where}: variant must be long or short, got {rest!r}")
            e.variant = rest
        elif key == "pos":
            e.pos = tuple(int(n) for n in rest.replace(" ", "").split(","))
            if len(e.pos) != 26:
                raise ValueError(f"{where}: pos has {len(e.pos)} ints, not 26")
        elif key == "rules":
            for pair in rest.split():
                name, eq, value = pair.partition("=")
                if not eq:
                    raise ValueError(f"{where}: rules takes key=value, got {pair!r}")
                e.rules[name] = _value(value)
        elif key == "reference-depth":
            e.reference_depth = int(rest)
        elif key == "perft":
            depth, count = rest.split()
            e.perft.append((int(depth), int(count)))
        else:
            raise ValueError(f"{where}: unknown key {key!r}")
    return entries


ENTRIES = [e for name in FILES for e in parse(DATA / name)]


def _cases():
    for e in ENTRIES:
        for depth, count in e.perft:
            for backend in ("cython", "python"):
                if backend == "python" and depth > e.reference_depth:
                    continue
                slow = backend == "python" and count > 20_000  # seconds in the reference
                yield pytest.param(e, depth, count, backend, id=f"{e.id}-d{depth}-{backend}",
                                   marks=[pytest.mark.slow] if slow else [])


def breakdown(e: Entry, depth: int, backend: str) -> dict[tuple[int, int], tuple[int, int]]:
    """Per roll: (distinct children, their perft(depth-1) sum). Exact except under last_roll_draw."""
    rules = e.make_rules()
    p = Position(e.pos, e.variant, rules=rules)
    found = {}
    for dice in ROLLS:
        children = p.children(dice, rules, backend=backend)
        sub = sum(1 if c.is_game_over() else engine.perft(c.to_bytes(), depth - 1, rules, backend) for c in children)
        found[dice] = (len(children), sub)
    return found


def report(e: Entry, depth: int, count: int, got: int, backend: str) -> str:
    lines = [f"{e.id} ({e.where}) perft {depth}: expected {count}, {backend} gives {got}"]
    if e.rules.get("last_roll_draw"):
        lines.append("(subtotals below ignore last_roll_draw: each child is counted as a fresh root)")
    shown = [backend]
    other = "python" if backend == "cython" else "cython"
    if (other == "python" and depth <= e.reference_depth) or (other == "cython" and nardy.BACKEND == "cython"):
        shown.append(other)  # side by side, when the other backend is fast enough to ask
    tables = {b: breakdown(e, depth, b) for b in shown}
    header = "roll " + "".join(f"{b + ' children':>18}{b + ' subtotal':>18}" for b in tables)
    lines.append(header)
    for dice in ROLLS:
        cells = [tables[b][dice] for b in tables]
        mark = "  <-- differs" if len(set(cells)) > 1 else ""
        lines.append(f"{dice[0]}-{dice[1]}  " + "".join(f"{n:>18}{s:>18}" for n, s in cells) + mark)
    lines.append("sum  " + "".join(f"{sum(v[0] for v in t.values()):>18}{sum(v[1] for v in t.values()):>18}"
                                   for t in tables.values()))
    return "\n".join(lines)


@pytest.mark.parametrize(("entry", "depth", "count", "backend"), list(_cases()))
def test_perft(entry, depth, count, backend):
    if backend == "cython" and nardy.BACKEND != "cython":
        pytest.skip("the compiled core is disabled (NARDY_PURE_PYTHON=1)")
    rules = entry.make_rules()
    got = engine.perft(engine.as_bytes(entry.pos), depth, rules, backend)
    if got != count:
        pytest.fail(report(entry, depth, count, got, backend), pytrace=False)


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.id for e in ENTRIES])
def test_perft_entry_is_well_formed(entry):
    assert entry.variant, f"{entry.where}: no variant"
    assert len(entry.pos) == 26, f"{entry.where}: no pos"
    assert entry.perft, f"{entry.where}: no perft lines"
    rules = entry.make_rules()  # unknown options raise InvalidRulesError
    Position(entry.pos, entry.variant, rules=rules)  # an invalid position raises InvalidPositionError
    depths = [d for d, _ in entry.perft]
    assert depths == sorted(set(depths)) and depths[0] >= 1


def test_perft_files_hold_the_reference_points():
    by_id = {e.id: e for e in ENTRIES}
    assert len(by_id) == len(ENTRIES), "duplicate ids"
    short = by_id["short-start"]
    assert short.pos == Position.start("short").view() and short.variant == "short"
    assert dict(short.perft) == {1: 447, 2: 202782, 3: 116154993}
    long = by_id["long-start"]
    assert long.pos == Position.start("long").view() and long.variant == "long"
    assert dict(long.perft) == {1: 22, 2: 484, 3: 35387, 4: 2410395}
    for variant in ("short", "long"):
        assert sum(e.variant == variant and "start" not in e.id for e in ENTRIES) >= 4


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.id for e in ENTRIES])
def test_perft_depth_0_is_1(backend, entry):
    assert engine.perft(engine.as_bytes(entry.pos), 0, entry.make_rules(), backend) == 1


def test_perft_of_a_finished_game_is_1(backend):
    # a game that has ended is a leaf counting 1, whatever depth remains
    finished = [0] * 26
    finished[12] = -2  # the mover has borne off all 15
    for variant in ("short", "long"):
        for depth in (0, 1, 3):
            assert engine.perft(engine.as_bytes(finished), depth, Rules(variant), backend) == 1


def test_breakdown_sums_to_perft(backend):
    e = next(e for e in ENTRIES if e.id == "short-race")
    table = breakdown(e, 2, backend)
    assert sum(sub for _, sub in table.values()) == dict(e.perft)[2]
    assert sum(n for n, _ in table.values()) == dict(e.perft)[1]
