"""Judge positions: a small neural evaluator per variant, and the plays it ranks.

`evaluate(positions)` gives, for each position and the side on roll, the five probabilities
of GNU Backgammon's evaluations: P(win), P(win a gammon / mars), P(win a backgammon / koks),
P(lose a gammon / mars), P(lose a backgammon / koks), all cubeless; `equity(probs)` is the
cubeless money equity 2 P(win) - 1 + P(wg) + P(wbg) - P(lg) - P(lbg) (backgammon and koks
count one point above a gammon and mars; without the koks option the net's koks outputs are
trained to 0). Finished games and pure bear-offs within the bear-off table get the exact
answer (`nardy.evaluation.bearoff`); every other position gets the net's. There is no draw among the
outputs: under long nardy's `last_roll_draw` option the probabilities are those of the game
without it (the last roll's chance to draw is not modelled), while the plays ranked are the
legal plays under the rules given.

The net (`Net`) is one hidden layer over TD-Gammon's 198 input units of the side on roll
(`nardy.play.env.encode`), softsign hidden units and five logistic outputs; its forward pass runs
in the compiled core over whole batches of boards without the GIL, reading each board's units
straight off its row. `rank(position, dice)` lists every legal play with the equity of its
result, best first; `best_move` is the first. `ply=1` looks one roll ahead: each of the best
0-ply candidates is judged by the 21 rolls of the other side, each answered by its best 0-ply
reply. `ply=2` looks two rolls ahead: the result of each such reply is judged in turn at 1 ply
(by the mover's 21 rolls and its best 0-ply answers).

The shipped nets (package data `nardy/evaluation/nets/long.npz`, `short.npz`) are made by
`python -m nardy.evaluation.training` (their `meta["command"]` says how).
"""

from __future__ import annotations

import json
import math
import os
import struct
import tokenize
import zipfile
import zlib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np
import numpy.typing as npt

from .. import batch, files
from .._backend import compiled
from ..errors import IllegalMoveError, InvalidArgumentError, InvalidPositionError, check_flag, check_whole, is_whole, \
    quoted
from ..game import Game
from ..move import Move
from ..play.env import encode
from ..position import Position
from ..rules import Rules, Variant, rules_for
from ..status import Status, describe
from . import bearoff, folding
from .cubemath import INCONSISTENT, inconsistent, play_equity, raw_equity as raw_equity, \
    swap_sides as swap_sides  # (their home: no net needed)

if TYPE_CHECKING:
    from ..formats.ids import MatchState

