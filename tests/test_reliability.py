"""Faults and misuse of the compiled core: threads sharing its objects, a position where no side
can ever move, game loops without end, Ctrl-C in long loops, more rows than memory.

Time bounds here are hang detectors (generous, for a shared machine), not speed claims.
"""

from __future__ import annotations

import _thread
import importlib
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import nardy
from nardy import InvalidPositionError, Position, Rules, SimulationError, simulate
from nardy import _backend as engine
from nardy.evaluation.rollout import rollout
from nardy.status import Status

simulate_module = importlib.import_module("nardy.play.simulate")  # `nardy.simulate` is the function
pytestmark = pytest.mark.skipif(nardy.BACKEND != "cython", reason="the compiled core is disabled")


def run_python(code: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=timeout)


# threads sharing one object that owns C buffers --------------------------------------------------
def test_one_generator_shared_by_threads_gives_every_thread_the_right_answers():
    # cap=1 makes every call grow (free and reallocate) the buffers that other threads are reading;
    # unserialised this crashed (double free / use after free) or answered wrongly
    result = run_python("""
        import threading
        import numpy as np
        from nardy import Rules, simulate
        from nardy import _backend as engine
        from nardy import _core
        rules = engine.core_rules(Rules("short"))
        boards = sorted({row[:26].tobytes() for row in simulate("short", 2, seed=1, threads=1, record=True).trace})
        rolls = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
        expected = {(b, r): engine.generator().moves(b, *r, rules) for b in boards for r in rolls}
        expected_seqs = {(b, r): engine.generator().sequences(b, *r, rules)[3].tobytes() for b in boards for r in rolls}
        shared = _core.Generator(1)
        wrong = []
        def work(seed):
            local = np.random.default_rng(seed)
            for _ in range(3000):
                b, r = boards[local.integers(len(boards))], rolls[local.integers(len(rolls))]
                if local.integers(4):
                    if shared.moves(b, *r, rules) != expected[b, r]:
                        wrong.append((b, r))
                elif shared.sequences(b, *r, rules)[3].tobytes() != expected_seqs[b, r]:
                    wrong.append((b, r))
        threads = [threading.Thread(target=work, args=(s,)) for s in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        print("wrong", len(wrong))
    """)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.split() == ["wrong", "0"]


# a position where neither side can ever move ------------------------------------------------------
def both_shut_out() -> list[int]:
    """Short nardy: both sides on the bar against the other's closed home board."""
    board = [0] * 26
    for p in range(1, 7):
        board[p], board[25 - p] = 2, -2
    board[25], board[0] = 3, -3
    return board


def test_both_sides_shut_out_is_flagged_by_both_backends(backend):
    board = both_shut_out()
    assert Position(board, "short", validate=False).status(backend=backend) == Status.BOTH_SHUT_OUT
    with pytest.raises(InvalidPositionError, match="neither can ever move"):
        Position(board, "short")
    with pytest.raises(InvalidPositionError, match="neither can ever move"):
        simulate("short", 1, seed=1, start=Position(board, "short", validate=False))
    for p in (1, 6, 19, 24):  # one point open: that side can enter some day
        opened = list(board)
        opened[p] = 1 if p < 7 else -1
        opened[25 if p < 7 else 0] += 1 if p < 7 else -1
        assert Position(opened, "short", validate=False).status(backend=backend) == Status.VALID
    one_side = list(board)
    one_side[0], one_side[24] = 0, -5  # only the mover is on the bar: the opponent moves
    assert Position(one_side, "short", validate=False).status(backend=backend) == Status.VALID


def test_the_core_game_loop_stops_at_the_ply_limit():
    from nardy import _simulate

    board = np.array(both_shut_out(), np.int8)  # bypassing validation, as a corrupt caller would
    out = _simulate.play_games(3, np.random.PCG64(1), engine.core_rules(Rules("short")), False, False, 0, board, 0)
    assert out == {"error": "too long", "game": 0}
    assert _simulate.MAX_PLIES == simulate_module.MAX_PLIES


@pytest.mark.parametrize("policy", ["random", lambda boards: -boards[:, 1:25].sum(axis=1)])
def test_simulate_names_the_ply_limit_when_a_game_does_not_end(monkeypatch, policy):
    monkeypatch.setattr(simulate_module, "MAX_PLIES", 5)  # every real game is longer than 5 plies
    with pytest.raises(SimulationError, match="went on for 5 plies .*the limit"):
        simulate("long", 10, seed=1, threads=1, policy=policy)


