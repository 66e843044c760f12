"""The doubling cube's arithmetic, with no net: cubeful equities and cube decisions from five
cubeless probabilities, the cube state and its checks, and the equity of a play at the score.

The method is GNU Backgammon's at 0 ply. A cubeful equity is Janowski's interpolation between
the dead-cube equity (the cubeless one) and the live-cube one (piecewise linear in the winning
chance between the take, cash and too-good points), weighted by the cube efficiency `x` of the
position's class: 0.68 in contact, 0.6 in a bear-off with both sides home, and in other races
0.55 + 0.00125 x (the side on roll's pip count), kept within 0.6..0.7. In money play the points are
Janowski's; in match play they come from the match equity table, recursively over the cube
levels until the cube is dead (gnubg's generalisation). The Crawford game, a cube that a take
would make dead for both sides, and 2-away 2-away are priced cubeless, as gnubg does. Bear-offs
of six or fewer checkers a side are priced by the two-sided table (`exact_bear_off`).

`Cube` is a cube state (gnubg's cubeinfo), `cube_of(state, met)` the one of a `MatchState`;
`equities` gives a state's three equities (no double, double/take, double/pass) and
`cube_decision` the `CubeDecision` of them; `decision` does both from probabilities and an
efficiency. `cubeful_values`, `leaf_values` and `best_actions` are the same arithmetic on arrays
of positions, which `nardy.evaluation.cube`'s look-ahead uses. `play_equity` turns the
probabilities after each play into the mover's equity at the score, which
`net.rank(..., state=)` ranks by. `nardy.evaluation.cube` makes the decisions with the net.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import Any, Callable, Sequence

import numpy as np
import numpy.typing as npt

from .. import batch
from ..errors import InvalidArgumentError, quoted
from ..formats.ids import MatchState, check_state, crawford_fits
from ..position import Position
from ..rules import Color, Rules, Variant
from . import two_sided
from .met import KAZAROSS_XG2, MatchEquityTable, long_table

Floats = npt.NDArray[np.float64]

__all__ = ["BEAR_OFF", "CONTACT", "OVER", "RACE", "Cube", "CubeDecision", "Plan", "before_roll", "best_actions",
           "can_double", "checked_probabilities", "checked_state", "class_efficiency", "cube_decision",
           "cube_efficiency", "cube_of", "cube_states", "cubeful_values", "decision", "efficiencies",
           "equities", "equity_from_mwc", "exact_bear_off", "leaf_values", "other_side", "play_equity", "position_class",
           "state_for"]

OVER, BEAR_OFF, RACE, CONTACT = "over", "bear-off", "race", "contact"
CONTACT_X = 0.68
BEAR_OFF_X = 0.6
RACE_FACTOR, RACE_COEFFICIENT, RACE_MIN, RACE_MAX = 0.00125, 0.55, 0.6, 0.7
_EPSILON = 1e-7
_OPTIONAL = 1e-5  # gnubg: two equities this close make the double optional


@dataclass(frozen=True)
class CubeDecision:
    """A cube decision for the side on roll before it rolls.

    `no_double`, `double_take`, `double_pass`: cubeful equities normalised to the cube in play
    (money: points per cube unit; match: gnubg's equivalent-to-money equity). `action` is gnubg's
    "Proper cube action" text. `probabilities`: the five cubeless ones used (win, win gammon, win
    backgammon, lose gammon, lose backgammon). `efficiency`: the cube efficiency used.
    `can_double`: whether the side on roll may turn the cube (not in the Crawford game, not with
    the cube on the other side, not when it is dead for the side on roll).
    """

    no_double: float
    double_take: float
    double_pass: float
    action: str
    probabilities: tuple[float, float, float, float, float]
    efficiency: float
    can_double: bool
    _cube: Cube = field(repr=False, compare=False)

    @property
    def equity(self) -> float:
        """The cubeful equity of the proper action."""
        if not self.can_double or not (self.double_take >= self.no_double and self.double_pass >= self.no_double):
            return self.no_double
        return min(self.double_take, self.double_pass)

    @cached_property
    def take_point(self) -> float | None:
        """The opponent's take point: the least winning chance it needs to take (the gammon
        ratios of `probabilities` kept; 0.25 for money with a dead cube and no gammons). None
        when the cube cannot be turned."""
        return _take_point(self.probabilities, self._cube, self.efficiency) if self.can_double else None


# --- position class -----------------------------------------------------------------------------
def position_class(position: Position) -> tuple[str, int]:
    """gnubg's class of a short nardy position for the cube (OVER, BEAR_OFF, RACE or CONTACT)
    and the pip count of the side on roll."""
    if not isinstance(position, Position) or position.variant is not Variant.SHORT:
        raise InvalidArgumentError(f"position must be a short nardy Position, got {quoted(position)}")
    v = position.view()
    mine = [i for i in range(1, 26) if v[i] > 0]
    theirs = [25 - i for i in range(0, 25) if v[i] < 0]  # in their own numbers (bar 25)
    if not mine or not theirs:
        return OVER, 0
    pips = sum(i * v[i] for i in mine)
    if max(mine) + max(theirs) > 24:
        return CONTACT, pips
    if max(mine) <= 6 and max(theirs) <= 6:
        return BEAR_OFF, pips
    return RACE, pips


def cube_efficiency(position: Position) -> float:
    """gnubg's cube efficiency of the position's class (see the module's docstring)."""
    kind, pips = position_class(position)
    return class_efficiency(kind, pips)


def class_efficiency(kind: str, pips: int) -> float:
    if kind == OVER:
        return 0.0
    if kind == CONTACT:
        return CONTACT_X
    if kind == BEAR_OFF:
        return BEAR_OFF_X
    return min(max(pips * RACE_FACTOR + RACE_COEFFICIENT, RACE_MIN), RACE_MAX)


# --- the cube state -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Cube:
    """gnubg's cubeinfo: absolute players 0 and 1, `mover` on roll, `owner` None if centred."""

    value: int
    owner: int | None
    mover: int
    length: int
    score: tuple[int, int]
    crawford: bool
    jacoby: bool
    table: MatchEquityTable

    def with_(self, value: int, owner: int | None) -> Cube:
        return Cube(value, owner, self.mover, self.length, self.score, self.crawford, self.jacoby, self.table)

    def me(self, player: int, points: int, winner: int) -> float:
        """gnubg's getME: `player`'s MWC once `winner` wins `points` (cube value times 1, 2 or 3)."""
        length, s0, s1 = self.length, self.score[0], self.score[1]
        n0 = length - (s0 + (points if winner == 0 else 0)) - 1
        n1 = length - (s1 + (points if winner == 1 else 0)) - 1
        if n0 < 0:
            return 0.0 if player else 1.0
        if n1 < 0:
            return 1.0 if player else 0.0
        t = self.table
        if self.crawford or length - s0 == 1 or length - s1 == 1:
            if n0 == 0:
                return t.post[1][n1] if player else 1.0 - t.post[1][n1]
            return 1.0 - t.post[0][n0] if player else t.post[0][n0]
        return 1.0 - t.pre[n0][n1] if player else t.pre[n0][n1]

    def may_double(self) -> bool:
        """gnubg's GetDPEq availability: the side on roll may turn the cube."""
        mine = self.owner is None or self.owner == self.mover
        if not self.length:
            return mine
        post = not self.crawford and (self.score[0] == self.length - 1 or self.score[1] == self.length - 1)
        return (not self.crawford and self.score[self.mover] + self.value < self.length
                and not (post and self.score[self.mover] == self.length - 1) and mine)

    def live(self) -> bool:
        """gnubg's fDoCubeful: the match cube is worth a cubeful evaluation."""
        s0, s1, n, c = self.score[0], self.score[1], self.length, self.value
        return not ((s0 + c >= n and s1 + c >= n) or (s0 == n - 2 and s1 == n - 2) or self.crawford)

    def doubled(self) -> Cube:
        """The cube once the side on roll doubles and the other side takes."""
        return self.with_(2 * self.value, 1 - self.mover)

    def flipped(self) -> Cube:
        """The same cube with the other side on roll."""
        return Cube(self.value, self.owner, 1 - self.mover, self.length, self.score, self.crawford, self.jacoby,
                    self.table)

    def plan(self) -> Plan:
        """What the match equity table gives this cube state (remembered by the table)."""
        key = (self.length, self.score, self.crawford, self.value, self.mover)
        cache = self.table.plans
        found = cache.get(key)
        if found is None:
            found = cache[key] = _make_plan(self)
        return found


def _ratios(p: Sequence[float]) -> tuple[float, float, float, float]:
    """Gammon and backgammon ratios of wins (g0, bg0) and of losses (g1, bg1)."""
    win = p[0]
    g0, bg0 = ((p[1] - p[2]) / win, p[2] / win) if win > 0 else (0.0, 0.0)
    g1, bg1 = ((p[3] - p[4]) / (1 - win), p[4] / (1 - win)) if win < 1 else (0.0, 0.0)
    return g0, bg0, g1, bg1


# --- money ----------------------------------------------------------------------------------------
def _money_utility(p: Sequence[float], cube: Cube) -> float:
    gammons = 0.0 if cube.jacoby and cube.owner is None else 1.0
    return 2 * p[0] - 1 + gammons * (p[1] - p[3] + p[2] - p[4])


def _money_live(w: float, l: float, p: float, cube: Cube) -> float:
    take, cash = (l - 0.5) / (w + l + 0.5), (l + 1.0) / (w + l + 0.5)
    if cube.owner is None:
        if p < take:
            return -1.0 if cube.jacoby else -l + (l - 1.0) * p / take
        if p < cash:
            return -1.0 + 2.0 * (p - take) / (cash - take)
        return 1.0 if cube.jacoby else 1.0 + (w - 1.0) * (p - cash) / (1.0 - cash)
    if cube.owner == cube.mover:
        if p < cash:
            return -l + (1.0 + l) * p / cash
        return 1.0 + (w - 1.0) * (p - cash) / (1.0 - cash)
    if p < take:
        return -l + (l - 1.0) * p / take
    return -1.0 + (w + 1.0) * (p - take) / (1.0 - take)


def _money_cubeful(p: Sequence[float], cube: Cube, x: float) -> float:
    """Cubeful money equity per cube unit (gnubg's Cl2CfMoney)."""
    dead = _money_utility(p, cube)
    if p[0] <= _EPSILON or p[0] >= 1 - _EPSILON:
        return dead
    w = 1.0 + (p[1] + p[2]) / p[0]
    l = 1.0 + (p[3] + p[4]) / (1.0 - p[0])
    return dead * (1.0 - x) + _money_live(w, l, p[0], cube) * x


# --- match ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Plan:
    """What a match cube state takes from the table, whatever the probabilities: the mover's MWC
    when it wins and loses 1, 2 and 3 times the cube, whether the cube is live, and the terms of
    every cube level's cash points (top level first)."""

    win: tuple[float, float, float]
    lose: tuple[float, float, float]
    live: bool
    levels: tuple[tuple[tuple[bool, float, float, float, float, float, float, float], ...], ...]


def _make_plan(cube: Cube) -> Plan:
    me, c = cube.mover, cube.value
    win = tuple(cube.me(me, k * c, me) for k in (1, 2, 3))
    lose = tuple(cube.me(me, k * c, 1 - me) for k in (1, 2, 3))
    n0, n1 = cube.length - cube.score[0] - 1, cube.length - cube.score[1] - 1
    dead, top = c, 0
    while n0 >= 2 * dead and n1 >= 2 * dead:
        top += 1
        dead *= 2
    levels = []
    value = dead
    for _ in range(top + 1):
        terms = []
        for k in (0, 1):
            if n0 < 2 * value or n1 < 2 * value:  # the doubled cube is dead
                prime = _prime(n0, n1, value) if k == 0 else _prime(n1, n0, value)
                w = [cube.me(k, m * prime, k) for m in (2, 4, 6)]
                l = [cube.me(k, m * prime, 1 - k) for m in (2, 4, 6)]
                terms.append((True, *w, *l, cube.me(k, value, k)))
            else:
                w = [cube.me(k, m * value, k) for m in (2, 4, 6)]
                terms.append((False, *w, cube.me(k, 2 * value, 1 - k), cube.me(k, value, k), 0.0, 0.0))
        levels.append(tuple(terms))
        value //= 2
    return Plan(win, lose, cube.live(), tuple(levels))  # type: ignore[arg-type]


def _prime(i: int, j: int, value: int) -> int:
    """gnubg's GetCubePrimeValue: the cube after a double when the doubled side's opponent will
    redouble at once (it needs less than twice the cube, the doubled side does not)."""
    return 2 * value if i < 2 * value and j >= 2 * value else value


def _share(part: float, whole: float) -> float:
    """part / whole, 1 when the whole is nothing (a table with no stake in the double)."""
    return part / whole if whole else 1.0


def _cash_points(ratios: tuple[float, float, float, float], cube: Cube, plan: Plan) -> tuple[float, float]:
    """gnubg's GetPoints: each player's live-cube cash point at the cube in play, found from the
    top cube level (dead) down."""
    g0, bg0, g1, bg1 = ratios
    gammon, bg = ((g0, g1), (bg0, bg1)) if cube.mover == 0 else ((g1, g0), (bg1, bg0))
    above = (0.0, 0.0)
    for terms in plan.levels:
        here = [0.0, 0.0]
        for k in (0, 1):
            o = 1 - k
            t = terms[k]
            dtw = (1 - gammon[k] - bg[k]) * t[1] + gammon[k] * t[2] + bg[k] * t[3]
            if t[0]:
                dtl = (1 - gammon[o] - bg[o]) * t[4] + gammon[o] * t[5] + bg[o] * t[6]
                here[k] = _share(dtl - t[7], dtl - dtw)
            else:
                rdp, dp = t[4], t[5]
                here[k] = 1.0 - above[o] * _share(dp - dtw, rdp - dtw)
        above = (here[0], here[1])
    return above


def _match_cubeful(p: Sequence[float], cube: Cube, x: float) -> float:
    """Cubeful MWC of the side on roll (gnubg's Cl2CfMatch)."""
    plan = cube.plan()
    (cash, win2, win3), (opp_cash, lose2, lose3) = plan.win, plan.lose
    dead = ((p[0] - p[1]) * cash + (p[1] - p[2]) * win2 + p[2] * win3
            + (1 - p[0] - p[3]) * opp_cash + (p[3] - p[4]) * lose2 + p[4] * lose3)
    if not plan.live:
        return dead
    ratios = _ratios(p)
    g0, bg0, g1, bg1 = ratios
    me = cube.mover
    cash_points = _cash_points(ratios, cube, plan)
    win_all = (1 - g0 - bg0) * cash + g0 * win2 + bg0 * win3
    lose_all = (1 - g1 - bg1) * opp_cash + g1 * lose2 + bg1 * lose3
    too_good, opp_too_good = cash_points[me], 1.0 - cash_points[1 - me]
    win = p[0]
    centred, mine = cube.owner is None, cube.owner == me
    if (centred or not mine) and win <= opp_too_good:
        live = lose_all + (opp_cash - lose_all) * win / opp_too_good if opp_too_good > 0 else lose_all
    elif centred and win < too_good:
        live = opp_cash + (cash - opp_cash) * _share(win - opp_too_good, too_good - opp_too_good)
    elif not centred and not mine:
        live = opp_cash + (win_all - opp_cash) * _share(win - opp_too_good, 1.0 - opp_too_good)
    elif mine and win <= too_good:
        live = lose_all + (cash - lose_all) * win / too_good if too_good > 0 else lose_all
    else:
        live = cash + (win_all - cash) * (win - too_good) / (1.0 - too_good) if too_good < 1 else win_all
    return dead * (1.0 - x) + live * x


def equity_from_mwc(mwc: float, cube: Cube) -> float:
    plan = cube.plan()
    win, lose = plan.win[0], plan.lose[0]
    return _share(2.0 * mwc - (win + lose), win - lose)


# --- decisions -----------------------------------------------------------------------------------
def equities(p: Sequence[float], cube: Cube, x: float, x_doubled: float | None = None) -> tuple[float, float, float]:
    """(no double, double/take, double/pass), normalised to the cube in play; `x_doubled`: the
    cube efficiency once doubled and taken, if not `x`."""
    doubled = cube.doubled()
    x2 = x if x_doubled is None else x_doubled
    if not cube.length:
        return _money_cubeful(p, cube, x), 2.0 * _money_cubeful(p, doubled, x2), 1.0
    nd = _match_cubeful(p, cube, x)
    dt = _match_cubeful(p, doubled, x2)
    dp = cube.plan().win[0]
    return equity_from_mwc(nd, cube), equity_from_mwc(dt, cube), equity_from_mwc(dp, cube)


def exact_bear_off(view: Any, cube: Cube, p: tuple[float, float, float, float, float] | None = None
                   ) -> tuple[tuple[float, float, float], tuple[float, float, float, float, float], float] | None:
    """GNU Backgammon's prices of a bear-off in the two-sided table (`two_sided.covers`; None
    for any other board): the equities (no double, double/take, double/pass) normalised to the
    cube, the probabilities used (`p`, by default the table's exact ones, no gammons) and the
    cube efficiency of the cube in play. Money: the table's cubeful equities. Match play:
    Janowski's interpolation with each cube state's efficiency fitted to the table's money
    equity for the same cube ownership, within 0..0.6 (0.6 where the fit is undefined)."""
    if not two_sided.covers(view):
        return None
    e = two_sided.equities(view)
    if p is None:
        p = ((float(e[two_sided.CUBELESS]) + 1.0) / 2.0, 0.0, 0.0, 0.0, 0.0)
    x, x_doubled = _fitted_efficiency(e, p, cube), _fitted_efficiency(e, p, cube.doubled())
    if cube.length:
        return equities(p, cube, x, x_doubled), p, x
    return (float(e[_column(cube)]), 2.0 * float(e[two_sided.OTHER_OWNS]), 1.0), p, x


def _column(cube: Cube) -> int:
    """The two-sided table's column for the cube's owner."""
    if cube.owner is None:
        return two_sided.CENTRED
    return two_sided.OWNED if cube.owner == cube.mover else two_sided.OTHER_OWNS


def _fitted_efficiency(e: Floats, p: Sequence[float], cube: Cube) -> float:
    """gnubg's cube efficiency for a match cube state in the two-sided table: the share of the
    way from the cubeless money equity to Janowski's live-cube one that the table's cubeful
    money equity (the same owner) goes."""
    money = Cube(1, cube.owner, cube.mover, 0, (0, 0), False, False, cube.table)
    cubeless, live = float(e[two_sided.CUBELESS]), _money_cubeful(p, money, 1.0)
    if abs(cubeless - live) <= 1e-4:
        return BEAR_OFF_X
    return min(max((float(e[_column(cube)]) - cubeless) / (live - cubeless), 0.0), BEAR_OFF_X)


def _action(nd: float, dt: float, dp: float, p: Sequence[float], cube: Cube) -> str:
    """gnubg's FindBestCubeDecision, without beavers, in its words ("Redouble" once the cube
    is owned)."""
    word = "double" if cube.owner is None else "redouble"
    doubles, passes = f"{word.capitalize()}, take", f"{word.capitalize()}, pass"
    gammons = p[1] > 0.0
    if dt >= nd and dp >= nd:
        if dp > dt:
            return f"Optional {word}, take" if abs(dt - nd) <= _OPTIONAL else doubles
        optional = abs(nd - dp) <= _OPTIONAL and gammons and bool(cube.length or cube.owner is not None or not cube.jacoby)
        return f"Optional {word}, pass" if optional else passes
    if nd > dt:
        if dt > dp:
            return f"Too good to {word}, pass" if gammons else passes
        if nd > dp:
            return f"Too good to {word}, take" if gammons else f"No {word}, take"
        return f"No {word}, take"
    return f"Too good to {word}, pass" if gammons else passes


def _take_point(p: Sequence[float], cube: Cube, x: float) -> float:
    """The opponent's take point: the least winning chance (gammon ratios of `p` kept) with
    which its take is worth its pass, found by bisection (double/take minus double/pass grows
    with the doubler's winning chance)."""
    g0, bg0, g1, bg1 = _ratios(p)

    def take_minus_pass(win: float) -> float:
        q = (win, win * (g0 + bg0), win * bg0, (1 - win) * (g1 + bg1), (1 - win) * bg1)
        _, dt, dp = equities(q, cube, x)
        return dt - dp

    low, high = 0.0, 1.0
    if take_minus_pass(high) < 0:
        return 0.0
    if take_minus_pass(low) > 0:
        return 1.0
    for _ in range(30):
        mid = (low + high) / 2
        if take_minus_pass(mid) < 0:
            low = mid
        else:
            high = mid
    return 1.0 - (low + high) / 2


def cube_of(state: MatchState, table: MatchEquityTable | None) -> Cube:
    """The cube state of a checked `state` under `table` (None: Kazaross-XG2)."""
    table = _checked_met(table)
    if state.match_length > table.length:
        raise InvalidArgumentError(f"the MET {table.name!r} covers matches up to {table.length} points, "
                                   f"not {state.match_length}")
    if state.match_length and max(state.score) >= state.match_length:
        raise InvalidArgumentError(f"the match is over at {state.score[0]}-{state.score[1]} of {state.match_length}")
    return Cube(state.cube_value, state.cube_owner, state.on_roll, state.match_length,
                 (int(state.score[0]), int(state.score[1])),
                 bool(state.crawford) and state.match_length > 0, bool(state.jacoby) and not state.match_length, table)


_GAME_STATES = ("no game", "playing", "over", "resigned", "dropped")  # MatchState.game_state's words


def before_roll(state: MatchState) -> MatchState:
    """A checked `state` a cube decision can be made in: a game not over (gnubg's "no game", 0,
    is taken as one about to be played, as Backgammon Studio's IDs state an opening), no
    resignation pending, no dice rolled yet, and a Crawford flag only where a side needs one
    point. A double offered is the doubler's decision (what `decide` gives: its take / pass too)."""
    state = checked_state(state)
    if state.game_state > 1:
        raise InvalidArgumentError(f"a cube decision is made in a game being played, not "
                                   f"game_state={state.game_state} ({_GAME_STATES[state.game_state]})")
    if state.resignation:
        raise InvalidArgumentError(f"the match state has a resignation pending (resignation={state.resignation}): "
                                   "no cube decision until it is answered")
    if state.crawford and not crawford_fits(state.score, state.match_length):
        where = f"at {state.score[0]}-{state.score[1]} of {state.match_length}" if state.match_length else "in a money game"
        raise InvalidArgumentError(f"a Crawford game (crawford=True) is one where a side needs one point, not {where}")
    if state.dice is not None:
        raise InvalidArgumentError(f"a cube decision comes before the roll; the match state has "
                                   f"{state.dice[0]}-{state.dice[1]} rolled (dice={state.dice})")
    return state


def checked_probabilities(probabilities: Any) -> tuple[float, float, float, float, float]:
    try:
        items = tuple(probabilities) if not isinstance(probabilities, (str, bytes)) else (probabilities,)
    except TypeError:
        items = (probabilities,)
    if not all(isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_)) for v in items):
        raise InvalidArgumentError(f"probabilities must be five numbers, got {quoted(probabilities)}")
    values = tuple(float(v) for v in items)
    if len(values) != 5 or not all(-1e-9 <= v <= 1 + 1e-9 for v in values):
        raise InvalidArgumentError(f"probabilities must be five numbers in 0..1 (win, win gammon, win backgammon, "
                                   f"lose gammon, lose backgammon), got {quoted(probabilities)}")
    win, wg, wbg, lg, lbg = (min(max(v, 0.0), 1.0) for v in values)
    if inconsistent(np.array([[win, wg, wbg, lg, lbg]]))[0]:
        raise InvalidArgumentError(f"probabilities {values} are {INCONSISTENT}")
    return win, wg, wbg, lg, lbg