FORMAT = "nardy-net"
FORMAT_VERSION = 2        # 2: the header names the net's inputs and phase (version 1: "td198", "any")
UNITS = 198
EXPERT_UNITS = 28         # the expert inputs (docs/evaluator-inputs.md) that follow the 198 with inputs="expert"
THEIR_PIPS = 13           # the expert input of the side not on roll's pips / 100 (the first of its 13)
INPUTS = {"td198": UNITS, "expert": UNITS + EXPERT_UNITS}   # input set -> rows of w1
PHASES = ("any", "contact", "race", "early", "late")   # a net's phase (`NetSet`)
LATE_PIPS = {Variant.SHORT: 125, Variant.LONG: 205}   # "late": contact, the side not on roll at most this many pips
OUTPUTS = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]        # the 21 rolls, larger die second
ROLL_WEIGHTS = np.array([1 if a == b else 2 for a, b in ROLLS], np.float64) / 36
PLIES = (0, 1, 2)         # the lookaheads rank offers
PRUNE_KEEP = 16           # ply 1 and 2 look ahead from at most this many 0-ply candidates...
PRUNE_WINDOW = 0.24       # ...within this much equity of the best (docs/evaluator.md, "Decision benchmarks")

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class Net:
    """A trained evaluator: w1 (units, hidden), b1 (hidden,), w2 (5, hidden), b2 (5,) float32.

    `inputs`: "td198" (TD-Gammon's 198 units, `nardy.play.env.encode`) or "expert" (those and the 28
    expert inputs of docs/evaluator-inputs.md, 226 rows of w1). `phase`: the positions the net
    was trained for, "any", "contact", "race", "early" or "late" (see `NetSet`)."""

    variant: Variant
    w1: npt.NDArray[np.float32]
    b1: npt.NDArray[np.float32]
    w2: npt.NDArray[np.float32]
    b2: npt.NDArray[np.float32]
    meta: dict[str, Any] = field(default_factory=dict)
    inputs: str = "td198"
    phase: str = "any"
    # what the core's forward pass reads besides w2 and b2 (`folding.tables`), made by __post_init__
    _tables: folding.Tables = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.meta, dict):
            raise InvalidArgumentError(f"a net's meta is a dict, got {quoted(self.meta)}")
        if not isinstance(self.inputs, str) or self.inputs not in INPUTS:
            raise InvalidArgumentError(f"a net's inputs are one of {', '.join(INPUTS)}, got {quoted(self.inputs)}")
        if not isinstance(self.phase, str) or self.phase not in PHASES:
            raise InvalidArgumentError(f"a net's phase is one of {', '.join(PHASES)}, got {quoted(self.phase)}")
        units = INPUTS[self.inputs]
        hidden = np.shape(self.w1)[1] if np.ndim(self.w1) == 2 else -1
        shapes = {"w1": (units, hidden), "b1": (hidden,), "w2": (len(OUTPUTS), hidden), "b2": (len(OUTPUTS),)}
        if not (1 <= hidden <= compiled.MAX_HIDDEN and hidden % 8 == 0):
            raise InvalidArgumentError(f"a net has a multiple of 8 hidden units, at most {compiled.MAX_HIDDEN}, "
                                       f"got w1 of shape {np.shape(self.w1)}")
        for name, shape in shapes.items():
            given = getattr(self, name)
            try:
                value = np.asarray(given)
                if value.dtype.kind not in "iuf":  # (a complex one would lose its imaginary part)
                    raise TypeError(f"of {value.dtype}")
                with np.errstate(over="ignore"):  # (beyond float32's range: infinite, refused below)
                    value = np.ascontiguousarray(value, np.float32)
            except (TypeError, ValueError) as exc:
                raise InvalidArgumentError(f"net {name} must be an array of real numbers: {exc}") from None
            if value.shape != shape or not np.isfinite(value).all():
                raise InvalidArgumentError(f"net {name} must be a finite {shape} array, got {np.shape(getattr(self, name))}")
            value.setflags(write=False)
            object.__setattr__(self, name, value)
        object.__setattr__(self, "variant", Variant.parse(self.variant))
        self._check_sums()
        object.__setattr__(self, "_tables", folding.tables(self.variant.value, self.w1, self.b1))

    def _check_sums(self) -> None:
        """Refuse weights whose sums could overflow float32 in the forward pass (a hidden unit's
        input: its bias and every input unit, each at most 7.5, times its weight; an output's: its
        bias and every hidden unit, each within -1..1, times its weight): finite weights near
        float32's limit gave NaN outputs, which `evaluate` turned into [1, 1, 1, 0, 0]. Within
        this bound every output of the net is finite."""
        limit = float(np.finfo(np.float32).max) / 2
        reach = np.abs(self.b1.astype(np.float64)) + 7.5 * np.abs(self.w1.astype(np.float64)).sum(axis=0)
        out_reach = np.abs(self.b2.astype(np.float64)) + np.abs(self.w2.astype(np.float64)).sum(axis=1)
        if reach.max() > limit or out_reach.max() > limit:
            raise InvalidArgumentError(f"net weights so large that the forward pass would overflow float32 "
                                       f"(a sum reaches {max(reach.max(), out_reach.max()):.3g}, "
                                       f"at most {limit:.3g})")

    @property
    def hidden(self) -> int:
        return int(self.w1.shape[1])

    @property
    def expert(self) -> bool:
        return self.inputs == "expert"

    @classmethod
    def initial(cls, variant: Variant | str, hidden: int = 64, *, seed: int = 0, inputs: str = "td198",
                phase: str = "any") -> Net:
        """An untrained net: small random weights (the start of training)."""
        check_whole(hidden, "hidden (the net's hidden units, a multiple of 8)", 8, compiled.MAX_HIDDEN)
        if hidden % 8:
            raise InvalidArgumentError(f"hidden (the net's hidden units) must be a multiple of 8, got {hidden}")
        check_whole(seed, "seed", 0)
        if not isinstance(inputs, str) or inputs not in INPUTS:
            raise InvalidArgumentError(f"a net's inputs are one of {', '.join(INPUTS)}, got {quoted(inputs)}")
        rng = np.random.default_rng(seed)
        w1, w2 = (rng.normal(0, 0.1, shape).astype(np.float32) for shape in ((INPUTS[inputs], hidden), (len(OUTPUTS), hidden)))
        return cls(Variant.parse(variant), w1, np.zeros(hidden, np.float32), w2, np.zeros(len(OUTPUTS), np.float32),
                   inputs=inputs, phase=phase)

    def widened(self, hidden: int, *, seed: int = 0, noise: float = 0.0) -> Net:
        """The same net with `hidden` units (a multiple of this one's): each unit copied, the copies
        sharing its output weights, so it judges as this one does (to float rounding). `noise`
        adds seeded normal noise of that share of the mean absolute input weight to the input
        weights, which lets a fit move the copies apart."""
        check_whole(hidden, "hidden (the widened net's units)", self.hidden, compiled.MAX_HIDDEN)
        if hidden % self.hidden:
            raise InvalidArgumentError(f"a net of {self.hidden} hidden units widens to a multiple of {self.hidden}, "
                                       f"got {hidden}")
        check_whole(seed, "seed", 0)
        if isinstance(noise, bool) or not isinstance(noise, (int, float)) or not 0 <= noise < math.inf:
            raise InvalidArgumentError(f"noise is a share >= 0, got {quoted(noise)}")
        copies = hidden // self.hidden
        w1 = np.tile(self.w1.astype(np.float64), copies)
        if noise:
            w1 += np.random.default_rng(seed).normal(0, noise * float(np.abs(self.w1).mean()), w1.shape)
        return Net(self.variant, w1.astype(np.float32), np.tile(self.b1, copies), np.tile(self.w2 / copies, copies),
                   self.b2, meta=dict(self.meta), inputs=self.inputs, phase=self.phase)

    def with_meta(self, meta: dict[str, Any]) -> Net:
        """The same weights, inputs and phase with another meta (a dict)."""
        if not isinstance(meta, dict):
            raise InvalidArgumentError(f"a net's meta is a dict, got {quoted(meta)}")
        return Net(self.variant, self.w1, self.b1, self.w2, self.b2, meta=dict(meta), inputs=self.inputs,
                   phase=self.phase)

    def save(self, path: str | Path) -> None:
        """Write the net as .npz: the four arrays and a JSON header (format, version, variant, meta;
        from version 2 on, inputs and phase: a net of TD-Gammon's inputs for any phase is written as
        version 1), whole or not at all (`nardy.files.write_file`)."""
        files.check_path(path, "a net is saved to")
        fields: dict[str, Any] = {"format": FORMAT, "version": 1, "variant": self.variant.value, "meta": self.meta}
        if (self.inputs, self.phase) != ("td198", "any"):   # (a net of version 1's kind stays readable by older nardy)
            fields.update(version=FORMAT_VERSION, inputs=self.inputs, phase=self.phase)
        try:
            header = json.dumps(fields, sort_keys=True, allow_nan=False)   # (NaN is not JSON)
        except (TypeError, ValueError, RecursionError) as exc:
            raise InvalidArgumentError(f"a net's meta must be JSON: {exc}") from None
        if len(header) > HEADER_LIMIT:
            raise InvalidArgumentError(f"a net's header (its meta as JSON) has {len(header)} characters, "
                                       f"at most {HEADER_LIMIT}")
        files.write_file(path, lambda f: np.savez(f, header=np.array(header), w1=self.w1, b1=self.b1, w2=self.w2,
                                                  b2=self.b2), binary=True)

    @classmethod
    def load(cls, path: str | Path) -> Net:
        """Read a net written by `save`; `InvalidArgumentError` naming the file and what is wrong.
        Every member's declared size, type and shape is checked against what a net needs before
        any of its data is read (`_read_net_file`)."""
        files.check_path(path, "a net is read from")
        try:
            with files.open_regular(path) as f:
                header, arrays = _read_net_file(f)
        except InvalidArgumentError:  # (not a regular file: said by open_regular)
            raise
        except _NotANet as exc:
            raise InvalidArgumentError(f"{path}: not a nardy net file ({exc})") from None
        except _DAMAGED as exc:
            raise InvalidArgumentError(f"{path}: not a nardy net file ({type(exc).__name__}: {exc})") from None
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise InvalidArgumentError(f"{path}: not a nardy net file (header {quoted(header)})")
        meta = header.get("meta", {})
        variant = header.get("variant")
        if not isinstance(meta, dict) or not (isinstance(variant, str) and variant.lower() in ("long", "short")):
            raise InvalidArgumentError(f"{path}: a net file's header needs a variant and a meta object (the "
                                       f"variant 'long' or 'short'), got {quoted(header)}")
        try:
            return cls(Variant.parse(variant), meta=dict(meta), inputs=header.get("inputs", "td198"),
                       phase=header.get("phase", "any"), **arrays)
        except InvalidArgumentError as exc:
            raise InvalidArgumentError(f"{path}: {exc}") from None

    def forward(self, boards: Any, *, after: bool = False) -> npt.NDArray[np.float32]:
        """The raw outputs (m, 5) float32 for each board (mover's view; `after`: an afterstate,
        the other side on roll, outputs for that side), with no exact answers substituted."""
        rows = batch.as_boards(boards)
        out = np.empty((len(rows), len(OUTPUTS)), np.float32)
        compiled.forward(rows, self.variant is Variant.SHORT, after, out, (self._weights(),))
        return out

    def _weights(self) -> tuple[Any, ...]:
        """What the core's forward pass reads (`compiled.forward`'s tables of one net)."""
        t = self._tables
        return (t.points, t.rows, t.bias, self.w2, self.b2, t.keep)

    def inputs_of(self, boards: Any) -> npt.NDArray[np.float32]:
        """The net's input units (m, units) of mover's-view boards, the positive side on roll (what
        training fits)."""
        rows = batch.as_boards(boards)
        x = encode(rows, self.variant, on_roll=True)
        if not self.expert:
            return x
        return np.concatenate([x, compiled.features(np.ascontiguousarray(rows, np.int8), self.variant is Variant.SHORT,
                                                    False)], axis=1)

    def forward_reference(self, boards: Any, *, after: bool = False) -> npt.NDArray[np.float64]:
        """`forward` in numpy from `nardy.play.env.encode`'s units (the definition the core is tested against)."""
        rows = batch.as_boards(boards)
        if after:
            rows = batch.flip(rows, self.variant)
        x = self.inputs_of(rows).astype(np.float64)
        h = x @ self.w1 + self.b1
        h = h / (1 + np.abs(h))
        outputs: Floats = 1 / (1 + np.exp(-(h @ self.w2.T + self.b2)))
        return outputs


