"""Games and matches: roll-off, openings, turns, scoring, the cube, Crawford, replay."""

from __future__ import annotations

import random

import numpy as np
import pytest

from nardy import Color, Game, GameOverError, IllegalMoveError, InvalidDiceError, Match, Move, Position, Result, Rules
from nardy.errors import InvalidArgumentError, InvalidNotationError


def play_out(game: Game, seed: int = 0) -> None:
    rng = random.Random(seed)
    while not game.over:
        if game.dice is None:
            game.roll()
        game.play(rng.choice(game.legal_moves()))


def test_roll_off_ties_roll_again_and_short_plays_the_roll_off_dice():
    g = Game("short", dice=[3, 3, 2, 5])
    assert g.roll_off() == (2, 5)
    assert g.starter is Color.BLACK and g.turn is Color.BLACK
    assert g.dice == (5, 2)  # the starter plays the two roll-off dice
    assert g.record[:2] == [("rolloff", 3, 3), ("rolloff", 2, 5)]


def test_long_nardy_starter_rolls_again_by_default():
    g = Game("long", dice=[6, 1, 4, 4])
    g.roll_off()
    assert g.starter is Color.WHITE and g.dice is None
    assert g.roll() == (4, 4)  # the starter's own first roll may be a double


@pytest.mark.parametrize("rules", [Rules("long", opening="dice"), Rules("short", opening="reroll")], ids=repr)
def test_opening_options(rules):
    g = Game(rules, dice=[2, 6, 1, 1])
    g.roll_off()
    if rules.opening == "dice":
        assert g.dice == (6, 2)
    else:
        assert g.dice is None and g.roll() == (1, 1)


def test_a_lost_roll_passes_the_turn():
    g = Game("short", starter=Color.WHITE, dice=[6, 6])
    closed = {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 1: 3}  # Black's home, all closed
    g.position = Position.from_points("short", white={6: 14}, black=closed, white_bar=1, own_numbers=False)
    g.roll()
    (only,) = g.legal_moves()
    assert not only.steps and str(only) == "pass"
    after = g.play(only)
    assert after.turn is Color.BLACK and after.pass_turn() == Position.from_points(
        "short", white={6: 14}, black=closed, white_bar=1)


def test_acting_out_of_turn_or_order_raises():
    g = Game("short", dice=[5, 2, 3, 1])
    with pytest.raises(IllegalMoveError, match="has not started"):
        g.roll()
    g.roll_off()
    with pytest.raises(IllegalMoveError, match="already rolled"):
        g.roll()
    with pytest.raises(IllegalMoveError, match="it is white's turn"):
        g.play(g.legal_moves()[0], by=Color.BLACK)
    with pytest.raises(IllegalMoveError, match="the move is for"):
        g.play(Move((6, 6), ((24, 18),)))
    with pytest.raises(IllegalMoveError, match="illegal move"):
        g.play(Move((5, 2), ((24, 19), (24, 19))))
    g.play(g.legal_moves()[0], by=Color.WHITE)
    with pytest.raises(IllegalMoveError, match="roll the dice first"):
        g.legal_moves()
    g.roll()
    g.play(g.legal_moves()[0])
    with pytest.raises(InvalidDiceError, match="ran out"):
        g.roll()


@pytest.mark.parametrize("variant", ["long", "short"])
def test_a_finished_game_refuses_further_play(variant):
    g = Game(variant, seed=4)
    g.roll_off()
    play_out(g)
    assert g.result is not None and g.result.points >= 1
    with pytest.raises(GameOverError):
        g.roll()
    with pytest.raises(GameOverError):
        g.double()


@pytest.mark.parametrize("variant", ["long", "short"])
def test_replay_of_a_record_gives_the_same_game(variant):
    g = Game(variant, seed=8)
    g.roll_off()
    play_out(g, seed=8)
    again = Game.replay(variant, g.record)
    assert again.result == g.result and again.position == g.position and again.record == g.record


