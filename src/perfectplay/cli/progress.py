"""Progress on stderr for long work, never mixed with results: a live line on a terminal;
elsewhere (a log, a pipe) a plain line every ``PLAIN_EVERY`` seconds once work runs that
long, so a job that runs for minutes is never silent, and short work prints nothing."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from ..core.memory import peak_resident_bytes
from ..progress import ProgressCallback

PLAIN_EVERY = float(os.environ.get("PERFECTPLAY_PROGRESS_EVERY", "10"))
"""Seconds between two plain progress lines when stderr is no terminal (the variable is
for the tests)."""


class _PlainLines:
    """Progress as plain lines on stderr, one every PLAIN_EVERY seconds at most (and the
    first only after that long: short work says nothing)."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.started = time.perf_counter()
        self.next = self.started + PLAIN_EVERY

    def say(self, text: str) -> None:
        now = time.perf_counter()
        if now >= self.next:
            self.next = now + PLAIN_EVERY
            print(f"{text} ({now - self.started:,.0f} s)", file=sys.stderr, flush=True)


@contextmanager
def _heartbeat(label: str) -> Iterator[None]:
    """A line on stderr every PLAIN_EVERY seconds while the body runs (off a terminal)."""
    stop = threading.Event()
    started = time.perf_counter()

    def beat() -> None:
        while not stop.wait(PLAIN_EVERY):
            elapsed = time.perf_counter() - started
            print(f"{label}: still working ({elapsed:,.0f} s)", file=sys.stderr, flush=True)

    thread = threading.Thread(target=beat, name="perfectplay-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()


def peak_memory_mb() -> float:
    """The process's peak resident memory so far, in MB."""
    return peak_resident_bytes() / 2**20


@contextmanager
def progress_reporter(
    label: str, *, quiet: bool = False, expected: int | None = None
) -> Iterator[ProgressCallback | None]:
    """A callback that shows (done, found) counts with a rate (see the module docstring),
    and, when the work's size is ``expected`` (a last solve of the same game remembered),
    the time left at that rate."""
    if quiet:
        yield None
        return
    started = time.perf_counter()
    if not sys.stderr.isatty():
        lines = _PlainLines(label)

        def plain(done: int, found: int, /, level: int | None = None) -> None:
            where = "" if level is None else f"level {level}, "
            left = time_left(time.perf_counter() - started, done, expected)
            lines.say(f"{label}: {where}{done:,} done, {found:,} found{left}")

        yield plain
        return
    console = Console(stderr=True)
    with Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task(label)

        def report(done: int, found: int, /, level: int | None = None) -> None:
            rate = done / max(time.perf_counter() - started, 1e-9)
            where = "" if level is None else f"level {level}, "
            left = time_left(time.perf_counter() - started, done, expected)
            bar.update(
                task,
                description=f"{label}: {where}{done:,} done, {found:,} found, "
                f"{rate:,.0f}/s, {peak_memory_mb():,.0f} MB{left}",
            )

        yield report


class TierDisplay:
    """What a tier-by-tier build has done: tiers and positions marked, then solved.

    The solver reports (positions so far, same, level=tier): first while marking what play
    reaches (tiers root first), then (0, 0) with no level as the solving begins, then while
    solving (tiers leaves first, a new count, each tier told as it starts). While solving,
    the time left is estimated from the rate so far over the positions marked (rough: the
    tiers near the leaves cost less a position than those near the root).
    """

    def __init__(
        self, clock: Callable[[], float] = time.perf_counter, expected: int | None = None
    ) -> None:
        self.clock = clock
        self.expected = expected
        """The positions a last build of the game here marked (the marking's time left)."""
        self.marking_since: float | None = None
        self.solving_since: float | None = None
        self.solving = False
        self.last: int | None = None
        self.reached: set[int] = set()
        self.solved: set[int] = set()
        self.total = 0

    def describe(self, done: int, level: int | None) -> str:
        """The line to show after a report."""
        tier = -1 if level is None else level
        if done == 0 and level is None:  # the solving begins (a build taken up again
            self.solving, self.last = True, 0  # may have marked nothing: no count fell)
            return "solving tiers"
        if self.last is not None and not self.solving:
            self.solving = done < self.last  # marking counts up; solving counts anew
        self.last = done
        if not self.solving:
            self.reached.add(tier)
            self.total = done
            now = self.clock()
            if self.marking_since is None:
                self.marking_since = now
            left = time_left(now - self.marking_since, done, self.expected)
            return f"marking reachable positions: tier {tier}, {done:,} positions{left}"
        self.solved.add(tier)
        now = self.clock()
        if self.solving_since is None:
            self.solving_since = now
        # A build taken up again marks only the tiers left: "of" only while it is true.
        counted = len(self.solved) <= len(self.reached)
        tiers = f"{len(self.solved)} of {len(self.reached)}" if counted else len(self.solved)
        positions = f"{done:,} of {self.total:,}" if self.total >= done else f"{done:,}"
        text = f"solving tier {tier} ({tiers} tiers), {positions} positions"
        elapsed = now - self.solving_since
        if self.total >= done > 0 and elapsed >= 2:
            text += f", about {duration_text(elapsed * (self.total - done) / done)} left"
        return text


def time_left(elapsed: float, done: int, expected: int | None) -> str:
    """ ", about T left" at the rate so far when the whole is known (and 2 s have gone by
    to measure the rate), else nothing."""
    if expected is None or not 0 < done < expected or elapsed < 2:
        return ""
    return f", about {duration_text(elapsed * (expected - done) / done)} left"


def duration_text(seconds: float) -> str:
    """ "under a second", "40 s", "12 min", "3.5 h"."""
    if seconds < 1:
        return "under a second"
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def _bar() -> Progress:
    """A spinner, a line of text and the time elapsed, on stderr, gone when done."""
    return Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )


