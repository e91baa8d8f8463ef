"""Compiled games against the hand-written path and against the plain protocol.

Run: make bench-compiled   (or .venv/bin/python bench/compiled.py [--large] [--threads N]
[--repeat R] [--plain 4x4 5x4 5x5])

Each side is solved R times (3 by default), the two sides alternated; the fastest of each
counts and the slowest is printed beside it, because the same solve varies by 15-20%
between runs on a shared machine.

Side by side, each solve in a fresh process (its peak memory its own), on Connect Four
written as a user would (examples/connect_four.py: rules only, no ranking, no sweeps):
- the compiled game's tiered solve (``--save``) beside the built-in Connect Four's hand-ranked
  tiered solve with its sweeps, on the same board and the same number of threads (5x4;
  6x4 with --large; 5x5 with --large checks the count 69,763,700 and the tie);
- positions a second of the compiled solve beside the same game explored through its plain
  methods (the rule functions run by the Python interpreter, ``solve(game, batch=False)``)
  on 4x4, and on the boards ``--plain`` names. Each side first solves the 4x3 board in
  the same process, so that neither side's first-solve costs are timed (with it, the plain
  side's 4x4 went from 97,000-111,000 positions a second to 150,000-153,000). The plain
  side's rate falls as its board grows (2026-11-27, one thread: 4x4 149,800, 5x4 115,500,
  5x5 105,300 positions a second, about 205 bytes a position on the larger two): each
  compiled board is compared with the plain side on the same board where it was timed,
  and always with the plain side's best rate on any board (the stricter figure). 5x5
  takes the plain side about 11 minutes and 14 GB, so it is timed once and only when
  asked;
- bytes a position at peak above the process's baseline, and on disk (records and codes)
  after ``compress``.
Targets (issue 27): within 2x of the built-in's time; at least 100x the plain protocol's
positions per second; at most 12 bytes a position at peak above the baseline; at most
4 bytes a position on disk after compress.
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
from typing import Any

HERE = Path(__file__).resolve().parent
EXAMPLE = HERE.parent / "examples" / "connect_four.py"


def child(kind: str, width: int, height: int, directory: str) -> None:
    """In a fresh process: one solve, its figures printed as JSON."""
    import importlib.util

    from perfectplay import build_tablebase, solve
    from perfectplay.core.memory import resident_bytes
    from perfectplay.games import ConnectFour as Builtin

    spec = importlib.util.spec_from_file_location("connect_four_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["connect_four_example"] = module
    spec.loader.exec_module(module)
    game: Any = (
        Builtin(width, height)
        if kind == "builtin"
        else module.ConnectFour(width=width, height=height)
    )
    if kind == "compiled":
        game.engine_loops(True)  # loaded (from numba's cache) before the baseline
        import numba
    if kind == "builtin":
        import numba  # noqa: F401
    # The same kind of solve on the 4x3 board first, so that what the engine loads on its
    # first solve in a process is loaded before the timer, as the game's loops are (a 5x4
    # solve took 0.45 s without, 0.40 s with, 2026-11-27), and the plain side's code warm.
    small: Any = Builtin(4, 3) if kind == "builtin" else module.ConnectFour(width=4, height=3)
    if kind == "plain":
        solve(small, batch=False)
    else:
        with tempfile.TemporaryDirectory() as scratch:
            build_tablebase(small, Path(scratch) / "small")
    baseline = resident_bytes()
    forget_peak()
    shutil.rmtree(directory, ignore_errors=True)
    started = time.perf_counter()
    if kind == "plain":
        solution = solve(game, batch=False)
        seconds = time.perf_counter() - started
        positions, value = solution.stats.states, str(solution.value())
    else:
        header, _ = build_tablebase(game, directory)
        seconds = time.perf_counter() - started
        positions = header.counts()["positions"]
        value = "?"
        from perfectplay import open_tablebase

        with open_tablebase(directory, game) as base:
            value = f"{base.value()} in {base.remoteness()}"
    print(json.dumps({"seconds": seconds, "positions": positions, "value": value,
                      "baseline": baseline, "peak_since": peak_since_forgotten()}))  # fmt: skip


def forget_peak() -> None:
    """Reset this process's peak resident memory (Linux: 5 to /proc/self/clear_refs), so
    that the peak read at the end is the peak since the baseline: what loading Python,
    numpy, numba and the game's machine code held for a moment before the baseline is not
    counted as the solve's (it made a 3.9 million position board's figure vary by 2.5
    bytes a position between runs of the same solve, 2026-11-27)."""
    try:
        with open("/proc/self/clear_refs", "w") as handle:
            handle.write("5")
    except OSError:
        pass


def peak_since_forgotten() -> int:
    """This process's peak resident bytes since ``forget_peak`` (0 where unknown)."""
    try:
        with open("/proc/self/status") as handle:
            for line in handle:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def run(kind: str, width: int, height: int, threads: int, directory: Path) -> dict[str, Any]:
    """One solve in a fresh process, with its wall time and peak memory (its own peak since
    its baseline where Linux tells it, else GNU time's)."""
    env = {**os.environ, "PERFECTPLAY_THREADS": str(threads)}
    command = ["/usr/bin/time", "-f", "PEAK %M", sys.executable, __file__, "--child", kind,
               str(width), str(height), str(directory)]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    peak = [line for line in done.stderr.splitlines() if line.startswith("PEAK")][-1]
    figures["peak"] = int(peak.split()[1]) * 1024
    if figures.get("peak_since"):  # the peak since the baseline, where Linux can tell it
        figures["peak"] = figures["peak_since"]
    return figures