@dataclass(frozen=True, eq=False)
class NetSet:
    """A net per phase: `race` judges the races, `contact` the boards where a checker of either
    side has still to pass one of the other's (expert input 27); with `late`, those of them where
    the side not on roll has at most `LATE_PIPS` pips go to `late` instead (the phases "early"
    and "late": every play of one roll leaves the mover's pips alike but for a hit in short
    nardy, so the plays of a roll are almost always judged by one net). The contact net's phase
    is "contact" or "any", or with `late` "early"; the race net's "race", the late net's "late";
    all of one variant. Used wherever a `Net` is."""

    contact: Net
    race: Net
    late: Net | None = None
    ROLES = ("contact", "race", "late")   # (a class constant: the fields' names, in the order of `nets`)

    def __post_init__(self) -> None:
        nets = self.nets
        if not all(isinstance(net, Net) for net in nets):
            raise InvalidArgumentError(f"a NetSet holds two or three nardy.evaluation.net.Net, got "
                                       f"{', '.join(quoted(net) for net in nets)}")
        if any(net.variant is not self.contact.variant for net in nets):
            raise InvalidArgumentError("a NetSet's nets judge one variant")
        phases = tuple(net.phase for net in nets)
        if not (phases in (("contact", "race"), ("any", "race"), ("early", "race", "late"))):
            raise InvalidArgumentError(f"a NetSet's nets have the phases contact (or any) and race, or early, race and "
                                       f"late; got {', '.join(map(repr, phases))}")

    @property
    def nets(self) -> tuple[Net, ...]:
        """The nets, in the order of the constructor: contact, race[, late]."""
        return (self.contact, self.race) if self.late is None else (self.contact, self.race, self.late)

    @property
    def variant(self) -> Variant:
        return self.contact.variant

    @property
    def meta(self) -> dict[str, Any]:
        return {role: net.meta for role, net in zip(self.ROLES, self.nets)}

    @classmethod
    def load(cls, contact: str | Path, race: str | Path, late: str | Path | None = None) -> NetSet:
        """The nets of `Net.load`."""
        return cls(Net.load(contact), Net.load(race), None if late is None else Net.load(late))

    def forward(self, boards: Any, *, after: bool = False) -> npt.NDArray[np.float32]:
        """`Net.forward`, each board by the net of its phase (in one pass of the core when the
        nets have one hidden size)."""
        rows = batch.as_boards(boards)
        out = np.empty((len(rows), len(OUTPUTS)), np.float32)
        nets = self.nets
        if len({net.hidden for net in nets}) == 1:
            compiled.forward(rows, self.variant is Variant.SHORT, after, out, tuple(net._weights() for net in nets),
                             LATE_PIPS[self.variant])
            return out
        which = phase_rows(rows, self.variant, after=after, late=self.late is not None)
        for k, net in enumerate(nets):
            if (which == k).any():
                out[which == k] = net.forward(rows[which == k], after=after)
        return out


