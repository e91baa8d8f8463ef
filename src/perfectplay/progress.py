"""The progress callback that long work calls now and then (the CLI draws it on a terminal)."""

from __future__ import annotations

from typing import Protocol


class ProgressCallback(Protocol):
    """Called with (units done, units found), and for level-by-level exploration the level
    (plies from the start) just finished. Units are states when exploring, nodes when
    searching."""

    def __call__(self, done: int, found: int, /, level: int | None = None) -> None: ...
