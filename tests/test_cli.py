"""The `nardy` command line: show, perft, moves and the batch interface."""

from __future__ import annotations

import io
import re
import subprocess
import sys

import pytest

from nardy.cli import main

SHORT_START = "0,-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2,0"
LONG_START = ",".join(map(str, [0] * 12 + [-15] + [0] * 11 + [15, 0]))


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out)
    return code, out.getvalue()


def test_python_dash_m_and_help():
    out = subprocess.run([sys.executable, "-m", "nardy", "--help"], capture_output=True, text=True, check=True)
    assert "perft" in out.stdout and "moves" in out.stdout and "show" in out.stdout


def test_show_prints_the_board_and_pips():
    code, text = run("show", "short")
    assert code == 0 and "pips 167" in text and "+13-14-15-16-17-18" in text
    code, text = run("show", "long", LONG_START, "--turn", "black")
    assert code == 0 and "pips 360" in text and "O: black  (on roll)" in text


def test_show_numbers_the_board_for_the_side_on_roll():
    # the example: Black's 17/15* 6/5* must stand on labels 17, 15, 6 and 5
    position = "rzE0gBTxuQkwAg"
    assert "17/15* 6/5*" in run("moves", "short", position, "2", "1", "--turn", "black")[1]
    lines = run("show", "short", position, "--turn", "black")[1].splitlines()
    assert lines[1].startswith(" +12-11-10--9--8--7-------6--5--4--3--2--1-+")
    bottom = lines[13]
    assert bottom.startswith(" +13-14-15-16-17-18")
    col = bottom.index("17") + 1
    assert lines[12][col] == "O" and lines[12][bottom.index("15") + 1] == "X"  # Black's checkers on 17, a White blot on 15
    fixed = run("show", "short", position, "--turn", "black", "--numbers", "white")[1].splitlines()
    assert fixed[1].startswith(" +13-14-15-16-17-18")


@pytest.mark.parametrize("argv, count", [
    (("perft", "long", "2"), 484),
    (("perft", "short", "1"), 447),
    (("perft", "short", "1", SHORT_START, "--backend", "python"), 447),
    (("perft", "long", "1", "--head-exception", "none"), 21),  # 3-3 no longer takes two off the head
])
def test_perft_prints_the_count_last(argv, count):
    code, text = run(*argv)
    assert code == 0 and text.splitlines()[-1] == str(count)


def test_perft_takes_every_rule_option_as_a_flag():
    code, text = run("perft", "long", "2", "--head-exception", "permission", "--block-rule", "home",
                     "--block-timing", "end", "--koks", "true", "--last-roll-draw", "false")
    assert code == 0 and text.splitlines()[-1] == "484"
    assert "block_rule='home'" in text


def test_moves_lists_sorted_results_with_a_move():
    code, text = run("moves", "short", SHORT_START, "6", "5")
    lines = text.splitlines()
    assert code == 0 and len(lines) == 7
    arrays = [tuple(map(int, line.split()[0].split(","))) for line in lines]
    assert arrays == sorted(arrays)
    assert any(line.endswith("  24/13") for line in lines)


def test_moves_batch_answers_every_line(tmp_path):
    dancing = [0] * 26  # one on the bar against a closed board: the turn passes
    dancing[25], dancing[1] = 1, 14
    for p in range(19, 25):
        dancing[p] = -2
    dancing[18] = -3
    lines = [
        f"{SHORT_START} 6 5",
        "1,2,3 4 5",
        f"{SHORT_START} 0 5",
        ",".join(map(str, dancing)) + " 6 6",
        f"{LONG_START} 6 6",
    ]
    path = tmp_path / "in.txt"
    path.write_text("\n".join(lines) + "\n")
    code, text = run("moves", "short", "--batch", str(path))
    answers = text.split("\n")[:-1]
    assert code == 0 and len(answers) == 5
    assert len(answers[0].split(";")) == 7
    assert answers[1].startswith("error: a position is 26 comma-separated integers")
    assert answers[2].startswith("error: a die shows 1..6")
    assert answers[3] == ""
    four_to_18 = [0] * 12 + [-15] + [0] * 5 + [4] + [0] * 5 + [11, 0]
    assert answers[4] == ",".join(map(str, four_to_18))  # a fine short board too: no head rule there
    two_to_18 = [0] * 12 + [-15] + [0] * 5 + [2] + [0] * 5 + [13, 0]
    code, text = run("moves", "long", "--batch", str(path))
    assert text.split("\n")[4] == ",".join(map(str, two_to_18))
    assert text.split("\n")[3].startswith("error: invalid position")  # a bar in long nardy


