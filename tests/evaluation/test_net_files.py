"""Net files (`Net.save`, `Net.load`): damaged files are `InvalidArgumentError`s naming the file
and what is wrong, decided from the zip directory and the .npy headers before any data is read;
weights whose sums overflow float32 are refused."""

from __future__ import annotations

import io
import zipfile

import numpy as np
import pytest

from nardy import InvalidArgumentError, Position
from nardy.evaluation.net import Net, evaluate

MEMBERS = ("header", "w1", "b1", "w2", "b2")


def npy(array: np.ndarray | None = None, *, header: dict | None = None, data: bytes = b"") -> bytes:
    """A .npy member: of `array`, or a hand-made `header` followed by `data`."""
    from numpy.lib import format as npy_format

    f = io.BytesIO()
    if array is not None:
        npy_format.write_array(f, array, allow_pickle=False)
    else:
        npy_format.write_array_header_1_0(f, header)
        f.write(data)
    return f.getvalue()


def net_members(tmp_path) -> dict[str, bytes]:
    path = tmp_path / "good.npz"
    Net.initial("short", 8, seed=1).save(path)
    with zipfile.ZipFile(path) as z:
        return {info.filename: z.read(info) for info in z.infolist()}


def write_zip(path, parts: dict[str, bytes], compression: int = zipfile.ZIP_STORED) -> None:
    with zipfile.ZipFile(path, "w", compression) as z:
        for name, data in parts.items():
            z.writestr(name, data)


def test_a_header_claiming_a_huge_shape_is_refused_before_reading(tmp_path):
    """A 3.7 KB file whose b1 claims shape (10**12,) was numpy's MemoryError."""
    parts = net_members(tmp_path)
    parts["b1.npy"] = npy(header={"descr": "<f4", "fortran_order": False, "shape": (10**12,)})
    path = tmp_path / "huge.npz"
    write_zip(path, parts)
    with pytest.raises(InvalidArgumentError, match=r"huge.npz: not a nardy net file \(b1.npy holds \(1000000000000,\)"):
        Net.load(path)


def test_a_declared_size_other_than_the_shape_needs_is_refused(tmp_path):
    """Extra bytes after a member's data were ignored."""
    parts = net_members(tmp_path)
    parts["b2.npy"] += b"\0" * 64
    path = tmp_path / "long.npz"
    write_zip(path, parts)
    with pytest.raises(InvalidArgumentError, match="b2.npy declares"):
        Net.load(path)


def test_a_member_inflating_beyond_its_shape_is_not_inflated(tmp_path, monkeypatch):
    """A deflated w1 declaring 2 GB of data was inflated before its shape was checked."""
    parts = net_members(tmp_path)
    parts["w1.npy"] = npy(header={"descr": "<f4", "fortran_order": False, "shape": (198, 1 << 21)},
                          data=bytes(1 << 20))
    path = tmp_path / "bomb.npz"
    write_zip(path, parts, zipfile.ZIP_DEFLATED)
    read = []
    original = zipfile.ZipExtFile.read
    monkeypatch.setattr(zipfile.ZipExtFile, "read", lambda self, n=-1: read.append(n) or original(self, n))
    with pytest.raises(InvalidArgumentError, match="w1 of shape"):
        Net.load(path)
    assert all(0 <= n < 1000 for n in read), read


@pytest.mark.parametrize("change, message", [
    (lambda p: p.pop("w2.npy"), "members"),
    (lambda p: p.update({"extra.npy": p["b2.npy"]}), "members"),
    (lambda p: p.update({"w1.npy": p["w2.npy"], "w2.npy": p["w1.npy"]}), "w1.npy holds \\(5, 8\\)"),
    (lambda p: p.update({"b1.npy": p["b2.npy"], "b2.npy": p["b1.npy"]}), "b1.npy holds"),
    (lambda p: p.update({"b2.npy": npy(np.zeros(5, np.int64))}), "b2.npy holds"),
    (lambda p: p.update({"b2.npy": npy(np.zeros(5, np.complex64))}), "b2.npy holds"),
    (lambda p: p.update({"b2.npy": npy(np.zeros(5, "V4"))}), "b2.npy holds"),
    (lambda p: p.update({"header.npy": npy(np.zeros(3))}), "header.npy holds"),
    (lambda p: p.update({"b2.npy": p["b2.npy"][:-3]}), "b2.npy declares"),
    (lambda p: p.update({"b2.npy": p["b2.npy"][:5]}), "not a nardy net file"),
    (lambda p: p.update({"b2.npy": p["b2.npy"].replace(b"'shape'", b"'shape\x00")}), "not a nardy net file"),
    (lambda p: p.update({"b2.npy": npy(np.full(5, np.inf, np.float32))}), "net b2 must be a finite"),
    (lambda p: p.update({"b2.npy": npy(np.full(5, 1e39))}), "net b2 must be a finite"),
    (lambda p: p.update({"header.npy": npy(np.array('{"format": "nardy-net", "version": 1, "variant": "x", '
                                                    '"meta": {}}'))}), "variant"),
    (lambda p: p.update({"header.npy": npy(np.array("[" * 100_000))}), "not a nardy net file"),
])
def test_damaged_members_are_refused_naming_the_file(tmp_path, change, message):
    parts = net_members(tmp_path)
    change(parts)
    path = tmp_path / "bad.npz"
    write_zip(path, parts)
    with pytest.raises(InvalidArgumentError, match=message) as caught:
        Net.load(path)
    assert str(path) in str(caught.value)


