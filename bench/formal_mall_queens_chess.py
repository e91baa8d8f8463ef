"""All Queens Chess position by position: perfectplay's answers against GamesmanOne's.

Run: .venv/bin/python bench/formal_mall_queens_chess.py [--positions N] [--seed S]

The start and N positions from random playouts (bench/gamesmanone_queries.py's
``positions``), each queried in GamesmanOne (``gamesman query mallqueenschess 0 STRING``,
from the database ``bench/gamesmanone.sh solve mallqueenschess 0 1`` leaves) and read from
perfectplay's tablebase of examples/mall_queens_chess.py; every value and remoteness must
be equal (a draw: no remoteness in perfectplay, 0 in GamesmanOne, not a difference). Exits
1 on a difference, naming the position; 2 when GamesmanOne cannot answer.

GamesmanOne v1.3.0 (commit 1969986) cannot: its mallqueenschess defines no UWAPI, so
``query`` and ``getstart`` refuse it ("missing UWAPI function definition"), and there is
no formal position string of its own. ``mall_queens_chess_formal`` writes the form of its
sibling games' (teeko, quixo): the player to move (1 for W, its generic hash's first
player; 2 for B), "_", then the 25 cells in the order of its board array (row 1 first, a
to e) as W, B or -, the order in which its GetInitialPosition spells the start
(``WBWBW-----B---W-----BWBWB``). Its solve would also need a 16-bit record for each of
9,610,154,400 positions in memory (19.2 GB), and perfectplay's solve some 581 million
positions up to symmetry (every board on which the mover has no line, folded by 16, if
play reaches them all); the script asks GamesmanOne first.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from gamesmanone_queries import WORK, positions, query

NAME, VARIANT = "mallqueenschess", "0"  # src/games/game_list.c; the game has no variants


def mall_queens_chess_formal(state: int) -> str:
    """A 5 x 5 position (examples/mall_queens_chess.py's state) as "1_" or "2_" (W or B
    to move) and the cells row by row from the top left: W, B or -."""
    cells = "".join(
        "W" if state >> i & 1 else "B" if state >> (25 + i) & 1 else "-" for i in range(25)
    )
    return f"{1 + (state >> 50 & 1)}_{cells}"


def gamesmanone_ready() -> str | None:
    """Why GamesmanOne cannot answer for the game, or None when it can."""
    binary = WORK / "bin" / "gamesman"
    if not binary.exists():
        return f"no GamesmanOne at {binary}: build it with bench/gamesmanone.sh build"
    done = subprocess.run([str(binary), "getstart", NAME, VARIANT], capture_output=True,
                          text=True, cwd="/tmp")  # fmt: skip
    if done.returncode != 0:
        return f"gamesman getstart {NAME} {VARIANT}: {(done.stdout + done.stderr).strip()}"
    if not (WORK / "runs" / f"{NAME}-{VARIANT}-t1" / "data").exists():
        return f"not solved yet: bench/gamesmanone.sh solve {NAME} {VARIANT} 1"
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    why = gamesmanone_ready()
    if why is not None:
        print(f"{NAME}: GamesmanOne cannot answer, nothing compared: {why}")
        return 2

    from mall_queens_chess import MallQueensChess  # (examples/, on the path of the import)

    from perfectplay import build_tablebase, open_tablebase

    game = MallQueensChess(size=5)
    differ = draws = 0
    with tempfile.TemporaryDirectory() as scratch:
        build_tablebase(game, Path(scratch) / "db")
        with open_tablebase(Path(scratch) / "db", game) as base:
            asked = positions(game, args.positions + 1, args.seed)  # the start, then N
            for state in asked:
                theirs = query(NAME, VARIANT, mall_queens_chess_formal(state))
                ours = (str(base.value(state)), base.remoteness(state))
                if ours == ("draw", None) and theirs == ("draw", 0):
                    draws += 1
                elif ours != theirs:
                    differ += 1
                    print(f"{mall_queens_chess_formal(state)}: perfectplay {ours}, "
                          f"GamesmanOne {theirs}")  # fmt: skip
    print(f"{NAME}: {len(asked)} positions, {differ} differ ({draws} draws, remoteness none "
          "in perfectplay and 0 in GamesmanOne)")  # fmt: skip
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