def contact(boards: Any, variant: Variant | str) -> npt.NDArray[np.bool_]:
    """Whether a checker of either side has still to pass one of the other's, for each board
    (the other boards are races: a `NetSet` judges them by its race net)."""
    rows = np.ascontiguousarray(batch.as_boards(boards), np.int8)
    return compiled.features(rows, Variant.parse(variant) is Variant.SHORT, False)[:, EXPERT_UNITS - 1] > 0


def phase_rows(boards: Any, variant: Variant | str, *, after: bool = False, late: bool = True) -> npt.NDArray[np.int8]:
    """Each board's net in a `NetSet`, its index in `NetSet.nets` (int8): 0 contact (early), 1
    race, 2 late (with `late`: contact where the side not on roll, the positive side of an
    afterstate (`after`), has at most `LATE_PIPS` pips). Read off the expert inputs the core
    decides by: the contact input and the other side's pip count."""
    rows = np.ascontiguousarray(batch.as_boards(boards), np.int8)
    variant = Variant.parse(variant)
    x = compiled.features(rows, variant is Variant.SHORT, after)
    which = np.where(x[:, EXPERT_UNITS - 1] > 0, 0, 1).astype(np.int8)
    if late:
        resting = np.rint(x[:, THEIR_PIPS] * 100)
        which[(which == 0) & (resting <= LATE_PIPS[variant])] = 2
    return which


# a net file (`Net.save`): an uncompressed or deflated zip of five .npy members, nothing else
_MEMBERS = ("header", "w1", "b1", "w2", "b2")
HEADER_LIMIT = 1 << 16    # characters of a net file's JSON header (`Net.save` writes no more)
FILE_LIMIT = 1 << 20      # bytes of a net file: the header (4 bytes a character) and the largest float64 net


class _NotANet(ValueError):
    """What is wrong with a net file, found by `_read_net_file`'s own checks."""


# what a damaged zip or .npy header can raise from the standard library and numpy's readers
_DAMAGED = (OSError, EOFError, ValueError, TypeError, KeyError, SyntaxError, RuntimeError, NotImplementedError,
            struct.error, zlib.error, tokenize.TokenError, zipfile.BadZipFile)


def _read_net_file(f: Any) -> tuple[Any, dict[str, npt.NDArray[Any]]]:
    """The JSON header and the four arrays of an open net file. Its zip directory (the member
    names, their compression) and each member's .npy header (dtype, shape, order) are checked,
    and each member's declared size against what that shape needs, before any data is read: a
    damaged file cannot make numpy allocate or inflate more than a net holds. Anything wrong is a
    `_NotANet`, or one of `_DAMAGED` from the zip and .npy readers."""
    size = os.fstat(f.fileno()).st_size
    if size > FILE_LIMIT:
        raise _NotANet(f"{size} bytes, a net file has at most {FILE_LIMIT}")
    with zipfile.ZipFile(f) as archive:
        infos = archive.infolist()
        names = sorted(info.filename for info in infos)
        if names != sorted(f"{name}.npy" for name in _MEMBERS):
            raise _NotANet(f"members {quoted(names, 200)}, a net has {', '.join(n + '.npy' for n in _MEMBERS)}")
        for info in infos:
            if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED) or info.flag_bits & 1:
                raise _NotANet(f"{info.filename} is encrypted or compressed by method {info.compress_type}, "
                               f"a net file's members are stored or deflated")
        members = {info.filename[:-4]: info for info in infos}
        text = _read_member(archive, members["header"], lambda shape, dtype: shape == () and dtype.kind == "U"
                            and dtype.itemsize <= 4 * HEADER_LIMIT, f"a text of at most {HEADER_LIMIT} characters")
        header = json.loads(str(text[0]))
        units = _units_of(header)
        w1_shape = _npy_header(archive, members["w1"])[0]
        hidden = w1_shape[1] if len(w1_shape) == 2 else -1
        if not (8 <= hidden <= compiled.MAX_HIDDEN and hidden % 8 == 0):
            raise _NotANet(f"w1 of shape {quoted(w1_shape)}, a net's is ({units}, hidden), "
                           f"hidden a multiple of 8 up to {compiled.MAX_HIDDEN}")
        shapes = {"w1": (units, hidden), "b1": (hidden,), "w2": (len(OUTPUTS), hidden), "b2": (len(OUTPUTS),)}
        arrays = {name: _read_member(archive, members[name],
                                     lambda shape, dtype, want=want: shape == want and dtype.kind == "f"
                                     and dtype.itemsize in (4, 8), f"{want} float32 or float64")
                  for name, want in shapes.items()}
    return header, arrays


