"""Match equity: match equity tables (METs), match-winning chances (MWC) at a score, the
conversions between MWC and equity, and gammon values at the score.

A table gives the MWC of a player who needs `away` more points against one who needs
`opp_away`. Its pre-Crawford part covers every score before the Crawford game is over (row 1,
"1-away", is the Crawford game itself); its post-Crawford part gives the trailer's MWC in the
games after it, when the leader needs one point. The built-in table is Kazaross-XG2
(`KAZAROSS_XG2`); `load_met` reads GNU Backgammon's MET files (its `met/*.xml`).

Long nardy (no cube, no Crawford rule) has its own tables, computed by nardy from its self-play
(`LONG`, `LONG_KOKS`, `long_table`; benchmarks/make_long_met.py makes them): the
match-winning chance of the side that starts the next game, since the winner of a game starts
the next.

The score arithmetic follows GNU Backgammon's: the result of a game is looked up in the
post-Crawford column when the game being played is the Crawford game or a post-Crawford one,
and in the pre-Crawford table otherwise.
"""

from __future__ import annotations

import math
import numbers
import os
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..errors import InvalidArgumentError, InvalidNotationError, check_flag, is_whole, quoted
from ..files import read_text
from ..formats.ids import MatchState, check_state
from . import _met_long as data
from ._met_kazaross import DESCRIPTION, NAME, POST, PRE


__all__ = ["MatchEquityTable", "KAZAROSS_XG2", "LongMatchTable", "LONG", "LONG_KOKS", "long_table", "load_met", "Score", "outcome_mwc", "equity_to_mwc",
           "mwc_to_equity", "gammon_values", "mwc", "equity"]

_MAX_BYTES = 1 << 20  # a MET file is a few kilobytes
_NUMBER = re.compile(r"[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")  # a decimal in ASCII


@dataclass(frozen=True)
class MatchEquityTable:
    """A match equity table.

    `pre[i][j]`: MWC of the player needing i+1 points against one needing j+1, pre-Crawford.
    `post[p][j]`: MWC of player p (gnubg's 0 or 1) as the trailer needing j+1 points after the
    Crawford game, the leader needing 1 (most tables give the same column for both players).
    """

    name: str
    description: str
    pre: tuple[tuple[float, ...], ...] = field(repr=False)
    post: tuple[tuple[float, ...], tuple[float, ...]] = field(repr=False)
    plans: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False, hash=False)  # the cube's plans

    @property
    def length(self) -> int:
        """The longest match the table covers."""
        return len(self.pre)

    def mwc(self, away: int, opp_away: int, *, post_crawford: bool = False, player: int = 0) -> float:
        """MWC of the player (gnubg's `player`, for a post-Crawford column) needing `away`
        points against one needing `opp_away`: 1 when `away` <= 0 (won), 0 when `opp_away` <= 0.
        `post_crawford`: the game to come is after the Crawford game (one side needs 1)."""
        if not (is_whole(away) and is_whole(opp_away)) or player not in (0, 1) or not is_whole(player):
            raise InvalidArgumentError(f"mwc() takes whole numbers of points away and a player 0 or 1, got "
                                       f"{quoted(away)}, {quoted(opp_away)} and player {quoted(player)}")
        settled = _settled(self, away, opp_away)
        if settled is not None:
            return settled
        if post_crawford and (away == 1 or opp_away == 1):
            if away == 1:  # the leader: 1 - the trailer's
                return 1.0 - self.post[1 - player][opp_away - 1]
            return self.post[player][away - 1]
        return self.pre[away - 1][opp_away - 1]


def _settled(table: MatchEquityTable | LongMatchTable, away: int, opp_away: int) -> float | None:
    """The MWC of a match already over (1 when `away` <= 0, 0 when `opp_away` <= 0), else None;
    a score beyond the `table`'s length, or one where both sides have won, is an
    `InvalidArgumentError`."""
    if away <= 0 and opp_away <= 0:
        raise InvalidArgumentError(f"a match is won by one side: not a score {away}-away {opp_away}-away")
    if away <= 0:
        return 1.0
    if opp_away <= 0:
        return 0.0
    if max(away, opp_away) > table.length:
        what = f"the MET {table.name!r}" if isinstance(table, MatchEquityTable) else "the long nardy MET"
        raise InvalidArgumentError(f"{what} covers matches up to {table.length} points, "
                                   f"not a score {away}-away {opp_away}-away")
    return None


