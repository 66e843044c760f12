"""SGF (GNU Backgammon's match format): round trips, gnubg's files, malformed text, and gnubg itself."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from nardy import Color, Rules
from nardy.formats import matfile
from nardy.formats import sgf
from nardy.cli import main
from nardy.errors import IllegalMoveError, InvalidArgumentError, InvalidNotationError
from test_matfile import RULE_SETS, play_match, same_games

DATA = Path(__file__).parent.parent / "data" / "archives"
HAVE_GNUBG = importlib.util.find_spec("gnubg") is not None
# GNU Backgammon's own program (Debian's package `gnubg`; .ci/run installs it): its SGF import works,
# where the wheel's crashes on every file (it writes its handler over a function of the same name)
GNUBG_PROGRAM = shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULE_SETS, ids=repr)
def test_played_matches_read_back_to_identical_games(rules):
    for seed in range(2):
        match = play_match(rules, [0, 3][seed], seed)
        text = sgf.write(match, ("Alice", "Bob [the second]"), {"EventDate": "2026.11.29", "Event": "tests"})
        record = sgf.read(text)
        same_games(match, record.match)
        assert record.players == ("Alice", "Bob [the second]")
        assert record.tags == {"EventDate": "2026.11.29", "Event": "tests"}
        assert sgf.write(record) == text
        if seed == 0:  # and through the .mat format
            same_games(match, sgf.read(sgf.write(matfile.read(matfile.write(record)))).match)


def test_long_nardy_uses_nardy_s_own_properties():
    text = sgf.write(play_match(Rules("long", koks=True), 1, seed=3))
    assert "NV[LongNardy]" in text and "NR[koks=true]" in text and "GM[6]" in text
    assert sgf.read(text).rules == Rules("long", koks=True)


def test_the_layout_gnubg_writes():
    match = play_match(Rules("short"), 3, seed=1)
    text = sgf.write(match, ("a", "b"))
    first = text.split("\n", 1)[0]
    assert first.startswith("(;FF[4]GM[6]CA[UTF-8]AP[nardy:") and "MI[length:3][game:0][ws:0][bs:0]PW[a]PB[b]RU[Crawford]" in first
    assert sgf.read("(;GM[6]MI[length:0]PW[x]PB[y]RE[B+1]\n;W[31hefe]\n;B[double]\n;W[drop])").games[0].history()[-1] == (
        Color.WHITE, "drop", None)


@pytest.mark.parametrize("text, message", [
    ("", "no game tree"),
    ("x", "offset 0: expected '('"),
    ("(;GM[6]", "offset 7: the text ends inside a game tree"),
    ("(;GM[6", "offset 4: the value of GM is not closed"),
    ("(GM[6])", "offset 1: a game tree starts with a node"),
    ("(;gm[6])", "offset 2: a property name is upper-case"),
    ("(;GM)", "offset 4: property GM has no value"),
    ("(;GM[1])", "GM[1] is not backgammon"),
    ("(;GM[6]MI[length:" + "9" * 5000 + "])", "the match length is a whole number of at most 9 digits"),
    ("(;GM[6];W[31hefe]) x", "offset 19: expected '('"),
    ("(;GM[6];W[31h!fe])", "'!' is not a point letter"),
    ("(;GM[6];W[7])", "a move is the dice"),
    ("(;GM[6];AE[a:y])", "set-up positions"),
])
def test_malformed_sgf_is_a_notation_error_with_the_offset(text, message):
    with pytest.raises(InvalidNotationError, match=re.escape(message)):
        sgf.read(text)


def nest(text: str, padding: int) -> str:
    """Each game tree of `text` with `padding` comment nodes after its root and every node after
    that a variation of the one before, followed by a second variation (a take) that is skipped."""
    out = []
    for tree in text.strip().split("\n(;"):
        root, *nodes = tree.strip().lstrip("(;").removesuffix(")").split("\n;")
        body = "".join("(;" + node for node in ["C[note]"] * padding + nodes)
        out.append(f"(;{root}{body}" + ")(;W[take])" * len(nodes) + ")" * (padding + 1) + "\n")
    return "".join(out)


@pytest.mark.slow
def test_variations_nest_as_deep_as_the_text_goes():
    # the parser keeps no Python stack per level: far past the recursion limit, the main line is
    # the first variation at every level, and the same games as the flat file
    match = play_match(Rules("short"), 3, seed=1)
    text = nest(sgf.write(match), padding=3 * sys.getrecursionlimit())
    assert text.count("(") > 2 * sys.getrecursionlimit() * len(match.games)
    same_games(match, sgf.read(text).match)
    nodes = sgf.parse("(;GM[6]" + "(;W[63hbmj]" * 1000 + ")" * 1001)[0]
    assert len(nodes) == 1001 and nodes[-1] == [("W", ["63hbmj"])]
    with pytest.raises(IllegalMoveError, match="game 1, node 3: W.63hbmj. is white's, but black is to act"):
        sgf.read("(;FF[4]GM[6]" + "(;W[63hbmj]" * 1000 + ")" * 1001)
    assert sgf.parse("(;A[1]" + "(;B[2])(;C[3]" * 100_000 + ")" * 100_001) == [[[("A", ["1"])], [("B", ["2"])]]]


@pytest.mark.parametrize("text, message", [
    ("(;GM[6]" * 100_000, "offset 700000: the text ends inside a game tree"),
    ("(;GM[6]" * 100_000 + ")" * 99_999, "offset 799999: the text ends inside a game tree"),
    ("(;GM[6]" * 100_000 + ")" * 99_999 + "x", "offset 799999: expected ')' to close the game tree"),
    ("(;GM[6]" * 100_000 + ")" * 100_001, "offset 800000: expected '(' to open a game tree, got ')'"),
    ("(;GM[6]" * 100_000 + "()" + ")" * 100_000, "offset 700001: a game tree starts with a node"),
])
@pytest.mark.slow
def test_unbalanced_parentheses_at_any_depth_are_a_notation_error(text, message):
    with pytest.raises(InvalidNotationError, match=re.escape(message)):
        sgf.read(text)


def test_replay_of_a_deeply_nested_file_is_a_nardy_error(tmp_path, capsys):
    path = tmp_path / "deep.sgf"
    path.write_text("(;FF[4]GM[6]" + "(;W[63hbmj]" * 1000 + ")" * 1001 + "\n")
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err == "nardy: error: game 1, node 3: W[63hbmj] is white's, but black is to act\n"
    path.write_text("(;GM[6]" * 100_000)
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err == "nardy: error: malformed SGF at offset 700000: the text ends inside a game tree\n"


def test_illegal_play_and_results_are_reported():
    with pytest.raises(IllegalMoveError, match="game 1, node 2: '8/4 6/5' is not a legal play"):
        sgf.read("(;GM[6]MI[length:1];W[31hdfe])")
    with pytest.raises(IllegalMoveError, match=re.escape("game 1, node 4: RE[W+1], but the play gives black 1")):
        sgf.read("(;GM[6]RE[W+1];W[31hefe];B[double];W[drop])")
    with pytest.raises(IllegalMoveError, match="has no result"):
        sgf.read("(;GM[6];W[31hefe])")
    assert [str(w) for w in sgf.read("(;GM[6];W[31hefe])", strict=False).warnings] == [
        "game 1, line 2: game 1 has no result (RE) and is unfinished"]


def test_an_opening_double_is_refused_where_the_starter_plays_the_roll_off_dice():
    # short nardy plays the roll-off dice (opening="dice"), which cannot be a double, as .mat reading checks
    with pytest.raises(IllegalMoveError, match="the opening roll 33 is a double"):
        sgf.read("(;GM[6]MI[length:1];W[33hehefcfc])", strict=False)
    assert sgf.read("(;GM[6]MI[length:1];W[31hefe])", strict=False).match.games


def test_a_forfeit_in_sgf():
    text = "(;GM[6]MI[length:0]RE[B+16R];W[31hefe];B[double];W[take])"
    with pytest.raises(IllegalMoveError, match="read as a forfeit"):
        sgf.read(text)
    game = sgf.read(text, strict=False).games[0]
    assert (game.result.winner, game.result.kind, game.result.points) == (Color.BLACK, "forfeit", 16)


def test_writing_is_whole_or_nothing(tmp_path):
    with pytest.raises(InvalidArgumentError, match="no directory"):  # (was a FileNotFoundError)
        sgf.dump(play_match(Rules("short"), 1, seed=1), tmp_path / "no" / "m.sgf")
    assert list(tmp_path.iterdir()) == []


# GNU Backgammon itself (the `gnubg` wheel: its full program with an embedded Python) -------------

def gnubg(commands: list[str], tmp_path: Path) -> None:
    """Run gnubg commands in a fresh process (gnubg keeps one global match and prints boards)."""
    script = textwrap.dedent(f"""
        import gnubg
        for c in {["set display off", "set threads 1", "set sound enable off", "set confirm new off",
                   "set confirm save off"] + commands!r}:
            gnubg.command(c)
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]


