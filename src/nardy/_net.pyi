"""Type stub of the compiled evaluator forward pass (cython/nardy/_net.pyx)."""

import numpy as np
import numpy.typing as npt

MAX_HIDDEN: int
POINT_ROWS: int
INPUT_ROWS: int
FEATURES: int

def forward(boards: npt.NDArray[np.int8], short_game: bool, flip: bool, points: npt.NDArray[np.float32],
            rows: npt.NDArray[np.float32], bias: npt.NDArray[np.float32], w2: npt.NDArray[np.float32], b2: npt.NDArray[np.float32],
            out: npt.NDArray[np.float32], keep: int) -> None: ...
def features(boards: npt.NDArray[np.int8], short_game: bool, flip: bool) -> npt.NDArray[np.float32]: ...
def homes(boards: npt.NDArray[np.int8], short_game: bool) -> npt.NDArray[np.uint8]: ...