def _floats(row: ET.Element, path: str) -> tuple[float, ...]:
    """The <me> numbers of a <row>, each a MWC in 0..1."""
    values = []
    for me in row.findall("me"):
        text = (me.text or "").strip()
        if not _NUMBER.fullmatch(text):  # float() takes "٠.٥" and "0.5_0" too
            raise InvalidNotationError(f"{path}: <me> {quoted(me.text)} is not a number")
        value = float(text)
        if not 0.0 <= value <= 1.0:
            raise InvalidNotationError(f"{path}: <me> {value} is not a match-winning chance in 0..1")
        values.append(value)
    return tuple(values)


def load_met(path: str | os.PathLike[str]) -> MatchEquityTable:
    """The match equity table in GNU Backgammon's MET XML file at `path` (its met.dtd: an <info>
    with <name>, <description> and <length>, a <pre-crawford-table> and one <post-crawford-table>
    for both players or one per player), explicit tables only: a parametric table (type "mec" or
    "zadeh") or any malformed file is an `InvalidNotationError` naming what is wrong."""
    text = read_text(path, "a match equity table is read from", _MAX_BYTES)
    where = os.fspath(path)
    if len(text) > _MAX_BYTES:
        raise InvalidNotationError(f"{where}: larger than {_MAX_BYTES} characters; not a MET file")
    if "<!ENTITY" in text:
        raise InvalidNotationError(f"{where}: a MET file declares no entities")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise InvalidNotationError(f"{where}: not well-formed XML: {exc}") from None
    if root.tag != "met":
        raise InvalidNotationError(f"{where}: the root element is <{root.tag}>, not <met>")
    name = (root.findtext("info/name") or "").strip()
    description = (root.findtext("info/description") or "").strip()
    pre_table = root.find("pre-crawford-table")
    if pre_table is None:
        raise InvalidNotationError(f"{where}: no <pre-crawford-table>")
    _explicit(pre_table, where)
    length_text = (root.findtext("info/length") or "").strip()
    if not re.fullmatch(r"[-+]?[0-9]{1,9}", length_text):  # ASCII digits: int() takes "٢" too
        raise InvalidNotationError(f"{where}: <info><length> {quoted(length_text)} is not a whole number")
    length = int(length_text)
    if not 1 <= length <= 64:
        raise InvalidNotationError(f"{where}: <info><length> {length} is not in 1..64")
    pre = tuple(_floats(row, where) for row in pre_table.findall("row"))
    if len(pre) != length or any(len(row) != length for row in pre):
        raise InvalidNotationError(f"{where}: the pre-Crawford table is not {length} rows of {length} <me>")
    post: dict[int, tuple[float, ...]] = {}
    for table in root.findall("post-crawford-table"):
        _explicit(table, where)
        rows = table.findall("row")
        if len(rows) != 1:
            raise InvalidNotationError(f"{where}: a post-Crawford table is one <row>, got {len(rows)}")
        column = _floats(rows[0], where)
        if len(column) < length - 1:
            raise InvalidNotationError(f"{where}: the post-Crawford row has {len(column)} <me>, "
                                       f"fewer than {length - 1}")
        column = (column + column[-1:] * length)[:length]
        player = table.get("player", "both")
        if player not in ("both", "0", "1"):
            raise InvalidNotationError(f"{where}: post-Crawford player {player!r} is not both, 0 or 1")
        for p in ((0, 1) if player == "both" else (int(player),)):
            post[p] = column
    if set(post) != {0, 1}:
        raise InvalidNotationError(f"{where}: the post-Crawford table misses player {({0, 1} - set(post)).pop()}")
    return MatchEquityTable(name, description, pre, (post[0], post[1]))


def _explicit(table: ET.Element, where: str) -> None:
    kind = table.get("type", "explicit")
    if kind != "explicit":
        raise InvalidNotationError(f"{where}: a {kind!r} table is computed from parameters; only explicit "
                                   "tables are read")


@lru_cache(maxsize=1)
def _kazaross() -> MatchEquityTable:
    return MatchEquityTable(NAME, DESCRIPTION, PRE, (POST, POST))


KAZAROSS_XG2 = _kazaross()


