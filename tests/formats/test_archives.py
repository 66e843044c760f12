"""Reading the archives players have (issue 12): server and gnubg match files, strict and lenient."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nardy import Color, Match
from nardy.formats import matfile
from nardy.errors import IllegalMoveError, InvalidArgumentError, InvalidNotationError

DATA = Path(__file__).parent.parent / "data" / "archives"


def score(record: matfile.MatchRecord) -> tuple[int, int]:
    return record.match.score[Color.WHITE], record.match.score[Color.BLACK]


@pytest.mark.parametrize("name, games, final", [
    ("gnubg-export-1.mat", 6, (3, 7)),  # GNU Backgammon's own export (self-play, 7 points)
    ("gnubg-export-2.mat", 4, (0, 9)),
    ("server-steps.mat", 3, (1, 4)),  # every die its own step, no '*' (was "ambiguous" 3 times)
])
def test_archives_that_read_strictly(name, games, final):
    for strict in (True, False):
        record = matfile.load(DATA / name, strict=strict)
        assert len(record.games) == games and score(record) == final and record.warnings == []
        assert all(game.over for game in record.games)


def test_a_gnubg_money_session_with_the_jacoby_rule_from_its_mat_and_its_sgf():
    # GNU Backgammon 1.07 played itself (a money session, Jacoby on: its default) and wrote both
    # files; the .mat does not say Jacoby, so the caller does; the SGF does (RU[Jacoby])
    from nardy import Rules
    from nardy.formats import sgf
    from test_matfile import same_games

    jacoby = Rules("short", jacoby=True)
    mat, sgf_record = matfile.load(DATA / "gnubg-money-jacoby.mat", jacoby), sgf.load(DATA / "gnubg-money-jacoby.sgf")
    assert sgf_record.rules == jacoby and mat.players == sgf_record.players == ("gnubg", "root")
    same_games(mat.match, sgf_record.match)
    assert len(mat.games) == 7 and score(mat) == (9, 11) and all(game.over for game in mat.games)


@pytest.mark.parametrize("name, error, games, final, warnings", [
    ("mid-match.mat", "game 3, line 5: the file starts at game 3, not game 1", 4, (3, 7),
     ["game 3, line 5: the file starts at game 3, not game 1", "game 3, line 6: the match starts at 1-1, not 0-0"]),
    ("forced-left-out.mat", "game 3, line 45: the roll on line 44 shows no move, but it can be played (it is forced", 4, (0, 9),
     ["game 3, line 44: played the forced move bar/23 bar/21, which the file leaves out"]),
    ("server-noise.mat", "game 1, line 9: cannot read 'Illegal play (24/14 13/10)'", 2, (17, 0),
     ["game 1, line 9: skipped a line that is not a row: 'Illegal play (24/14 13/10)'",
      "game 2, line 21: skipped a line that is not a row: '** gnubg has left the match **'",
      "game 2, line 22: white wins 16 points at cube 2, which no resignation gives (1, 2 or 3 times the cube): "
      "read as a forfeit"]),
])
def test_archives_that_need_lenient_reading(name, error, games, final, warnings):
    with pytest.raises((IllegalMoveError, InvalidNotationError)) as info:
        matfile.load(DATA / name)
    assert error in str(info.value)
    record = matfile.load(DATA / name, strict=False)
    assert len(record.games) == games and score(record) == final
    assert [str(w) for w in record.warnings] == warnings
    assert all(game.over for game in record.games)


def test_a_mid_match_archive_starts_at_its_first_score_line():
    record = matfile.load(DATA / "mid-match.mat", strict=False)
    assert record.games[0].score == (1, 1)
    assert [w.game for w in record.warnings] == [3, 3]


def test_a_forfeit_is_recorded_as_a_forfeit_and_written_back():
    record = matfile.load(DATA / "server-noise.mat", strict=False)
    game = record.games[-1]
    assert (game.result.winner, game.result.kind, game.result.points, game.cube_value) == (Color.WHITE, "forfeit", 16, 2)
    assert game.history()[-1] == (Color.BLACK, "forfeit", 16)
    again = matfile.read(matfile.write(record), strict=False)
    assert score(again) == (17, 0) and again.games[-1].result == game.result


def test_the_file_s_score_lines_are_checked_in_every_mode():
    text = (DATA / "gnubg-export-1.mat").read_text().replace(" gnubg : 1 ", " gnubg : 2 ", 1)
    for strict in (True, False):
        with pytest.raises(IllegalMoveError, match="game 2, line 14: the score line says 2-0, but the games before make it 1-0"):
            matfile.read(text, strict=strict)


GAME = """\
 3 point match

 Game 1
 a : 0                          b : 0
  1) 31: 8/5 6/5                64: 24/18 13/9
  2) 55: 13/8 13/8 6/1* 6/1     62: 25/23 13/7
  3)  Doubles => 2               Drops
      Wins 1 point
