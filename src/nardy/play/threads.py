"""Work spread over local threads, its results taken in order, and a Ctrl-C that always gets through.

`concurrent.futures` waits in Python code: `submit` and `Future.result` run
`threading.Condition`, and a SIGINT that lands inside it (as a worker wakes the waiter, say) can
leave the condition's lock released, so that leaving its `with` raises "RuntimeError: release
unlocked lock" in place of the KeyboardInterrupt. Here work and results pass through
`queue.SimpleQueue`, whose `put` and `get` are single C calls that a signal interrupts cleanly.
The one Python-level wait left is each worker's `Thread.start`, a few microseconds per thread.
The calling thread waits for results in short turns: a SIGINT delivered to another thread, or
one simulated by `_thread.interrupt_main`, sets Python's flag without waking a blocked `get`, and
a chunk of work can run for minutes.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

POLL = 0.05  # seconds: how long the calling thread waits for a result before it looks again

Item = TypeVar("Item")
Result = TypeVar("Result")


def map_in_order(function: Callable[[Item], Result], items: Sequence[Item], threads: int,
                 each: Callable[[Result], Any]) -> None:
    """Call `function` on every item on `threads` worker threads and pass the results to `each`,
    on the calling thread, in the items' order, each as soon as it and those before it are done.

    An exception from `function` is raised here once the results before it are passed on. On
    any exception, a Ctrl-C included, the items not yet started are dropped and nothing waits
    for those still running: a caller that can stop them tells them to (see `simulate`).
    """
    todo: queue.SimpleQueue[tuple[int, Item]] = queue.SimpleQueue()
    for entry in enumerate(items):
        todo.put(entry)
    done: queue.SimpleQueue[tuple[int, Any, BaseException | None]] = queue.SimpleQueue()
    given_up = threading.Event()  # set by the calling thread: start nothing more

    def work() -> None:
        while not given_up.is_set():
            try:
                index, item = todo.get_nowait()
            except queue.Empty:
                return
            try:
                done.put((index, function(item), None))
            except BaseException as exc:  # handed to the calling thread, which raises it
                done.put((index, None, exc))

    workers = [threading.Thread(target=work, name=f"nardy-worker-{k}") for k in range(max(1, min(threads, len(items))))]
    try:
        for worker in workers:
            worker.start()
        early: dict[int, tuple[Any, BaseException | None]] = {}  # finished before their turn
        for index in range(len(items)):
            while index not in early:
                try:
                    got, result, error = done.get(timeout=POLL)
                except queue.Empty:  # (a signal need not wake a blocked get: look again)
                    continue
                early[got] = (result, error)
            result, error = early.pop(index)
            if error is not None:
                raise error
            each(result)
    except BaseException:  # never wait here, where a second Ctrl-C may land
        given_up.set()
        raise
    for worker in workers:  # each has found the queue empty
        worker.join()


__all__ = ["map_in_order"]
