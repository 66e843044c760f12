"""Match files (.mat): round trips of played matches, GNU Backgammon's layout, checked reading."""

from __future__ import annotations

import numpy as np
import pytest

from nardy import Color, Game, Match, Result, Rules
from nardy.formats import matfile
from nardy.errors import IllegalMoveError, InvalidArgumentError, InvalidNotationError

RULE_SETS = [
    Rules("short"),
    Rules("short", crawford=False, jacoby=True),
    Rules("long"),
    Rules("long", block_rule="home", koks=True, opening="dice"),
    Rules("long", last_roll_draw=True, next_starter="black"),
    Rules("long", head_exception="permission", block_timing="end", next_starter="rolloff"),
]


def play_match(rules: Rules, length: int, seed: int, max_games: int = 4) -> Match:
    """Random legal play with random cube actions and the odd resignation."""
    rng = np.random.default_rng(seed)
    match = Match(rules, length, seed=seed)
    while match.winner is None and len(match.games) < max_games:
        game = match.new_game()
        if game.starter is None:
            game.roll_off()
        while not game.over:
            if game.dice is None and game.may_double() and rng.random() < 0.05:
                game.double()
                game.take() if rng.random() < 0.7 else game.drop()
                continue
            if rng.random() < 0.003:
                game.resign(int(rng.integers(1, 4)))
                break
            if game.dice is None:
                game.roll()
            moves = game.legal_moves()
            game.play(moves[rng.integers(len(moves))])
        match.finish_game()
    return match


def same_games(a: Match, b: Match) -> None:
    assert a.length == b.length and a.rules == b.rules and a.score == b.score
    assert len(a.games) == len(b.games)
    for x, y in zip(a.games, b.games):
        assert x.starter == y.starter
        assert x.history() == y.history()
        assert [m.steps for _, kind, m in x.history() if kind == "move"] == [
            m.steps for _, kind, m in y.history() if kind == "move"]  # hits too (not part of ==)
        assert x.result == y.result and x.position == y.position
        assert (x.cube_value, x.cube_owner, x.crawford_game, x.score) == (y.cube_value, y.cube_owner, y.crawford_game, y.score)


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULE_SETS, ids=repr)
def test_played_matches_read_back_to_identical_games(rules):
    for seed in range(6):
        match = play_match(rules, [0, 1, 3, 7][seed % 4], seed)
        text = matfile.write(match, ("Alice Smith", "Bob"), {"Site": "nardy tests", "EventDate": "2026.11.29"})
        record = matfile.read(text)
        same_games(match, record.match)
        assert record.players == ("Alice Smith", "Bob")
        assert record.tags == {"Site": "nardy tests", "EventDate": "2026.11.29"}
        assert matfile.write(record) == text


def test_files_round_trip_through_disk(tmp_path):
    match = play_match(Rules("short"), 5, seed=1)
    path = tmp_path / "m.mat"
    matfile.dump(match, path, players=("A", "B"))
    same_games(match, matfile.load(path).match)


def test_a_single_game_is_written_as_a_money_session():
    game = Game("short", seed=4)
    game.roll_off()
    while not game.over:
        if game.dice is None:
            game.roll()
        game.play(game.legal_moves()[0])
    record = matfile.read(matfile.write(game))
    assert record.match.length == 0 and len(record.games) == 1
    assert record.games[0].history() == game.history()


# the layout GNU Backgammon writes ---------------------------------------------------------------

GNUBG_STYLE = """\
; [Site "PlayOK"]
; [Player 1 "nmela"]
; [EventDate "2017.12.27"]
; a comment line

 3 point match

 Game 1
 nmela : 0                        froglicker : 0
  1) 31: 8/5 6/5                  64: 24/18 13/9
  2) 55: 13/8 13/8 6/1* 6/1       62: 25/23 13/7
  3)  Doubles => 2                 Drops
      Wins 1 point

 Game 2
 nmela : 1                        froglicker : 0
  1)                             41: 13/9 24/23
  2) 64: 24/18 13/9               Doubles => 2
  3)  Takes                       52: 13/11 13/8
                                  Wins 2 points
"""