def plays(text: str) -> list[tuple[dict[str, list[str]], list[str]]]:
    """Each game tree of an SGF text as (its root's properties, its play nodes' W/B values, the
    steps of a move sorted: gnubg writes them in its generator's order, nardy in the order played)."""
    def value(v: str) -> str:
        return v if not v[:1].isdigit() else v[:2] + "".join(sorted(v[k:k + 2] for k in range(2, len(v), 2)))
    return [({name: values for name, values in nodes[0]},
             [f"{name}[{value(values[0])}]" for node in nodes[1:] for name, values in node if name in ("W", "B")])
            for nodes in sgf.parse(text)]


@pytest.mark.skipif(not HAVE_GNUBG, reason="the gnubg wheel is not installed (x86_64 Linux, Python 3.11)")
@pytest.mark.parametrize("rules, length, seed", [
    (Rules("short"), 5, 1), (Rules("short"), 0, 2), (Rules("short"), 1, 4),
    (Rules("short"), 3, 7), (Rules("short"), 7, 6),  # (seed 5 resigns a game before its first move: gnubg drops it)
])
@pytest.mark.slow
def test_gnubg_writes_the_sgf_nardy_writes(rules, length, seed, tmp_path):
    # gnubg imports nardy's .mat and saves the match as SGF: nardy's SGF of the same match has the
    # same play nodes and the same match properties, and nardy reads gnubg's files to the same games.
    # (The wheel's own SGF import crashes on every file, its own too: see the next test for the program's.)
    match = play_match(rules, length, seed, max_games=6)
    matfile.dump(match, tmp_path / "nardy.mat", players=("alice", "bob"))
    gnubg(["set jacoby off", "import mat nardy.mat", "save match gnubg.sgf", "export match mat gnubg.mat"], tmp_path)
    theirs, ours = plays((tmp_path / "gnubg.sgf").read_text()), plays(sgf.write(match, ("alice", "bob")))
    assert [nodes for _, nodes in theirs] == [nodes for _, nodes in ours]
    for (their_root, _), (our_root, _) in zip(theirs, ours):
        for prop in ("GM", "MI", "PW", "PB", "RE") + (("RU",) if length > 1 else ()):
            assert their_root.get(prop) == our_root.get(prop), prop
    for record in (sgf.load(tmp_path / "gnubg.sgf"), matfile.load(tmp_path / "gnubg.mat")):
        same_games(match, record.match)
        assert record.players == ("alice", "bob")


