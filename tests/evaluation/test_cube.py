"""nardy.cube on its own: Janowski's money points, the Jacoby rule, the cube's availability at
the score, the position classes, and the errors. (tests/evaluation/test_cube_gnubg.py checks the whole
arithmetic against GNU Backgammon.)"""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nardy import Position, Rules
from nardy.evaluation.cube import BEAR_OFF, CONTACT, RACE, cube_efficiency, decide, decision, play_equity, position_class
from nardy.evaluation.cubeful import rollout
from nardy.errors import InvalidArgumentError, InvalidNotationError
from nardy.evaluation.net import evaluate
from nardy.evaluation.met import Score, load_met, mwc_to_equity, outcome_mwc
from nardy.formats.ids import MatchState

START = Position.start("short")
MONEY = MatchState()
NO_GAMMONS = (0.7, 0.0, 0.0, 0.0, 0.0)


def race(mine: dict[int, int], theirs: dict[int, int]) -> Position:
    """A short nardy position from the mover's view: {point: checkers} for each side (theirs in
    their own numbers); the rest borne off."""
    view = [0] * 26
    for point, n in mine.items():
        view[point] = n
    for point, n in theirs.items():
        view[25 - point] = -n
    return Position(view, "short")


def test_dead_cube_money_take_point_is_a_quarter() -> None:
    assert decision(NO_GAMMONS, MONEY, 0.0).take_point == pytest.approx(0.25, abs=1e-6)


def test_live_cube_money_take_point_is_janowskis() -> None:
    # W = L = 1: (L - 1/2) / (W + L + 1/2) = 20%
    assert decision(NO_GAMMONS, MONEY, 1.0).take_point == pytest.approx(0.2, abs=1e-6)


def test_dead_cube_equities_are_cubeless() -> None:
    p = (0.6, 0.2, 0.01, 0.1, 0.0)
    cubeless = 2 * 0.6 - 1 + 0.2 + 0.01 - 0.1
    d = decision(p, MONEY, 0.0)
    assert d.no_double == pytest.approx(cubeless)
    assert d.double_take == pytest.approx(2 * cubeless)
    assert d.double_pass == 1.0


def test_jacoby_rule_voids_gammons_with_a_centred_cube() -> None:
    p = (0.6, 0.3, 0.0, 0.0, 0.0)
    assert decision(p, MatchState(jacoby=True), 0.0).no_double == pytest.approx(0.2)
    assert decision(p, MatchState(jacoby=False), 0.0).no_double == pytest.approx(0.5)
    owned = MatchState(jacoby=True, cube_value=2, cube_owner=1)
    assert decision(p, owned, 0.0).no_double == pytest.approx(0.5)


@pytest.mark.parametrize("probabilities, action", [
    ((0.5, 0.1, 0.0, 0.1, 0.0), "No double, take"),
    ((0.72, 0.1, 0.0, 0.05, 0.0), "Double, take"),
    ((0.85, 0.05, 0.0, 0.01, 0.0), "Double, pass"),
    ((0.9, 0.6, 0.05, 0.0, 0.0), "Too good to double, pass"),
])
def test_money_actions(probabilities, action) -> None:
    assert decide(START, MONEY, probabilities=probabilities).action == action


def test_owned_cube_says_redouble() -> None:
    d = decide(START, MatchState(cube_value=2, cube_owner=1), probabilities=(0.72, 0.1, 0.0, 0.05, 0.0))
    assert d.action == "Redouble, take" and d.can_double


def test_the_cube_on_the_other_side() -> None:
    d = decide(START, MatchState(cube_value=2, cube_owner=0), probabilities=(0.72, 0.1, 0.0, 0.05, 0.0))
    assert not d.can_double and d.take_point is None and d.equity == d.no_double


def test_crawford_game_has_a_dead_cube() -> None:
    state = MatchState(match_length=7, score=(6, 3), crawford=True)
    p = (0.55, 0.15, 0.01, 0.1, 0.005)
    d = decide(START, state, probabilities=p)
    assert not d.can_double and d.action == "Never double, take (dead cube)"
    score = Score.of(state)
    mwc = sum(q * outcome_mwc(score, points) for q, points in
              [(p[0] - p[1], 1), (p[1] - p[2], 2), (p[2], 3), (1 - p[0] - p[3], -1), (p[3] - p[4], -2), (p[4], -3)])
    assert d.no_double == pytest.approx(mwc_to_equity(mwc, score))


def test_post_crawford_leader_cannot_double_trailer_can() -> None:
    p = (0.6, 0.2, 0.0, 0.1, 0.0)
    assert not decide(START, MatchState(match_length=7, score=(3, 6)), probabilities=p).can_double
    trailer = decide(START, MatchState(match_length=7, score=(6, 3)), probabilities=p)
    assert trailer.can_double and trailer.action.startswith(("Double", "Too good", "No double", "Optional"))


