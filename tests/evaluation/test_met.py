"""Match equity tables: the built-in Kazaross-XG2 against the published table, loading gnubg's
MET files (and refusing bad ones), MWC <-> equity round trips and gammon values at a score."""

from __future__ import annotations

from pathlib import Path

import pytest

from nardy.errors import InvalidArgumentError, InvalidNotationError
from nardy.evaluation.met import KAZAROSS_XG2, Score, equity, equity_to_mwc, gammon_values, load_met, mwc, mwc_to_equity, outcome_mwc
from nardy.formats.ids import MatchState

MET_FOLDER = Path("/usr/share/gnubg/met")
INSTALLED = MET_FOLDER / "Kazaross-XG2.xml"


def test_published_values() -> None:
    """Values from the published table (row: my points needed, column: the opponent's)."""
    t = KAZAROSS_XG2
    assert t.length == 25
    assert t.mwc(1, 2) == 0.67736  # Crawford game, 1-away 2-away
    assert t.mwc(2, 1) == pytest.approx(1 - 0.67736)
    assert t.mwc(7, 7) == 0.5
    assert t.mwc(3, 5) == 0.64795
    assert t.mwc(2, 1, post_crawford=True) == 0.48803  # the trailer after the Crawford game
    assert t.mwc(1, 2, post_crawford=True) == pytest.approx(1 - 0.48803)
    assert t.mwc(0, 3) == 1.0 and t.mwc(3, 0) == 0.0
    for i in range(25):
        for j in range(25):
            assert t.pre[i][j] + t.pre[j][i] == pytest.approx(1.0, abs=1e-5)


@pytest.mark.skipif(not INSTALLED.exists(), reason="GNU Backgammon's MET files (Debian package gnubg-data) are not installed")
def test_built_in_table_equals_the_installed_file() -> None:
    assert load_met(INSTALLED) == KAZAROSS_XG2


@pytest.mark.skipif(not MET_FOLDER.exists(), reason="GNU Backgammon's MET files (Debian package gnubg-data) are not installed")
def test_loads_every_explicit_table() -> None:
    loaded = 0
    for path in sorted(MET_FOLDER.glob("*.xml")):
        text = path.read_text()
        if "<met>" not in text:
            continue
        if 'type="explicit"' in text:
            table = load_met(path)
            assert table.length >= 10 and len(table.post[0]) == len(table.post[1]) == table.length
            loaded += 1
        else:
            with pytest.raises(InvalidNotationError, match="only explicit"):
                load_met(path)
    assert loaded >= 5
    jacobs = load_met(MET_FOLDER / "jac050.xml")  # one post-Crawford column per player
    assert jacobs.post[0] != jacobs.post[1]


GOOD = """<?xml version="1.0"?>
<met><info><name>tiny</name><description>two points</description><length>2</length></info>
<pre-crawford-table type="explicit"><row><me>0.5</me><me>0.7</me></row><row><me>0.3</me><me>0.5</me></row>
</pre-crawford-table><post-crawford-table type="explicit" player="both"><row><me>0.5</me><me>0.49</me></row>
</post-crawford-table></met>"""


def test_loads_a_small_table(tmp_path) -> None:
    path = tmp_path / "tiny.xml"
    path.write_text(GOOD)
    table = load_met(path)
    assert (table.name, table.length, table.pre[0][1], table.post[1][1]) == ("tiny", 2, 0.7, 0.49)
    with pytest.raises(InvalidArgumentError, match="up to 2 points"):
        table.mwc(3, 1)


