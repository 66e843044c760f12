"""`nardy.evaluation.distill`: self-play positions, 1-ply labels checked by hand, a seeded fit,
the kept data, and the command line's refusals."""

from __future__ import annotations

import json

import numpy as np
import pytest

from nardy import InvalidArgumentError, Rules, batch
from nardy.evaluation import distill
from nardy.evaluation.net import ROLLS, Net, contact, default_judge, default_net, evaluate_boards, raw_equity, swap_sides


@pytest.fixture(scope="module", params=["short", "long"])
def played(request):
    rules = Rules(request.param)
    return rules, distill.self_play(rules, default_net(rules.variant), 300, seed=3, parallel=16)


def test_self_play_gives_the_count_asked_all_judged_by_the_net_the_same_for_a_seed(played):
    rules, boards = played
    assert boards.shape[0] == 300 and boards.dtype == np.int8
    assert distill.judged_by_net(boards, rules).all()
    assert len({b.tobytes() for b in boards}) > 250   # the games differ
    again = distill.self_play(rules, default_net(rules.variant), 300, seed=3, parallel=16)
    assert np.array_equal(boards, again)


def one_ply_by_hand(board, rules, net):
    """The side on roll's probabilities one roll ahead: each of its 21 rolls played by its best
    0-ply play (the afterstate worst for the other side), weighted 1/36 or 2/36."""
    total = np.zeros(5)
    for a, b in ROLLS:
        children, _, _ = batch.generate(board[None, :], np.array([[a, b]], np.int8), rules)
        theirs = evaluate_boards(children, rules, net, after=True)
        best = int(np.argmin(raw_equity(theirs)))
        total += (1 if a == b else 2) / 36 * swap_sides(theirs[best:best + 1])[0]
    return total


def test_the_labels_are_the_nets_look_one_roll_ahead(played):
    rules, boards = played
    net = default_net(rules.variant)
    picked = boards[::37]
    labels = distill.label(picked, rules, net, 1, chunk=3)
    for board, got in zip(picked, labels):
        np.testing.assert_allclose(got, one_ply_by_hand(board, rules, net), atol=1e-6)
    assert np.array_equal(distill.label(picked, rules, net, 1, chunk=2, threads=2), labels)


def test_a_fit_lowers_the_held_out_loss_and_is_the_same_for_a_seed(played):
    rules, boards = played
    start = Net.initial(rules.variant, 8, seed=1, inputs="expert")
    targets = distill.label(boards, rules, default_net(rules.variant), 1)
    seen = []
    first = distill.fit(start, boards, targets, epochs=3, lr=3e-3, batch_size=32, holdout=0.2, seed=5,
                        epoch_done=lambda epoch, net, loss, held: seen.append((epoch, held)))
    assert [e for e, _ in seen] == [1, 2, 3]
    before = distill.held_out_loss(start, boards, targets)
    assert seen[-1][1] < before
    second = distill.fit(start, boards, targets, epochs=3, lr=3e-3, batch_size=32, holdout=0.2, seed=5)
    assert np.array_equal(first.w1, second.w1) and np.array_equal(first.b2, second.b2)
    with pytest.raises(InvalidArgumentError, match="holdout"):
        distill.fit(start, boards, targets, epochs=1, lr=1e-3, holdout=1.0)


def test_the_kept_data_is_read_back_and_other_settings_are_refused(tmp_path):
    rules, net = Rules("short"), default_net("short")
    path = tmp_path / "data.npz"
    boards, targets = distill.labelled(path, rules, net, 40, 1, seed=2, explore=0.1)
    again = distill.labelled(path, rules, net, 40, 1, seed=2, explore=0.1)
    assert np.array_equal(again[0], boards) and np.array_equal(again[1], targets)
    with pytest.raises(InvalidArgumentError, match="other settings"):
        distill.labelled(path, rules, net, 41, 1, seed=2, explore=0.1)
    other = Net(net.variant, net.w1 * 0.5, net.b1, net.w2, net.b2, meta=net.meta, inputs=net.inputs)
    with pytest.raises(InvalidArgumentError, match="other settings"):   # the same command, other weights
        distill.labelled(path, rules, other, 40, 1, seed=2, explore=0.1)
    with np.load(path) as data:
        np.savez(tmp_path / "cut.npz", settings=data["settings"], boards=data["boards"][:, :20], targets=data["targets"])
    with pytest.raises(InvalidArgumentError, match=r"boards int8 \(40, 20\)"):
        distill.labelled(tmp_path / "cut.npz", rules, net, 40, 1, seed=2, explore=0.1)
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(InvalidArgumentError, match="not a file of labelled positions"):
        distill.labelled(tmp_path / "junk.npz", rules, net, 40, 1, seed=2, explore=0.1)


