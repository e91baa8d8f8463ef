"""Nine Men's Morris's mid- and endgame database (Gasser's sectors), built and reported.

Run:  .venv/bin/python bench/morris_database.py DIR [--stones 9] [--memory 8G] [--report]

Builds ``examples/morris.py:MorrisMidgame`` (every position with all stones placed, 24
points) into DIR through the command line a user runs (``perfectplay solve ... --save DIR
--memory M --pack``: one byte a position), in a fresh process: run it again after an
interruption and it goes on from the finished sectors. Then, or at once with ``--report``
(also while a build runs), a table of the sectors: the stones of each side, indices,
positions, wins, losses and draws, the longest win or loss in plies, the seconds each
took (from its file's time against the one finished before), and for the sectors not done
yet, the time they would take at the rate measured so far (indices a second). With the
build: its wall time and the peak memory of its process, and the machine's state before
and after it (``probe``: this shared machine has run the same code 1.5 times as slowly
from one hour to the next).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "morris.py"
CLI = str(Path(sys.executable).with_name("perfectplay"))


def build(directory: Path, stones: int, memory: str) -> tuple[float, float, dict[str, int]]:
    """The build in a fresh process: its wall seconds, peak resident GB (``ru_maxrss``:
    the pages of the sectors' files it maps included), and the largest of its
    ``RssAnon`` (its own memory) and ``RssFile`` (mapped files' pages), in kB, sampled
    every 2 s."""
    command = [CLI, "solve", f"{EXAMPLE}:MorrisMidgame", "-p", "points=24", "-p",
               f"stones={stones}", "--save", str(directory), "--memory", memory, "--pack",
               "-q"]  # fmt: skip
    started = time.perf_counter()
    child = subprocess.Popen(command)
    peaks = {"RssAnon": 0, "RssFile": 0}
    status_file = Path(f"/proc/{child.pid}/status")
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)  # (reaped here, its usage kept)
        if pid:
            break
        try:
            for line in status_file.read_text().splitlines():
                name, _, value = line.partition(":")
                if name in peaks:
                    peaks[name] = max(peaks[name], int(value.split()[0]))
        except (OSError, ValueError, IndexError):  # (no /proc here, or the process ended)
            pass
        time.sleep(2)
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"the build stopped ({os.waitstatus_to_exitcode(status)}); run again")
    return time.perf_counter() - started, usage.ru_maxrss / 2**20, peaks


def probe() -> str:
    """The machine's speed now, in one line: a chain of multiplies (the cores' speed) and
    random read-modify-writes of 2-byte records in 860 MB (the memory's, what a sector's
    levels wait on). The same code ran 1.5 times as slowly on some hours as on others;
    that day the multiplies took the same time and the writes 17-21 ns against about 10
    (2026-12-02), so this says which of the two moved."""
    import numba
    import numpy as np

    @numba.njit(cache=False)
    def multiplies(n: int) -> int:
        x = 1
        for _ in range(n):
            x = (x * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFF
            x ^= x >> 13
        return x

    @numba.njit(cache=False)
    def writes(records: Any, at: Any) -> None:
        for i in range(at.shape[0]):
            records[at[i]] += 1

    records = np.zeros(430_000_000, dtype=np.uint16)
    at = np.random.default_rng(1).integers(0, records.shape[0], 20_000_000)
    multiplies(10)
    writes(records, at)  # (compiled, and every page of the records touched once)
    step, write = [], []
    for _ in range(3):
        started = time.perf_counter()
        multiplies(100_000_000)
        step.append((time.perf_counter() - started) / 1e8 * 1e9)
        started = time.perf_counter()
        writes(records, at)
        write.append((time.perf_counter() - started) / at.shape[0] * 1e9)
    return (f"machine: a multiply step {min(step):.2f} ns, a random write {min(write):.1f} ns "
            "(best of 3)")  # fmt: skip


def sectors(stones: int) -> list[tuple[int, int, int]]:
    """(tier, indices, stones of the larger side + 100 * the smaller's) of every sector."""
    sys.path.insert(0, str(ROOT / "src"))
    import importlib.util

    spec = importlib.util.spec_from_file_location("morris_database", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["morris_database"] = module
    spec.loader.exec_module(module)
    game = module.MorrisMidgame(points=24, stones=stones)
    from perfectplay.rules import Rules
    from perfectplay.tiers.graph import TierGraph

    graph = TierGraph(Rules(game))
    found = []
    for tier in graph.order:
        parts = game.tier_parts(tier)
        larger = max(max(m, t) for m, t, _ in parts)
        smaller = min(min(m, t) for m, t, _ in parts)
        found.append((tier, graph.sizes[tier], larger * 100 + smaller))
    return found


def report(directory: Path, stones: int) -> None:
    """The table of sectors (see the module docstring)."""
    progress = directory / "progress.json"
    solved = json.loads(progress.read_text())["solved"] if progress.exists() else {}
    done = []
    for path in directory.glob("tier-*.rec"):
        tier = int(path.stem.split("-")[1])
        if str(tier) in solved:
            done.append((path.stat().st_mtime, tier))
    done.sort()
    mark = _started(directory)
    started = mark.stat().st_mtime if mark.exists() else None
    seconds: dict[int, float] = {}
    before = started
    for when, tier in done:
        if before is not None:
            seconds[tier] = when - before
        before = when
    print(f"{'sector':>7} {'indices':>14} {'positions':>14} {'wins':>13} {'losses':>13} "
          f"{'draws':>14} {'longest':>7} {'seconds':>9}")  # fmt: skip
    timed_indices = timed_seconds = 0.0
    left_indices = 0
    total_positions = 0
    for tier, size, pair in sorted(sectors(stones), key=lambda s: s[2]):
        name = f"{pair // 100}-{pair % 100}"
        facts = solved.get(str(tier))
        if facts is None:
            left_indices += size
            print(f"{name:>7} {size:>14,} {'(not yet)':>14}")
            continue
        values = facts["values"]
        total_positions += facts["positions"]
        took = seconds.get(tier)
        if took is not None and size > 1_000_000:
            timed_indices += size
            timed_seconds += took
        longest = max((int(k.split(":")[1]) for k in facts["remoteness"]), default=0)
        print(f"{name:>7} {size:>14,} {facts['positions']:>14,} {values.get('1', 0):>13,} "
              f"{values.get('2', 0):>13,} {values.get('4', 0):>14,} {longest:>7} "
              f"{'' if took is None else f'{took:.0f}':>9}")  # fmt: skip
    disk = sum(p.stat().st_size for p in directory.glob("tier-*.rec"))
    print(f"positions solved: {total_positions:,}; on disk {disk / 1e9:.2f} GB")
    if timed_seconds and left_indices:
        rate = timed_indices / timed_seconds
        print(
            f"rate so far {rate / 1e6:.2f} M indices/s (sectors of a million or more); "
            f"left {left_indices:,} indices: about {left_indices / rate / 3600:.1f} h"
        )


def _started(directory: Path) -> Path:
    """A file beside the tablebase whose time is the build's first start."""
    return directory.with_name(directory.name + ".started")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--stones", type=int, default=9)
    parser.add_argument("--memory", default="8G")
    parser.add_argument("--report", action="store_true", help="only the table")
    args = parser.parse_args()
    if not args.report:
        if not _started(args.directory).exists():
            _started(args.directory).touch()
        print(f"before the build, {probe()}", flush=True)
        seconds, peak, peaks = build(args.directory, args.stones, args.memory)
        print(f"after the build, {probe()}")
        print(f"built in {seconds:.0f} s, peak memory {peak:.2f} GB (ru_maxrss; sampled "
              f"every 2 s: its own memory at most {peaks['RssAnon'] / 2**20:.2f} GB, mapped "
              f"files' pages at most {peaks['RssFile'] / 2**20:.2f} GB)")  # fmt: skip
    report(args.directory, args.stones)


if __name__ == "__main__":
    main()