def test_bad_input_exits_2_with_a_message(capsys):
    assert main(["moves", "long", LONG_START, "6", "9"]) == 2
    assert "a die shows 1..6" in capsys.readouterr().err
    assert main(["show", "long", "1,2,3"]) == 2
    assert "26 comma-separated integers" in capsys.readouterr().err
    assert main(["perft", "long", "1", "--block-rule", "sideways"]) == 2
    assert "'ahead', 'home', 'none'" in capsys.readouterr().err
    assert main(["perft", "short", "1", "--block-rule", "none"]) == 2
    assert "applies to long nardy only" in capsys.readouterr().err


# positions in every form: array, IDs, XGID -------------------------------------------------------

SHORT_ID = "4HPwATDgc/ABMA"
SHORT_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


@pytest.mark.parametrize("form", [SHORT_START, SHORT_ID, SHORT_XGID, f"{SHORT_ID}:cAkAAAAAAAAA"])
def test_show_and_convert_accept_every_form_of_a_position(form):
    code, text = run("show", "short", form)
    assert code == 0 and f"Position ID: {SHORT_ID}" in text
    assert run("convert", "short", form, "--to", "array") == (0, SHORT_START + "\n")
    assert run("convert", "short", form, "--to", "id") == (0, SHORT_ID + "\n")
    assert run("convert", "short", form, "--to", "xgid") == (0, SHORT_XGID + "\n")


def test_a_match_id_after_the_position_id_says_who_is_on_roll():
    # gnubg's manual example Match ID: player 1 (White) on roll... and its opposite
    white = run("convert", "short", "4HPwATDgc/ABMA:QYkqASAAIAAE", "--to", "xgid")[1]
    assert white.split(":")[3] == "1"
    black = run("convert", "short", "4HPwATDgc/ABMA:AQkqASAAIAAE", "--to", "xgid")[1]
    assert black.split(":")[3] == "-1"


def test_long_nardy_converts_between_its_id_and_the_array():
    code, long_id = run("convert", "long", LONG_START, "--to", "id", "--turn", "black")
    assert code == 0 and long_id.startswith("NL1B:")
    assert run("convert", "long", long_id.strip(), "--to", "array") == (0, LONG_START + "\n")
    code, text = run("show", "long", long_id.strip())
    assert code == 0 and f"Position ID: {long_id.strip()}" in text


def test_moves_accepts_an_id_and_prints_the_ids_of_the_results():
    code, text = run("moves", "short", SHORT_ID, "3", "1", "--ids")
    lines = text.splitlines()
    assert code == 0 and len(lines) == 16
    assert "8/5 6/5" in [line.split("  ")[0].strip() for line in lines]
    from nardy import Position

    for line in lines:
        move_text, result_id = line.rsplit(None, 1)
        start = Position.from_id(SHORT_ID)
        assert start.apply(start.parse_move(move_text, (3, 1))).id() == result_id


@pytest.mark.parametrize("argv, message", [
    (["convert", "long", SHORT_ID, "--to", "id"], "is a short nardy position, not long"),
    (["convert", "short", "NL1W:" + SHORT_ID, "--to", "id"], "is a long nardy position, not short"),
    (["convert", "long", LONG_START, "--to", "xgid"], "XGID is a backgammon"),
    (["convert", "short", "hello", "--to", "id"], "cannot read the position 'hello'"),
    (["convert", "short", "1,2,x" + ",0" * 23, "--to", "id"], "26 comma-separated integers"),
    (["convert", "short", "XGID=zz", "--to", "id"], "not an XGID"),
    (["convert", "short", "4HPwATDgc/AB!A", "--to", "id"], "cannot read the position"),
])
def test_convert_rejects_what_it_cannot_read(capsys, argv, message):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_replay_checks_and_prints_a_match_file(tmp_path):
    from formats.test_matfile import GNUBG_STYLE

    path = tmp_path / "m.mat"
    path.write_text(GNUBG_STYLE)
    code, text = run("replay", str(path), "--boards")
    assert code == 0
    assert text.startswith("3 point match of short nardy, Rules('short'): nmela (White) vs froglicker (Black)")
    assert "   3  nmela       55  13/8(2) 6/1* 6/1" in text
    assert "froglicker wins 2 points (resigned)" in text
    assert text.count("Position ID:") == 2
    assert text.rstrip().endswith("every move checked. Score: nmela 1, froglicker 2")