def _units_of(header: Any) -> int:
    """The rows of w1 a net file's header asks for (its version and inputs checked)."""
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise _NotANet(f"header {quoted(header)}")
    version = header.get("version")
    if version not in (1, FORMAT_VERSION) or isinstance(version, bool):
        raise _NotANet(f"net format version {quoted(version)}, this nardy reads 1 and {FORMAT_VERSION}")
    if version == 1 and ("inputs" in header or "phase" in header):
        raise _NotANet("a version 1 header has no inputs or phase")
    inputs, phase = header.get("inputs", "td198"), header.get("phase", "any")
    if not isinstance(inputs, str) or not isinstance(phase, str) or inputs not in INPUTS or phase not in PHASES:
        raise _NotANet(f"inputs {quoted(inputs)} and phase {quoted(phase)}: the inputs are one of "
                       f"{', '.join(INPUTS)}, the phase one of {', '.join(PHASES)}")
    return INPUTS[inputs]


def _npy_header(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> tuple[Any, bool, np.dtype[Any], int]:
    """Shape, Fortran order, dtype and data offset of a member's .npy header (numpy's reader,
    versions 1.0 and 2.0, no pickles: a header of only literals)."""
    from numpy.lib import format as npy

    with archive.open(info) as member:
        version = npy.read_magic(member)
        if version not in ((1, 0), (2, 0)):
            raise _NotANet(f"{info.filename} is .npy version {version}, a net file's are 1.0 or 2.0")
        read = npy.read_array_header_1_0 if version == (1, 0) else npy.read_array_header_2_0
        shape, fortran, dtype = read(member, max_header_size=1000)
        return shape, fortran, dtype, member.tell()


def _read_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, fits: Any, wanted: str) -> npt.NDArray[Any]:
    """The array of a member whose shape and dtype `fits` (`wanted` says what that is) and whose
    declared size is its header and exactly that data; read only once all that holds."""
    shape, fortran, dtype, offset = _npy_header(archive, info)
    if dtype.hasobject or not fits(shape, dtype):
        raise _NotANet(f"{info.filename} holds {quoted(shape)} {dtype}, a net's is {wanted}")
    size = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if info.file_size != offset + size:
        raise _NotANet(f"{info.filename} declares {info.file_size} bytes, its header and {quoted(shape)} {dtype} "
                       f"take {offset + size}")
    with archive.open(info) as member:
        member.seek(offset)
        data = member.read(size)
    if len(data) != size:
        raise _NotANet(f"{info.filename} ends after {len(data)} of its {size} bytes of data")
    return np.frombuffer(data, dtype).reshape(shape or (1,), order="F" if fortran else "C")


_NETS: dict[str, Net | None] = {}
_JUDGES: dict[Variant, Net | NetSet] = {}


def _shipped(name: str) -> Net | None:
    """The net file nets/NAME.npz of the package (loaded once per process), None if none ships."""
    if name not in _NETS:
        source = resources.files("nardy.evaluation") / "nets" / f"{name}.npz"
        loaded = None
        if source.is_file():
            with resources.as_file(source) as path:
                loaded = Net.load(path)
        _NETS.setdefault(name, loaded)   # (two threads' first calls keep one net)
    return _NETS[name]


def default_net(variant: Variant | str) -> Net:
    """The shipped net of a variant (nets/VARIANT.npz; loaded once per process): the contact
    net where a race net ships beside it (`default_judge`)."""
    net = _shipped(Variant.parse(variant).value)
    assert net is not None, "the package ships a net per variant"
    return net


def default_judge(variant: Variant | str) -> Net | NetSet:
    """What judges a variant's positions when no net is given: the shipped net, or, where a race
    net ships beside it (nets/VARIANT-race.npz, and a late net, nets/VARIANT-late.npz), the nets
    as a `NetSet`."""
    variant = Variant.parse(variant)
    if variant not in _JUDGES:
        race, late = _shipped(f"{variant.value}-race"), _shipped(f"{variant.value}-late")
        judge = default_net(variant) if race is None else NetSet(default_net(variant), race, late)
        _JUDGES.setdefault(variant, judge)
    return _JUDGES[variant]


def net_for(net: Net | NetSet | None, rules: Rules) -> Net | NetSet:
    """`net`, or the variant's `default_judge` (`InvalidArgumentError` for anything else than a
    `Net` or `NetSet` of the rules' variant)."""
    if net is None:
        return default_judge(rules.variant)
    if not isinstance(net, (Net, NetSet)):
        raise InvalidArgumentError(f"net must be a nardy.evaluation.net.Net or NetSet, got {quoted(net)}")
    if net.variant is not rules.variant:
        raise InvalidArgumentError(f"a {net.variant.value} nardy net cannot judge {rules.variant.value} nardy positions")
    return net


