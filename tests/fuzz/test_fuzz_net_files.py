"""Fuzz: `Net.load` of damaged net files (truncations, bit flips, byte runs, member swaps and
drops, forged .npy headers), stored or deflated: a `Net`, or an `InvalidArgumentError` naming
the file; never another exception (MemoryError, zlib.error, NotImplementedError, TokenError...)."""

from __future__ import annotations

import io
import tempfile
import warnings
import zipfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzzing import fuzz, time_limit
from nardy import InvalidArgumentError
from nardy.evaluation.net import Net

MEMBERS = ["header.npy", "w1.npy", "b1.npy", "w2.npy", "b2.npy"]


def _parts() -> dict[str, bytes]:
    net = Net.initial("short", 8, seed=2)
    with tempfile.TemporaryDirectory() as folder:
        net.save(Path(folder) / "n.npz")
        with zipfile.ZipFile(Path(folder) / "n.npz") as z:
            return {name: z.read(name) for name in z.namelist()}


PARTS = _parts()


def _zipped(parts: list[tuple[str, bytes]], compression: int) -> bytes:
    f = io.BytesIO()
    with warnings.catch_warnings(), zipfile.ZipFile(f, "w", compression) as z:
        warnings.simplefilter("ignore")  # (a repeated member is meant)
        for name, data in parts:
            z.writestr(name, data)
    return f.getvalue()


@st.composite
def damaged(draw: st.DrawFn) -> bytes:
    """A net file damaged in its members (then zipped whole), in its bytes, or both."""
    parts = list(PARTS.items())
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(st.sampled_from(["swap", "drop", "repeat", "rename", "cut", "forge", "flip"]))
        i, j = draw(st.integers(0, len(parts) - 1)), draw(st.integers(0, len(parts) - 1))
        name, data = parts[i]
        if kind == "swap":
            parts[i], parts[j] = (name, parts[j][1]), (parts[j][0], data)
        elif kind == "drop" and len(parts) > 1:
            parts.pop(i)
        elif kind == "repeat":
            parts.append(parts[i])
        elif kind == "rename":
            parts[i] = (draw(st.sampled_from(MEMBERS + ["x.npy", "w1"])), data)
        elif kind == "cut":
            parts[i] = (name, data[:draw(st.integers(0, len(data)))])
        elif kind == "forge":  # another shape or dtype in the .npy header, the data as it was
            text = draw(st.sampled_from(["(1000000000000,)", "(198, 8, 1)", "()", "(-1,)", "(198, 99999999)",
                                         "(5,)", "(8,)", "(198,8)"]))
            head = data[:128].replace(b"(198, 8)", text.encode()).replace(b"(8,)", text.encode())
            head = head.replace(b"'<f4'", draw(st.sampled_from([b"'<f4'", b"'|O'", b"'<U9'", b"'>f8'", b"'<c8'"])))
            parts[i] = (name, head + data[128:])
        else:
            at = draw(st.integers(0, max(len(data) - 1, 0)))
            parts[i] = (name, data[:at] + bytes([(data[at:at + 1] or b"\0")[0] ^ 1 << draw(st.integers(0, 7))])
                        + data[at + 1:])
    blob = bytearray(_zipped(parts, draw(st.sampled_from([zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED]))))
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(st.sampled_from(["truncate", "flip", "run"]))
        at = draw(st.integers(0, len(blob)))
        if kind == "truncate":
            del blob[at:]
        elif kind == "flip" and at < len(blob):
            blob[at] ^= 1 << draw(st.integers(0, 7))
        elif kind == "run":
            blob[at:at + 4] = draw(st.sampled_from([b"\xff\xff\xff\xff", b"\0\0\0\0", b"\xff\xff\xff\x7f"]))
    return bytes(blob)


@pytest.fixture(scope="module")
def folder():
    with tempfile.TemporaryDirectory() as name:
        yield Path(name)


@fuzz
@given(blob=damaged())
def test_damaged_net_files(folder, blob):
    path = folder / "net.npz"
    path.write_bytes(blob)
    with time_limit():
        try:
            Net.load(path)
        except InvalidArgumentError as exc:
            assert str(path) in str(exc)


def test_every_truncation_and_many_bit_flips_of_a_net_file(folder):
    """Deterministic: the file cut at every 97th byte, and one bit flipped at every 13th."""
    for compression in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        good = _zipped(list(PARTS.items()), compression)
        variants = [good[:n] for n in range(0, len(good), 97)]
        variants += [good[:n] + bytes([good[n] ^ 1 << (n % 8)]) + good[n + 1:] for n in range(0, len(good), 13)]
        for blob in variants:
            (folder / "cut.npz").write_bytes(blob)
            try:
                Net.load(folder / "cut.npz")
            except InvalidArgumentError:
                pass