def test_replay_checks_every_move():
    g = Game("long", seed=2)
    g.roll_off()
    g.roll()
    g.play(g.legal_moves()[0])
    record = list(g.record)
    record[-1] = ("move", "24/1", ((24, 1),))
    with pytest.raises(IllegalMoveError):
        Game.replay("long", record)


def finishing(variant: str, black_on_board: dict[int, int]) -> Game:
    """White on roll with one checker on its 1-point; it bears off with any roll."""
    g = Game(variant, starter=Color.WHITE, dice=[6, 5])
    g.position = Position.from_points(variant, white={1: 1}, black=black_on_board, own_numbers=True)
    return g


@pytest.mark.parametrize("variant, black, kind, points", [
    ("long", {24: 15}, "mars", 2), ("long", {6: 14}, "oin", 1),
    ("short", {6: 14}, "single", 1), ("short", {12: 15}, "gammon", 2), ("short", {20: 15}, "backgammon", 3),
])
def test_results_are_scored(variant, black, kind, points):
    g = finishing(variant, black)
    g.roll()
    g.play(g.legal_moves()[0])
    assert g.result.winner is Color.WHITE and g.result.kind == kind and g.result.points == points


def test_koks_counts_three_with_the_option():
    g = Game(Rules("long", koks=True), starter=Color.WHITE, dice=[6, 5])
    g.position = Position.from_points("long", white={1: 1}, black={24: 15}, own_numbers=True)
    g.roll()
    g.play(g.legal_moves()[0])
    assert (g.result.kind, g.result.points) == ("koks", 3)


def test_last_roll_draw():
    rules = Rules("long", last_roll_draw=True)
    g = Game(rules, starter=Color.WHITE, dice=[6, 5, 6, 5])
    g.position = Position.from_points("long", white={1: 1}, black={2: 1}, own_numbers=True)
    g.roll()
    g.play(g.legal_moves()[0])
    assert not g.over and g.turn is Color.BLACK  # Black gets one last roll
    g.roll()
    g.play(g.legal_moves()[0])
    assert g.result.winner is None and g.result.kind == "draw" and g.result.points == 0


def test_the_cube_doubles_and_changes_hands():
    g = Game("short", dice=[5, 2, 3, 1, 6, 6])
    g.roll_off()
    g.play(g.legal_moves()[0])
    assert g.may_double()  # Black, centred cube, before rolling
    g.double(by=Color.BLACK)
    assert g.turn is Color.WHITE
    with pytest.raises(IllegalMoveError, match="take or drop"):
        g.roll()
    g.take(by=Color.WHITE)
    assert g.cube_value == 2 and g.cube_owner is Color.WHITE and g.turn is Color.BLACK
    g.roll()
    g.play(g.legal_moves()[0])
    assert g.may_double()  # White owns the cube now
    with pytest.raises(IllegalMoveError, match="no double has been offered"):
        g.take()


def test_a_dropped_double_loses_the_cube_value():
    g = Game("short", dice=[5, 2])
    g.roll_off()
    g.play(g.legal_moves()[0])
    g.double()
    g.drop()
    assert g.result.winner is Color.BLACK and g.result.kind == "dropped" and g.result.points == 1


def test_no_cube_in_long_nardy_or_when_disabled():
    g = Game("long", dice=[5, 2])
    g.roll_off()
    with pytest.raises(IllegalMoveError, match="without the doubling cube"):
        g.double()
    g = Game(Rules("short", cube=False), dice=[5, 2])
    g.roll_off()
    assert not g.may_double()


def test_jacoby_counts_gammons_only_after_a_double():
    g = finishing("short", {12: 15})
    g.rules = Rules("short", jacoby=True)
    g.roll()
    g.play(g.legal_moves()[0])
    assert (g.result.kind, g.result.points) == ("gammon", 1)


