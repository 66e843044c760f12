"""Issue 17 (input validation) and issue 12 (XGID doubles, 1-point matches): each defect found,
as a test that failed before its fix. No silent wrong answer, no foreign exception."""

from __future__ import annotations

import copy
import dataclasses
import functools
import pickle
import re
import tracemalloc

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import nardy
from nardy import (
    Color,
    Game,
    IllegalMoveError,
    InvalidArgumentError,
    InvalidNotationError,
    InvalidPositionError,
    InvalidRulesError,
    Match,
    Move,
    NardyError,
    Position,
    Rules,
    Variant,
    batch,
)
from nardy.formats.ids import LONG_ID_PREFIX, MatchState, encode_key, match_id, parse_match_id, xgid
from nardy.position import parse_xgid, read_position
from nardy.errors import check_whole
from nardy.move import Step
from nardy.evaluation.bearoff import BearoffTable
from strategies import boards

START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


def _xgid_with(**fields: str) -> str:
    names = ["position", "cube", "owner", "turn", "dice", "bottom", "top", "cj", "length", "max"]
    values = dict(zip(names, START_XGID.removeprefix("XGID=").split(":")))
    values.update(fields)
    return "XGID=" + ":".join(values[n] for n in names)


# colours: one rule (Color.parse) for every parameter --------------------------------------------

# Black on roll, White 2 checkers on its 1-point, Black 15 on its 24-point: pips 2 and 360
ASYMMETRIC = Position.from_points("long", white={1: 2}, black={12: 15}, turn=Color.BLACK, validate=False)


@pytest.mark.parametrize("colour, spellings", [(Color.WHITE, [0, "white", "WHITE", np.int64(0)]),
                                               (Color.BLACK, [1, "black", "Black", np.uint8(1)])])
@pytest.mark.parametrize("on_roll", list(Color))
def test_every_colour_parameter_reads_the_constructors_spellings(colour, spellings, on_roll):
    p = Position(ASYMMETRIC.view(), "long", Color.BLACK, validate=False)
    if on_roll is Color.WHITE:
        p = p.pass_turn()
    assert (p.pip_count(Color.WHITE), p.pip_count(Color.BLACK)) == (2, 360)
    for spelling in spellings:
        assert p.pip_count(spelling) == p.pip_count(colour)
        assert p.checkers(spelling) == p.checkers(colour)
        assert p.bar(spelling) == p.bar(colour)
        assert p.borne_off(spelling) == p.borne_off(colour)
        assert p.has_illegal_block(spelling) == p.has_illegal_block(colour)
        assert Position(p.view(), "long", spelling, validate=False).turn is colour


@pytest.mark.parametrize("bad", [True, False, 2, -1, "red", "", 0.0, Color, [0]])
def test_every_colour_parameter_rejects_the_same_things(bad):
    p = ASYMMETRIC
    for call in (p.pip_count, p.checkers, p.bar, p.borne_off, p.has_illegal_block,
                 lambda c: Position(p.view(), "long", c), lambda c: Position.start("short", c),
                 lambda c: Game("short", starter=c)):
        with pytest.raises(InvalidArgumentError, match="unknown colour"):
            call(bad)


def test_a_game_reads_by_as_every_colour_parameter_does():
    game = Game("long", seed=3, starter=0)
    assert game.starter is Color.WHITE
    game.roll(by="white")  # was "it is white's turn, not white's"
    with pytest.raises(IllegalMoveError, match="it is white's turn, not black's"):
        game.play(game.legal_moves()[0], by=1)
    game.play(game.legal_moves()[0], by=0)


# variants and rules: one helper each (Variant.parse, Rules.of) -----------------------------------