def test_replay_reports_the_game_and_line_of_a_bad_move(tmp_path, capsys):
    from formats.test_matfile import GNUBG_STYLE

    path = tmp_path / "bad.mat"
    path.write_text(GNUBG_STYLE.replace("62: 25/23 13/7", "62: 25/23 13/5"))
    assert main(["replay", str(path)]) == 2
    assert "game 1, line 11: '25/23 13/5' is not a legal play of 6-2" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.mat")]) == 2
    assert "No such file" in capsys.readouterr().err


# the batch interface: one answer per line, whatever the line endings, streamed -------------------

@pytest.mark.parametrize("ending", [b"\n", b"\r\n", b"\r"])
def test_batch_answers_one_line_per_line_whatever_the_line_endings(tmp_path, ending):
    lines = [f"{SHORT_START} 6 5".encode(), b"1,2,3 4 5", f"{SHORT_START} 6-5".encode()]
    path = tmp_path / "in.txt"
    path.write_bytes(ending.join(lines) + ending)
    code, text = run("moves", "short", "--batch", str(path))
    answers = text.split("\n")[:-1]
    assert code == 0 and len(answers) == 3
    assert answers[0] == answers[2] and len(answers[0].split(";")) == 7 and answers[1].startswith("error:")
    path.write_bytes(ending.join(lines))  # no ending after the last line
    assert run("moves", "short", "--batch", str(path))[1].split("\n")[:-1] == answers


def test_batch_mixed_endings_and_a_line_that_is_not_utf8(tmp_path):
    good = f"{SHORT_START} 6 5".encode()
    path = tmp_path / "in.txt"
    path.write_bytes(good + b"\r" + b"\xff\xfe 6 5\r\n" + good + b"\n\n" + good + b"\r")
    code, text = run("moves", "short", "--batch", str(path))
    answers = text.split("\n")[:-1]
    assert code == 0 and len(answers) == 5
    assert answers[1].startswith("error: the line is not UTF-8 text")
    assert answers[3].startswith("error: expected")  # the empty line is a line too
    assert answers[0] == answers[2] == answers[4] != ""


def test_batch_streams_through_a_pipe_one_line_at_a_time():
    import select

    proc = subprocess.Popen([sys.executable, "-m", "nardy", "moves", "short", "--batch", "-"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        for line, parts in ((f"{SHORT_START} 6 5", 7), ("bad line", 0), (f"{SHORT_START} 3-1", 16)):
            proc.stdin.write(line.encode() + b"\n")
            proc.stdin.flush()
            ready, _, _ = select.select([proc.stdout], [], [], 30)
            assert ready, "no answer to a line before the next one is written"
            answer = proc.stdout.readline().decode()
            assert answer.endswith("\n")
            assert answer.startswith("error:") if not parts else len(answer.split(";")) == parts
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0 and proc.stdout.read() == b""
    finally:
        proc.kill()
        proc.wait()


# output files: checked before the work, never left half written ---------------------------------

def test_simulate_checks_its_output_path_before_playing(tmp_path, monkeypatch, capsys):
    import importlib

    def must_not_run(*args, **kwargs):
        raise AssertionError("the games were played before the output path was checked")

    monkeypatch.setattr(importlib.import_module("nardy.play.simulate"), "simulate", must_not_run)
    for path, message in ((tmp_path / "games.json", "must end in .npz or .csv"),
                          (tmp_path / "missing" / "games.csv", "no directory"),
                          (tmp_path, "must end in")):
        assert main(["simulate", "long", "--games", "1000000", "--out", str(path)]) == 2
        assert message in capsys.readouterr().err
    (tmp_path / "dir.csv").mkdir()
    assert main(["simulate", "long", "--games", "10", "--out", str(tmp_path / "dir.csv")]) == 2
    assert "is a directory" in capsys.readouterr().err
    assert main(["svg", "short", "-o", str(tmp_path / "board.gif")]) == 2
    assert "must end in .svg or .png" in capsys.readouterr().err


def test_a_failed_write_leaves_nothing_behind(tmp_path, monkeypatch, capsys):
    import errno

    from nardy.play.simulate import Simulation

    path = tmp_path / "games.csv"
    path.write_text("the old file\n")

    def disk_full(self, where):
        with open(where, "w") as f:
            f.write("winner,starter\n0,")  # a truncated file...
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Simulation, "save", disk_full)
    assert main(["simulate", "long", "--games", "20", "--seed", "1", "--out", str(path)]) == 2
    assert "No space left on device" in capsys.readouterr().err
    assert path.read_text() == "the old file\n" and sorted(p.name for p in tmp_path.iterdir()) == ["games.csv"]
    monkeypatch.undo()
    assert main(["simulate", "long", "--games", "20", "--seed", "1", "--out", str(path)]) == 0
    assert path.read_text().startswith("winner,starter") and len(path.read_text().splitlines()) == 21
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.csv"]


def test_svg_writes_a_png_only_if_it_can(tmp_path, monkeypatch, capsys):
    import shutil

    monkeypatch.setitem(sys.modules, "cairosvg", None)  # not importable
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert main(["svg", "short", "-o", str(tmp_path / "x.png")]) == 2
    assert "cannot write a PNG: that needs cairosvg" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())
    fake = tmp_path / "rsvg-convert"  # a stand-in converter: reads SVG on stdin, writes -o FILE
    fake.write_text(f"#!{sys.executable}\nimport sys\nsvg = sys.stdin.buffer.read()\n"
                    "assert svg.startswith(b'<svg')\nopen(sys.argv[sys.argv.index('-o') + 1], 'wb').write(b'\\x89PNG fake')\n")
    fake.chmod(0o755)
    monkeypatch.setattr(shutil, "which", lambda name: str(fake) if name == "rsvg-convert" else None)
    out = tmp_path / "board.png"
    assert main(["svg", "short", "-o", str(out)]) == 0
    assert out.read_bytes() == b"\x89PNG fake"
    import types  # cairosvg, when it is installed, comes first

    def svg2png(bytestring, write_to):
        assert bytestring.startswith(b"<svg")
        open(write_to, "wb").write(b"\x89PNG from cairosvg")

    monkeypatch.setitem(sys.modules, "cairosvg", types.SimpleNamespace(svg2png=svg2png))
    assert main(["svg", "short", "-o", str(out)]) == 0
    assert out.read_bytes() == b"\x89PNG from cairosvg"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.png", "rsvg-convert"]


