"""The progress callback that long work calls now and then (the CLI draws it on a terminal)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol


class ProgressCallback(Protocol):
    """Called with (units done, units found), and for level-by-level exploration the level
    (plies from the start) just finished. Units are states when exploring, nodes when
    searching."""

    def __call__(self, done: int, found: int, /, level: int | None = None) -> None: ...


Announcer = Callable[[str], None]

_announcers: list[Announcer] = []


def announce(text: str) -> None:
    """Tell whoever listens (the command line, on a terminal) a sentence about work that
    will take a while before any progress can be counted (a first compile)."""
    for listener in _announcers:
        listener(text)


def listen(announcer: Announcer) -> None:
    """Hear every ``announce`` from now on."""
    _announcers.append(announcer)
