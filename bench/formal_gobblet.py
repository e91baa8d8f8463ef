"""Gobblet Gobblers position by position: perfectplay's example against GamesmanOne's
``query`` of its game gobbletg (variant 0, the only one).

Run: .venv/bin/python bench/formal_gobblet.py [--positions N] [--seed S] [--db DIR]

For the start and positions from random playouts (``--positions`` in all, distinct), each
converted to GamesmanOne's formal position string and queried there:

- the moves: GamesmanOne lists each child position (formal strings) and none at a position
  its ``Primitive`` ends; the example's children, converted, must be the same set, and the
  example's ``outcome`` must end the same positions. This needs no database.
- the value and remoteness, where GamesmanOne has a database (``bench/gamesmanone.sh solve
  gobbletg 0 1``) and perfectplay's tablebase is given (``--db DIR`` from ``perfectplay
  solve examples/gobblet.py:Gobblet --save DIR``). A draw has remoteness 0 in GamesmanOne
  and none in perfectplay: not a difference (as in bench/gamesmanone_queries.py).

GamesmanOne v1.3.0 (commit 1969986) could not solve gobbletg on the 2-core, 23 GB machine
of 2026-11-29: its first tier (every piece down, 864,162,432 positions) failed at once
("tiers failed due to OOM: 1"): its backward induction (every tier of this game is loopy,
and it writes no parent function) first allocates a reverse graph with a 32-byte list head
per position, 27.7 GB for that tier alone. ``query`` then answers "unsolved" and only the
moves are compared. Exits 1 on any difference, naming the position.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gamesmanone_queries import answer, positions, same_value

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples"))
GAME, VARIANT, AREA = "gobbletg", "0", 9


def gobblet_formal(state: int) -> str:
    """A 3 x 3 position as GamesmanOne's formal string: the player to move (1 X, the first;
    2 O), "_", then the small pieces' board, the medium's and the large's, nine cells each
    (row by row, as the example's cells), X, O or -."""
    boards = ""
    for size in range(3):
        for cell in range(AREA):
            x = state >> (2 * size * AREA + cell) & 1
            o = state >> ((2 * size + 1) * AREA + cell) & 1
            boards += "X" if x else "O" if o else "-"
    return f"{1 + (state >> (6 * AREA) & 1)}_{boards}"


def main() -> int:
    from perfectplay import open_tablebase

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--db", type=Path, help="perfectplay's tablebase of the game")
    args = parser.parse_args()
    game = __import__("gobblet").Gobblet()
    base = open_tablebase(args.db, game) if args.db else None
    differ = valued = draws = unsolved = 0
    for state in positions(game, args.positions, args.seed):
        formal = gobblet_formal(state)
        theirs = answer(GAME, VARIANT, formal)
        ended = game.outcome(state) is not None
        ours = [] if ended else [gobblet_formal(game.play(state, m)) for m in game.moves(state)]
        children = [child["position"] for child in theirs["moves"]]
        if theirs["position"] != formal or sorted(children) != sorted(ours):
            differ += 1
            print(f"{formal}: moves differ: perfectplay {sorted(set(ours) - set(children))} "
                  f"only, GamesmanOne {sorted(set(children) - set(ours))} only")  # fmt: skip
        value = {"lose": "loss"}.get(theirs["positionValue"], theirs["positionValue"])
        if value == "unsolved":
            unsolved += 1
        elif base is not None:
            valued += 1
            mine = (str(base.value(state)), base.remoteness(state))
            if mine != (value, theirs["remoteness"]) and same_value(mine, (value, 0)):
                draws += 1
            elif mine != (value, theirs["remoteness"]):
                differ += 1
                print(f"{formal}: perfectplay {mine}, GamesmanOne {value, theirs['remoteness']}")
    print(f"{GAME}: {args.positions} positions, {differ} differ; moves compared at all, "
          f"values at {valued} ({draws} draws), {unsolved} unsolved in GamesmanOne")  # fmt: skip
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