def test_rollout_labels_are_the_teachers_rollouts_kept_apart_from_lookahead_labels(tmp_path):
    from nardy.evaluation.rollout import rollout_boards

    rules, net = Rules("long"), default_net("long")
    path = tmp_path / "data.npz"
    boards, targets = distill.labelled(path, rules, net, 30, 1, seed=2, explore=0.1, trials=6, horizon=4)
    assert np.array_equal(targets, rollout_boards(boards, 6, rules=rules, net=net, horizon=4, seed=2))
    assert not np.array_equal(targets, distill.label(boards, rules, net, 1))
    again = distill.labelled(path, rules, net, 30, 1, seed=2, explore=0.1, trials=6, horizon=4)
    assert np.array_equal(again[1], targets)
    for other in ({}, {"trials": 6, "horizon": 5}, {"trials": 7, "horizon": 4}):
        with pytest.raises(InvalidArgumentError, match="other settings"):
            distill.labelled(path, rules, net, 30, 1, seed=2, explore=0.1, **other)
    assert np.array_equal(distill.rolled_out(boards, rules, net, 6, 4, seed=2, threads=2), targets)


def test_a_tiny_run_writes_a_net_with_its_command_and_a_log(tmp_path, capsys):
    out, log = tmp_path / "n.npz", tmp_path / "log.jsonl"
    argv = ["long", "--positions", "60", "--epochs", "2", "--out", str(out), "--log", str(log)]
    assert distill.main(argv) == 0
    net = Net.load(out)
    judge = default_judge("long")   # the teacher; its contact net the start, the others' commands under "teacher"
    others = [f"{role}: {c}" for role, other in (("race", judge.race), ("late", judge.late)) if other is not None
              for c in other.meta.get("previous", []) + [other.meta["command"]]]
    assert net.meta == {"command": "python -m nardy.evaluation.distill " + " ".join(argv), "epochs": 2,
                        "previous": default_net("long").meta.get("previous", []) + [default_net("long").meta["command"]],
                        **({"teacher": others} if others else {})}
    again = ["long", "--positions", "60", "--start", str(out), "--out", str(tmp_path / "m.npz")]
    assert distill.main(again) == 0
    assert Net.load(tmp_path / "m.npz").meta["previous"] == net.meta["previous"] + [net.meta["command"]]
    assert [json.loads(line)["epoch"] for line in log.read_text().splitlines()] == [1, 2]
    rolled = ["short", "--positions", "20", "--rollouts", "4", "--horizon", "0", "--epochs", "1",
              "--out", str(tmp_path / "r.npz")]
    assert distill.main(rolled) == 0 and Net.load(tmp_path / "r.npz").meta["command"].endswith(" ".join(rolled))
    fresh = ["short", "--positions", "20", "--hidden", "16", "--epochs", "1", "--out", str(tmp_path / "f.npz")]
    assert distill.main(fresh) == 0
    made, shipped = Net.load(tmp_path / "f.npz"), default_net("short")
    assert made.hidden == 16 and made.inputs == shipped.inputs and made.meta["previous"] == []
    judge = default_judge("short")   # who labelled: each net of the shipped judge
    assert made.meta["teacher"] == [f"{role}: {c}" for role, other in zip(("contact", "race", "late"), judge.nets)
                                    for c in other.meta.get("previous", []) + [other.meta["command"]]]
    wide = ["short", "--positions", "20", "--widen", "256", "--epochs", "1", "--out", str(tmp_path / "w.npz")]
    assert distill.main(wide) == 0
    widened = Net.load(tmp_path / "w.npz")
    assert widened.hidden == 256 and widened.meta["previous"] == shipped.meta["previous"] + [shipped.meta["command"]]


