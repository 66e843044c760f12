"""SVG boards: valid XML that shows every checker where the position has it, deterministically.

How the boards look is checked by eye with tests/render_svg_samples.py.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nardy import Color, IllegalMoveError, InvalidArgumentError, InvalidDiceError, InvalidPositionError, Move, Position, Rules
from nardy.cli import main
from nardy.position import own_point
from nardy.formats.svg import board
from strategies import boards, played_moves

NS = "{http://www.w3.org/2000/svg}"
LONG, SHORT = Rules("long"), Rules("short")


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{NS}svg"
    return root


def classed(root: ET.Element, *names: str) -> list[ET.Element]:
    """Elements whose class list holds all `names`."""
    return [e for e in root.iter() if set(names) <= set(e.get("class", "").split())]


def on_board(root: ET.Element, color: Color) -> int:
    """Checkers of `color` the picture shows on points and bar: circles, or a stack's count label."""
    total = 0
    for stack in classed(root, "stack", color.name.lower()):
        labels = classed(stack, "count")
        total += int(labels[0].text) if labels else len(classed(stack, "checker"))
    return total


def centres(root: ET.Element, color: Color) -> list[tuple[float, float]]:
    return sorted((float(c.get("cx")), float(c.get("cy"))) for c in classed(root, "checker", color.name.lower()))


def number_x(root: ET.Element) -> dict[int, float]:
    """The x of each point column, from the point numbers."""
    return {int(t.text): float(t.get("x")) for t in classed(root, "number")}


def mid_y(root: ET.Element) -> float:
    _, _, _, height = map(float, root.get("viewBox").split())
    return height / 2


def test_the_starts_show_fifteen_checkers_a_side_and_valid_xml():
    for variant in ("long", "short"):
        root = parse(board(Position.start(variant)))
        assert root.get("viewBox").startswith("0 0 ")
        for color in Color:
            assert on_board(root, color) == 15
            assert not classed(root, "slab")  # nothing borne off
    long_root = parse(board(Position.start("long")))
    assert len(classed(long_root, "count")) == 2  # 15 on each head: one label each
    assert len(classed(long_root, "checker")) == 10
    short_root = parse(board(Position.start("short")))
    assert len(classed(short_root, "count")) == 0  # no point holds more than five
    assert len(classed(short_root, "checker")) == 30


@given(st.data())
def test_every_checker_is_drawn_once(data):
    rules = data.draw(st.sampled_from([LONG, SHORT]))
    view = data.draw(boards(rules))
    position = Position(view, rules.variant, data.draw(st.sampled_from(list(Color))))
    bottom = data.draw(st.sampled_from(list(Color)))
    root = parse(board(position, bottom=bottom, home=data.draw(st.sampled_from(["right", "left"]))))
    for color in Color:
        assert on_board(root, color) == sum(position.checkers(color).values()) + position.bar(color)
        assert len(classed(root, "slab", color.name.lower())) == position.borne_off(color)
        held = list(position.checkers(color).values()) + ([position.bar(color)] if position.bar(color) else [])
        assert len(classed(root, "stack", color.name.lower())) == len(held)
        assert len(classed(root, "checker", color.name.lower())) == sum(min(n, 5) for n in held)
    stack_labels = [e for s in classed(root, "stack") for e in classed(s, "count")]
    assert len(stack_labels) == sum(n > 5 for c in Color for n in position.checkers(c).values()) + sum(
        position.bar(c) > 5 for c in Color)


