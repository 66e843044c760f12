"""Type stub of the compiled evaluator forward pass (cython/nardy/_net.pyx)."""

import numpy as np
import numpy.typing as npt

MAX_HIDDEN: int
POINT_ROWS: int
INPUT_ROWS: int
FEATURES: int

_F = npt.NDArray[np.float32]
_Tables = tuple[_F, _F, _F, _F, _F, int]   # points, rows, bias, w2, b2, keep

def forward(boards: npt.NDArray[np.int8], short_game: bool, flip: bool, out: _F,
            nets: tuple[_Tables, ...], late: int = 0) -> None: ...   # one, two or three
def features(boards: npt.NDArray[np.int8], short_game: bool, flip: bool) -> npt.NDArray[np.float32]: ...
def homes(boards: npt.NDArray[np.int8], short_game: bool) -> npt.NDArray[np.uint8]: ...
