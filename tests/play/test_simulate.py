"""Self-play in the compiled core: reproducible, independent of threads, legal, scored right."""

from __future__ import annotations

import numpy as np
import pytest

from nardy import Color, GameOverError, Position, Rules, SimulationError, reference, simulate
from nardy.cli import main

LONG_KINDS = {"oin": 1, "mars": 2, "koks": 3}
SHORT_KINDS = {"single": 1, "gammon": 2, "backgammon": 3}


def arrays(s):
    return [s.winner, s.starter, s.kind, s.plies, s.final_pips, s.final]


@pytest.mark.parametrize("variant", ["long", "short"])
def test_a_seeded_run_is_reproducible_bit_for_bit(variant):
    a = simulate(variant, 300, seed=11, chunk_size=64, threads=1)
    b = simulate(variant, 300, seed=11, chunk_size=64, threads=1)
    assert all((x == y).all() for x, y in zip(arrays(a), arrays(b)))
    c = simulate(variant, 300, seed=12, chunk_size=64, threads=1)
    assert not (a.plies == c.plies).all()


@pytest.mark.parametrize("variant", ["long", "short"])
def test_results_do_not_depend_on_the_number_of_threads(variant):
    one = simulate(variant, 500, seed=3, chunk_size=50, threads=1, record=True)
    two = simulate(variant, 500, seed=3, chunk_size=50, threads=2, record=True)
    assert all((x == y).all() for x, y in zip(arrays(one), arrays(two)))
    assert (one.trace == two.trace).all() and (one.trace_offsets == two.trace_offsets).all()


RULE_SETS = [
    Rules("long"), Rules("long", opening="dice", block_timing="end"), Rules("long", block_rule="home", koks=True),
    Rules("long", last_roll_draw=True, head_exception="permission"), Rules("short"), Rules("short", opening="reroll"),
]


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULE_SETS, ids=repr)
@pytest.mark.parametrize("policy", ["random", "first", "greedy"])
def test_every_simulated_move_is_legal_by_the_reference(rules, policy):
    """Replay games through the reference: each ply's result is one of its legal results."""
    s = simulate(rules, 6, seed=5, policy=policy, record=True, threads=1)
    for game in range(s.games):
        plies = s.trace[s.trace_offsets[game]:s.trace_offsets[game + 1]]
        assert len(plies) == s.plies[game]
        movers = plies[:, 28]
        assert movers[0] == s.starter[game]
        for i, ply in enumerate(plies):
            board, dice = tuple(int(n) for n in ply[:26]), (int(ply[26]), int(ply[27]))
            assert reference.status(board, rules) == 0
            legal = reference.movegen.results(board, dice, rules)  # also the last roll after the other side finished
            after = tuple(s.final[game]) if i == len(plies) - 1 else reference.flip(tuple(plies[i + 1][:26]), rules.variant)
            assert tuple(int(n) for n in after) in legal, (game, i)
        final = tuple(int(n) for n in s.final[game])
        if s.winner[game] >= 0:
            if reference.result(final, rules) is None:  # last_roll_draw: the loser's last roll came after
                assert movers[-1] != s.winner[game]
                final = reference.flip(final, rules.variant)
            else:
                assert movers[-1] == s.winner[game]
            kind, points = reference.result(final, rules)
            names = LONG_KINDS if rules.variant.value == "long" else SHORT_KINDS
            assert names[kind] == s.kind[game] == points
        else:
            assert 0 in reference.board.on_board(final) and reference.result(final, rules) is not None


def test_the_opening_follows_the_rule_option():
    reroll = simulate(Rules("short", opening="reroll"), 200, seed=1, record=True)
    firsts = reroll.trace[reroll.trace_offsets[:-1]]
    assert (firsts[:, 26] == firsts[:, 27]).any()  # a re-rolled opening can be a double
    s = simulate(Rules("short"), 200, seed=1, record=True)
    firsts = s.trace[s.trace_offsets[:-1]]
    assert not (firsts[:, 26] == firsts[:, 27]).any()  # the roll-off dice never are


def near_end(variant, white, black):
    return Position.from_points(variant, white=white, black=black, own_numbers=True)


