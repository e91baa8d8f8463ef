"""The worst judge inputs we know of, each answered by a fresh `perfectplay contest` process.

Run: .venv/bin/python bench/contest.py [PROBLEM ...]
One line per input: wall seconds of the whole process (start-up and imports included, as a
judge counts them), the answer, OK or FAIL against the problem's time limit, and, where an
independent answer is known, whether it matches. Always exits 0: it is a report.
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from perfectplay import explore, solve
from perfectplay.contest import Problem, problems
from perfectplay.games import Invisible

JAM = -1
BIG = 10**9


@dataclass(frozen=True)
class Case:
    """One judge input, and its answer when an independent one is known."""

    label: str
    text: str
    expected: str | None = None


def find_script() -> str:
    """The perfectplay console script next to this Python, else on PATH."""
    here = Path(sys.executable).parent
    for name in ("perfectplay", "perfectplay.exe"):
        if (here / name).exists():
            return str(here / name)
    found = shutil.which("perfectplay")
    if found is None:
        sys.exit("bench/contest.py: no perfectplay console script next to " + sys.executable)
    return found


# --- EDPC K -------------------------------------------------------------------------------


def stones_reference(k: int, a: list[int]) -> str:
    """Plain DP: a pile wins when some removal leaves a losing pile."""
    win = bytearray(k + 1)
    for pile in range(1, k + 1):
        for x in a:
            if x > pile:
                break
            if not win[pile - x]:
                win[pile] = 1
                break
    return "First" if win[k] else "Second"


def edpc_k_cases() -> list[Case]:
    k = 100_000
    rng = random.Random(2741)
    sets = {
        "N=100 K=1e5 a=1..100 (most edges)": list(range(1, 101)),
        "N=100 K=1e5 a=2..101": list(range(2, 102)),
        "N=100 K=1e5 a=1,3,..,199 (odd)": list(range(1, 200, 2)),
        "N=100 K=1e5 a=random from 1..1000": sorted(rng.sample(range(1, 1001), 100)),
        "N=100 K=1e5 a=random from 1..1e5": sorted(rng.sample(range(1, k + 1), 100)),
        "N=1 K=1e5 a={1} (longest chain)": [1],
        "N=1 K=1e5 a={99999}": [99_999],
        "N=100 K=1e5 a=63..162 (pile by pile, the largest a1)": list(range(63, 163)),
        "N=100 K=1e5 a=64,66,..,262 (blocks of 64 piles)": list(range(64, 263, 2)),
    }
    return [
        Case(label, f"{len(a)} {k}\n{' '.join(map(str, a))}\n", stones_reference(k, a))
        for label, a in sets.items()
    ]


# --- AOJ 2741 -----------------------------------------------------------------------------


def deck_text(d1: list[int], d2: list[int]) -> str:
    return f"{len(d1)} {len(d2)}\n{' '.join(map(str, d1))}\n{' '.join(map(str, d2))}\n"


def deck_case(label: str, d1: list[int], d2: list[int]) -> Case:
    """A case whose expected answer is the engine's (negamax on ``invisible``, in-process)."""
    engine = solve(Invisible(tuple(d1), tuple(d2)), "negamax").value()
    return Case(label, deck_text(d1, d2), f"{engine}")


def jam_every(k: int, score: int = BIG) -> list[int]:
    return [JAM if i % k == k - 1 else score for i in range(50)]


