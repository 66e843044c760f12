"""tests/data/bglab/positions.txt, the human matches' positions `benchmarks/cube_agreement.py
--real` asks gnubg and nardy about: every line is a gnubg Position ID and Match ID, and within a
game each position follows the one before by a legal play of its dice (a copying error would
break the chain)."""

from __future__ import annotations

from pathlib import Path

from nardy import Color, Rules
from nardy.formats.ids import parse_match_id
from nardy.position import position_from_id

DATA = Path(__file__).parent.parent / "data" / "bglab" / "positions.txt"


def games() -> list[list[tuple[str, str]]]:
    found: list[list[tuple[str, str]]] = []
    for line in DATA.read_text(encoding="utf-8").splitlines():
        if line.startswith("# ") and "(game" in line:
            found.append([])
        elif line.strip() and not line.startswith("#"):
            position_id, match_id = line.split(":")
            found[-1].append((position_id, match_id))
    return found


def test_every_game_is_a_chain_of_legal_plays() -> None:
    short = Rules("short")
    seen = set()
    for game in games():
        before = None
        for position_id, match_id in game:
            state = parse_match_id(match_id)
            position = position_from_id(position_id, Color.WHITE if state.on_roll == 1 else Color.BLACK)
            seen.add((position.view(), position.turn))
            if before is not None and before[1].dice is not None:
                results = {child.view() for child in before[0].children(before[1].dice, short)}
                assert position.view() in results, (position_id, match_id)
            elif before is not None:  # a cube action: the same position
                assert position.view() == before[0].view(), (position_id, match_id)
            before = (position, state)
    assert len(games()) == 10 and len(seen) >= 330