INCONSISTENT = "inconsistent: backgammons are within gammons, gammons within the wins (or losses) they count"


def inconsistent(rows: Any) -> Any:
    """For each row of (m, 5) probabilities, whether a backgammon exceeds its gammon or a gammon
    its wins (losses), beyond float32 rounding (1e-6)."""
    win, wg, wbg, lg, lbg = np.asarray(rows, np.float64).T
    slack = 1e-6
    return (wg > win + slack) | (wbg > wg + slack) | (lg > 1 - win + slack) | (lbg > lg + slack)


_FIELDS = tuple(f.name for f in fields(MatchState))


def checked_state(state: MatchState) -> MatchState:
    """`ids.check_state`, remembered for the states met (keyed with their fields' types,
    so that 1 never passes for True)."""
    if not isinstance(state, MatchState):
        return check_state(state)
    try:
        key = (state, tuple(type(getattr(state, name)) for name in _FIELDS))
        hash(key)
    except TypeError:
        return check_state(state)
    found = _STATES.get(key)
    if found is None:
        if len(_STATES) > 4096:
            _STATES.clear()
        found = _STATES[key] = check_state(state)
    return found


_STATES: dict[Any, MatchState] = {}


def state_for(position: Position, state: MatchState, met: MatchEquityTable | None = None, *,
              cube_decision: bool = False) -> MatchState:
    """`state` checked for `position` (`checked_state`, or `before_roll` for a cube decision):
    its side on roll is the position's, and `met` is a match equity table or None."""
    state = before_roll(state) if cube_decision else checked_state(state)
    if (state.on_roll == 1) != (position.turn is Color.WHITE):
        raise InvalidArgumentError(f"the match state has {'White' if state.on_roll == 1 else 'Black'} on roll "
                                   f"(on_roll={state.on_roll}), the position {position.turn.name.title()}")
    _checked_met(met)
    return state


