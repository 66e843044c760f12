"""Move notation (GNU Backgammon's, read leniently) and position IDs (FORMATS.md 1.1, 1.2)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nardy import Color, IllegalMoveError, InvalidNotationError, Move, Position, Rules
from strategies import boards, rolls

SHORT = Position.start("short")


@pytest.mark.parametrize("move, text", [
    (Move((6, 5), ((24, 18), (18, 13))), "24/13"),
    (Move((6, 5), ((24, 18, True), (18, 13))), "24/18*/13"),
    (Move((2, 2), ((13, 11), (13, 11), (6, 4), (6, 4))), "13/11(2) 6/4(2)"),
    (Move((6, 6), ((6, 0), (6, 0), (5, 0), (4, 0))), "6/off(2) 5/off 4/off"),
    (Move((4, 3), ((25, 22, True), (13, 9))), "bar/22* 13/9"),
    (Move((3, 1), ((6, 5), (8, 5))), "8/5 6/5"),
    (Move((5, 5), ()), "pass"),
])
def test_moves_are_written_as_gnu_backgammon_writes_them(move, text):
    assert str(move) == text


@pytest.mark.parametrize("rules", [Rules("long"), Rules("short")], ids=["long", "short"])
@settings(max_examples=25)
@given(data=st.data())
def test_every_legal_move_round_trips_through_its_text(rules, data):
    position = Position(data.draw(boards(rules)), rules.variant)
    dice = data.draw(rolls)
    for move in position.legal_moves(dice, rules):
        assert position.parse_move(str(move), dice, rules) == move


@pytest.mark.parametrize("text", [
    "24/13", "24/18 18/13", "24/18/13", "18/13 24/18", "24/18, 18/13",
])
def test_lenient_reading_of_one_checker(text):
    assert str(SHORT.parse_move(text, (6, 5))) == "24/13"


def test_a_text_naming_a_point_the_play_does_not_land_on_is_not_that_play():
    # 24/13 can only pass 18 (Black holds 19): naming 19 names no legal play
    for text in ("24/19 19/13", "24/19/13"):
        with pytest.raises(IllegalMoveError, match="not a legal play"):
            SHORT.parse_move(text, (6, 5))


def test_lenient_points_bar_off_stars_and_groups():
    entering = Position([-1, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 4, 0, 0, 0, -3, 0, -5, 0, 0, -1, 0, 2, 1], "short")
    for text in ("bar/22* 13/9", "b/22 13/9", "25/22* 13/9", "13/9 bar/22"):
        assert str(entering.parse_move(text, (4, 3))) == "bar/22* 13/9"
    home = Position([0, 2, 2, 3, 3, 3, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -15, 0, 0, 0, 0, 0], "short")
    for text in ("6/off 5/off", "6/o 5/0", "5/- 6/OFF", "6/0* 5/o"):
        assert str(home.parse_move(text, (6, 5))) == "6/off 5/off"
    for text in ("6/off(2) 5/off(2)", "6/o 6/o 5/0 5/-", "5/off 6/off 5/off 6/off"):
        assert str(home.parse_move(text, (6, 6))) == "6/off(2) 5/off(2)"
    assert str(SHORT.parse_move("13/11(2) 6/4(2)", (2, 2))) == "13/11(2) 6/4(2)"
    assert str(SHORT.parse_move("6/4 13/11 6/4 13/11", (2, 2))) == "13/11(2) 6/4(2)"


def test_long_nardy_notation():
    start = Position.start("long")
    assert [str(m) for m in start.legal_moves((3, 3))] == ["24/21 24/15", "24/18(2)"]
    assert str(start.parse_move("24/18 24/18", (3, 3))) == "24/18(2)"
    with pytest.raises(IllegalMoveError):
        start.parse_move("24/18 24/19", (6, 5))


def test_unreadable_text_is_a_notation_error():
    for text in ("24-18", "/24/18", "24/18/", "24/x", "24/26", "24/18(two)", "24"):
        with pytest.raises(InvalidNotationError):
            SHORT.parse_move(text, (6, 5))


def test_a_readable_but_illegal_move_names_the_roll():
    with pytest.raises(IllegalMoveError, match="not a legal play of 6-5"):
        SHORT.parse_move("24/12", (6, 5))


def test_an_ambiguous_text_names_the_choices():
    # blots on both 18 and 19: "24/13" could pass through either, hitting
    board = [0, -3, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -1, -1, -1, -4, 0, 0, 0, 2, 0]
    p = Position(board, "short")
    with pytest.raises(InvalidNotationError, match="ambiguous.*24/18\\*/13.*24/19\\*/13|ambiguous.*24/19\\*/13.*24/18\\*/13"):
        p.parse_move("24/13", (6, 5))
    assert str(p.parse_move("24/18*/13", (6, 5))) == "24/18*/13"
    assert str(p.parse_move("24/19/13", (6, 5))) == "24/19*/13"


# position IDs

def test_gnubg_position_id_of_the_start():
    assert SHORT.id() == "4HPwATDgc/ABMA"
    assert Position.from_id("4HPwATDgc/ABMA") == SHORT


def test_gnubg_encodes_the_side_not_on_roll_first():
    # FORMATS.md 1.2: not on roll 13 on its ace and 2 on the bar, on roll 15 on its 6-point
    view = [0] * 26
    view[6], view[24], view[0] = 15, -13, -2
    p = Position(view, "short")
    assert p.id() == "/x8AAGDg/w8AAA"
    assert Position.from_id("/x8AAGDg/w8AAA") == p
    assert Position.from_id("/x8AAGDg/w8AAA", Color.BLACK).turn is Color.BLACK


@pytest.mark.parametrize("rules", [Rules("long"), Rules("short")], ids=["long", "short"])
@given(data=st.data())
def test_position_ids_round_trip(rules, data):
    p = Position(data.draw(boards(rules)), rules.variant, data.draw(st.sampled_from(list(Color))))
    text = p.id()
    again = Position.from_id(text, p.turn)
    assert again == p
    if rules.variant.value == "long":
        assert text.startswith(("NL1W:", "NL1B:")) and len(text) == 19


def test_gnubg_agrees_on_position_ids():
    gnubg = pytest.importorskip("gnubg_nn")
    spec = importlib.util.spec_from_file_location("gnubg_oracle", Path(__file__).parent / "oracle" / "gnubg_oracle.py")
    oracle = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(oracle)
    import random

    rng = random.Random(3)
    p = SHORT
    for _ in range(300):
        assert p.id() == gnubg.position_id(oracle.to_gnubg(p.view()))
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        p = rng.choice(p.children(dice))
        if p.is_game_over():
            p = SHORT


@pytest.mark.parametrize("text", ["4HPwATDgc/AB", "4HPwATDgc/ABM!", "//////////////", "NL1X:4HPwATDgc/ABMA", "NL1W4HPwATDgc/ABMA"])
def test_invalid_ids_are_notation_errors(text):
    with pytest.raises(InvalidNotationError):
        Position.from_id(text)


# the resolution rule: a text denotes the plays that land on every point it names -----------------

def _short(points: dict[int, int]) -> Position:
    """A short nardy position from {point: count} (negative counts are Black's), White on roll."""
    view = [0] * 26
    for point, n in points.items():
        view[point] = n
    view[25] = 15 - sum(n for n in points.values() if n > 0)
    view[0] = -15 - sum(n for n in points.values() if n < 0)
    return Position(view, "short")


@pytest.mark.parametrize("board, dice, text, meant", [
    # server style, each die its own step and no `*`: the step lands on 15, so it hits there
    ({16: 1, 6: 14, 15: -1, 1: -14}, (5, 1), "16/15 15/10", "16/15*/10"),
    ({16: 1, 6: 14, 15: -1, 1: -14}, (5, 1), "16/11 11/10", "16/10"),
    ({16: 1, 6: 14, 15: -1, 1: -14}, (5, 1), "16/10", "16/10"),  # a bare 16/10 hits nothing on the way
    # an engine's own step output fed back (blots on both ways)
    ({8: 1, 6: 14, 4: -1, 5: -1, 20: -13}, (3, 4), "8/5 5/1", "8/5*/1"),
    ({8: 1, 6: 14, 4: -1, 5: -1, 20: -13}, (3, 4), "8/4 4/1", "8/4*/1"),
    ({5: 1, 6: 14, 4: -1, 3: -1, 20: -13}, (1, 2), "5/4 4/2", "5/4*/2"),
    ({5: 1, 6: 14, 4: -1, 3: -1, 20: -13}, (1, 2), "5/3 3/2", "5/3*/2"),
])
def test_the_text_names_its_landing_points(board, dice, text, meant):
    assert str(_short(board).parse_move(text, dice)) == meant


def test_ambiguous_only_when_two_plays_remain():
    p = _short({8: 1, 6: 14, 4: -1, 5: -1, 20: -13})
    with pytest.raises(InvalidNotationError, match="ambiguous"):
        p.parse_move("8/1", (3, 4))  # both ways hit on a point the text does not name
    for text in ("8/1*", "8/5* 5/1*"):  # a `*` where no play hits narrows to nothing
        with pytest.raises(IllegalMoveError, match="not a legal play"):
            p.parse_move(text, (3, 4))


def _writings(move: Move, rng) -> list[str]:
    """Every way a player or a program writes `move`: merged, step by step, with or without `*`,
    in the order played or shuffled."""
    steps = [f"{s.src}/{s.dst}{'*' if s.hit else ''}" for s in move.steps]
    shuffled = steps[:]
    rng.shuffle(shuffled)
    chains = str(move).split()
    rng.shuffle(chains)
    texts = [str(move), " ".join(chains), " ".join(steps), " ".join(shuffled), move.plain()]
    return texts + [t.replace("*", "") for t in texts]


@pytest.mark.parametrize("rules", [Rules("long"), Rules("short")], ids=["long", "short"])
@settings(max_examples=60)
@given(data=st.data())
def test_every_way_of_writing_a_play_resolves_to_it(rules, data):
    import random

    position = Position(data.draw(boards(rules)), rules.variant)
    dice = data.draw(rolls)
    moves = [m for m in position.legal_moves(dice, rules) if m.steps]
    if not moves:
        return
    move = data.draw(st.sampled_from(moves))
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    for text in _writings(move, rng):
        assert position.parse_move(text, dice, rules) == move, text


@pytest.mark.parametrize("rules", [Rules("long"), Rules("short")], ids=["long", "short"])
@settings(max_examples=60)
@given(data=st.data())
def test_nothing_naming_a_point_the_play_does_not_land_on_resolves_to_it(rules, data):
    from nardy import engine

    position = Position(data.draw(boards(rules)), rules.variant)
    dice = data.draw(rolls)
    results = engine.results(position.to_bytes(), dice, rules)
    children = {pairs: child for child, pairs in results}
    moves = [m for m in position.legal_moves(dice, rules) if m.steps]
    if not moves:
        return
    move = data.draw(st.sampled_from(moves))
    child = children[move.pairs()]
    landed = {dst for seq in engine.sequences(position.to_bytes(), dice, rules)[child] for _, dst in seq}
    unnamed = [q for q in range(1, 25) if q not in landed]
    if not unnamed:
        return
    q = data.draw(st.sampled_from(unnamed))
    i = data.draw(st.integers(0, len(move.steps) - 1))
    steps = [f"{s.src}/{s.dst}" for s in move.steps]
    steps[i] = f"{move.steps[i].src}/{q}/{move.steps[i].dst}"
    text = " ".join(steps)
    try:
        resolved = position.parse_move(text, dice, rules)
    except (IllegalMoveError, InvalidNotationError):
        return
    assert children[resolved.pairs()] != child, text