def compressed_bytes(directory: Path) -> int:
    """Bytes on disk of the compressed copy (records and codes)."""
    target = directory.with_name(directory.name + "-zst")
    shutil.rmtree(target, ignore_errors=True)
    cli = Path(sys.executable).with_name("perfectplay")
    subprocess.run([str(cli), "compress", str(directory), str(target)], check=True,
                   capture_output=True)  # fmt: skip
    return sum(p.stat().st_size for p in target.iterdir() if p.suffix in (".zst", ".idx",
                                                                          ".codes"))  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--large", action="store_true", help="6x4 and 5x5 too")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--repeat", type=int, default=3,
        help="solves of each side, alternated; the fastest counts (the machine is shared: "
        "the same solve varies by 15-20%% between runs), the slowest is shown beside it",
    )  # fmt: skip
    parser.add_argument(
        "--plain", nargs="+", default=["4x4"], metavar="WxH",
        help="boards the plain protocol is timed on (4x4 always; any other once: 5x5 takes "
        "about 20 minutes and 17 GB)",
    )  # fmt: skip
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        kind, width, height, directory = args.child
        child(kind, int(width), int(height), directory)
        return
    work = Path(tempfile.mkdtemp(prefix="perfectplay-bench-compiled-"))
    print(f"Connect Four, {args.threads} thread(s); peak = resident memory above the baseline")
    # The plain side on 4x4 is timed as often as the others and its fastest counts too (a
    # single run once took 17.1 s where the same solve takes 1.8-2.2 s).
    plain_rates: dict[tuple[int, int], float] = {}
    for board in dict.fromkeys(["4x4", *args.plain]):
        width, height = (int(side) for side in board.lower().split("x"))
        times = max(1, args.repeat) if (width, height) == (4, 4) else 1
        plains = [run("plain", width, height, args.threads, work / "plain") for _ in range(times)]
        plain = min(plains, key=lambda f: f["seconds"])
        plain_rates[width, height] = plain["positions"] / plain["seconds"]
        print(f"plain protocol {width}x{height}: {plain['positions']:,} positions, "
              f"{plain['value']}, in {plain['seconds']:.1f} s (slowest of {len(plains)}: "
              f"{max(f['seconds'] for f in plains):.1f} s) = "
              f"{plain_rates[width, height]:,.0f} positions/s, "
              f"{(plain['peak'] - plain['baseline']) / plain['positions']:.0f} B/position "
              f"at peak above the baseline", flush=True)  # fmt: skip
    rate_plain = max(plain_rates.values())
    boards = [(5, 4)] + ([(6, 4), (5, 5)] if args.large else [])
    for width, height in boards:
        has_builtin = (width, height) != (5, 5)
        tries: dict[str, list[dict[str, Any]]] = {"compiled": [], "builtin": []}
        for _ in range(max(1, args.repeat)):  # alternated, so that a slow spell hits both
            for kind in ("compiled", "builtin") if has_builtin else ("compiled",):
                tries[kind].append(run(kind, width, height, args.threads,
                                       work / f"{kind[0]}{width}{height}"))  # fmt: skip
        compiled = min(tries["compiled"], key=lambda f: f["seconds"])
        slowest = max(f["seconds"] for f in tries["compiled"])
        rate = compiled["positions"] / compiled["seconds"]
        above = (compiled["peak"] - compiled["baseline"]) / compiled["positions"]
        disk = compressed_bytes(work / f"c{width}{height}") / compiled["positions"]
        line = (f"{width}x{height} compiled: {compiled['positions']:,} positions, "
                f"{compiled['value']}, {compiled['seconds']:.1f} s (slowest of "
                f"{len(tries['compiled'])}: {slowest:.1f} s), {rate:,.0f} positions/s "
                f"({rate / rate_plain:,.0f}x the plain protocol's best rate"
                + (f", {rate / plain_rates[width, height]:,.0f}x its rate on the same board"
                   if (width, height) in plain_rates else "")
                + f"), {above:.1f} B/position at "
                f"peak above the baseline, {disk:.2f} B/position compressed")  # fmt: skip
        if has_builtin:
            builtin = min(tries["builtin"], key=lambda f: f["seconds"])
            worst = max(f["seconds"] for f in tries["builtin"])
            line += (
                f"; built-in hand-ranked tiers: {builtin['seconds']:.1f} s (slowest "
                f"{worst:.1f} s); compiled / built-in = "
                f"{compiled['seconds'] / builtin['seconds']:.2f} (fastest against fastest)"
            )
        print(line, flush=True)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