@pytest.mark.parametrize("text, message", [
    ("not xml <", "not well-formed"),
    ("<table/>", "not <met>"),
    (GOOD.replace("<me>0.7</me>", "<me>seven</me>"), "not a number"),
    (GOOD.replace("<me>0.7</me>", "<me>1.7</me>"), "0..1"),
    (GOOD.replace("<length>2</length>", "<length>3</length>"), "3 rows of 3"),
    (GOOD.replace("<length>2</length>", "<length>two</length>"), "whole number"),
    (GOOD.replace("<length>2</length>", "<length>\u0662</length>"), "whole number"),  # Arabic-Indic 2
    (GOOD.replace("<me>0.7</me>", "<me>\u0660.\u0667</me>"), "not a number"),  # Arabic-Indic 0.7
    (GOOD.replace("<me>0.7</me>", "<me>0.7_0</me>"), "not a number"),
    (GOOD.replace("<me>0.7</me>", "<me>nan</me>"), "not a number"),
    (GOOD.replace('player="both"', 'player="2"'), "both, 0 or 1"),
    (GOOD.replace('player="both"', 'player="0"'), "misses player 1"),
    (GOOD.replace('type="explicit"', 'type="zadeh"', 1), "only explicit"),
    (GOOD.replace("<?xml version=\"1.0\"?>", "<!DOCTYPE met [<!ENTITY a 'b'>]>"), "no entities"),
])
def test_refuses_bad_files(tmp_path, text, message) -> None:
    path = tmp_path / "bad.xml"
    path.write_text(text)
    with pytest.raises(InvalidNotationError, match=message):
        load_met(path)


def test_refuses_what_is_not_a_file(tmp_path) -> None:
    with pytest.raises(InvalidArgumentError):
        load_met(tmp_path)
    with pytest.raises(InvalidArgumentError):
        load_met(3)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="absent.xml"):  # nardy's error, never FileNotFoundError
        load_met(tmp_path / "absent.xml")


@pytest.mark.parametrize("score", [Score(7, 7, False), Score(3, 5, False), Score(1, 4, True), Score(4, 1, False),
                                   Score(2, 2, False), Score(9, 2, False)])
@pytest.mark.parametrize("cube", [1, 2])
def test_equity_and_mwc_round_trip(score, cube) -> None:
    for equity in (-1.5, -1.0, -0.3, 0.0, 0.42, 1.0, 2.0):
        mwc = equity_to_mwc(equity, score, cube)
        if 0.0 <= mwc <= 1.0:
            assert mwc_to_equity(mwc, score, cube) == pytest.approx(equity)
        else:  # interpolated beyond the match's chances: not a match-winning chance to convert back
            with pytest.raises(InvalidArgumentError, match="mwc is a match-winning chance in 0..1"):
                mwc_to_equity(mwc, score, cube)
    assert equity_to_mwc(1.0, score, cube) == pytest.approx(outcome_mwc(score, cube))
    assert equity_to_mwc(-1.0, score, cube) == pytest.approx(outcome_mwc(score, -cube))


def test_gammon_values() -> None:
    # 2-away 2-away with the cube on 2: a single win ends the match, gammons are worthless
    assert gammon_values(Score(2, 2, False), cube=2) == (0.0, 0.0, 0.0, 0.0)
    # with the cube on 1 a gammon wins the match, a single game only reaches 1-away
    assert gammon_values(Score(2, 2, False))[0] > 1.0
    # Crawford game, the leader needs 1: its gammon wins nothing more; the trailer's gammon does
    win_g, lose_g, _, _ = gammon_values(Score(1, 4, True))
    assert win_g == 0.0 and lose_g > 0.5
    # 7-away 7-away: near money's 1
    win_g, lose_g, win_bg, lose_bg = gammon_values(Score(7, 7, False))
    assert 0.8 < win_g < 1.2 and 0.8 < lose_g < 1.2 and win_bg >= 0 and lose_bg >= 0


def test_state_conversions() -> None:
    state = MatchState(match_length=7, score=(2, 4), cube_value=2, cube_owner=0)  # White on roll, 3-away 5-away
    assert Score.of(state) == Score(3, 5, False, 1)
    assert mwc(1.0, state) == pytest.approx(KAZAROSS_XG2.mwc(1, 5))  # winning 2 points
    assert mwc(-1.0, state) == pytest.approx(KAZAROSS_XG2.mwc(3, 3))
    assert equity(mwc(0.3, state), state) == pytest.approx(0.3)
    with pytest.raises(InvalidArgumentError, match="money game has no match score"):
        Score.of(MatchState())