def test_batch_pips_and_flip_read_a_variant_name():
    views = np.array([Position.start("long").view(), ASYMMETRIC.view()], np.int8)
    assert batch.pips(views, "long").tolist() == batch.pips(views, Variant.LONG).tolist() == [[360, 360], [360, 2]]
    assert batch.flip(views, "LONG").tolist() == batch.flip(views, Variant.LONG).tolist()
    for call in (batch.pips, batch.flip):
        with pytest.raises(InvalidRulesError, match="unknown variant 'lung'"):
            call(views, "lung")
        with pytest.raises(InvalidRulesError, match="unknown variant 1"):
            call(views, 1)


@pytest.mark.parametrize("bad", [5, None, object(), Color.WHITE, ["long"]])
def test_a_parameter_that_takes_rules_names_itself_when_given_something_else(bad):
    views = np.array([Position.start("long").view()], np.int8)
    p = Position.start("long")
    calls = [
        lambda: batch.generate(views, [[6, 5]], bad), lambda: batch.status(views, bad),
        lambda: batch.illegal_blocks(views, bad), lambda: Game(bad), lambda: Match(bad, 3),
        lambda: read_position("NL1W:AAAAAAAAAAAAAA", bad),
    ]
    if bad is not None:  # None is "the default rules" where rules are optional
        calls += [lambda: p.legal_moves((6, 5), bad), lambda: p.status(bad), lambda: p.apply(p.legal_moves((6, 5))[0], bad),
                  lambda: p.parse_move("24/13", (6, 5), bad), lambda: Position(p.view(), rules=bad)]
    for call in calls:
        with pytest.raises(InvalidArgumentError, match="rules must be a Rules"):
            call()


def test_rules_given_as_a_name_are_the_variants_defaults_everywhere():
    views = np.array([Position.start("long").view()], np.int8)
    assert batch.status(views, "long").tolist() == batch.status(views, Rules("long")).tolist()
    with pytest.raises(InvalidRulesError, match="unknown rules 'lung'"):
        batch.status(views, "lung")
    assert Position.start("long").legal_moves((6, 5), "long") == Position.start("long").legal_moves((6, 5))


# position IDs, arrays, points ----------------------------------------------------------------

def test_a_long_id_whose_sides_share_a_point_is_rejected():
    # the mover on its own 13, the opponent on its own 1: the same point in long nardy
    mine = [0] * 25
    theirs = [0] * 25
    mine[12], mine[23] = 1, 14
    theirs[0], theirs[23] = 1, 14
    text = f"{LONG_ID_PREFIX}W:{encode_key([theirs, mine])}"
    with pytest.raises(InvalidNotationError, match="both sides on point 13"):
        Position.from_id(text)


def test_from_points_refuses_booleans_as_position_does():
    with pytest.raises(InvalidPositionError, match="True checkers"):
        Position.from_points("short", white={6: True}, black={19: 15}, validate=False)
    with pytest.raises(InvalidPositionError, match="on point True"):
        Position.from_points("short", white={True: 15}, black={19: 15}, validate=False)
    with pytest.raises(InvalidPositionError, match="white_bar=True"):
        Position.from_points("short", white={6: 14}, black={19: 15}, white_bar=True, validate=False)
    with pytest.raises(InvalidPositionError, match="not an integer"):
        Position([True] + [0] * 25, "short", validate=False)


def test_numbers_with_thousands_of_digits_are_refused_before_conversion():
    huge = "9" * 5000
    with pytest.raises(InvalidNotationError, match="26 comma-separated integers"):
        read_position(",".join([huge] + ["0"] * 25), Rules("short"))
    with pytest.raises(InvalidPositionError, match="an integer of 16610 bits"):
        Position([10 ** 5000] + [0] * 25, "short")
    with pytest.raises(InvalidPositionError, match="an integer of"):
        Position.from_points("short", white={6: 10 ** 5000}, black={})
    with pytest.raises(InvalidNotationError, match="bottom score"):
        parse_xgid(_xgid_with(bottom=huge))
    with pytest.raises(InvalidNotationError):
        Position.start("short").parse_move(f"{huge}/1", (6, 5))


