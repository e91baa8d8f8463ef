"""Where a Dobutsu shogi solve spends its time: the phases of one solve in one process.

Run: .venv/bin/python bench/dobutsu_phases.py [--dir D]
Solves the 3x4 game into D (emptied first) with the solver's steps wrapped in timers: the
marking of what play reaches (wall time); the first pass counting every open position's
moves, or scattering the first records the marking counted (wall time); inside the levels
the workers' time following un-moves (summed over the threads; finding the indices of
slots and the slots of indices, summed apart), the main thread's time applying them and
finding each level's frontier; and the settling of decided bytes into the tier's file.
The levels' wall time is what is left of the total. A measurement aid beside
bench/clausecker.py (which times whole solves in fresh processes): the timers themselves
cost little (a call per chunk of 16,384 positions).
"""

from __future__ import annotations

import argparse
import shutil
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from perfectplay import build_tablebase
from perfectplay.games import Dobutsu
from perfectplay.tiers import marking, reached_set, retrograde_in_records, slot_codes

TIMED = [
    (marking, "_reach_in_bits", "marking what play reaches (wall)"),
    (retrograde_in_records, "_count_moves", "counting each open position's moves (wall)"),
    (retrograde_in_records, "_scatter_counted", "or scattering those the marking counted (wall)"),
    (retrograde_in_records, "_parents_of", "levels: following un-moves (workers, summed)"),
    (reached_set.ReachedSet, "indices", "the indices of slots (counting, levels; workers)"),
    (reached_set.ReachedSet, "slots", "the slots of indices (levels; workers)"),
    (retrograde_in_records, "_apply", "levels: applying them (main thread)"),
    (retrograde_in_records, "_frontier", "levels: finding each frontier (main thread)"),
    (slot_codes.SettledSlots, "_settle", "settling decided bytes into the file (wall)"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=Path("/tmp/perfectplay-bench-phases"))
    args = parser.parse_args()
    spent: dict[str, float] = defaultdict(float)
    lock = threading.Lock()

    def timed(function: Any, label: str) -> Any:
        def run(*a: Any, **k: Any) -> Any:
            started = time.perf_counter()
            try:
                return function(*a, **k)
            finally:
                with lock:
                    spent[label] += time.perf_counter() - started

        return run

    for owner, name, label in TIMED:
        setattr(owner, name, timed(getattr(owner, name), label))
    shutil.rmtree(args.dir, ignore_errors=True)
    started = time.perf_counter()
    build_tablebase(Dobutsu(), args.dir)
    total = time.perf_counter() - started
    print(f"Dobutsu shogi solved in {total:.1f} s, {time.strftime('%Y-%m-%d')}")
    for _, _, label in TIMED:
        print(f"  {label:55s} {spent[label]:7.1f} s")
    shutil.rmtree(args.dir, ignore_errors=True)


if __name__ == "__main__":
    main()
