"""Kaooa position by position: perfectplay's examples/kaooa.py against GamesmanOne's mkaooa.

Run: .venv/bin/python bench/formal_kaooa.py [--positions N] [--seed S]

Needs GamesmanOne built (bench/gamesmanone.sh build); its mkaooa (one variant, "0") is
solved here in /work/peers/gamesmanone/runs/mkaooa-0-t1 when that holds no database yet.
For the start and positions from random playouts (N in all, the start first), each is
queried in GamesmanOne through ``kaooa_formal`` and compared with perfectplay's solution:
the value, the remoteness, and the positions its moves lead to (GamesmanOne lists them with
the answer). Exits 1 on a difference, naming the position. As in
bench/gamesmanone_queries.py, a draw has remoteness none in perfectplay and 0 in
GamesmanOne; that is not counted as a difference.
"""

from __future__ import annotations

import argparse
import subprocess
import sys

from gamesmanone_queries import (
    WORK,
    answer,
    positions,
    same_value,
    value_of,
)  # (examples/ on the path)

GAME, VARIANT = "mkaooa", "0"
RUN = WORK / "runs" / f"{GAME}-{VARIANT}-t1"


def kaooa_formal(state: int) -> str:
    """A position as GamesmanOne's formal string: the player to move (1 the crows, 2 the
    vulture), "_", points 0 to 9 (C a crow, V the vulture, - empty), then the number of
    crows dropped (one digit)."""
    cells = "".join(
        "C" if state >> i & 1 else "V" if state >> (10 + i) & 1 else "-" for i in range(10)
    )
    return f"{1 + (state >> 23 & 1)}_{cells}{state >> 20 & 7}"


def main() -> int:
    from perfectplay import solve

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if not (RUN / "data").is_dir():
        RUN.mkdir(parents=True, exist_ok=True)
        binary = str(WORK / "bin" / "gamesman")
        subprocess.run([binary, "solve", GAME, VARIANT], cwd=RUN, check=True, capture_output=True)
    game = __import__("kaooa").Kaooa()
    solution = solve(game)
    differ = draws = 0
    asked = positions(game, args.positions, args.seed)
    for state in asked:
        formal = kaooa_formal(state)
        found = answer(GAME, VARIANT, formal)
        theirs, children = value_of(found), {child["position"] for child in found["moves"]}
        ours = (str(solution.value(state)), solution.remoteness(state))
        ours_children = (
            {kaooa_formal(game.play(state, m)) for m in game.moves(state)}
            if game.outcome(state) is None
            else set()
        )
        if ours != theirs and same_value(ours, theirs):
            draws += 1  # (the conventions differ: see the module)
        elif ours != theirs:
            differ += 1
            print(f"{formal}: perfectplay {ours}, GamesmanOne {theirs}")
        if children != ours_children:
            differ += 1
            print(f"{formal}: moves to {sorted(ours_children)} in perfectplay, "
                  f"to {sorted(children)} in GamesmanOne")  # fmt: skip
    print(f"kaooa: {len(asked)} positions, {differ} differ ({draws} draws, remoteness none "
          "in perfectplay and 0 in GamesmanOne)")  # fmt: skip
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
