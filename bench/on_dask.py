"""Tiered solves on Dask: speed-up with two workers, and the overhead of the cluster.

Run: make bench-dask   (or .venv/bin/python bench/on_dask.py [--board 6x4] [--small 4x4],
or [--morris STONES] for Nine Men's Morris's midgame database alone)
Side by side in one run, each in a fresh directory: Connect Four of --board solved on a
LocalCluster of 1 worker, then of 2 (the machine's cores shared out between them), with
the checksums of every tier compared; Connect Four of --small solved in this process and on
a 2-worker cluster (the cluster's start included). Targets (issue 12): 2 workers at least
1.6 times faster than 1; the small board within 5 seconds of the in-process solve.

Each worker computes on one thread (--threads-per-worker, PERFECTPLAY_THREADS in the
workers), as a Dask worker started with one thread does: the speed-up measures how the
solve scales over workers. For scale, the board is also solved in this process on every
core (its chunks on a pool of threads), without Dask.

A compiled game loaded by its path (--file, the example Connect Four; --file-only runs just
this): ``perfectplay solve FILE:Class`` of --small, whole commands timed, in one process
and with --workers 2, each run twice (the first may compile; the second loads the compiled
copy from the cache). Target (issue 46): on 2 workers within 2x of one process once
warm; workers that got the class by value compiled every loop afresh, 40-60 s; with the
workers warmed, 3.2x (tasks of tiny tiers through the scheduler); with tiers of at most
HERE_AT_MOST positions solved in the client, 1.9x (2026-11-28, two runs, 2 cores: the
client ranks while the cluster's workers start beside it).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "connect_four.py"
MORRIS = Path(__file__).resolve().parents[1] / "examples" / "morris.py"


def checksums(directory: Path) -> dict[int, str]:
    header = json.loads((directory / "header.json").read_text())
    return {entry["tier"]: entry["sha256"] for entry in header["tiers"]}


def by_path(spec: str, board: str, room: Path) -> None:
    """The command line's solve of a game loaded by path, in one process and on 2 workers."""
    width, height = board.split("x")
    command = [str(Path(sys.executable).with_name("perfectplay")), "solve", spec, "--json",
               "-p", f"width={width}", "-p", f"height={height}", "--save"]  # fmt: skip
    seconds: dict[str, list[float]] = {"one process": [], "2 workers": []}
    for run in (1, 2):
        for how, extra in (("one process", []), ("2 workers", ["--workers", "2"])):
            directory = room / f"by-path-{how.replace(' ', '-')}-{run}"
            started = time.perf_counter()
            done = subprocess.run([*command, str(directory), *extra], check=True,
                                  capture_output=True, text=True)  # fmt: skip
            seconds[how].append(time.perf_counter() - started)
            said = json.loads(done.stdout)["stats"]["seconds"]
            print(f"{Path(spec).name} {board}, {how}, run {run}: {seconds[how][-1]:.1f} s "
                  f"whole, {said:.2f} s by its own count")  # fmt: skip
    ratio = seconds["2 workers"][1] / seconds["one process"][1]
    print(f"warm: 2 workers take {ratio:.1f}x one process (target: at most 2x)")


def morris(stones: int, room: Path) -> None:
    """Nine Men's Morris's midgame database of ``stones`` a side (--morris): its sectors of
    one level solved at once on 2 workers of one thread each, against one process on both
    cores, whole commands, fresh processes one after the other; checksums compared."""
    command = [str(Path(sys.executable).with_name("perfectplay")), "solve",
               f"{MORRIS}:MorrisMidgame", "-p", "points=24", "-p", f"stones={stones}",
               "--quiet", "--save"]  # fmt: skip
    subprocess.run([*command, str(room / "warm")], check=True, capture_output=True)  # compiles
    found = {}
    for how, extra in (("one process, 2 threads", []), ("2 workers", ["--workers", "2"])):
        directory = room / f"morris-{len(found)}"
        started = time.perf_counter()
        subprocess.run([*command, str(directory), *extra], check=True, capture_output=True)
        seconds = time.perf_counter() - started
        found[how] = checksums(directory)
        print(f"Morris midgame, {stones} stones, {how}: {seconds:.1f} s")
    same = len({json.dumps(sums, sort_keys=True) for sums in found.values()}) == 1
    print(f"checksums {'equal' if same else 'DIFFER'} ({len(found['2 workers'])} tiers)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="6x4", help="WIDTHxHEIGHT for the speed-up")
    parser.add_argument("--small", default="4x4", help="WIDTHxHEIGHT for the overhead")
    parser.add_argument("--threads-per-worker", type=int, default=1)
    parser.add_argument("--file", default=f"{EXAMPLE}:ConnectFour", help="FILE.py:Class")
    parser.add_argument("--file-only", action="store_true", help="only the game by path")
    parser.add_argument("--morris", type=int, metavar="STONES",
                        help="only Morris' midgame database of STONES a side")  # fmt: skip
    args = parser.parse_args()
    if args.morris:
        room = Path(tempfile.mkdtemp(prefix="perfectplay-bench-dask-"))
        try:
            morris(args.morris, room)
        finally:
            shutil.rmtree(room, ignore_errors=True)
        return
    if args.file_only:
        room = Path(tempfile.mkdtemp(prefix="perfectplay-bench-dask-"))
        try:
            by_path(args.file, args.small, room)
        finally:
            shutil.rmtree(room, ignore_errors=True)
        return
    # Read by perfectplay at import: the threads of this process, shared out to workers.
    os.environ["PERFECTPLAY_THREADS"] = str(args.threads_per_worker)
    from perfectplay import build_tablebase
    from perfectplay.games import ConnectFour
    from perfectplay.rules import Rules
    from perfectplay.tablebase.on_dask import build_on_dask

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
        by_path(args.file, args.small, room)
        width, height = (int(n) for n in args.board.split("x"))
        seconds = {}
        for workers in (1, 2):
            started = time.perf_counter()
            build_on_dask(Rules(ConnectFour(width, height)), room / f"w{workers}", workers=workers)
            seconds[workers] = time.perf_counter() - started
            print(f"Connect Four {args.board}, {workers} worker(s): {seconds[workers]:.1f} s")
        same = checksums(room / "w1") == checksums(room / "w2")
        from perfectplay.core import parallel

        parallel.THREADS = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 2
        started = time.perf_counter()
        build_tablebase(ConnectFour(width, height), room / "all-cores")
        print(
            f"Connect Four {args.board} in this process on {parallel.THREADS} threads, "
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