def test_trays_bar_and_their_counts():
    p = Position.from_points("short", white={6: 4, 5: 3, 13: 1}, black={24: 1, 20: 3, 1: 1}, white_bar=1, black_bar=2)
    root = parse(board(p))
    for color, off in ((Color.WHITE, 6), (Color.BLACK, 8)):
        tray = classed(root, "off", color.name.lower())[0]
        assert len(classed(tray, "slab")) == off and classed(tray, "count")[0].text == str(off)
    bar = {c: classed(root, "stack", "bar", c.name.lower()) for c in Color}
    assert [len(classed(bar[c][0], "checker")) for c in Color] == [1, 2]
    # each side's bar checkers stand in the half where they enter: White's at the top, Black's below
    (wy,) = [cy for _, cy in centres(bar[Color.WHITE][0], Color.WHITE)]
    assert wy < mid_y(root) < min(cy for _, cy in centres(bar[Color.BLACK][0], Color.BLACK))


def test_long_heads_and_numbers_follow_the_ascii_diagram():
    root = parse(board(Position.start("long")))
    xs = number_x(root)
    white, black = centres(root, Color.WHITE), centres(root, Color.BLACK)
    assert {x for x, _ in white} == {xs[24]} and all(y < mid_y(root) for _, y in white)  # top right
    assert {x for x, _ in black} == {xs[12]} and all(y > mid_y(root) for _, y in black)  # bottom left
    assert xs[24] == max(xs.values()) and xs[12] == min(xs.values())
    assert xs[1] == xs[24] and xs[12] == xs[13]


def test_orientation():
    short = Position.start("short")
    plain = parse(board(short))
    width = float(plain.get("viewBox").split()[2])
    # home on the left mirrors the picture left to right
    left = parse(board(short, home="left"))
    for color in Color:
        assert centres(left, color) == sorted((round(width - x, 2), y) for x, y in centres(plain, color))
    # Black at the bottom: short nardy turns over top to bottom, and the numbers are Black's
    flipped = parse(board(short, bottom="black"))
    assert number_x(flipped) == number_x(plain)
    assert centres(flipped, Color.WHITE) == sorted((x, 2 * mid_y(plain) - y) for x, y in centres(plain, Color.WHITE))
    # long nardy turns half round
    long = Position.start("long")
    a, b = parse(board(long)), parse(board(long, bottom=Color.BLACK))
    assert centres(b, Color.WHITE) == sorted((round(width_of(a) - x, 2), 2 * mid_y(a) - y) for x, y in centres(a, Color.WHITE))
    names = {c: [t.text for t in classed(root, "name")] for c, root in ((Color.WHITE, a), (Color.BLACK, b))}
    assert names == {Color.WHITE: ["White", "Black"], Color.BLACK: ["White", "Black"]}  # Color order, whatever the place
    bands = [(classed(root, "band", "white")[0], classed(root, "band", "black")[0]) for root in (a, b)]
    ys = [[float(classed(g, "name")[0].get("y")) for g in pair] for pair in bands]
    assert ys[0][0] > ys[0][1] and ys[1][0] < ys[1][1]  # White's band below, then above


def width_of(root: ET.Element) -> float:
    return float(root.get("viewBox").split()[2])


def arrow_ends(root: ET.Element) -> list[tuple[float, float, float, float]]:
    """(x1, y1, tip x, tip y) of each arrow."""
    ends = []
    for arrow in classed(root, "arrow"):
        line = arrow.find(f"{NS}line")
        tip = arrow.find(f"{NS}polygon").get("points").split()[1].split(",")
        ends.append((float(line.get("x1")), float(line.get("y1")), float(tip[0]), float(tip[1])))
    return ends


