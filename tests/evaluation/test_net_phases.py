"""Nets of the expert inputs and nets per phase: the forward pass against numpy, net files of
format version 2, `NetSet`, training a race net."""

from __future__ import annotations

import json

import numpy as np
import pytest

from nardy import _hooks, _net, InvalidArgumentError, Rules, Variant
from nardy import batch
from nardy.evaluation.net import EXPERT_UNITS, LATE_PIPS, Net, NetSet, contact, evaluate, phase_rows
from nardy.evaluation.training import train

from test_features import played_boards

VARIANTS = ["long", "short"]


def test_expert_units_are_the_cores() -> None:
    assert EXPERT_UNITS == _net.FEATURES


@pytest.mark.parametrize("simd", [True, False], ids=["avx2", "baseline"])
@pytest.mark.parametrize("hidden", [64, 128, 24])
@pytest.mark.parametrize("variant", VARIANTS)
def test_expert_forward_matches_numpy(variant: str, hidden: int, simd: bool) -> None:
    rows = played_boards(variant, steps=30, games=16)
    net = Net.initial(variant, hidden, seed=4, inputs="expert")
    try:
        _hooks.use_net_avx2(simd)
        for after in (False, True):
            assert np.abs(net.forward(rows, after=after) - net.forward_reference(rows, after=after)).max() < 1e-5
    finally:
        _hooks.use_net_avx2(True)


def header_of(path) -> dict:
    with np.load(path) as f:
        return json.loads(str(f["header"]))


def test_net_files_carry_inputs_and_phase(tmp_path) -> None:
    net = Net.initial("long", 16, seed=1, inputs="expert", phase="race").with_meta({"command": "x"})
    net.save(tmp_path / "n.npz")
    header = header_of(tmp_path / "n.npz")
    assert (header["version"], header["inputs"], header["phase"]) == (2, "expert", "race")
    back = Net.load(tmp_path / "n.npz")
    assert (back.inputs, back.phase, back.meta, back.w1.shape) == ("expert", "race", {"command": "x"}, (226, 16))
    assert np.array_equal(back.w1, net.w1)
    # a net of TD-Gammon's inputs for any phase is written as version 1, as before
    Net.initial("short", 8).save(tmp_path / "old.npz")
    assert header_of(tmp_path / "old.npz")["version"] == 1
    assert (Net.load(tmp_path / "old.npz").inputs, Net.load(tmp_path / "old.npz").phase) == ("td198", "any")


@pytest.mark.parametrize("change", [
    {"inputs": "fancy"}, {"phase": "opening"}, {"inputs": ["expert"]}, {"version": 3}, {"version": 1},
    {"inputs": "td198"},   # the shape of w1 (226 rows) is not that of these inputs
])
def test_bad_version_2_headers_are_refused(tmp_path, change: dict) -> None:
    net = Net.initial("short", 8, inputs="expert", phase="contact")
    header = {"format": "nardy-net", "version": 2, "variant": "short", "meta": {}, "inputs": "expert",
              "phase": "contact", **change}
    np.savez(tmp_path / "n.npz", header=np.array(json.dumps(header)), w1=net.w1, b1=net.b1, w2=net.w2, b2=net.b2)
    with pytest.raises(InvalidArgumentError, match="n.npz"):
        Net.load(tmp_path / "n.npz")


def test_bad_inputs_and_phase_are_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="inputs"):
        Net.initial("short", 8, inputs="raw")
    with pytest.raises(InvalidArgumentError, match="phase"):
        Net.initial("short", 8, phase="middle")
    net = Net.initial("short", 8)
    with pytest.raises(InvalidArgumentError, match="must be a finite"):   # 198 rows for expert inputs
        Net("short", net.w1, net.b1, net.w2, net.b2, inputs="expert")