def aoj2741_cases() -> list[Case]:
    rng = random.Random(2741)

    def deck(jam_share: float) -> list[int]:
        return [JAM if rng.random() < jam_share else rng.randint(1, BIG) for _ in range(50)]

    cases = [
        deck_case("50/50 no jams, random scores up to 1e9", deck(0.0), deck(0.0)),
        deck_case("50/50 no jams, every card 1e9", [BIG] * 50, [BIG] * 50),
        deck_case("50/50 few jams (5%)", deck(0.05), deck(0.05)),
        deck_case("50/50 many jams (50%)", deck(0.5), deck(0.5)),
        deck_case("50/50 every card a jam", [JAM] * 50, [JAM] * 50),
    ]
    # Candidates for the largest reachable state graph; measured, the worst one is run.
    single_first = [JAM, *[BIG] * 49]
    single_last = [*[BIG] * 49, JAM]
    candidates: dict[str, tuple[list[int], list[int]]] = {
        "no jams": ([BIG] * 50, [BIG] * 50),
        "one jam first in deck 1": (single_first, [BIG] * 50),
        "one jam last in deck 1": (single_last, [BIG] * 50),
        "one jam last in each": (single_last, single_last),
        "jam every 25th in deck 1": (jam_every(25), [BIG] * 50),
        "jam every 10th in deck 1": (jam_every(10), [BIG] * 50),
        "jam every 2nd in deck 1": (jam_every(2), [BIG] * 50),
        "50 vs 49 cards, no jams": ([BIG] * 50, [BIG] * 49),
    }
    counts = {
        label: explore(Invisible(tuple(d1), tuple(d2))).n_states
        for label, (d1, d2) in candidates.items()
    }
    print("aoj2741 reachable states by deck design (in-process explore):")
    for label, count in sorted(counts.items(), key=lambda item: -item[1]):
        print(f"    {count:>9,}  {label}")
    worst = max(counts, key=lambda label: counts[label])
    d1, d2 = candidates[worst]
    cases.append(deck_case(f"most states: {worst} ({counts[worst]:,})", d1, d2))
    return cases


# --- ABC 349 E ----------------------------------------------------------------------------

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def tictactoe_reference(w: list[int]) -> str:
    """Plain memoised minimax over boards: the mover's best margin, -inf if the other won."""

    @cache
    def best(board: tuple[int, ...], mover: int) -> float:
        other = 3 - mover
        if any(all(board[i] == other for i in line) for line in LINES):
            return -float("inf")
        if 0 not in board:
            return float(sum(w[i] if c == mover else -w[i] for i, c in enumerate(board)))
        return max(
            -best((*board[:i], mover, *board[i + 1 :]), other)
            for i, c in enumerate(board)
            if c == 0
        )

    return "Takahashi" if best((0,) * 9, 1) > 0 else "Aoki"


def odd(w: list[int]) -> list[int]:
    """Make the sum odd by moving the first cell one step towards zero."""
    if sum(w) % 2 == 0:
        w[0] += -1 if w[0] > 0 else 1
    return w


def abc349e_cases() -> list[Case]:
    rng = random.Random(349)
    boards = {
        "all +1e9 (one 999999999)": odd([BIG] * 9),
        "all -1e9 (one -999999999)": odd([-BIG] * 9),
        "alternating signs +-1e9": odd([BIG if i % 2 == 0 else -BIG for i in range(9)]),
        "alternating signs -+1e9": odd([-BIG if i % 2 == 0 else BIG for i in range(9)]),
        "centre -1e9, rest +1e9": odd([BIG] * 4 + [-BIG] + [BIG] * 4),
        "random signs, magnitude 1e9": odd([rng.choice((BIG, -BIG)) for _ in range(9)]),
        "all 1": [1] * 9,
    }
    return [
        Case(
            label,
            "".join(" ".join(map(str, w[r * 3 : r * 3 + 3])) + "\n" for r in range(3)),
            tictactoe_reference(w),
        )
        for label, w in boards.items()
    ]


# --- ARC 002 D ----------------------------------------------------------------------------

SIDE = 2000


def board_text(rows: list[str]) -> str:
    return f"{len(rows)} {len(rows[0])}\n" + "\n".join(rows) + "\n"


def dense_random_row(rng: random.Random, density: float) -> str:
    """A row starting with o, ending with x, never 'ox' (so no race and no first capture)."""
    cells = [
        ("o" if rng.random() < 0.5 else "x") if rng.random() < density else "."
        for _ in range(SIDE - 4)
    ]
    return ("o." + "".join(cells) + ".x").replace("ox", "o.")