def test_a_move_draws_an_arrow_per_step_in_the_movers_numbers():
    short = Position.start("short")
    move = short.parse_move("24/18 13/8", (6, 5))
    root = parse(board(short, move=move))
    xs = number_x(root)
    ends = arrow_ends(root)
    assert len(ends) == 2
    by_source = sorted(ends, key=lambda e: -e[0])
    assert abs(by_source[0][0] - xs[24]) < 11 and by_source[0][2] == xs[18]
    assert abs(by_source[1][0] - xs[13]) < 11 and by_source[1][2] == xs[8]
    assert sorted(int(d.get("data-value")) for d in classed(root, "die")) == [5, 6]  # the move's dice
    # Black on roll, in White's fixed numbers: its 24/18 is White's 1/7
    black = Position.start("short", turn="black")
    ends = arrow_ends(parse(board(black, move=black.parse_move("24/18(2) 13/7(2)", (6, 6)), numbers="white")))
    assert len(ends) == 4
    assert sorted(e[2] for e in ends) == sorted([xs[7], xs[7], xs[18], xs[18]])
    # a doubled step lands one checker higher each time
    assert len({e[3] for e in ends}) == 4
    # long nardy, Black on roll: its 24 is White's 12 (bottom left); the labels are Black's by default
    long = Position.start("long").apply(Move((6, 5), ((24, 18), (18, 13))))
    root = parse(board(long, move=long.parse_move("24/13", (6, 5))))
    xs, ends = number_x(root), arrow_ends(root)
    assert len(ends) == 2 and abs(ends[0][0] - xs[24]) < 11 and ends[0][3] > mid_y(root)  # from Black's head, bottom left
    assert xs[24] == min(xs.values())
    assert ends[1][2] == xs[13] and ends[1][3] > mid_y(root)  # to Black's 13, White's 1
    white_labels = number_x(parse(board(long, move=long.parse_move("24/13", (6, 5)), numbers="white")))
    assert ends[0][0] - white_labels[12] < 11 and ends[1][2] == white_labels[1]


def test_the_last_move_is_drawn_on_the_board_after_it():
    short = Position.start("short")
    move = short.parse_move("24/18 13/8", (6, 5))
    before, after = parse(board(short, move=move)), parse(board(short, move=move, after=True))
    assert arrow_ends(before) == arrow_ends(after)  # the same arrows...
    moved = short.apply(move)
    assert centres(after, Color.WHITE) == centres(parse(board(moved)), Color.WHITE)  # ...on the board after it
    assert centres(after, Color.WHITE) != centres(before, Color.WHITE)
    assert after.find(f"{NS}title").text == "Short nardy, White played 6-5 24/18 13/8, Black on roll"
    # every arrow ends on a checker that is there after the move
    tips = {(round(x), round(y)) for _, _, x, y in arrow_ends(after)}
    assert tips <= {(round(x), round(y)) for x, y in centres(after, Color.WHITE)}
    with pytest.raises(InvalidArgumentError, match="after=True draws the board after a given move"):
        board(short, after=True)


def test_arrows_from_the_bar_and_to_the_tray():
    p = Position.from_points("short", white={6: 4, 5: 3, 13: 1}, black={24: 1, 20: 3, 1: 1}, white_bar=1, black_bar=2)
    root = parse(board(p, move=p.parse_move("bar/22 13/9", (4, 3))))
    bar = centres(classed(root, "stack", "bar", "white")[0], Color.WHITE)[0]
    ends = arrow_ends(root)
    assert any(abs(x1 - bar[0]) < 11 and abs(y1 - bar[1]) < 11 for x1, y1, _, _ in ends)
    off = Position.from_points("short", white={1: 3, 2: 2}, black={19: 7, 24: 1}, turn="black")
    root = parse(board(off, move=off.parse_move("6/off 6/4", (6, 2))))
    tray = classed(root, "tray", "black")[0]
    tx, tw = float(tray.get("x")), float(tray.get("width"))
    assert any(tip_x == tx + tw / 2 for _, _, tip_x, _ in arrow_ends(root))


def test_dice_options_and_sizes():
    p = Position.start("long")
    root = parse(board(p, dice=(3, 3)))
    dice = classed(root, "die")
    assert [d.get("data-value") for d in dice] == ["3", "3"] and all(len(d.findall(f"{NS}circle")) == 3 for d in dice)
    assert not classed(parse(board(p)), "die")
    sized = parse(board(p, size=300))
    assert sized.get("width") == "300" and sized.get("viewBox") == root.get("viewBox")
    assert abs(float(sized.get("height")) / 300 - float(root.get("height")) / float(root.get("width"))) < 0.01
    bare = parse(board(p, show_pips=False, show_numbers=False))
    assert not classed(bare, "number") and not classed(bare, "pips")
    assert len(classed(root, "number")) == 24
    assert sorted(t.text for t in classed(root, "pips")) == ["pips 360", "pips 360"]
    roll_badge = classed(root, "on-roll")
    assert len(roll_badge) == 1 and roll_badge[0] in list(classed(root, "band", "white")[0].iter())


