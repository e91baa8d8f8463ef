"""Progress on stderr for long work: shown only on a terminal, never mixed with results."""

from __future__ import annotations

import resource
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from ..progress import ProgressCallback


def peak_memory_mb() -> float:
    """The process's peak resident memory so far, in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@contextmanager
def progress_reporter(label: str, *, quiet: bool = False) -> Iterator[ProgressCallback | None]:
    """A callback that shows (done, found) counts with a rate; None when not on a terminal."""
    if quiet or not sys.stderr.isatty():
        yield None
        return
    console = Console(stderr=True)
    started = time.perf_counter()
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
            bar.update(
                task,
                description=f"{label}: {where}{done:,} done, {found:,} found, "
                f"{rate:,.0f}/s, {peak_memory_mb():,.0f} MB",
            )

        yield report
