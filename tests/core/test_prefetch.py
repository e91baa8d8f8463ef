"""``core.prefetch.prefetch``: a hint, compiled into the machine's prefetch and nothing run
plainly; a kernel asking ahead for the elements it reads and writes gives what it gives
without the hint, on arrays of every record width and on a mapped file."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from perfectplay.core.compiled import kernel
from perfectplay.core.prefetch import prefetch


@kernel
def _bump_ahead(values: np.ndarray, at: np.ndarray, ahead: int) -> int:
    """Add 1 at each of ``at`` (asking ``ahead`` places on), and sum what was read."""
    total = 0
    for e in range(at.shape[0]):
        if e + ahead < at.shape[0]:
            prefetch(values, at[e + ahead])
        total += int(values[at[e]])
        values[at[e]] += 1
    return total


def _plainly(values: np.ndarray, at: np.ndarray) -> tuple[int, list[int]]:
    """What ``_bump_ahead`` gives, by a loop over Python integers."""
    now = [int(v) for v in values.tolist()]
    total = 0
    for i in at.tolist():
        total += now[i]
        now[i] += 1
    return total, now


def test_asking_ahead_changes_nothing_compiled_or_plain(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    mapped = np.memmap(tmp_path / "records", dtype=np.uint16, mode="w+", shape=(50_000,))
    for values in (np.zeros(50_000, np.uint8), np.zeros(50_000, np.uint16), mapped):
        values[:] = rng.integers(0, 200, values.shape[0])
        at = rng.integers(0, values.shape[0], 20_000).astype(np.int64)
        total, after = _plainly(values, at)
        for run in (_bump_ahead.compiled, _bump_ahead.interpreted):
            copy = values if run is _bump_ahead.compiled and values is mapped else np.array(values)
            before = np.array(copy)
            assert run(copy, at, 16) == total
            assert copy.tolist() == after
            copy[:] = before  # (the mapped file back as it was, for the plain run)