@pytest.mark.slow
@pytest.mark.skipif(not HAVE_GNUBG, reason="the gnubg wheel is not installed (x86_64 Linux, Python 3.11)")
@pytest.mark.parametrize("length, seed", [(3, 11), (7, 12)])
def test_matches_gnubg_plays_read_the_same_from_its_sgf_and_its_mat(length, seed, tmp_path):
    players = [f"set player {p} {c}" for p in (0, 1) for c in
               ("gnubg", "chequerplay evaluation plies 0", "cubedecision evaluation plies 0")]
    start = f"new match {length}" if length else "new session"
    gnubg(["set rng mersenne", f"set seed {seed}", *players, start, "save match m.sgf", "export match mat m.mat"], tmp_path)
    a, b = sgf.load(tmp_path / "m.sgf"), matfile.load(tmp_path / "m.mat")
    same_games(a.match, b.match)
    assert a.players == b.players and a.match.winner is not None


def gnubg_program(commands: list[str], tmp_path: Path) -> str:
    """Run commands in GNU Backgammon's program, text mode, no start-up files; what it printed."""
    script = "\n".join(["set display off", "set sound enable off", "set threads 1", *commands, "quit"]) + "\n"
    done = subprocess.run([GNUBG_PROGRAM, "-t", "-q", "-r"], input=script, cwd=tmp_path, capture_output=True,
                          text=True, timeout=120, env=dict(os.environ, HOME=str(tmp_path)))
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout + done.stderr