def _checked_met(met: MatchEquityTable | None) -> MatchEquityTable:
    """`met`, or Kazaross-XG2 for None; anything else is an `InvalidArgumentError`."""
    if met is None:
        return KAZAROSS_XG2
    if not isinstance(met, MatchEquityTable):
        raise InvalidArgumentError(f"met must be a nardy.met.MatchEquityTable, got {quoted(met)}")
    return met


def decision(probabilities: Sequence[float], state: MatchState, efficiency: float,
             *, met: MatchEquityTable | None = None) -> CubeDecision:
    """`decide` from five cubeless probabilities and a cube efficiency (0..1), with no position
    (so with no check of the side on roll)."""
    if isinstance(efficiency, bool) or not isinstance(efficiency, (int, float)) or not 0.0 <= efficiency <= 1.0:
        raise InvalidArgumentError(f"efficiency must be a number in 0..1, got {quoted(efficiency)}")
    p, x = checked_probabilities(probabilities), float(efficiency)
    cube = cube_of(before_roll(state), met)
    return cube_decision(equities(p, cube, x), p, x, cube)


def cube_decision(values: tuple[float, float, float], p: tuple[float, float, float, float, float],
                  efficiency: float, cube: Cube) -> CubeDecision:
    """The `CubeDecision` of the equities (no double, double/take, double/pass) found for
    `cube` from the probabilities `p` and the cube efficiency."""
    nd, dt, dp = values
    action = _action(nd, dt, dp, p, cube) if cube.may_double() else _no_cube(cube)
    return CubeDecision(nd, dt, dp, action, p, efficiency, cube.may_double(), cube)