# the command line as a user meets it -------------------------------------------------------------

def test_an_unknown_variant_says_which_exist(capsys):
    assert main(["show", "backgammon"]) == 2
    err = capsys.readouterr().err
    assert "unknown variant 'backgammon'" in err and "long nardy and short nardy (backgammon)" in err


def test_a_closed_pipe_ends_quietly(tmp_path):
    path = tmp_path / "many.txt"
    path.write_text(f"{SHORT_START} 6 5\n" * 4000)  # far more output than a pipe holds
    done = subprocess.run(f"{sys.executable} -m nardy moves short --batch {path} | head -1", shell=True,
                          capture_output=True, text=True, timeout=120)
    assert done.stdout.count("\n") == 1 and done.stderr == ""


@pytest.mark.slow
def test_ctrl_c_stops_a_simulation_with_one_line_and_status_130():
    import select
    import signal

    proc = subprocess.Popen([sys.executable, "-m", "nardy", "simulate", "long", "--games", "10000000", "--threads", "1",
                             "--chunk-size", "500"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        ready, _, _ = select.select([proc.stderr], [], [], 60)
        assert ready and proc.stderr.readline().startswith("nardy simulate: ")  # the first progress line: playing
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130 and err == "nardy: interrupted\n" and out == ""


def test_games_must_be_at_least_one(capsys):
    assert main(["simulate", "long", "--games", "0"]) == 2
    assert "--games: a whole number >= 1" in capsys.readouterr().err


@pytest.mark.parametrize("dice", [["6", "5"], ["6-5"], ["65"], ["6,5"], ["6", "-", "5"]])
def test_dice_are_read_the_same_way_everywhere(dice, tmp_path):
    expected = run("moves", "short", SHORT_START, "6", "5")[1]
    assert run("moves", "short", SHORT_START, *dice) == (0, expected)
    assert run("moves", "short", *dice) == (0, expected)  # no position: the start
    joined = " ".join(dice)
    assert run("svg", "short", "-o", str(tmp_path / "a.svg"), "--dice", joined)[0] == 0
    path = tmp_path / "in.txt"
    path.write_text(f"{SHORT_START} {joined}\n")
    assert run("moves", "short", "--batch", str(path))[1] == ";".join(
        line.split()[0] for line in expected.splitlines()) + "\n"


def test_moves_without_a_position_means_the_start():
    assert run("moves", "long", "6", "5") == run("moves", "long", LONG_START, "6", "5")
    code, _ = run("moves", "long")
    assert code == 2


def test_an_xgid_without_its_prefix_is_read():
    bare = SHORT_XGID.removeprefix("XGID=")
    assert run("convert", "short", bare, "--to", "id") == (0, SHORT_ID + "\n")
    assert run("show", "short", bare)[0] == 0


def test_a_turn_that_contradicts_the_id_is_an_error(capsys):
    for form in (SHORT_XGID, f"{SHORT_ID}:QYkqASAAIAAE"):
        assert main(["convert", "short", form, "--to", "id", "--turn", "black"]) == 2
        assert "--turn black contradicts" in capsys.readouterr().err
        assert run("convert", "short", form, "--to", "id", "--turn", "white")[0] == 0
    assert main(["show", "long", "NL1W:AACA/z8AAID/Pw", "--turn", "black"]) == 2
    assert "which has white on roll" in capsys.readouterr().err
    # an array or a bare Position ID does not say who is on roll: --turn says it
    assert "O: black  (on roll)" in run("show", "short", SHORT_ID, "--turn", "black")[1]


def test_an_array_whose_first_entry_is_negative_needs_no_double_dash():
    view = "-2,0,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,1,1"  # Black has one on the bar
    code, text = run("show", "short", view)
    assert code == 0 and "bar 1" in text
    assert run("moves", "short", view, "6", "5")[0] == 0
    assert run("convert", "short", view, "--to", "array") == (0, view + "\n")


def test_the_summary_names_the_rules_in_words_and_explains_the_results():
    code, text = run("simulate", "long", "--games", "30", "--seed", "2", "--koks", "true", "--threads", "1")
    assert code == 0
    first = text.splitlines()[0]
    assert first == "30 games of long nardy; koks: yes; policy random, seed 2" and "Rules(" not in text
    assert "mars: the loser has borne off none, 2 points" in text and "koks: mars with" in text
    code, text = run("simulate", "short", "--games", "30", "--seed", "2", "--threads", "1")
    assert "short nardy, default rules" in text.splitlines()[0]
    assert "gammon: the loser has borne off none" in text and "backgammon: a gammon" in text


def test_progress_lines_when_the_output_is_not_a_terminal(capsys):
    from nardy.cli import _progress_lines

    show = _progress_lines(3000, every=0.0)
    show(1000, 3000)
    show(2000, 3000)
    show(3000, 3000)  # the end is not announced: the summary follows
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith("nardy simulate: 1,000/3,000 games (33%)") and len(lines) == 2
    quiet = _progress_lines(3000)  # every 5 s by default: a short run prints nothing
    quiet(1000, 3000)
    assert capsys.readouterr().err == ""


# session 9's first-hour findings -----------------------------------------------------------------

def test_a_line_longer_than_max_line_is_an_error_line_read_in_linear_time(tmp_path):
    from nardy.cli import MAX_LINE

    good = f"{SHORT_START} 6 5".encode()
    path = tmp_path / "in.txt"
    path.write_bytes(good + b"\n" + b"0," * 3_000_000 + b"\r\n" + good + b"\r" + b"1" * (MAX_LINE + 1))
    code, text = run("moves", "short", "--batch", str(path))
    answers = text.split("\n")[:-1]
    assert code == 0 and len(answers) == 4 and answers[0] == answers[2] != ""
    for answer in (answers[1], answers[3]):  # the long line is named, not echoed whole
        assert answer.startswith(f"error: the line is longer than {MAX_LINE} bytes") and len(answer) < 200
    path.write_bytes(b"1" * MAX_LINE + b"\n")  # MAX_LINE bytes is a line like any other
    assert run("moves", "short", "--batch", str(path))[1].startswith("error: expected")


@pytest.mark.parametrize("depth", ["99999999999999999999999", "2147483648", "17", "-1"])
def test_perft_depth_out_of_range_is_an_error_not_a_traceback(depth, capsys):
    assert run("perft", "long", depth)[0] == 2
    assert "perft depth must be a whole number 0..16" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [
    ["moves", "short", "4HPwATDgc/ABMA", "٦", "٥"],          # Arabic-Indic digits
    ["moves", "short", "4HPwATDgc/ABMA", "６", "５"],          # fullwidth digits
    ["perft", "long", "٣"],
    ["simulate", "long", "--games", "٣"],
    ["svg", "short", "-o", "x.svg", "--size", "٤٠٠"],
])
def test_numbers_on_the_command_line_are_ascii_digits_only(argv, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run(*argv)[0] == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and ("digits 0-9" in err or "dice are two numbers" in err)
    assert not (tmp_path / "x.svg").exists()


def test_batch_dice_in_other_scripts_digits_are_an_error_line(tmp_path):
    path = tmp_path / "in.txt"
    path.write_text(f"{SHORT_START} ٦ ٥\n{SHORT_START} １ １\n", encoding="utf-8")
    answers = run("moves", "short", "--batch", str(path))[1].split("\n")[:-1]
    assert len(answers) == 2 and all(a.startswith("error: dice are two numbers") for a in answers)


def test_convert_match_checks_the_target_directory_before_reading(tmp_path, capsys):
    source = tmp_path / "m.mat"
    source.write_text("not read")  # the target is refused first
    assert main(["convert-match", str(source), str(tmp_path / "missing" / "x.sgf")]) == 2
    err = capsys.readouterr().err
    assert f"no directory {str(tmp_path / 'missing')!r}" in err and ".x." not in err


@pytest.mark.parametrize("argv", [
    ["moves", "long", "--koks", "true", "6", "5"],
    ["moves", "long", "6", "--koks", "true", "5"],
    ["moves", "long", "6", "5", "--koks", "true"],
])
def test_a_commands_options_may_come_before_between_or_after_its_positionals(argv):
    """`moves long --koks true 6 5` was "unrecognized arguments: 6 5" with the top-level usage."""
    code, text = run(*argv)
    assert code == 0 and text.splitlines() == run("moves", "long", "6", "5", "--koks", "true")[1].splitlines()


@pytest.mark.parametrize("extra, named", [(["3", "1"], "'3 1'"), (["4HPwATDgc/ABMA"], "'4HPwATDgc/ABMA'"),
                                          (["--ids"], "--ids"), (["--turn", "black"], "--turn")])
def test_moves_batch_refuses_a_position_dice_or_options_given_beside_it(tmp_path, capsys, extra, named):
    path = tmp_path / "in.txt"
    path.write_text(f"{SHORT_START} 6 5\n")
    code, text = run("moves", "short", "--batch", str(path), *extra)
    err = capsys.readouterr().err
    assert code == 2 and text == "" and named in err and "cannot be given with it" in err and "Traceback" not in err


def test_simulate_refuses_a_folder_where_no_file_can_be_made_before_playing(monkeypatch, capsys):
    """/proc passes a permission check as root, and the write failed only after every game."""
    import importlib
    import os

    if not os.path.isdir("/proc") or not os.access("/proc", os.W_OK):
        pytest.skip("needs a /proc that passes a permission check (root on Linux)")

    def must_not_run(*args, **kwargs):
        raise AssertionError("the games were played before the output path was checked")

    monkeypatch.setattr(importlib.import_module("nardy.play.simulate"), "simulate", must_not_run)
    assert main(["simulate", "short", "--games", "10", "--out", "/proc/x.npz"]) == 2
    err = capsys.readouterr().err
    assert "cannot write '/proc/x.npz': no file can be made in '/proc'" in err and "Traceback" not in err


@pytest.mark.parametrize("dice", [["5", "-1"], ["3", "-3"], ["5 -1"], ["6,", "-5"]])
def test_a_negative_die_is_an_error_not_a_roll(dice, tmp_path, capsys):
    for command in ("moves", "hint"):
        assert run(command, "short", SHORT_START, *dice)[0] == 2
        assert "a die shows 1..6, got '-" in capsys.readouterr().err
    path = tmp_path / "in.txt"
    path.write_text(f"{SHORT_START} {' '.join(dice)}\n")
    assert run("moves", "short", "--batch", str(path))[1].startswith("error: a die shows 1..6, got '-")


class _ClosedPipe(io.StringIO):
    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


@pytest.mark.parametrize("argv", [["replay", "tests/data/archives/gnubg-export-1.mat"], ["moves", "long", "6", "5"],
                                  ["show", "short"]])
def test_a_reader_going_away_ends_every_command_quietly_with_0(argv, monkeypatch, capsys):
    from pathlib import Path

    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    assert main(argv, _ClosedPipe()) == 0
    assert capsys.readouterr().err == ""


def test_replay_into_head_exits_0():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    shell = f"set -o pipefail; {sys.executable} -m nardy replay tests/data/archives/gnubg-export-1.mat --boards | head -1"
    proc = subprocess.run(["bash", "-c", shell], cwd=root, capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stderr == "" and proc.stdout.startswith("7 point match")


def test_play_lists_its_commands_explains_illegal_moves_and_shows_the_high_die_first(capsys):
    from nardy import Color, Game
    from nardy.cli import PLAY_COMMANDS, play_game

    game = Game("short", dice=[6, 5, 1, 3], cube=False)  # White wins the roll-off and plays 6-5; Black rolls 1-3
    game.roll_off()
    answers = iter(["help", "20/17 20/19", "quit"])
    prompts = []

    def person(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    out = io.StringIO()
    play_game(game, Color.BLACK, person, out)
    text = out.getvalue()
    assert prompts[0] == "you roll 3-1; your move (or hint, help, quit): "
    assert PLAY_COMMANDS in text and "game abandoned" in text
    assert "'20/17 20/19' is not a legal play of 3-1: 20/17: no checker" in text and "Position(" not in text
    assert main(["play", "--help"]) == 0
    assert PLAY_COMMANDS in capsys.readouterr().out


def test_an_illegal_move_names_the_rule_it_breaks():
    from nardy import Game, IllegalMoveError

    game = Game("long", dice=[6, 5, 6, 5])  # White wins the roll-off and rolls 6-5
    game.roll_off()
    game.roll()
    with pytest.raises(IllegalMoveError, match=r"of 6-5: 24/19: second checker from the head$"):
        game.play("24/18 24/19")
    short = Game("short", dice=[6, 5])
    short.roll_off()
    with pytest.raises(IllegalMoveError, match=r"marks a hit \(\*\) on a point where it hits no blot$"):
        short.parse_move("24/13*")


@pytest.mark.parametrize("command", ["moves", "hint", "show", "simulate", "play", "rollout"])
def test_a_commands_help_lists_its_own_arguments_before_the_rule_options(command, capsys):
    assert main([command, "--help"]) == 0
    text = capsys.readouterr().out
    usage, _, body = text.partition("\n\n")
    own = body.index("options:\n")
    rules = body.index("rule options:\n")
    assert own < rules and "--head-exception" in body[rules:] and "--head-exception" not in body[:rules]
    assert "--turn" in usage or "--games" in usage or "--color" in usage
    first_own = min(usage.index(flag) for flag in ("--turn", "--games", "--color") if flag in usage)
    assert first_own < usage.index("--head-exception")


def test_show_of_an_id_with_its_match_id_shows_the_cube_score_and_dice():
    # the manual's example: player 0 (Black) owns a 2-cube at 2-4 (Black-White) of 9, White has rolled 5-2
    code, text = run("show", "short", "4HPwATDgc/ABMA:QYkqASAAIAAE")
    assert code == 0 and "9-point match, White 4, Black 2; cube 2 owned by Black; White rolled 5-2\n" in text
    from nardy import Game, Match

    game = Match("short", 5, seed=4).new_game(starter="black")
    game.double()
    code, text = run("show", "short", f"{game.position.id()}:{game.match_id()}")
    assert code == 0 and "5-point match, White 0, Black 0; cube 1 centred; Black doubles to 2, White to take or drop" in text
    money = Game("short", seed=1, starter="white")
    money.roll()
    code, text = run("show", "short", f"{money.position.id()}:{money.match_id()}")
    assert f"money game; cube 1 centred; White rolled {max(money.dice)}-{min(money.dice)}\n" in text
    assert "cube" not in run("show", "short", money.position.id())[1]


def test_rollout_and_analyse_report_progress_on_stderr_only(tmp_path, capsys):
    from nardy import Match, Position
    from nardy.formats import matfile
    from nardy.evaluation.analysis import analyse
    from nardy.evaluation.rollout import rollout

    seen = []
    with_progress = rollout(Position.start("short"), 300, chunk_size=100, threads=2,
                            progress=lambda done, games: seen.append((done, games)))
    assert with_progress == rollout(Position.start("short"), 300, chunk_size=100, threads=2)
    assert seen[-1] == (300, 300) and all(a[0] < b[0] for a, b in zip(seen, seen[1:]))
    argv = ["rollout", "short", "--games", "200"]
    assert main(argv) == 0
    plain = capsys.readouterr()
    assert main(argv + ["--progress"]) == 0
    shown = capsys.readouterr()
    assert shown.out == plain.out and plain.err == ""
    assert re.fullmatch(r"nardy rollout: 200/200 games \(100%\), [0-9]+ s\n", shown.err.splitlines(True)[-1])

    match = Match("short", 1, seed=2)
    game = match.new_game()
    game.roll_off()
    while not game.over:
        game.roll() if game.dice is None else None
        game.play(game.legal_moves()[0])
    match.finish_game()
    moves = []
    analyse(match.games, ply=0, progress=lambda done, total: moves.append((done, total)))
    total = sum(kind == "move" for _, kind, _ in game.history())
    assert moves == [(i, total) for i in range(1, total + 1)]
    path = tmp_path / "m.mat"
    matfile.dump(match, str(path))
    assert main(["analyse", str(path), "--progress", "--ply", "0"]) == 0
    assert f"nardy analyse: {total}/{total} moves (100%)" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["hint", "moves"])
def test_dice_that_contradict_the_roll_of_a_match_id_or_xgid_are_refused(command, capsys) -> None:
    for text in ("4HPwATDgc/ABMA:QYkqASAAIAAE", "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"):  # 5-2 rolled
        assert run(command, "short", text, "6", "1")[0] == 2
        assert f"dice 6-1 contradict '{text}', which has 5-2 rolled" in capsys.readouterr().err
        assert run(command, "short", text, "2", "5")[0] == 0


@pytest.mark.parametrize("command", ["hint", "moves"])
def test_dice_beside_an_xgid_with_a_double_offered_are_refused(command, capsys) -> None:
    """The plays of a roll were ranked while the opponent had still to take or drop."""
    text = "XGID=-b----E-C---eE---c-e----B-:0:0:1:D:0:0:0:0:10"
    assert run(command, "short", text, "3", "1")[0] == 2
    err = capsys.readouterr().err
    assert f"{text!r} has a double offered: it is taken or dropped before any roll" in err
    assert "Traceback" not in err
    if command == "hint":
        code, out = run("hint", "short", text)
        assert code == 0 and "cube decision" in out


@pytest.mark.parametrize("argv", [["eval"], ["rollout", "--games", "36"], ["rollout", "--cubeful", "--games", "36"]])
def test_eval_and_rollout_refuse_a_match_id_or_xgid_with_dice_rolled(argv, capsys) -> None:
    for text in ("4HPwATDgc/ABMA:QYkqASAAIAAE", "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"):  # 5-2 rolled
        assert run(argv[0], "short", text, *argv[1:]) == (2, "")
        err = capsys.readouterr().err
        assert f"'{text}' has 5-2 rolled, and {argv[0]}" in err and "before the roll" in err
        assert f"to rank the plays of 5-2: nardy hint short '{text}' 5 2" in err and "give the dice" not in err


def test_the_jacoby_help_of_hint_and_rollout_says_a_bare_position_plays_with_jacoby(capsys) -> None:
    for command, what in (("hint", "hint without dice judges"), ("rollout", "rollout --cubeful plays")):
        assert main([command, "--help"]) == 0
        text = " ".join(capsys.readouterr().out.split())
        assert f"--jacoby true|false short; default short: False, but {what} a bare position as money with the " \
               "Jacoby rule unless --jacoby false" in text


@pytest.mark.parametrize("argv, where", [(["4HPwATDgc/ABMA", "3", "1"], " '4HPwATDgc/ABMA' 3 1"),
                                         (["3", "1"], " 3 1"), (["31"], " 31")])
def test_eval_refuses_dice_in_its_own_terms(argv, where, capsys) -> None:
    assert run("eval", "short", *argv) == (2, "")
    err = capsys.readouterr().err
    assert err.startswith("nardy: error: eval takes no dice") and "usage" not in err
    assert err.rstrip().endswith(f"to rank the plays of a roll: nardy hint short{where}")


@pytest.mark.parametrize("argv, prog, says", [
    (["hint", "short", "4HPwATDgc/ABMA", "3", "1", "--top", "0"], "nardy hint", "--top: a whole number >= 1, got 0"),
    (["rollout", "short", "--games", "0"], "nardy rollout", "--games"),
    (["hint", "short", "--ply", "3"], "nardy hint", "--ply"),
    (["play", "short", "--match", "0"], "nardy play", "--match: a whole number >= 1, got 0"),  # was one game
    (["frob"], "nardy", "invalid choice: 'frob'"),
    ([], "nardy", "required: COMMAND"),
])
def test_errors_argparse_finds_are_one_line_too(capsys, argv, prog, says):
    """They printed the whole usage block before the error (docs/cli.md: one error line)."""
    code = main(argv, io.StringIO())
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith(f"{prog}: error: ") and says in err and f"`{prog} -h` for help" in err
