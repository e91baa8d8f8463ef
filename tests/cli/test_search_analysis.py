"""Issue 48 item 5: a long search shows its progress (nodes, rate, the bounds proven so
far, the table's fill), Ctrl-C stops it in one line with the bounds proven, and --memory
sizes its table."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest
from cli_script import SCRIPT, run_cli

from perfectplay.cli.loader import build_game
from perfectplay.errors import SolverChoiceError
from perfectplay.rules import Rules
from perfectplay.solvers.compiled_search import (
    CompiledSearch,
    compiled_rules_of,
    entry_bytes,
    log_size_within,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
OTHELLO = f"{EXAMPLES / 'othello.py'}:Othello"
LINE = re.compile(r", searching (\w+): (.*?) after \d+ windows; ([\d,]+) nodes")


def _bounds(text: str) -> tuple[float, float]:
    """A progress line's bounds in numbers."""
    if text == "no bound yet":
        return -float("inf"), float("inf")
    if text.startswith("exactly "):
        value = int(text.split()[1])
        return value, value
    if text.startswith("at least "):
        return int(text.split()[2]), float("inf")
    if text.startswith("at most "):
        return -float("inf"), int(text.split()[2])
    low, high = re.fullmatch(r"between ([-+]\d+) and ([-+]\d+)", text).groups()  # type: ignore[union-attr]
    return int(low), int(high)


def test_the_bounds_a_search_shows_as_it_goes_hold_for_the_scores_it_ends_with() -> None:
    """5x5 Othello, every move searched, a progress line every tick: each bound a line
    shows for a move holds for the move's exact score in the final report, and the nodes
    shown never fall."""
    done = subprocess.run(
        [SCRIPT, "analyze", OTHELLO, "-p", "size=5", "--method", "search", "--json"],
        capture_output=True, text=True, timeout=600, check=False,
        env={**os.environ, "PERFECTPLAY_PROGRESS_EVERY": "0"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    scores = {entry["move"]: entry["score"] for entry in json.loads(done.stdout)["moves"]}
    seen = [LINE.search(line) for line in done.stderr.splitlines()]
    shown = [found.groups() for found in seen if found is not None]
    assert len(shown) >= 3, done.stderr  # (seconds of search, a line every 0.2 s)
    bounded = 0
    for move, text, _ in shown:
        low, high = _bounds(text)
        assert low <= scores[move] <= high, (move, text, scores)
        bounded += (low, high) != (-float("inf"), float("inf"))
    assert bounded > 0, done.stderr
    nodes = [int(count.replace(",", "")) for _, _, count in shown]
    assert nodes == sorted(nodes) and nodes[-1] > 0
    assert all("% full" in line for line in done.stderr.splitlines() if LINE.search(line))


def test_ctrl_c_stops_a_search_at_once_in_one_line_with_how_far_it_went() -> None:
    """6x6 Othello (hours of search): Ctrl-C once nodes are counted ends the command at
    once with exit 130 and one line naming the nodes searched, no traceback."""
    child = subprocess.Popen(
        [SCRIPT, "analyze", OTHELLO, "-p", "size=6", "--method", "search"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PERFECTPLAY_PROGRESS_EVERY": "0"},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    assert child.stderr is not None
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        line = child.stderr.readline()
        found = LINE.search(line)
        if found and int(found.group(3).replace(",", "")) > 0:
            break
    else:
        child.kill()
        pytest.fail("no progress line with nodes in 300 s")
    child.send_signal(signal.SIGINT)
    asked = time.monotonic()
    out, err = child.communicate(timeout=60)
    assert time.monotonic() - asked < 10
    assert child.returncode == 130, err
    last = err.strip().splitlines()[-1]
    assert "Traceback" not in err
    assert re.fullmatch(
        r"perfectplay: error: interrupted while searching Othello \(([\d,]+) nodes\): .*", last
    ), last
    assert int(re.search(r"\(([\d,]+) nodes", last).group(1).replace(",", "")) > 0  # type: ignore[union-attr]
    assert out == ""


def test_a_memory_bound_sizes_the_table_to_the_largest_that_fits() -> None:
    """The table ``log_size_within`` gives fits in the bytes, and twice as many entries
    would not; the table made with it really takes those bytes."""
    compiled = compiled_rules_of(Rules(build_game(OTHELLO, ["size=5"])))
    for budget in (1 << 20, 5 << 20, 300 << 20, 3 << 30):
        log_size = log_size_within(compiled, budget)
        per_entry = entry_bytes(compiled, log_size)
        assert (1 << log_size) * per_entry <= budget
        assert (2 << log_size) * entry_bytes(compiled, log_size + 1) > budget
    search = CompiledSearch(compiled, log_size_within(compiled, 5 << 20))
    used = search.keys.nbytes + search.vals.nbytes + search.hints.nbytes + search.works.nbytes
    assert used <= 5 << 20
    assert used > 5 << 19
    with pytest.raises(SolverChoiceError, match="give more --memory"):
        log_size_within(compiled, 1000)


def test_too_little_memory_for_a_search_is_one_line() -> None:
    done = run_cli("analyze", OTHELLO, "-p", "size=4", "--method", "search", "--memory", "300M")
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "give more --memory" in done.stderr, done.stderr


def test_a_memory_bound_gives_the_same_answer() -> None:
    """The start of 4x4 Othello with a small table (--memory) and the default one."""
    reports = []
    for bound in ((), ("--memory", "302M")):
        done = run_cli("analyze", OTHELLO, "-p", "size=4", "--method", "search", "--json", *bound)
        assert done.returncode == 0, done.stderr
        reports.append(json.loads(done.stdout))
    assert reports[0]["moves"] == reports[1]["moves"]
