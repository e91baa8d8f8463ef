"""Resume points of a loopy tier solved in its records: a kill loses minutes, not the tier.

``retrograde_in_records`` solves a tier in place in its working file (``tier-T.partial``),
with a bit per index beside it. Nine Men's Morris's sectors of a billion indices take an
hour each, most of it in the first pass (24 points, 5 stones a side, 2026-11-30: the
first pass 13.5 s of a 33-million-index sector, its 60 levels 0.5 s); before these
points, a kill lost the sector in progress. Every ``RESUME_EVERY`` seconds, at a moment
the solve is whole, it saves a point, and a solve run again goes on from the last one:

- **in the first pass**, after a piece is written: "the rows below ``row`` hold their first
  records". A first record depends on its own position alone, so rows written past the
  point before the kill are written again, the same; the point keeps the pending bits and
  the counts, nothing of the records. Once the levels begin, the records are no longer
  first records: a point of the first pass is replaced by one of the levels there;
- **between levels**: a level changes its parents' counters in place (doing half of one
  again would count twice), so the point keeps a copy of the records too
  (``tier-T.resume-snapshot-G``, a new generation each time, the older removed once the
  point naming the newer is in place), written past the page cache (``core.direct_io``:
  through it, the copy of sector 9-7's 2.15 GB stopped the solve 7 to 28 s, 2026-12-03).

A point is ``tier-T.resume``: 8 bytes (little-endian) giving the length of a JSON header,
the header (stage, counts, sizes, the SHA-256 of what follows), then the pending words and
the mark words (uint64). It is written to a temporary file, fsync'd, and renamed, so a
reader finds the old point or the new, whole; one whose hash, size or snapshot does not
match is not trusted (the tier is solved from its start, as before). ``TierFiles`` removes
a tier's points before its records are final, when they are opened again (``reopen``,
another method), and all of them when what play reaches is marked again (``unfinish``).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..core.direct_io import copy_direct, write_direct
from ..core.records import RecordFormat
from .files import tier_file_name

RESUME_EVERY = 120.0
"""Seconds at least between two resume points of a tier (a point between levels copies
the records: 2 GB for Morris's largest sectors, a few seconds)."""
FIRST, LEVELS = "first", "levels"
_BLOCK = 1 << 22


@dataclass
class ResumePoint:
    """Where a solve stood. ``stage`` FIRST: rows below ``row`` written by the first pass;
    LEVELS: the next level to follow is ``level`` of ``phase`` (1: wins and losses, 2:
    ties), with the records of ``snapshot``'s generation."""

    stage: str
    row: int
    phase: int
    level: int
    reached: int
    highest: int
    decided: int
    snapshot: int
    words: Any
    mark_words: Any


class ResumePoints:
    """The resume points of one tier's solve: the one found when it starts (``found``),
    and new ones saved as it goes (``save_first``, ``save_levels``), each only when due."""

    def __init__(
        self, directory: Path, tier: int, size: int, record: RecordFormat, counting: str = ""
    ) -> None:
        self.counting = counting
        """How the solve counts an open position's children (its counters differ by it): a
        point saved counting otherwise is not trusted."""
        self.directory = directory
        self.tier = tier
        self.size = size
        self.record = record
        self.path = directory / tier_file_name(tier, "resume")
        self.partial = directory / tier_file_name(tier, "partial")
        self._saved = time.monotonic()
        self.found = self._load()

    def due(self) -> bool:
        """Whether a point is to be saved now."""
        return time.monotonic() - self._saved >= RESUME_EVERY

    def snapshot_path(self, generation: int) -> Path:
        """The copy of the records a point between levels goes with."""
        return self.directory / tier_file_name(self.tier, f"resume-snapshot-{generation}")

    def save_first(self, row: int, reached: int, highest: int, words: Any, marks: Any) -> None:
        """A point in the first pass: the rows below ``row`` are written."""
        point = ResumePoint(FIRST, row, 1, 0, reached, highest, 0, 0, words, marks)
        self._write(point)

    def save_levels(
        self, phase: int, level: int, counts: tuple[int, int, int], words: Any, marks: Any
    ) -> None:
        """A point between levels (the next to follow: ``level`` of ``phase``; ``counts``:
        reached, highest, decided), with a new copy of the records."""
        before = self.found.snapshot if self.found is not None else 0
        generation = before + 1
        copy = self.snapshot_path(generation)
        copy_direct(self.partial, copy)  # (a mapping's writes are in the page cache)
        reached, highest, decided = counts
        point = ResumePoint(LEVELS, self.size, phase, level, reached, highest, decided,
                            generation, words, marks)  # fmt: skip
        self._write(point)
        self.snapshot_path(before).unlink(missing_ok=True)

    def restore(self, records: Any, words: Any, marks: Any) -> None:
        """Put the solve back where ``found`` stood: its bits, and between levels its
        records (the snapshot's). In the first pass the records stay: the rows from ``row``
        written before the stop are reached rows still (a nonzero value code, which is
        what the pass looks for), written again the same."""
        point = self.found
        assert point is not None
        words[:] = point.words
        marks[:] = point.mark_words
        if point.stage == FIRST:
            return
        with self.snapshot_path(point.snapshot).open("rb") as handle:
            for start in range(0, self.size, _BLOCK):
                count = min(_BLOCK, self.size - start)
                block = np.fromfile(handle, dtype=records.dtype, count=count)
                records[start : start + count] = block

    def _write(self, point: ResumePoint) -> None:
        payload = [np.ascontiguousarray(point.words), np.ascontiguousarray(point.mark_words)]
        digest = hashlib.sha256()
        for array in payload:
            digest.update(array.view(np.uint8).data)
        header: dict[str, Any] = {key: getattr(point, key) for key in _HEADER}
        header |= {"size": self.size, "sha256": digest.hexdigest(), "counting": self.counting}
        text = json.dumps(header, sort_keys=True).encode()
        temporary = self.path.with_suffix(".resume-tmp")
        write_direct(temporary, [len(text).to_bytes(8, "little") + text, *payload])
        os.replace(temporary, self.path)
        self.found = point
        self._saved = time.monotonic()

    def _load(self) -> ResumePoint | None:
        """The point saved for this tier, if whole and of this size; else None."""
        try:
            data = self.path.read_bytes()
            length = int.from_bytes(data[:8], "little")
            header = json.loads(data[8 : 8 + length])
            words = -(-self.size // 64)
            arrays = np.frombuffer(data, dtype=np.uint64, offset=8 + length)
        except (OSError, ValueError):
            return None
        whole = hashlib.sha256(memoryview(data)[8 + length :]).hexdigest()
        if header.get("size") != self.size or whole != header.get("sha256"):
            return None
        if header.get("counting", "") != self.counting:
            return None
        if arrays.shape[0] != words + -(-words // 64):
            return None
        try:
            row, phase, level, reached, highest, decided, snapshot = (
                int(header[key]) for key in _HEADER[1:]
            )
            point = ResumePoint(str(header["stage"]), row, phase, level, reached, highest,
                                decided, snapshot, arrays[:words], arrays[words:])  # fmt: skip
        except (KeyError, TypeError, ValueError):
            return None
        if point.stage == LEVELS:
            copy = self.snapshot_path(point.snapshot)
            if not copy.exists() or copy.stat().st_size != self.size * self.record.bytes:
                return None
        return point


_HEADER = ("stage", "row", "phase", "level", "reached", "highest", "decided", "snapshot")
"""The header's fields of a point, in ``ResumePoint``'s order (the arrays follow)."""