def can_double(state: MatchState, *, met: MatchEquityTable | None = None) -> bool:
    """Whether the side on roll of `state` may turn the cube (gnubg's rule: not in the Crawford
    game, not with the cube on the other side, not when the cube is dead for it)."""
    return cube_of(checked_state(state), met).may_double()


def _no_cube(cube: Cube) -> str:
    """gnubg's words when the side on roll cannot double."""
    if cube.length and (cube.owner is None or cube.owner == cube.mover):
        return "Never double, take (dead cube)" if cube.owner is None else "Never redouble, take (dead cube)"
    return "Cube not available"



# --- many positions at once (the look-ahead) -----------------------------------------------------
def efficiencies(boards: npt.NDArray[np.int8]) -> Floats:
    """`cube_efficiency` of each mover's-view board (rows of 26), in numpy."""
    mine, theirs = boards[:, 25:0:-1] > 0, boards[:, :25] < 0
    top = 25 - np.argmax(mine, axis=1)            # the mover's furthest checker
    their_top = 25 - np.argmax(theirs, axis=1)    # the other side's, in its own numbers
    counts = batch.pips(boards, Variant.SHORT)
    race = np.clip(counts[:, 0] * RACE_FACTOR + RACE_COEFFICIENT, RACE_MIN, RACE_MAX)
    x = np.where(top + their_top > 24, CONTACT_X, np.where((top <= 6) & (their_top <= 6), BEAR_OFF_X, race))
    return np.where((counts[:, 0] == 0) | (counts[:, 1] == 0), 0.0, x)