def test_an_unknown_compression_or_a_damaged_deflate_stream_is_refused(tmp_path):
    """They were NotImplementedError and zlib.error."""
    parts = net_members(tmp_path)
    path = tmp_path / "n.npz"
    write_zip(path, parts, zipfile.ZIP_DEFLATED)
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as z:
        info = z.getinfo("w1.npy")
    start = info.header_offset + 30 + len(info.filename) + len(info.extra)
    broken = bytearray(data)
    broken[start:start + 40] = bytes(40)  # the deflate stream's start zeroed
    (tmp_path / "zlib.npz").write_bytes(bytes(broken))
    with pytest.raises(InvalidArgumentError, match="zlib.npz: not a nardy net file"):
        Net.load(tmp_path / "zlib.npz")
    odd = bytearray(data)
    central = data.index(b"PK\x01\x02")
    odd[central + 10:central + 12] = (99).to_bytes(2, "little")  # the first member's method: 99 (AES)
    odd[8:10] = (99).to_bytes(2, "little")
    (tmp_path / "odd.npz").write_bytes(bytes(odd))
    with pytest.raises(InvalidArgumentError, match="compressed by method 99"):
        Net.load(tmp_path / "odd.npz")


def test_weights_whose_sums_overflow_are_refused(tmp_path):
    """Finite weights near float32's limit loaded with a numpy warning and judged every position
    [1, 1, 1, 0, 0]."""
    big = np.full((198, 8), 3e38, np.float32)
    with pytest.raises(InvalidArgumentError, match="overflow float32"):
        Net("short", big, np.zeros(8), np.zeros((5, 8)), np.zeros(5))
    with pytest.raises(InvalidArgumentError, match="overflow float32"):
        Net("short", np.zeros((198, 8)), np.zeros(8), np.full((5, 8), 3e38), np.zeros(5))
    path = tmp_path / "big.npz"
    parts = net_members(tmp_path)
    parts["w1.npy"] = npy(big)
    write_zip(path, parts)
    with pytest.raises(InvalidArgumentError, match="big.npz: net weights so large"):
        Net.load(path)


def test_large_weights_within_the_bound_give_finite_outputs():
    rng = np.random.default_rng(3)
    limit = float(np.finfo(np.float32).max) / 2
    w1 = rng.choice([-1, 1], (198, 8)) * (limit / 7.5 / 199)
    w2 = rng.choice([-1, 1], (5, 8)) * (limit / 9)
    net = Net("short", w1, rng.normal(0, 1, 8), w2, np.full(5, limit / 9))
    p = evaluate([Position.start("short")], net=net)
    assert np.isfinite(p).all()
    from nardy.play.env import VectorEnv

    env = VectorEnv("short", 8, seed=1)
    env.reset()
    assert np.isfinite(net.forward(np.asarray(env.afterstates))).all()


def test_a_good_file_in_either_compression_loads(tmp_path):
    parts = net_members(tmp_path)
    for compression in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        write_zip(tmp_path / "n.npz", parts, compression)
        assert Net.load(tmp_path / "n.npz").hidden == 8


def test_save_refuses_a_meta_that_is_not_json_or_too_long(tmp_path):
    """A meta of a set was json's TypeError; one too long to read back is refused when saved."""
    from nardy.evaluation.net import HEADER_LIMIT

    net = Net.initial("short", 8)
    with pytest.raises(InvalidArgumentError, match="meta must be JSON"):
        Net("short", net.w1, net.b1, net.w2, net.b2, meta={"x": {1, 2}}).save(tmp_path / "n.npz")
    with pytest.raises(InvalidArgumentError, match="at most 65536"):
        Net("short", net.w1, net.b1, net.w2, net.b2, meta={"x": "a" * HEADER_LIMIT}).save(tmp_path / "n.npz")
    assert list(tmp_path.iterdir()) == []
    Net("short", net.w1, net.b1, net.w2, net.b2, meta={"x": "a" * (HEADER_LIMIT - 100)}).save(tmp_path / "n.npz")
    assert len(Net.load(tmp_path / "n.npz").meta["x"]) == HEADER_LIMIT - 100


def test_a_fifo_or_a_device_is_refused_by_name(tmp_path):
    import os

    os.mkfifo(tmp_path / "fifo.npz")
    for path in (tmp_path / "fifo.npz", "/dev/zero"):
        with pytest.raises(InvalidArgumentError, match="is not a regular file"):
            Net.load(path)


def test_a_meta_or_inputs_of_the_wrong_kind_is_refused(tmp_path) -> None:
    """A meta that is not a dict was saved and then refused by Net.load; wrong kinds of inputs
    and phase, and NaN in a meta (not JSON), raised foreign errors or wrote a header other
    readers refuse."""
    net = Net.initial("short", 8)
    for meta in (None, [1, 2], "x"):
        with pytest.raises(InvalidArgumentError, match="meta is a dict"):
            Net("short", net.w1, net.b1, net.w2, net.b2, meta=meta)  # type: ignore[arg-type]
        with pytest.raises(InvalidArgumentError, match="meta is a dict"):
            net.with_meta(meta)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="inputs"):
        Net("short", net.w1, net.b1, net.w2, net.b2, inputs=["td198"])  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="phase"):
        Net("short", net.w1, net.b1, net.w2, net.b2, phase=["race"])  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="inputs"):
        Net.initial("short", 8, inputs=["expert"])  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="must be JSON"):
        net.with_meta({"loss": float("nan")}).save(tmp_path / "n.npz")
    assert not (tmp_path / "n.npz").exists()