def test_nardys_own_evaluation_by_default() -> None:
    d = decide(START, MONEY)
    assert d.probabilities == pytest.approx(tuple(evaluate(START)[0]))


def test_another_met(tmp_path) -> None:
    path = tmp_path / "flat.xml"
    rows = "".join("<row>" + "".join(f"<me>{0.5 + (j - i) / 20}</me>" for j in range(7)) + "</row>" for i in range(7))
    path.write_text(f"<met><info><name>flat</name><description>d</description><length>7</length></info>"
                    f"<pre-crawford-table type='explicit'>{rows}</pre-crawford-table>"
                    f"<post-crawford-table type='explicit' player='both'><row>{'<me>0.45</me>' * 7}</row>"
                    f"</post-crawford-table></met>")
    flat = load_met(path)
    p = (0.6, 0.2, 0.0, 0.1, 0.0)
    state = MatchState(match_length=7, score=(2, 4))
    assert decide(START, state, probabilities=p, met=flat) != decide(START, state, probabilities=p)


def test_position_classes_and_efficiencies() -> None:
    assert position_class(START)[0] == CONTACT and cube_efficiency(START) == 0.68
    assert position_class(race({13: 8, 6: 7}, {13: 8, 6: 7}))[0] == CONTACT  # both hold a 13
    long_race = race({11: 8, 6: 7}, {11: 8, 6: 7})
    assert position_class(long_race) == (RACE, 11 * 8 + 6 * 7)
    assert cube_efficiency(long_race) == 0.7  # 130 pips: the race's maximum
    short_race = race({8: 2, 5: 3}, {9: 2, 3: 3})
    assert cube_efficiency(short_race) == pytest.approx(0.6)  # 31 pips: the race's minimum
    mid_race = race({12: 5, 6: 5}, {12: 5, 6: 5})
    assert cube_efficiency(mid_race) == pytest.approx(90 * 0.00125 + 0.55)
    home = race({6: 5, 1: 5}, {6: 5, 2: 5})
    assert position_class(home)[0] == BEAR_OFF and cube_efficiency(home) == 0.6


@pytest.mark.parametrize("kwargs, error, message", [
    ({"ply": 3}, InvalidArgumentError, "ply must be 0, 1 or 2"),
    ({"ply": True}, InvalidArgumentError, "ply must be 0"),
    ({"ply": [0, 0]}, InvalidArgumentError, "ply must be 0"),
    ({"probabilities": (0.5, 0.1)}, InvalidArgumentError, "five numbers"),
    ({"probabilities": (0.5, 0.1, 0.0, 0.1, "x")}, InvalidArgumentError, "five numbers"),
    # read as numbers before: a string of five digits, numeric strings, booleans
    ({"probabilities": "00000"}, InvalidArgumentError, "five numbers"),
    ({"probabilities": ("0.5", "0.1", "0", "0.1", "0")}, InvalidArgumentError, "five numbers"),
    ({"probabilities": (True, False, False, False, False)}, InvalidArgumentError, "five numbers"),
    ({"probabilities": 0.5}, InvalidArgumentError, "five numbers"),
    ({"probabilities": (1.5, 0.1, 0.0, 0.1, 0.0)}, InvalidArgumentError, "in 0..1"),
    ({"probabilities": (0.5, 0.6, 0.0, 0.1, 0.0)}, InvalidArgumentError, "inconsistent"),
    ({"probabilities": None, "rules": "short"}, InvalidArgumentError, "must be a nardy Rules"),
    ({"rules": Rules("short", cube=False)}, InvalidArgumentError, "without the doubling cube"),
    ({"met": "Kazaross"}, InvalidArgumentError, "MatchEquityTable"),
])
def test_bad_arguments(kwargs, error, message) -> None:
    with pytest.raises(error, match=message):
        decide(START, MONEY, **kwargs)


def test_the_state_and_the_position_agree_on_the_side_on_roll() -> None:
    black = Position(START.view(), "short", "black")
    with pytest.raises(InvalidArgumentError, match="White on roll .* the position Black"):
        decide(black, MONEY)
    assert decide(black, MatchState(on_roll=0, turn=0), probabilities=NO_GAMMONS).can_double


@pytest.mark.parametrize("call", [
    lambda p, s, met: decide(p, s, probabilities=NO_GAMMONS, met=met),
    lambda p, s, met: play_equity(p, s, met=met),
    lambda p, s, met: rollout(p, s, games=1, met=met),
], ids=["decide", "play_equity", "rollout"])
def test_one_check_of_the_state_for_every_entry(call) -> None:
    """decide, play_equity and the cubeful rollout check the side on roll and the table alike."""
    black = Position(START.view(), "short", "black")
    with pytest.raises(InvalidArgumentError, match=r"White on roll \(on_roll=1\), the position Black"):
        call(black, MONEY, None)
    with pytest.raises(InvalidArgumentError, match="met must be a nardy.met.MatchEquityTable, got 'Kazaross'"):
        call(START, MONEY, "Kazaross")



