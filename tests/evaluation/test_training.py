"""`python -m nardy.evaluation.training`: bad arguments refused before any training, Ctrl-C, a tiny run."""

from __future__ import annotations

import numpy as np
import pytest

from nardy import InvalidArgumentError, Rules
from nardy.evaluation import training
from nardy.evaluation.net import Net

TINY = ["short", "--games", "2", "--hidden", "8", "--parallel", "2", "--batch-size", "64"]


@pytest.fixture
def no_training(monkeypatch):
    """`train` that fails the test if it is reached: the arguments must be refused first."""
    def trained(*args, **kwargs):
        raise AssertionError("trained before refusing the arguments")

    monkeypatch.setattr(training, "train", trained)


def one_error(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("nardy.evaluation.training: error: "), err
    return err


@pytest.mark.parametrize("extra, message", [
    (["--out", "/nonexistent/dir/x.npz"], "no directory '/nonexistent/dir'"),
    (["--out", "{tmp}/x.txt"], "must end in .npz"),
    (["--out", "{tmp}/x.npz", "--checkpoint-every", "-5"], "--checkpoint-every"),
    (["--out", "{tmp}/x.npz", "--lr", "nan"], "--lr must be a finite number above 0, got nan"),
    (["--out", "{tmp}/x.npz", "--lr", "inf"], "--lr must be"),
    (["--out", "{tmp}/x.npz", "--lr-end", "nan"], "--lr-end must be"),
    (["--out", "{tmp}/x.npz", "--duel-games", "0"], "--duel-games"),
    (["--out", "{tmp}/x.npz", "--log", "/nonexistent/dir/log.jsonl"], "log.jsonl"),
    (["--out", "{tmp}/x.npz", "--log", "{tmp}"], "it is a directory"),
    (["--out", "{tmp}/sub/x.npz", "--checkpoint-every", "1"], "no directory"),
])
def test_bad_arguments_are_refused_before_training(tmp_path, capsys, no_training, extra, message):
    """They were found after the whole run (the net unwritable, a NaN step size), at the first
    checkpoint, or never (a negative interval; an .npz written to x.txt)."""
    argv = TINY + [a.replace("{tmp}", str(tmp_path)) for a in extra]
    assert training.main(argv) == 2
    assert message in one_error(capsys)
    assert list(tmp_path.iterdir()) == []


def test_a_log_that_is_not_a_regular_file_is_refused(tmp_path, capsys, no_training):
    import os

    os.mkfifo(tmp_path / "log")
    argv = TINY + ["--out", str(tmp_path / "x.npz"), "--log", str(tmp_path / "log")]
    assert training.main(argv) == 2
    assert "it is not a regular file" in one_error(capsys)


def test_a_start_net_whose_games_are_not_a_count_is_refused_before_training(tmp_path, capsys, no_training):
    """int() of its meta "games" was a ValueError traceback after the whole run."""
    net = Net.initial("short", 8)
    Net("short", net.w1, net.b1, net.w2, net.b2, meta={"games": "many"}).save(tmp_path / "start.npz")
    argv = TINY + ["--out", str(tmp_path / "x.npz"), "--start", str(tmp_path / "start.npz")]
    assert training.main(argv) == 2
    assert "meta 'games' must be a whole number >= 0, got 'many'" in one_error(capsys)


def test_an_interrupt_is_one_line_and_exit_130(tmp_path, capsys, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(training, "train", interrupted)
    assert training.main(TINY + ["--out", str(tmp_path / "x.npz")]) == 130
    assert capsys.readouterr().err == "nardy.evaluation.training: interrupted\n"
    assert list(tmp_path.iterdir()) == []


def test_the_train_function_refuses_a_nan_step_size_and_a_negative_interval():
    for kwargs in (dict(lr=float("nan")), dict(lr=float("inf")), dict(lr_end=float("nan")),
                   dict(checkpoint_every=-5)):
        with pytest.raises(InvalidArgumentError):
            training.train(Rules("short"), 2, hidden=8, parallel=2, **kwargs)


def test_a_tiny_run_writes_its_net_checkpoints_and_log(tmp_path, capsys):
    out, log = tmp_path / "x.npz", tmp_path / "log.jsonl"
    argv = TINY + ["--out", str(out), "--checkpoint-every", "2", "--duel-games", "2", "--log", str(log)]
    assert training.main(argv) == 0
    net = Net.load(out)
    assert net.meta["games"] == 2 and Net.load(tmp_path / "x.ckpt-2.npz").hidden == 8
    assert len(log.read_text().splitlines()) == 1
    assert np.isfinite(net.w1).all()
    more = TINY + ["--out", str(tmp_path / "y.npz"), "--start", str(out)]
    assert training.main(more) == 0 and Net.load(tmp_path / "y.npz").meta["games"] == 4