def test_reads_the_layout_gnubg_writes():
    record = matfile.read(GNUBG_STYLE)
    assert record.rules == Rules("short") and record.match.length == 3
    assert record.players == ("nmela", "froglicker")
    assert record.tags == {"Site": "PlayOK", "Player 1": "nmela", "EventDate": "2017.12.27"}
    first, second = record.games
    assert first.starter is Color.WHITE and first.result.winner is Color.WHITE and first.result.kind == "dropped"
    assert [str(m) for _, kind, m in first.history() if kind == "move"] == [
        "8/5 6/5", "24/18 13/9", "13/8(2) 6/1* 6/1", "bar/23 13/7"]
    assert second.starter is Color.BLACK and second.cube_value == 2 and second.cube_owner is Color.WHITE
    assert second.result.winner is Color.BLACK and second.result.kind == "resigned" and second.result.points == 2
    assert record.match.score == {Color.WHITE: 1, Color.BLACK: 2}
    assert record.match.winner is None  # 3 points are not reached


def test_both_spellings_of_bar_and_off_are_read():
    text = GNUBG_STYLE.replace("13/8 13/8 6/1* 6/1", "13/8(2) 6/1*(2)").replace("25/23", "bar/23")
    assert matfile.read(text).games[0].history() == matfile.read(GNUBG_STYLE).games[0].history()


def test_xg_crawford_and_jacoby_tags_and_nardy_rules_tag():
    body = GNUBG_STYLE.split("\n", 4)[4]
    assert matfile.read('; [Crawford "Off"]\n; [Jacoby "On"]\n' + body).rules == Rules("short", crawford=False, jacoby=True)
    long_text = matfile.write(play_match(Rules("long", koks=True, block_rule="none"), 1, seed=2))
    assert '; [Variation "LongNardy"]' in long_text and '; [Rules "block_rule=none koks=true"]' in long_text
    assert matfile.read(long_text).rules == Rules("long", koks=True, block_rule="none")


def test_a_roll_shown_without_its_move_may_only_be_followed_by_a_resignation():
    # gnubg writes the dice of a side that rolled and then resigned, with no move
    text = GNUBG_STYLE.replace("13/11 13/8\n", "13/11 13/8\n  4) 31:\n")
    game = matfile.read(text).games[1]
    assert game.result == Result(Color.BLACK, "resigned", 2) and game.dice is None
    with pytest.raises(IllegalMoveError, match="game 2, line 20: the roll on line 20 shows no move, but it can be played"):
        matfile.read(GNUBG_STYLE.replace("13/11 13/8\n", "13/11 13/8\n  4) 31:                          Doubles => 4\n"))
    with pytest.raises(IllegalMoveError, match="game 1, line 10: the roll on line 10 shows no move"):
        matfile.read(GNUBG_STYLE.replace("31: 8/5 6/5 ", "31:         "))


def test_a_truncated_file_is_an_error_when_strict_and_a_warning_when_lenient():
    # issue 17: a file cut off in the middle of its last game used to read as a finished match
    text = GNUBG_STYLE.rsplit("  3)", 1)[0]
    with pytest.raises(IllegalMoveError, match="game 2, line 19: the file ends in the middle of game 2"):
        matfile.read(text)
    record = matfile.read(text, strict=False)
    game = record.games[-1]
    assert not game.over and game.cube_value == 1 and game.doubled_by is Color.BLACK
    assert [str(w) for w in record.warnings] == ["game 2, line 19: the file ends in the middle of game 2: it has no result"]


# checked reading: errors name the game and the line -----------------------------------------------

