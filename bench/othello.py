"""Othello from a user's rules (examples/othello.py, two words a state) by compiled search.

Run:  .venv/bin/python bench/othello.py [--plies 12 10 8] [--start] [--log-size 25]
      [--threads 1 2]

1. 4x4: the start by search and by the strong solve of the same rules (the plain path),
   which must agree (published: the second player wins 11-3, -10 with the two empty
   cells counted to the winner).
2. 5x5: the start by search (too many positions for the plain path's strong solve).
3. 6x6: positions along Joel Feinstein's published perfect line (1993: the second player
   wins 20-16, https://www.maths.nottingham.ac.uk/plp/pmzjff/Othello/6x6sol.html), each
   searched after the first k plies of it with a fresh table: the score (+-4 for the player
   to move, the line being perfect), nodes, seconds, nodes a second. ``--start`` searches
   the start itself (issue 48's target: at most 10 minutes; see the note's figures).
   ``--threads 1 2`` searches each position on each count of threads in turn (one table
   shared by the threads), side by side in one run.

Exits 1 when a score differs from the strong solve's or from the line's +-4.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples"))

FEINSTEIN = ("d3", "c5", "d6", "e3", "f5", "f4", "e2", "d2", "c2", "e6", "e7", "g5")
"""The first moves of Feinstein's perfect line, in 8x8 names (the 6x6 board is b2-g7)."""


def cell(name: str) -> int:
    """An 8x8 name on the b2-g7 board as the example's cell (row * 6 + column)."""
    return (int(name[1]) - 2) * 6 + ord(name[0]) - ord("b")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, nargs="*", default=[12, 10, 8])
    parser.add_argument("--start", action="store_true", help="search 6x6 from its start")
    parser.add_argument("--log-size", type=int, default=25, help="table: 2**N entries")
    parser.add_argument("--threads", type=int, nargs="*", default=[1], help="counts to run")
    args = parser.parse_args()

    from othello import Othello

    from perfectplay import solve
    from perfectplay.solvers.compiled_search import CompiledSearch, solve_position

    failed = False
    small = Othello(size=4)
    started = time.perf_counter()
    solved = solve(small).value()
    solve_seconds = time.perf_counter() - started
    found = solve_position(small)
    agree = found.score == solved
    failed |= not agree
    verdict = "agree" if agree else "DIFFER"
    print(f"4x4 start: search {found.score} ({found.nodes:,} nodes, {found.seconds:.2f} s), "
          f"strong solve {solved:g} ({solve_seconds:.1f} s): {verdict}")  # fmt: skip

    five = Othello(size=5)
    found = solve_position(five, search=CompiledSearch(five.compiled_rules(), args.log_size))  # type: ignore[arg-type]
    print(f"5x5 start: search {found.score} ({found.nodes:,} nodes, {found.seconds:.1f} s)")

    game = Othello(size=6)
    rules = game.compiled_rules()
    searches = {n: CompiledSearch(rules, args.log_size, threads=n) for n in args.threads}  # type: ignore[arg-type]
    print("6x6 along Feinstein's line: plies played, threads, score for the mover, nodes, "
          "seconds, Mnodes/s")  # fmt: skip
    for plies in ([0] if args.start else []) + args.plies:
        state = game.initial()
        for name in FEINSTEIN[:plies]:
            state = game.play(state, cell(name))
        for threads, search in searches.items():
            search.clear()
            found = solve_position(game, state, search=search)
            right = found.score == (-4 if plies % 2 == 0 else 4)
            failed |= not right
            rate = found.nodes / found.seconds / 1e6
            print(f"  {plies:2d}  {threads}  {found.score:+d}{'' if right else ' (NOT +-4)'}  "
                  f"{found.nodes:>14,}  {found.seconds:8.1f}  {rate:.2f}")  # fmt: skip
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