# --- the score ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Score:
    """A match score seen by one player (`me`, gnubg's 0 or 1): the points each side still needs,
    whether this game is the Crawford game, and the table that prices it."""

    away: int
    opp_away: int
    crawford: bool
    me: int = 0
    table: MatchEquityTable = KAZAROSS_XG2

    def __post_init__(self) -> None:
        if not (is_whole(self.away) and is_whole(self.opp_away)) or min(self.away, self.opp_away) < 1:
            raise InvalidArgumentError(f"a Score's away and opp_away are the points each side needs, whole numbers "
                                       f">= 1, got {quoted(self.away)} and {quoted(self.opp_away)}")
        if not isinstance(self.crawford, bool) or self.me not in (0, 1) or not is_whole(self.me):
            raise InvalidArgumentError(f"a Score's crawford is True or False and me is 0 or 1, got "
                                       f"{quoted(self.crawford)} and {quoted(self.me)}")
        if not isinstance(self.table, MatchEquityTable):
            raise InvalidArgumentError(f"a Score's table is a MatchEquityTable, got {quoted(self.table)}")
        _settled(self.table, self.away, self.opp_away)   # (a score beyond the table's length: refused)
        if self.crawford and 1 not in (self.away, self.opp_away):
            raise InvalidArgumentError(f"a Crawford game (crawford=True) is one where a side needs one point, "
                                       f"not {self.away}-away {self.opp_away}-away")

    @classmethod
    def of(cls, state: MatchState, player: int | None = None, table: MatchEquityTable | None = None) -> Score:
        """The score of `state` (a match: `match_length` > 0) for `player` (default: on roll)."""
        state = check_state(state)
        if not state.match_length:
            raise InvalidArgumentError("a money game has no match score")
        if player not in (None, 0, 1) or isinstance(player, bool):
            raise InvalidArgumentError(f"player is gnubg's 0 or 1 (None: the side on roll), got {quoted(player)}")
        if max(state.score) >= state.match_length:
            raise InvalidArgumentError(f"the match is over at {state.score[0]}-{state.score[1]} of {state.match_length}")
        me = state.on_roll if player is None else player
        length = state.match_length
        return cls(length - state.score[me], length - state.score[1 - me], state.crawford, me,
                   KAZAROSS_XG2 if table is None else table)

    @property
    def post_crawford(self) -> bool:
        """This game is the Crawford game or after it: a side needs one point."""
        return self.crawford or self.away == 1 or self.opp_away == 1


def _check_cube(cube: int) -> None:
    if not is_whole(cube) or cube < 1 or cube & (cube - 1):
        raise InvalidArgumentError(f"cube is the cube's value, a power of 2 (1, 2, 4, ...), got {quoted(cube)}")


def _check_score(score: Score) -> None:
    if not isinstance(score, Score):
        raise InvalidArgumentError(f"score must be a met.Score, got {quoted(score)}")


def _check_number(value: float, name: str) -> None:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise InvalidArgumentError(f"{name} must be a finite number, got {quoted(value)}")


def outcome_mwc(score: Score, points: int) -> float:
    """My MWC once this game ends with `points` to me (> 0) or to the opponent (< 0)."""
    _check_score(score)
    if not is_whole(points):
        raise InvalidArgumentError(f"points must be a whole number, got {quoted(points)}")
    away, opp = score.away - max(points, 0), score.opp_away - max(-points, 0)
    return score.table.mwc(away, opp, post_crawford=score.post_crawford, player=score.me)


def equity_to_mwc(equity: float, score: Score, cube: int = 1) -> float:
    """The MWC of a cubeless `equity` normalised to the cube (+1 winning `cube` points, -1 losing
    them), by linear interpolation as gnubg does (beyond +-1, a gammon's equity, it can leave 0..1,
    which `mwc_to_equity` refuses)."""
    _check_number(equity, "equity")
    _check_cube(cube)
    win, lose = outcome_mwc(score, cube), outcome_mwc(score, -cube)
    return 0.5 * (equity * (win - lose) + win + lose)


def mwc_to_equity(mwc: float, score: Score, cube: int = 1) -> float:
    """The inverse of `equity_to_mwc`: `mwc` (a match-winning chance, 0..1) as an equity
    normalised to the cube."""
    _check_number(mwc, "mwc")
    if not 0.0 <= mwc <= 1.0:
        raise InvalidArgumentError(f"mwc is a match-winning chance in 0..1, got {quoted(mwc)}")
    _check_cube(cube)
    win, lose = outcome_mwc(score, cube), outcome_mwc(score, -cube)
    return (2.0 * mwc - (win + lose)) / (win - lose)


def gammon_values(score: Score, cube: int = 1) -> tuple[float, float, float, float]:
    """gnubg's gammon prices at the score: what a gammon won, a gammon lost, a backgammon won and
    a backgammon lost add to a single game, in equity normalised to the cube (money: 1, 1, 1, 1;
    a dead gammon: 0). The four are never negative."""
    _check_score(score)
    _check_cube(cube)
    single_win, single_lose = outcome_mwc(score, cube), outcome_mwc(score, -cube)
    centre, half = (single_win + single_lose) / 2, (single_win - single_lose) / 2
    if abs(half) <= 1e-7:
        return 0.0, 0.0, 0.0, 0.0
    win_g = (outcome_mwc(score, 2 * cube) - centre) / half - 1
    lose_g = (centre - outcome_mwc(score, -2 * cube)) / half - 1
    win_bg = (outcome_mwc(score, 3 * cube) - centre) / half - (win_g + 1)
    lose_bg = (centre - outcome_mwc(score, -3 * cube)) / half - (lose_g + 1)
    return max(win_g, 0.0), max(lose_g, 0.0), max(win_bg, 0.0), max(lose_bg, 0.0)


