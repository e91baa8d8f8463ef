"""Chunks of work on every core: compute in threads, apply in this thread, in order.

A tiered solve spends its time in compiled kernels (unrank, expand, rank, un-moves) that
release the GIL, on chunks that do not depend on one another; only writing a chunk's
results into the records must not interleave with another chunk's. ``in_parallel`` runs the
first part of each chunk on a pool of threads and the second in the calling thread, in the
order of the chunks, with a few chunks in flight (memory stays that of a few chunks).
"""

from __future__ import annotations

import os
import threading
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

THREADS = max(1, min(8, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1))
"""Threads of the pool: the cores this process may use (PERFECTPLAY_THREADS overrides)."""
if os.environ.get("PERFECTPLAY_THREADS", "").isdigit():
    THREADS = max(1, int(os.environ["PERFECTPLAY_THREADS"]))


def in_parallel(
    items: Iterable[T],
    compute: Callable[[T], R],
    apply: Callable[[R], None],
    threads: int | None = None,
) -> None:
    """``apply(compute(item))`` for every item, ``compute`` on a pool of threads, ``apply``
    here and in the order of the items. One thread: no pool at all."""
    count = THREADS if threads is None else threads
    if count <= 1:
        for item in items:
            apply(compute(item))
        return
    pool = ThreadPoolExecutor(max_workers=count, thread_name_prefix="perfectplay")
    pending: deque[Future[R]] = deque()
    try:
        for item in items:
            pending.append(pool.submit(compute, item))
            if len(pending) > 2 * count:
                apply(pending.popleft().result())
        while pending:
            apply(pending.popleft().result())
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def on_threads(count: int, work: Callable[[int], None]) -> None:
    """``work(0)`` .. ``work(count - 1)``, each on a thread of its own, all joined; the
    first error a thread raised is raised here (daemon threads: Ctrl-C leaves at once)."""
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            work(i)
        except BaseException as exc:  # handed to the caller below
            errors.append(exc)

    workers = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(count)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    if errors:
        raise errors[0]