@pytest.mark.parametrize("rules, white, black, kind", [
    (Rules("long"), {1: 1}, {24: 15}, 2),  # mars: the loser has borne off none
    (Rules("long", koks=True), {1: 1}, {24: 15}, 3),  # koks: and a checker in its first quarter
    (Rules("long", koks=True), {1: 1}, {12: 15}, 2),
    (Rules("long"), {1: 1}, {3: 14}, 1),  # oin: the loser has borne one off
    (Rules("short"), {1: 1}, {1: 14}, 1),  # single
    (Rules("short"), {1: 1}, {12: 15}, 2),  # gammon
    (Rules("short"), {1: 1}, {20: 15}, 3),  # backgammon: a checker in the winner's home
], ids=["mars", "koks", "mars-not-koks", "oin", "single", "gammon", "backgammon"])
def test_every_result_kind_is_reached_and_scored(rules, white, black, kind):
    """White bears off its last checker at once; what Black has left decides the kind."""
    start = near_end(rules.variant, white, black)
    s = simulate(rules, 50, seed=2, start=start, threads=1)
    assert (s.winner == Color.WHITE).all() and (s.kind == kind).all() and (s.plies == 1).all()
    assert (s.points == kind).all() and (s.final_pips[:, 0] == 0).all()


def test_last_roll_draw_can_draw():
    rules = Rules("long", last_roll_draw=True)
    start = near_end("long", {1: 1}, {1: 1, 3: 0} | {2: 1})
    s = simulate(rules, 200, seed=4, start=start, threads=1)
    assert (s.winner == -1).any() and (s.kind[s.winner == -1] == 0).all()
    assert ((s.winner == 0) | (s.winner == -1)).all()  # White moved first and always finishes
    assert (s.final_pips[s.winner == -1] == 0).all()  # a draw: both sides are off
    plain = simulate(Rules("long"), 200, seed=4, start=start, threads=1)
    assert (plain.winner == 0).all()


def test_drawn_games_in_full_runs_end_with_both_sides_off():
    s = simulate(Rules("long", last_roll_draw=True, koks=True), 3000, seed=11, threads=1)
    drawn = s.winner == -1
    assert drawn.any() and (s.final_pips[drawn] == 0).all()


def test_summary_rates_and_intervals():
    s = simulate("short", 2000, seed=9)
    summary = s.summary()
    rate, low, high = summary["white_wins"]
    assert low < rate < high and 0.45 < rate < 0.55
    assert abs(summary["white_wins"][0] + summary["black_wins"][0] - 1) < 1e-12
    assert sum(summary[k][0] for k in SHORT_KINDS) == pytest.approx(1)
    assert summary["mean_plies"] == s.plies.mean()


def test_results_can_be_saved(tmp_path):
    s = simulate("long", 20, seed=1, record=True)
    s.save(str(tmp_path / "games.npz"))
    loaded = np.load(tmp_path / "games.npz")
    assert (loaded["winner"] == s.winner).all() and (loaded["trace"] == s.trace).all()
    s.save(str(tmp_path / "games.csv"))
    lines = (tmp_path / "games.csv").read_text().splitlines()
    assert lines[0] == "winner,starter,kind,points,plies,white_pips,black_pips" and len(lines) == 21
    with pytest.raises(SimulationError, match=".npz or .csv"):
        s.save(str(tmp_path / "games.txt"))


@pytest.mark.parametrize("kwargs, match", [
    (dict(games=-1), "games must be"),
    (dict(games=10, policy="clever"), "unknown policy 'clever'"),
    (dict(games=10, threads=0), "threads must be"),
    (dict(games=10, chunk_size=0), "chunk_size must be"),
    (dict(games=10, seed=-5), "seed must be"),
    (dict(games=10, start="start"), "start must be a Position"),
])
def test_bad_arguments_raise_clear_errors(kwargs, match):
    with pytest.raises(SimulationError, match=match):
        simulate("long", **kwargs)


def test_a_finished_start_position_is_refused():
    finished = Position.from_points("long", white={}, black={24: 15}, own_numbers=True)
    with pytest.raises(GameOverError):
        simulate("long", 1, start=finished)


def test_cli_simulate_prints_a_summary(capsys, tmp_path):
    assert main(["simulate", "long", "--games", "200", "--seed", "1", "--out", str(tmp_path / "g.csv")]) == 0
    text = capsys.readouterr().out
    assert "200 games of long nardy" in text and "mars" in text and "games/s" in text
    assert main(["simulate", "short", "--games", "10", "--policy", "smart"]) == 2
    assert "unknown policy 'smart'" in capsys.readouterr().err


def own_pips(variant):
    from nardy import Variant, batch

    return lambda after: -batch.pips(after, Variant(variant))[:, 0].astype(float)


