"""Type stub of the compiled self-play loop (cython/nardy/_simulate.pyx)."""

from typing import Any

import numpy as np
import numpy.typing as npt

POLICIES: dict[str, int]

def play_games(
    games: int, bit_generator: np.random.BitGenerator, rules: tuple[int, int, int, int, int], koks: bool,
    opening_dice: bool, policy: int, start: npt.NDArray[np.int8], first_mover: int = ..., record: bool = ...,
) -> dict[str, Any]: ...
