"""Tiered solves on Dask: speed-up with two workers, and the overhead of the cluster.

Run: make bench-dask   (or .venv/bin/python bench/on_dask.py [--board 6x4] [--small 4x4])
Side by side in one run, each in a fresh directory: Connect Four of --board solved on a
LocalCluster of 1 worker, then of 2 (the machine's cores shared out between them), with
the checksums of every tier compared; Connect Four of --small solved in this process and on
a 2-worker cluster (the cluster's start included). Targets (issue 12): 2 workers at least
1.6 times faster than 1; the small board within 5 seconds of the in-process solve.

Each worker computes on one thread (--threads-per-worker, PERFECTPLAY_THREADS in the
workers), as a Dask worker started with one thread does: the speed-up measures how the
solve scales over workers. For scale, the board is also solved in this process on every
core (its chunks on a pool of threads), without Dask.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
import time
from pathlib import Path


def checksums(directory: Path) -> dict[int, str]:
    header = json.loads((directory / "header.json").read_text())
    return {entry["tier"]: entry["sha256"] for entry in header["tiers"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="6x4", help="WIDTHxHEIGHT for the speed-up")
    parser.add_argument("--small", default="4x4", help="WIDTHxHEIGHT for the overhead")
    parser.add_argument("--threads-per-worker", type=int, default=1)
    args = parser.parse_args()
    # Read by perfectplay at import: the threads of this process, shared out to workers.
    os.environ["PERFECTPLAY_THREADS"] = str(args.threads_per_worker)
    from perfectplay import build_tablebase
    from perfectplay.games import ConnectFour
    from perfectplay.rules import Rules
    from perfectplay.tiers.on_dask import build_on_dask

    room = Path(tempfile.mkdtemp(prefix="perfectplay-bench-dask-"))
    try:
        width, height = (int(n) for n in args.small.split("x"))
        build_tablebase(ConnectFour(3, 3), room / "warm")  # compiled kernels loaded here
        started = time.perf_counter()
        build_tablebase(ConnectFour(width, height), room / "here")
        here = time.perf_counter() - started
        started = time.perf_counter()
        build_on_dask(Rules(ConnectFour(width, height)), room / "small", workers=2)
        there = time.perf_counter() - started
        same = checksums(room / "here") == checksums(room / "small")
        print(
            f"Connect Four {args.small}: in this process {here:.1f} s, on 2 workers "
            f"{there:.1f} s (cluster start included): {there - here:+.1f} s, "
            f"checksums {'equal' if same else 'DIFFER'}"
        )
        width, height = (int(n) for n in args.board.split("x"))
        seconds = {}
        for workers in (1, 2):
            started = time.perf_counter()
            build_on_dask(Rules(ConnectFour(width, height)), room / f"w{workers}", workers=workers)
            seconds[workers] = time.perf_counter() - started
            print(f"Connect Four {args.board}, {workers} worker(s): {seconds[workers]:.1f} s")
        same = checksums(room / "w1") == checksums(room / "w2")
        from perfectplay.spaces import pipeline

        pipeline.THREADS = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 2
        started = time.perf_counter()
        build_tablebase(ConnectFour(width, height), room / "all-cores")
        print(
            f"Connect Four {args.board} in this process on {pipeline.THREADS} threads, "
            f"without Dask: {time.perf_counter() - started:.1f} s"
        )
        print(
            f"speed-up of 2 workers: {seconds[1] / seconds[2]:.2f}x, "
            f"checksums {'equal' if same else 'DIFFER'}"
        )
    finally:
        shutil.rmtree(room, ignore_errors=True)


if __name__ == "__main__":
    main()
