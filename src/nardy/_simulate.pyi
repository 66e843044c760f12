"""Type stub of the compiled self-play loop (cython/nardy/_simulate.pyx)."""

from typing import Any

import numpy as np
import numpy.typing as npt

POLICIES: dict[str, int]
MAX_PLIES: int

def play_games(
    games: int, bit_generator: np.random.BitGenerator, rules: tuple[int, int, int, int, int], koks: bool,
    opening_dice: bool, policy: int, start: npt.NDArray[np.int8], first_mover: int = ..., record: bool = ...,
    bearoff: npt.NDArray[np.float64] | None = ..., max_plies: int = ..., stop: npt.NDArray[np.int8] | None = ...,
) -> dict[str, Any]: ...
def race_turns(
    views: npt.NDArray[np.int8], trials: int, bit_generator: np.random.BitGenerator,
    rules: tuple[int, int, int, int, int], bearoff: npt.NDArray[np.float64],
) -> npt.NDArray[np.float64]: ...