def equity(probs: Any) -> Floats:
    """Cubeless money equity of each row of (..., 5) probabilities (`OUTPUTS`), each a number
    in 0..1, backgammons within gammons within wins (losses), else `InvalidArgumentError`
    naming the first row that is not."""
    return raw_equity(_probabilities(probs))


def _probabilities(probs: Any) -> Floats:
    """`probs` as float64 (..., 5), checked as `equity` says."""
    try:
        p = np.asarray(probs)
    except (ValueError, TypeError) as exc:
        raise InvalidArgumentError(f"probs must be a rectangular array of numbers: {exc}") from None
    if p.ndim < 1 or p.shape[-1] != len(OUTPUTS) or p.dtype.kind not in "iuf":
        raise InvalidArgumentError(f"probs must be numbers of shape (..., 5), the five of {OUTPUTS}, "
                                   f"got shape {p.shape} of {p.dtype}")
    p = p.astype(np.float64, copy=False)
    rows = p.reshape(-1, len(OUTPUTS))
    out_of_range = ~((rows >= -1e-9) & (rows <= 1 + 1e-9)).all(axis=1)  # (NaN fails both; the slack is rounding's)
    for bad, what in ((out_of_range, "not probabilities: each is a number in 0..1"), (inconsistent(rows), INCONSISTENT)):
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            where = f"[{', '.join(str(k) for k in np.unravel_index(i, p.shape[:-1]))}]" if p.ndim > 1 else ""
            raise InvalidArgumentError(f"probs{where} {rows[i].tolist()} are {what}")
    return p


def evaluate(positions: Position | Sequence[Position] | Any, variant: Variant | str | None = None, *,
             rules: Rules | Variant | str | None = None, net: Net | NetSet | None = None) -> Floats:
    """(m, 5) float64: the five probabilities of `OUTPUTS` for the side on roll of each position.

    `positions`: a `Position`, a sequence of them, or an (m, 26) array of mover's-view boards
    (the positive side on roll; then `variant` or `rules` says which game). `rules` is a `Rules`
    or a variant's name (its default rules), as `rank` takes it. Exact for finished
    games and for pure bear-offs within the bear-off table; the net's estimate otherwise.
    """
    boards, rules = boards_and_rules(positions, variant, rules)
    return evaluate_boards(boards, rules, net_for(net, rules), after=False)


class Ranking(list):  # type: ignore[type-arg]
    """`rank`'s answer: a list of (move, equity, probabilities), best first, and for each play
    `afterstates[k]`, the board it leads to (mover's view, before the turn passes: an (n, 26)
    int8 array), and `indices[k]`, its place in `Position.legal_moves` and `children` order."""

    __slots__ = ("afterstates", "indices")

    def __init__(self, items: Any, afterstates: npt.NDArray[np.int8], indices: npt.NDArray[np.int64]) -> None:
        super().__init__(items)
        self.afterstates = afterstates
        self.indices = indices


def rank(position: Position, dice: Sequence[int], rules: Rules | None = None, *, ply: int = 0,
         net: Net | NetSet | None = None, state: MatchState | None = None, include: Move | None = None,
         last_roll: bool = False) -> Ranking:
    """Every legal play of `dice` with its equity and probabilities for the mover, best first
    (a `Ranking`: a list that also holds each play's afterstate and index in `legal_moves`).

    Ties keep `Position.legal_moves`' order, so the ranking is deterministic. `ply=1` or `2`
    replaces the equity of the best 0-ply candidates (at most 16, within 0.24 of the best: the
    move filter) by a lookahead of that many rolls; the others keep their 0-ply figures and rank
    after them. `include`, a legal play of the roll, is looked ahead from as well (as an analysis
    judges the play made at the ply of the best); `IllegalMoveError` if it is not legal.
    `state`, a `notation.MatchState` (the score, the cube), ranks by the equity at the score
    instead of the cubeless money equity (`nardy.cube.play_equity`: short nardy's cubeful 0-ply
    equity, long nardy's at its match equity table); the probabilities stay cubeless. A `state`
    with dice rolled must have rolled `dice`. `last_roll`: long nardy's last_roll_draw, the other
    side has borne off all 15 (`Game.last_roll`): every play ends the game, and is judged by its
    outcome, a draw (equity 0: probabilities half a win, no gammons) where it bears off the last
    checker, else the loss (a mars where none is off), whatever the ply.
    """
    if not isinstance(position, Position):
        raise InvalidArgumentError(f"position must be a Position, got {type(position).__name__}")
    if isinstance(ply, bool) or not isinstance(ply, int) or ply not in PLIES:
        raise InvalidArgumentError(f"ply must be 0, 1 or 2, got {ply!r}")
    if is_whole(rules):
        raise InvalidArgumentError(f"rank's third argument is the rules, got {rules!r}: give a lookahead as ply={rules!r}")
    rules = rules_for(position.variant, rules)
    net = net_for(net, rules)
    value = None
    if state is not None:
        value = play_equity(position, state, rules)
    if last_roll is not False:
        last_roll = check_flag(last_roll, "last_roll")
    moves, children = position._plays(dice, rules, None, last_roll)  # legal_moves, with each result
    if state is not None and state.dice is not None and sorted(state.dice) != sorted(int(d) for d in dice):
        raise InvalidArgumentError(f"dice {dice[0]}-{dice[1]} contradict the match state's dice={state.dice}")
    after = np.frombuffer(b"".join(children), np.int8).reshape(-1, 26)
    probs = swap_sides(evaluate_boards(after, rules, net, after=True))
    if last_roll:
        ply = 0  # every play ends the game: nothing to look ahead at
        drawn = batch.pips(after, rules.variant)[:, 0] == 0  # the mover's last checker off
        probs[drawn] = (0.5, 0, 0, 0, 0)
    equities = raw_equity(probs) if value is None else value(probs, after)
    order = sorted(range(len(moves)), key=lambda i: -equities[i])
    extra = None  # include's place in children, checked at every ply
    if include is not None:
        if not isinstance(include, Move):
            raise InvalidArgumentError(f"include must be a Move, got {quoted(include)}")
        made = position.apply(include, rules, last_roll=last_roll).pass_turn().to_bytes()   # its result, the mover's view
        if made not in children:
            raise IllegalMoveError(f"{include} is not a play of {dice[0]}-{dice[1]}")
        extra = children.index(made)
    if ply > 0:
        best = equities[order[0]]
        chosen = [i for i in order[:PRUNE_KEEP] if equities[i] >= best - PRUNE_WINDOW]
        if extra is not None and extra not in chosen:
            chosen.append(extra)
        deeper = lookahead(after[chosen], rules, net, ply)
        for i, p in zip(chosen, deeper):
            probs[i] = p
        equities = raw_equity(probs) if value is None else value(probs, after)
        picked = set(chosen)
        order = (sorted(chosen, key=lambda i: -equities[i])
                 + [i for i in order if i not in picked])
    index = np.array(order)
    return Ranking([(moves[i], float(equities[i]), probs[i]) for i in order], after.take(index, axis=0), index)


