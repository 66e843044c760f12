"""A net's weights as the compiled forward pass reads them: the point inputs folded into one row.

Many inputs are sums over the points of something of one point's count alone: a point's four
TD-Gammon units, the borne-off and head units, and of the expert inputs (docs/evaluator-inputs.md)
pips, blots, home board, anchors, back checkers, timing and race lead in short nardy; pips, head,
back half, home points, home checkers and race lead in long nardy. Their rows are folded into one
row per side, point and count (what a point adds to the hidden layer), their constant parts into
the bias, and the bar's share (short nardy) into the row of the bar's unit. The core then adds a
row per occupied point and the rows of the inputs left: the bars and the other expert inputs.
Folding is exact arithmetic on the weights, done in float64 and rounded once, so the outputs stay
within float32 rounding of `Net.forward_reference`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from .._backend import compiled

FEATURES = 198      # the first expert input's unit
SIDE = 13           # expert inputs of each side: us 198 + i, them 198 + 13 + i
RACE_LEAD = FEATURES + 2 * SIDE
# the expert inputs (each side's index) folded into the point rows
FOLDED = {"short": (0, 2, 4, 6, 9, 10), "long": (0, 1, 2, 10, 11)}


class Tables(NamedTuple):
    points: npt.NDArray[np.float32]   # (POINT_ROWS, hidden): row 0 zeros, then side, point, count
    rows: npt.NDArray[np.float32]     # (INPUT_ROWS, hidden): units 96, 97, 194, 195, the expert inputs
    bias: npt.NDArray[np.float32]     # (hidden,)
    keep: int                         # bit e: the core adds input e times rows[e]


def point_values(variant: str, units: int) -> npt.NDArray[np.float64]:
    """(2, 24, 15, units): the part of every input that n = 1..15 checkers of side s (0: the
    side on roll, 1: the other) on its own point q = 1..24 contribute."""
    count = np.arange(1, 16, dtype=np.float64)
    per_count = np.stack([count >= 1, count >= 2, count >= 3, np.maximum(count - 3, 0) / 2], axis=1)
    n, q = count[None, :], np.arange(1, 25, dtype=np.float64)[:, None]
    v = np.zeros((2, 24, 15, units))
    for s in (0, 1):
        unit, side = 98 * s, v[s]
        for i in range(24):
            side[i, :, unit + 4 * i:unit + 4 * i + 4] = per_count
        if variant == "short":
            side[..., unit + 97] = -n / 15                                  # borne off (its 1: the bias)
        else:
            side[..., unit + 96] = -n / 15                                  # borne off
            side[23, 14, unit + 97] = 1                                     # all 15 on the head
        if units == FEATURES:
            continue
        f = FEATURES + SIDE * s
        side[..., f] = q * n / 100                                          # pips
        side[..., RACE_LEAD] = (1 if s else -1) * q * n / 100               # their pips - ours
        if variant == "short":
            side[..., f + 2] = (n == 1) / 8                                 # blots
            side[..., f + 4] = (n >= 2) * (q <= 6) / 6                      # home board points
            side[..., f + 6] = (n >= 2) * (q >= 19) / 3                     # anchors
            side[..., f + 9] = n * (q >= 19) / 5                            # back checkers
            side[..., f + 10] = n * np.maximum(q - 6, 0) / 100              # timing
        else:
            side[..., f + 1] = n * (q == 24) / 15                           # head
            side[..., f + 2] = n * (q >= 13) / 15                           # back half
            side[..., f + 10] = (n >= 1) * (q <= 6) / 6                     # home points held
            side[..., f + 11] = n * (q <= 6) / 15                           # home checkers
    return v


def bar_values(units: int) -> npt.NDArray[np.float64]:
    """(2, units), short nardy: what each checker of side s on its bar contributes."""
    v = np.zeros((2, units))
    for s in (0, 1):
        v[s, 98 * s + 96] = 0.5
        v[s, 98 * s + 97] = -1 / 15
        if units > FEATURES:
            f = FEATURES + SIDE * s
            v[s, f] = 0.25                                                  # pips: the bar counts 25
            v[s, f + 9] = 0.2                                               # a back checker
            v[s, f + 10] = 0.19                                             # timing: 25 - 6
            v[s, RACE_LEAD] = 0.25 if s else -0.25
    return v


def tables(variant: str, w1: npt.NDArray[np.float32], b1: npt.NDArray[np.float32]) -> Tables:
    """The core's tables of a net of `variant` ("long" or "short") with first layer w1, b1."""
    units, hidden = w1.shape
    w = w1.astype(np.float64)
    points = point_values(variant, units).reshape(-1, units) @ w
    rows = np.zeros((compiled.INPUT_ROWS, hidden))
    bias = b1.astype(np.float64) + w[196]                                   # we are on roll
    if variant == "short":
        bias += w[97] + w[195]                                              # borne off: 15 / 15, less each checker
        bars = bar_values(units) @ w
        rows[0], rows[2] = 2 * bars[0], 2 * bars[1]                         # (the core's input: the bar / 2)
        keep = 0b0101
    else:
        bias += w[96] + w[194]
        keep = 0
    if units > FEATURES:
        for e in range(units - FEATURES):
            if not (e < 2 * SIDE and e % SIDE in FOLDED[variant] or FEATURES + e == RACE_LEAD):
                rows[4 + e] = w[FEATURES + e]
                keep |= 1 << (4 + e)
    return Tables(np.concatenate([np.zeros((1, hidden)), points]).astype(np.float32),
                  rows.astype(np.float32), bias.astype(np.float32), keep)


__all__ = ["FOLDED", "Tables", "bar_values", "point_values", "tables"]
