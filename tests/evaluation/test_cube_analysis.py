"""Cube decisions in `nardy.analysis` and `nardy analyse`: the turns of a game with the cube,
missed and wrong doubles, wrong takes and passes, and the cube error rate apart from the
chequer play's."""

from __future__ import annotations

import pytest

from nardy import Color, Match
from nardy.formats import matfile
from nardy.evaluation.analysis import analyse, cube_turns
from nardy.cli import main
from nardy.evaluation.cube import decide
from nardy.errors import InvalidArgumentError
from nardy.evaluation.net import net_move


def early_double_match(answer: str) -> Match:
    """A 7-point match: the net plays both sides; the side on roll doubles at its first turn
    after the opening (a wrong double: the game is even) and the other side answers."""
    match = Match("short", 7, seed=4)
    game = match.new_game()
    game.roll_off()
    game.play(net_move(game))
    game.double()
    getattr(game, answer)()
    while not game.over:
        game.roll()
        game.play(net_move(game))
    match.finish_game()
    return match


def test_cube_turns_follow_the_game() -> None:
    match = early_double_match("take")
    game = match.games[0]
    turns = cube_turns(game)
    moves = sum(kind == "move" for _, kind, _ in game.history())
    assert len(turns) == moves - 1               # every move's turn but the opening one
    first = turns[0]
    assert first.doubled and first.answer == "take" and first.move == 2
    assert first.state.cube_value == 1 and first.state.match_length == 7
    assert all(t.state.cube_value == 2 for t in turns[1:])
    owner = int(first.position.turn.other is Color.WHITE)
    assert all(t.state.cube_owner == owner for t in turns[1:])
    assert all(t.state.on_roll == int(t.position.turn is Color.WHITE) for t in turns)


@pytest.mark.parametrize("answer", ["take", "drop"])
def test_a_wrong_double_and_its_answer(answer) -> None:
    match = early_double_match(answer)
    result = analyse(match.games, ply=0)
    first = result.cube[0]
    d = first.decision
    turn = cube_turns(match.games[0])[0]
    expected = decide(turn.position, turn.state)
    assert (d.no_double, d.double_take, d.double_pass) == (expected.no_double, expected.double_take,
                                                            expected.double_pass)
    assert expected.action == "No double, take"
    assert first.doubled and first.double_error == "wrong double"
    assert first.double_loss == pytest.approx(expected.no_double - min(expected.double_take, expected.double_pass))
    if answer == "take":
        assert first.answer_error is None and first.answer_loss == 0
    else:
        assert first.answer_error == "wrong pass"
        assert first.answer_loss == pytest.approx(expected.double_pass - expected.double_take)
    doubler, taker = first.player, first.player.other
    mine, theirs = result.cube_summary(doubler), result.cube_summary(taker)
    assert mine.doubles == 1 and mine.errors["wrong double"] == 1
    assert (theirs.takes, theirs.passes) == ((1, 0) if answer == "take" else (0, 1))
    own = [c for c in result.cube if c.player is doubler]
    assert mine.total_loss == pytest.approx(sum(c.double_loss for c in own))
    assert mine.error_rate == pytest.approx(1000 * mine.total_loss / mine.close)


def test_long_nardy_and_cubeless_games_have_no_cube_analysis() -> None:
    match = Match("long", 3, seed=1)
    game = match.new_game()
    game.roll_off()
    for _ in range(6):
        if game.dice is None:
            game.roll()
        game.play(net_move(game))
    assert analyse([game]).cube == [] and cube_turns(game) == []


def test_the_cli_reports_cube_errors_apart(tmp_path, capsys) -> None:
    path = tmp_path / "m.mat"
    matfile.dump(early_double_match("drop"), path)
    assert main(["analyse", str(path)]) == 0
    out = capsys.readouterr().out
    assert "before move 2" in out and "wrong double: loss" in out and "wrong pass: loss" in out
    for row in ("error rate per move", "cube decisions (close)", "cube error rate", "wrong doubles", "wrong passes",
                "overall error rate"):
        assert row in out


