"""Type stub of the compiled batched environment (cython/nardy/_env.pyx)."""

from typing import Any

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

BOARD_FEATURES: int
OBSERVATION_FEATURES: int

@disjoint_base
class Games:
    n: int
    max_plies: int
    total: int
    state: npt.NDArray[np.int8]
    colors: npt.NDArray[np.int8]
    starters: npt.NDArray[np.int8]
    plies: npt.NDArray[np.int32]
    last_roll: npt.NDArray[np.bool_]
    chosen: npt.NDArray[np.int8]
    rewards: npt.NDArray[np.float64]
    terminated: npt.NDArray[np.bool_]
    truncated: npt.NDArray[np.bool_]
    winners: npt.NDArray[np.int8]
    points: npt.NDArray[np.int8]
    lengths: npt.NDArray[np.int32]
    offsets: npt.NDArray[np.int64]
    afterstates: npt.NDArray[np.int8]
    def __init__(self, n: int, rules: tuple[int, int, int, int, int], koks: bool, opening_dice: bool,
                 start: npt.NDArray[np.int8], generators: list[Any],
                 max_plies: int, first_mover: int = ...) -> None: ...
    def seed(self, generators: list[Any]) -> None: ...
    def reset(self) -> None: ...
    def step(self, actions: npt.NDArray[np.int64], skip: npt.NDArray[np.uint8] | None = ...) -> int: ...
    def sample(self) -> npt.NDArray[np.int64]: ...
    def argmax(self, values: npt.NDArray[np.float64]) -> npt.NDArray[np.int64]: ...
    def observation_features(self) -> npt.NDArray[np.float32]: ...
    def afterstate_features(self, out: npt.NDArray[np.float32] | None = ...) -> npt.NDArray[np.float32]: ...

def encode(boards: npt.NDArray[np.int8], variant: int, on_roll: bool,
           dice: npt.NDArray[np.int8] | None = ...,
           out: npt.NDArray[np.float32] | None = ...) -> npt.NDArray[np.float32]: ...
