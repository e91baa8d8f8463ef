"""Tier solving on a Dask cluster: the same tablebase, byte for byte, from one process or many.

The tier graph becomes a task graph. Marking what play reaches: a tier without moves inside
it is cut into spans of indices, and a task per span expands its reached positions and
writes what it found in each child tier as a bit set of its own (``reach-T-K-S.bits``); a
merge task per tier ors its parents' bit sets into its marks once they are all there; a
loopy tier is marked whole by one task. A span marked by the game's sweep (batch_mark_tier)
also leaves its marks with its ends recorded (``tier-T.ends-S``); when every span of a tier
left them, this process copies them into the tier's marks before solving, and the tier's
span tasks solve by batch_solve_tier. Solving, leaves first, every tier as soon as the plan
(``tiers.plan``) has its children finished, so that tiers that do not wait for one another
are solved at once (the sectors of one level of Nine Men's Morris): a task per span of a
tier without moves inside reads the tier's marks and its children's final records and
writes the records of its span to a file of its own (``tier-T.span-S``); a finishing task
joins the spans into the tier's file (fsync, hash, rename); a loopy tier is solved whole by
one task, within its worker's memory limit. No two tasks write the same file at once, every
task writes through a temporary name renamed when complete, so a task run again after its
worker died starts clean, and only this process (the client) writes ``progress.json``: a
solve run again goes on from the tiers, merges and spans it records as finished (their
files checked by hash). A small tier's tasks run in this process instead (HERE_AT_MOST):
their round trips through the scheduler would cost more than their work.

Precondition: the directory is on a file system every worker and this process see.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import itertools
import threading
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_for_any
from pathlib import Path
from typing import Any

import numpy as np

from ..core.memory import MemoryWatch, default_budget, show_size
from ..core.parallel import THREADS
from ..core.records import RecordFormat, TierSummary, format_for
from ..errors import GameError, InterruptedSolve, ParameterError, TablebaseError
from ..identity import identity_of
from ..rules import Rules
from ..terminals import Terminals
from ..tiers.files import (
    TierFiles,
    file_hashes,
    file_sha256,
    tier_file_name,
    write_atomically,
    write_json_atomically,
)
from ..tiers.graph import CHUNK, TierGraph
from ..tiers.marking import mark_every_position, reach_inside, reach_span
from ..tiers.methods import SWEEPS, TierJob, choose, method_named, refuse_idle, solve_tier
from ..tiers.one_pass import solve_span, solve_span_by_sweep
from ..tiers.plan import TierPlan
from ..tiers.solve import still_solved
from .build import build_header
from .header import Header, existing
from .shipping import Packed

SPAN = 1 << 21
"""Indices per span at most: a task's work (Connect Four 6x4 has tiers of 13 million)."""

DaskReport = Callable[[dict[str, Any]], None]
"""Told, now and then, what is done: tasks done and in all, tiers done, workers' memory."""

HERE_AT_MOST = CHUNK
"""A tier of at most this many positions is marked and solved in this process (the same
tasks, called here): a task's round trip through the scheduler costs more than its work
(Connect Four 4x4, 17 tiers of at most 34,320, took 0.9 s of tasks on 2 workers against
0.16 s for the whole solve in one process)."""

CONNECT_SECONDS = 10
"""How long to wait for a Dask scheduler given by address before saying it is not there."""