def test_a_widened_net_judges_as_the_net_it_copies():
    from nardy.errors import InvalidArgumentError

    net = default_net("short")
    boards = distill.self_play(Rules("short"), net, 300, seed=5, parallel=16)
    for hidden in (256,):
        wide = net.widened(hidden)
        assert wide.hidden == hidden and wide.inputs == net.inputs and wide.phase == net.phase
        assert np.allclose(wide.forward(boards), net.forward(boards), atol=2e-6, rtol=0)
    parted = net.widened(256, seed=3, noise=0.01)
    assert not np.array_equal(parted.w1[:, :128], parted.w1[:, 128:])
    assert np.array_equal(parted.w1, net.widened(256, seed=3, noise=0.01).w1)   # seeded
    assert np.abs(parted.forward(boards) - net.forward(boards)).max() < 0.05
    small = Net.initial("short", 24, seed=1)
    assert np.allclose(small.widened(72).forward(boards), small.forward(boards), atol=2e-6, rtol=0)
    for bad, message in [((100,), "widens to a multiple of 24"), ((8,), "hidden"), ((48,), "noise is a share"),
                         ((96,), "noise is a share")]:
        with pytest.raises(InvalidArgumentError, match=message):
            small.widened(*bad, noise=-1.0 if bad == (48,) else float("nan") if bad == (96,) else 0.0)


@pytest.mark.parametrize("extra, message", [
    (["--out", "{tmp}/x.txt"], "must end in .npz"),
    (["--out", "{tmp}/x.npz", "--data", "{tmp}/d.txt"], "must end in .npz"),
    (["--out", "/nonexistent/dir/x.npz"], "no directory '/nonexistent/dir'"),
    (["--out", "{tmp}/x.npz", "--ply", "0"], "--ply"),
    (["--out", "{tmp}/x.npz", "--epochs", "0"], "--epochs"),
    (["--out", "{tmp}/x.npz", "--threads", "0"], "--threads"),
    (["--out", "{tmp}/x.npz", "--batch-size", "0"], "--batch-size"),
    (["--out", "{tmp}/x.npz", "--lr", "nan"], "--lr must be a finite number above 0, got nan"),
    (["--out", "{tmp}/x.npz", "--explore", "1.5"], "--explore"),
    (["--out", "{tmp}/x.npz", "--holdout", "1"], "--holdout"),
    (["--out", "{tmp}/x.npz", "--teacher", "{tmp}/missing.npz"], "missing.npz"),
    (["--out", "{tmp}/x.npz", "--ply", "1", "--rollouts", "36"], "--ply and --rollouts are two ways of labelling"),
    (["--out", "{tmp}/x.npz", "--rollouts", "0"], "--rollouts"),
    (["--out", "{tmp}/x.npz", "--rollouts", "36", "--horizon", "-1"], "--horizon"),
    (["--out", "{tmp}/x.npz", "--horizon", "6"], "--horizon cuts the rollouts of --rollouts"),
    (["--out", "{tmp}/x.npz", "--hidden", "12"], "must be a multiple of 8, got 12"),
    (["--out", "{tmp}/x.npz", "--hidden", "16", "--start", "{tmp}/x.npz"], "--start and --hidden are two starts"),
    (["--out", "{tmp}/x.npz", "--widen", "200"], "a net of 128 hidden units widens to a multiple of 128, got 200"),
    (["--out", "{tmp}/x.npz", "--widen", "64"], "hidden (the widened net's units)"),
    (["--out", "{tmp}/x.npz", "--widen", "256", "--hidden", "16"], "--widen widens a trained start"),
    (["--out", "{tmp}/x.npz", "--holdout", "0.999"], "keeps all 10 positions aside: none is left to fit"),
    (["--out", "{tmp}/x.npz", "--positions", "1000000000000"], "more than this machine's"),
])
def test_bad_arguments_are_refused_before_any_work(tmp_path, capsys, monkeypatch, extra, message):
    monkeypatch.setattr(distill, "labelled", lambda *a, **k: pytest.fail("labelled before refusing"))
    argv = ["short", "--positions", "10"] + [a.replace("{tmp}", str(tmp_path)) for a in extra]
    assert distill.main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("nardy.evaluation.distill: error: ") and message in err, err
    assert list(tmp_path.iterdir()) == []


def test_a_net_of_the_other_variant_is_refused(tmp_path, capsys):
    default_net("long").save(tmp_path / "long.npz")
    argv = ["short", "--positions", "10", "--teacher", str(tmp_path / "long.npz"), "--out", str(tmp_path / "x.npz")]
    assert distill.main(argv) == 2
    assert "the teacher net is a long nardy net, not short" in capsys.readouterr().err


def test_a_log_that_is_not_a_regular_file_is_refused(tmp_path, capsys):
    import os

    os.mkfifo(tmp_path / "log")   # appended to after each epoch: a FIFO would wait for a reader
    argv = ["short", "--positions", "10", "--out", str(tmp_path / "x.npz"), "--log", str(tmp_path / "log")]
    assert distill.main(argv) == 2
    assert "it is not a regular file" in capsys.readouterr().err


