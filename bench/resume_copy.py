"""A resume point's copy of a tier's records, through the page cache or past it.

Run:  .venv/bin/python bench/resume_copy.py [--gb 2.15] [--rounds 3] [--dir /tmp/rc]

As a loopy tier's levels leave them: a working file of 2-byte records, mapped and written
all over (every page dirty, not yet on the disk). Each round dirties them again, then
copies them both ways, taking turns: ``shutil.copyfile`` and an fsync (the resume points'
copy until 2026-12-03) and ``core.direct_io.copy_direct`` (``O_DIRECT``), checking the
copies equal. Prints each copy's seconds. Whatever the kernel's settings are is what is
measured (a Morris build raises ``vm.dirty_expire_centisecs``: say so with the figures).
"""

from __future__ import annotations

import argparse
import shutil
import time
from pathlib import Path

import numpy as np

from perfectplay.core.direct_io import copy_direct
from perfectplay.tiers.files import fsync_file


def _dirty(records: np.memmap, rng: np.random.Generator) -> None:  # type: ignore[type-arg]
    """Write one record in every page, at a random place in it."""
    pages = records.shape[0] // 2048
    records[np.arange(pages) * 2048 + rng.integers(0, 2048, pages)] += 1


def _through_cache(source: Path, destination: Path) -> None:
    shutil.copyfile(source, destination)
    fsync_file(destination)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gb", type=float, default=2.15)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/resume-copy"))
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    source = args.dir / "records"
    count = int(args.gb * 1e9) // 2
    with source.open("wb") as handle:
        handle.truncate(count * 2)
    records = np.memmap(source, dtype=np.uint16, mode="r+")
    rng = np.random.default_rng(1)
    records[:] = rng.integers(0, 65536, count, dtype=np.uint16)
    ways = {"page cache": _through_cache, "O_DIRECT": copy_direct}
    print(f"{count * 2 / 1e9:.2f} GB of mapped records, every page dirty before each copy")
    for round_ in range(args.rounds):
        for name, copy in ways.items() if round_ % 2 == 0 else reversed(ways.items()):
            _dirty(records, rng)
            destination = args.dir / "copy"
            started = time.perf_counter()
            copy(source, destination)
            took = time.perf_counter() - started
            same = destination.read_bytes() == np.asarray(records).tobytes()
            verdict = "same bytes" if same else "DIFFERENT"
            print(f"round {round_ + 1}: {name:>10} {took:6.2f} s  {verdict}")
            destination.unlink()
            if not same:
                raise SystemExit(1)
    del records
    shutil.rmtree(args.dir)


if __name__ == "__main__":
    main()