def build_on_dask(
    rules: Rules[Any, Any],
    directory: Path,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    report: DaskReport | None = None,
    announce: Callable[[str], None] | None = None,
    here_at_most: int | None = None,
    tier_method: str | None = None,
) -> tuple[Header, float]:
    """Solve a tier game into ``directory`` on Dask: a ``LocalCluster`` of ``workers``
    processes here, or the running cluster at ``scheduler``; tiers of at most
    ``here_at_most`` positions (HERE_AT_MOST) in this process; ``tier_method`` as the
    local solve takes it. The header and the seconds."""
    if rules.tiers is None:
        raise ParameterError(f"{rules.name} has no tiers: only tiered solves run on Dask")
    if rules.ends_in_scores():
        raise ParameterError(f"{rules.name} is scored: it is solved in one process, not on Dask")
    if tier_method is not None:  # refused before any work: an unknown name, or no tier
        refuse_idle(TierGraph(rules), method_named(tier_method))
    identity = identity_of(rules)
    found = existing(directory, identity)
    if found is not None:
        return found, 0.0
    dask = _dask()
    started = time.perf_counter()
    # The cluster starts (its workers import for seconds) while this process ranks the game.
    pool = ThreadPoolExecutor(1, thread_name_prefix="perfectplay-dask-start")
    connecting = pool.submit(_connect, dask, workers, scheduler)
    pool.shutdown(wait=False)
    try:
        ranking = None
        if rules.tiers.engine is not None:  # found here once, kept in the directory for all
            ranking = rules.tiers.engine.ranking(None, None, directory, identity)
        graph = TierGraph(rules)
        record = format_for(graph.longest if graph.longest is not None else 1 << 8)
        files = TierFiles(directory, record, identity)
        cluster, client = connecting.result()
    except BaseException:  # (a cluster that failed to start raises again: none to close)
        with contextlib.suppress(Exception):
            _close(*connecting.result())
        raise
    try:
        if announce is not None:
            announce(f"Dask dashboard: {client.dashboard_link}")
        here = HERE_AT_MOST if here_at_most is None else here_at_most
        _Run(client, rules, graph, files, report, here, tier_method).run()
    except KeyboardInterrupt:
        raise InterruptedSolve(
            f"interrupted while solving {rules.name} on Dask; the finished tiers and spans "
            f"are kept in {directory}: run the same solve again to go on"
        ) from None
    finally:
        _close(cluster, client)
    files.drop_stray_partials(graph.order)  # (a local run's bit sets among them)
    codes = None if ranking is None else ranking.as_json()
    return build_header(rules, graph, files, codes), time.perf_counter() - started


def _connect(dask: Any, workers: int | None, scheduler: str | None) -> tuple[Any, Any]:
    """A local cluster of ``workers`` (None with ``scheduler``) and a client of it."""
    cluster = None if scheduler is not None else _local_cluster(dask, workers)
    return cluster, _client(dask, cluster, scheduler)


def _close(cluster: Any, client: Any) -> None:
    client.close()
    if cluster is not None:
        cluster.close()