@pytest.mark.parametrize("change, error, message", [
    (("62: 25/23 13/7", "62: 25/23 13/5"), IllegalMoveError, "game 1, line 11: '25/23 13/5' is not a legal play of 6-2"),
    (("31: 8/5 6/5", "31: 8/4 6/5"), IllegalMoveError, "game 1, line 10: '8/4 6/5' is not a legal play of 3-1"),
    (("31: 8/5 6/5", "31: 8/5 6/5 4/3"), IllegalMoveError, "game 1, line 10"),
    (("Drops\n      Wins 1 point", "Drops\n      Wins 2 points"), IllegalMoveError,
     "game 1, line 13: the file says white wins 2, but the play gives white 1"),
    (("Drops\n      Wins 1 point", "Drops\n" + " " * 34 + "Wins 1 point"), IllegalMoveError, "says black wins 1"),
    (("nmela : 1 ", "nmela : 2 "), IllegalMoveError, "game 2, line 16: the score line says 2-0, but the games before make it 1-0"),
    (("52: 13/11 13/8", "52: 13/11 13/x"), InvalidNotationError, "game 2, line 19: 'x' is not a point"),
    (("Doubles => 2                 Drops", "Doubles => 4                 Drops"), IllegalMoveError,
     "game 1, line 12: a double of a 1-cube is to 2, not 4"),
    (("13/9               Doubles => 2", "13/9               Takes"), IllegalMoveError,
     "game 2, line 18: no double has been offered"),
    (("  1) 31: 8/5 6/5", "  1) 33: 8/5 6/5 6/3 6/3"), IllegalMoveError, "game 1, line 10: the opening roll 33 is a double"),
    (("31: 8/5 6/5                  64", "31: 8/5 6/5\n  2) 64"), IllegalMoveError,
     "game 1, line 11: '64: 24/18 13/9' stands in white's column, but black is to act"),
    (("Game 2", "Game 3"), InvalidNotationError, "line 15: game 3 where game 2 was expected"),
    (("  2) 55", "  2) 55: hello 55"), InvalidNotationError, "game 1, line 11: cannot read 'hello 55"),
    (("  3)  Doubles => 2                 Drops\n      Wins 1 point\n", ""), IllegalMoveError,
     "game 1, line 13: game 1 ends without a result"),
])
def test_bad_play_is_reported_with_its_game_and_line(change, error, message):
    text = GNUBG_STYLE.replace(*change)
    assert text != GNUBG_STYLE
    with pytest.raises(error) as info:
        matfile.read(text)
    assert message in str(info.value)


def test_rules_the_file_breaks_are_reported():
    long_text = matfile.write(play_match(Rules("long"), 3, seed=5))
    with pytest.raises(IllegalMoveError, match="played without the doubling cube"):
        matfile.read(long_text.replace("Game 1\n", "Game 1\n", 1).replace(
            "  1) ", "  1)  Doubles => 2                  Takes\n  2) ", 1).replace(
            "  1)                             ", "  1)  Doubles => 2                  Takes\n  2)                             ", 1))
    # next_starter="winner" (long nardy): the winner of game 1 starts game 2
    match = play_match(Rules("long"), 3, seed=6)
    assert len(match.games) >= 2
    winner = match.games[0].result.winner
    lines = matfile.write(match).splitlines()
    second = lines.index(" Game 2") + 2
    row = lines[second]
    lines[second] = ("  1)" + " " * 29 + row[5:].strip()) if winner is Color.WHITE else ("  1) " + row.strip()[4:].strip())
    with pytest.raises(IllegalMoveError, match="game 2, line .*starts game 2 \\(next_starter='winner'\\)"):
        matfile.read("\n".join(lines))


@pytest.mark.parametrize("text, message", [
    ("", "no ' N point match' line"),
    (" Game 1\n", "expected ' N point match'"),
    (" 3 point match\n 3 point match\n", "a second ' N point match'"),
    (" 3 point match\n  1) 31: 8/5 6/5\n", "expected ' Game 1'"),
    (" 3 point match\n Game 1\n nmela 0 froglicker 0\n", "expected the score line"),
    ('; [Variation "HyperGammon"]\n 3 point match\n', "unsupported variation 'HyperGammon'"),
    ('; [Rules "colour=blue"]\n 3 point match\n', "unknown rule option 'colour'"),
    ('; [Variation "LongNardy"]\n; [Rules "koks=maybe"]\n 3 point match\n', "koks is true or false"),
    (' 1 point match\n Game 1\n a : 0    b : 0\n  1) 31: 8/5 6/5   Beavers\n', "beavers"),
])
def test_malformed_files_raise_invalid_notation(text, message):
    with pytest.raises(InvalidNotationError, match=message):
        matfile.read(text)


def test_given_rules_must_agree_with_the_file():
    with pytest.raises(InvalidNotationError, match="not Rules\\('long'\\)"):
        matfile.read(GNUBG_STYLE, Rules("long"))
    assert matfile.read(GNUBG_STYLE, Rules("short")).rules == Rules("short")
    body = GNUBG_STYLE.split("\n", 4)[4]
    with pytest.raises(InvalidNotationError, match="header says jacoby=true, but the rules given are Rules\\('short'\\)"):
        matfile.read('; [Jacoby "On"]\n' + body, Rules("short"))