"""


def test_row_numbers_are_checked():
    # issue 17: swapped rows were read without a word
    swapped = GAME.replace("  1) 31:", "  2) 31:", 1).replace("  2) 55:", "  1) 55:", 1)
    with pytest.raises(IllegalMoveError, match="game 1, line 5: row 2 where row 1 was expected"):
        matfile.read(swapped)
    with pytest.raises(IllegalMoveError, match="game 1, line 5: row 2 where row 1 was expected"):
        matfile.read(GAME.replace("  1) 31:", "  2) 31:"))
    record = matfile.read(GAME.replace("  3)  Doubles", "  4)  Doubles"), strict=False)
    assert [str(w) for w in record.warnings] == ["game 1, line 7: row 4 where row 3 was expected"]


def test_the_match_the_file_says_is_won_must_be_won():
    with pytest.raises(IllegalMoveError, match="game 1, line 8: the file says white wins the match, but that makes 1 of 3"):
        matfile.read(GAME.replace("Wins 1 point", "Wins 1 point and the match"))


@pytest.mark.parametrize("change, message", [
    ((" 3 point match", " " + "9" * 5000 + " point match"), "a match length 999999999999... has 5000 digits"),
    (("Game 1", "Game 1" + "0" * 5000), "a game number"),
    (("a : 0 ", "a : " + "1" * 5000 + " "), "a score"),
    (("Doubles => 2", "Doubles => " + "2" * 5000), "a cube value"),
    (("Wins 1 point", "Wins " + "1" * 5000 + " points"), "the points won"),
    (("  1) 31", " " + "1" * 5000 + ") 31"), "a row number"),
])
def test_numbers_with_thousands_of_digits_are_nardy_errors(change, message):
    with pytest.raises(InvalidNotationError, match=message):
        matfile.read(GAME.replace(*change), strict=False)


@pytest.mark.parametrize("line", [
    " " * 2000 + "a",  # the score line that backtracked for 9 s
    "a" + " " * 2000 + ":",
    "a :" + " " * 2000 + "0 b : 0 x",
])
def test_pathological_score_lines_are_rejected(line):
    # the parse is one pass over the words: linear in the length (benchmarks/ measures it)
    with pytest.raises(InvalidNotationError, match="game 1, line 4: expected the score line"):
        matfile.read(GAME.replace(" a : 0                          b : 0", line))


def test_a_line_longer_than_the_limit_is_an_error_naming_it():
    long_tag = '; [Site "' + "x" * matfile.MAX_LINE + '"]\n'
    with pytest.raises(InvalidNotationError, match=f"line 2: the line has {matfile.MAX_LINE + 11} characters"):
        matfile.read("\n" + long_tag + GAME)
    tags = '; [Site' + " " * 3000 + '"x"]\n'  # a tag line with a long run of spaces reads in one pass
    assert matfile.read(tags + GAME).tags == {"Site": "x"}


def test_writing_is_whole_or_nothing(tmp_path, monkeypatch):
    record = matfile.read(GAME)
    path = tmp_path / "m.mat"
    path.write_text("the old file\n")

    def fail(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError, match="No space"):
        matfile.dump(record, path)
    assert path.read_text() == "the old file\n" and os.listdir(tmp_path) == ["m.mat"]
    monkeypatch.undo()
    matfile.dump(record, path)
    assert matfile.load(path).match.score == record.match.score and os.listdir(tmp_path) == ["m.mat"]


def test_a_directory_as_the_target_is_an_error_naming_it(tmp_path):
    """matfile.dump and sgf.dump into a directory were an IsADirectoryError naming the temporary file."""
    from nardy.formats import sgf

    target = tmp_path / "games"
    target.mkdir()
    match = Match("short", 1)
    match.new_game().roll_off()
    for dump in (matfile.dump, sgf.dump):
        with pytest.raises(InvalidArgumentError, match=f"cannot write {re.escape(repr(str(target)))}: it is a directory"):
            dump(match, target)
        assert os.listdir(tmp_path) == ["games"] and os.listdir(target) == []


def test_a_missing_folder_is_an_error_naming_the_target_and_leaves_nothing(tmp_path):
    """A dump into a folder that does not exist was a FileNotFoundError naming the temporary file."""
    from nardy.formats import sgf
    from nardy.evaluation.net import Net

    match = Match("short", 1)
    match.new_game().roll_off()
    for name, dump in [("m.mat", lambda p: matfile.dump(match, p)),
                       ("m.sgf", lambda p: sgf.dump(match, p)),
                       ("n.npz", lambda p: Net.initial("short", hidden=8, seed=1).save(p))]:
        target, folder = tmp_path / "missing" / name, tmp_path / "missing"
        with pytest.raises(InvalidArgumentError) as error:
            dump(target)
        assert str(error.value) == f"cannot write {str(target)!r}: no directory {str(folder)!r}"
    assert os.listdir(tmp_path) == []


# the command line -------------------------------------------------------------------------------

def test_replay_many_files_one_line_each_and_the_exit_code(capsys):
    from nardy.cli import main

    assert main(["replay", str(DATA)]) == 2  # three files need lenient reading: it goes on past them
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert len(lines) == 8 and "3 of 8 files could not be read" in err
    assert f"{DATA / 'server-steps.mat'}: 3 game(s), 122 moves, score gnubg 1, root 4" in lines
    assert any(line.startswith(f"{DATA / 'mid-match.mat'}: error: game 3, line 5: the file starts at game 3") for line in lines)
    assert main(["replay", "--lenient", str(DATA / "*.mat")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 7
    assert f"{DATA / 'forced-left-out.mat'}: 4 game(s), 138 moves, score gnubg 0, root 9, 1 warning(s): " \
           "game 3, line 44: played the forced move bar/23 bar/21, which the file leaves out" in lines


def test_jacoby_for_mat_files_on_the_command_line(tmp_path, capsys):
    # a Jacoby money session's .mat without a word of Jacoby (as GNU Backgammon exports it)
    from nardy import Rules
    from nardy.cli import main
    from test_matfile import play_match

    text = matfile.write(play_match(Rules("short", jacoby=True), 0, seed=3, max_games=6))
    path = tmp_path / "money.mat"
    path.write_text("\n".join(line for line in text.splitlines() if "jacoby" not in line.lower()) + "\n")
    assert main(["replay", str(path)]) == 2
    assert "the file says black wins 1, but the play gives black 2" in capsys.readouterr().err
    assert main(["replay", "--jacoby", str(path)]) == 0
    assert "jacoby=True" in capsys.readouterr().out
    assert main(["convert-match", "--jacoby", str(path), str(tmp_path / "money.sgf")]) == 0
    assert "RU[Jacoby]" in (tmp_path / "money.sgf").read_text()
    long_path = tmp_path / "long.mat"
    long_path.write_text(matfile.write(play_match(Rules("long"), 1, seed=2)))
    assert main(["replay", "--jacoby", str(long_path)]) == 2  # Jacoby is a short nardy option
    assert "the file is long nardy, not Rules('short', jacoby=True)" in capsys.readouterr().err


def test_replay_of_one_file_prints_its_warnings(capsys):
    from nardy.cli import main

    assert main(["replay", "--lenient", str(DATA / "mid-match.mat")]) == 0
    assert capsys.readouterr().out.rstrip().endswith(
        "warning: game 3, line 5: the file starts at game 3, not game 1\n"
        "warning: game 3, line 6: the match starts at 1-1, not 0-0")


def test_convert_match_both_ways(tmp_path, capsys):
    from nardy.formats import sgf
    from nardy.cli import main

    original = matfile.load(DATA / "gnubg-export-2.mat")
    assert main(["convert-match", str(DATA / "gnubg-export-2.mat"), str(tmp_path / "m.sgf")]) == 0
    assert main(["convert-match", str(tmp_path / "m.sgf"), str(tmp_path / "m.mat")]) == 0
    for record in (sgf.load(tmp_path / "m.sgf"), matfile.load(tmp_path / "m.mat")):
        assert [g.history() for g in record.games] == [g.history() for g in original.games]
        assert record.match.score == original.match.score and record.players == original.players
    assert main(["convert-match", str(DATA / "server-noise.mat"), str(tmp_path / "n.sgf")]) == 2
    assert not (tmp_path / "n.sgf").exists()
    assert main(["convert-match", "--lenient", str(DATA / "server-noise.mat"), str(tmp_path / "n.sgf")]) == 0
    assert main(["convert-match", str(tmp_path / "m.sgf"), str(tmp_path / "m.txt")]) == 2
    assert "a match file ends in .mat or .sgf" in capsys.readouterr().err


@settings(max_examples=150, deadline=None)
@given(text=st.one_of(st.text(max_size=300), st.builds(lambda a, b: a + b, st.sampled_from([GAME, "(;GM[6]MI[length:3]"]),
                                                           st.text(alphabet=" \n;:[]()*/0123456789abwxyzWBDoublesTakesWin=>", max_size=200))),
       strict=st.booleans())
def test_any_text_gives_a_record_or_nardy_s_error(text, strict):
    from nardy.formats import sgf
    from nardy.errors import NardyError

    for reader in (matfile.read, sgf.read):
        try:
            reader(text, strict=strict)
        except NardyError:
            pass


def test_a_file_written_whole_gets_the_permissions_open_gives_without_setting_the_umask(tmp_path, monkeypatch):
    """write_whole read the umask by setting it to 0 and back: for that moment, files made by
    other threads were world-writable. Where /proc tells the umask it is only read."""
    import stat

    from nardy import files

    old = os.umask(0o027)
    try:
        if os.path.exists("/proc/self/status"):
            monkeypatch.setattr(files.os, "umask", lambda mask: pytest.fail("os.umask was set"))
        files.write_text(tmp_path / "a.txt", "x")
    finally:
        monkeypatch.undo()
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "a.txt").st_mode) == 0o640


# issue 27: what the reader takes, the writers write ---------------------------------------------

@pytest.mark.parametrize("bad", ["\x7f", "\x00", "\t"])
def test_names_and_tags_the_writers_refuse_are_refused_on_reading(bad, tmp_path, capsys):
    from nardy.cli import main

    named = GAME.replace(" a : 0 ", f" a{bad}1 : 0 ")
    with pytest.raises(InvalidNotationError, match=re.escape(f"game 1, line 4: player 1's name is one non-empty "
                                                             f"line of text, without ':', a leading ';' or space around it, got {'a' + bad + '1'!r}")):
        matfile.read(named)
    record = matfile.read(named, strict=False)
    assert record.players == ("a 1", "b") and matfile.read(matfile.write(record)).players == ("a 1", "b")
    assert [str(w) for w in record.warnings] == [f"game 1, line 4: player 1's name is one non-empty line of text, without "
                                                 f"':', a leading ';' or space around it, got {'a' + bad + '1'!r}: read as 'a 1'"]
    tagged = f'; [Site "x{bad}y"]\n' + GAME
    with pytest.raises(InvalidNotationError, match=re.escape(f"line 1: the Site tag's value is one line of text, got {'x' + bad + 'y'!r}")):
        matfile.read(tagged)
    record = matfile.read(tagged, strict=False)
    assert record.tags == {"Site": "x y"} and len(record.warnings) == 1 and matfile.read(matfile.write(record)).tags == {"Site": "x y"}
    path = tmp_path / "m.mat"
    path.write_text(named)
    assert main(["convert-match", str(path), str(tmp_path / "m.sgf")]) == 2
    assert "line 4: player 1's name" in capsys.readouterr().err and not (tmp_path / "m.sgf").exists()
    assert main(["convert-match", "--lenient", str(path), str(tmp_path / "m.sgf")]) == 0


@pytest.mark.parametrize("bad", ["\x7f", "\x00", "\t", "\n"])
def test_sgf_names_the_writer_refuses_are_refused_on_reading(bad):
    from nardy.formats import sgf

    text = f"(;FF[4]GM[6]MI[length:0][game:0][ws:0][bs:0]PW[a{bad}1]PB[b]RE[W+1R])"
    with pytest.raises(InvalidNotationError, match=re.escape(f"game 1, node 1: player 1's name is one non-empty line of text, "
                                                             f"got {'a' + bad + '1'!r}: read as 'a 1'")):
        sgf.read(text)
    record = sgf.read(text, strict=False)
    assert record.players == ("a 1", "b") and len(record.warnings) == 1
    assert sgf.read(sgf.write(record)).players == ("a 1", "b")
    with pytest.raises(InvalidNotationError, match="player 2's name"):
        sgf.read(text.replace("PB[b]", "PB[\x00]"), strict=False)


def test_a_name_no_mending_makes_writable_is_an_error_in_every_mode():
    for strict in (True, False):
        with pytest.raises(InvalidNotationError, match="game 1, line 4: player 2's name .* got ';b'"):
            matfile.read(GAME.replace(" b : 0", " ;b : 0"), strict=strict)
        with pytest.raises(InvalidNotationError, match="player 1's name"):
            matfile.read(GAME.replace(" a : 0 ", " \x00 : 0 "), strict=strict)


# issue 27: server and Backgammon Galaxy downloads ------------------------------------------------

SERVERS = Path(__file__).parent.parent / "data" / "servers"


def histories(record: matfile.MatchRecord) -> list:
    return [game.history() for game in record.games]


def test_backgammon_galaxy_s_losses_beside_wins():
    # Galaxy's .txt download: CRLF, its own tags, and each result a row of its own with
    # 'Losses N points' in the loser's column beside 'Wins N points' (gnubg-export-2.mat's games)
    gnubg = matfile.load(DATA / "gnubg-export-2.mat")
    for strict in (True, False):
        record = matfile.load(SERVERS / "galaxy-losses.txt", strict=strict)
        assert histories(record) == histories(gnubg) and score(record) == (0, 9) and record.warnings == []
        assert record.tags["Site"] == "Backgammon Galaxy" and record.tags["Beaver"] == "False"


def test_losses_alone_is_the_other_side_s_win_and_must_agree_with_the_play():
    resigned = GAME.replace("  3)  Doubles => 2               Drops\n      Wins 1 point\n",
                            "  3)  Losses 1 point\n")
    record = matfile.read(resigned)
    assert record.games[0].result.winner is Color.BLACK and record.games[0].result.points == 1
    assert record.games[0].history()[-1] == (Color.WHITE, "resign", 1)
    wrong = GAME.replace("      Wins 1 point", "  4)  Wins 1 point                Losses 2 points")
    with pytest.raises(IllegalMoveError, match="game 1, line 8: the file says white wins 2, but the play gives white 1"):
        matfile.read(wrong, strict=False)


@pytest.mark.parametrize("tail, winner", [
    ("  4) 44:\n      Wins 4 points\n", Color.WHITE),  # White rolls 44, Black resigns a gammon
    ("  4) 21: 13/11 6/5               44:\n                                  Wins 4 points\n", Color.BLACK),
])
def test_a_roll_then_the_opponent_s_resignation(tail, winner):
    text = GAME.replace("  3)  Doubles => 2               Drops\n      Wins 1 point\n",
                        "  3)  Doubles => 2               Takes\n" + tail)
    for strict in (True, False):
        record = matfile.read(text, strict=strict)
        game = record.games[0]
        assert (game.result.winner, game.result.kind, game.result.points) == (winner, "resigned", 4) and not record.warnings
        assert game.history()[-1] == (winner.other, "resign", 2)


def test_gnubg_s_own_export_of_a_resignation_by_the_side_not_on_roll_and_a_game_just_begun():
    # GNU Backgammon 1.07's export: gnubg rolled 21, root resigned a gammon ('  1) 21:       Wins 2
    # points', the roller's column); the file ends with game 2's first roll (a game just begun)
    path = SERVERS / "gnubg-opponent-resigns.mat"
    with pytest.raises(IllegalMoveError, match="game 2, line 12: the roll on line 11 shows no move, but it can be played"):
        matfile.load(path)
    record = matfile.load(path, strict=False)
    first, second = record.games
    assert (first.result.winner, first.result.kind, first.result.points) == (Color.WHITE, "resigned", 2)
    assert first.history() == [(Color.BLACK, "resign", 2)] and second.result is None and score(record) == (2, 0)
    assert [str(w) for w in record.warnings] == ["game 2, line 12: the file ends in the middle of game 2: it has no result"]


def test_server_noise_inside_a_row():
    # a server's 'Illegal play (...)' between a roll and the same roll again, with its play
    with pytest.raises(InvalidNotationError, match="game 2, line 18: cannot read 'Illegal play"):
        matfile.load(SERVERS / "noise-in-row.mat")
    record = matfile.load(SERVERS / "noise-in-row.mat", strict=False)
    assert histories(record) == histories(matfile.load(DATA / "gnubg-export-1.mat"))
    assert [str(w) for w in record.warnings] == [
        "game 2, line 18: skipped server noise inside a row: 'Illegal play (25;0;1;0;0;2;0)'"]


def test_noise_inside_a_row_never_takes_a_broken_action():
    for row in ("  1) 31: 8/5 6/5 Wins 64: 24/18 13/9", "  1) 31: 8/5 6/5  Doubles 2    64: 24/18 13/9"):
        with pytest.raises(InvalidNotationError, match="game 1, line 5: cannot read"):
            matfile.read(GAME.replace("  1) 31: 8/5 6/5                64: 24/18 13/9", row), strict=False)


def test_a_record_that_leaves_out_moves_that_were_not_forced():
    # a server that stops writing White's bear-off moves (rows 19-23 of gnubg-export-2.mat's game 4)
    with pytest.raises(IllegalMoveError, match="game 4, line 90: the roll on line 90 shows no move, but it can be played$"):
        matfile.load(SERVERS / "bear-off-left-out.mat")
    record = matfile.load(SERVERS / "bear-off-left-out.mat", strict=False)
    full = matfile.load(DATA / "gnubg-export-2.mat")
    assert histories(record)[:3] == histories(full)[:3] and score(record) == (0, 9)
    assert [str(w) for w in record.warnings] == [
        "game 4, line 90: the roll shows no move and the move is not forced: the game is kept up to here, "
        "its result taken from its result line (as a forfeit)"]
    kept, played = record.games[3].history(), full.games[3].history()
    assert kept[:-1] == played[:len(kept) - 1] and kept[-1] == (Color.WHITE, "forfeit", 4)
    assert sum(kind == "move" for _, kind, _ in kept) == 31  # rows 1-18: up to Black's 43 in row 18
    assert record.games[3].result == full.games[3].result.__class__(Color.BLACK, "forfeit", 4)
    again = matfile.read(matfile.write(record), strict=False)  # the 4 points read back as a resignation at cube 4
    assert histories(again)[:3] == histories(record)[:3] and again.games[3].history()[:-1] == kept[:-1]
    assert score(again) == (0, 9)


def test_a_game_cut_short_still_meets_the_score_lines():
    text = (SERVERS / "bear-off-left-out.mat").read_text()
    next_game = "\n Game 5\n gnubg : 0                      root : 9\n"
    with pytest.raises(IllegalMoveError, match="game 5, line 99: the score line says 0-9, but the games before make it 0-6"):
        matfile.read(text.replace("Wins 4 points", "Wins 1 point") + next_game, strict=False)
    with pytest.raises(IllegalMoveError, match="game 4, line 95: the file says black wins the match, but that makes 6 of 7"):
        matfile.read(text.replace("Wins 4 points", "Wins 1 point and the match"), strict=False)
    with pytest.raises(IllegalMoveError, match="game 4 ends without a result"):
        matfile.read(text.replace("Wins 4 points", "") + next_game, strict=False)


def test_replay_reads_txt_match_files_in_folders_and_says_what_it_skips(capsys):
    from nardy.cli import main

    assert main(["replay", "--lenient", str(SERVERS)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"{SERVERS / 'README.txt'}: skipped: a .txt file that is not a match file (no ' N point match' line)"
    assert f"{SERVERS / 'galaxy-losses.txt'}: 4 game(s), 138 moves, score gnubg 0, root 9" in lines and len(lines) == 5


def test_a_folder_of_only_txt_archives(tmp_path, capsys):
    from nardy.cli import main

    (tmp_path / "a.txt").write_bytes((SERVERS / "galaxy-losses.txt").read_bytes())
    (tmp_path / "notes.txt").write_text("; a comment\nnot a match\n")
    assert main(["replay", "--lenient", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{tmp_path / 'a.txt'}: 4 game(s), 138 moves, score gnubg 0, root 9",
                   f"{tmp_path / 'notes.txt'}: skipped: a .txt file that is not a match file (no ' N point match' line)"]
    (tmp_path / "a.txt").unlink()
    assert main(["replay", str(tmp_path)]) == 2
    assert "no match files found" in capsys.readouterr().err
    assert main(["convert-match", str(SERVERS / "galaxy-losses.txt"), str(tmp_path / "g.sgf")]) == 0


def test_what_cannot_be_read_back_is_not_written(tmp_path, capsys):
    """A match of no games became an empty SGF file (and `convert-match` said "0 game(s) written"),
    a game not begun a .mat that matfile refuses to read: both are refused."""
    from nardy import Game
    from nardy.cli import main
    from nardy.formats import sgf

    with pytest.raises(InvalidArgumentError, match="an SGF file holds one game tree or more"):
        sgf.write(Match("short", 3))
    with pytest.raises(InvalidArgumentError, match=r"game 1 has not started \(roll_off\(\)\)"):
        matfile.write(Game("short", seed=1))
    with pytest.raises(InvalidArgumentError, match="game 1 has not started"):
        sgf.write(Game("short", seed=1))
    source = tmp_path / "h.mat"
    source.write_text(" 3 point match\n")
    assert matfile.load(source).match.length == 3  # a .mat of no games reads, and writes back
    assert main(["convert-match", str(source), str(tmp_path / "m.mat")]) == 0
    assert main(["convert-match", str(source), str(tmp_path / "out.sgf")]) == 2
    assert "no game to write" in capsys.readouterr().err and not (tmp_path / "out.sgf").exists()
