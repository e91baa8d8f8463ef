"""Dobutsu shogi strongly solved: time, peak memory, and the published figures side by side.

Run: make bench-dobutsu   (or .venv/bin/python bench/dobutsu.py [--dir D] [--reuse])
Solves the 3x4 game into a tablebase in a fresh process (its peak memory is its own), then
reads the tablebase: reachable positions, counts per value, the value and remoteness of
the start, compared with the published solution (Tanaka, 2009: 246,803,167 positions, the
second player wins). Tanaka counts a position and its left-right reflection once, as the
game's key does, so the tablebase's own counts are compared with his. Then the compressed
copy (bits per reachable position) and the time of one probe.
Targets (issue 11): under 30 minutes and 6 GB; compressed, at most 2.5 bits a position.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from perfectplay.core.memory import peak_resident_bytes

PUBLISHED = {
    "positions": 246_803_167,
    "win": 196_773_087,
    "loss": 47_347_380,
    "draw": 2_682_700,
    "start": "loss in 78 plies (the second player wins)",
}
"""Tanaka (2009), counting a position and its mirror image once; the counts per value are
those of independent re-solves that reproduce his count of positions."""


def child_build(directory: str) -> None:
    """In a fresh process: solve into ``directory``; the figures as JSON."""
    from perfectplay import build_tablebase
    from perfectplay.games import Dobutsu

    started = time.perf_counter()
    header, _ = build_tablebase(Dobutsu(), directory)
    seconds = time.perf_counter() - started
    peak = peak_resident_bytes()
    print(json.dumps({"seconds": seconds, "peak": peak, "positions": header.counts()["positions"]}))


def probe_us(directory: Path) -> float:
    """Microseconds per probe of one position (best of five passes over playout positions)."""
    import random

    from perfectplay import open_tablebase
    from perfectplay.games import Dobutsu

    game = Dobutsu()
    rng = random.Random(0)
    states = []
    while len(states) < 2000:
        state = game.initial()
        for _ in range(60):
            if game.outcome(state) is not None:
                break
            state = game.play(state, rng.choice(game.moves(state)))
            states.append(state)
    with open_tablebase(directory, game) as base:
        for state in states[:200]:
            base.lookup(state)
        best = float("inf")
        for _ in range(5):
            started = time.perf_counter()
            for state in states:
                base.lookup(state)
            best = min(best, time.perf_counter() - started)
    return best / len(states) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", default="/tmp/perfectplay-bench-dobutsu")
    parser.add_argument("--reuse", action="store_true", help="read a tablebase already built")
    parser.add_argument("--level", type=int, default=12, help="zstd level of the copy")
    parser.add_argument("--child", nargs=1)
    args = parser.parse_args()
    if args.child:
        child_build(args.child[0])
        return
    directory = Path(args.dir)
    if not args.reuse:
        shutil.rmtree(directory, ignore_errors=True)
        out = subprocess.run(
            [sys.executable, __file__, "--child", str(directory)],
            capture_output=True,
            text=True,
            check=True,
        )
        built = json.loads(out.stdout.strip().splitlines()[-1])
        print(f"solve        {built['seconds'] / 60:.1f} min, peak {built['peak'] / 2**30:.2f} GB")
        print(f"             {built['peak'] / built['positions']:.1f} bytes per reached position")
    from perfectplay import open_tablebase
    from perfectplay.games import Dobutsu

    with open_tablebase(directory, Dobutsu()) as base:
        start = f"{base.value()} in {base.remoteness()} plies to the end"
        mine = base.header.counts()
    values = {"positions": mine["positions"], "win": 0, "loss": 0, "draw": 0}
    for code, name in (("1", "win"), ("2", "loss"), ("4", "draw")):
        values[name] = mine["values"].get(code, 0)
    print(f"{'':12} {'perfectplay':>14} {'published':>14}")
    differs = []
    for name in ("positions", "win", "loss", "draw"):
        agree = "agrees" if values[name] == PUBLISHED[name] else "DIFFERS"
        print(f"{name:12} {values[name]:>14,} {PUBLISHED[name]:>14,}  {agree}")
        if agree == "DIFFERS":
            differs.append(name)
    print(f"start        {start}; published: {PUBLISHED['start']}")
    target = directory.with_name(directory.name + "-zst")
    shutil.rmtree(target, ignore_errors=True)
    started = time.perf_counter()
    subprocess.run(
        [Path(sys.executable).with_name("perfectplay"), "compress", "-q",
         "--level", str(args.level), str(directory), str(target)],
        check=True,
    )  # fmt: skip
    packed = sum(p.stat().st_size for p in target.glob("tier-*"))
    seconds = time.perf_counter() - started
    print(
        f"compressed   {8 * packed / mine['positions']:.2f} bits per reached position "
        f"({packed / 2**20:.0f} MB, zstd level {args.level}, {seconds:.0f} s)"
    )
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    # A fresh process probes through the kernels run as plain Python (numba is not loaded
    # for one position); once numba is loaded (by any large call), compiled.
    plain = f"{probe_us(directory):.1f} us mapped, {probe_us(target):.1f} us compressed"
    print(f"probe        {plain} (kernels as plain Python, as a fresh play --db)")
    game = Dobutsu()
    game.batch_rank(0, game.batch_unrank(0, np.arange(100_000, dtype=np.int64)))  # compiles
    compiled = f"{probe_us(directory):.1f} us mapped, {probe_us(target):.1f} us compressed"
    print(f"             {compiled} (compiled kernels)")
    if differs:
        raise SystemExit(f"counts that differ from Tanaka's published ones: {', '.join(differs)}")


if __name__ == "__main__":
    main()