def _local_cluster(dask: Any, workers: int | None) -> Any:
    """A LocalCluster of ``workers`` one-thread processes, the machine's cores shared out."""
    cores = max(1, THREADS // (workers or 1))
    # Dask starts workers with MALLOC_TRIM_THRESHOLD_=65536, which makes every large numpy
    # array fresh pages from the kernel: a chunk's work took 3-4 times longer.
    importlib.import_module("dask").config.set(
        {"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}
    )
    return dask.LocalCluster(
        n_workers=workers or 1,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",
        silence_logs=50,
        env={"PERFECTPLAY_THREADS": str(cores)},
    )


def _client(dask: Any, cluster: Any, scheduler: str | None) -> Any:
    """A client of the local cluster, or of the scheduler at its address (one line, soon,
    when nothing answers there; the local cluster closed)."""
    try:
        return dask.Client(cluster if cluster is not None else scheduler, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError) as exc:
        if cluster is not None:
            cluster.close()
        raise TablebaseError(
            f"cannot reach the Dask scheduler at {scheduler} within {CONNECT_SECONDS} s "
            f"({type(exc).__name__}); is it running (dask scheduler), and is the address right?"
        ) from None


def _dask() -> Any:
    """dask.distributed, imported only when a solve runs on Dask (an optional extra)."""
    try:
        return importlib.import_module("dask.distributed")
    except ImportError:
        raise ParameterError(
            "solving on Dask needs it installed: pip install 'perfectplay[distributed]'"
        ) from None


def spans(size: int, workers: int = 2) -> list[tuple[int, int]]:
    """A tier's indices cut into spans of whole chunks, at most SPAN each, as even as
    chunks allow and as many as a multiple of ``workers``: every tier waits for the one
    before it, so a last span running alone would leave the other workers idle."""
    if size <= 0:
        return [(0, 0)]
    chunks = -(-size // CHUNK)
    count = max(1, min(chunks, workers * -(-size // (SPAN * workers))))
    bounds = [min(size, (i * chunks // count) * CHUNK) for i in range(count + 1)]
    return list(itertools.pairwise(bounds))


class _Run:
    """One solve's task graph, submitted tier by tier as their inputs are ready."""

    def __init__(
        self,
        client: Any,
        rules: Rules[Any, Any],
        graph: TierGraph,
        files: TierFiles,
        report: DaskReport | None,
        here_at_most: int = HERE_AT_MOST,
        tier_method: str | None = None,
    ) -> None:
        self.client, self.graph, self.files, self.report = client, graph, files, report
        self.tier_method = tier_method
        # Sent with each task as bytes (data scattered once dies with its worker), loaded
        # once per worker process: a game's tables, built as it ranks, then serve every task.
        self.rules = Packed(rules)
        self.here_at_most = here_at_most
        work = sum(graph.sizes.values())
        smallest, largest = min(graph.sizes.values()), max(graph.sizes.values())
        if smallest <= here_at_most:
            self.rules.here(rules)  # tasks run here take the rules themselves
            _warm_task(self.rules, work)
        # Each worker loads the rules and the loops the solve's work takes before its first
        # task (a game's compiled loops load in 2-3 s: the first tiers, small, went as plain
        # Python meanwhile: 1.3 s for Connect Four 4x4's tier 15, 0.06 s compiled).
        self.warming = [
            client.submit(
                _warm_task, self.rules, work, workers=[worker], allow_other_workers=False,
                pure=False,
            )
            for worker in client.nthreads()
            if largest > here_at_most
        ]  # fmt: skip
        self.directory = str(files.directory)
        self.bytes = files.record.bytes
        self.threads = max(1, sum(client.nthreads().values()))
        self.done_tasks = 0
        self.total_tasks = 0
        self.noting = threading.RLock()  # progress.json and the counts: one tier at a time
        progress = files.progress
        progress.setdefault("merged", [])
        progress.setdefault("spans", {})
        self.parents: dict[int, list[int]] = {t: [] for t in graph.order}
        for tier in graph.order:
            for kid in graph.children[tier]:
                self.parents[kid].append(tier)

    def run(self) -> None:
        """Mark what play reaches, root first, then solve leaves first."""
        wait = _wait
        graph, files = self.graph, self.files
        root = graph.hooks.initial_tier
        halves = 1 if graph.hooks.ranked_by_engine else 2  # an engine's tiers are not marked
        self.total_tasks = sum(halves * (len(self.spans(t)) + 1) for t in graph.order)
        reach: dict[int, list[Any]] = {}
        solved = still_solved(graph, files)  # (one lost since: marked and solved again)
        if graph.hooks.every_position:  # a database: every index marked here, no reach tasks
            mark_every_position(graph, files, None)
        for tier in graph.order:  # parents first: a tier's marks are whole once merged
            if files.is_expanded(tier) or tier in solved:
                continue  # a solved tier's children are solved: nothing to mark
            if graph.hooks.ranked_by_engine:
                continue  # every index reached: made so when the tier is solved (``_solve``)
            if tier not in files.progress["merged"]:
                inputs = [f for p in self.parents[tier] for f in reach.get(p, [])]
                wait(inputs)
                self._tick(len(inputs))
                self._merge(tier, root)
            reach[tier] = self._reach(tier)
        for futures in reach.values():
            wait(futures)
            self._tick(len(futures))
        for tier in graph.order:
            if not files.is_expanded(tier):
                files.progress["expanded"].append(tier)
                if tier in reach and self._record_ends(tier):
                    files.progress.setdefault("ends_recorded", []).append(tier)
        write_json_atomically(files.progress_path, files.progress)
        for path in files.directory.glob("*.ends-*"):
            path.unlink()
        self._solve_as_ready(TierPlan(graph, solved))

    def _solve_as_ready(self, plan: TierPlan) -> None:
        """Solve every tier of the plan as soon as its children are finished, each in a
        thread of this process that submits its tasks and waits for them: tiers that do
        not wait for one another run on the workers at once."""
        pool = ThreadPoolExecutor(max(1, self.threads), thread_name_prefix="perfectplay-tier")
        running: dict[Future[None], int] = {}
        try:
            while not plan.done:
                for tier in plan.ready():
                    plan.start(tier)
                    running[pool.submit(self._solve, tier)] = tier
                finished, _ = wait_for_any(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    future.result()  # (a tier's failure raised here, the others let go)
                    plan.finish(running.pop(future))
        finally:
            pool.shutdown(wait=False, cancel_futures=True)

    def spans(self, tier: int) -> list[tuple[int, int]]:
        """The spans of a tier for this cluster's threads."""
        return spans(self.graph.sizes[tier], self.threads)

    def _tick(self, count: int) -> None:
        with self.noting:
            self.done_tasks += count
            done = self.done_tasks
            tiers = len(self.files.progress["solved"])  # as noted: no hashing
        if self.report is not None:
            memory = sum(
                w.get("metrics", {}).get("memory", 0)
                for w in self.client.scheduler_info().get("workers", {}).values()
            )
            self.report(
                {
                    "tasks": done,
                    "total": self.total_tasks,
                    "tiers": tiers,
                    "all_tiers": len(self.graph.order),
                    "memory": memory,
                }
            )

    def _record_ends(self, tier: int) -> bool:
        """Copy into a tier's marks the ends its reach tasks recorded (each span's marks
        with its ends, by batch_mark_tier), when every span of the current cut left them;
        whether it did. This process alone writes the tier's marks now (its reach tasks
        are done), and a crash before progress.json says so leaves ends that solving by
        chunks judges again."""
        paths = [self.files.directory / _ends_name(tier, span) for span in self.spans(tier)]
        if not self.graph.sizes[tier] or not all(path.exists() for path in paths):
            return False
        marks = self.files.partial(tier, self.graph.sizes[tier])
        for span, path in zip(self.spans(tier), paths, strict=True):
            marks[span[0] : span[1]] = np.fromfile(path, dtype=marks.dtype)
        if isinstance(marks, np.memmap):
            marks.flush()
        return True

    def _merge(self, tier: int, root: int) -> None:
        """Or the bit sets the tier's parents wrote into its marks (in this process: the
        only writer of the tier's marks at this moment)."""
        size = self.graph.sizes[tier]
        marks = self.files.partial(tier, size)
        reached = np.asarray(self.files.record.reached, dtype=marks.dtype)
        if tier == root:
            code = np.array([self.graph.rules.key_of(self.graph.rules.initial_state())])
            marks[int(self.graph.hooks.batch_rank(tier, code)[0])] = reached
        found = np.zeros(-(-size // 8), dtype=np.uint8)  # the bit sets or-ed, still packed
        for parent in self.parents[tier]:
            for path in sorted(self.files.directory.glob(f"reach-{parent}-{tier}-*.bits")):
                found |= np.fromfile(path, dtype=np.uint8)
        marks[np.flatnonzero(np.unpackbits(found, count=size))] = reached
        if isinstance(marks, np.memmap):
            marks.flush()
        self.files.progress["merged"].append(tier)
        write_json_atomically(self.files.progress_path, self.files.progress)

    def _reach(self, tier: int) -> list[Any]:
        """Submit the marking of a tier's children: by spans, or whole when loopy."""
        if tier in self.graph.loopy:
            return [
                self._submit(tier, _reach_loopy_task, self.rules, self.directory, self.bytes, tier)
            ]
        return [
            self._submit(
                tier, _reach_span_task, self.rules, self.directory, self.bytes, tier, span, n
            )
            for n, span in enumerate(self.spans(tier))
        ]

    def _submit(self, tier: int, task: Callable[..., Any], *args: Any) -> Any:
        """A task of a tier: a Dask future, or done here for a tier of at most
        ``here_at_most`` positions."""
        if self.graph.sizes[tier] <= self.here_at_most:
            return _Done(task(*args))
        return self.client.submit(task, *args, pure=False)

    def _solve(self, tier: int) -> None:
        """Solve a tier (its children are final): spans and a join, or whole when loopy."""
        files = self.files
        if self.graph.hooks.ranked_by_engine:  # every index reached, as in one process
            marks = files.all_reached(tier, self.graph.sizes[tier])
            if isinstance(marks, np.memmap):
                marks.flush()  # read by the workers' tasks
        else:  # a tier a run in one process finished but did not note is taken back here
            marks = files.partial(tier, self.graph.sizes[tier])
        del marks
        if tier in self.graph.loopy:
            self._solve_loopy(tier)
            return
        cut = self.spans(tier)
        futures = {}
        for span in cut:
            name = _span_name(tier, span)
            kept = files.progress["spans"].get(name)
            path = files.directory / name
            if kept is not None and path.exists() and file_sha256(path) == kept["sha256"]:
                continue
            futures[name] = self._submit(
                tier,
                _solve_span_task,
                self.rules,
                self.directory,
                self.bytes,
                tier,
                span,
                name,
                self.tier_method,
            )
        for name, future in futures.items():
            result = future.result()
            with self.noting:
                files.progress["spans"][name] = result
                write_json_atomically(files.progress_path, files.progress)
            self._tick(1)
        self._join(tier, [_span_name(tier, span) for span in cut])

    def _solve_loopy(self, tier: int) -> None:
        """A loopy tier, whole, by one task."""
        future = self._submit(tier, _solve_loopy_task, self.rules, self.directory, self.bytes,
                              tier, self.tier_method)  # fmt: skip
        _wait([future])
        self._tick(1)
        self._finished(tier, future.result())

    def _join(self, tier: int, names: list[str]) -> None:
        """A tier's spans, all solved, joined into its file by one task; their summaries
        merged into its entry; the spans' files and notes let go."""
        files = self.files
        with self.noting:
            summaries = [files.progress["spans"][name]["summary"] for name in names]
            methods = {files.progress["spans"][name].get("method") for name in names}
        joined = self._submit(tier, _join_task, self.directory, tier, names)
        _wait([joined])
        summary = TierSummary()
        for part in summaries:
            summary.merge_json(part)
        method = methods.pop() if len(methods) == 1 else None
        self._finished(tier, {**joined.result(), **summary.as_json(), "method": method})
        with self.noting:
            for name in names:
                del files.progress["spans"][name]
                (files.directory / name).unlink(missing_ok=True)
            write_json_atomically(files.progress_path, files.progress)
        self._tick(1)

    def _finished(self, tier: int, entry: dict[str, Any]) -> None:
        with self.noting:
            self.files.progress["solved"][str(tier)] = entry
            write_json_atomically(self.files.progress_path, self.files.progress)
        for path in self.files.directory.glob(f"reach-*-{tier}-*.bits"):
            path.unlink()


class _Done:
    """A task done in this process, read as a Dask future is."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def result(self) -> Any:
        return self.value


def _wait(futures: list[Any]) -> None:
    """Wait for the Dask futures among ``futures`` (a task done here is done)."""
    remote = [future for future in futures if not isinstance(future, _Done)]
    if remote:
        _dask().wait(remote)


def _span_name(tier: int, span: tuple[int, int]) -> str:
    """The file of a span's records, named by its indices: a solve taken up again with
    another number of workers cuts other spans and never mistakes one for another."""
    return f"{tier_file_name(tier, 'span')}-{span[0]}-{span[1]}"


def _ends_name(tier: int, span: tuple[int, int]) -> str:
    """The file of a span's marks with its ends recorded, written by its reach task."""
    return f"{tier_file_name(tier, 'ends')}-{span[0]}-{span[1]}"


def _files(directory: str, record_bytes: int, rules: Rules[Any, Any]) -> TierFiles:
    """The tier files as a worker sees them (it never writes progress.json)."""
    return TierFiles(Path(directory), RecordFormat(record_bytes), identity_of(rules))


def _bit_sets(directory: Path, tier: int, kids: dict[int, Any], n: int) -> None:
    for kid, marked in kids.items():
        path = directory / f"reach-{tier}-{kid}-{n}.bits"
        write_atomically(path, np.packbits(marked.astype(np.bool_)).tobytes())


def _warm_task(packed: Packed, work: int) -> None:
    """Load the rules here, and the loops a compiled game chooses for ``work`` positions
    (compiled ones, from numba's cache, from 20,000 on)."""
    rules = packed.load()
    if rules.tiers is not None and rules.tiers.engine is not None:
        rules.tiers.engine.warm(work)


def _reach_span_task(
    packed: Packed, directory: str, record_bytes: int, tier: int, span: Any, n: int
) -> int:
    """Mark the children of a span of a tier in bit sets of this task's own."""
    rules = packed.load()
    graph = TierGraph(rules)
    files = _files(directory, record_bytes, rules)
    marks = np.memmap(
        files.directory / tier_file_name(tier, "partial"), dtype=files.record.dtype, mode="r"
    ) if graph.sizes[tier] else np.zeros(0, dtype=files.record.dtype)  # fmt: skip
    swept = graph.hooks.batch_mark_tier is not None  # a sweep marks records; else bits will do
    kind = files.record.dtype if swept else np.bool_
    kids = {k: np.zeros(graph.sizes[k], dtype=kind) for k in graph.children[tier]}
    start, stop = span
    count, ends = reach_span(graph, files, Terminals(rules.name), tier, marks, (start, stop), kids)
    if ends is not None:  # the span's marks with its ends recorded, for the coordinator
        write_atomically(files.directory / _ends_name(tier, (start, stop)), ends.tobytes())
    _bit_sets(files.directory, tier, kids, n)
    return count


def _reach_loopy_task(packed: Packed, directory: str, record_bytes: int, tier: int) -> int:
    """Mark a loopy tier inside (its marks file: no other task writes it now), and its
    children in bit sets of this task's own."""
    rules = packed.load()
    graph = TierGraph(rules)
    files = _files(directory, record_bytes, rules)
    records = files.partial(tier, graph.sizes[tier])
    kids = {k: np.zeros(graph.sizes[k], dtype=np.bool_) for k in graph.children[tier]}
    count = reach_inside(graph, files, Terminals(rules.name), tier, records, kids)
    if isinstance(records, np.memmap):
        records.flush()
    _bit_sets(files.directory, tier, kids, 0)
    return count


def _solve_span_task(
    packed: Packed,
    directory: str,
    record_bytes: int,
    tier: int,
    span: Any,
    name: str,
    forced: str | None = None,
) -> dict[str, Any]:
    """Solve a span of a tier into a file of its own (by the sweep or the chunks, as the
    table of tier methods chooses); its hash, counts and method."""
    rules = packed.load()
    graph = TierGraph(rules)
    files = _files(directory, record_bytes, rules)
    terminals = Terminals(rules.name)
    start, stop = span
    marks = np.memmap(
        files.directory / tier_file_name(tier, "partial"), dtype=files.record.dtype, mode="r"
    ) if graph.sizes[tier] else np.zeros(0, dtype=files.record.dtype)  # fmt: skip
    method = choose(TierJob(graph, files, terminals, tier), forced)
    if method.name in SWEEPS:
        swept = solve_span_by_sweep(graph, files, tier, marks, (start, stop))
        if swept is None:
            raise GameError(f"{rules.name}: batch_solve_tier declined a span of tier {tier}")
        out, summary = swept
    elif method.name == "chunks":
        out = np.zeros(stop - start, dtype=files.record.dtype)
        if out.shape[0] == graph.sizes[tier] and start != 0:
            raise AssertionError("a span that is the whole tier starts at 0")
        summary = solve_span(graph, files, terminals, tier, marks, (start, stop), out)
    else:
        raise GameError(f"tier method {method.name} does not solve a tier in spans")
    path = files.directory / name
    write_atomically(path, out.tobytes())
    return {"sha256": file_sha256(path), "summary": summary.as_json(), "method": method.name}


def _join_task(directory: str, tier: int, names: list[str]) -> dict[str, Any]:
    """Join a tier's spans into its final file; its hashes."""
    folder = Path(directory)
    final = folder / tier_file_name(tier, "rec")
    write_atomically(final, ((folder / name).read_bytes() for name in names))
    hashes = file_hashes(final)
    (folder / tier_file_name(tier, "partial")).unlink(missing_ok=True)
    return hashes


def _solve_loopy_task(
    packed: Packed, directory: str, record_bytes: int, tier: int, forced: str | None = None
) -> dict[str, Any]:
    """Solve a loopy tier whole in its marks file (by the table of tier methods, with the
    worker's own budget: most of its memory, as a local run has), then make it final;
    hash, counts and method."""
    rules = packed.load()
    graph = TierGraph(rules)
    files = _files(directory, record_bytes, rules)
    job = TierJob(graph, files, Terminals(rules.name), tier, watch=MemoryWatch(_worker_budget()))
    records, summary, method = solve_tier(job, forced)
    hashes = files.settle(tier, records, durable=True)
    files.on_disk()
    return {**hashes, **summary.as_json(), "method": method}


def _worker_budget() -> int | None:
    """The memory limit of the Dask worker running this task, where it is below the
    machine's default budget (tiers solved at once share the machine: a LocalCluster gives
    each worker its part); None (the default) outside a worker or with no limit."""
    try:
        limit = _dask().get_worker().memory_manager.memory_limit
    except (ValueError, AttributeError):  # (not in a worker)
        return None
    default = default_budget()
    if not limit or (default is not None and limit >= default):
        return None
    return int(limit)


def describe_memory(report: dict[str, Any]) -> str:
    """The workers' memory, for a progress line."""
    return show_size(int(report.get("memory", 0)))