def test_deterministic_and_repr_svg():
    p = Position.from_points("short", white={6: 9, 13: 1}, black={24: 1, 20: 3}, white_bar=1)
    q = Position(p.view(), "short")
    assert board(p, dice=(6, 5)) == board(q, dice=(6, 5))
    assert p._repr_svg_() == board(p)
    assert " id=" not in board(p)


def test_bad_arguments():
    p = Position.start("short")
    with pytest.raises(InvalidDiceError):
        board(p, dice=(0, 5))
    with pytest.raises(InvalidDiceError):
        board(p, dice=(6,))
    with pytest.raises(IllegalMoveError):
        board(p, move=Move((6, 5), ((24, 18), (24, 19))))
    with pytest.raises(IllegalMoveError):
        board(Position.start("long"), move=p.parse_move("13/7 13/8", (6, 5)))  # legal in short nardy only
    with pytest.raises(InvalidArgumentError, match="do not match"):
        board(p, dice=(4, 2), move=p.parse_move("24/13", (6, 5)))
    for bad in ({"bottom": "red"}, {"home": "up"}, {"size": 0}, {"size": True}, {"size": 12.5},
                {"show_pips": "yes"}, {"move": "24/13"}):
        with pytest.raises(InvalidArgumentError):
            board(p, **bad)
    with pytest.raises(InvalidArgumentError):
        board(p.view())


def test_cli_writes_the_file(tmp_path, capsys):
    path = tmp_path / "board.svg"
    assert main(["svg", "short", "-o", str(path), "--dice", "6-5", "--move", "24/18 13/8", "--flip"]) == 0
    assert capsys.readouterr().out.strip() == str(path)
    root = parse(path.read_text())
    assert len(classed(root, "arrow")) == 2 and len(classed(root, "die")) == 2
    assert path.read_text() == board(Position.start("short"), move=Position.start("short").parse_move("24/18 13/8", (6, 5)),
                                      bottom="black")
    view = ",".join(map(str, [0] * 12 + [-15] + [0] * 11 + [15, 0]))
    assert main(["svg", "long", view, "--turn", "black", "-o", str(path), "--home", "left", "--size", "400"]) == 0
    assert parse(path.read_text()).get("width") == "400"


@pytest.mark.parametrize("argv, message", [
    (["--dice", "6-7"], "a die shows 1..6"),
    (["--dice", "6/5"], "written 6 5, 6-5, 65 or 6,5"),
    (["--move", "24/13"], "--move needs --dice"),
    (["--dice", "6-5", "--move", "24/12"], "not a legal play"),
    (["--size", "0"], "size"),
])
def test_cli_bad_input(tmp_path, capsys, argv, message):
    assert main(["svg", "short", "-o", str(tmp_path / "x.svg"), *argv]) == 2
    assert message in capsys.readouterr().err


def labels_at(root: ET.Element) -> dict[tuple[float, bool], int]:
    """(x, top half?) -> the point number labelling that column."""
    middle = mid_y(root)
    return {(float(t.get("x")), float(t.get("y")) < middle): int(t.text) for t in classed(root, "number")}


def label_of(labels: dict[tuple[float, bool], int], x: float, y: float, middle: float, slack: float) -> int | None:
    found = [n for (lx, top), n in labels.items() if abs(lx - x) <= slack and top == (y < middle)]
    return found[0] if len(found) == 1 else None


