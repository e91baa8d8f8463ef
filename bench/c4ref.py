"""Connect Four strong solves by a small C reference solver (bench/c4ref/c4ref.c), for scale.

Run: python bench/c4ref.py [WxH ...]   (default: 5x4 6x4; stdlib only)
Compiles the solver with gcc -O3 -march=native into a temporary directory, then solves each
board from the empty position over every reachable position, without symmetry, one process
per board. Peak memory is the solver's VmHWM (Linux), else its getrusage maxrss, which
survives exec and so carries a floor of this Python process's size (~15 MB) on tiny boards.
MB are 10^6 bytes. Boards with a published count are checked against it.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SOURCE = Path(__file__).resolve().parent / "c4ref" / "c4ref.c"
EXPECTED = {  # (positions, start value, remoteness)
    (4, 4): (161_029, "TIE", 16),
    (5, 4): (3_945_711, "TIE", 20),
    (6, 4): (94_910_577, "LOSS", 24),
    # John Tromp's table (tromp.github.io/c4/c4.html): positions reachable from the empty
    # board, both boards drawn; the game ends on move 30 (Steininger's table, c4 README).
    (6, 5): (2_818_972_642, "TIE", 30),
    (5, 6): (1_044_334_437, "TIE", 30),
}


def board(text: str) -> tuple[int, int]:
    """'6x4' -> (6, 4): width by height."""
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WxH, got {text!r}") from None
    if width < 1 or height < 1 or width * (height + 1) > 62 or width * height > 32:
        raise argparse.ArgumentTypeError(f"{text}: need W*(H+1) <= 62 and W*H <= 32")
    return width, height


def compile_solver(compiler: str, directory: Path) -> Path:
    """The solver built into directory."""
    binary = directory / "c4ref"
    command = [compiler, "-O3", "-march=native", "-o", str(binary), str(SOURCE)]
    subprocess.run(command, check=True)
    return binary


def solve(binary: Path, width: int, height: int) -> dict[str, str]:
    """The solver's key=value summary for one board."""
    done = subprocess.run(
        [str(binary), str(width), str(height)], check=True, capture_output=True, text=True
    )
    return dict(field.split("=", 1) for field in done.stdout.split())


def line(width: int, height: int, result: dict[str, str]) -> str:
    """One printed line for one board."""
    positions = int(result["positions"])
    peak = (int(result.get("hwm_kb", "0")) or int(result["maxrss_kb"])) * 1024
    expected = EXPECTED.get((width, height))
    got = (positions, result["start"], int(result["remoteness"]))
    check = "" if expected is None else ("  ok" if got == expected else f"  MISMATCH {expected}")
    return (
        f"{width}x{height}: {positions:>13,} positions  win {int(result['win']):,}"
        f"  loss {int(result['loss']):,}  tie {int(result['tie']):,}"
        f"  start {result['start']} in {result['remoteness']}"
        f"  {float(result['seconds']):.2f} s  {peak / 1e6:,.0f} MB"
        f"  {peak / positions:.2f} B/position{check}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("boards", nargs="*", type=board, help="boards as WxH (default 5x4 6x4)")
    parser.add_argument("--json", action="store_true", help="one JSON object per board")
    args = parser.parse_args()
    compiler = shutil.which("gcc")
    if compiler is None:
        print("skipped: no C compiler")
        return
    with tempfile.TemporaryDirectory() as scratch:
        binary = compile_solver(compiler, Path(scratch))
        for width, height in args.boards or [(5, 4), (6, 4)]:
            result = solve(binary, width, height)
            if args.json:
                peak = (int(result.get("hwm_kb", "0")) or int(result["maxrss_kb"])) * 1024
                figures = {"seconds": float(result["seconds"]), "peak_mb": peak / 2**20}
                print(json.dumps({**result, **figures}), flush=True)
            else:
                print(line(width, height, result), flush=True)


if __name__ == "__main__":
    sys.exit(main())