@pytest.mark.parametrize("text", ["8/2²", "8/²", "13/11(²)", "8/٢", "8/2 6/1(99999999)", "24/18(5)"])
def test_move_text_takes_ascii_digits_only(text):
    with pytest.raises(InvalidNotationError):
        Position.start("short").parse_move(text, (6, 5))


@pytest.mark.parametrize("views", [
    np.full((1, 26), np.iinfo(np.uint64).max, np.uint64), np.full((2, 26), np.iinfo(np.int64).min, np.int64),
    np.full((1, 26), np.iinfo(np.int64).max, np.int64), [[0] * 26, [0] * 25], [[0] * 26, 5], [[10 ** 30] * 26],
])
def test_batch_refuses_extreme_and_ragged_boards_with_its_own_error(views):
    with pytest.raises(InvalidPositionError):
        batch.pips(views, "long")
    with pytest.raises(InvalidPositionError):
        batch.generate(views, [[6, 5]] * 2, "long")


def test_batch_refuses_ragged_and_extreme_rolls_with_its_own_error():
    start = np.array([Position.start("long").view()] * 2, np.int8)
    for rolls in ([[6, 5], [6]], np.full((2, 2), np.iinfo(np.uint64).max, np.uint64)):
        with pytest.raises(nardy.InvalidDiceError):
            batch.generate(start, rolls, "long")


def test_batch_refuses_timedelta_boards_and_rolls_which_numpy_counts_as_integers():
    start = np.array([Position.start("short").view()], np.int8)
    with pytest.raises(InvalidPositionError, match="timedelta64"):
        batch.generate(start.astype("m8[s]"), [[6, 5]], "short")
    for call in (batch.pips, batch.status, batch.flip):
        with pytest.raises(InvalidPositionError, match="timedelta64"):
            call(start.astype("m8"), "short")
    with pytest.raises(nardy.InvalidDiceError, match="timedelta64"):
        batch.generate(start, np.array([[6, 5]], "m8[s]"), "short")


@pytest.mark.parametrize("unit", ["s", None])
def test_timedelta_scalars_are_not_whole_numbers_anywhere(unit):
    """numpy counts timedelta64 among its integers (and int() of one in seconds is a timedelta):
    Position was a TypeError; Step, Move and the bear-off table took them as numbers."""
    span = (lambda n: np.timedelta64(n, unit)) if unit else np.timedelta64
    view = Position.start("short").array()
    with pytest.raises(InvalidPositionError):
        Position(view.astype(f"m8[{unit}]" if unit else "m8"), "short")
    with pytest.raises(InvalidPositionError):
        Position.from_points("short", white={6: span(5)}, black={})
    with pytest.raises(nardy.InvalidArgumentError):
        Step(span(8), 2)
    with pytest.raises(nardy.InvalidArgumentError):
        Move((span(3), 1), [])
    with pytest.raises(nardy.InvalidArgumentError):
        BearoffTable.counts(span(3))
    with pytest.raises(nardy.InvalidArgumentError):
        check_whole(span(3), "threads", 1, kinds=(int, np.integer))


@pytest.mark.parametrize("bad", ["x", None, 5])
def test_position_id_takes_a_position_as_xgid_does(bad):
    from nardy.formats.ids import position_id

    for call in (position_id, xgid):
        with pytest.raises(nardy.InvalidArgumentError, match="takes a Position"):
            call(bad)


@pytest.mark.parametrize("strict", ["no", 0, None, np.zeros(2)])
def test_the_readers_strict_flag_is_true_or_false_never_truthiness(strict):
    game = Game("short", seed=1)
    game.roll_off()
    game.play(game.legal_moves()[0])
    game.resign(1)
    from nardy.formats import matfile
    from nardy.formats import sgf

    for module in (matfile, sgf):
        text = module.write(game)
        with pytest.raises(nardy.InvalidArgumentError, match="strict is True or False"):
            module.read(text, strict=strict)