def named_points(text: str) -> list[list[int]]:
    """The points each part of a move's text names, in order: '24/18*/13 bar/22(2)' -> [[24, 18, 13], [25, 22], [25, 22]]."""
    chains = []
    for part in text.split():
        repeat = re.fullmatch(r"(.*)\((\d)\)", part)
        body, times = (repeat.group(1), int(repeat.group(2))) if repeat else (part, 1)
        chain = [25 if p == "bar" else 0 if p == "off" else int(p) for p in body.replace("*", "").split("/")]
        chains += [chain] * times
    return chains


def covers(legs: list[tuple[int, int]], steps: list[tuple[int, int]]) -> bool:
    """Can the steps be split, each used once, into runs from each leg's first point to its last?"""
    if not legs:
        return not steps
    (at, target), rest = legs[0], legs[1:]
    if at == target:
        return covers(rest, steps)
    return any(covers([(step[1], target), *rest], steps[:i] + steps[i + 1:])
               for i, step in enumerate(steps) if step[0] == at)


@pytest.mark.parametrize("variant", ["long", "short"])
@pytest.mark.parametrize("starter", ["white", "black"])
@pytest.mark.parametrize("numbers", ["mover", "white"])
def test_every_step_starts_and_ends_on_the_labels_its_text_names(variant, starter, numbers):
    """The arrows of a move, read against the point labels, spell the move's text (whole games, both colours)."""
    checked = set()
    for position, move in played_moves(variant, starter, seed=7 + len(variant)):
        mover = position.turn
        root = parse(board(position, move=move, numbers=numbers))
        middle, labels = mid_y(root), labels_at(root)
        tray = classed(root, "tray", mover.name.lower())[0]
        tray_x = float(tray.get("x")) + float(tray.get("width")) / 2

        def read(x: float, y: float, slack: float) -> int:
            if abs(x - tray_x) < 1e-6:
                return 0  # off
            point = label_of(labels, x, y, middle, slack)
            if point is None:
                return 25  # the bar: between the halves of the board, on no label
            return point if numbers == "mover" else own_point(point, mover, position.variant)  # back to the mover's numbers

        steps = [(read(x1, y1, 11), read(x2, y2, 0)) for x1, y1, x2, y2 in arrow_ends(root)]
        assert steps == [(s.src, s.dst) for s in move.steps], (str(move), position)
        # and the text names those steps: each part of it runs along consecutive arrows, using each once
        legs = [(chain[i], chain[i + 1]) for chain in named_points(str(move)) for i in range(len(chain) - 1)]
        assert covers(legs, steps), (str(move), steps)
        checked |= {k for s in move.steps for k in (s.src == 25, s.dst == 0, s.hit)}
    assert True in checked  # bar, bear-off or hits occurred (whole games: bear-offs always do)


def test_board_labels_follow_the_side_on_roll():
    for variant, turn in (("short", "black"), ("long", "black"), ("short", "white")):
        p = Position.start(variant, turn)
        xs = number_x(parse(board(p)))
        mover_head = p.checkers(p.turn)
        # the mover's 24 is the column of its head / back checkers
        head = max(mover_head, key=lambda pt: own_point(pt, p.turn, p.variant))
        cols = {x for x, _ in centres(parse(board(p)), p.turn)}
        assert xs[24] in cols
        assert number_x(parse(board(p, numbers="white")))[head] == xs[24]
    with pytest.raises(InvalidArgumentError, match="numbers"):
        board(Position.start("short"), numbers="red")


# Jupyter: boards, games, matches and simulations draw themselves -----------------------------------

def test_board_is_a_string_that_jupyter_draws():
    p = Position.start("short")
    svg = board(p)
    assert isinstance(svg, str) and svg.startswith("<svg") and svg._repr_svg_() == svg
    assert type(svg._repr_svg_()) is str and parse(svg) is not None


