"""perfectplay's compiled games beside GamesmanOne's C, on GamesmanOne's own games.

Run: make bench-gamesmanone   (or .venv/bin/python bench/gamesmanone.py [--threads 1 2])

Needs GamesmanOne built by bench/gamesmanone.sh (a checkout prepared by hand; see there).
For each game and each thread count, one after the other (never two timed runs at once):
GamesmanOne's ``solve`` from an empty data/ with OMP_NUM_THREADS, then perfectplay's
``solve --save`` of the same game written as a compiled game (examples/), each in a fresh
process timed by GNU time; the value and remoteness of the start from both.
Targets (issue 27): perfectplay's wall time at most GamesmanOne's on the same number of
cores, its peak memory at most 2x, the same value at the start. Also shown where the game
has a small variant: perfectplay's peak above its baseline, in bytes a position (target:
at most 12), the baseline being the peak of the same command on the small variant (Python,
numpy, numba and the game's loops loaded, a few thousand positions solved).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
GAMES = {
    # name: (GamesmanOne game and variant, perfectplay game and parameters)
    "quixo 4x4": (("quixo", "1"), ("examples/quixo.py:Quixo", ["-p", "size=4"])),
    "teeko": (("teeko", "0"), ("examples/teeko.py:Teeko", [])),
    "mttt": (("mttt", "0"), ("examples/tictactoe.py:TicTacToe", [])),
    "mtttier": (("mtttier", "0"), ("examples/tictactoe.py:TicTacToe", [])),
}
SMALL = {"quixo 4x4": ["-p", "size=3"]}
"""Parameters of a small variant of the same game, for perfectplay's baseline."""


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
    return {
        "seconds": wall.group(1),
        "peak": str(int(wall.group(2)) // 1024),
        "start": start_value(start.group(1), start.group(2)) if start else "?",
    }


def start_value(value: str, plies: str) -> str:
    """ "win in 21", or "draw" alone (GamesmanOne gives a draw remoteness 0, perfectplay
    "never ends")."""
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
    parser.add_argument("--games", nargs="+", choices=sorted(GAMES), default=sorted(GAMES))
    args = parser.parse_args()
    print("| game | threads | GamesmanOne | perfectplay | time ratio | memory ratio | "
          "B/position above the baseline |")  # fmt: skip
    print("| --- | ---: | --- | --- | ---: | ---: | ---: |")
    for name in args.games:
        (game, variant), (spec, params) = GAMES[name]
        perfectplay(spec, params, 1)  # compile (or load) the game's loops first, untimed
        if name in SMALL:  # and the small variant's (its peak is the baseline)
            perfectplay(spec, SMALL[name], 1)
        for threads in args.threads:
            # Each timed run starts with the disk quiet: the files the run before wrote are
            # flushed first (perfectplay fsyncs its tiers, and waited behind GamesmanOne's
            # database being written back: Quixo on two threads took 21-22 s in such runs,
            # 15-16 s alone, 2026-11-27).
            os.sync()
            theirs = gamesmanone(game, variant, threads, args.work)
            os.sync()
            ours = perfectplay(spec, params, threads)
            time_ratio = float(ours["seconds"]) / float(theirs["seconds"])
            memory_ratio = int(ours["peak"]) / int(theirs["peak"])
            above = "-"
            if name in SMALL:  # the baseline: the same command on the small variant
                os.sync()
                small = perfectplay(spec, SMALL[name], threads)
                extra = int(ours["peak_bytes"]) - int(small["peak_bytes"])
                above = f"{extra / int(ours['positions']):.1f}"
            print(
                f"| {name} | {threads} | {theirs['seconds']} s, {theirs['peak']} MB, "
                f"{theirs['start']} | {ours['seconds']} s, {ours['peak']} MB, {ours['start']} "
                f"| {time_ratio:.2f} | {memory_ratio:.2f} | {above} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
