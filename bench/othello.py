"""Othello from a user's rules (examples/othello.py, two words a state) by compiled search.

Run:  .venv/bin/python bench/othello.py [--plies 12 10 8] [--start] [--log-size 25]
      [--threads 1 2] [--proof DIR [--proof-leaves 1000]]

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
   shared by the threads), side by side in one run. ``--proof DIR`` writes each score's
   proof there after its search (leaves of at most ``--proof-leaves`` nodes) and checks it
   with the compiled rules: nodes written, bytes, seconds to write and to check.

Exits 1 when a score differs from the strong solve's or from the line's +-4, or a proof
does not prove it.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

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
    parser.add_argument("--proof", type=Path, help="write and check each 6x6 proof here")
    parser.add_argument("--proof-leaves", type=int, default=1000, help="a leaf's nodes")
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
            if args.proof is not None:
                failed |= not _proven(game, state, plies, search, found.score, args)
    return 1 if failed else 0


def _proven(game: Any, state: Any, plies: int, search: Any, score: int, args: Any) -> bool:
    """The score's proof written and checked with the compiled rules; its figures printed."""
    import resource

    from perfectplay.proof_check import check_proof
    from perfectplay.proof_search import write_proof
    from perfectplay.rules import Rules

    rules = Rules(game)
    args.proof.mkdir(parents=True, exist_ok=True)
    path = args.proof / f"othello6-{plies}.proof"
    moves = [rules.format_move(cell(name)) for name in FEINSTEIN[:plies]]
    started = time.perf_counter()
    nodes = write_proof(rules, state, moves, search, score, path, leaf_nodes=args.proof_leaves)
    written = time.perf_counter() - started
    started = time.perf_counter()
    verdict = check_proof(rules, path)
    checked = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6
    print(f"      proof: {nodes:,} nodes, {path.stat().st_size:,} bytes, written in "
          f"{written:.1f} s, checked in {checked:.1f} s ({verdict.at_least:+g}..."
          f"{verdict.at_most:+g}); peak {peak:.2f} GB so far")  # fmt: skip
    return verdict.at_least == verdict.at_most == score


if __name__ == "__main__":
    sys.exit(main())
