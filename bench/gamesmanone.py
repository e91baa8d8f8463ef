"""perfectplay's compiled games beside GamesmanOne's C, on GamesmanOne's own games.

Run: make bench-gamesmanone   (or .venv/bin/python bench/gamesmanone.py [--threads 1 2]
     [--games mttt fsvp ...]; every game in GAMES by default, in its order)

Needs GamesmanOne built by bench/gamesmanone.sh (a checkout prepared by hand; see there).
For each game and each thread count, one after the other (never two timed runs at once):
GamesmanOne's ``solve`` from an empty data/ with OMP_NUM_THREADS, then perfectplay's
``solve --save`` of the same game written as a compiled game (examples/), each in a fresh
process timed by GNU time; the value and remoteness of the start from both (GamesmanOne's
from ``query``, or from its text interface where the game has no UWAPI), and the positions
perfectplay solved. Issue 49: every game of GamesmanOne's list, on the variant GAMES gives
(the largest GamesmanOne solves here in 30 minutes; where it solves none, perfectplay
alone on the standard variant, or the reason in a comment).
Targets (issue 27): perfectplay's wall time at most GamesmanOne's on the same number of
cores, its peak memory at most 2x, the same value at the start. Also shown where the game
has a small variant: perfectplay's peak above its baseline, in bytes a position (target:
at most 12), the baseline being the peak of the same command on the small variant (Python,
numpy, numba and the game's loops loaded, a few thousand positions solved).
"""

from __future__ import annotations

import argparse
import datetime
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
GAMES = {
    # name: (GamesmanOne game and variant, or None where it solves no variant here;
    #        perfectplay game and parameters, the same rules). Every game of GamesmanOne's
    # list (src/games/game_list.c) is here or below with why not. Only quixo, teeko and fsvp
    # have variants in GamesmanOne v1.3.0; the others have one each ("0").
    #
    # Quixo: variant 1 is 4x4, 4 in a row (GamesmanOne 20-30 s). Its standard variant 0
    # (5x5, 5 in a row) is far beyond 30 minutes for both tools here: 3**25 boards, either
    # player to move, 1.7 x 10**12 positions before symmetry; 2 is 3x3.
    "quixo 4x4": (("quixo", "1"), ("examples/quixo.py:Quixo", ["-p", "size=4"])),
    # Teeko, standard winning rule (variant 0; 1, "advanced", is not in examples/teeko.py):
    # GamesmanOne 593 s on 2 threads, 1,124 s on 1 (2026-11-25).
    "teeko": (("teeko", "0"), ("examples/teeko.py:Teeko", [])),
    # Tic-tac-toe, GamesmanOne's two solvers of it (mttt: one pass of value iteration,
    # mtttier: a tier a piece count); 765 positions up to symmetry.
    "mttt": (("mttt", "0"), ("examples/tictactoe.py:TicTacToe", [])),
    "mtttier": (("mtttier", "0"), ("examples/tictactoe.py:TicTacToe", [])),
    # Fair Shares and Varied Pairs: variant i is the i-th size of 4-12, 20, 50, 60, ..., 100;
    # 10 (variant 6) is GamesmanOne's default, 20 (9) the largest examples/fsvp.py takes
    # (its size is at most 31): 42 and 627 positions.
    "fsvp": (("fsvp", "6"), ("examples/fsvp.py:FairShares", ["-p", "size=10"])),
    "fsvp 20": (("fsvp", "9"), ("examples/fsvp.py:FairShares", ["-p", "size=20"])),
    # Kaooa (GamesmanOne's mkaooa: 6 crows, 3 taken win): 21,696 positions.
    "mkaooa": (("mkaooa", "0"), ("examples/kaooa.py:Kaooa", [])),
    # Gobblet Gobblers, perfectplay alone (682,049,252 positions; 32 min, 8.6 GB, beside
    # other work, 2026-11-29): GamesmanOne's gobbletg fails at once here, its first tier
    # (864,162,432 positions) wanting a reverse graph of 32 bytes a position (27.7 GB).
    "gobbletg": (None, ("examples/gobblet.py:Gobblet", [])),
    # Dobutsu shogi, perfectplay alone: GamesmanOne's dshogi takes hours here (below); the
    # example (its own un-moves, no ranking) is solved whole, 246,803,167 positions.
    "dshogi": (None, ("examples/dobutsu.py:Dobutsu", [])),
    # Not here: no variant of theirs is solved by GamesmanOne in 30 minutes on this machine
    # (2 cores, 24 GB), and none is smaller (docs/results/gamesmanone.md):
    # - neutron (5x5): its solve callocs 2 bytes for each of 24,711,825,601 hashed
    #   positions (49.4 GB) and stops at once; perfectplay would keep 8 bytes for each of up
    #   to some 12 billion positions.
    # - mallqueenschess (5x5): 2 bytes for each of 9,610,154,400 hashed positions (19.2 GB)
    #   in memory, then passes of value iteration over all of them; perfectplay's 5x5 would
    #   hold some 581 million positions up to symmetry (estimated), not tried here.
    # - winkers: 915 tiers, 255,779,610,746 positions; GamesmanOne estimated 6 to 9 days on
    #   one thread (0.3-0.5 million positions a second); perfectplay some 10**10 positions.
    # - gates: 75,609 tiers, 1,977,526,345,897 positions; GamesmanOne estimated 20 days.
    # - dshogi: one tier of 4,234,908,456 hashed positions (counted from its hash's piece
    #   ranges; 2 bytes each, 8.5 GB) solved by value iteration, each pass over all of them:
    #   its first scan had not finished after 60 s on one thread (2026-11-30, at low priority
    #   beside other work) and the start is decided 78 plies deep (Tanaka 2009), so at least
    #   78 passes: hours (perfectplay's example, above, alone).
}
SMALL = {"quixo 4x4": ["-p", "size=3"]}
"""Parameters of a small variant of the same game, for perfectplay's baseline."""
WARM = {"gobbletg": ["-p", "pieces=1"], "dshogi": ["-p", "height=3", "-p", "elephants=False"]}
"""Parameters of the untimed first run (the game's loops compiled or loaded) where the
game's own would take long (otherwise the same parameters as the timed runs)."""
MENU = {
    "mallqueenschess": "0", "dshogi": "1", "fsvp": "2", "gates": "3", "gobbletg": "4",
    "mkaooa": "5", "neutron": "6", "quixo": "7", "teeko": "8", "mtttier": "9", "mttt": "10",
    "winkers": "11",
}  # fmt: skip
"""Each game's key in the list of games of GamesmanOne's text interface (by formal name)."""
OPTIONS = {"fsvp", "quixo", "teeko"}
"""The games with a variant option (one each: a variant is that option's choice)."""