def best_move(position: Position, dice: Sequence[int], ply: int = 0, rules: Rules | None = None, *,
              net: Net | NetSet | None = None, state: MatchState | None = None, last_roll: bool = False) -> Move:
    """The play `rank` puts first (`state`: at that match score and cube; `last_roll`: as `rank`)."""
    best: Move = rank(position, dice, rules, ply=ply, net=net, state=state, last_roll=last_roll)[0][0]
    return best


def net_move(game: Any, ply: int = 0, *, net: Net | NetSet | None = None, at_score: bool = False) -> Move:
    """The net's play for the side on roll of a `nardy.Game` whose dice are rolled (a net player:
    `game.play(net_move(game))`); `at_score`: chosen at the game's match score and cube
    (`rank(..., state=game.match_state())`)."""
    if not isinstance(game, Game):
        raise InvalidArgumentError(f"net_move takes a Game, got {type(game).__name__}")
    check_flag(at_score, "at_score")
    if game.position is None:
        raise InvalidArgumentError("the game has not started: call roll_off()")
    if game.dice is None:
        raise InvalidArgumentError("roll the dice first: net_move plays the rolled dice")
    return best_move(game.position, game.dice, ply, game.rules, net=net,
                     state=game.match_state() if at_score else None, last_roll=game.last_roll)


class NetPolicy:
    """Scores afterstates (mover's-view boards after the move) by the mover's 0-ply equity: a
    policy for `simulate(policy=...)` (which `policy="net"` builds) and for `VectorEnv.best_actions`
    (`env.best_actions(NetPolicy(rules)(env.afterstates))`)."""

    __name__ = "net"

    def __init__(self, rules: Rules | Variant | str, net: Net | NetSet | None = None) -> None:
        self.rules = rules if isinstance(rules, Rules) else Rules(Variant.parse(rules))
        self.net = net_for(net, self.rules)

    def __call__(self, afterstates: Any) -> Floats:
        return -raw_equity(evaluate_boards(batch.as_boards(afterstates), self.rules, self.net, after=True))


# helpers --------------------------------------------------------------------------------------
def boards_and_rules(positions: Any, variant: Variant | str | None, rules: Rules | Variant | str | None
                     ) -> tuple[npt.NDArray[np.int8], Rules]:
    """(boards, rules) of `Position`s or of an (n, 26) array with `variant=` or `rules=`, each
    board checked (`InvalidPositionError` naming the first bad row)."""
    if rules is not None:
        rules = Rules.of(rules)
    if isinstance(positions, Position):
        positions = [positions]
    if isinstance(positions, (list, tuple)) and positions and all(isinstance(p, Position) for p in positions):
        kinds = {p.variant for p in positions}
        if len(kinds) > 1:
            raise InvalidArgumentError("positions of both variants in one call")
        found = kinds.pop()
        if variant is not None and Variant.parse(variant) is not found:
            raise InvalidPositionError(f"{found.value} nardy positions given with variant={variant!r}")
        if rules is None:
            rules = Rules(found)
        elif rules.variant is not found:
            raise InvalidPositionError(f"{found.value} nardy positions given with {rules!r}")  # as Position does
        return np.array([p.view() for p in positions], np.int8), rules
    if rules is None:
        if variant is None:
            raise InvalidArgumentError("boards given as an array need variant= or rules=")
        rules = Rules(Variant.parse(variant))
    boards = batch.as_boards(positions)
    found = batch.status(boards, rules)
    bad = np.flatnonzero(found)
    if bad.size:
        i = int(bad[0])
        raise InvalidPositionError(f"row {i} {boards[i].tolist()}: {'; '.join(describe(Status(int(found[i]))))}")
    return boards, rules


def home_rows(boards: npt.NDArray[np.int8], variant: Variant) -> npt.NDArray[np.bool_]:
    """Rows whose checkers all stand in their own homes (or off): both sides within the table."""
    return compiled.homes(np.ascontiguousarray(boards, np.int8), variant is Variant.SHORT).view(np.bool_)