def arc002d_cases() -> list[Case]:
    rng = random.Random(2)
    empty = "." * SIDE
    race = [empty] * SIDE
    race[0] = "o" + "." * (SIDE - 1)
    race[-1] = "." * (SIDE - 1) + "x"
    blocked = [empty] * SIDE
    blocked[SIDE // 2] = "o" + "." * (SIDE - 2) + "x"
    triple = "o.x" * (SIDE // 3) + "." * (SIDE % 3)
    full = "o" * (SIDE // 2 - 1) + ".." + "x" * (SIDE // 2 - 1)
    staggered = []
    for r in range(SIDE):
        p = 1 + r % 997
        gap = 2 + r % 7
        staggered.append("o" * p + "." * gap + "x" * (SIDE - p - gap))
    return [
        Case("2000x2000 empty but o and x racing (tie, o first)", board_text(race), "o"),
        Case("2000x2000 empty but one o....x row", board_text(blocked)),
        Case("2000x2000 rows of 'o.x' segments (densest)", board_text([triple] * SIDE)),
        Case("2000x2000 full rows o..o..x..x", board_text([full] * SIDE)),
        Case("2000x2000 rows o^p .^g x^q, staggered", board_text(staggered)),
        Case(
            "2000x2000 random dense segments (90%)",
            board_text([dense_random_row(rng, 0.9) for _ in range(SIDE)]),
        ),
    ]


BUILDERS: dict[str, Callable[[], list[Case]]] = {
    "edpc_k": edpc_k_cases,
    "aoj2741": aoj2741_cases,
    "abc349e": abc349e_cases,
    "arc002d": arc002d_cases,
}


def timed_run(
    script: str, problem: Problem, text: str
) -> tuple[float, subprocess.CompletedProcess[str] | None]:
    """Wall seconds of one fresh `perfectplay contest` process, and how it ended (None: killed)."""
    started = time.perf_counter()
    try:
        done = subprocess.run(
            [script, "contest", problem.name],
            input=text,
            capture_output=True,
            text=True,
            timeout=max(30.0, 10 * problem.limit_seconds),
            check=False,
        )
    except subprocess.TimeoutExpired:
        return time.perf_counter() - started, None
    return time.perf_counter() - started, done


def run_case(script: str, problem: Problem, case: Case, repeat: int) -> list[str]:
    """Run one input ``repeat`` times, print its line, return its markers (FAIL, WRONG...).

    FAIL means even the fastest run was over the limit (a busy machine only adds time).
    """
    runs = [timed_run(script, problem, case.text) for _ in range(repeat)]
    seconds, done = min(runs, key=lambda run: run[0])
    if done is None:
        print(f"  FAIL        {seconds:7.2f} s  killed, no answer  {case.label}")
        return ["FAIL"]
    markers = ["FAIL"] if seconds > problem.limit_seconds else []
    if done.returncode != 0:
        markers.append("ERROR")
        error = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
        result = f"exit {done.returncode}: {error}"
    else:
        answer = done.stdout.strip()
        result = f"answer {answer:<10}"
        if case.expected is not None and answer != case.expected:
            markers.append("WRONG")
            result += f" (reference says {case.expected})"
        elif case.expected is not None:
            result += " (= reference)"
    shown = " ".join(markers) or "ok"
    spread = f" (slowest {max(run[0] for run in runs):.2f})" if repeat > 1 else ""
    print(f"  {shown:<11} {seconds:7.2f} s{spread}  {result}  {case.label}")
    return markers


def import_floor() -> float:
    """Wall seconds of a fresh Python importing the package and nothing else, best of 3."""
    runs = []
    for _ in range(3):
        begun = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import perfectplay"], check=True)
        runs.append(time.perf_counter() - begun)
    return min(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="only these problems (default: all)")
    parser.add_argument(
        "--repeat", type=int, default=1, help="runs per input; the fastest one is judged"
    )
    args = parser.parse_args()
    script = find_script()
    known = problems()
    started = time.perf_counter()
    print(f"python -c 'import perfectplay': {import_floor():.2f} s (best of 3)")
    if "edpc_k" in known:
        floor = min(timed_run(script, known["edpc_k"], "1 1\n1\n")[0] for _ in range(3))
        print(f"start-up floor: {floor:.2f} s (edpc_k K=1: the command's imports, best of 3)")
    tally: dict[str, int] = {}
    for name, build in BUILDERS.items():
        if args.names and name not in args.names:
            continue
        problem = known.get(name)
        if problem is None:
            print(f"{name}: skipped, not among perfectplay.contest.problems() ({', '.join(known)})")
            continue
        cases = build()
        print(f"{name}: {problem.title}, limit {problem.limit_seconds:g} s, {len(cases)} inputs")
        for case in cases:
            for marker in run_case(script, problem, case, args.repeat) or ["ok"]:
                tally[marker] = tally.get(marker, 0) + 1
    for name in known:
        if name not in BUILDERS:
            print(f"{name}: no worst-case inputs written for it in bench/contest.py")
    summary = ", ".join(f"{count} {marker}" for marker, count in sorted(tally.items()))
    print(f"done in {time.perf_counter() - started:.1f} s: {summary or 'nothing run'}")


if __name__ == "__main__":
    main()
