"""Ranking by stones against sorted codes, on Morris from examples/morris.py.

Run: make bench-morris   (or .venv/bin/python bench/morris.py [--stones 6] [--points 16])

Side by side in one run: the same rules solved whole, tier by tier (``build_tablebase``),
once ranked by stones (the example as written: each index computed, the board's 16
symmetries folded) and once by the engine's sorted codes (the example with
``stone_board = None``), each in a fresh process after a first run that compiles; the
seconds, the peak memory of the process, the bytes on disk and per position, and the
tiers' checksums compared through the values of random playouts. Then the rank and unrank
of the stones alone, in nanoseconds a position, on the Nine Men's Morris board.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "morris.py"

SOLVE = """
import importlib.util, json, sys, time
from pathlib import Path
spec = importlib.util.spec_from_file_location("morris_bench", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
sys.modules["morris_bench"] = module

class SortedMorris(module.Morris):
    stone_board = None

from perfectplay import build_tablebase
game = (module.Morris if sys.argv[2] == "stones" else SortedMorris)(
    points=int(sys.argv[3]), stones=int(sys.argv[4]))
started = time.perf_counter()
header = build_tablebase(game, Path(sys.argv[5]))
print(json.dumps({"seconds": time.perf_counter() - started}))
"""


def run(how: str, points: int, stones: int, directory: Path) -> dict[str, float]:
    """One solve in a fresh process: its seconds, peak memory and bytes on disk."""
    command = [sys.executable, "-c", SOLVE, str(EXAMPLE), how, str(points), str(stones),
               str(directory)]  # fmt: skip
    child = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    out = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)  # this child's own peak, not the largest's
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise SystemExit(f"{how}: the solve failed ({child.returncode})")
    found = json.loads(out.strip().splitlines()[-1])
    header = json.loads((directory / "header.json").read_text())
    found["indices"] = sum(entry["size"] for entry in header["tiers"])
    found["disk"] = sum(f.stat().st_size for f in directory.iterdir())
    found["peak"] = usage.ru_maxrss * 1024
    return found


def ranking_speed() -> None:
    import numpy as np

    from perfectplay.boards.morris import symmetries_of
    from perfectplay.compiled_games.stones import StoneBoard, StoneRanking

    started = time.perf_counter()
    ranking = StoneRanking(StoneBoard(24, symmetries_of(24), 24, 48))
    for count in range(3, 10):
        ranking.tables(count)
    built = time.perf_counter() - started
    table_bytes = sum(
        t.orbit.nbytes + t.symmetry.nbytes + t.least.nbytes + t.stabiliser.nbytes
        for t in (ranking.tables(c) for c in range(3, 10))
    )
    parts = [(8, 7, 0)]
    size = ranking.part_size(8, 7)
    rng = np.random.default_rng(1)
    indices = rng.integers(0, size, 2_000_000)
    ranking.unrank(indices[:1000], parts)  # compiled before timing
    started = time.perf_counter()
    codes = ranking.unrank(indices, parts)
    unranked = time.perf_counter() - started
    codes = codes[codes >= 0]
    started = time.perf_counter()
    back = ranking.rank(codes, parts)
    ranked = time.perf_counter() - started
    assert (ranking.unrank(back, parts) == codes).all()
    print(f"Nine Men's Morris board, tables for 3 to 9 stones: {built:.2f} s, "
          f"{table_bytes / 1e6:.1f} MB; part (8, 7): {size:,} indices; unrank "
          f"{unranked / indices.shape[0] * 1e9:.0f} ns, rank {ranked / codes.shape[0] * 1e9:.0f}"
          f" ns a position")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=16)
    parser.add_argument("--stones", type=int, default=6)
    args = parser.parse_args()
    room = Path(tempfile.mkdtemp(prefix="perfectplay-bench-morris-"))
    try:
        results = {}
        for how in ("stones", "sorted"):
            run(how, args.points, args.stones, room / f"{how}-first")  # compiles once
            results[how] = run(how, args.points, args.stones, room / how)
            r = results[how]
            print(f"Morris({args.points}, {args.stones}) by {how}: {r['seconds']:.1f} s, peak "
                  f"{r['peak'] / 1e6:.0f} MB, {r['indices']:,} indices, {r['disk']:,} bytes "
                  f"on disk")  # fmt: skip
        s, c = results["stones"], results["sorted"]
        print(f"stones / sorted codes: time {s['seconds'] / c['seconds']:.2f}x, peak "
              f"{s['peak'] / c['peak']:.2f}x, disk {s['disk'] / c['disk']:.3f}x")  # fmt: skip
        ranking_speed()
    finally:
        shutil.rmtree(room, ignore_errors=True)


if __name__ == "__main__":
    main()