@pytest.mark.parametrize("phase", ["race", "contact"])
def test_a_phase_keeps_only_its_positions_and_makes_a_net_of_it(tmp_path, phase):
    rules = Rules("short")
    boards = distill.self_play(rules, default_net("short"), 200, seed=3, parallel=16, phase=phase)
    assert len(boards) == 200 and distill.judged_by_net(boards, rules).all()
    assert (contact(boards, "short") == (phase == "contact")).all()
    out = tmp_path / "n.npz"
    argv = ["short", "--positions", "40", "--phase", phase, "--epochs", "1", "--data", str(tmp_path / "d.npz"),
            "--out", str(out)]
    assert distill.main(argv) == 0
    assert Net.load(out).phase == phase
    with np.load(tmp_path / "d.npz") as data:
        assert json.loads(str(data["settings"]))["phase"] == phase
    with pytest.raises(InvalidArgumentError, match="phase"):
        distill.self_play(rules, default_net("short"), 10, seed=3, phase="opening")


def test_early_and_late_nets_fit_their_share_of_one_file_of_contact_labels(tmp_path):
    from test_features import played_boards

    rules, teacher, path = Rules("short"), default_judge("short"), tmp_path / "d.npz"   # (the CLI's teacher)
    distill.labelled(path, rules, teacher, 30, 1, seed=3, explore=0.05, phase="early")
    with np.load(path) as data:
        settings = json.loads(str(data["settings"]))
    assert settings["phase"] == "contact"
    rows = played_boards("short", steps=120, games=16)
    rows = rows[distill.judged_by_net(rows, rules) & contact(rows, "short")]
    rows = rows[np.linspace(0, len(rows) - 1, 300).astype(int)]   # (early and late ones)
    targets = np.random.default_rng(1).random((len(rows), 5))
    settings["positions"] = len(rows)
    np.savez_compressed(path, settings=json.dumps(settings), boards=rows, targets=targets)
    parts = {}
    for phase in ("early", "late", "contact"):
        parts[phase] = distill.labelled(path, rules, teacher, len(rows), 1, seed=3, explore=0.05, phase=phase)
        assert distill.in_phase(parts[phase][0], rules, phase).all()
    early, late = distill.in_phase(rows, rules, "early"), distill.in_phase(rows, rules, "late")
    assert early.any() and late.any() and (early ^ late).all()
    assert np.array_equal(parts["late"][0], rows[late]) and np.array_equal(parts["late"][1], targets[late])
    assert np.array_equal(parts["early"][0], rows[early]) and len(parts["contact"][0]) == len(rows)
    out = tmp_path / "late.npz"
    argv = ["short", "--positions", str(len(rows)), "--seed", "3", "--phase", "late", "--epochs", "1",
            "--data", str(path), "--out", str(out)]
    assert distill.main(argv) == 0 and Net.load(out).phase == "late"


def test_a_damaged_data_file_is_one_error_line(tmp_path, capsys):
    for junk in (b"", b"PK\x03\x04 not a zip"):
        (tmp_path / "d.npz").write_bytes(junk)
        argv = ["short", "--positions", "20", "--data", str(tmp_path / "d.npz"), "--out", str(tmp_path / "x.npz")]
        assert distill.main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "d.npz: not a file of labelled positions" in err, err


def test_fit_refuses_a_holdout_that_leaves_nothing_to_fit(played):
    rules, boards = played
    net = Net.initial(rules.variant, 8, seed=1, inputs="expert")
    with pytest.raises(InvalidArgumentError, match="none is left to fit"):
        distill.fit(net, boards[:10], np.full((10, 5), 0.2), epochs=1, lr=1e-3, holdout=0.96)


def test_help_gives_the_defaults_and_a_log_gets_whole_lines(tmp_path, capsys):
    with pytest.raises(SystemExit):
        distill.main(["--help"])
    shown = " ".join(capsys.readouterr().out.split())
    for default in ("default 4", "default 3e-4", "default 256", "default 0.02", "default 1)", "default 0.05"):
        assert default in shown, default
    assert distill.main(["short", "--positions", "30", "--epochs", "1", "--out", str(tmp_path / "n.npz")]) == 0
    err = capsys.readouterr().err     # (not a terminal: each progress report a line of its own)
    assert "\r" not in err and err.splitlines()[-1].startswith("epoch 1: loss")
