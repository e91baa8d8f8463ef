"""Dobutsu shogi beside Robert Clausecker's C solver (github.com/clausecker/dobutsu, gentb).

Run: .venv/bin/python bench/clausecker.py SOURCE [--threads 1 2] [--dir D]
SOURCE is a checkout of clausecker/dobutsu; its ``gentb`` is built there first if it is
not (``make CC="gcc -std=c99" INTLLDLIBS= gentb``: liblzma is needed). For each thread
count, one after the other, each in a fresh process timed by GNU time (wall seconds and
peak resident memory): gentb writing the whole table with ``-j N``, then perfectplay's
``solve dobutsu --save`` with PERFECTPLAY_THREADS=N. Ratios are perfectplay / gentb.
Target (issue 29): perfectplay at most gentb's wall time with at most 4 times its memory.

Then (``--compare N``, default 20,000) both tables answer the same positions, from random
playouts of perfectplay's Dobutsu that have not ended: clausecker's ``dobutsu`` program
(built there too; ``setup POSITION`` and ``show eval``, its distance to mate in plies,
``#n`` a win and ``#-n`` a loss for the side to move) against perfectplay's value and
remoteness; every difference is printed, and the bench exits 1 if there is one.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CLI = Path(sys.executable).with_name("perfectplay")


def timed(command: list[str], env: dict[str, str] | None = None) -> tuple[float, int]:
    """(wall seconds, peak resident bytes) of a command run under GNU time."""
    done = subprocess.run(["/usr/bin/time", "-f", "TIMED %e %M", *command], env=env,
                          capture_output=True, text=True)  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"{command[0]} failed: {done.stderr.strip()[-500:]}")
    line = [x for x in done.stderr.splitlines() if x.startswith("TIMED")][-1]
    seconds, kilobytes = line.split()[1:]
    return float(seconds), int(kilobytes) * 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="a checkout of clausecker/dobutsu")
    parser.add_argument("--threads", type=int, nargs="+", default=[2, 1])
    parser.add_argument("--dir", type=Path, default=Path("/tmp/perfectplay-bench-clausecker"))
    parser.add_argument("--compare", type=int, default=20_000, metavar="N",
                        help="positions both tables answer (0: none)")  # fmt: skip
    parser.add_argument("--compare-only", action="store_true",
                        help="compare the tables already in --dir, solve nothing")  # fmt: skip
    args = parser.parse_args()
    if args.compare_only:
        sys.exit(compare(args.source, args.dir, args.compare))
    gentb = args.source / "gentb"
    if not gentb.exists():
        subprocess.run(["make", "CC=gcc -std=c99", "INTLLDLIBS=", "gentb"], cwd=args.source,
                       check=True, capture_output=True)  # fmt: skip
    revision = subprocess.run(["git", "-C", str(args.source), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True).stdout.strip()  # fmt: skip
    args.dir.mkdir(parents=True, exist_ok=True)
    print(f"clausecker/dobutsu {revision or '?'} gentb beside perfectplay solve dobutsu --save")
    for threads in args.threads:
        table = args.dir / "dobutsu.tb"
        table.unlink(missing_ok=True)
        c_seconds, c_peak = timed([str(gentb), "-j", str(threads), str(table)])
        size = table.stat().st_size
        base = args.dir / "perfectplay"
        shutil.rmtree(base, ignore_errors=True)
        env = {"PERFECTPLAY_THREADS": str(threads), "PATH": "/usr/bin:/bin"}
        p_seconds, p_peak = timed([str(CLI), "solve", "dobutsu", "--save", str(base)],
                                  env={**env, **_home()})  # fmt: skip
        print(f"{threads} thread(s): gentb {c_seconds:.1f} s, {c_peak / 2**20:,.0f} MB "
              f"({size:,} bytes of table); perfectplay {p_seconds:.1f} s, "
              f"{p_peak / 2**20:,.0f} MB; time {p_seconds / c_seconds:.2f}x, memory "
              f"{p_peak / c_peak:.2f}x", flush=True)  # fmt: skip
    if args.compare:
        sys.exit(compare(args.source, args.dir, args.compare))


def clausecker_position(text: str) -> str:
    """perfectplay's Dobutsu position (its ``show()``) in clausecker's notation: S or G to
    move, the four rows from the top (gote's row first, ``-`` empty, a hen ``R``), then the
    pieces in hand (sente's in capitals, gote's in small letters; ``-`` for none)."""
    lines = text.splitlines()
    rows = [line.split()[1:] for line in lines[1:-3]]
    cells = "/".join(
        "".join({"H": "R", "h": "r", ".": "-"}.get(token, token) for token in row) for row in rows
    )
    gote, sente = (line.split("holds ")[1] for line in lines[-3:-1])
    hand = ("" if sente == "-" else sente.upper()) + ("" if gote == "-" else gote.lower())
    mover = "G" if lines[-1].startswith("gote") else "S"
    return f"{mover}/{cells}/{hand or '-'}"


def compare(source: Path, directory: Path, count: int) -> int:
    """Both tables on ``count`` positions of random playouts (see the module docstring);
    0 when they agree on every one, else 1."""
    import random
    import re

    from perfectplay import open_tablebase
    from perfectplay.games import Dobutsu
    from perfectplay.values import Value

    program = source / "dobutsu"
    if not program.exists():
        subprocess.run(["make", "CC=gcc -std=c99", "INTLLDLIBS=", "dobutsu"], cwd=source,
                       check=True, capture_output=True)  # fmt: skip
    game = Dobutsu()
    rng = random.Random(29)
    states: dict[str, int] = {}
    while len(states) < count:
        state = game.initial()
        for _ in range(rng.randrange(1, 80)):
            if game.outcome(state) is not None:
                break
            state = game.play(state, rng.choice(game.moves(state)))
        if game.outcome(state) is None:
            states.setdefault(clausecker_position(game.show(state)), state)
    script = "".join(f"setup {text}\nshow eval\n" for text in states) + "quit\n"
    done = subprocess.run([str(program), "-q", "-t", str(directory / "dobutsu.tb")],
                          input=script, capture_output=True, text=True)  # fmt: skip
    answers = re.findall(r"^\d+\. show eval\n(.*)$", done.stdout, flags=re.MULTILINE)
    if len(answers) != len(states):
        print(f"dobutsu answered {len(answers)} of {len(states)} positions: "
              f"{done.stdout[-300:]!r} {done.stderr[-300:]!r}")  # fmt: skip
        return 1
    differ = 0
    kinds: dict[str, int] = {}
    draw_word: str | None = None  # clausecker's answer for a draw, taken from the first
    with open_tablebase(directory / "perfectplay", game) as base:
        for (text, state), answer in zip(states.items(), answers, strict=True):
            value, remoteness = base.value(state), base.remoteness(state)
            ours = {Value.WIN: f"#{remoteness}", Value.LOSS: f"#-{remoteness}"}.get(value)
            theirs = answer.strip()
            kinds[str(value)] = kinds.get(str(value), 0) + 1
            if ours is None:  # a draw: clausecker's word for it, the same every time
                draw_word = theirs if draw_word is None else draw_word
                ours = draw_word
            if theirs != ours:
                differ += 1
                if differ <= 20:
                    print(f"  {text}: clausecker {theirs}, perfectplay {value} in {remoteness}")
    print(f"{len(states):,} positions of random playouts ({kinds}; a draw is "
          f"{draw_word!r} there): {differ:,} differ")  # fmt: skip
    return 1 if differ else 0


def _home() -> dict[str, str]:
    """HOME for the child (numba's and perfectplay's caches live under it)."""
    import os

    return {"HOME": os.environ.get("HOME", "/root")}


if __name__ == "__main__":
    main()
