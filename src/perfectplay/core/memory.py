"""Memory budgets: long work watches the process's resident memory and stops in time.

A game with endless new positions would otherwise grow until the machine kills it, and
everything else running with it. The default budget is 80% of the memory available when
the work starts (``MemAvailable`` plus what this process already holds); ``--memory 4G``
sets it. Reading the resident size costs about 20 microseconds, so explorers look every
few thousand positions.
"""

from __future__ import annotations

import functools
import os
import re
import resource
import time
from typing import Any

from ..errors import StateBudgetExceeded, UsageProblem

_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
DEFAULT_SHARE = 0.8


class MemoryBudgetExceeded(StateBudgetExceeded):
    """Work stopped before it passed its memory budget."""


def parse_size(text: str) -> int:
    """'4G' -> 4 GiB in bytes (K, M, G, T; a bare number is bytes)."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)i?B?\s*", text.upper())
    if not match:
        raise UsageProblem(f"cannot read memory size {text!r}; write it like 512M or 4G")
    size = int(float(match.group(1)) * _UNITS[match.group(2)])
    if size < 1 << 20:
        raise UsageProblem(f"memory size {text!r} is below 1 MB")
    return size


def resident_bytes() -> int:
    """The resident memory of this process now (its peak where /proc is missing)."""
    try:
        with open("/proc/self/statm") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def give_back() -> None:
    """Hand the memory the C allocator holds freed back to the system (glibc's
    malloc_trim; nothing elsewhere). Worker threads allocate from arenas of their own, which
    keep what is freed: between the tiers of Quixo 4x4 on two cores, 40-80 MB so. (One
    arena for all threads and a fixed mapping threshold, glibc's mallopt, took 40 MB more
    off its peak but made it 10% slower: not done.)"""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.cache
def _malloc_trim() -> Any:
    """glibc's malloc_trim, looked up once (None where the C library has none)."""
    try:
        import ctypes

        return getattr(ctypes.CDLL(None), "malloc_trim", None)
    except (OSError, ImportError):
        return None


def peak_resident_bytes() -> int:
    """The peak resident memory of this process so far: Linux's VmHWM, which starts again
    at exec; getrusage's ru_maxrss does not (the kernel keeps it across exec), so a process
    started from a large one reports at least the parent's size (a bench's children did).
    ru_maxrss where /proc is missing."""
    try:
        with open("/proc/self/status") as handle:
            for line in handle:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def available_bytes() -> int | None:
    """Memory the system can still give (MemAvailable), or None where unknown."""
    try:
        with open("/proc/meminfo") as handle:
            for line in handle:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        return None
    return None


def default_budget() -> int | None:
    """80% of what is available now, counting what this process holds; None if unknown."""
    available = available_bytes()
    return None if available is None else int(DEFAULT_SHARE * (available + resident_bytes()))


def show_size(size: int) -> str:
    """Bytes as a person reads them: 3.2 GB, 512 MB, 13 KB."""
    if size >= 1 << 30:
        return f"{size / (1 << 30):.1f} GB"
    if size >= 1 << 20:
        return f"{size / (1 << 20):.0f} MB"
    return f"{max(1, round(size / 1024))} KB"


def exploring_advice(tiers: bool, search: bool) -> str:
    """What to do when exploring a game in memory meets the budget: the routes this game
    has (tiers on disk, a search of one position), not a protocol it already speaks."""
    routes = ["give more with --memory"]
    if tiers:
        routes.append("solve it tier by tier on disk with --save DIR")
    if search:
        routes.append("search one position with analyze --method search")
    if not tiers:
        routes.append("give the game tiers (the tier protocol) to solve it out of core")
    return ", or ".join(routes)


SAVE_ADVICE = "give more with --memory (finished tiers are kept: run it again to go on)"
"""What to do when a tier-by-tier save meets the budget."""


class MemoryWatch:
    """Checks the resident memory against a budget; ``limit`` None means the default."""

    INTERVAL = 0.02
    """Seconds between two readings of the resident size: checks asked for sooner pass (a
    solve asks after every chunk, thousands of times; it cannot grow far in 20 ms)."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit = default_budget() if limit is None else limit
        self._next = 0.0

    def check(self, what: str, positions: int, advice: str | None = None) -> None:
        """Raise MemoryBudgetExceeded when the process holds more than the budget; the
        message ends with ``advice`` (default: that of exploring a game without tiers)."""
        if self.limit is None or time.monotonic() < self._next:
            return
        self._next = time.monotonic() + self.INTERVAL
        if resident_bytes() > self.limit:
            raise MemoryBudgetExceeded(
                f"{what} stopped at the memory budget of {show_size(self.limit)} after "
                f"{positions:,} positions; "
                + (advice or exploring_advice(tiers=False, search=False))
            )  # fmt: skip
