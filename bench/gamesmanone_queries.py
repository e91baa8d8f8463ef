"""Position by position: perfectplay's answers against GamesmanOne's ``query``.

Run: .venv/bin/python bench/gamesmanone_queries.py [--games mtttier quixo teeko] [--positions N]

Needs GamesmanOne built and its game solved by bench/gamesmanone.sh (its runs/ directory
holds the database ``query`` reads). For each game: perfectplay's tablebase of the same
rules (examples/), then positions from random playouts from the start (``--positions``
of them, the start first), each queried in both tools through a conversion to
GamesmanOne's formal position string; every value must be equal, and every remoteness.
Exits 1 on a difference, naming the position. Teeko's GamesmanOne database takes about
ten minutes and 9.5 GB to solve here (2 threads); perfectplay's, a minute and 2.5 GB.

One convention differs and is not counted as a difference: a draw (a position whose play
never ends) has no remoteness in perfectplay, remoteness 0 in GamesmanOne.

GamesmanOne v1.3.0's ``getstart`` for mtttier prints the board followed by bytes past its
end (a string without its terminator); ``query`` takes the nine characters alone.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples"))
WORK = Path("/work/peers/gamesmanone")


def tictactoe_formal(state: int) -> str:
    """A 3 x 3 position as mtttier's nine characters: x, o or - by cell, row by row."""
    return "".join(
        "x" if state >> i & 1 else "o" if state >> (9 + i) & 1 else "-" for i in range(9)
    )


def quixo_formal(state: int, size: int = 4) -> str:
    """A Quixo position as GamesmanOne's: the player to move (1 X, the first; 2 O), "_",
    then the cells from the last (bottom right) to the first, X, O or -."""
    area = size * size
    cells = "".join(
        "X" if state >> i & 1 else "O" if state >> (area + i) & 1 else "-"
        for i in reversed(range(area))
    )
    return f"{1 + (state >> (2 * area) & 1)}_{cells}"


def teeko_formal(state: int) -> str:
    """A Teeko position as GamesmanOne's: the player to move (1 X, the first; 2 O), "_",
    then the 25 cells row by row from the top left, X, O or -."""
    cells = "".join(
        "X" if state >> i & 1 else "O" if state >> (25 + i) & 1 else "-" for i in range(25)
    )
    return f"{1 + (state >> 50 & 1)}_{cells}"


GAMES: dict[str, tuple[str, Callable[[], Any], Callable[[int], str]]] = {
    # GamesmanOne's name: (variant, perfectplay's game, position -> formal string)
    "mtttier": ("0", lambda: __import__("tictactoe").TicTacToe(size=3), tictactoe_formal),
    "quixo": ("1", lambda: __import__("quixo").Quixo(size=4), quixo_formal),
    "teeko": ("0", lambda: __import__("teeko").Teeko(), teeko_formal),
}


def query(game: str, variant: str, formal: str) -> tuple[str, int]:
    """GamesmanOne's value and remoteness of one position (from its runs/ database)."""
    run = WORK / "runs" / f"{game}-{variant}-t1"
    done = subprocess.run(
        [str(WORK / "bin" / "gamesman"), "query", "--", game, variant, formal],
        capture_output=True, cwd=run, check=True,
    )  # fmt: skip
    text = done.stdout.decode("utf-8", errors="replace")
    head = text[: text.index(', "moves"')] + "}" if '"moves"' in text else text
    head = head.replace(head[head.index('"position"') : head.index('"autoguiPosition"')], "")
    found = json.loads(head)
    value = {"lose": "loss"}.get(found["positionValue"], found["positionValue"])
    return value, int(found["remoteness"])


def answer(game: str, variant: str, formal: str) -> dict[str, Any]:
    """GamesmanOne's whole answer for one position, from the game's runs/ directory: its
    value, remoteness ("unsolved" where its tier is not solved) and each move with the
    position it reaches (listed even without a database)."""
    run = WORK / "runs" / f"{game}-{variant}-t1"
    run.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [str(WORK / "bin" / "gamesman"), "query", "--", game, variant, formal],
        capture_output=True, cwd=run, check=True,
    )  # fmt: skip
    found: dict[str, Any] = json.loads(done.stdout.decode("utf-8", errors="replace"))
    return found


def value_of(found: dict[str, Any]) -> tuple[str, int]:
    """(value, remoteness) of an ``answer``, its value named as perfectplay names it."""
    value = found["positionValue"]
    return {"lose": "loss"}.get(value, value), int(found["remoteness"])