def test_text_parsers_refuse_what_is_not_text():
    for call in (Position.from_id, parse_match_id, parse_xgid, lambda t: read_position(t, Rules("short")),
                 lambda t: Position.start("short").parse_move(t, (6, 5))):
        with pytest.raises(InvalidNotationError, match="must be a str"):
            call(b"24/18")


# XGIDs and Match IDs: every field checked, in constant memory ------------------------------------

@pytest.mark.parametrize("fields, name", [
    ({"dice": "99"}, "dice"), ({"dice": "70"}, "dice"), ({"dice": "07"}, "dice"), ({"cube": "40"}, "cube"),
    ({"cube": "1000000000"}, "cube"), ({"length": "7", "bottom": "8"}, "bottom score"),
    ({"length": "7", "top": "7"}, "top score"), ({"cj": "7"}, "crawford/jacoby"), ({"max": "99"}, "max cube"),
    ({"length": "99999"}, "match length"), ({"turn": "0"}, "turn"),
])
def test_xgid_fields_out_of_range_are_named(fields, name):
    with pytest.raises(InvalidNotationError, match=f"field {name}"):
        parse_xgid(_xgid_with(**fields))


def test_an_xgid_cube_above_its_max_cube_is_refused_both_ways():
    """A cube of 2048 under a max cube of 1024 was read, and written, without a word."""
    from nardy.formats.ids import MatchState, xgid

    with pytest.raises(InvalidNotationError, match="a cube of 2048 is above the max cube, 1024"):
        parse_xgid(_xgid_with(cube="11"))
    with pytest.raises(InvalidNotationError, match="a cube of 4 doubled is above the max cube, 4"):
        parse_xgid(_xgid_with(cube="2", dice="D", max="2"))
    assert parse_xgid(_xgid_with(cube="10"))[1].cube_value == 1024
    assert parse_xgid(":".join(_xgid_with(cube="11").split(":")[:9]))[1].cube_value == 2048  # no max given
    position = parse_xgid(START_XGID)[0]
    with pytest.raises(InvalidArgumentError, match="a cube of 2048 is above max_cube = 1024"):
        xgid(position, MatchState(cube_value=2048, on_roll=1, turn=1))
    assert xgid(position, MatchState(cube_value=2048, on_roll=1, turn=1), max_cube=4096).split(":")[1] == "11"


def test_a_roll_is_a_sequence_never_a_set():
    """`legal_moves({3, 1})` was played as 1-3 (and {3, 3} is one die)."""
    from nardy import Move

    position = parse_xgid(START_XGID)[0]
    for dice in ({3, 1}, frozenset({6, 5}), {3: 1, 1: 1}):
        with pytest.raises(nardy.InvalidDiceError, match="in a sequence such as"):
            position.legal_moves(dice)
        with pytest.raises(nardy.InvalidDiceError, match="in a sequence such as"):
            position.children(dice)
        with pytest.raises(InvalidArgumentError, match="a Move is a roll"):
            Move(dice, [(8, 5), (6, 5)])
    assert len(position.legal_moves(np.array([3, 1]))) == len(position.legal_moves((3, 1))) == 16


def test_an_xgid_cube_field_of_a_billion_allocates_nothing():
    tracemalloc.start()
    try:
        with pytest.raises(InvalidNotationError, match="field cube"):
            parse_xgid(_xgid_with(cube="1000000000"))
        with pytest.raises(InvalidNotationError, match="field cube"):
            parse_xgid(_xgid_with(cube="15" + "0" * 10_000))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000


