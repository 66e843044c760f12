"""Chequer play at the score (`eval.rank(..., state=)`, `cube.play_equity`): short nardy's
cubeful 0-ply move choice, and long nardy's by its own match equity table."""

from __future__ import annotations

import random

import numpy as np
import pytest

from nardy import Color, Position, Rules
from nardy.evaluation.cube import decide
from nardy.errors import InvalidArgumentError
from nardy.evaluation.net import best_move, rank
from nardy.evaluation.met import equity as to_equity
from nardy.evaluation.met import long_table
from nardy.evaluation.met import mwc as to_mwc
from nardy.formats.ids import MatchState


def positions(variant: str, n: int, seed: int = 3) -> list[tuple[Position, tuple[int, int]]]:
    """(position, dice) of seeded random play, White on roll with a roll it can play."""
    rng = random.Random(seed)
    found = []
    p = Position.start(variant)
    while len(found) < n:
        if p.is_game_over():
            p = Position.start(variant)
            continue
        roll = (rng.randint(1, 6), rng.randint(1, 6))
        if p.turn is Color.WHITE and len(p.legal_moves(roll)) > 3 and rng.random() < 0.3:
            found.append((p, roll))
        p = rng.choice(p.children(roll))
    return found


def after_state(state: MatchState) -> MatchState:
    return MatchState(cube_value=state.cube_value, cube_owner=state.cube_owner, on_roll=1 - state.on_roll,
                      turn=1 - state.on_roll, match_length=state.match_length, score=state.score,
                      crawford=state.crawford, jacoby=state.jacoby)


@pytest.mark.parametrize("state", [MatchState(), MatchState(jacoby=True, cube_value=2, cube_owner=0),
                                   MatchState(match_length=7, score=(2, 4)),
                                   MatchState(match_length=5, score=(3, 1), cube_value=2, cube_owner=1)], ids=str)
def test_short_equities_are_the_replies_zero_ply_cube_decisions(state) -> None:
    for position, dice in positions("short", 3):
        ranked = rank(position, dice, state=state)
        for move, value, probs in ranked[:5]:
            child = position.apply(move)
            d = decide(child, after_state(state))
            if state.match_length:
                expected = to_equity(1 - to_mwc(d.equity, after_state(state)), state)
            else:
                expected = -d.equity
            assert value == pytest.approx(expected, abs=1e-9)
            np.testing.assert_allclose(probs, rank(position, dice)[[m for m, _, _ in rank(position, dice)].index(move)][2])
        assert [v for _, v, _ in ranked] == sorted((v for _, v, _ in ranked), reverse=True)


def test_without_a_state_nothing_changes() -> None:
    for position, dice in positions("short", 3) + positions("long", 3):
        plain = rank(position, dice)
        assert [(m, e) for m, e, _ in rank(position, dice, state=None)] == [(m, e) for m, e, _ in plain]


def test_at_double_match_point_only_winning_counts() -> None:
    dmp = MatchState(match_length=7, score=(6, 6))
    changed = 0
    for position, dice in positions("short", 30):
        ranked = rank(position, dice, state=dmp)
        wins = [p[0] for _, _, p in ranked]
        assert [v for _, v, _ in ranked] == pytest.approx([2 * w - 1 for w in wins], abs=1e-9)
        changed += ranked[0][0] != best_move(position, dice)
    assert changed > 0  # gammons count for money, not at double match point


def test_long_nardy_at_the_score() -> None:
    rules = Rules("long")
    table = long_table(False)
    state = MatchState(match_length=5, score=(1, 4))  # White (on roll) needs 1, Black 4: a mars is worth an oin
    changed = 0
    for position, dice in positions("long", 60, seed=8):
        ranked = rank(position, dice, rules, state=state)
        for move, value, p in ranked[:3]:
            win = table.outcome_mwc(1, 4, 1, "winner", False)
            lose1, lose2 = (table.outcome_mwc(1, 4, -k, "winner", False) for k in (1, 2))
            mwc = p[0] * win + (1 - p[0] - p[3]) * lose1 + p[3] * lose2
            assert value == pytest.approx((2 * mwc - win - lose1) / (win - lose1), abs=1e-9)
        changed += ranked[0][0] != best_move(position, dice, rules=rules)
    assert changed > 0


