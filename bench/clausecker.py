"""Dobutsu shogi beside Robert Clausecker's C solver (github.com/clausecker/dobutsu, gentb).

Run: .venv/bin/python bench/clausecker.py SOURCE [--threads 1 2] [--dir D]
SOURCE is a checkout of clausecker/dobutsu; its ``gentb`` is built there first if it is
not (``make CC="gcc -std=c99" INTLLDLIBS= gentb``: liblzma is needed). For each thread
count, one after the other, each in a fresh process timed by GNU time (wall seconds and
peak resident memory): gentb writing the whole table with ``-j N``, then perfectplay's
``solve dobutsu --save`` with PERFECTPLAY_THREADS=N. Ratios are perfectplay / gentb.
Target (issue 29): perfectplay at most gentb's wall time with at most 4 times its memory.
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
    args = parser.parse_args()
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


def _home() -> dict[str, str]:
    """HOME for the child (numba's and perfectplay's caches live under it)."""
    import os

    return {"HOME": os.environ.get("HOME", "/root")}


if __name__ == "__main__":
    main()
