"""Progress on stderr for long work: shown only on a terminal, never mixed with results."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from .graph import ProgressCallback


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

        def report(done: int, found: int) -> None:
            rate = done / max(time.perf_counter() - started, 1e-9)
            bar.update(task, description=f"{label}: {done:,} done, {found:,} found, {rate:,.0f}/s")

        yield report
