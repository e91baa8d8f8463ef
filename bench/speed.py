"""States per second through the plain protocol: exploration + retrograde analysis.

Run: make bench   (or .venv/bin/python bench/speed.py [--large])
Prints one line per game; the floor set for the plain protocol is 100,000 states/s.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from perfectplay import solve
from perfectplay.games import ConnectFour, Nim, Subtraction, TicTacToe

FLOOR = 100_000


def measure(label: str, game: Any) -> float:
    """Solve ``game`` once; print its size, time and rate; return the rate."""
    solution = solve(game, "retrograde")
    stats = solution.stats
    rate = stats.states / stats.seconds
    print(
        f"{label:<28} {stats.states:>10,} states {stats.edges:>11,} edges "
        f"{stats.explore_seconds:7.3f} s explore {stats.solve_seconds:7.3f} s solve "
        f"{rate:>11,.0f} states/s {stats.edges / stats.seconds:>11,.0f} edges/s  "
        f"value {solution.value()}"
    )
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--large", action="store_true", help="also Connect Four 5x4 (~4M states)")
    args = parser.parse_args()
    started = time.perf_counter()
    solve(Subtraction(10, (1, 2)), "retrograde")  # loads the compiled kernels once
    print(f"kernel load (first solve in a process): {time.perf_counter() - started:.3f} s")
    games: list[tuple[str, Any]] = [
        ("tic-tac-toe", TicTacToe()),
        ("tic-tac-toe, symmetry", TicTacToe(symmetry=True)),
        ("nim 3,5,7,9 (many moves)", Nim((3, 5, 7, 9))),
        ("connect four 4x4", ConnectFour(4, 4)),
        ("connect four 4x5", ConnectFour(4, 5)),
    ]
    if args.large:
        games.append(("connect four 5x4", ConnectFour(5, 4)))
    rates = {label: measure(label, game) for label, game in games}
    # The floor is set for games of a few moves per state; Nim shows the cost per edge.
    worst = min(rate for label, rate in rates.items() if not label.startswith("nim"))
    print(
        f"slowest (tic-tac-toe, connect four): {worst:,.0f} states/s "
        f"= {worst / FLOOR:.1f}x the floor of {FLOOR:,}"
    )


if __name__ == "__main__":
    main()
