"""Winkers position by position: perfectplay's examples/winkers.py against GamesmanOne's
winkers.

Run: .venv/bin/python bench/formal_winkers.py [--positions N] [--seed S]

Neither tool solves the whole game on this machine: GamesmanOne's 915 tiers hold
255,779,610,746 positions (one thread solved 0.3 to 0.5 million a second here: it estimated
6 to 9 days), and perfectplay would keep some 10**10 positions up to symmetry. So
GamesmanOne's solve is run by hand for a while in /work/peers/gamesmanone/runs/winkers-0-t1
(``OMP_NUM_THREADS=1 timeout 3600 gamesman -M 4 solve winkers 0``): its tier solver
finishes the game's last tiers first, and ``query`` answers a position of a finished tier
(data/winkers/0/arraydb/TIER.adb.xz present) and says "unsolved" of the others, the start
among them (the start's answer is printed, not compared).

Random playouts from the start give N distinct positions, each from the first position of
its playout whose tier GamesmanOne has finished on. Each is queried through
``winkers_formal`` and compared with perfectplay's solution: the value, the remoteness, and
the positions its moves lead to (GamesmanOne lists them with the answer). perfectplay
solves the game from the first such position of each playout (a subclass whose start is
that position: a game of a few hundred positions, solved as plain Python), which reaches
every later position of the playout. Exits 1 on a difference, naming the position. After
the hour's 48 tiers (2026-11-29): 1000 positions, 32 to 38 moves into the game, 0 differ.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter

from gamesmanone_queries import WORK, answer, value_of  # (puts examples/ on sys.path)

GAME, VARIANT = "winkers", "0"
RUN = WORK / "runs" / f"{GAME}-{VARIANT}-t1"
winkers = __import__("winkers")
WINKERS = winkers.Winkers()


class From(winkers.Winkers):
    """Winkers from the position ``at`` on."""

    at: int = 0

    def start(p):
        return p[3]


def counts(state: int) -> tuple[int, int, int, int]:
    """(X's winks, O's winks, X's checkers put down, O's): GamesmanOne's tier."""
    _, x_down, o_down, by_x, by_o = winkers.tally((3, 10, 10), state)
    return by_x, by_o, x_down, o_down


def winkers_formal(state: int) -> str:
    """A position as GamesmanOne's formal string: the 19 cells (X, O a wink, C a neutral
    checker, - empty), "_", X's checkers left, "_", O's checkers left."""
    _, _, x_down, o_down = counts(state)
    return "".join(WINKERS.letters(state)) + f"_{10 - x_down}_{10 - o_down}"


def solved(state: int) -> bool:
    """Whether GamesmanOne's solve has finished the position's tier."""
    tier = "{}X_{}O_{}CX_{}CO".format(*counts(state))
    return (RUN / "data" / GAME / VARIANT / "arraydb" / f"{tier}.adb.xz").is_file()


def ask(formal: str) -> tuple[tuple[str, int], set[str]]:
    """GamesmanOne's (value, remoteness) of a position, and the positions its moves reach."""
    found = answer(GAME, VARIANT, formal)
    return value_of(found), {child["position"] for child in found["moves"]}


def playouts(count: int, seed: int) -> list[list[int]]:
    """Random playouts from the start, each cut to its positions from the first one
    GamesmanOne has solved (empty when none is), until ``count`` distinct positions."""
    game, rng, seen, found = WINKERS, random.Random(seed), set(), []
    while len(seen) < count:
        state, path = game.initial(), []
        while True:
            if (path or solved(state)) and state not in seen and len(seen) < count:
                path.append(state)
                seen.add(state)
            if game.outcome(state) is not None:
                break
            state = game.play(state, rng.choice(game.moves(state)))
        found.append(path)
    return found


def main() -> int:
    from perfectplay import solve

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = WINKERS
    start = winkers_formal(game.initial())
    print(f"start {start}: GamesmanOne {ask(start)[0]}")
    differ, values, moves = 0, Counter(), []
    for path in playouts(args.positions, args.seed):
        if not path:
            continue
        solution = solve(From(at=path[0]))
        for state in path:
            moves.append(sum(counts(state)))  # the moves made
            formal = winkers_formal(state)
            theirs, children = ask(formal)
            ours = (str(solution.value(state)), solution.remoteness(state))
            ours_children = (
                {winkers_formal(game.play(state, m)) for m in game.moves(state)}
                if game.outcome(state) is None
                else set()
            )
            values[ours[0]] += 1
            if ours != theirs:
                differ += 1
                print(f"{formal}: perfectplay {ours}, GamesmanOne {theirs}")
            if children != ours_children:
                differ += 1
                print(f"{formal}: moves to {sorted(ours_children)} in perfectplay, "
                      f"to {sorted(children)} in GamesmanOne")  # fmt: skip
    print(f"winkers: {values.total()} positions compared ({dict(values)}; moves "
          f"{min(moves)} to {max(moves)} into the game), {differ} differ")  # fmt: skip
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
