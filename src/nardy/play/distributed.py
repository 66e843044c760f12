"""Chunks of work on a Dask cluster: the optional extra `nardy[dask]`.

`simulate(..., executor=client)` and `rollout(..., executor=client)` check the client with
`check_executor` and hand their chunks to `run_in_order`: one task per chunk, each
with its own key, the results taken back in chunk order, so every chunk is in the result once
whatever the number of workers. A worker that dies mid-run loses only tasks that the scheduler
then runs again on another worker; a chunk is a function of its seed, so the rerun gives the
same games. Only if workers die while running the same chunk more often than the scheduler
allows (`distributed.scheduler.allowed-failures`, 3 by default) does the run fail, with
distributed's `KilledWorker`.

Nothing here imports dask before it is used: nardy imports without it.
"""

from __future__ import annotations

import sys
import uuid
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import InvalidArgumentError, NardyError

INSTALL = "pip install '.[dask]' in nardy's checkout"  # nardy is not on PyPI


def is_client(obj: object) -> bool:
    """Whether `obj` is a `distributed.Client` (without importing dask if it is not loaded)."""
    module = sys.modules.get("distributed")
    return module is not None and isinstance(obj, module.Client)


def connect(address: str, timeout: float = 10) -> Any:
    """A `distributed.Client` connected to the scheduler at `address` ("tcp://host:8786").

    Raises `InvalidArgumentError` if dask is not installed or no scheduler answers there in time.
    """
    try:
        from distributed import Client
    except ImportError:
        raise InvalidArgumentError(f"a Dask scheduler needs dask and distributed: {INSTALL}") from None
    try:
        return Client(address, timeout=timeout)
    except (OSError, ValueError) as exc:
        raise InvalidArgumentError(f"cannot connect to the Dask scheduler at {address!r}: {exc}") from None


def pickling_error(obj: object) -> str | None:
    """Why `obj` cannot be sent to Dask workers (cloudpickle's error), or None if it can."""
    import cloudpickle  # type: ignore[import-untyped]

    try:
        cloudpickle.dumps(obj)
    except Exception as exc:  # cloudpickle raises whatever the object's reduction raises
        return f"{type(exc).__name__}: {exc}"
    return None


def threads(client: Any) -> int:
    """The number of worker threads of the client's cluster now."""
    return sum(client.nthreads().values())


def check_executor(executor: Any, threads_given: bool, error: type[NardyError] = InvalidArgumentError) -> None:
    """Refuse, with `error`, an `executor` that is not a running `distributed.Client`, or one given
    beside local `threads` (`threads_given`): a cluster's workers set their own."""
    if not is_client(executor):
        raise error(f"executor must be a distributed.Client (Dask), got {executor!r}")
    if executor.status != "running":
        raise error(f"the Dask client is {executor.status}, not running")
    if threads_given:
        raise error("threads applies to local threads only; a Dask cluster's workers set their own")


def run_in_order(client: Any, function: Callable[[Any], Any], items: Sequence[Any], name: str,
                 on_result: Callable[[Any], None]) -> list[Any]:
    """[function(item) for item in items], one task per item on the client's cluster.

    Each task's key is `name`, a token of this call and the item's index, so no task is shared
    with another call, and each item's result is taken once, however often the scheduler had to
    run it. `on_result` is called with each result as it arrives (in any order); the list is in
    the items' order. An exception in a task is raised here and the other tasks are cancelled.
    """
    from distributed import as_completed

    token = uuid.uuid4().hex[:8]
    pending = {future.key: future for future in
               (client.submit(function, item, key=f"{name}-{token}-{k}") for k, item in enumerate(items))}
    order = {key: k for k, key in enumerate(pending)}
    results: list[Any] = [None] * len(order)
    try:
        for future in as_completed(list(pending.values())):
            result = results[order[future.key]] = future.result()
            del pending[future.key]
            future.release()  # a result in hand: the cluster need not keep it, nor recompute it if its worker dies
            on_result(result)
    finally:
        if pending:
            client.cancel(list(pending.values()))
    return results


__all__ = ["check_executor", "connect", "is_client", "run_in_order", "threads"]