@pytest.mark.skipif(GNUBG_PROGRAM is None and not os.environ.get("CI"),
                    reason="GNU Backgammon's program is not installed (Debian: apt-get install gnubg)")
@pytest.mark.parametrize("rules, length, seed", [
    (Rules("short"), 5, 1), (Rules("short"), 0, 2), (Rules("short"), 1, 4),
    # (Jacoby seed 3 has a gammon with the cube never turned: gnubg, loading it, scores it 1, as
    # nardy does, but its .mat export then writes "Wins 2 points" beside that score; left out)
    (Rules("short"), 3, 7), (Rules("short"), 7, 6), (Rules("short", jacoby=True), 0, 2),
])
@pytest.mark.slow
def test_gnubg_loads_the_sgf_nardy_writes(rules, length, seed, tmp_path):
    # GNU Backgammon loads nardy's SGF (`load match`), plays it through and exports the match as
    # .mat: the same games, moves, cube actions, resignations and results; and saved again as SGF,
    # the same play nodes and match properties as nardy's
    assert GNUBG_PROGRAM is not None, "CI installs GNU Backgammon's program (apt-get install gnubg)"
    match = play_match(rules, length, seed, max_games=6)
    text = sgf.write(match, ("alice", "bob"))
    (tmp_path / "nardy.sgf").write_text(text)
    printed = gnubg_program(["load match nardy.sgf", "export match mat gnubg.mat", "save match gnubg.sgf"], tmp_path)
    assert "error" not in printed.lower() and "illegal" not in printed.lower(), printed[-2000:]
    record = matfile.load(tmp_path / "gnubg.mat", rules)  # (a .mat file does not say Jacoby)
    same_games(match, record.match)
    assert record.players == ("alice", "bob")
    theirs, ours = plays((tmp_path / "gnubg.sgf").read_text()), plays(text)
    assert [nodes for _, nodes in theirs] == [nodes for _, nodes in ours]
    for (their_root, _), (our_root, _) in zip(theirs, ours):
        for prop in ("GM", "MI", "PW", "PB", "RE") + (("RU",) if length > 1 else ()):
            assert their_root.get(prop) == our_root.get(prop), prop


def test_gnubg_exports_in_the_test_data_read_as_sgf_after_conversion():
    record = matfile.load(DATA / "gnubg-export-1.mat")
    same_games(record.match, sgf.read(sgf.write(record)).match)


@pytest.mark.parametrize("old, new, message", [
    ("MI[length:3]", "MI[length3]", r"skipped MI\[length3\]"), ("MI[length:3]", "MI[]", r"skipped MI\[\]"),
    ("MI[length:3]", "MI[length:3][length:5]", r"skipped MI\[length:5\]"),
    ("RU[Crawford]", "RU[Nonsense]", r"RU\[Nonsense\] is none of"), ("RU[Crawford]", "RU[]", r"RU\[\] is none of"),
    ("GM[6]", "", "the root has no GM"),
])
def test_a_garbled_root_is_an_error_when_strict_and_a_warning_when_lenient(old, new, message):
    from nardy import Match

    match = Match("short", 3, seed=1)
    game = match.new_game()
    game.roll_off()
    game.play(game.legal_moves()[0])
    game.double()
    game.drop()
    match.finish_game()
    text = sgf.write(match)
    assert old in text
    garbled = text.replace(old, new, 1)
    with pytest.raises(InvalidNotationError, match=message):
        sgf.read(garbled)
    record = sgf.read(garbled, strict=False)
    assert any(re.search(message, w.message) for w in record.warnings)