def test_the_long_table() -> None:
    for koks in (False, True):
        t = long_table(koks)
        assert t.length == 25
        for a in range(1, 8):
            assert t.mwc(a, a, starts=None) == pytest.approx(0.5, abs=1e-9)
            assert t.mwc(a, a, starts=True) > 0.5 > t.mwc(a, a, starts=False)
            for b in range(1, 8):
                assert t.mwc(a, b, starts=True) == pytest.approx(1 - t.mwc(b, a, starts=False))
                assert t.mwc(a, b, starts=None) == pytest.approx(1 - t.mwc(b, a, starts=None), abs=1.1e-5)  # (5 decimals)
                if a > 1:
                    assert t.mwc(a, b, starts=True) < t.mwc(a - 1, b, starts=True)
        assert sum(t.won) + sum(t.lost) == pytest.approx(1, abs=1e-4)
        assert (t.won[2] + t.lost[2] > 0) == koks
    assert long_table(False).mwc(0, 3) == 1.0 and long_table(False).mwc(3, 0) == 0.0


def test_errors() -> None:
    position, dice = positions("short", 1)[0]
    with pytest.raises(InvalidArgumentError, match="on roll"):
        rank(position, dice, state=MatchState(on_roll=0, turn=0))
    with pytest.raises(InvalidArgumentError):
        rank(position, dice, state="7-point")
    start = Position.start("short")
    with pytest.raises(InvalidArgumentError, match=r"dice 3-1 contradict the match state's dice=\(6, 5\)"):
        rank(start, (3, 1), state=MatchState(dice=(6, 5)))
    same = [(m, e) for m, e, _ in rank(start, (3, 1), state=MatchState(dice=(1, 3)))]
    assert same == [(m, e) for m, e, _ in rank(start, (3, 1), state=MatchState())]
    long_position, long_dice = positions("long", 1)[0]
    with pytest.raises(InvalidArgumentError, match="up to 25"):
        rank(long_position, long_dice, state=MatchState(match_length=99))


def test_the_long_tables_follow_from_their_outcomes() -> None:
    from benchmarks.make_long_met import rolloff_table, starter_table

    for koks in (False, True):
        t = long_table(koks)
        np.testing.assert_allclose(starter_table(list(t.won), list(t.lost), t.length), t.starter, atol=2e-5)
        np.testing.assert_allclose(rolloff_table(list(t.won), list(t.lost), t.length), t.rolloff, atol=2e-5)


def test_net_cube_actions_follow_decide() -> None:
    from nardy import Match
    from nardy.evaluation.cube import net_cube_action
    from nardy.evaluation.net import net_move

    match = Match("short", 7, seed=3)
    seen = set()
    while match.winner is None:
        game = match.new_game()
        game.roll_off()
        while not game.over:
            if game.dice is None:
                action = net_cube_action(game)
                if game.may_double():
                    d = decide(game.position, game.match_state())
                    doubles = d.can_double and d.double_take >= d.no_double and d.double_pass >= d.no_double
                    assert (action == "double") == doubles
                if action == "double":
                    game.double()
                    answer = net_cube_action(game)
                    assert answer == ("take" if d.double_take <= d.double_pass else "drop")
                    getattr(game, answer)()
                    seen.add(answer)
                    if game.over:
                        break
                game.roll()
            game.play(net_move(game, at_score=True))
        match.finish_game()
    assert seen


def test_net_players_refuse_what_is_not_a_game() -> None:
    from nardy import Game
    from nardy.evaluation.cube import net_cube_action
    from nardy.evaluation.cubeful import play
    from nardy.evaluation.net import net_move

    with pytest.raises(InvalidArgumentError, match="takes a Game"):
        net_cube_action("game")
    game = Game("short", seed=1)
    game.roll_off()
    assert net_cube_action(game) is None               # the opening roll's dice are played: no cube
    with pytest.raises(InvalidArgumentError, match="at_score is True or False, got 'no'"):
        net_move(game, at_score="no")
    game.play(best_move(game.position, game.dice))
    with pytest.raises(InvalidArgumentError, match="ply"):
        net_cube_action(game, ply=5)
    with pytest.raises(InvalidArgumentError, match="ply"):
        play(game, ply="two")
