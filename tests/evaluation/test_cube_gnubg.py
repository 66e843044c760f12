"""nardy's 0-ply cube arithmetic against GNU Backgammon's program (`gnubg -t`, Debian's).

570 positions from seeded random short nardy self-play (300 contact, 150 race, 60 bear-offs with
a side of more than six checkers, and 60 bear-offs of six or fewer checkers a side, which gnubg
prices from its two-sided table and nardy from `nardy.evaluation.two_sided`) are each analysed
by one gnubg run at money (centred cube with the Jacoby rule, and an owned cube) and at match
scores: 7-point 0-0, 2-4 for either side on roll, 2-away 2-away, an owned cube at 5-3, a take
that ends the match (4-5), post-Crawford for the trailer, and the Crawford game; 11-point 3-6;
3-point 1-0. gnubg's six-decimal
cubeless probabilities go into `nardy.cube.decide(..., probabilities=...)`, which must give gnubg's
three cubeful equities within 0.005 and its proper cube action in at least 98% of the decisions,
every disagreement within 0.01 of a decision boundary. Skipped only when gnubg is not installed."""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path

import pytest

from nardy import Color, Position, Rules
from nardy.evaluation.cube import BEAR_OFF, CONTACT, RACE, decide, position_class
from nardy.formats.ids import MatchState, match_id, position_id

sys.path.insert(0, str(Path(__file__).parent.parent / "oracle"))
oracle = importlib.import_module("gnubg_cube")

if oracle.program() is None:
    pytest.skip("GNU Backgammon's program (gnubg, Debian package gnubg) is not installed", allow_module_level=True)

SHORT = Rules("short")
SEED = 20261203
TWO_SIDED = "two-sided"  # a bear-off of six checkers or fewer a side
QUOTA = {CONTACT: 300, RACE: 150, BEAR_OFF: 60, TWO_SIDED: 60}
TOLERANCE = 0.005

STATES = [
    MatchState(jacoby=True),
    MatchState(jacoby=True, cube_value=2, cube_owner=1),
    MatchState(match_length=7),
    MatchState(match_length=7, score=(2, 4)),
    MatchState(match_length=7, score=(2, 4), on_roll=0, turn=0),
    MatchState(match_length=7, score=(5, 5)),
    MatchState(match_length=7, score=(5, 3), cube_value=2, cube_owner=1),
    MatchState(match_length=7, score=(4, 5)),
    MatchState(match_length=7, score=(6, 3)),
    MatchState(match_length=11, score=(3, 6)),
    MatchState(match_length=3, score=(1, 0), on_roll=0, turn=0),
]
CRAWFORD = MatchState(match_length=7, score=(6, 3), crawford=True)


def on_roll(position: Position, state: MatchState) -> Position:
    """The position (a mover's view, which is all gnubg's Position ID says) with the state's side
    on roll."""
    return Position(position.view(), "short", Color.WHITE if state.on_roll == 1 else Color.BLACK)


def two_sided(position: Position) -> bool:
    """Both sides home with six checkers or fewer: gnubg's exact two-sided bear-off."""
    v = position.view()
    return sum(n for n in v if n > 0) <= 6 and -sum(n for n in v if n < 0) <= 6


def sample() -> list[Position]:
    """Positions of seeded random self-play, up to each class's quota."""
    rng, picks = random.Random(SEED), random.Random(SEED + 1)  # (the two-sided ones picked apart)
    found: dict[str, list[Position]] = {kind: [] for kind in QUOTA}
    seen: set[tuple[int, ...]] = set()
    p = Position.start("short")
    while any(len(found[k]) < n for k, n in QUOTA.items()):
        if p.is_game_over():
            p = Position.start("short")
            continue
        kind = position_class(p)[0]
        if two_sided(p) and kind == BEAR_OFF:
            if len(found[TWO_SIDED]) < QUOTA[TWO_SIDED] and p.view() not in seen and picks.random() < 0.5:
                seen.add(p.view())
                found[TWO_SIDED].append(p)
        elif (kind in found and len(found[kind]) < QUOTA[kind] and p.view() not in seen
                and rng.random() < (0.15 if kind == CONTACT else 0.5)):
            seen.add(p.view())
            found[kind].append(p)
        p = rng.choice(p.children((rng.randint(1, 6), rng.randint(1, 6)), SHORT))
    return [p for kind in QUOTA for p in found[kind]]


@pytest.fixture(scope="module")
def analysed() -> list[tuple[Position, MatchState, object]]:
    positions = sample()
    jobs = [(p, s, kind == BEAR_OFF) for p in positions for kind in [position_class(p)[0]]
            for s in STATES]
    jobs += [(p, CRAWFORD, True) for p in positions[::5]]
    found = oracle.analyse([(position_id(p), match_id(s), with_eval) for p, s, with_eval in jobs])
    return [(p, s, a) for (p, s, _), a in zip(jobs, found)]


def test_gnubg_classes_match(analysed) -> None:
    """gnubg's evaluator agrees with the class that sets the cube efficiency (its one-sided
    bear-off for the bear-offs of more checkers, its two-sided one for the others)."""
    for p, s, a in analysed:
        if a.evaluator is not None:
            kind = TWO_SIDED if two_sided(p) else position_class(p)[0]
            expected = {BEAR_OFF: ("Bearoff1",), TWO_SIDED: ("Bearoff2",), RACE: ("Race",),
                        CONTACT: ("Contact", "Crashed")}[kind]
            assert a.evaluator in expected, (position_id(p), kind, a.evaluator)


def test_cubeful_equities_and_actions(analysed) -> None:
    decisions = disagreements = 0
    for p, s, a in analysed:
        if a.action is None:
            continue
        d = decide(on_roll(p, s), s, probabilities=a.probabilities)
        where = f"{position_id(p)}:{match_id(s)} {a.probabilities}"
        assert d.no_double == pytest.approx(a.no_double, abs=TOLERANCE), where
        assert d.double_take == pytest.approx(a.double_take, abs=TOLERANCE), where
        assert d.double_pass == pytest.approx(a.double_pass, abs=TOLERANCE), where
        decisions += 1
        if d.action != a.action:
            disagreements += 1
            gap = min(abs(a.no_double - a.double_take), abs(a.no_double - a.double_pass),
                      abs(a.double_take - a.double_pass))
            assert gap <= 0.01, (where, d.action, a.action)
    assert decisions == sum(QUOTA.values()) * len(STATES)
    assert disagreements <= 0.02 * decisions


def test_no_cube_at_crawford(analysed) -> None:
    """In the Crawford game gnubg will not double; the cubeful equity is the cubeless one."""
    count = 0
    for p, s, a in analysed:
        if s is CRAWFORD:
            d = decide(on_roll(p, s), s, probabilities=a.probabilities)
            assert not d.can_double and a.action is None
            assert d.no_double == pytest.approx(a.cubeful, abs=TOLERANCE), position_id(p)
            count += 1
    assert count >= 100
