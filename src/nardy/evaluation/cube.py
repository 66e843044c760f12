"""The doubling cube's decisions with the net: `decide` at 0 ply and looking 1 or 2 rolls ahead,
and a net player's cube actions. The arithmetic with no net (Janowski's interpolation, cube
efficiencies, match equity, the state checks, chequer play at the score) is
`nardy.evaluation.cubemath`, whose public names this module also gives.

`decide` gives the three cubeful equities of the side on roll (no double, double/take,
double/pass; normalised to the cube in play, match play as equivalent-to-money equity as gnubg
prints it), the proper action in gnubg's words, and the take point. With `ply` 1 or 2 it looks
ahead as gnubg's n-ply cubeful evaluation does (`_node`): every cube state and its double judged
over the 21 rolls, each answered by the best 0-ply cubeful play, the cube action taken at every
level, Janowski's equities at the leaves (`cubemath.leaf_values`). `net_cube_action` is the net's
double, take or pass in a `Game`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Sequence

import numpy as np
import numpy.typing as npt

from .. import batch
from ..errors import GameOverError, InvalidArgumentError, is_whole, quoted
from ..formats.ids import MatchState
from ..game import Game
from ..position import Position
from ..rules import Rules, Variant
from .cubemath import (BEAR_OFF, CONTACT, OVER, RACE, Cube, CubeDecision, Floats, best_actions, can_double,
                       checked_probabilities, class_efficiency, cube_decision, cube_efficiency, cube_of, cube_states, decision,
                       efficiencies, equities, equity_from_mwc, exact_bear_off, leaf_values, other_side,
                       play_equity, position_class, state_for)
from .met import MatchEquityTable
from .net import NetSet, ROLL_WEIGHTS, ROLLS, Net, evaluate, evaluate_boards, finished_rows, net_for, raw_equity, \
    segment_argmax, swap_sides

__all__ = ["BEAR_OFF", "CONTACT", "OVER", "RACE", "CubeDecision", "can_double", "cube_efficiency", "decide",
           "decision", "net_cube_action", "play_equity", "position_class"]

PLIES = (0, 1, 2)  # the look-aheads decide offers
_SHORT = Rules("short")


def decide(position: Position, state: MatchState, ply: int = 0, probabilities: Sequence[float] | None = None,
           rules: Rules | None = None, *, met: MatchEquityTable | None = None, net: Net | NetSet | None = None
           ) -> CubeDecision:
    """The cube decision of the side on roll of a short nardy `position` before it rolls, at the
    score and cube of `state` (a `notation.MatchState`: `match_length` 0 is money, with the Jacoby
    rule as `state.jacoby` says; no beavers).

    `probabilities`: five cubeless probabilities for the side on roll in gnubg's order (win, win
    gammon, win backgammon, lose gammon, lose backgammon), from any engine; by default nardy's
    evaluator's (`net`: another short nardy net). `ply` 1 or 2 looks that many rolls ahead as
    gnubg's n-ply cubeful evaluation does (`_node`): the equities are then n-ply cubeful ones and
    `probabilities` the n-ply cubeless ones; it needs nardy's own evaluation (no `probabilities`).
    `met`: the match equity table (default Kazaross-XG2). Bear-offs of six or fewer checkers a
    side are priced by the two-sided table (`cubemath.exact_bear_off`): exactly at money (at
    any `ply`), with fitted cube efficiencies in a match (at 0 ply), as gnubg does; at money the
    decision's `probabilities`, take point and efficiency are still those of the given (or
    evaluated) probabilities, while its three equities are the table's. Long nardy has no cube:
    `InvalidArgumentError`, as is a `state` with no decision to make (the game over, a double
    offered, a resignation pending, dice rolled); a finished `position` is a `GameOverError`.
    """
    if not isinstance(position, Position):
        raise InvalidArgumentError(f"position must be a nardy Position, got {quoted(position)}")
    if rules is None:
        rules = _SHORT
    elif not isinstance(rules, Rules):
        raise InvalidArgumentError(f"rules must be a nardy Rules, got {quoted(rules)}")
    if position.variant is not Variant.SHORT or rules.variant is not Variant.SHORT:
        raise InvalidArgumentError("long nardy has no doubling cube; cube decisions are for short nardy")
    if not rules.cube:
        raise InvalidArgumentError("these rules play without the doubling cube (cube=False)")
    if position.is_game_over():
        raise GameOverError(f"the game is over in {position!r}: there is no cube decision")
    if not is_whole(ply) or ply not in PLIES:
        raise InvalidArgumentError(f"ply must be 0, 1 or 2, got {quoted(ply)}")
    if ply and probabilities is not None:
        raise InvalidArgumentError("probabilities= are a 0-ply evaluation; a look-ahead (ply 1 or 2) needs "
                                   "nardy's own evaluation")
    cube = cube_of(state_for(position, state, met, cube_decision=True), met)
    kind, pips = position_class(position)
    x = class_efficiency(kind, pips)
    given = None if probabilities is None else checked_probabilities(probabilities)
    exact = exact_bear_off(position.view(), cube, given) if kind == BEAR_OFF and not (ply and cube.length) else None
    if exact is not None:
        values, p, x = exact
        return cube_decision(values, p, x, cube)
    if ply:
        values, p = _looked_ahead(position, cube, int(ply), rules, net)
        return cube_decision(values, p, x, cube)
    if given is None:
        win, wg, wbg, lg, lbg = (float(v) for v in evaluate(position, rules=rules, net=net)[0])
        p = (win, wg, wbg, lg, lbg)
    else:
        p = given
    return cube_decision(equities(p, cube, x), p, x, cube)


# --- looking ahead ------------------------------------------------------------------------------
def _node(boards: npt.NDArray[np.int8], cubes: Sequence[Cube | None], chooser: Cube, ply: int, top: bool,
          rules: Rules, net: Net | NetSet, probs: Floats | None = None) -> tuple[Floats, Floats]:
    """gnubg's n-ply cubeful evaluation (EvaluatePositionCubeful4) of mover's-view boards, the
    side on roll being `chooser.mover`: the cubeful value of each cube state in `cubes` (money
    per cube unit, match MWC; NaN for None) once the side on roll takes its best cube action
    (none at the top), and the cubeless probabilities, `ply` rolls ahead. Below 0 ply, each of
    the 21 rolls is answered by the play with the best 0-ply cubeful equity for the cube in play
    (`chooser`), whose result is judged one ply less deep for every cube state and its double."""
    if probs is None:
        probs = evaluate_boards(boards, rules, net, after=False)
    done = finished_rows(boards) if ply > 0 else np.ones(len(boards), bool)
    values = np.empty((len(boards), len(cubes)))
    if done.any():
        values[done] = leaf_values(probs[done], efficiencies(boards[done]), cubes, top)
    live = np.flatnonzero(~done)
    if live.size == 0:
        return values, probs
    probs = probs.copy()
    states = cube_states(cubes, top)
    rows = np.repeat(boards[live], len(ROLLS), axis=0)
    rolls = np.tile(np.array(ROLLS, np.int8), (live.size, 1))
    children, offsets, _ = batch.generate(rows, rolls, rules)
    theirs = batch.flip(children, rules.variant)          # the other side on roll
    their_probs = evaluate_boards(theirs, rules, net, after=False)
    their_chooser = chooser.flipped()
    x = efficiencies(theirs)
    pick = _best_plays(other_side(leaf_values(their_probs, x, [their_chooser], False)[:, 0], bool(chooser.length)),
                       -raw_equity(their_probs), offsets)
    below = [None if c is None else c.flipped() for c in states]
    if ply == 1:
        their_values = leaf_values(their_probs[pick], x[pick], below, False)
        chosen_probs = their_probs[pick]
    else:
        their_values, chosen_probs = _node(theirs[pick], below, their_chooser, ply - 1, False, rules, net,
                                           their_probs[pick])
    mine = other_side(their_values, bool(chooser.length)).reshape(live.size, len(ROLLS), len(states))
    probs[live] = np.einsum("k,nkj->nj", ROLL_WEIGHTS, swap_sides(chosen_probs).reshape(live.size, len(ROLLS), 5))
    with np.errstate(invalid="ignore"):
        averaged = np.einsum("k,nkj->nj", ROLL_WEIGHTS, mine)
    values[live] = best_actions(averaged, states, cubes)
    return values, probs


def _best_plays(values: Floats, cubeless: Floats, offsets: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """For each segment of `offsets`, the index of the play of the highest cubeful value, ties
    (all plays lose to a double and a pass, say) broken by the highest cubeless equity, then
    by the first."""
    best = np.repeat(np.maximum.reduceat(values, offsets[:-1]), np.diff(offsets))
    return segment_argmax(np.where(values == best, cubeless, -np.inf), offsets)


def _looked_ahead(position: Position, cube: Cube, ply: int, rules: Rules, net: Net | NetSet | None
                  ) -> tuple[tuple[float, float, float], tuple[float, float, float, float, float]]:
    """(no double, double/take, double/pass) normalised to the cube, and the cubeless
    probabilities, `ply` rolls ahead."""
    boards = np.array([position.view()], np.int8)
    values, probs = _node(boards, [cube, cube.doubled()], cube, ply, True, rules, net_for(net, rules))
    nd, dt = float(values[0, 0]), float(values[0, 1])
    p = checked_probabilities(probs[0])
    if not cube.length:
        return (nd, 2.0 * dt, 1.0), p
    dp = cube.plan().win[0]
    return (equity_from_mwc(nd, cube), equity_from_mwc(dt, cube), equity_from_mwc(dp, cube)), p


# --- a net player's cube actions ----------------------------------------------------------------
def net_cube_action(game: Any, ply: int = 0, *, net: Net | NetSet | None = None) -> str | None:
    """The net's cube action in a short nardy `nardy.Game` before the roll: "take" or "drop"
    when a double is offered (take when double/take is worth no more to the doubler than
    double/pass), "double" when the side on roll may double and `decide` says so, else None.
    A net player: `if net_cube_action(g) == "double": g.double()`."""
    if not isinstance(game, Game):
        raise InvalidArgumentError(f"net_cube_action takes a Game, got {quoted(game)}")
    offered = game.doubled_by is not None
    if game.result is not None or game.position is None or not (offered or game.may_double()):
        return None
    state = game.match_state()
    if offered:  # the decision of the side that doubled, before its double
        state = replace(state, double_offered=False, turn=state.on_roll)
    d = decide(game.position, state, ply, rules=game.rules, net=net)
    if offered:
        return "take" if d.double_take <= d.double_pass else "drop"
    return "double" if d.can_double and d.double_take >= d.no_double and d.double_pass >= d.no_double else None
