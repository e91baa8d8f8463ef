"""Partizan values: perfectplay beside pycgt on Domineering, timed in one run.

Run: .venv/bin/python bench/cgt.py [--skip-6x6] [--timeout SECONDS]

1. Every Domineering rectangle up to 5 x 5, by perfectplay and by pycgt (pip install
   pycgt), each in its own fresh process with its own caches kept across the 25 boards;
   the values are checked equal (their difference is zero) and the ratio is pycgt's
   seconds over perfectplay's.
2. The canonical forms of 5 x 6 and 6 x 6 (pycgt does not finish 5 x 6 in minutes), each
   in a fresh process: time and peak memory (VmHWM: a process started from a large one
   does not inherit it, as it does ru_maxrss).

Seconds are CPU seconds of the process (the machine may be shared), and wall seconds.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from typing import Any

from perfectplay.core.memory import peak_resident_bytes

SIZES = [(w, h) for h in range(1, 6) for w in range(1, 6)]


def peak_mb() -> float:
    """Peak resident memory of this process, in MB (Linux reports kB)."""
    return peak_resident_bytes() / 2**20


def ours_rectangles() -> dict[str, Any]:
    """Every rectangle up to 5 x 5 by perfectplay, one solver (memo) for all."""
    from perfectplay.cgt import Domineering, Solver, render

    board = Domineering(6, 6)
    solver = Solver(board)
    values: dict[str, str] = {}
    times: dict[str, float] = {}
    started, cpu = time.perf_counter(), time.process_time()
    for w, h in SIZES:
        t = time.process_time()
        g = solver.value(board.parse_position("/".join(["." * w] * h)))
        times[f"{w}x{h}"] = time.process_time() - t
        values[f"{w}x{h}"] = render(g)
    return {
        "cpu": time.process_time() - cpu,
        "wall": time.perf_counter() - started,
        "times": times,
        "values": values,
        "peak_mb": peak_mb(),
    }


def pycgt_rectangles() -> dict[str, Any]:
    """The same boards by pycgt (its caches kept across boards too); the values go out as
    nested options, for perfectplay to rebuild."""
    from pycgt.rulesets import domineering

    games: dict[str, Any] = {}
    times: dict[str, float] = {}
    started, cpu = time.perf_counter(), time.process_time()
    for w, h in SIZES:
        t = time.process_time()
        games[f"{w}x{h}"] = domineering.rectangle(h, w)  # rows, then columns
        times[f"{w}x{h}"] = time.process_time() - t
    cpu_seconds = time.process_time() - cpu
    wall = time.perf_counter() - started
    return {
        "cpu": cpu_seconds,
        "wall": wall,
        "times": times,
        "forms": {board: nested(g) for board, g in games.items()},
        "peak_mb": peak_mb(),
    }


def nested(g: Any) -> dict[str, Any]:
    """A pycgt game as {"left": [...], "right": [...]} (small games: recursion is fine)."""
    return {"left": [nested(o) for o in g.left], "right": [nested(o) for o in g.right]}


def one_board(w: int, h: int) -> dict[str, Any]:
    """The canonical form of one board, with what it cost."""
    from perfectplay.cgt import Domineering, Solver, render, thermograph
    from perfectplay.cgt.canonical import cache_info

    board = Domineering(w, h)
    solver = Solver(board)
    started, cpu = time.perf_counter(), time.process_time()
    g = solver.value(board.initial())
    cpu_seconds = time.process_time() - cpu
    wall = time.perf_counter() - started
    th = thermograph(g)
    return {
        "board": f"{w}x{h}",
        "cpu": cpu_seconds,
        "wall": wall,
        "peak_mb": peak_mb(),
        "value": render(g),
        "outcome": g.outcome,
        "birthday": g.birthday,
        "mean": str(th.mean),
        "temperature": str(th.temperature),
        "positions": len(solver.memo),
        **cache_info(),
    }


def same_values(ours: dict[str, str], theirs: dict[str, Any]) -> bool:
    """Every board's two values differ by zero (pycgt's forms rebuilt by perfectplay)."""
    from perfectplay.cgt import ZERO, CanonicalGame, game, parse

    def rebuild(node: dict[str, Any]) -> CanonicalGame:
        return game([rebuild(o) for o in node["left"]], [rebuild(o) for o in node["right"]])

    for board, text in ours.items():
        if (parse(text) - rebuild(theirs[board])) is not ZERO:
            print(f"  MISMATCH on {board}: {text}")
            return False
    return True


def in_fresh_process(*args: str, timeout: float | None = None) -> dict[str, Any] | str:
    """Run this file with args in a new Python; its JSON answer, or why there is none."""
    try:
        done = subprocess.run(
            [sys.executable, __file__, *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return f"not finished in {timeout:.0f} s"
    if done.returncode != 0:
        return done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "failed"
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-6x6", action="store_true", help="Stop after 5 x 6.")
    parser.add_argument(
        "--timeout", type=float, default=None, help="Give up on a board after this many seconds."
    )
    parser.add_argument("--worker", choices=["ours", "pycgt", "board"], help=argparse.SUPPRESS)
    parser.add_argument("--board", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker == "ours":
        print(json.dumps(ours_rectangles()))
        return
    if args.worker == "pycgt":
        print(json.dumps(pycgt_rectangles()))
        return
    if args.worker == "board":
        w, h = (int(x) for x in args.board.split("x"))
        print(json.dumps(one_board(w, h)))
        return

    print("Domineering: every rectangle up to 5 x 5 (width x height; Left plays vertically)")
    ours = in_fresh_process("--worker", "ours")
    if isinstance(ours, str):
        raise SystemExit(f"perfectplay failed: {ours}")
    theirs = in_fresh_process("--worker", "pycgt")
    largest = ["4x4", "5x4", "4x5", "5x5"]
    print(f"  {'':<12}{'cpu s':>9}{'wall s':>9}{'peak MB':>9}   " + "  ".join(largest))
    for name, result in (("perfectplay", ours), ("pycgt 0.2.0", theirs)):
        if isinstance(result, str):
            print(f"  {name:<12} skipped: {result}")
            continue
        per_board = "  ".join(f"{result['times'][b]:.2f}" for b in largest)
        print(
            f"  {name:<12}{result['cpu']:>9.2f}{result['wall']:>9.2f}"
            f"{result['peak_mb']:>9.0f}   {per_board}"
        )
    if not isinstance(theirs, str):
        agree = same_values(ours["values"], theirs["forms"])
        ratio = theirs["cpu"] / ours["cpu"]
        print(f"  values equal: {agree}; pycgt / perfectplay (cpu): {ratio:.1f}x")
    print(f"  5x5 = {ours['values']['5x5']}, 4x4 = {ours['values']['4x4']}")

    boards = ["5x6"] if args.skip_6x6 else ["5x6", "6x6"]
    print("\nDomineering canonical forms, each in a fresh process (perfectplay only;")
    print("6 x 5 is the negative of 5 x 6: the transpose exchanges the players)")
    for board in boards:
        result = in_fresh_process("--worker", "board", "--board", board, timeout=args.timeout)
        if isinstance(result, str):
            print(f"  {board}: {result}")
            continue
        value = result["value"]
        shown = value if len(value) <= 120 else value[:117] + "..."
        print(
            f"  {board}: {result['cpu']:.1f} s cpu, {result['wall']:.1f} s wall, "
            f"peak {result['peak_mb']:.0f} MB, {result['positions']:,} positions, "
            f"{result['values']:,} values; outcome {result['outcome']}, mean "
            f"{result['mean']}, temperature {result['temperature']}, birthday "
            f"{result['birthday']}\n    {shown}"
        )


if __name__ == "__main__":
    main()