def evaluate_boards(boards: npt.NDArray[np.int8], rules: Rules, net: Net | NetSet, *, after: bool) -> Floats:
    """The probabilities of the side on roll (after=True: each board is an afterstate, the side on
    roll is its negative side), exact where the game is over or in the bear-off table."""
    if net.variant is not rules.variant:
        raise InvalidArgumentError(f"a {net.variant.value} nardy net cannot judge {rules.variant.value} nardy")
    rows = batch.flip(boards, rules.variant) if after else boards
    probs = net.forward(rows).astype(np.float64)
    if not np.isfinite(probs).all():  # (never, within Net's bound on its weights: nothing made up from a NaN)
        row = int(np.flatnonzero(~np.isfinite(probs).all(axis=1))[0])
        raise InvalidArgumentError(f"the net's outputs for row {row} are not finite: {probs[row].tolist()}")
    # consistency, as gnubg enforces it: backgammons <= gammons <= wins
    probs[:, 1] = np.minimum(probs[:, 1], probs[:, 0])
    probs[:, 2] = np.minimum(probs[:, 2], probs[:, 1])
    probs[:, 3] = np.minimum(probs[:, 3], 1 - probs[:, 0])
    probs[:, 4] = np.minimum(probs[:, 4], probs[:, 3])
    over = finished_rows(rows)
    if over.any():
        probs[over] = _finished(rows[over], rules)
    race = home_rows(rows, rules.variant) & ~over
    if race.any():
        exact = bearoff.race_probabilities(rows[race], rules.variant)
        probs[race] = 0
        probs[race, 0] = exact[:, 0]
        probs[race, 1] = exact[:, 1]
        probs[race, 3] = exact[:, 2]
    return probs


def finished_rows(boards: npt.NDArray[np.int8]) -> npt.NDArray[np.bool_]:
    """Rows where one side has borne off all its checkers (no pips left: the core's pip count)."""
    pips = batch.pips(boards, Variant.SHORT)  # zero exactly when no checker is left, in either variant
    finished: npt.NDArray[np.bool_] = (pips[:, 0] == 0) | (pips[:, 1] == 0)
    return finished


def _finished(boards: npt.NDArray[np.int8], rules: Rules) -> Floats:
    """The exact outcomes of finished games (one side has borne off all 15), for the side on roll."""
    points = batch.wins(boards, rules)
    mine = points > 0   # the side on roll has borne off all its checkers
    out = _outcomes(points)
    out[~mine] = swap_sides(won_outcomes(batch.flip(boards[~mine], rules.variant), rules))
    return out


def won_outcomes(boards: npt.NDArray[np.int8], rules: Rules) -> Floats:
    """The exact outcomes for the side whose view each board is, which has borne off all 15."""
    return _outcomes(batch.wins(boards, rules))


def _outcomes(points: npt.NDArray[np.int8]) -> Floats:
    """The outputs of wins worth `points` (`batch.wins`: 1, 2 for a gammon or mars, 3 for a
    backgammon or koks)."""
    out = np.zeros((len(points), len(OUTPUTS)))
    out[:, 0] = 1
    out[:, 1] = points >= 2
    out[:, 2] = points == 3
    return out


def segment_argmax(values: Floats, offsets: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """For each segment values[offsets[i]:offsets[i+1]] (none empty), the index of its largest
    value, the first on ties."""
    starts = offsets[:-1]
    best = np.repeat(np.maximum.reduceat(values, starts), np.diff(offsets))
    hits = np.flatnonzero(values == best)
    segment = np.searchsorted(offsets, hits, side="right") - 1
    first = np.ones(len(hits), bool)
    first[1:] = segment[1:] != segment[:-1]
    return hits[first]


def lookahead(afterstates: npt.NDArray[np.int8], rules: Rules, net: Net | NetSet, ply: int) -> Floats:
    """The mover's probabilities of each afterstate `ply` (>= 1) rolls ahead: averaged over the
    other side's 21 rolls, each answered by its best 0-ply play, whose result is judged at 0 ply
    (ply 1) or, in turn, `ply - 1` rolls ahead."""
    variant = rules.variant
    theirs = batch.flip(afterstates, variant)            # the other side on roll
    out = np.zeros((len(afterstates), len(OUTPUTS)))
    done = finished_rows(theirs)
    if done.any():
        out[done] = swap_sides(_finished(theirs[done], rules))
    live = np.flatnonzero(~done)
    if live.size == 0:
        return out
    rows = np.repeat(theirs[live], len(ROLLS), axis=0)
    rolls = np.tile(np.array(ROLLS, np.int8), (live.size, 1))
    children, offsets, _ = batch.generate(rows, rolls, rules)
    # each reply's result judged for us (the side on roll after it), the reply minimising our equity
    ours = evaluate_boards(children, rules, net, after=True)
    pick = segment_argmax(-raw_equity(ours), offsets)
    judged = ours[pick] if ply == 1 else swap_sides(lookahead(children[pick], rules, net, ply - 1))
    per_roll = judged.reshape(live.size, len(ROLLS), len(OUTPUTS))
    out[live] = np.einsum("k,nkj->nj", ROLL_WEIGHTS, per_roll)
    return out


__all__ = ["LATE_PIPS", "Net", "NetPolicy", "NetSet", "Ranking", "contact", "OUTPUTS", "phase_rows", "best_move", "default_judge", "default_net", "equity", "evaluate", "net_move", "rank"]