def test_a_match_id_with_a_score_beyond_the_length_is_rejected():
    text = match_id(MatchState(match_length=9, score=(2, 4)))
    key = int.from_bytes(__import__("base64").b64decode(text), "little")
    beyond = key & ~((1 << 15) - 1 << 36) | 12 << 36  # score0 = 12 in a 9-point match
    with pytest.raises(InvalidNotationError, match="field score0 = 12 is beyond the match length 9"):
        parse_match_id(__import__("base64").b64encode(beyond.to_bytes(9, "little")).decode())
    with pytest.raises(InvalidNotationError, match="score1"):
        match_id(MatchState(match_length=9, score=(2, 9)))
    # once the game is over a side may have reached the length
    assert parse_match_id(match_id(MatchState(game_state=2, match_length=9, score=(2, 9)))).score == (2, 9)


# issue 12: an XGID with a double offered names the side that must take or drop ------------------

def test_the_turn_field_of_a_doubled_xgid_is_the_taker():
    # White (bottom, 1) has doubled to 2: Black (-1) must take or drop, White is on roll
    position, state = parse_xgid(_xgid_with(turn="-1", dice="D", length="7"))
    assert position.turn is Color.WHITE and state.on_roll == 1 and state.turn == 0 and state.double_offered
    assert xgid(position, state).split(":")[3:5] == ["-1", "D"]


@given(data=st.data())
def test_every_xgid_with_a_double_offered_round_trips(data):
    p = Position(data.draw(boards(Rules("short"))), "short", data.draw(st.sampled_from(list(Color))))
    length = data.draw(st.sampled_from([0, 1, 3, 7, 25]))
    score = (data.draw(st.integers(0, max(length - 1, 0))), data.draw(st.integers(0, max(length - 1, 0))))
    doubler = int(p.turn is Color.WHITE)
    state = MatchState(
        cube_value=1 << data.draw(st.integers(0, 6)), cube_owner=data.draw(st.sampled_from([None, doubler])),
        on_roll=doubler, turn=1 - doubler, double_offered=True, match_length=length, score=score,
        crawford=False, jacoby=data.draw(st.booleans()) and length == 0,
    )
    again, parsed = parse_xgid(xgid(p, state))
    assert again == p and parsed == state


# issue 12: GNU Backgammon never sets the Crawford bit in a 1-point match ------------------------

def test_no_game_of_a_one_point_match_is_a_crawford_game():
    m = Match("short", 1, seed=4)
    game = m.new_game()
    game.roll_off()
    assert not game.crawford_game and not game.match_state().crawford
    assert not parse_match_id(game.match_id()).crawford


def test_the_crawford_game_is_gnubgs_one_side_at_match_point_and_the_other_not():
    m = Match("short", 3, seed=1)
    m.score = {Color.WHITE: 2, Color.BLACK: 0}
    assert m.new_game().crawford_game
    m2 = Match("short", 3, seed=1)
    m2.score = {Color.WHITE: 2, Color.BLACK: 2}  # double match point: never Crawford
    assert not m2.new_game().crawford_game


# pickle and deepcopy of every public value type ---------------------------------------------------

def _only_valid_under_other_rules() -> tuple[Position, Rules]:
    # long nardy, the mover holds a six-block with no opponent checker ahead of it
    p = Position.from_points("long", white={13: 1, 14: 1, 15: 1, 16: 1, 17: 1, 18: 1, 24: 9}, black={24: 15},
                             own_numbers=True, validate=False)
    rules = Rules("long", block_rule="none")
    assert p.is_valid(rules) and not p.is_valid()
    return p, rules


def _fields(value: object) -> dict[str, object]:
    """What a value is made of, comparable (numpy arrays as lists)."""
    raw = dataclasses.asdict(value) if dataclasses.is_dataclass(value) else dict(vars(value))
    return {k: v.tolist() if isinstance(v, np.ndarray) else v for k, v in raw.items() if not k.startswith("_")}