# Ctrl-C -----------------------------------------------------------------------------------------
def interrupted_after(seconds: float, call, *args, **kwargs):
    """Call `call(*args, **kwargs)` with SIGINT arriving after `seconds` (and again every second
    until it stops: Python runs a signal's handler wherever the main thread happens to be, and an
    exception raised inside a callback, such as hypothesis's gc hook, is dropped as unraisable);
    the seconds from the first signal to the stop."""
    done = threading.Event()

    def interrupt() -> None:
        if not done.wait(seconds):
            _thread.interrupt_main(signal.SIGINT)
            while not done.wait(1.0):
                _thread.interrupt_main(signal.SIGINT)

    sender = threading.Thread(target=interrupt, daemon=True)
    started = time.perf_counter()
    sender.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            call(*args, **kwargs)
        return time.perf_counter() - started - seconds
    finally:
        done.set()
        sender.join()


def test_ctrl_c_stops_perft():
    late = interrupted_after(0.3, engine.perft, Position.start("long").to_bytes(), 7, Rules("long"))
    assert late < 10
    start = Position.start("long").to_bytes()
    assert engine.perft(start, 2, Rules("long")) == engine.perft(start, 2, Rules("long"), "python")  # usable after


def test_ctrl_c_stops_simulate_and_its_worker_threads():
    before = set(threading.enumerate())  # threads other tests left behind are not this call's

    def started_here() -> list[threading.Thread]:
        return [thread for thread in threading.enumerate() if thread not in before]

    late = interrupted_after(0.3, simulate, "long", 10_000_000, seed=1, threads=2)
    assert late < 10
    deadline = time.perf_counter() + 10
    while started_here() and time.perf_counter() < deadline:  # the chunks still playing stop
        time.sleep(0.05)
    assert started_here() == []


def test_ctrl_c_stops_a_threaded_rollout_and_its_worker_threads():
    """Each chunk plays 8,000 games (about 4 s; a ply a fraction of a second, under the sanitizer
    build too): the interrupt came only when a chunk ended, and the chunks still running then went
    on to the end in the background, the process waiting for them at exit."""
    before = set(threading.enumerate())
    late = interrupted_after(0.3, rollout, Position.start("short"), 16_000, chunk_size=8_000, threads=2)
    assert late < 2
    deadline = time.perf_counter() + 10
    while [t for t in threading.enumerate() if t not in before] and time.perf_counter() < deadline:
        time.sleep(0.05)
    assert [t for t in threading.enumerate() if t not in before] == []


@pytest.mark.slow
def test_a_ctrl_c_at_any_moment_of_a_threaded_map_is_a_keyboard_interrupt_and_leaves_nothing_broken():
    # concurrent.futures waits in threading.Condition, where a SIGINT could land between a lock's
    # release and its re-acquire: "RuntimeError: release unlocked lock" in place of the
    # KeyboardInterrupt (it failed CI once), workers left raising, and a hang at exit. The
    # interrupts here land while items are queued, taken, finished and passed on.
    # The watchdog prints every thread's stack (and exits) if the script hangs, at its end included,
    # well before the bound, which is generous: beside CI's other jobs the script ran six times slower.
    result = run_python("""
        import _thread, faulthandler, queue, random, signal, threading, time
        faulthandler.dump_traceback_later(90, exit=True)
        from nardy.play.threads import map_in_order
        random.seed(1)
        delays = queue.SimpleQueue()  # one interrupter thread (a Timer's start could take the interrupt)

        def interrupter():
            while (delay := delays.get()) is not None:
                time.sleep(delay)
                _thread.interrupt_main(signal.SIGINT)

        threading.Thread(target=interrupter, daemon=True).start()
        outcomes = {}
        for trial in range(100):
            try:
                delays.put(random.uniform(0.002, 0.04))
                map_in_order(lambda x: x, range(300_000), 2, lambda result: None)
                outcome = "finished"
            except KeyboardInterrupt:
                outcome = "interrupted"
            except BaseException as exc:
                outcome = repr(exc)
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
        delays.put(None)
        print(outcomes)
    """, timeout=120)
    assert result.returncode == 0 and result.stderr == "", result.stderr[-3000:]
    assert result.stdout == "{'interrupted': 100}\n"