def same_value(ours: tuple[str, int | None], theirs: tuple[str, int]) -> bool:
    """Whether perfectplay's (value, remoteness) and GamesmanOne's agree, a draw's
    remoteness by each tool's convention (none in perfectplay, 0 in GamesmanOne)."""
    return ours == theirs or (ours == ("draw", None) and theirs == ("draw", 0))


def positions(game: Any, count: int, seed: int) -> list[Any]:
    """The start, then positions met in random playouts (distinct), ``count`` in all."""
    rng = random.Random(seed)
    seen: dict[Any, None] = {game.initial(): None}
    while len(seen) < count:
        state = game.initial()
        while game.outcome(state) is None and len(seen) < count:
            state = game.play(state, rng.choice(list(game.moves(state))))
            seen[state] = None
    return list(seen)


def fsvp_sizes() -> list[tuple[str, int]]:
    """GamesmanOne's fsvp variants (its size choices) that perfectplay's example takes."""
    return [(str(i), size) for i, size in enumerate((4, 5, 6, 7, 8, 9, 10, 11, 12, 20))]


def analysed(game: str, variant: str) -> dict[tuple[str, int], int]:
    """GamesmanOne's ``analyze`` summary of all positions: count by (value, remoteness)."""
    run = WORK / "runs" / f"{game}-{variant}-t1"
    run.mkdir(parents=True, exist_ok=True)
    binary = str(WORK / "bin" / "gamesman")
    subprocess.run([binary, "solve", game, variant], cwd=run, check=True, capture_output=True)
    text = subprocess.run([binary, "analyze", game, variant], cwd=run, check=True,
                          capture_output=True, text=True).stdout  # fmt: skip
    table = text[text.index("Summary of all positions") : text.index("Totals")]
    counts: dict[tuple[str, int], int] = {}
    for line in table.splitlines():
        fields = line.split()
        if len(fields) == 6 and (fields[0].isdigit() or fields[0] == "Inf"):
            plies = -1 if fields[0] == "Inf" else int(fields[0])
            for name, count in zip(("win", "loss", "tie", "draw"), fields[1:5], strict=True):
                if int(count):
                    counts[(name, plies)] = int(count)
    return counts


def distributions() -> bool:
    """fsvp (no query in GamesmanOne: its ``uwapi`` is not written): every variant's
    positions by value and remoteness, from GamesmanOne's ``analyze`` and perfectplay's
    solve (every partition is reachable, so the two count the same positions)."""
    from perfectplay import solve
    from perfectplay.statistics import statistics

    failed = False
    for variant, size in fsvp_sizes():
        theirs = analysed("fsvp", variant)
        found = statistics(solve(__import__("fsvp").FairShares(size=size)))
        ours = {(name, r): n for name, per in found.remoteness.items() for r, n in per.items()}
        if found.values.get("draw"):
            ours[("draw", -1)] = found.values["draw"]  # (GamesmanOne: remoteness "Inf")
        same = theirs == ours
        print(f"fsvp size {size}: {sum(ours.values())} positions, "
              f"{'the same' if same else 'DIFFERENT'} by value and remoteness")  # fmt: skip
        if not same:
            print(f"  perfectplay {sorted(ours.items())}\n  GamesmanOne {sorted(theirs.items())}")
        failed |= not same
    return failed


def main() -> int:
    from perfectplay import build_tablebase, open_tablebase

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=[*GAMES, "fsvp"])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    failed = distributions() if "fsvp" in args.games else False
    for name in [g for g in args.games if g in GAMES]:
        variant, make, formal = GAMES[name]
        run = WORK / "runs" / f"{name}-{variant}-t1"
        run.mkdir(parents=True, exist_ok=True)  # its data/ solved there, if not yet
        subprocess.run([str(WORK / "bin" / "gamesman"), "solve", name, variant], cwd=run,
                       check=True, capture_output=True)  # fmt: skip
        with tempfile.TemporaryDirectory() as scratch:
            build_tablebase(make(), Path(scratch) / "db")
            with open_tablebase(Path(scratch) / "db", make()) as base:
                asked = positions(make(), args.positions, args.seed)
                differ = draws = 0
                for state in asked:
                    theirs = query(name, variant, formal(state))
                    ours = (str(base.value(state)), base.remoteness(state))
                    if ours != theirs and same_value(ours, theirs):
                        draws += 1  # (the conventions differ: see the module)
                    elif ours != theirs:
                        differ += 1
                        print(f"{name}: {formal(state)}: perfectplay {ours}, GamesmanOne {theirs}")
        print(f"{name}: {len(asked)} positions, {differ} differ ({draws} draws, remoteness "
              "none in perfectplay and 0 in GamesmanOne)")  # fmt: skip
        failed |= differ > 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