def test_the_public_functions_refuse_bad_arguments_with_nardys_error() -> None:
    import re

    import numpy as np

    from nardy.evaluation import met
    from nardy.errors import NardyError

    t = KAZAROSS_XG2
    match = MatchState(match_length=5, score=(1, 2))
    calls = {
        "whole numbers of points away": lambda: t.mwc(2.5, 3),
        "and player 5": lambda: t.mwc(1, 3, post_crawford=True, player=5),
        "player is gnubg's 0 or 1": lambda: Score.of(match, player=2),
        "a match state must be a MatchState": lambda: Score.of(None),  # type: ignore[arg-type]
        "whole numbers >= 1, got -3 and 100": lambda: Score(-3, 100, False),
        "table is a MatchEquityTable": lambda: Score(3, 3, False, table="x"),  # type: ignore[arg-type]
        "equity must be a finite number, got nan": lambda: met.mwc(float("nan"), match),
        "beyond the match length 5": lambda: met.equity(0.5, MatchState(match_length=5, score=(7, 2))),
        "cube is the cube's value": lambda: mwc_to_equity(0.1, Score(3, 3, False), 0),
        "points must be a whole number": lambda: outcome_mwc(Score(3, 3, False), 1.5),  # type: ignore[arg-type]
        "mwc is a match-winning chance in 0..1, got 2.0": lambda: mwc_to_equity(2.0, Score(3, 5, False)),
        "mwc is a match-winning chance in 0..1, got -0.1": lambda: met.equity(-0.1, match),
        "a Crawford game (crawford=True) is one where a side needs one point, not 3-away 5-away":
            lambda: Score(3, 5, True),
        "covers matches up to 25 points, not a score 30-away 5-away": lambda: Score(30, 5, False),
        "starts (or None, a roll-off) is True or False, got 'yes'": lambda: met.LONG.mwc(3, 5, starts="yes"),
        "mwc() takes whole numbers of points away, got '3' and 5": lambda: met.LONG.mwc("3", 5),  # type: ignore[arg-type]
        # each once a KeyError, an AttributeError or a made-up answer:
        "next_starter is one of 'winner', 'rolloff', 'black', got 'bogus'":
            lambda: met.LONG.outcome_mwc(3, 3, 1, "bogus", False),
        "black is True or False, got 'x'": lambda: met.LONG.outcome_mwc(3, 3, 1, "black", "x"),  # type: ignore[arg-type]
        "whole numbers of points away and points, got 3, 3 and 1.5":
            lambda: met.LONG.outcome_mwc(3, 3, 1.5, "winner", False),  # type: ignore[arg-type]
        "score must be a met.Score, got None": lambda: outcome_mwc(None, 1),  # type: ignore[arg-type]
        "score must be a met.Score, got 'x'": lambda: gammon_values("x"),  # type: ignore[arg-type]
        "a match is won by one side: not a score 0-away 0-away": lambda: t.mwc(0, 0),
        "not a score -1-away 0-away": lambda: met.LONG.mwc(-1, 0),
        "koks is True or False, got 'x'": lambda: met.long_table("x"),  # type: ignore[arg-type]
        "a power of 2 (1, 2, 4, ...), got 3": lambda: equity_to_mwc(0.5, Score(3, 5, False), 3),
    }
    for words, call in calls.items():
        with pytest.raises(NardyError, match=re.escape(words)):
            call()
    assert Score.of(match).away == 3 and t.mwc(np.int64(2), 3) == t.mwc(2, 3)
    assert Score(1, 5, True).post_crawford
    assert mwc_to_equity(0.0, Score(3, 5, False)) < -1.0 < 1.0 < mwc_to_equity(1.0, Score(3, 5, False))
    assert met.LONG.mwc(3, 5, starts=np.bool_(True)) == met.LONG.mwc(3, 5, starts=True)