def test_games_matches_and_simulations_have_readable_reprs_and_draw_in_jupyter():
    from nardy import Game, Match, simulate

    match = Match("short", 5, seed=3)
    assert repr(match) == "<Match short nardy, default rules, to 5 points: White 0, Black 0; 0 games played>"
    assert match._repr_svg_() is None
    game = match.new_game()
    assert repr(game) == "<Game short nardy, default rules, not started, cube 1 centred, score 0-0 of 5>"
    assert game._repr_svg_() is None
    game.roll_off()
    game.play(game.legal_moves()[0])
    game.double()
    game.take()
    assert repr(game).startswith(f"<Game short nardy, default rules, {game.position.turn.name.capitalize()} on roll, cube 2 owned by")
    root = parse(game._repr_svg_())
    (cube,) = classed(root, "cube")
    assert cube.get("data-value") == "2" and game.cube_owner.name.lower() in cube.get("class")
    assert [t.text for t in classed(root, "score")] == ["0 points", "0 points"]
    assert "5-point match" in classed(root, "variant")[0].text
    assert match._repr_svg_() == game._repr_svg_() and "game 1 in play" in repr(match)
    assert repr(Game("long")) == "<Game long nardy, default rules, not started>"
    result = simulate("long", 50, seed=1, threads=1)
    text = repr(result)
    assert text.startswith("<Simulation of 50 games, long nardy, default rules, policy random, seed 1: White wins ")
    assert "array(" not in text and len(text) < 200
    assert "<table>" in result._repr_html_() and "koks" not in result._repr_html_()


def test_the_cube_score_and_names():
    p = Position.start("short")
    root = parse(board(p, cube=1))
    (cube,) = classed(root, "cube", "centre")
    assert classed(cube, "cube-value")[0].text == "64"  # a centred cube shows 64, as on a real board
    y = float(cube.find(f"{NS}rect").get("y")) + 18
    assert abs(y - mid_y(root)) < 1
    for owner, half in (("white", "bottom"), ("black", "top")):
        (cube,) = classed(parse(board(p, cube=4, cube_owner=owner)), "cube", owner)
        cy = float(cube.find(f"{NS}rect").get("y"))
        assert (cy > mid_y(root)) == (half == "bottom") and classed(cube, "cube-value")[0].text == "4"
    # in the margin opposite the trays, clear of the board and the trays
    xs = [float(r.get("x")) for r in classed(root, "tray")]
    cube_x = float(classed(root, "cube")[0].find(f"{NS}rect").get("x"))
    assert all(abs(cube_x - x) > 100 for x in xs)
    scored = parse(board(p, score=(3, 1), match_length=7, names=("Ann", "Bob")))
    assert [t.text for t in classed(scored, "name")] == ["Ann", "Bob"]
    assert [t.text for t in classed(scored, "score")] == ["3 points", "1 point"]
    assert classed(scored, "variant")[0].text == "short nardy, 7-point match"
    assert "money game" in classed(parse(board(p, match_length=0)), "variant")[0].text
    long_name = parse(board(p, names=("Alexandra Konstantinopolskaya", "B")))
    name = classed(long_name, "band", "white")[0]
    name_end = float(classed(name, "name")[0].get("x")) + 0.55 * 15 * len("Alexandra Konstantinopolskaya")
    assert float(classed(name, "pips")[0].get("x")) > name_end  # the pips do not run over a long name
    for bad in ({"cube": 3}, {"cube": 0}, {"cube_owner": "white"}, {"cube": 2, "cube_owner": "red"},
                {"score": (7, 0), "match_length": 7}, {"score": (1,)}, {"match_length": -1}, {"names": ("A",)},
                {"names": ("A", "")}):
        with pytest.raises(InvalidArgumentError):
            board(p, **bad)
    with pytest.raises(InvalidArgumentError, match="long nardy has no doubling cube"):
        board(Position.start("long"), cube=1)