def test_can_double_and_decision_check_the_table_too() -> None:
    from nardy.evaluation.cubemath import can_double, decision

    # can_double once let a str through to an AttributeError
    with pytest.raises(InvalidArgumentError, match="met must be a nardy.met.MatchEquityTable, got 'x'"):
        can_double(MatchState(match_length=5), met="x")
    with pytest.raises(InvalidArgumentError, match="met must be a nardy.met.MatchEquityTable, got 'x'"):
        decision([0.5, 0.1, 0.0, 0.1, 0.0], MatchState(match_length=5), 0.7, met="x")
    assert can_double(MatchState(match_length=5)) is True


def test_bad_states_and_positions() -> None:
    with pytest.raises(InvalidArgumentError, match="long nardy has no doubling cube"):
        decide(Position.start("long"), MONEY)
    with pytest.raises(InvalidArgumentError, match="a match state must be a MatchState"):
        decide(START, "cAkAAAAAAAAA")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="must be a nardy Position"):
        decide(START.view(), MONEY)  # type: ignore[arg-type]
    with pytest.raises(InvalidNotationError, match="crawford"):
        decide(START, MatchState(crawford=1))  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="up to 25 points"):
        decide(START, MatchState(match_length=31))
    with pytest.raises((InvalidArgumentError, InvalidNotationError)):
        decide(START, MatchState(match_length=7, score=(7, 3), game_state=2))


def run_cli(*argv: str) -> tuple[int, str]:
    import io

    from nardy.cli import main

    out = io.StringIO()
    code = main(list(argv), out)
    return code, out.getvalue()


def test_cli_hint_without_dice_shows_the_cube_decision(capsys) -> None:
    code, text = run_cli("hint", "short", "4HPwATDgc/ABMA:cAkAAAAAAAAA")
    assert code == 0
    assert "money (Jacoby), cube 1 centred: 0-ply cube decision" in text
    assert "No double" in text and "Double, take" in text and "Double, pass" in text
    assert "proper cube action: No double, take" in text
    code, text = run_cli("hint", "short", "sGfwATDgc/ABMA:cAngACAAIAAE")
    assert code == 0 and "7-point match at 4-2 (white-black)" in text
    code, text = run_cli("hint", "short", "sGfwATDgc/ABMA:8AngAGAAGAAE")
    assert "Crawford game" in text and "Never double, take (dead cube)" in text
    code, text = run_cli("hint", "short", "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10")
    assert code == 0 and "0-ply cube decision" in text
    code, text = run_cli("hint", "short", "--ply", "1")
    assert code == 0 and "1-ply cube decision" in text and "proper cube action" in text
    code, text = run_cli("hint", "short", "4HPwATDgc/ABMA", "6", "5", "--top", "1")
    assert code == 0 and "to play 6-5" in text


def test_decision_checks_its_arguments() -> None:
    with pytest.raises(InvalidArgumentError, match="efficiency"):
        decision(NO_GAMMONS, MONEY, 1.5)
    with pytest.raises(InvalidArgumentError, match="efficiency"):
        decision(NO_GAMMONS, MONEY, "0.6")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="five numbers"):
        decision((0.5,), MONEY, 0.6)
    with pytest.raises(InvalidArgumentError, match="a match state must be a MatchState"):
        decision(NO_GAMMONS, None, 0.6)  # type: ignore[arg-type]


ACTIONS = {f"{prefix}{word}{suffix}" for word in ("double", "redouble")
           for prefix, suffix in (("No ", ", take"), ("Too good to ", ", take"), ("Too good to ", ", pass"),
                                  ("Optional ", ", take"), ("Optional ", ", pass"))}
ACTIONS |= {"Double, take", "Double, pass", "Redouble, take", "Redouble, pass", "Never double, take (dead cube)",
            "Never redouble, take (dead cube)", "Cube not available"}


@st.composite
def probabilities(draw):
    win = draw(st.floats(0.0, 1.0))
    wg = draw(st.floats(0.0, 1.0)) * win
    lg = draw(st.floats(0.0, 1.0)) * (1 - win)
    return win, wg, draw(st.floats(0.0, 1.0)) * wg, lg, draw(st.floats(0.0, 1.0)) * lg


