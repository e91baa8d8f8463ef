"""Solving speed: states per second end to end (exploration + solving) and peak memory.

Run: make bench   (or .venv/bin/python bench/speed.py [--large])
Each case runs in a fresh process, so its peak memory is its own. "seconds" is timed warm,
after numba and the kernels are loaded (a solve of a large subtraction game first), so it
shows the solver alone; "cold s" is the whole of another fresh process that solves the case
and nothing else (Python's start, the imports, the kernels loaded from numba's disk cache,
the solve), as a user's first command takes it. Floors and targets:
the plain protocol (one Python call per state and move) at least 100,000 states/s; the
batch protocol at least 1,000,000 states/s on Connect Four, 5x4 strongly solved in under
10 s and 2 GB, 4x6 in under 60 s; edpc_k's largest case (N = 100, K = 100,000) under 1 s.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from typing import Any

from perfectplay.core.memory import peak_resident_bytes

WARM_UP = 50_000
"""A pile this large has enough moves for every kernel to run compiled (small ones run
interpreted), so the baseline process holds numba and the kernels like every case."""
PLAIN_FLOOR = 100_000
BATCH_FLOOR = 1_000_000


def cases(large: bool) -> dict[str, tuple[str, str, dict[str, Any], bool]]:
    """name -> (game class, method, constructor arguments, batch)."""
    table: dict[str, tuple[str, str, dict[str, Any], bool]] = {
        "plain tic-tac-toe": ("TicTacToe", "retrograde", {}, False),
        "plain tic-tac-toe, symmetry": ("TicTacToe", "retrograde", {"symmetry": True}, False),
        "plain connect four 4x4": ("ConnectFour", "retrograde", {"width": 4, "height": 4}, False),
        "plain connect four 4x5": ("ConnectFour", "retrograde", {"width": 4, "height": 5}, False),
        "batch connect four 4x4": ("ConnectFour", "retrograde", {"width": 4, "height": 4}, True),
        "batch connect four 5x4": ("ConnectFour", "retrograde", {"width": 5, "height": 4}, True),
        "batch connect four 5x4, mirror": (
            "ConnectFour",
            "retrograde",
            {"width": 5, "height": 4, "symmetry": True},
            True,
        ),
        "batch stones K=100000 a=1..100": (
            "Stones",
            "retrograde",
            {"k": 100_000, "a": tuple(range(1, 101))},
            True,
        ),
        "batch invisible 50+50 cards": (
            "Invisible",
            "negamax",
            {"deck1": tuple(range(1, 51)), "deck2": tuple(range(51, 101))},
            True,
        ),
    }
    if large:
        table["batch connect four 4x6"] = (
            "ConnectFour",
            "retrograde",
            {"width": 4, "height": 6},
            True,
        )
        table["batch connect four 6x4, mirror"] = (
            "ConnectFour",
            "retrograde",
            {"width": 6, "height": 4, "symmetry": True},
            True,
        )
    return table


def run_one(name: str, large: bool, cold: bool) -> None:
    """Solve one case in this process and print its figures as JSON (cold: no warm-up)."""
    from perfectplay import games, solve

    cls_name, method, kwargs, batch = cases(large)[name]
    game = getattr(games, cls_name)(**kwargs)
    if not cold:
        solve(games.Subtraction(WARM_UP, (1, 2)), "retrograde")  # load the kernels first
    started = time.perf_counter()
    solution = solve(game, method, batch=batch)
    seconds = time.perf_counter() - started
    print(
        json.dumps(
            {
                "states": solution.stats.states,
                "edges": solution.stats.edges,
                "seconds": seconds,
                "explore": solution.stats.explore_seconds,
                "value": str(solution.value()),
                "peak_mb": peak_resident_bytes() / 2**20,
            }
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--large", action="store_true", help="also Connect Four 4x6 and 6x4")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--cold", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        run_one(args.one, args.large, args.cold)
        return
    baseline = _child("batch stones K=100000 a=1..100", args.large, baseline=True)
    print(f"a fresh process with numpy, numba and the kernels loaded: {baseline:,.0f} MB")
    print(
        f"{'case':<34}{'states':>12}{'edges':>13}{'seconds':>9}{'states/s':>12}"
        f"{'peak MB':>9}{'B/state':>9}{'cold s':>8}  value"
    )
    for name in cases(args.large):
        figures = _child(name, args.large)
        started = time.perf_counter()
        cold = _child(name, args.large, cold=True)
        cold_seconds = time.perf_counter() - started
        if cold["value"] != figures["value"] or cold["states"] != figures["states"]:
            sys.exit(f"{name}: a cold run found {cold['value']} in {cold['states']:,} states")
        rate = figures["states"] / figures["seconds"]
        floor = PLAIN_FLOOR if name.startswith("plain") else BATCH_FLOOR
        per_state = (figures["peak_mb"] - baseline) * 2**20 / max(figures["states"], 1)
        mark = "" if rate >= floor or "stones" in name or "invisible" in name else "  BELOW FLOOR"
        print(
            f"{name:<34}{figures['states']:>12,}{figures['edges']:>13,}"
            f"{figures['seconds']:>9.2f}{rate:>12,.0f}{figures['peak_mb']:>9,.0f}"
            f"{per_state:>9,.0f}{cold_seconds:>8.2f}  {figures['value']}{mark}"
        )


def _child(name: str, large: bool, baseline: bool = False, cold: bool = False) -> Any:
    if baseline:
        code = (
            "from perfectplay import games, solve; "
            "from perfectplay.core.memory import peak_resident_bytes; "
            f"solve(games.Subtraction({WARM_UP}, (1, 2)), 'retrograde'); "
            "print(peak_resident_bytes() / 2**20)"
        )
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        return float(out.stdout)
    command = [sys.executable, __file__, "--one", name] + (["--large"] if large else [])
    command += ["--cold"] if cold else []
    out = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


if __name__ == "__main__":
    main()