def _values() -> list[object]:
    from nardy.evaluation import bearoff as race

    p, rules = _only_valid_under_other_rules()
    game = Game("short", seed=5)
    game.roll_off()
    game.play(game.legal_moves()[0])
    match = Match("short", 3, seed=2)
    match.new_game().roll_off()
    sim = nardy.simulate("short", 4, seed=1, threads=1, chunk_size=2)
    odds = race.race_odds(Position.from_points("short", white={1: 2}, black={24: 3}, validate=False))
    return [p, Position.start("short"), Position.start("long").legal_moves((6, 5))[0], rules, Rules("short"),
            game, match, sim, MatchState(cube_value=4, cube_owner=1, dice=(6, 3), match_length=7, score=(3, 5)), odds]


@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_every_public_value_type_round_trips(how):
    for value in _values():
        again = pickle.loads(pickle.dumps(value)) if how == "pickle" else copy.deepcopy(value)
        assert type(again) is type(value)
        if isinstance(value, (Position, Move, Rules, MatchState)) or type(value).__name__ == "RaceOdds":
            assert again == value
        else:
            assert _fields(again).keys() == _fields(value).keys()
            for key, field in _fields(value).items():
                if isinstance(field, list) and field and isinstance(field[0], Game):
                    assert [g.record for g in _fields(again)[key]] == [g.record for g in field]
                else:
                    assert _fields(again)[key] == field, key


def test_a_game_that_was_pickled_plays_on_as_the_original_does():
    game = Game("short", seed=9)
    game.roll_off()
    again = pickle.loads(pickle.dumps(game))
    for g in (game, again):
        g.play(g.legal_moves()[-1])
        g.roll()
    assert again.dice == game.dice and again.position == game.position


def test_a_position_valid_only_under_other_rules_unpickles():
    p, rules = _only_valid_under_other_rules()
    assert pickle.loads(pickle.dumps(p)) == p
    assert isinstance(pickle.loads(pickle.dumps(p)).status(rules), nardy.Status)


def test_the_errors_of_this_file_are_nardy_errors():
    for error in (InvalidArgumentError, InvalidNotationError, InvalidPositionError, InvalidRulesError):
        assert issubclass(error, NardyError)


# found by tests/fuzz ------------------------------------------------------------------------------

def test_a_game_given_dice_that_are_not_a_sequence_or_a_bad_seed_says_so():
    with pytest.raises(nardy.InvalidDiceError, match="dice must be an iterable"):
        Game("long", dice=False)
    for seed in (-1, "x", 1.5, True):
        with pytest.raises(InvalidArgumentError, match="seed must be"):
            Game("long", seed=seed)


def test_dice_too_large_for_the_core_are_refused_as_dice():
    with pytest.raises(nardy.InvalidDiceError, match="a die shows 1..6"):
        Position.start("long").legal_moves((28, 2 ** 31))
    with pytest.raises(nardy.InvalidDiceError, match="an integer of"):
        Position.start("long").legal_moves((1, 10 ** 5000))


@pytest.mark.parametrize("dice, steps", [((6, 5), None), ([], ()), ((6, 5), [(0, 10 ** 5000)]), ((6, 5), [(24, 18)] * 5),
                                         ((9, 9), ()), ((6, 5), [("24", 18)]), ((6, 5), [(24,)])])
def test_a_move_that_is_made_up_is_refused_when_it_is_made(dice, steps):
    with pytest.raises(InvalidArgumentError):
        Move(dice, steps)


def test_apply_takes_a_move_or_its_text_and_names_the_parameter_otherwise():
    p = Position.start("short")
    assert p.apply("24/18 13/8", dice=(6, 5)) == p.apply(p.parse_move("24/18 13/8", (6, 5)))
    with pytest.raises(InvalidArgumentError, match="takes a Move or its text"):
        p.apply(42)  # type: ignore[arg-type]


def test_forfeit_reads_its_colour_as_every_colour_parameter_does():
    from nardy import Game

    game = Game("short", seed=1)
    game.roll_off()
    game.forfeit(3, by="white")
    assert game.result.winner is Color.BLACK and game.result.kind == "forfeit"
    other = Game("short", seed=1)
    other.roll_off()
    with pytest.raises(InvalidArgumentError, match="by"):
        other.forfeit(3, by="purple")