@st.composite
def states(draw):
    length = draw(st.sampled_from([0, 0, 1, 2, 3, 5, 7, 11, 25]))
    on_roll = draw(st.sampled_from([0, 1]))
    cube = 1 << draw(st.integers(0, 6))
    owner = draw(st.sampled_from([None, 0, 1])) if cube > 1 else None
    if not length:
        return MatchState(cube_value=cube, cube_owner=owner, on_roll=on_roll, turn=on_roll, jacoby=draw(st.booleans()))
    score = (draw(st.integers(0, length - 1)), draw(st.integers(0, length - 1)))
    crawford = length - 1 in score and draw(st.booleans())
    return MatchState(cube_value=cube, cube_owner=owner, on_roll=on_roll, turn=on_roll, match_length=length,
                      score=score, crawford=crawford)


@given(probabilities(), states(), st.floats(0.0, 1.0))
def test_any_state_gives_a_finite_decision_in_gnubgs_words(p, state, x) -> None:
    d = decision(p, state, x)
    assert all(math.isfinite(v) for v in (d.no_double, d.double_take, d.double_pass, d.equity))
    assert d.action in ACTIONS
    if d.can_double:
        assert 0.0 <= d.take_point <= 1.0
    else:
        assert d.take_point is None


def test_decide_refuses_a_state_after_the_roll_and_a_crawford_flag_out_of_place() -> None:
    with pytest.raises(InvalidArgumentError, match=r"before the roll; the match state has 5-2 rolled"):
        decide(START, MatchState(dice=(5, 2)))
    with pytest.raises(InvalidArgumentError, match="Crawford game .* not at 1-1 of 5"):
        decide(START, MatchState(match_length=5, score=(1, 1), crawford=True))
    with pytest.raises(InvalidArgumentError, match="Crawford game .* not in a money game"):
        decision(NO_GAMMONS, MatchState(crawford=True), 0.6)
    assert decide(START, MatchState(match_length=5, score=(4, 1), crawford=True)).action.startswith("Never")


def test_decide_refuses_a_finished_game_and_a_state_with_no_decision_to_make(capsys) -> None:
    from nardy.errors import GameOverError

    over = Position([0] * 24 + [-1, 0], "short")
    with pytest.raises(GameOverError, match="the game is over"):
        decide(over, MONEY)
    assert run_cli("hint", "short", ",".join(map(str, over.view()))) == (2, "")
    assert "the game is over" in capsys.readouterr().err
    for state, message in ((MatchState(game_state=2), r"game being played, not game_state=2 \(over\)"),
                           (MatchState(game_state=3), r"not game_state=3 \(resigned\)"),
                           (MatchState(resignation=2), r"resignation pending \(resignation=2\)")):
        with pytest.raises(InvalidArgumentError, match=message):
            decide(START, state)
        with pytest.raises(InvalidArgumentError, match=message):
            decision(NO_GAMMONS, state, 0.6)
        with pytest.raises(InvalidArgumentError, match=message):
            rollout(START, state, 10)
    with pytest.raises(InvalidArgumentError, match=r"before the roll; the match state has 3-1 rolled"):
        rollout(START, MatchState(dice=(3, 1)), 36)  # as decide refuses it
    # gnubg's "no game" (Backgammon Studio's IDs of openings) and a double offered (a gnubg or
    # XG take decision: the doubler's decision, take / pass included) are decided as before
    plain = decide(START, MatchState())
    for state in (MatchState(game_state=0), MatchState(double_offered=True, turn=0)):
        assert decide(START, state) == plain


def test_position_class_refuses_what_is_not_a_short_position() -> None:
    for bad in (None, "4HPwATDgc/ABMA", Position.start("long")):
        with pytest.raises(InvalidArgumentError, match="a short nardy Position"):
            position_class(bad)  # type: ignore[arg-type]
        with pytest.raises(InvalidArgumentError, match="a short nardy Position"):
            cube_efficiency(bad)  # type: ignore[arg-type]


def test_cli_cube_hint_keeps_jacoby_and_refuses_rolled_dice(capsys) -> None:
    code, text = run_cli("hint", "short", "4HPwATDgc/ABMA", "--jacoby", "false")
    assert code == 0 and "money, cube 1 centred" in text
    code, text = run_cli("hint", "short", "4HPwATDgc/ABMA:cAkAAAAAAAAA", "--jacoby", "false")
    assert code == 2 and "--jacoby false contradicts" in capsys.readouterr().err
    code, text = run_cli("hint", "short", "4HPwATDgc/ABMA:QYkqASAAIAAE")  # 5-2 rolled
    assert code == 2 and "has 5-2 rolled, and the cube decision comes before the roll" in capsys.readouterr().err
    code, text = run_cli("hint", "short", "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10")
    assert code == 2 and "to rank the plays of 5-2: nardy hint short 'XGID=" in capsys.readouterr().err
