"""The installed console script, run as a user runs it: output, exit status, error lines."""

from __future__ import annotations

import os
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor

import pytest
from cli_script import run_cli

from perfectplay.games import BUILTINS

_RESULTS: dict[tuple[str, ...], subprocess.CompletedProcess[str]] = {}


def _execute(args: tuple[str, ...]) -> subprocess.CompletedProcess[str]:
    return run_cli(*args)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """Run the script once per distinct command line (the prefetch fixture may have already)."""
    if args not in _RESULTS:
        _RESULTS[args] = _execute(args)
    return _RESULTS[args]


def rows_of(stdout: str) -> dict[str, str]:
    """The key/value table `perfectplay solve` prints, as a dict."""
    rows: dict[str, str] = {}
    for line in stdout.splitlines():
        if not line.strip():
            continue
        key, _, value = line.strip().partition("  ")
        rows[key.strip()] = value.strip()
    return rows


def ok(*args: str) -> dict[str, str]:
    result = run(*args)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert "Traceback" not in result.stdout
    return rows_of(result.stdout)


# --------------------------------------------------------------------------- list


def list_table() -> dict[str, list[str]]:
    """Game name -> its parameter lines, from the table `perfectplay list` draws."""
    result = run("list")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    games: dict[str, list[str]] = {}
    current = None
    for line in result.stdout.splitlines():
        if not line.startswith("│"):
            continue
        cells = [cell.strip() for cell in line.strip("│").split("│")]
        assert len(cells) == 3, line
        if cells[0] and not cells[0].startswith("(or"):  # (a game's aliases, under its name)
            current = cells[0]
            games[current] = []
        assert current is not None
        if cells[2]:
            games[current].append(cells[2])
    return games


def test_list_names_every_builtin_game() -> None:
    games = list_table()
    assert {"tictactoe", "nim", "subtraction"} <= set(games)
    assert set(games) == set(BUILTINS)


def test_list_shows_parameters() -> None:
    games = list_table()
    assert games["tictactoe"] == ["symmetry: bool = false"]
    nim = games["nim"]
    assert len(nim) == 2
    assert nim[0].startswith("piles: list of int")
    assert nim[0].endswith("= 3,4,5")
    assert nim[1] == "misere: bool = false"
    subtraction = games["subtraction"]
    assert len(subtraction) == 2
    assert subtraction[0].startswith("stones: int")
    assert subtraction[1].startswith("take: list of int")


def test_help() -> None:
    result = run("solve", "-h")
    assert result.returncode == 0
    for option in ("--param", "--method", "--max-states", "--quiet"):
        assert option in result.stdout


# --------------------------------------------------------------------------- solve


def test_solve_tictactoe() -> None:
    rows = ok("solve", "tictactoe")
    assert rows["game"] == "tictactoe"
    assert rows["value"] == "tie"
    assert rows["remoteness"] == "9"
    assert rows["states"] == "5,478"
    assert rows["method"] == "retrograde"
    assert sorted(rows["best moves"].split()) == [str(c) for c in range(1, 10)]
    # Perfect play is nine distinct cells.
    assert sorted(rows["perfect play"].split()) == [str(c) for c in range(1, 10)]


def test_solve_tictactoe_with_symmetry() -> None:
    rows = ok("solve", "tictactoe", "--param", "symmetry=true", "--max-states", "765")
    assert rows["value"] == "tie"
    assert rows["remoteness"] == "9"
    assert rows["states"] == "765"


def test_solve_nim_loss() -> None:
    rows = ok("solve", "nim", "--param", "piles=1,2,3", "--quiet")  # 1 ^ 2 ^ 3 == 0
    assert rows["value"] == "loss"
    assert rows["method"] == "grundy"
    assert rows["grundy value"] == "0"


def test_solve_nim_win_and_misere() -> None:
    rows = ok("solve", "nim", "-p", "piles=3,4,5")  # 3 ^ 4 ^ 5 == 2
    assert rows["value"] == "win"
    assert rows["grundy value"] == "2"
    # Misère, all piles of one stone, an odd number of them: the mover loses.
    rows = ok("solve", "nim", "-p", "piles=1,1,1", "-p", "misere=true")
    assert rows["value"] == "loss"
    assert "grundy value" not in rows


def subtraction_wins(stones: int, take: tuple[int, ...]) -> list[bool]:
    wins: list[bool] = []
    for n in range(stones + 1):
        wins.append(any(t <= n and not wins[n - t] for t in take))
    return wins