def test_threaded_map_passes_results_in_order_and_raises_the_first_error_after_those_before_it():
    from nardy.play.threads import map_in_order

    taken: list[int] = []
    map_in_order(lambda x: (time.sleep(0.001 * (x % 3)), x * x)[1], range(40), 3, taken.append)
    assert taken == [x * x for x in range(40)]

    def fail_at_7(x: int) -> int:
        if x == 7:
            raise SimulationError("item 7")
        return x

    taken.clear()
    with pytest.raises(SimulationError, match="item 7"):
        map_in_order(fail_at_7, range(20), 2, taken.append)
    assert taken == list(range(7))
    map_in_order(lambda x: x, [], 2, taken.append)  # no items: nothing passed on, no thread left
    assert taken == list(range(7))


def test_ctrl_c_stops_the_bear_off_table_build_and_race_rollouts():
    from nardy import _bearoff, _simulate
    from nardy.evaluation import bearoff as race

    assert interrupted_after(0.05, _bearoff.build, engine.core_rules(Rules("short"))) < 10
    views = np.zeros((1, 26), np.int8)
    views[0, 6] = 15
    mean = race.load().mean
    assert interrupted_after(0.2, _simulate.race_turns, views, 10**9, np.random.PCG64(1),
                             engine.core_rules(Rules("short")), mean) < 10


def test_ctrl_c_ends_the_perft_command():
    process = subprocess.Popen([sys.executable, "-m", "nardy", "perft", "long", "9"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    time.sleep(1.5)  # started and inside the core
    assert process.poll() is None
    process.send_signal(signal.SIGINT)
    try:
        process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail("nardy perft long 9 did not stop within 20 s of SIGINT")
    assert process.returncode != 0


# more rows than memory -----------------------------------------------------------------------------
@pytest.mark.skipif("asan" in os.environ.get("LD_PRELOAD", ""), reason="AddressSanitizer needs the address space")
@pytest.mark.parametrize("out", ["None", "batch.Workspace()"])
def test_a_generate_over_more_rows_than_memory_names_the_rows_and_bytes(out: str):
    # the address space is capped a little above what the input needs: the output cannot fit
    # (fresh arrays, or a Workspace that must grow: both worded by nardy, not the core)
    result = run_python("""
        import resource
        import numpy as np
        import nardy
        from nardy import Position, batch
        OUT = """ + out + """
        rows = 2_000_000
        views = np.tile(np.frombuffer(Position.start("long").to_bytes(), np.int8), (rows, 1))
        rolls = np.tile(np.array([[6, 5]], np.int8), (rows, 1))
        with open("/proc/self/status") as f:
            size = next(int(line.split()[1]) for line in f if line.startswith("VmSize")) * 1024
        resource.setrlimit(resource.RLIMIT_AS, (size + 32 * 2**20, resource.RLIM_INFINITY))
        try:
            batch.generate(views, rolls, nardy.Rules("long"), out=OUT)
        except nardy.OutOfMemoryError as exc:
            print(type(exc).__name__, isinstance(exc, MemoryError), exc)
    """)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.startswith("OutOfMemoryError True generate over 2,000,000 rows needs ")
    assert "bytes" in result.stdout and "fewer rows" in result.stdout


def test_a_move_generator_that_cannot_grow_raises_nardys_error(monkeypatch):
    # the core's buffers grow with MemoryError(); the door words it (a bare MemoryError leaked)
    from nardy import _compiled

    class Full:
        def moves(self, *args):
            raise MemoryError()
        ordered = sequences = moves

    monkeypatch.setattr(_compiled, "generator", lambda: Full())
    board = nardy.Position.start("short").to_bytes()
    for call in (_compiled.raw_results, _compiled.ordered, _compiled.sequences):
        with pytest.raises(nardy.OutOfMemoryError, match="could not get the memory for one position's results"):
            call(board, (3, 1), nardy.Rules("short"))


def test_a_generator_or_workspace_without_memory_for_its_buffers_raises_nardys_error(monkeypatch):
    # the core's constructors raise a bare MemoryError when malloc fails; the door words it
    from nardy import _compiled, batch

    def full():
        raise MemoryError()

    monkeypatch.setattr(_compiled, "Generator", full)
    monkeypatch.setattr(_compiled, "Workspace", full)
    with pytest.raises(nardy.OutOfMemoryError, match="no memory for a move generator's buffers"):
        batch.Generator("short")
    with pytest.raises(nardy.OutOfMemoryError, match="no memory for a batch workspace's buffers"):
        batch.Workspace()