def mwc(equity_value: float, state: MatchState, table: MatchEquityTable | None = None) -> float:
    """The MWC, for the side on roll of the match `state`, of its equity `equity_value`
    normalised to the cube in play."""
    return equity_to_mwc(equity_value, Score.of(state, table=table), state.cube_value)


def equity(mwc_value: float, state: MatchState, table: MatchEquityTable | None = None) -> float:
    """The equity normalised to the cube in play of the MWC `mwc_value` of the side on roll."""
    return mwc_to_equity(mwc_value, Score.of(state, table=table), state.cube_value)


# --- long nardy -----------------------------------------------------------------------------------
_NEXT_STARTERS = ("winner", "rolloff", "black")  # the rules' next_starter choices


@dataclass(frozen=True)
class LongMatchTable:
    """Long nardy's match equity table (no cube, no Crawford rule), computed by nardy from its
    self-play (benchmarks/make_long_met.py): `starter[i][j]`, the MWC of the side that starts
    the next game needing i+1 points against j+1 when the winner of a game starts the next
    (`next_starter="winner"`, long nardy's default); `rolloff[i][j]`, when a roll-off decides;
    `won`, `lost`: the starter's chances to win and lose 1, 2 and 3 points (oin, mars, koks) in
    a game, from which both follow."""

    name: str
    koks: bool
    starter: tuple[tuple[float, ...], ...] = field(repr=False)
    rolloff: tuple[tuple[float, ...], ...] = field(repr=False)
    won: tuple[float, ...]
    lost: tuple[float, ...]

    @property
    def length(self) -> int:
        """The longest match the table covers."""
        return len(self.starter)

    def mwc(self, away: int, opp_away: int, *, starts: bool | None = None) -> float:
        """The MWC before a game of the side needing `away` points against `opp_away`: it starts
        the game (`starts` True), the other side does (False), or a roll-off decides (None)."""
        if not (is_whole(away) and is_whole(opp_away)):
            raise InvalidArgumentError(f"mwc() takes whole numbers of points away, got {quoted(away)} and "
                                       f"{quoted(opp_away)}")
        if starts is not None:
            starts = check_flag(starts, "starts (or None, a roll-off)")
        settled = _settled(self, away, opp_away)
        if settled is not None:
            return settled
        if starts is None:
            return self.rolloff[away - 1][opp_away - 1]
        return self.starter[away - 1][opp_away - 1] if starts else 1.0 - self.starter[opp_away - 1][away - 1]

    def outcome_mwc(self, away: int, opp_away: int, points: int, next_starter: str, black: bool) -> float:
        """The MWC once this game ends with `points` to the side needing `away` (< 0: to the
        other side), the next game's starter by the rules' `next_starter` ("winner", "rolloff",
        "black"; `black`: this side plays Black)."""
        if not (is_whole(away) and is_whole(opp_away) and is_whole(points)):
            raise InvalidArgumentError(f"outcome_mwc() takes whole numbers of points away and points, got "
                                       f"{quoted(away)}, {quoted(opp_away)} and {quoted(points)}")
        if next_starter not in _NEXT_STARTERS:
            raise InvalidArgumentError(f"next_starter is one of {', '.join(map(repr, _NEXT_STARTERS))}, "
                                       f"got {quoted(next_starter)}")
        black = check_flag(black, "black")
        won = points > 0
        away, opp_away = away - max(points, 0), opp_away - max(-points, 0)
        starts = {"winner": won, "rolloff": None, "black": black}[next_starter]
        return self.mwc(away, opp_away, starts=starts)


@lru_cache(maxsize=2)
def _long(koks: bool) -> LongMatchTable:
    prefix = "KOKS_" if koks else ""
    name = "nardy long nardy self-play MET" + (" (koks)" if koks else "")
    return LongMatchTable(name, koks, getattr(data, prefix + "STARTER"), getattr(data, prefix + "ROLLOFF"),
                          getattr(data, prefix + "WON"), getattr(data, prefix + "LOST"))


LONG = _long(False)
LONG_KOKS = _long(True)


def long_table(koks: bool = False) -> LongMatchTable:
    """Long nardy's match equity table for rules with or without the koks option."""
    return LONG_KOKS if check_flag(koks, "koks") else LONG
