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
``#n`` a win and ``#-n`` a loss for the side to move, ``0`` a draw) against perfectplay's
value and remoteness. The two count the end differently: perfectplay ends a game as soon
as the player to move can take the other lion (a win in 0 plies), clausecker counts that
capture as a ply; so a distance there is perfectplay's remoteness or one more, and the
same value. Anything else is a difference: printed, and the bench exits 1.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

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
        env = {**os.environ, "PERFECTPLAY_THREADS": str(threads)}
        p_seconds, p_peak = timed([str(CLI), "solve", "dobutsu", "--save", str(base)], env)
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
        state = game.initial()  # a playout that stops before the game ends (random play
        for _ in range(rng.randrange(1, 120)):  # soon leaves a lion to be taken)
            child = game.play(state, rng.choice(game.moves(state)))
            if game.outcome(child) is not None:
                break
            state = child
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
    one_more = checked = other_end = 0
    with open_tablebase(directory / "perfectplay", game) as base:
        for (text, state), answer in zip(states.items(), answers, strict=True):
            value, remoteness = base.value(state), base.remoteness(state)
            kinds[str(value)] = kinds.get(str(value), 0) + 1
            found = re.fullmatch(r"#(-?\d+)|(0)", answer.strip())
            theirs = None if found is None else int(found.group(1) or 0)
            sign = {Value.WIN: 1, Value.LOSS: -1}.get(value, 0)
            agree = theirs is not None and (
                theirs == 0 if sign == 0 else theirs * sign in (remoteness, remoteness + 1)
            )
            if agree and sign and theirs is not None and theirs * sign == remoteness + 1:
                one_more += 1
            if agree and sign and checked < CHECK_ENDS and theirs is not None:
                # Does perfect play end in a lion's capture exactly where clausecker counts
                # one ply more? (Lines as fast may end either way: those are told apart.)
                captured = _ends_in_capture(game, base, state)
                checked += 1
                if captured != (theirs * sign == remoteness + 1):
                    other_end += 1
            if not agree:
                differ += 1
                if differ <= 20:
                    print(f"  {text}: clausecker {answer.strip()}, perfectplay {value} in "
                          f"{remoteness}")  # fmt: skip
    print(f"{len(states):,} positions of random playouts ({kinds}): the same value on all "
          f"but {differ:,}; the same distance on {len(states) - differ - one_more:,}, one ply "
          f"more there (a lion's capture counted) on {one_more:,}")  # fmt: skip
    print(f"perfect play from the first {checked:,} decided ones ends in a lion's capture "
          f"exactly where clausecker counts one ply more, on all but {other_end:,}")  # fmt: skip
    return 1 if differ else 0


CHECK_ENDS = 2_000
"""Positions whose line of perfect play is followed to its end, to see how it ends."""


def _ends_in_capture(game: Any, base: Any, state: int) -> bool:
    """Whether perfect play from ``state`` (the tablebase's first best move each ply) ends
    with a lion that the player to move can take (else by a lion's safe arrival)."""
    from perfectplay.values import Value

    while game.outcome(state) is None:
        state = game.play(state, base.best_moves(state)[0])
    return bool(game.outcome(state) == Value.WIN)


if __name__ == "__main__":
    main()