def test_given_rules_fill_in_what_the_header_does_not_say():
    # GNU Backgammon's .mat export of a Jacoby money session says nothing of Jacoby (where a
    # gammon with the cube never turned scores 1): only the caller can say so
    jacoby = Rules("short", jacoby=True)
    match = play_match(jacoby, 0, seed=3, max_games=6)
    text = "\n".join(line for line in matfile.write(match).splitlines() if "jacoby" not in line.lower())
    with pytest.raises(IllegalMoveError, match="the file says black wins 1, but the play gives black 2"):
        matfile.read(text)
    record = matfile.read(text, jacoby)
    assert record.rules == jacoby
    same_games(match, record.match)
    long_rules = Rules("long", koks=True)
    assert matfile.read(matfile.write(play_match(long_rules, 1, seed=2)), long_rules).rules == long_rules


@pytest.mark.parametrize("players, tags", [
    (("a:b", "c"), None), (("", "c"), None), (("a", "b\nc"), None), (("a", "b"), {"Site": "two\nlines"}),
    (("a", "b"), {"bad tag!": "x"}),
])
def test_writing_rejects_what_the_format_cannot_hold(players, tags):
    with pytest.raises(InvalidArgumentError):
        matfile.write(Match("short", 1), players, tags)


def test_a_text_larger_than_max_size_is_refused_and_dev_zero_does_not_hang(tmp_path):
    """`nardy replay` of a link to /dev/zero grew without bound (session 9's finding)."""
    import os

    with pytest.raises(InvalidNotationError, match=f"at most {matfile.MAX_SIZE} are read"):
        matfile.read(" " * (matfile.MAX_SIZE + 1))
    if os.path.exists("/dev/zero"):
        link = tmp_path / "zero.mat"
        link.symlink_to("/dev/zero")
        with pytest.raises(InvalidArgumentError, match="is not a regular file"):  # a device is not read at all
            matfile.load(link)


def test_a_file_may_start_with_a_utf8_byte_order_mark(tmp_path):
    text = matfile.write(Match("short", 1))
    path = tmp_path / "bom.mat"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert matfile.load(path).match.length == 1


def short_game() -> Game:
    game = Game("short", seed=1)
    game.roll_off()
    game.play(game.legal_moves()[0])
    game.double()
    game.drop()
    return game


def test_a_long_first_name_keeps_a_space_before_the_second():
    players = ("Konstantin Konstantinopolsky", "Bob")
    assert matfile.read(matfile.write(short_game(), players)).players == players
    assert " Ann : 0                        Boris : 0" in matfile.write(short_game(), ("Ann", "Boris"))


@pytest.mark.parametrize("name", ["a\rb", "a\x00b", "a\u2028b", "a\udc80b", ";Ann", " Ann", "Ann ", "a:b", "", 5, None])
def test_a_name_that_cannot_read_back_is_refused_naming_the_player(name):
    from nardy.formats import sgf

    with pytest.raises(InvalidArgumentError, match="player 2's name"):
        matfile.write(short_game(), ("Ann", name))
    if name in ("a\rb", "a\x00b", "a\u2028b", "a\udc80b", "", 5, None):
        with pytest.raises(InvalidArgumentError, match="player 2's name"):
            sgf.write(short_game(), ("Ann", name))


@pytest.mark.parametrize("starter", [None, "black", "white"])
def test_a_game_given_up_before_the_first_move_reads_back(starter):
    from nardy.formats import sgf

    for end in ("resign", "forfeit"):
        game = Game("short", seed=1, starter=starter)
        if starter is None:
            game.roll_off()
        game.resign(2) if end == "resign" else game.forfeit(16)
        for module in (matfile, sgf):
            back = module.read(module.write(game), strict=end == "resign").games[0]
            assert (back.starter, back.result, back.history()) == (game.starter, game.result, game.history())
    game = Game("short", seed=1, starter="white")
    game.resign(1, by="black")
    for module in (matfile, sgf):
        with pytest.raises(InvalidArgumentError, match="game 1: white starts it and wins it before the first move"):
            module.write(game)


def test_readers_take_rules_as_rules_of_does_and_refuse_text_that_is_not_str(tmp_path):
    from nardy import Variant
    from nardy.formats import sgf

    game = short_game()
    path = tmp_path / "game.mat"
    matfile.dump(game, path)
    for rules in ("short", Variant.SHORT, Rules("short")):
        assert matfile.read(matfile.write(game), rules).rules == Rules("short")
        assert matfile.load(path, rules).rules == Rules("short")
        assert sgf.read(sgf.write(game), rules).rules == Rules("short")
    with pytest.raises(InvalidArgumentError, match="rules must be"):
        matfile.read(matfile.write(game), 5)
    for text in (None, 3, 2.5, b"x"):
        with pytest.raises(InvalidArgumentError, match="a match file is text"):
            matfile.read(text)