def _div(part: Floats, whole: Floats | float, default: float) -> Floats:
    """part / whole, `default` where the whole is 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(np.equal(whole, 0), default, np.divide(part, whole))


def _money_cubeful_many(p: Floats, cube: Cube, x: Floats) -> Floats:
    """`_money_cubeful` of each row of `p` with its efficiency in `x`."""
    win = p[:, 0]
    gammons = 0.0 if cube.jacoby and cube.owner is None else 1.0
    dead = 2 * win - 1 + gammons * (p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4])
    edge = (win <= _EPSILON) | (win >= 1 - _EPSILON)
    w = 1.0 + _div(p[:, 1] + p[:, 2], win, 0.0)
    l = 1.0 + _div(p[:, 3] + p[:, 4], 1.0 - win, 0.0)
    take, cash = (l - 0.5) / (w + l + 0.5), (l + 1.0) / (w + l + 0.5)
    with np.errstate(divide="ignore", invalid="ignore"):
        low = -l + (l - 1.0) * win / take
        high = 1.0 + (w - 1.0) * (win - cash) / (1.0 - cash)
        if cube.owner is None:
            middle = -1.0 + 2.0 * (win - take) / (cash - take)
            live = np.where(win < take, -1.0 if cube.jacoby else low,
                            np.where(win < cash, middle, 1.0 if cube.jacoby else high))
        elif cube.owner == cube.mover:
            live = np.where(win < cash, -l + (1.0 + l) * win / cash, high)
        else:
            live = np.where(win < take, low, -1.0 + (w + 1.0) * (win - take) / (1.0 - take))
    return np.where(edge, dead, dead * (1.0 - x) + live * x)


def _match_cubeful_many(p: Floats, cube: Cube, x: Floats) -> Floats:
    """`_match_cubeful` of each row of `p` with its efficiency in `x`."""
    plan = cube.plan()
    (cash, win2, win3), (opp_cash, lose2, lose3) = plan.win, plan.lose
    dead = ((p[:, 0] - p[:, 1]) * cash + (p[:, 1] - p[:, 2]) * win2 + p[:, 2] * win3
            + (1 - p[:, 0] - p[:, 3]) * opp_cash + (p[:, 3] - p[:, 4]) * lose2 + p[:, 4] * lose3)
    if not plan.live:
        return dead
    win = p[:, 0]
    g0, bg0 = _div(p[:, 1] - p[:, 2], win, 0.0), _div(p[:, 2], win, 0.0)
    g1, bg1 = _div(p[:, 3] - p[:, 4], 1 - win, 0.0), _div(p[:, 4], 1 - win, 0.0)
    gammon, bg = ((g0, g1), (bg0, bg1)) if cube.mover == 0 else ((g1, g0), (bg1, bg0))
    above: list[Floats] = [np.zeros_like(win), np.zeros_like(win)]
    for terms in plan.levels:
        here = []
        for k in (0, 1):
            o, t = 1 - k, terms[k]
            dtw = (1 - gammon[k] - bg[k]) * t[1] + gammon[k] * t[2] + bg[k] * t[3]
            if t[0]:
                dtl = (1 - gammon[o] - bg[o]) * t[4] + gammon[o] * t[5] + bg[o] * t[6]
                here.append(_div(dtl - t[7], dtl - dtw, 1.0))
            else:
                here.append(1.0 - above[o] * _div(t[5] - dtw, t[4] - dtw, 1.0))
        above = here
    me = cube.mover
    win_all = (1 - g0 - bg0) * cash + g0 * win2 + bg0 * win3
    lose_all = (1 - g1 - bg1) * opp_cash + g1 * lose2 + bg1 * lose3
    too_good, opp_too_good = above[me], 1.0 - above[1 - me]
    centred, mine = cube.owner is None, cube.owner == me
    losing = lose_all + (opp_cash - lose_all) * _div(win, opp_too_good, 0.0)
    if centred:
        live = np.where(win <= opp_too_good, losing, np.where(
            win < too_good, opp_cash + (cash - opp_cash) * _div(win - opp_too_good, too_good - opp_too_good, 1.0),
            cash + (win_all - cash) * _div(win - too_good, 1.0 - too_good, 1.0)))
    elif not mine:
        live = np.where(win <= opp_too_good, losing,
                        opp_cash + (win_all - opp_cash) * _div(win - opp_too_good, 1.0 - opp_too_good, 1.0))
    else:
        live = np.where(win <= too_good, lose_all + (cash - lose_all) * _div(win, too_good, 0.0),
                        cash + (win_all - cash) * _div(win - too_good, 1.0 - too_good, 1.0))
    return dead * (1.0 - x) + live * x


def cubeful_values(p: Floats, cube: Cube, x: Floats) -> Floats:
    """Cubeful equity of each row for the side on roll of `cube`: money per cube unit, match MWC."""
    return _match_cubeful_many(p, cube, x) if cube.length else _money_cubeful_many(p, cube, x)


def cube_states(cubes: Sequence[Cube | None], top: bool) -> list[Cube | None]:
    """gnubg's MakeCubePos: for each cube state, no double and (not at the top, when the side on
    roll may) double, take; None marks a state that does not arise."""
    out: list[Cube | None] = []
    for cube in cubes:
        out.append(cube)
        out.append(cube.doubled() if cube is not None and not top and cube.may_double() else None)
    return out


def best_actions(values: Floats, states: Sequence[Cube | None], cubes: Sequence[Cube | None]) -> Floats:
    """gnubg's GetECF3: each cube state's value once the side on roll takes its best cube action
    (double when double/take and double/pass are both worth at least no double; the opponent's
    best of take and pass)."""
    out = np.full((len(values), len(cubes)), np.nan)
    for i, cube in enumerate(cubes):
        if cube is None:
            continue
        nd = values[:, 2 * i]
        doubled = states[2 * i + 1]
        if doubled is None:
            out[:, i] = nd
            continue
        dt = values[:, 2 * i + 1] if cube.length else 2.0 * values[:, 2 * i + 1]
        dp = cube.plan().win[0] if cube.length else 1.0
        out[:, i] = np.where((dt >= nd) & (dp >= nd), np.minimum(dt, dp), nd)
    return out


def leaf_values(p: Floats, x: Floats, cubes: Sequence[Cube | None], top: bool) -> Floats:
    """0-ply cubeful values (rows, cube states) for the side on roll, its own cube action taken
    below the top."""
    states = cube_states(cubes, top)
    values = np.full((len(p), len(states)), np.nan)
    for j, cube in enumerate(states):
        if cube is not None:
            values[:, j] = cubeful_values(p, cube, x)
    return best_actions(values, states, cubes)


def other_side(values: Floats, match: bool) -> Floats:
    """Cubeful values for the other side: 1 - MWC in a match, the negative for money."""
    return 1.0 - values if match else -values



# --- chequer play at the score -------------------------------------------------------------------
def play_equity(position: Position, state: MatchState, rules: Rules | None = None, *,
                met: MatchEquityTable | None = None) -> Callable[[Floats, npt.NDArray[np.int8]], Floats]:
    """How `net.rank` judges the plays of `position`'s side on roll at the score and cube of
    `state`: a function of the mover's cubeless probabilities after each play (n, 5) and the
    plays' results (n, 26, the mover's view before the turn passes) giving the mover's equity,
    normalised to the cube in play (a match's as gnubg's equivalent-to-money equity).

    Short nardy with the cube: the cubeful 0-ply equity, the other side on roll with its own
    cube action (gnubg's cubeful move choice). Short nardy without the cube: the cubeless
    equity at the score (gammons at their value there). Long nardy (no cube): the cubeless
    equity at the score by long nardy's match equity table (`met.long_table`: mars and koks at
    their value there, the next game's starter by `rules.next_starter`); for money, the cubeless
    money equity.
    """
    rules = position._rules(rules)
    state = state_for(position, state, met)
    if rules.variant is Variant.LONG:
        return _long_play_equity(state, rules, position.turn is Color.BLACK)
    cube = cube_of(state, met)
    theirs = cube.flipped()
    match = bool(cube.length)
    win, lose = cube.plan().win[0], cube.plan().lose[0]

    def to_equity(mwc: Floats) -> Floats:
        return (2.0 * mwc - (win + lose)) / (win - lose) if win != lose else np.zeros_like(mwc)

    if not rules.cube:
        if not match:
            return lambda probs, after: raw_equity(probs)
        return lambda probs, after: to_equity(_match_cubeful_many(probs, cube, np.zeros(len(probs))))

    def value(probs: Floats, after: npt.NDArray[np.int8]) -> Floats:
        boards = batch.flip(np.ascontiguousarray(after, np.int8), Variant.SHORT)
        mine = other_side(leaf_values(swap_sides(probs), efficiencies(boards), [theirs], False)[:, 0], match)
        return to_equity(mine) if match else mine

    return value


def _long_play_equity(state: MatchState, rules: Rules, black: bool) -> Callable[[Floats, npt.NDArray[np.int8]], Floats]:
    if not state.match_length:
        return lambda probs, after: raw_equity(probs)
    table = long_table(bool(rules.koks))
    if state.match_length > table.length:
        raise InvalidArgumentError(f"the long nardy MET covers matches up to {table.length} points, "
                                   f"not {state.match_length}")
    me = state.on_roll
    away, opp_away = state.match_length - state.score[me], state.match_length - state.score[1 - me]
    if away <= 0 or opp_away <= 0:
        raise InvalidArgumentError(f"the match is over at {state.score[0]}-{state.score[1]} of {state.match_length}")
    top = 3 if rules.koks else 2  # (without koks, what the net puts on a koks is a mars)
    v = {k: table.outcome_mwc(away, opp_away, max(min(k, top), -top), rules.next_starter, black)
         for k in (1, 2, 3, -1, -2, -3)}
    centre, half = (v[1] + v[-1]) / 2, (v[1] - v[-1]) / 2

    def value(probs: Floats, after: npt.NDArray[np.int8]) -> Floats:
        p = probs
        mwc = ((p[:, 0] - p[:, 1]) * v[1] + (p[:, 1] - p[:, 2]) * v[2] + p[:, 2] * v[3]
               + (1 - p[:, 0] - p[:, 3]) * v[-1] + (p[:, 3] - p[:, 4]) * v[-2] + p[:, 4] * v[-3])
        return (mwc - centre) / half if half else np.zeros(len(p))

    return value


def raw_equity(p: Floats) -> Floats:
    """The cubeless money equity of probabilities known to be good (nardy's own)."""
    equity: Floats = 2 * p[..., 0] - 1 + p[..., 1] + p[..., 2] - p[..., 3] - p[..., 4]
    return equity


def swap_sides(probs: Floats) -> Floats:
    """Probabilities of the other side: P(win) = 1 - P(win), gammons exchanged."""
    out: Floats = probs[..., [0, 3, 4, 1, 2]].copy()
    out[..., 0] = 1 - probs[..., 0]
    return out