def test_match_scoring_crawford_and_next_starter():
    m = Match("short", 3, seed=1)
    while m.winner is None:
        g = m.new_game()
        g.roll_off()
        before = dict(m.score)
        crawford = any(v == 2 for v in before.values()) and not any(x.crawford_game for x in m.games[:-1])
        assert g.crawford_game == crawford
        if g.crawford_game:
            assert not g.may_double()
        play_out(g, seed=len(m.games))
        m.finish_game()
        assert sum(m.score.values()) == sum(before.values()) + g.result.points
    assert max(m.score.values()) >= 3
    with pytest.raises(GameOverError):
        m.new_game()


def test_long_match_winner_starts_the_next_game():
    m = Match("long", 5, seed=3)
    g = m.new_game()
    g.roll_off()
    play_out(g)
    m.finish_game()
    nxt = m.new_game()
    assert nxt.starter is g.result.winner and nxt.position.turn is g.result.winner


def test_match_id_of_a_game_in_play_is_gnubgs():
    # the manual's example: 2-4 (Black-White) in a 9-point match, Black owns a 2-cube, White has rolled 52
    match = Match("short", 9)
    match.score = {Color.WHITE: 4, Color.BLACK: 2}
    game = match.new_game(starter=Color.BLACK, dice=[3, 1, 5, 2])
    game.roll()
    game.play(game.parse_move("8/5 6/5"))
    game.double()
    game.take()
    game.roll()
    assert game.match_id() == "QYkqASAAIAAE"
    state = game.match_state()
    assert (state.cube_value, state.cube_owner, state.on_roll, state.dice, state.score) == (2, 0, 1, (5, 2), (2, 4))
    game.play(game.legal_moves()[0])
    game.resign(2)  # Black, on roll, gives up a gammon: 4 points with the cube
    assert game.result == Result(Color.WHITE, "resigned", 4)
    assert game.match_state().game_state == 3


def test_match_id_needs_short_nardy_and_resign_checks_its_value():
    game = Game("long", starter=Color.WHITE)
    with pytest.raises(InvalidArgumentError, match="Match ID is a backgammon"):
        game.match_id()
    with pytest.raises(InvalidArgumentError, match="1, 2 or 3 points"):
        game.resign(4)
    game.resign(1)
    with pytest.raises(GameOverError):
        game.resign(1)


def test_a_money_session_keeps_a_running_score_and_never_ends():
    match = Match("short", 0, seed=3)
    for _ in range(3):
        game = match.new_game()
        assert game.match_length is None and not game.crawford_game
        game.roll_off()
        game.resign(1)
        match.finish_game()
    assert sum(match.score.values()) == 3 and match.winner is None
    with pytest.raises(InvalidArgumentError, match="0 for money"):
        Match("short", -1)


def test_a_record_with_a_forced_starter_must_keep_to_it():
    match = Match("long", 3)
    game = match.new_game(starter=Color.BLACK)
    game.resign(1)  # White... the side to act is Black: Black resigns, White wins
    match.finish_game()
    assert match.forced_starter() is Color.WHITE
    with pytest.raises(IllegalMoveError, match="white starts game 2"):
        match.new_game(starter=Color.BLACK)


@pytest.mark.parametrize("record, message", [
    ("junk", "record must be a sequence"), (None, "record must be a sequence"),
    ([1, 2, 3], "record entry 0 is not an event"), ([("zz",)], "record entry 0 is not an event"),
    ([("starter", 0), (99,)], "record entry 1 is not an event"), ([("starter", 0), {}], "record entry 1 is not an event"),
    ([("starter", 0), ("roll",)], "record entry 1 is not an event"),
])
def test_replay_refuses_what_is_not_a_record(record, message):
    with pytest.raises(InvalidArgumentError, match=message):
        Game.replay("short", record)


