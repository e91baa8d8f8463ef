"""Neutron position by position: examples/neutron.py against GamesmanOne's ``query``.

Run: .venv/bin/python bench/formal_neutron.py [--positions N] [--seed S] [--db DIR]

For the start and positions met in random playouts (``--positions`` in all, the start
first), each is converted to GamesmanOne's formal position string and queried with
``gamesman query neutron 0 STRING`` (run in runs/neutron-0-t1, where
``bench/gamesmanone.sh solve neutron 0 1`` leaves its database). Two things are compared:

- the rules, always: GamesmanOne lists each move (its formal move text) with the position
  it leads to, and lists none where its ``Primitive`` says the game is over; perfectplay's
  moves (``format_move`` writes the same text), their positions after ``play`` converted
  the same way, must be the same pairs, and none exactly where ``outcome`` ends the game;
- the value and remoteness, where both tools have them: GamesmanOne's database, and a
  perfectplay tablebase of the same board given by ``--db`` (``perfectplay solve
  examples/neutron.py:Neutron --save DIR``). A draw has no remoteness in perfectplay and
  remoteness 0 in GamesmanOne: not a difference (as in bench/gamesmanone_queries.py).

Exits 1 on any difference, naming the position. Neither tool solves the 5 x 5 board on a
machine of 23 GB: GamesmanOne's solver allocates 2 bytes for each of its 24,711,825,601
hashed positions (its ``calloc`` of 49.4 GB fails: the solve stops at once with code 21),
and perfectplay keeps an 8-byte code for each reachable position (up to about twelve
billion after the mirror; its 4 x 4 board, 6,360,521 positions, is solved in memory).
Without both databases only the rules are compared, and the script says so.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples"))
sys.path.insert(0, str(ROOT / "bench"))

from gamesmanone_queries import answer, positions, same_value  # noqa: E402


def neutron_formal(state: int) -> str:
    """A 5 x 5 position as GamesmanOne's formal string: "I" for the start (the turn without
    a neutron slide), else the player to move (1 X, the first; 2 O), "_", then the 25
    cells from the top left (O's home row) row by row, X, O, N (the neutron) or -."""
    x, o, neutron = state & (2**25 - 1), state >> 25 & (2**25 - 1), state >> 50 & 31
    if state >> 56 & 1:
        return "I"
    cells = "".join(
        "X" if x >> i & 1 else "O" if o >> i & 1 else "N" if i == neutron else "-"
        for i in range(25)
    )
    return f"{1 + (state >> 55 & 1)}_{cells}"


def main() -> int:
    from neutron import Neutron

    from perfectplay import open_tablebase

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--db", type=Path, help="a perfectplay tablebase of Neutron 5 x 5")
    args = parser.parse_args()
    game = Neutron()
    base = open_tablebase(args.db, game) if args.db else None
    asked = positions(game, args.positions, args.seed)
    rules = values = draws = unsolved = 0
    for state in asked:
        formal = neutron_formal(state)
        theirs = answer("neutron", "0", formal)
        moves = list(game.moves(state)) if game.outcome(state) is None else []
        ours = {game.format_move(m): neutron_formal(game.play(state, m)) for m in moves}
        found = {child["move"]: child["position"] for child in theirs["moves"]}
        if ours != found or len(found) != len(theirs["moves"]):
            rules += 1
            print(f"{formal}: moves differ: perfectplay only {sorted(ours.items() - found.items())}"
                  f", GamesmanOne only {sorted(found.items() - ours.items())}")  # fmt: skip
        if theirs["positionValue"] == "unsolved" or base is None:
            unsolved += 1
            continue
        value = {"lose": "loss"}.get(theirs["positionValue"], theirs["positionValue"])
        mine = (str(base.value(state)), base.remoteness(state))
        if mine != (value, theirs["remoteness"]) and same_value(mine, (value, 0)):
            draws += 1
        elif mine != (value, theirs["remoteness"]):
            values += 1
            print(f"{formal}: perfectplay {mine}, GamesmanOne {(value, theirs['remoteness'])}")
    print(f"neutron: {len(asked)} positions; moves and children: {rules} differ; values: "
          f"{len(asked) - unsolved} compared, {values} differ ({draws} draws)")  # fmt: skip
    if unsolved:
        why = "no perfectplay tablebase (--db)" if base is None else "GamesmanOne unsolved"
        print(f"values not compared at {unsolved} positions: {why}")
    if base is not None:
        base.close()
    return 1 if rules or values else 0


if __name__ == "__main__":
    sys.exit(main())