def gamesmanone(game: str, variant: str, threads: int, work: str) -> dict[str, str]:
    """GamesmanOne's solve: wall seconds, peak KiB, start value and remoteness."""
    done = subprocess.run(
        ["bash", str(HERE / "gamesmanone.sh"), work, "solve", game, variant, str(threads)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    text = done.stdout
    wall = re.search(r"wall ([\d.]+) s, peak RSS (\d+) KiB", text)
    start = re.search(r"start [^:]*: (\w+), remoteness (-?\d+)", text)
    assert wall, text
    run = Path(work) / "runs" / f"{game}-{variant}-t{threads}"  # (gamesmanone.sh's)
    return {
        "seconds": wall.group(1),
        "peak": str(int(wall.group(2)) // 1024),
        "start": start_value(*start.groups()) if start else played(game, variant, run),
    }


def played(game: str, variant: str, run: Path) -> str:
    """The start's value from GamesmanOne's text interface, for a game whose ``getstart`` or
    ``query`` fails (mttt and fsvp have no UWAPI; mtttier's ``getstart`` prints bytes past its
    board): in ``run``, where its solve left the database, the menus' keys (list of games,
    the game, its variant, solve and start (the database found), play) make it print the
    start with its prediction ("Player 1 (Human) should tie in 9."); "?" without one."""
    keys = ["", "g", MENU[game]]
    if game in OPTIONS:  # game options, the option, its choice, back twice
        keys += ["g", "0", variant, "b", "b"]
    keys += ["s", "p", "a", "q", "q", "q"]  # (abort the game; quit from any menu)
    binary = Path(run).parents[1] / "bin" / "gamesman"
    try:
        done = subprocess.run([str(binary)], input="\n".join(keys) + "\n", cwd=run,
                              capture_output=True, text=True, timeout=120)  # fmt: skip
    except subprocess.TimeoutExpired:
        return "?"
    if re.search(r"Player 1 and Player 2 are in a draw", done.stdout):
        return "draw"
    found = re.search(r"Player \d \(Human\) should (win|lose|tie) in (\d+)\.", done.stdout)
    return start_value(found.group(1), found.group(2)) if found else "?"


def start_value(value: str, plies: str) -> str:
    """ "win in 21", or "draw" alone (GamesmanOne gives a draw remoteness 0, perfectplay
    "never ends"); GamesmanOne's "lose" is perfectplay's "loss"."""
    value = "loss" if value == "lose" else value
    return value if value == "draw" else f"{value} in {plies}"


def perfectplay(spec: str, params: list[str], threads: int) -> dict[str, str]:
    """perfectplay's solve --save in a fresh process: the same figures."""
    directory = Path(tempfile.mkdtemp(prefix="perfectplay-vs-gamesmanone-"))
    cli = Path(sys.executable).with_name("perfectplay")
    command = ["/usr/bin/time", "-f", "WALL %e PEAK %M", str(cli), "solve", spec, *params,
               "--save", str(directory / "tb"), "--quiet"]  # fmt: skip
    env = {"PERFECTPLAY_THREADS": str(threads), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(command, capture_output=True, text=True, cwd=HERE.parent, env=env,
                          check=True)  # fmt: skip
    shutil.rmtree(directory, ignore_errors=True)
    figures = re.search(r"WALL ([\d.]+) PEAK (\d+)", done.stderr)
    value = re.search(r"^value\s+(\w+)", done.stdout, re.MULTILINE)
    plies = re.search(r"^remoteness\s+(\d+|never ends)", done.stdout, re.MULTILINE)
    positions = re.search(r"^positions\s+([\d,]+)", done.stdout, re.MULTILINE)
    assert figures and value and plies and positions, done.stdout + done.stderr
    return {
        "seconds": figures.group(1),
        "peak": str(int(figures.group(2)) // 1024),
        "peak_bytes": str(int(figures.group(2)) * 1024),
        "positions": positions.group(1).replace(",", ""),
        "start": start_value(value.group(1), plies.group(1)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--work", default="/work/peers/gamesmanone")
    parser.add_argument("--games", nargs="+", choices=list(GAMES), default=list(GAMES))
    args = parser.parse_args()
    print(f"{datetime.date.today()}, {os.cpu_count()} cores; GamesmanOne's positions are "
          "not counted (its hashes count unreachable ones)\n")  # fmt: skip
    print("| game | threads | positions | GamesmanOne | perfectplay | time ratio | "
          "memory ratio | B/position above the baseline |")  # fmt: skip
    print("| --- | ---: | ---: | --- | --- | ---: | ---: | ---: |")
    for name in args.games:
        theirs_game, (spec, params) = GAMES[name]
        # compile (or load) the game's loops first, untimed
        perfectplay(spec, WARM.get(name, params), 1)
        if name in SMALL:  # and the small variant's (its peak is the baseline)
            perfectplay(spec, SMALL[name], 1)
        for threads in args.threads:
            # Each timed run starts with the disk quiet: the files the run before wrote are
            # flushed first (perfectplay fsyncs its tiers, and waited behind GamesmanOne's
            # database being written back: Quixo on two threads took 21-22 s in such runs,
            # 15-16 s alone, 2026-11-27).
            theirs: dict[str, str] = {}
            if theirs_game:
                os.sync()
                theirs = gamesmanone(*theirs_game, threads, args.work)
            os.sync()
            ours = perfectplay(spec, params, threads)
            time_ratio = memory_ratio = above = "-"
            if theirs_game and float(theirs["seconds"]) > 0:
                time_ratio = f"{float(ours['seconds']) / float(theirs['seconds']):.2f}"
            if theirs_game:
                memory_ratio = f"{int(ours['peak']) / max(int(theirs['peak']), 1):.2f}"
            if name in SMALL:  # the baseline: the same command on the small variant
                os.sync()
                small = perfectplay(spec, SMALL[name], threads)
                extra = int(ours["peak_bytes"]) - int(small["peak_bytes"])
                above = f"{extra / int(ours['positions']):.1f}"
            their_cell = (
                f"{theirs['seconds']} s, {theirs['peak']} MB, {theirs['start']}"
                if theirs_game
                else "- (solves no variant here)"
            )
            print(
                f"| {name} | {threads} | {int(ours['positions']):,} | {their_cell} "
                f"| {ours['seconds']} s, {ours['peak']} MB, {ours['start']} "
                f"| {time_ratio} | {memory_ratio} | {above} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