@pytest.mark.parametrize("args, message", [
    ((None,), "match must be"), ((Match("short", 1), ()), "players must be two names"),
    ((Match("short", 1), {}), "players must be two names"), ((Match("short", 1), None), "players must be two names"),
    ((Match("short", 1), ("A", "B"), {5: "x"}), "a tag is a name"), ((Match("short", 1), ("A", "B"), {"Event": 5}), "a tag is a name"),
    ((Match("short", 1), ("A", "B"), ["Event"]), "tags must be a dict"),
    ((Match("short", 3), ("A", "B"), {"Rules": "koks=true"}), "the Rules tag is written from the rules"),
    ((Match("short", 3), ("A", "B"), {"Variation": "LongNardy"}), "the Variation tag is written from the rules"),
])
def test_writers_refuse_bad_arguments_naming_them(args, message):
    from nardy.formats import sgf

    for module in (matfile, sgf):
        with pytest.raises(InvalidArgumentError, match=message):
            module.write(*args)


def test_sgf_keeps_every_tag():
    from nardy.formats import sgf

    tags = {"My Tag": "x]y", "Event": "Final", "Site": "a:b", "EventDate": "2026.12.01"}
    assert sgf.read(sgf.write(short_game(), ("A", "B"), tags)).tags == tags
    assert matfile.read(matfile.write(short_game(), ("A", "B"), tags)).tags == tags
    with pytest.raises(InvalidArgumentError, match="the EventDate tag's value cannot be written to SGF"):
        sgf.write(short_game(), ("A", "B"), {"EventDate": "2026-12-01"})
    with pytest.raises(InvalidArgumentError, match="the Event tag's value cannot be written to SGF"):
        sgf.write(short_game(), ("A", "B"), {"Event": "a\rb"})
    for value in ("x\udc80", "\ud83d"):  # a lone surrogate: no file can hold it (was a UnicodeEncodeError at dump)
        with pytest.raises(InvalidArgumentError, match="the Event tag's value cannot be written to SGF"):
            sgf.write(short_game(), ("A", "B"), {"Event": value})
        with pytest.raises(InvalidArgumentError, match="the Event tag's value is one line of text"):
            matfile.write(short_game(), ("A", "B"), {"Event": value})
    with pytest.raises(InvalidNotationError, match=r"NT\[x\] is not a new tag"):
        sgf.read(sgf.write(short_game()).replace("PW[", "NT[x]PW["))


@pytest.mark.parametrize("line", ['; [Event "Test"', "; [Event Test]", ";[Event]"])
def test_a_broken_tag_line_is_an_error_when_strict_and_a_warning_when_lenient(line):
    text = line + "\n" + matfile.write(short_game())
    with pytest.raises(InvalidNotationError, match="line 1: skipped a broken tag line"):
        matfile.read(text)
    record = matfile.read(text, strict=False)
    assert "Event" not in record.tags and "broken tag line" in record.warnings[0].message
    assert matfile.read("; a comment [x]\n" + matfile.write(short_game())).warnings == []


def test_loads_read_only_regular_files_and_refuse_a_nul_in_the_path(tmp_path):
    """A FIFO named like a match file blocked `load` and `nardy replay DIR/` for ever."""
    import os

    from nardy.formats import sgf
    from nardy.cli import main
    from nardy.evaluation.net import Net

    fifo = tmp_path / "pipe.mat"
    os.mkfifo(fifo)
    for load in (matfile.load, sgf.load, Net.load):
        with pytest.raises(InvalidArgumentError, match="pipe.mat' is not a regular file"):
            load(fifo)
        with pytest.raises(InvalidArgumentError, match="is not a regular file"):
            load(tmp_path)
        with pytest.raises(InvalidArgumentError, match="a path has no NUL character"):
            load("a\x00b")
    assert main(["replay", str(tmp_path)]) == 2


def test_sgf_load_accepts_a_utf8_byte_order_mark_as_matfile_load_does(tmp_path):
    from nardy.formats import sgf

    path = tmp_path / "bom.sgf"
    path.write_bytes(b"\xef\xbb\xbf" + sgf.write(short_game()).encode())
    assert sgf.load(path).games[0].result == short_game().result