def test_a_net_file_with_a_broken_header_is_refused_by_name(tmp_path):
    import json

    import numpy as np

    from nardy.evaluation.net import Net

    net = Net.initial("short", 8)
    for header in ({"format": "nardy-net", "version": 1, "meta": {}},
                   {"format": "nardy-net", "version": 1, "variant": "short", "meta": []}):
        path = tmp_path / "n.npz"
        np.savez(path, header=np.array(json.dumps(header)), w1=net.w1, b1=net.b1, w2=net.w2, b2=net.b2)
        with pytest.raises(InvalidArgumentError, match="header needs a variant and a meta"):
            Net.load(path)


def test_simulation_results_are_written_whatever_the_case_of_the_extension(tmp_path):
    from nardy.cli import main

    for name in ("games.CSV", "games.NPZ"):
        assert main(["simulate", "short", "--games", "20", "--seed", "1", "--threads", "1",
                     "--out", str(tmp_path / name)]) == 0
        assert (tmp_path / name).stat().st_size > 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.CSV", "games.NPZ"]  # nothing else left


def _path_calls():
    from nardy.formats import matfile
    from nardy.evaluation import bearoff as race
    from nardy.formats import sgf
    from nardy.evaluation.net import Net, default_net

    match = nardy.Match("short", 3)
    match.new_game().roll_off()
    return {
        "matfile.load": matfile.load, "sgf.load": sgf.load, "matfile.dump": lambda p: matfile.dump(match, p),
        "sgf.dump": lambda p: sgf.dump(match, p), "Net.save": default_net("short").save, "Net.load": Net.load,
        "race.read": race.read, "race.load": race.load, "race.write": lambda p: race.write(p, race.load()),
        "Simulation.save": nardy.simulate("short", 2, seed=1, threads=1).save,
    }


@pytest.mark.parametrize("name", sorted(_path_calls()))
@pytest.mark.parametrize("path", [2, 0, 1.5, b"x.mat"], ids=["fd2", "fd0", "float", "bytes"])
def test_every_path_argument_is_a_str_or_path_never_a_file_descriptor(name, path, capfd):
    """Net.save(2) wrote the net to stderr and matfile.load(0) read stdin: open() takes an int as
    a file descriptor; None or a float were a TypeError."""
    call = _path_calls()[name]
    with pytest.raises(InvalidArgumentError, match=r"a path \(str or os.PathLike\), got "):
        call(path)
    assert capfd.readouterr() == ("", "")


# --- choice and flag arguments: compared by type first, never by an array's truth value ----------

def _choice_calls():
    from nardy.evaluation import bearoff as race
    from nardy.formats import svg
    from nardy.play.env import VectorEnv
    from nardy.evaluation.rollout import rollout

    p, boards = Position.start("short"), np.zeros((1, 26), np.int8)
    yield lambda a: Rules("long", koks=a)
    yield lambda a: nardy.batch.pips(boards, "short", backend=a)
    yield lambda a: nardy.simulate("short", 2, policy=a)
    yield lambda a: nardy.simulate("short", 2, record=a)
    yield lambda a: race.load(rebuild=a)
    yield lambda a: race.indices(boards, side=a)
    yield lambda a: rollout(p, 36, ply=a)
    yield lambda a: rollout(p, 36, luck=a)
    yield lambda a: svg.board(p, home=a)
    yield lambda a: svg.board(p, show_pips=a)
    yield lambda a: VectorEnv("short", 2, observation=a)


@pytest.mark.parametrize("value", [np.zeros(2), np.zeros((2, 2)), [1, 2]])
def test_array_valued_choice_arguments_are_refused_by_nardy(value):
    for call in _choice_calls():
        with pytest.raises(NardyError) as caught:
            call(value)
        assert "truth value" not in str(caught.value)


