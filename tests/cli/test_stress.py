"""`perfectplay stress` through the installed console script, against small solvers of our own."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from cli_script import run_cli

# Plain DP over pile sizes: a pile is winning when some move leads to a losing pile.
EDPC_K_RIGHT = """
import sys
n, k, *a = map(int, sys.stdin.read().split())
win = [False] * (k + 1)
for pile in range(1, k + 1):
    win[pile] = any(x <= pile and not win[pile - x] for x in a)
print("First" if win[k] else "Second")
"""

# A plausible but wrong guess: "the first player wins unless a1 + 1 divides K".
EDPC_K_WRONG = """
import sys
n, k, *a = map(int, sys.stdin.read().split())
print("First" if k % (a[0] + 1) != 0 else "Second")
"""

# Plain minimax on the board, memoised: the mover's best (own sum - other's sum), or a line.
ABC349E_RIGHT = """
import sys
from functools import lru_cache
w = list(map(int, sys.stdin.read().split()))
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
INF = float("inf")

@lru_cache(maxsize=None)
def best(board, mover):
    # board: a tuple of 0 (empty), 1 (Takahashi), 2 (Aoki); returns the mover's best margin.
    other = 3 - mover
    if any(all(board[i] == other for i in line) for line in LINES):
        return -INF
    if 0 not in board:
        return sum(w[i] if c == mover else -w[i] for i, c in enumerate(board))
    result = -INF
    for i, c in enumerate(board):
        if c == 0:
            child = board[:i] + (mover,) + board[i + 1:]
            result = max(result, -best(child, other))
    return result

print("Takahashi" if best((0,) * 9, 1) > 0 else "Aoki")
"""

ALWAYS_TAKAHASHI = "print('Takahashi')\n"
CRASHES = "import sys\nprint('First')\nsys.exit('boom')\n"


def run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, timeout=timeout)


def program(tmp_path: Path, name: str, source: str) -> str:
    """A --program command that runs ``source`` with this Python."""
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    return shlex.join([sys.executable, str(path)])


def stress(problem: str, command: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return run("stress", problem, "--program", command, *extra)


def failing_seed(result: subprocess.CompletedProcess[str]) -> int:
    match = re.search(r"^seed (-?\d+)$", result.stdout, re.MULTILINE)
    assert match, result.stdout
    return int(match.group(1))


@pytest.mark.parametrize(
    ("problem", "source"), [("edpc_k", EDPC_K_RIGHT), ("abc349e", ABC349E_RIGHT)]
)
def test_a_correct_program_passes(tmp_path: Path, problem: str, source: str) -> None:
    result = stress(problem, program(tmp_path, "right", source), "--cases", "50", "--seed", "1")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "all 50 cases agree" in result.stdout
    assert result.stdout.count("\n") == 1  # one summary line; the seed note went to stderr
    assert "--seed 1" in result.stderr


@pytest.mark.parametrize(
    ("problem", "source", "expected_answers"),
    [
        ("edpc_k", EDPC_K_WRONG, ("First", "Second")),
        ("abc349e", ALWAYS_TAKAHASHI, ("Aoki",)),
    ],
)
def test_a_wrong_program_is_caught_and_replayed(
    tmp_path: Path, problem: str, source: str, expected_answers: tuple[str, ...]
) -> None:
    command = program(tmp_path, "wrong", source)
    result = stress(problem, command, "--cases", "200")
    assert result.returncode == 1, result.stdout + result.stderr
    out = result.stdout
    assert "wrong answer" in out
    seed = failing_seed(result)
    sections = re.split(r"^--- (.*) ---$", out, flags=re.MULTILINE)
    shown = dict(zip(sections[1::2], sections[2::2], strict=True))
    assert set(shown) >= {"input", "expected output", "your program's output"}
    assert shown["input"].strip()
    expected = shown["expected output"].strip()
    assert expected in expected_answers
    assert shown["your program's output"].strip() not in ("", expected)

    replay = stress(problem, command, "--seed", str(seed), "--cases", "1")
    assert replay.returncode == 1
    assert "case 1 of 1 failed" in replay.stdout
    assert replay.stdout.split("--- input ---")[1] == out.split("--- input ---")[1]


def test_exit_status_and_stderr_of_the_program_are_reported(tmp_path: Path) -> None:
    result = stress("edpc_k", program(tmp_path, "crash", CRASHES), "--cases", "5")
    assert result.returncode == 1
    assert "exit code: 1" in result.stdout
    assert "boom" in result.stdout


def test_a_slow_program_times_out(tmp_path: Path) -> None:
    slow = program(tmp_path, "slow", "import time\ntime.sleep(30)\n")
    result = stress("edpc_k", slow, "--cases", "3", "--timeout", "0.5")
    assert result.returncode == 1
    assert "timed out after 0.5 s" in result.stdout


def test_a_missing_program_is_one_error_line(tmp_path: Path) -> None:
    result = stress("edpc_k", str(tmp_path / "no-such-solver"), "--cases", "3")
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("perfectplay: error: cannot run")


def test_an_unknown_problem_is_refused() -> None:
    result = stress("no-such-problem", "true")
    assert result.returncode == 2
    assert "unknown problem" in result.stderr
    assert "Traceback" not in result.stderr