def test_solve_subtraction_alphabeta() -> None:
    wins = subtraction_wins(10, (1, 3, 4))
    rows = ok(
        "solve", "subtraction", "-p", "stones=10", "-p", "take=1,3,4", "--method", "alphabeta"
    )
    assert rows["method"] == "alphabeta"
    assert rows["value"] == ("win" if wins[10] else "loss")
    assert rows["value"] == "win"
    # The move search reports must itself win: it leaves the opponent a losing pile.
    assert not wins[10 - int(rows["best move"])]
    assert int(rows["nodes searched"].replace(",", "")) > 0


def test_solve_subtraction_full() -> None:
    wins = subtraction_wins(10, (1, 3, 4))
    rows = ok("solve", "subtraction", "-p", "stones=10", "-p", "take=1,3,4")
    assert rows["value"] == "win"
    assert rows["states"] == "11"
    for move in rows["best moves"].split():
        assert not wins[10 - int(move)]


@pytest.mark.parametrize("method", ["retrograde", "grundy"])
def test_solve_with_method(method: str) -> None:
    rows = ok("solve", "subtraction", "-p", "stones=20", "--method", method)
    assert rows["method"] == method
    assert rows["value"] == "loss"  # 20 is a multiple of 4 with takes 1-3


# --------------------------------------------------------------------------- bad input

BAD_INPUTS = {
    "unknown game": (["solve", "chess"], ["unknown game", "'chess'", "tictactoe"]),
    "unknown parameter": (["solve", "nim", "-p", "pile=3"], ["unknown parameter", "'pile'"]),
    "bad int": (["solve", "subtraction", "-p", "stones=ten"], ["stones", "'ten'", "int"]),
    "bad list": (["solve", "nim", "--param", "piles=1,x,3"], ["piles", "'x'", "list of int"]),
    "bad bool": (["solve", "nim", "-p", "misere=maybe"], ["misere", "'maybe'", "bool"]),
    "missing =": (["solve", "nim", "-p", "piles"], ["NAME=VALUE", "'piles'"]),
    "unknown option": (["solve", "nim", "--bogus"], ["--bogus"]),
    "unknown method": (["solve", "nim", "--method", "magic"], ["unknown method", "'magic'"]),
    "max-states too small": (
        ["solve", "tictactoe", "--max-states", "100"],
        ["max_states=100", "tictactoe"],
    ),
    "max-nodes too small": (
        ["solve", "tictactoe", "--method", "alphabeta", "--max-states", "10"],
        ["max_nodes=10"],
    ),
    "game rejects value": (["solve", "subtraction", "-p", "take=0,2"], ["subtraction", "take"]),
    "unknown command": (["frobnicate"], ["'frobnicate'"]),
}


@pytest.mark.parametrize(("args", "words"), BAD_INPUTS.values(), ids=BAD_INPUTS.keys())
def test_bad_input(args: list[str], words: list[str]) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert result.stderr.endswith("\n")
    assert re.match(r"perfectplay: error: \S", lines[0])
    for word in words:
        assert word in lines[0]


# Every command line above, started side by side before the tests read their results.
ALL_COMMANDS = [
    ("list",),
    ("solve", "-h"),
    ("solve", "tictactoe"),
    ("solve", "tictactoe", "--param", "symmetry=true", "--max-states", "765"),
    ("solve", "nim", "--param", "piles=1,2,3", "--quiet"),
    ("solve", "nim", "-p", "piles=3,4,5"),
    ("solve", "nim", "-p", "piles=1,1,1", "-p", "misere=true"),
    ("solve", "subtraction", "-p", "stones=10", "-p", "take=1,3,4", "--method", "alphabeta"),
    ("solve", "subtraction", "-p", "stones=10", "-p", "take=1,3,4"),
    ("solve", "subtraction", "-p", "stones=20", "--method", "retrograde"),
    ("solve", "subtraction", "-p", "stones=20", "--method", "grundy"),
    *(tuple(args) for args, _ in BAD_INPUTS.values()),
]


@pytest.fixture(scope="module", autouse=True)
def prefetch() -> None:
    todo = [args for args in ALL_COMMANDS if args not in _RESULTS]
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        for args, result in zip(todo, pool.map(_execute, todo), strict=True):
            _RESULTS[args] = result
