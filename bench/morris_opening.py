"""A Morris game's start found two ways, side by side: the whole game solved tier by tier,
and Gasser's method (the database of every position once all stones are placed, then a
search of the placement that reads it at its leaves).

Run:  .venv/bin/python bench/morris_opening.py [--points 16] [--stones 6] [--db DIR]
      [--threads N] [--memory 16G]

Each step runs the command a user runs, in a fresh process, one after the other: ``solve
examples/morris.py:Morris --save`` (the whole game), ``solve ...:MorrisMidgame --save``
(the database), ``analyze ...:Morris --db`` (the search, every first move scored), and
``analyze ...:Morris --db`` over the whole game's tablebase (read, not searched). Prints
each step's wall time and peak memory and the start's value and each first move's both
ways; exits 1 when they differ. ``--db DIR``: a database built already (Nine Men's Morris:
``bench/morris_database.py``), so only the search runs, and no whole-game solve.
``--threads N``: the search's threads (``analyze --threads``); ``--memory``: the search's
bound (``analyze --memory``: its table takes all but 300 MB of it; Nine Men's Morris's
start took 290 s with 16G, and its corners did not finish in the default table of 2**24
entries, 2026-11-30).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "morris.py"
CLI = str(Path(sys.executable).with_name("perfectplay"))


def timed(args: list[str]) -> tuple[float, float, str]:
    """The command in a fresh process: wall seconds, peak resident GB, its stdout."""
    with tempfile.TemporaryFile("w+") as output:
        started = time.perf_counter()
        child = subprocess.Popen([CLI, *args], stdout=output, text=True)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - started
        if os.waitstatus_to_exitcode(status):
            raise SystemExit(f"{' '.join(args[:2])} stopped: {os.waitstatus_to_exitcode(status)}")
        output.seek(0)
        return seconds, usage.ru_maxrss / 2**20, output.read()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--points", type=int, default=16)
    parser.add_argument("--stones", type=int, default=6)
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--memory", default=None, help="analyze --memory (e.g. 16G)")
    given = parser.parse_args()
    params = ["-p", f"points={given.points}", "-p", f"stones={given.stones}"]
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        whole = Path(scratch) / "whole"
        mid = given.db if given.db is not None else Path(scratch) / "mid"
        if given.db is None:
            for name, directory in (("Morris", whole), ("MorrisMidgame", mid)):
                seconds, peak, _ = timed(["solve", f"{EXAMPLE}:{name}", *params, "--save",
                                          str(directory), "-q"])  # fmt: skip
                rows.append((f"solve {name} --save", seconds, peak))
        reports = {}
        for label, directory in (("search over the database", mid), ("whole game", whole)):
            if not directory.exists():
                continue
            bound = ["--memory", given.memory] if given.memory else []
            seconds, peak, out = timed(["analyze", f"{EXAMPLE}:Morris", *params, "--db",
                                        str(directory), "--json", "--threads",
                                        str(given.threads), *bound])  # fmt: skip
            rows.append((f"analyze --db ({label})", seconds, peak))
            reports[label] = json.loads(out)
    print(f"Morris, {given.points} points, {given.stones} stones each, {os.cpu_count()} cores, "
          f"the search on {given.threads} thread(s)")  # fmt: skip
    for name, seconds, peak in rows:
        print(f"  {name:<44} {seconds:9.1f} s  {peak:6.2f} GB")
    searched = reports["search over the database"]
    print(f"  the start by search: {searched['value']}, {searched['nodes']:,} nodes")
    first = {m["move"]: m["value"] for m in searched["moves"]}
    print("  first moves: " + " ".join(f"{m}={v}" for m, v in first.items()))
    read = reports.get("whole game")
    if read is None:
        return 0
    agree = (
        read["value"] == searched["value"]
        and {m["move"]: m["value"] for m in read["moves"]} == first
    )
    print(
        f"  the whole game's tablebase: {read['value']}; " + ("the same" if agree else "DIFFERENT")
    )
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
