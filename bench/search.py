"""The compiled search on 7 x 6 Connect Four, side by side with its C reference.

Run: python bench/search.py [--bands NAME ...] [--limit N]
     python bench/search.py --generate [--per-band N]   (rebuild the position sets: long)

The position sets (bench/c4search_ref/sets/*.txt, one ``moves score`` a line, columns from
1) are made by perfectplay itself: random games stopped at a random number of discs, kept
when the player to move cannot win at once and the game is not over, sorted into bands of
discs played and of plies remaining under perfect play (from the score: see
``games.connect_four.search``), as in Pascal Pons' test sets. Each score is checked when the
set is made: by a plain exhaustive negamax (with a memo, written here) from 30 discs on, and
by the C reference elsewhere (a second implementation of the same search, in another language).

Each run solves every position with an empty table (a fresh zeroed table per position, its
allocation timed, in both programs), with perfectplay's compiled search and with the C
reference (bench/c4search_ref/c4search.c, built now with gcc -O2 -march=native; numba also
compiles for this CPU), checks that scores and node counts are equal position by position,
and prints per band the mean time, nodes and nodes per second, and the time ratio to C.
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path

HERE = Path(__file__).resolve().parent / "c4search_ref"
SOURCE = HERE / "c4search.c"
SETS = HERE / "sets"
WIDTH, HEIGHT = 7, 6
CELLS = WIDTH * HEIGHT


@dataclass(frozen=True)
class Band:
    """Positions with ``discs`` in [lo, hi) and remaining plies in [rlo, rhi)."""

    name: str
    lo: int
    hi: int
    rlo: int
    rhi: int
    count: int


BANDS = (
    Band("end-easy", 28, 42, 0, 14, 100),
    Band("middle-easy", 14, 28, 0, 14, 100),
    Band("middle-medium", 14, 28, 14, 28, 60),
    Band("begin-easy", 10, 14, 0, 14, 30),
    Band("begin-medium", 10, 14, 14, 28, 20),
    Band("begin-hard", 10, 14, 28, 43, 10),
    Band("any-12-plus", 12, 42, 0, 43, 60),
)


def remaining(discs: int, score: int) -> int:
    """Plies to the end under perfect play, from the score (see games.connect_four.search)."""
    if score == 0:
        return CELLS - discs
    r = CELLS + 2 - discs - 2 * abs(score)
    if (r % 2 == 1) != (score > 0):  # a win ends on the mover's ply: an odd count
        r -= 1
    return r


# --- the plain reference, from 30 discs on -----------------------------------------------


def _line(columns: tuple[tuple[int, ...], ...], c: int) -> bool:
    r = len(columns[c]) - 1
    me = columns[c][r]
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            i = 1
            while True:
                cc, rr = c + sign * i * dc, r + sign * i * dr
                if not (0 <= cc < WIDTH and 0 <= rr < len(columns[cc])) or columns[cc][rr] != me:
                    break
                run += 1
                i += 1
        if run >= 4:
            return True
    return False


@cache
def plain_score(columns: tuple[tuple[int, ...], ...]) -> int:
    """Negamax over every move of a position where nobody has a line yet."""
    m = sum(len(c) for c in columns)
    best = None
    for c in range(WIDTH):
        if len(columns[c]) == HEIGHT:
            continue
        child = (*columns[:c], (*columns[c], m % 2), *columns[c + 1 :])
        value = (CELLS + 1 - m) // 2 if _line(child, c) else -plain_score(child)
        best = value if best is None else max(best, value)
    return 0 if best is None else best


def columns_of(moves: str) -> tuple[tuple[int, ...], ...]:
    cols: list[list[int]] = [[] for _ in range(WIDTH)]
    for m, ch in enumerate(moves):
        cols[int(ch) - 1].append(m % 2)
    return tuple(map(tuple, cols))


# --- the two programs ----------------------------------------------------------------------


def build_reference(directory: Path) -> Path | None:
    compiler = shutil.which("gcc")
    if compiler is None:
        return None
    binary = directory / "c4search"
    flags = ["-O2", "-march=native", f"-DWIDTH={WIDTH}", f"-DHEIGHT={HEIGHT}"]
    subprocess.run([compiler, *flags, "-o", str(binary), str(SOURCE)], check=True)
    return binary


class Reference:
    """The C reference as a process answering one position a line: run in step with
    perfectplay, position by position, so that load on the machine hits both alike."""

    def __init__(self, binary: Path) -> None:
        self.process = subprocess.Popen(
            [str(binary)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def solve(self, moves: str) -> tuple[int, int, float, float]:
        """(score, nodes, seconds with the table's allocation, seconds searching)."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(moves + "\n")
        self.process.stdin.flush()
        score, nodes, total, searching = self.process.stdout.readline().split()
        return int(score), int(nodes), float(total) / 1e6, float(searching) / 1e6

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


class Perfectplay:
    """perfectplay's compiled search on 7 x 6, a fresh table per position."""

    def __init__(self) -> None:
        from perfectplay.games import ConnectFour
        from perfectplay.solvers.compiled_search import CompiledSearch

        self.game = ConnectFour(WIDTH, HEIGHT)
        self.search = CompiledSearch(self.game.compiled_rules(), log_size=24)
        self.search.score(self.search.rules.encode(self.state("444444")))  # compile first

    def state(self, moves: str) -> tuple[int, int]:
        state = self.game.initial()
        for ch in moves:
            state = self.game.play(state, int(ch) - 1)
        return state

    def solve(self, moves: str) -> tuple[int, int, float, float]:
        """(score, nodes, seconds with the table's allocation, seconds searching)."""
        words = self.search.rules.encode(self.state(moves))
        started = time.perf_counter()
        self.search.clear()
        before = self.search.nodes
        searching = time.perf_counter()
        score = self.search.score(words)
        done = time.perf_counter()
        return score, self.search.nodes - before, done - started, done - searching


# --- making the sets -------------------------------------------------------------------------


def generate(per_band: int | None, seed: int) -> None:
    engine = Perfectplay()
    rng = random.Random(seed)
    SETS.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        binary = build_reference(Path(scratch))
        reference = None if binary is None else Reference(binary)
        for band in BANDS:
            wanted = per_band or band.count
            kept: list[tuple[str, int]] = []
            tries = 0
            while len(kept) < wanted:
                tries += 1
                moves = random_position(rng, rng.randrange(band.lo, band.hi), engine)
                if moves is None:
                    continue
                score = engine.solve(moves)[0]
                if not band.rlo <= remaining(len(moves), score) < band.rhi:
                    continue
                if len(moves) >= 30:
                    check = plain_score(columns_of(moves))
                    plain_score.cache_clear()
                elif reference is not None:
                    check = reference.solve(moves)[0]
                else:
                    check = score
                if check != score:
                    raise SystemExit(f"{band.name}: {moves} scores {score}, reference {check}")
                kept.append((moves, score))
            path = SETS / f"{band.name}.txt"
            path.write_text("".join(f"{m} {s}\n" for m, s in kept))
            print(f"{band.name}: {len(kept)} positions of {tries} drawn -> {path}", flush=True)


def random_position(rng: random.Random, discs: int, engine: Perfectplay) -> str | None:
    """Random moves to ``discs`` discs; None if the game ends or the mover can win at once."""
    from perfectplay.protocol import NOT_OVER

    moves = ""
    heights = [0] * WIDTH
    for _ in range(discs):
        free = [c for c in range(WIDTH) if heights[c] < HEIGHT]
        c = rng.choice(free)
        heights[c] += 1
        moves += str(c + 1)
        if _line(columns_of(moves), c):
            return None
    search = engine.search
    search._load(search.rules.encode(engine.state(moves)))
    first = search.rules.end(search.s, 0)
    return moves if first == NOT_OVER else None


# --- the run ---------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generate", action="store_true", help="rebuild the position sets")
    parser.add_argument("--per-band", type=int, default=None, help="positions per band made")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--bands", nargs="*", default=None, help="bands to run (default all)")
    parser.add_argument("--limit", type=int, default=None, help="positions per band run")
    args = parser.parse_args()
    if args.generate:
        generate(args.per_band, args.seed)
        return
    engine = Perfectplay()
    print(
        f"{'band':<14} {'n':>4} {'mean s':>9} {'C mean s':>9} {'ratio':>6} {'mean nodes':>12}"
        f" {'Mnodes/s':>9} {'C Mn/s':>7} {'ratio':>6}  nodes"
    )
    with tempfile.TemporaryDirectory() as scratch:
        binary = build_reference(Path(scratch))
        reference = None if binary is None else Reference(binary)
        twelve: list[float] = []
        for band in BANDS:
            if args.bands and band.name not in args.bands:
                continue
            path = SETS / f"{band.name}.txt"
            if not path.exists():
                print(f"{band.name:<14} no set (run with --generate)")
                continue
            rows = [line.split() for line in path.read_text().splitlines() if line.strip()]
            rows = rows[: args.limit] if args.limit else rows
            ours, theirs = [], []
            for moves, expected in rows:
                ours.append(engine.solve(moves))
                if ours[-1][0] != int(expected):
                    raise SystemExit(f"{moves}: perfectplay scores {ours[-1][0]}, set {expected}")
                if reference is not None:
                    theirs.append(reference.solve(moves))
                if len(moves) >= 12:
                    twelve.append(ours[-1][2])
            print(band_line(band.name, ours, theirs), flush=True)
        if reference is not None:
            reference.close()
        if twelve:
            mean = sum(twelve) / len(twelve)
            print(f"positions with 12+ discs: {len(twelve)}, mean {mean:.4f} s (perfectplay)")
    print(
        "mean s: per position, with a fresh table; Mnodes/s: nodes over search time alone "
        "(the table's allocation left out); ratio: perfectplay / C."
    )


Result = tuple[int, int, float, float]


def band_line(name: str, ours: list[Result], theirs: list[Result]) -> str:
    """One printed line: perfectplay's figures, and beside them C's if it ran."""
    n = len(ours)
    total = sum(r[2] for r in ours)
    searching = sum(r[3] for r in ours)
    nodes = sum(r[1] for r in ours)
    rate = nodes / searching / 1e6
    if not theirs:
        head = f"{name:<14} {n:>4} {total / n:>9.5f} {'-':>9} {'-':>6}"
        return f"{head} {nodes / n:>12,.0f} {rate:>9.2f}"
    c_total = sum(r[2] for r in theirs)
    c_rate = nodes / sum(r[3] for r in theirs) / 1e6
    same = all(a[:2] == b[:2] for a, b in zip(ours, theirs, strict=True))
    return (
        f"{name:<14} {n:>4} {total / n:>9.5f} {c_total / n:>9.5f} {total / c_total:>6.2f}"
        f" {nodes / n:>12,.0f} {rate:>9.2f} {c_rate:>7.2f} {c_rate / rate:>6.2f}"
        f"  {'equal' if same else 'DIFFER'}"
    )


if __name__ == "__main__":
    sys.exit(main())