@pytest.mark.parametrize("rules", [Rules("long"), Rules("short"), Rules("long", last_roll_draw=True, opening="dice")], ids=repr)
def test_a_user_evaluator_is_called_in_batches_and_reproducible(rules):
    calls = []

    def evaluate(after):
        calls.append(len(after))
        return own_pips(rules.variant.value)(after)

    a = simulate(rules, 60, seed=3, policy=evaluate, chunk_size=30)
    b = simulate(rules, 60, seed=3, policy=own_pips(rules.variant.value), chunk_size=30)
    assert all((x == y).all() for x, y in zip(arrays(a), arrays(b)))
    assert len(calls) <= 2 * a.plies.max() + 2 and max(calls) > 30  # one call per ply and chunk
    assert set(a.winner.tolist()) <= {-1, 0, 1} and (a.kind[a.winner >= 0] >= 1).all()
    for game in range(a.games):  # the final positions are finished games, scored as the reference scores them
        final = tuple(int(n) for n in a.final[game])
        if a.winner[game] >= 0:
            scored = reference.result(final, rules) or reference.result(reference.flip(final, rules.variant), rules)
            assert scored[1] == a.kind[game]


def test_a_bad_evaluator_is_reported():
    with pytest.raises(SimulationError, match="finite scores"):
        simulate("long", 2, seed=1, policy=lambda after: np.zeros(3))
    with pytest.raises(SimulationError, match="record=True needs a built-in policy"):
        simulate("long", 2, seed=1, policy=lambda after: np.zeros(len(after)), record=True)


def test_recording_holds_little_more_than_its_output():
    """record=True: the trace (nearly all of the output) is joined as chunks arrive, not held twice
    (it was 2.0x: every chunk's trace, then their concatenation). tracemalloc sees numpy's and the
    core's trace memory."""
    import tracemalloc

    simulate("short", 10, seed=1, record=True, threads=1)  # imports and caches outside the count
    tracemalloc.start()
    try:
        s = simulate("short", 4000, seed=5, record=True, threads=1, chunk_size=200)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    output = sum(a.nbytes for a in (s.winner, s.starter, s.kind, s.plies, s.final_pips, s.final, s.trace,
                                     s.trace_offsets))
    assert peak <= 1.2 * output
    one = simulate("short", 4000, seed=5, record=True, threads=1, chunk_size=4000)
    assert one.trace.shape[0] == one.trace_offsets[-1] and one.trace.flags.c_contiguous