@contextmanager
def tier_progress(
    *, quiet: bool = False, expected: int | None = None
) -> Iterator[ProgressCallback | None]:
    """A callback showing a tier-by-tier build's tiers and positions (``expected``: the
    positions a last build of the game marked, for the marking's time left)."""
    if quiet:
        yield None
        return
    display = TierDisplay(expected=expected)
    if not sys.stderr.isatty():
        lines = _PlainLines("building the tablebase")

        def plain(done: int, found: int, /, level: int | None = None) -> None:
            lines.say(display.describe(done, level))

        yield plain
        return
    with _bar() as bar:
        task = bar.add_task("building the tablebase")

        def report(done: int, found: int, /, level: int | None = None) -> None:
            text = display.describe(done, level)
            bar.update(task, description=f"{text}, {peak_memory_mb():,.0f} MB")

        yield report


@contextmanager
def status_lines(label: str, *, quiet: bool = False) -> Iterator[Callable[[str], None] | None]:
    """A callback that shows a line of text as the work's progress: on a terminal a live
    line after ``label``; elsewhere a plain line every PLAIN_EVERY seconds at most. None
    when ``quiet``."""
    if quiet:
        yield None
        return
    if not sys.stderr.isatty():
        lines = _PlainLines(label)
        yield lambda text: lines.say(f"{label}: {text}")
        return
    with _bar() as bar:
        task = bar.add_task(label)
        yield lambda text: bar.update(task, description=f"{label}: {text}")


@contextmanager
def working(label: str, *, quiet: bool = False) -> Iterator[None]:
    """A spinner with ``label`` on stderr while the body runs (elsewhere, a line every
    PLAIN_EVERY seconds)."""
    if quiet:
        yield
        return
    if not sys.stderr.isatty():
        with _heartbeat(label):
            yield
        return
    with Console(stderr=True).status(label):
        yield


@contextmanager
def dask_progress(*, quiet: bool = False) -> Iterator[Callable[[dict[str, Any]], None] | None]:
    """A callback showing a solve on Dask: tasks and tiers done, rate, workers' memory."""
    if quiet:
        yield None
        return
    started = time.perf_counter()
    if not sys.stderr.isatty():
        lines = _PlainLines("solving on Dask")

        def plain(figures: dict[str, Any]) -> None:
            lines.say(
                f"solving on Dask: {figures['tasks']:,} of about {figures['total']:,} tasks, "
                f"{figures['tiers']} of {figures['all_tiers']} tiers solved"
            )

        yield plain
        return
    with _bar() as bar:
        task = bar.add_task("solving on Dask")

        def report(figures: dict[str, Any]) -> None:
            rate = figures["tasks"] / max(time.perf_counter() - started, 1e-9)
            bar.update(
                task,
                description=f"solving on Dask: {figures['tasks']:,} of about "
                f"{figures['total']:,} tasks ({rate:.1f}/s), {figures['tiers']} of "
                f"{figures['all_tiers']} tiers solved, workers' memory "
                f"{figures['memory'] / 2**20:,.0f} MB",
            )

        yield report