def test_flags_are_true_or_false_never_read_by_truthiness():
    from nardy.evaluation import bearoff as race

    with pytest.raises(nardy.SimulationError, match="record is True or False, got 'no'"):
        nardy.simulate("short", 2, record="no")
    with pytest.raises(InvalidArgumentError, match="rebuild is True or False, got 'no'"):
        race.load(rebuild="no")
    assert nardy.simulate("short", 2, seed=1, record=np.True_).games == 2


def test_last_roll_is_true_or_false_never_read_by_truthiness():
    from nardy.formats.notation import resolve

    start = Position.start("long")
    move = start.legal_moves((6, 5))[0]
    calls = [lambda flag: start.legal_moves((6, 5), last_roll=flag), lambda flag: start.apply(move, last_roll=flag),
             lambda flag: start.apply("24/13", last_roll=flag, dice=(6, 5)),
             lambda flag: resolve(start, "24/13", (6, 5), last_roll=flag)]
    for call in calls:
        for flag in ("no", 1, None, np.array([True])):
            with pytest.raises(InvalidArgumentError, match=r"last_roll is True or False, got"):
                call(flag)
        assert call(np.False_) == call(False)
    assert start.legal_moves((6, 5), last_roll=np.True_) == start.legal_moves((6, 5), last_roll=True)


def test_the_public_generator_reads_last_roll_as_a_flag_too():
    from nardy import batch

    board = Position.start("long").to_bytes()
    for moves in (batch.Generator("long").moves, functools.partial(batch._reference_moves, nardy.Rules("long"))):
        for flag in ("no", 1, None, np.array([True])):
            with pytest.raises(InvalidArgumentError, match=r"last_roll is True or False, got"):
                moves(board, 6, 5, last_roll=flag)
        assert moves(board, 6, 5, last_roll=np.False_) == moves(board, 6, 5) == moves(board, 6, 5, last_roll=False)
        assert moves(board, 6, 5, last_roll=np.True_) == moves(board, 6, 5, last_roll=True)


def test_check_choice_and_check_flag_name_the_parameter_and_choices():
    from nardy.errors import check_choice, check_flag, is_choice

    check_choice("b", "mode", ("a", "b"))
    with pytest.raises(InvalidArgumentError, match=r"unknown mode array\(\[0\., 0\.\]\); choose 'a' or 'b'"):
        check_choice(np.zeros(2), "mode", ("a", "b"))
    assert not is_choice(1, (True,)) and not is_choice(True, (1,)) and is_choice(None, (None, "x"))
    assert check_flag(np.False_, "f") is False
    with pytest.raises(InvalidArgumentError, match="f is True or False, got 1"):
        check_flag(1, "f")


@pytest.mark.parametrize("options", [[], "", 0, {"x": 1}])
def test_reset_takes_no_options_but_none_or_an_empty_dict(options):
    from nardy.play.env import VectorEnv

    env = VectorEnv("short", 2, seed=1)
    env.reset(options={})
    with pytest.raises(InvalidArgumentError, match="reset takes no options"):
        env.reset(options=options)


@pytest.mark.parametrize("dice", ["65", "6", "6-5"])
def test_dice_given_as_text_are_named_whole(dice):
    from nardy import InvalidDiceError, Position

    with pytest.raises(InvalidDiceError, match=re.escape(repr(dice))):
        Position.start("short").legal_moves(dice)


@pytest.mark.parametrize("module", ["matfile", "sgf"])
def test_a_missing_match_file_is_nardys_error_naming_the_path(module, tmp_path):
    import importlib

    from nardy import InvalidArgumentError

    missing = tmp_path / f"nowhere.{'mat' if module == 'matfile' else 'sgf'}"
    with pytest.raises(InvalidArgumentError, match=f"cannot read '{missing}': No such file or directory"):
        importlib.import_module(f"nardy.formats.{module}").load(missing)