@pytest.mark.parametrize("games", [10**14, 2**63])
def test_more_games_than_the_machine_can_hold_are_refused_before_any_work(games):
    """It built a list of 10**11 chunk sizes first, growing by gigabytes (session 9's finding)."""
    import tracemalloc

    tracemalloc.start()
    try:
        with pytest.raises(SimulationError, match=r"games need [0-9,]+ bytes for their results \(37 a game\), more "
                                                  r"than this machine's [0-9,]+; play them in parts"):
            simulate("long", games, seed=1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000  # refused before any chunk or seed was made


def test_the_cli_refuses_more_games_than_memory_without_a_traceback(capsys):
    assert main(["simulate", "long", "--games", "100000000000000", "--seed", "1"]) == 2
    assert "play them in parts" in capsys.readouterr().err


def test_a_rollout_of_more_games_than_memory_is_refused_before_any_work():
    from nardy import InvalidArgumentError
    from nardy.evaluation.rollout import rollout

    with pytest.raises(InvalidArgumentError, match="bytes for their outcomes, more than this machine's"):
        rollout(Position.start("short"), games=10**15)


def test_an_evaluator_returning_what_is_not_numbers_is_a_simulation_error():
    with pytest.raises(SimulationError, match="the evaluator must return .* finite scores, got what is not numbers"):
        simulate("long", 4, seed=1, policy=lambda afterstates: ["x"] * len(afterstates))


def test_the_threads_reported_are_those_that_played():
    """`simulate --threads 100000` for 10 games said "on 100000 thread(s)"."""
    assert simulate("long", 10, seed=1, threads=100_000).threads == 1  # one chunk
    assert simulate("long", 10, seed=1, threads=3, chunk_size=4).threads == 3
    assert simulate("long", 10, seed=1, threads=8, chunk_size=4).threads == 3
    assert simulate("long", 4, seed=1, threads=4, policy=lambda a: [0.0] * len(a)).threads == 1


def test_save_speaks_of_the_api_not_of_cli_flags(tmp_path):
    s = simulate("short", 2, seed=1)
    with pytest.raises(SimulationError, match="cannot save a simulation to .*games.txt.*must end in .npz or .csv") as caught:
        s.save(str(tmp_path / "games.txt"))
    assert "--out" not in str(caught.value)


@pytest.mark.parametrize("variant, record", [("long", True), ("short", False)])
def test_simulation_load_reads_back_what_save_and_simulate_out_wrote(variant, record, tmp_path):
    from nardy.play.simulate import Simulation

    s = simulate(Rules(variant, opening="reroll") if variant == "short" else variant, 40, seed=3, record=record,
                 chunk_size=15)
    s.save(str(tmp_path / "games.npz"))
    loaded = Simulation.load(tmp_path / "games.npz")
    assert (loaded.rules, loaded.policy, loaded.seed, loaded.chunk_size, loaded.threads, loaded.seconds) == \
        (s.rules, s.policy, s.seed, s.chunk_size, s.threads, s.seconds)
    for name in ("winner", "starter", "kind", "plies", "final_pips", "final", "trace", "trace_offsets"):
        mine, theirs = getattr(s, name), getattr(loaded, name)
        assert (mine is None and theirs is None) or (np.array_equal(mine, theirs) and mine.dtype == theirs.dtype), name
    assert loaded.summary() == s.summary()
    assert main(["simulate", variant, "--games", "30", "--seed", "2", "--out", str(tmp_path / "cli.npz")]) == 0
    assert Simulation.load(str(tmp_path / "cli.npz")).games == 30


def test_simulation_load_refuses_what_save_did_not_write(tmp_path):
    from nardy import InvalidArgumentError
    from nardy.play.simulate import Simulation

    s = simulate("long", 10, seed=1)
    s.save(str(tmp_path / "games.csv"))
    with pytest.raises(SimulationError, match="reads the .npz files save writes"):
        Simulation.load(tmp_path / "games.csv")
    with pytest.raises(SimulationError, match="cannot read .*nowhere.npz.*No such file"):
        Simulation.load(tmp_path / "nowhere.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(SimulationError, match="junk.npz: not a simulation file"):
        Simulation.load(tmp_path / "junk.npz")
    np.savez(tmp_path / "other.npz", winner=np.zeros(3))
    with pytest.raises(SimulationError, match="other.npz: not a simulation file nardy saved .*header"):
        Simulation.load(tmp_path / "other.npz")
    s.save(str(tmp_path / "games.npz"))
    with np.load(tmp_path / "games.npz") as data:
        arrays = dict(data)
    arrays["kind"] = arrays["kind"].copy()
    arrays["kind"][0] = 7
    np.savez(tmp_path / "bad.npz", **arrays)
    with pytest.raises(SimulationError, match="'kind' has values outside 0..3"):
        Simulation.load(tmp_path / "bad.npz")
    with pytest.raises(InvalidArgumentError, match="a path"):
        Simulation.load(3)  # type: ignore[arg-type]


def test_simulation_load_refuses_damaged_boards_deep_headers_and_huge_entries(tmp_path):
    import json
    import zipfile

    from nardy.play.simulate import Simulation

    simulate("short", 5, seed=1).save(str(tmp_path / "games.npz"))
    with np.load(tmp_path / "games.npz") as data:
        arrays = dict(data)
    final = arrays["final"].astype(np.int16)
    final[0, 5] = 300  # would wrap to 44 as int8
    np.savez(tmp_path / "wide.npz", **{**arrays, "final": final})
    with pytest.raises(SimulationError, match="'final' has entries outside -15..15"):
        Simulation.load(tmp_path / "wide.npz")
    np.savez(tmp_path / "deep.npz", **{**arrays, "meta": np.array("[" * 100_000 + "]" * 100_000)})
    with pytest.raises(SimulationError, match="deep.npz: not a simulation file nardy saved .*nests too deep"):
        Simulation.load(tmp_path / "deep.npz")
    header = f"{{'descr': '<i8', 'fortran_order': False, 'shape': ({10**15},), }}"
    header += " " * (63 - len(header) % 64) + "\n"
    npy = b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode()
    with zipfile.ZipFile(tmp_path / "huge.npz", "w") as archive:
        archive.writestr("winner.npy", npy + bytes(16))
        archive.writestr("meta.npy", _npy_bytes(np.array(json.dumps({}))))
    with pytest.raises(SimulationError, match="huge.npz: not a simulation file nardy saved"):
        Simulation.load(tmp_path / "huge.npz")


def _npy_bytes(array):
    import io

    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()