def test_replay_names_the_entry_the_game_does_not_record():
    g = Game("short", dice=[3, 3, 2, 5, 6, 1])
    g.roll_off()
    g.play(g.legal_moves()[0])
    g.roll()
    record = list(g.record)  # two roll-offs, a move, a roll
    with pytest.raises(IllegalMoveError, match=r"record entry 2 \('starter', 0\): the game has already started"):
        Game.replay("short", record[:2] + [("starter", 0)])
    with pytest.raises(InvalidArgumentError, match="record entry 3 .*records no 'result' here"):
        Game.replay("short", record[:3] + [("result", 0, "single", 1)])
    with pytest.raises(InvalidArgumentError, match="record entry 2 .*the game records \\('move', '"):
        Game.replay("short", record[:2] + [("move", "24/1", record[2][2])])
    with pytest.raises(InvalidDiceError, match=r"record entry 3 \('roll', 7, 1\): a die shows 1..6"):
        Game.replay("short", record[:3] + [("roll", 7, 1)])
    assert Game.replay("short", record).record == record


def test_play_takes_a_move_or_its_text():
    g = Game("short", dice=[6, 5])
    g.roll_off()
    assert g.play("24/13") == Position.start("short", Color.WHITE).apply("24/13", dice=(6, 5))
    g = Game("short", dice=[6, 5])
    g.roll_off()
    for bad in (None, 5, ((24, 13),)):
        with pytest.raises(InvalidArgumentError, match="play\\(\\) takes a Move or its text"):
            g.play(bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidNotationError, match="garbage"):
        g.play("garbage")
    assert g.record == [("rolloff", 6, 5)]


def test_a_match_length_fits_the_match_id():
    assert Match("short", 32767).length == 32767
    for bad in (32768, 2**70, 2**20000):
        with pytest.raises(InvalidArgumentError, match="at most 32767 \\(the Match ID's 15-bit field\\)"):
            Match("short", bad)


def test_a_game_after_the_match_is_over_names_the_score_in_words():
    match = Match("short", 1, seed=1)
    match.score[Color.WHITE] = 1
    with pytest.raises(GameOverError, match=r"^the match is over: white won, 1-0 \(White-Black\) in a 1-point match$"):
        match.new_game()


def test_a_game_is_counted_once_and_before_the_next():
    m = Match("short", 3, seed=1)
    g = m.new_game()
    g.roll_off()
    g.resign(3, g.turn)
    assert "game 1 over, not counted" in repr(m)
    with pytest.raises(IllegalMoveError, match="game 1 is over but not counted: call finish_game"):
        m.new_game()
    m.finish_game()
    with pytest.raises(IllegalMoveError, match="game 1 is already counted"):
        m.finish_game()
    assert m.score[g.result.winner] == 3 and m.winner is g.result.winner
    with pytest.raises(IllegalMoveError, match=r"the match has no game yet: new_game\(\) begins one"):
        Match("short", 3).finish_game()
    unfinished = Match("short", 3)
    unfinished.new_game().roll_off()
    with pytest.raises(IllegalMoveError, match="game 1 is not over"):
        unfinished.finish_game()


def test_resign_takes_a_whole_1_2_or_3_and_forfeit_what_the_files_carry():
    from decimal import Decimal

    from nardy.game import MAX_POINTS

    for bad in (1.0, Decimal(2), np.float32(2), np.complex64(1), 1 + 0j, np.zeros((2, 2, 2)), "1", True, 4,
                np.timedelta64(1), np.timedelta64(1, "s")):
        g = Game("short", seed=1, starter="white")
        with pytest.raises(InvalidArgumentError, match="1, 2 or 3 points"):
            g.resign(bad)
        assert g.result is None
    g = Game("short", seed=1, starter="white")
    g.resign(np.int8(2))
    assert g.result.points == 2 and type(g.result.points) is int and g.record[-2] == ("resign", 0, 2)
    for bad in (MAX_POINTS + 1, 10**12, 0, 2.0, np.float64(3)):
        g = Game("short", seed=1, starter="white")
        with pytest.raises(InvalidArgumentError, match="a forfeit's points must be a whole number 1..999999999"):
            g.forfeit(bad)
    g.forfeit(np.int64(MAX_POINTS))
    assert g.result.points == MAX_POINTS and type(g.result.points) is int


