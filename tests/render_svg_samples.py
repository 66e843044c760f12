"""Write sample SVG boards (and PNGs, if rsvg-convert or cairosvg is at hand) to look at.

    PYTHONPATH=src python tests/render_svg_samples.py [OUT_DIR]     # default /tmp/nardy-svg

Not a test (pytest does not collect it): the tests check the SVG's structure, this shows
whether it looks right. The rasteriser is for checking only, not a dependency of nardy.
"""

from __future__ import annotations

import pathlib
import shutil
import subprocess
import sys

from nardy import Color, Position
from nardy.formats.svg import board


def _played(variant: str, rolls: list[tuple[int, int]]) -> Position:
    """The position after playing, for each roll in turn, the middle one of its legal moves."""
    position = Position.start(variant)
    for dice in rolls:
        moves = position.legal_moves(dice)
        position = position.apply(moves[len(moves) // 2])
    return position


def samples() -> dict[str, str]:
    long_start, short_start = Position.start("long"), Position.start("short")
    long_mid = _played("long", [(6, 5), (4, 2), (3, 3), (6, 1), (5, 5), (2, 1), (6, 4), (5, 3), (4, 4), (6, 2), (3, 1), (5, 4)])
    long_mid_move = long_mid.legal_moves((6, 3))[0]
    short_bar = Position.from_points(
        "short",
        white={6: 4, 5: 3, 4: 2, 3: 1, 2: 1, 13: 1},
        black={24: 1, 23: 2, 20: 3, 19: 2, 18: 1, 1: 1},
        white_bar=1, black_bar=2, turn="white",
    )
    short_bar_move = short_bar.parse_move("bar/22 13/9", (4, 3))
    short_off = Position.from_points("short", white={1: 3, 2: 2, 3: 1}, black={19: 7, 22: 2, 24: 1}, turn="black")
    long_off = Position.from_points("long", white={1: 2, 3: 3, 5: 1}, black={13: 6, 15: 2, 17: 1, 14: 3}, turn="black")
    double = short_start.parse_move("8/4(2) 6/2(2)", (4, 4))
    return {
        "long_start": board(long_start, dice=(6, 5)),
        "long_start_move": board(long_start, move=long_start.parse_move("24/13", (6, 5))),
        "long_mid": board(long_mid, move=long_mid_move),
        "long_mid_black_bottom": board(long_mid, move=long_mid_move, bottom=Color.BLACK),
        "long_mid_home_left": board(long_mid, move=long_mid_move, home="left"),
        "long_bear_off": board(long_off, dice=(2, 2)),
        "short_start": board(short_start, move=short_start.parse_move("24/13", (6, 5))),
        "short_start_double": board(short_start, move=double),
        "short_bar": board(short_bar, move=short_bar_move),
        "short_bar_black_bottom": board(short_bar, move=short_bar_move, bottom="black"),
        "short_bear_off": board(short_off, move=short_off.parse_move("6/off 6/4", (6, 2)), home="left"),
        "short_plain": board(short_bar, show_pips=False, show_numbers=False, size=300),
        "short_match_after": board(short_bar, move=short_bar_move, after=True, cube=4, cube_owner="black",
                                   score=(3, 5), match_length=7, names=("Ann", "Bob")),
        "short_black_on_roll_centred_cube": board(short_off, dice=(6, 2), cube=1, score=(0, 0), match_length=0),
        "long_black_on_roll_white_numbers": board(long_off, dice=(2, 2), numbers="white"),
    }


def _rasterise(svg: pathlib.Path) -> pathlib.Path | None:
    png = svg.with_suffix(".png")
    if shutil.which("rsvg-convert"):
        subprocess.run(["rsvg-convert", "-z", "1.5", str(svg), "-o", str(png)], check=True)
        return png
    try:
        import cairosvg  # type: ignore[import-not-found]
    except ImportError:
        return None
    cairosvg.svg2png(url=str(svg), write_to=str(png), scale=1.5)
    return png


def main(out: str = "/tmp/nardy-svg") -> None:
    folder = pathlib.Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in samples().items():
        path = folder / f"{name}.svg"
        path.write_text(text, encoding="utf-8")
        png = _rasterise(path)
        print(png or path)


if __name__ == "__main__":
    main(*sys.argv[1:])