def test_play_a_match_with_the_cube(capsys) -> None:
    """The person (White) plays the net's best moves, doubles at its second cube turn and takes
    every double; the net answers the double and doubles as `net_cube_action` says."""
    import io

    from nardy.cli import play_game
    from nardy.evaluation.net import rank

    match = Match("short", 3, seed=5)
    game = match.new_game()
    game.roll_off()
    prompts = []

    def person(prompt: str) -> str:
        prompts.append(prompt)
        if prompt.startswith("take or pass"):
            return "t"
        if prompt.startswith("cube at"):
            turns = sum(p.startswith("cube at") for p in prompts)
            return {1: "hint", 2: "help", 3: "d"}.get(turns, "")
        return str(rank(game.position, game.dice)[0][0])

    out = io.StringIO()
    play_game(game, Color.WHITE, person, out)
    text = out.getvalue()
    assert game.over and ("you double to 2; the net takes" in text or "you double to 2; the net passes" in text)
    assert "no double" in text and "double/take" in text        # the hint before the roll
    assert "double, d   double" in text                          # the help
    assert [p for p in prompts if p.startswith("take or pass")] == ["take or pass? "] * text.count("doubles to")
    assert main(["play", "--help"]) == 0 and "--match" in capsys.readouterr().out


def test_chequer_play_at_the_score(tmp_path, capsys) -> None:
    from nardy import Position
    from nardy.evaluation.net import rank

    match = early_double_match("take")
    game = match.games[0]
    plain, scored = analyse(match.games, ply=0), analyse(match.games, ply=0, at_score=True)
    assert len(plain.moves) == len(scored.moves)
    turns = {t.move: t for t in cube_turns(game)}
    position = Position.start("short", game.starter)
    moves = [what for _, kind, what in game.history() if kind == "move"]
    for i, (move, m) in enumerate(zip(moves, scored.moves), 1):
        if i in turns and not turns[i].doubled:  # (after a double, the move is played at the doubled cube)
            ranked = rank(position, move.dice, game.rules, state=turns[i].state)
            assert m.equity_best == ranked[0][1] and m.best == ranked[0][0]
        position = position.apply(move)
    assert any(a.equity_best != b.equity_best for a, b in zip(plain.moves, scored.moves))
    path = tmp_path / "m.mat"
    matfile.dump(match, path)
    assert main(["analyse", str(path), "--at-score"]) == 0
    assert "chequer play at the score, cube decisions cubeful" in capsys.readouterr().out
    with pytest.raises(InvalidArgumentError, match="at_score"):
        analyse(match.games, at_score="yes")


def test_a_long_nardy_money_game_is_judged_cubeless_at_the_score(tmp_path, capsys) -> None:
    from nardy import Game

    game = Game("long", seed=3)
    game.roll_off()
    while not game.over:
        if game.dice is None:
            game.roll()
        game.play(net_move(game))
    plain, scored = analyse([game], ply=0), analyse([game], ply=0, at_score=True)
    assert [m.equity_best for m in scored.moves] == [m.equity_best for m in plain.moves]
    path = tmp_path / "long.mat"
    matfile.dump(game, path, players=("A", "B"))
    assert main(["analyse", str(path), "--at-score", "--ply", "0"]) == 0
    assert "chequer play at the score" in capsys.readouterr().out


def test_play_match_to_its_end(monkeypatch, capsys) -> None:
    from nardy.evaluation.net import rank

    games = []
    new_game = Match.new_game

    def recording(self, **kwargs):
        games.append(new_game(self, **kwargs))
        return games[-1]

    def person(prompt: str) -> str:
        if prompt.startswith("take or pass"):
            return "t"
        if prompt.startswith("cube at"):
            return ""
        game = games[-1]
        return str(rank(game.position, game.dice)[0][0])

    monkeypatch.setattr(Match, "new_game", recording)
    monkeypatch.setattr("builtins.input", person)
    assert main(["play", "short", "--match", "3", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("you play white against the net (0-ply, with the cube), a 3-point match")
    assert "score: you" in out and out.rstrip().endswith(("you win the match", "the net wins the match"))


def test_summaries_read_the_player_as_every_colour_parameter_does() -> None:
    from nardy import InvalidArgumentError as Invalid

    result = analyse(early_double_match("take").games, ply=0)
    for white in (Color.WHITE, 0, "white", "WHITE"):
        assert result.summary(white) == result.summary(Color.WHITE) and result.summary(white).moves > 0
        assert result.cube_summary(white) == result.cube_summary(Color.WHITE)
    assert result.summary("black") == result.summary(Color.BLACK) == result.summary(1)
    for bad in (5, "red", True, None, 0.0):
        with pytest.raises(Invalid, match="for player"):
            result.summary(bad)  # type: ignore[arg-type]
        with pytest.raises(Invalid, match="for player"):
            result.cube_summary(bad)  # type: ignore[arg-type]