def test_the_largest_forfeit_reads_back_from_both_formats():
    from nardy.formats import matfile
    from nardy.formats import sgf
    from nardy.game import MAX_POINTS

    m = Match("short", 3, seed=1)
    g = m.new_game()
    g.roll_off()
    if g.dice is None:
        g.roll()
    g.play(g.legal_moves()[0])
    g.forfeit(MAX_POINTS)
    m.finish_game()
    assert matfile.read(matfile.write(m), strict=False).match.score == m.score
    assert sgf.read(sgf.write(m), strict=False).match.score == m.score


@pytest.mark.parametrize("seed", [1.5, "abc", -1, True, np.float64(2)])
def test_game_and_match_check_their_seed_alike(seed):
    for make in (lambda: Game("short", seed=seed), lambda: Match("short", 3, seed=seed)):
        with pytest.raises(InvalidArgumentError, match=r"^seed must be a whole number >= 0, got "):
            make()


@pytest.mark.parametrize("cube", ["no", float("nan"), -1, 1, np.zeros((2, 2)), np.bool_(True)])
def test_cube_is_true_false_or_none(cube):
    with pytest.raises(InvalidArgumentError, match="cube must be True, False or None"):
        Game("short", cube=cube)


def test_long_nardy_has_no_cube_to_turn_on():
    with pytest.raises(InvalidArgumentError, match="long nardy is played without the doubling cube"):
        Game("long", cube=True)
    assert not Game("long", cube=False).cube_enabled and Game("short", cube=False).cube_enabled is False


def _play_out(match: Match) -> list[bool]:
    """The README's match loop, each side playing its first legal move; whether each game rolled off."""
    rolled = []
    while match.winner is None:
        game = match.new_game()
        assert game.needs_roll_off is (game.starter is None)
        rolled.append(game.needs_roll_off)
        if game.needs_roll_off:
            game.roll_off()
        assert not game.needs_roll_off and game.starter is not None
        while not game.over:
            if game.dice is None:
                game.roll()
            game.play(game.legal_moves()[0])
        match.finish_game()
    return rolled


@pytest.mark.parametrize("variant", ["long", "short"])
def test_the_readme_match_loop_plays_both_variants(variant):
    match = Match(variant, 5, seed=3)
    rolled = _play_out(match)
    assert len(match.games) >= 2 and rolled[0]
    # long nardy: the winner of a game starts the next without a roll-off; short: each rolls off
    assert rolled[1:] == [variant == "short"] * (len(rolled) - 1)
    for before, after in zip(match.games, match.games[1:]):
        if variant == "long":
            assert after.starter is before.result.winner


def test_a_roll_off_after_the_starter_is_decided_says_why():
    game = Game("long", starter="black")
    assert not game.needs_roll_off and game.starter is Color.BLACK
    with pytest.raises(IllegalMoveError, match="needs_roll_off is False"):
        game.roll_off()
    fresh = Game("long", seed=1)
    assert fresh.needs_roll_off and fresh.starter is None


def test_match_state_players_are_gnubgs_the_opposite_of_color_and_documented_so():
    from pathlib import Path

    from nardy.formats.ids import MatchState

    match = Match("short", 5, seed=1)
    game = match.new_game(starter="white")
    game.roll()
    state = game.match_state()
    assert game.turn is Color.WHITE and state.on_roll == 1 == state.turn and Color.BLACK == 1
    doc = " ".join(MatchState.__doc__.split())
    assert "the opposite of `Color`" in doc and "`on_roll=1` is White on roll" in doc
    formats = " ".join((Path(__file__).resolve().parent.parent / "docs" / "formats.md").read_text().split())
    assert "`on_roll=1` is White on roll" in formats and "`Color.BLACK == 1`" in formats