def test_after_a_move_the_badge_marks_the_side_whose_dice_are_shown():
    for variant, turn in (("short", "white"), ("short", "black"), ("long", "black")):
        p = Position.start(variant, turn)
        move = p.legal_moves((6, 5))[0]
        for after in (False, True):
            root = parse(board(p, move=move, after=after))
            dice_colours = {c for d in classed(root, "die") for c in ("white", "black") if c in d.get("class").split()}
            (badge,) = classed(root, "on-roll")
            band = next(b for b in classed(root, "band") if badge in list(b.iter()))
            assert dice_colours == {turn} and turn in band.get("class")
            label = [t.text for t in classed(band, "badge")]
            assert label == (["played"] if after else ["on roll"])


def test_the_borne_off_count_sits_by_its_checkers():
    for off_white, off_black in ((1, 14), (8, 3), (15, 0)):
        white = {6: 15 - off_white} if off_white < 15 else {}
        black = {19: 15 - off_black} if off_black < 15 else {}
        p = Position.from_points("short", white=white, black=black, turn="black", validate=False)
        root = parse(board(p))
        for color, off in ((Color.WHITE, off_white), (Color.BLACK, off_black)):
            if not off:
                continue
            tray = classed(root, "off", color.name.lower())[0]
            slabs = [float(s.get("y")) for s in classed(tray, "slab")]
            count_y = float(classed(tray, "count")[0].get("y"))
            nearest = min(min(abs(count_y - y), abs(count_y - y - 9.5)) for y in slabs)
            assert nearest < 20, (color, off, count_y, slabs)


def test_size_is_bounded_and_rules_are_of_the_position_variant():
    p = Position.start("short")
    assert parse(board(p, size=10_000)).get("width") == "10000"
    for bad in (10_001, 10**30, 0, -5):
        with pytest.raises(InvalidArgumentError, match="size is a width in pixels, a whole number 1..10000"):
            board(p, size=bad)
    assert board(p, rules=Rules("short")) == board(p)
    for other in (Rules("long"), "long"):
        with pytest.raises(InvalidPositionError, match="short nardy position played with Rules\\('long'\\)"):
            board(p, rules=other)  # type: ignore[arg-type]
    with pytest.raises(InvalidPositionError, match="long nardy position"):
        board(Position.start("long"), rules=Rules("short"))


@pytest.mark.parametrize("kwargs", [dict(score=3, match_length=5), dict(names=5), dict(names=("Ann\x01", "Bob")),
                                    dict(names=("\ud800", "Bob")), dict(names=("Ann", "B\x7fob"))])
def test_a_score_or_names_of_the_wrong_kind_or_unwritable_text_is_refused(kwargs):
    with pytest.raises(InvalidArgumentError, match="score|names"):
        board(Position.start("short"), **kwargs)


def test_any_printable_name_gives_well_formed_utf8_xml():
    svg = board(Position.start("short"), names=("Ann <é> & 名", "Bob"))
    ET.fromstring(svg.encode("utf-8"))


def test_diagram_refuses_what_is_not_a_position():
    from nardy.formats.diagram import diagram

    with pytest.raises(InvalidArgumentError, match="diagram\\(\\) draws a Position, got None"):
        diagram(None)


def test_board_draws_a_game_with_its_dice_cube_and_score():
    from nardy import Game, Match

    match = Match("short", 5, seed=2)
    game = match.new_game()
    with pytest.raises(InvalidArgumentError, match="roll_off"):
        board(game)
    game.roll_off()
    if game.dice is None:
        game.roll()
    expected = board(game.position, dice=game.dice, rules=game.rules, cube=1, score=(0, 0), match_length=5)
    assert board(game) == expected == game._repr_svg_()
    assert board(game, dice=(1, 2)) == board(game.position, dice=(1, 2), cube=1, score=(0, 0), match_length=5)
    long = Game("long", seed=1)
    long.roll_off()
    assert board(long) == board(long.position, dice=long.dice)
    with pytest.raises(InvalidArgumentError, match="a Position or a Game"):
        board("start")