@pytest.mark.parametrize("simd", [True, False], ids=["avx2", "baseline"])
@pytest.mark.parametrize("sizes, race_inputs", [
    ((16, 8), "td198"),        # two hidden sizes: the boards split in Python
    ((64, 64), "expert"),      # one: both nets in one pass of the core (its AVX2 loops)
    ((128, 128), "td198"),
    ((24, 24), "expert"),      # (the baseline loops only)
], ids=["split", "core-64", "core-128-td198", "core-24"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_a_net_set_judges_each_board_by_its_phase(variant: str, sizes: tuple[int, int], race_inputs: str,
                                                  simd: bool) -> None:
    rows = played_boards(variant, steps=80, games=16)
    touching = contact(rows, variant)
    assert touching.any() and (~touching).any()
    a = Net.initial(variant, sizes[0], seed=1, inputs="expert", phase="contact")
    b = Net.initial(variant, sizes[1], seed=2, inputs=race_inputs, phase="race")
    both = NetSet(a, b)
    try:
        if not _hooks.use_net_avx2(simd) and simd:
            pytest.skip("this CPU has no AVX2 loops to test")
        for after in (False, True):
            out = both.forward(rows, after=after)
            assert np.array_equal(out[touching], a.forward(rows[touching], after=after))
            assert np.array_equal(out[~touching], b.forward(rows[~touching], after=after))
    finally:
        _hooks.use_net_avx2(True)
    assert evaluate(rows[:5], variant, net=both).shape == (5, 5)


@pytest.mark.parametrize("simd", [True, False], ids=["avx2", "baseline"])
@pytest.mark.parametrize("sizes", [(16, 8, 16), (64, 64, 64), (24, 24, 24)], ids=["split", "core-64", "core-24"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_a_set_of_three_judges_late_contact_by_its_late_net(variant: str, sizes: tuple[int, int, int],
                                                            simd: bool) -> None:
    rows = played_boards(variant, steps=120, games=16)
    early = Net.initial(variant, sizes[0], seed=1, inputs="expert", phase="early")
    race = Net.initial(variant, sizes[1], seed=2, inputs="expert", phase="race")
    late = Net.initial(variant, sizes[2], seed=3, inputs="expert", phase="late")
    three = NetSet(early, race, late)
    try:
        if not _hooks.use_net_avx2(simd) and simd:
            pytest.skip("this CPU has no AVX2 loops to test")
        for after in (False, True):
            which = phase_rows(rows, variant, after=after)
            assert {0, 1, 2} <= set(which.tolist())
            out = three.forward(rows, after=after)
            for k, net in enumerate((early, race, late)):
                assert np.array_equal(out[which == k], net.forward(rows[which == k], after=after))
    finally:
        _hooks.use_net_avx2(True)


@pytest.mark.parametrize("variant", VARIANTS)
def test_late_contact_is_the_side_not_on_roll_at_most_late_pips(variant: str) -> None:
    rows = played_boards(variant, steps=120, games=16)
    resting = batch.pips(rows, variant)[:, 1]            # the side not on roll (the rows' negative side)
    touching = contact(rows, variant)
    which = phase_rows(rows, variant)
    bound = LATE_PIPS[Variant.parse(variant)]
    assert (which == np.where(~touching, 1, np.where(resting <= bound, 2, 0))).all()
    assert (phase_rows(batch.flip(rows, variant), variant, after=True) == which).all()
    assert (phase_rows(rows, variant, late=False) == np.where(touching, 0, 1)).all()


def test_net_sets_refuse_mixed_nets() -> None:
    with pytest.raises(InvalidArgumentError, match="phase"):
        NetSet(Net.initial("short", 8), Net.initial("short", 8))
    with pytest.raises(InvalidArgumentError, match="one variant"):
        NetSet(Net.initial("short", 8), Net.initial("long", 8, phase="race"))
    with pytest.raises(InvalidArgumentError, match="two or three"):
        NetSet(Net.initial("short", 8), "race")  # type: ignore[arg-type]
    early, race, late = (Net.initial("short", 8, phase=p) for p in ("early", "race", "late"))
    assert NetSet(early, race, late).nets == (early, race, late)
    for nets in ((early, race), (Net.initial("short", 8, phase="contact"), race, late), (early, race, race),
                 (late, race, early)):
        with pytest.raises(InvalidArgumentError, match="early, race and late"):
            NetSet(*nets)


def test_training_expert_and_race_nets_is_seeded() -> None:
    rules = Rules("short")
    one = train(rules, 40, hidden=16, seed=3, parallel=16, batch_size=256, inputs="expert")
    two = train(rules, 40, hidden=16, seed=3, parallel=16, batch_size=256, inputs="expert")
    assert one.inputs == "expert" and np.array_equal(one.w1, two.w1)
    race = train(rules, 40, hidden=8, seed=3, parallel=16, batch_size=256, phase="race", contact_net=one)
    assert race.phase == "race" and not np.array_equal(race.w1, Net.initial("short", 8, seed=3, phase="race").w1)
    with pytest.raises(InvalidArgumentError, match="contact net"):
        train(rules, 10, phase="race")


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_default_judge_is_the_shipped_net_with_its_race_net(variant: str, monkeypatch) -> None:
    from importlib import resources

    from nardy import Position
    from nardy.evaluation import net as net_module

    judge = net_module.default_judge(variant)
    nets = resources.files("nardy.evaluation") / "nets"
    if (nets / f"{variant}-race.npz").is_file():
        assert isinstance(judge, NetSet) and judge.contact is net_module.default_net(variant)
        assert judge.race.phase == "race"
        if (nets / f"{variant}-late.npz").is_file():
            assert judge.late is not None and (judge.contact.phase, judge.late.phase) == ("early", "late")
    else:
        assert judge is net_module.default_net(variant)
    assert net_module.net_for(None, Rules(variant)) is judge
    # a race net shipped beside a contact net: positions are judged by the pair when no net is given
    hidden = net_module.default_net(variant).hidden
    contact_net = Net.initial(variant, hidden, seed=6, inputs="expert", phase="contact")
    race = Net.initial(variant, hidden, seed=7, inputs="expert", phase="race")
    monkeypatch.setitem(net_module._NETS, variant, contact_net)
    monkeypatch.setitem(net_module._NETS, f"{variant}-race", race)
    monkeypatch.setitem(net_module._NETS, f"{variant}-late", None)
    monkeypatch.setattr(net_module, "_JUDGES", {})
    pair = net_module.default_judge(variant)
    assert isinstance(pair, NetSet) and pair.race is race and pair.contact is net_module.default_net(variant)
    rows = played_boards(variant, steps=80, games=16)
    assert np.array_equal(evaluate(rows, variant), evaluate(rows, variant, net=pair))
    p = Position.start(variant)
    assert [m for m, _, _ in net_module.rank(p, (6, 5))] == [m for m, _, _ in net_module.rank(p, (6, 5), net=pair)]
    # and a late net beside them: the three
    early = Net.initial(variant, hidden, seed=8, inputs="expert", phase="early")
    late = Net.initial(variant, hidden, seed=9, inputs="expert", phase="late")
    monkeypatch.setitem(net_module._NETS, variant, early)
    monkeypatch.setitem(net_module._NETS, f"{variant}-late", late)
    monkeypatch.setattr(net_module, "_JUDGES", {})
    three = net_module.default_judge(variant)
    assert isinstance(three, NetSet) and three.nets == (early, race, late)
    assert np.array_equal(evaluate(rows, variant), evaluate(rows, variant, net=three))
