"""Result kinds and points (docs/rules.md sections 4 and 5, "Scoring"), points before the cube.

Finished positions are built with absolute (White's) point numbers. White's home is 1..6 in
both games. Short nardy: Black's point q is White's 25-q, so Black's home is White's 19..24.
Long nardy: Black's point q is White's q-12 (q > 12) or q+12, so Black's home (its 1..6) is
White's 13..18 and Black's first quarter (its 19..24) is White's 7..12 (its head is White's 12).
After the winning move the loser is on roll; every case is also checked with the winner on roll.
"""

from __future__ import annotations

import pytest

from nardy import Color, Move, Position, Rules

W, B = Color.WHITE, Color.BLACK
TURNS = pytest.mark.parametrize("turn", [B, W])


def finished(variant, white, black, turn, **bars) -> Position:
    p = Position.from_points(variant, white=white, black=black, turn=turn, **bars)
    assert p.is_game_over()
    return p


# -- short nardy --------------------------------------------------------------------------------


@TURNS
def test_short_single_loser_has_borne_off(turn):
    p = finished("short", {}, {19: 14}, turn)
    assert p.result(Rules("short")) == (W, "single", 1)


@TURNS
def test_short_single_even_with_checkers_on_bar_and_in_winner_home(turn):
    # one checker off is enough for a single game, whatever stands on the bar or in the home
    p = finished("short", {}, {3: 1, 19: 12}, turn, black_bar=1)
    assert p.result(Rules("short")) == (W, "single", 1)


@TURNS
def test_short_gammon_none_borne_off(turn):
    p = finished("short", {}, {19: 15}, turn)
    assert p.result(Rules("short")) == (W, "gammon", 2)


@TURNS
def test_short_gammon_checker_just_outside_winner_home(turn):
    p = finished("short", {}, {7: 1, 19: 14}, turn)  # White's 7 is not in White's home
    assert p.result(Rules("short")) == (W, "gammon", 2)


@TURNS
def test_short_backgammon_checker_on_bar(turn):
    p = finished("short", {}, {19: 14}, turn, black_bar=1)
    assert p.result(Rules("short")) == (W, "backgammon", 3)


@TURNS
@pytest.mark.parametrize("point", [1, 6])
def test_short_backgammon_checker_in_winner_home(turn, point):
    p = finished("short", {}, {point: 1, 19: 14}, turn)
    assert p.result(Rules("short")) == (W, "backgammon", 3)


@TURNS
@pytest.mark.parametrize(
    ("white", "bar", "kind", "points"),
    [
        ({6: 14}, 0, "single", 1),
        ({6: 15}, 0, "gammon", 2),
        ({18: 1, 6: 14}, 0, "gammon", 2),  # White's 18 is Black's 7: outside Black's home
        ({19: 1, 6: 14}, 0, "backgammon", 3),  # White's 19 is Black's 6: in Black's home
        ({24: 1, 6: 14}, 0, "backgammon", 3),
        ({6: 14}, 1, "backgammon", 3),
    ],
)
def test_short_black_wins_every_kind(turn, white, bar, kind, points):
    p = finished("short", white, {}, turn, white_bar=bar)
    assert p.result(Rules("short")) == (B, kind, points)


def test_short_backgammon_reached_by_play(backend):
    rules = Rules("short")
    p = Position.from_points("short", white={1: 1}, black={3: 1, 19: 14})
    (move,) = p.legal_moves((2, 1), rules, backend=backend)
    end = p.apply(move, rules, backend=backend)
    assert end.result(rules) == (W, "backgammon", 3)


def test_short_gammon_reached_by_play_after_hit(backend):
    # 2/1*/off: the hit checker is on the bar when the game ends -> backgammon
    rules = Rules("short")
    p = Position.from_points("short", white={2: 1}, black={1: 1, 19: 14})
    end = p.apply(Move((6, 1), [(2, 1), (1, 0)]), rules, backend=backend)
    assert end.bar(B) == 1
    assert end.result(rules) == (W, "backgammon", 3)


def test_short_no_result_while_game_goes_on():
    assert Position.start("short").result(Rules("short")) is None


# -- long nardy -----------------------------------------------------------------------------------

KOKS = pytest.mark.parametrize("koks", [False, True])


@TURNS
@KOKS
def test_long_oin_loser_has_borne_off(turn, koks):
    # even with a checker still on its head (first quarter): one checker off makes it oin
    p = finished("long", {}, {12: 1, 18: 13}, turn)
    assert p.result(Rules("long", koks=koks)) == (W, "oin", 1)


@TURNS
@KOKS
def test_long_mars_none_borne_off_none_in_first_quarter(turn, koks):
    p = finished("long", {}, {18: 14, 6: 1}, turn)  # White's 6 is Black's 18: not its first quarter
    assert p.result(Rules("long", koks=koks)) == (W, "mars", 2)


@TURNS
@pytest.mark.parametrize("point", [7, 12])  # Black's 19 and 24 (its head)
def test_long_koks_with_option_on(turn, point):
    p = finished("long", {}, {point: 1, 18: 14}, turn)
    assert p.result(Rules("long", koks=True)) == (W, "koks", 3)


@TURNS
@pytest.mark.parametrize("point", [7, 12])
def test_long_koks_counts_as_mars_with_option_off(turn, point):
    p = finished("long", {}, {point: 1, 18: 14}, turn)
    assert p.result(Rules("long")) == (W, "mars", 2)
    assert p.result(Rules("long", koks=False)) == (W, "mars", 2)


@TURNS
@pytest.mark.parametrize(
    ("white", "koks", "kind", "points"),
    [
        ({6: 14}, True, "oin", 1),
        ({6: 15}, True, "mars", 2),
        ({18: 1, 6: 14}, True, "mars", 2),  # White's 18: not its first quarter
        ({19: 1, 6: 14}, True, "koks", 3),
        ({24: 1, 6: 14}, True, "koks", 3),  # White's head
        ({24: 1, 6: 14}, False, "mars", 2),
    ],
)
def test_long_black_wins_every_kind(turn, white, koks, kind, points):
    p = finished("long", white, {}, turn)
    assert p.result(Rules("long", koks=koks)) == (B, kind, points)


@KOKS
def test_long_koks_reached_by_play(backend, koks):
    rules = Rules("long", koks=koks)
    p = Position.from_points("long", white={1: 1}, black={12: 1, 18: 14})
    (move,) = p.legal_moves((2, 1), rules, backend=backend)
    end = p.apply(move, rules, backend=backend)
    assert end.result(rules) == ((W, "koks", 3) if koks else (W, "mars", 2))


def test_long_no_result_while_game_goes_on():
    assert Position.start("long").result(Rules("long", koks=True)) is None
