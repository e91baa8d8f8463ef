"""analyze, solve --json, table and games brought from a file, through the real CLI."""

from __future__ import annotations

import json
import subprocess
import textwrap
from pathlib import Path

import pytest
from cli_script import SCRIPT as CLI

from perfectplay import solve
from perfectplay.cli.present import value_json
from perfectplay.games import Subtraction, TicTacToe
from perfectplay.periods import find_period

USER_GAME = textwrap.dedent(
    """
    from perfectplay import LOSS

    class Staircase:
        '''Move the token down 1 or `step` stairs; whoever reaches the bottom wins.'''

        def __init__(self, height: int = 7, step: int = 2) -> None:
            self.height, self.step = height, step

        def initial(self) -> int:
            return self.height

        def moves(self, stair: int) -> list[int]:
            return [d for d in (1, self.step) if d <= stair]

        def play(self, stair: int, down: int) -> int:
            return stair - down

        def outcome(self, stair: int):
            return LOSS if stair == 0 else None
    """
)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [CLI, *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={"COLUMNS": "200", "PATH": ""},
    )


def test_solve_json_matches_the_library() -> None:
    result = run("solve", "tictactoe", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    solution = solve(TicTacToe())
    assert data["value"] == "tie"
    assert data["remoteness"] == solution.remoteness()
    assert data["stats"]["states"] == solution.stats.states
    assert data["best_moves"] == [str(m + 1) for m in solution.best_moves()]
    assert len(data["principal_variation"]) == 9


def test_analyze_json_lists_every_move_best_first() -> None:
    result = run("analyze", "tictactoe", "--moves", "1,2,5", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["moves_played"] == ["1", "2", "5"]
    state = 0
    game = TicTacToe()
    for move in (0, 1, 4):
        state = game.play(state, move)
    expected = solve(game).move_values(state)
    assert [m["move"] for m in data["moves"]] == [str(mv.move + 1) for mv in expected]
    assert [m["value"] for m in data["moves"]] == [value_json(mv.value) for mv in expected]
    assert [m["remoteness"] for m in data["moves"]] == [mv.remoteness for mv in expected]
    # O to move has lost (X gets a double threat), but blocking 1-5-9 loses slowest.
    assert data["value"] == "loss" and data["remoteness"] == 4
    assert data["best_moves"] == ["9"]
    assert set(data) >= {"position", "value", "remoteness", "best_moves", "moves", "stats"}


def test_analyze_text_shows_the_board_and_the_move_table() -> None:
    result = run("analyze", "nim", "-p", "piles=1,2")
    assert result.returncode == 0, result.stderr
    assert "pile 2: ||" in result.stdout
    assert "grundy value" in result.stdout
    assert "2:1" in result.stdout


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["analyze", "tictactoe", "--moves", "5,5"], "not a legal move"),
        (["analyze", "tictactoe", "--moves", "5,x"], "cannot read move"),
        (["analyze", "invisible", "--position", "x"], "parse_state"),
        (["analyze", "tictactoe", "--position", "XXX/..."], "9 cells"),
        (["analyze", "tictactoe", "--moves", "1", "--position", "x"], "not both"),
        (["table", "subtraction", "--range", "stones=5..1"], "larger"),
        (["table", "subtraction", "--range", "stones=a..b"], "NAME=A..B"),
        (["table", "subtraction", "--range", "bogus=1..3"], "unknown parameter"),
        (["solve", "no_such_file.py:Game"], "no such file"),
        (["solve", "json:Nothing"], "defines no"),
        (["solve", "no_such_module_xyz:Game"], "cannot import"),
    ],
)
def test_bad_input_is_one_line(args: list[str], words: str) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], result.stderr


def test_table_finds_the_period_of_a_subtraction_game() -> None:
    result = run("table", "subtraction", "--range", "stones=0..60", "-p", "take=1,3,4", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    values = [cell["value"] for cell in data["cells"]]
    expected = [solve(Subtraction(n, (1, 3, 4))).grundy() for n in range(61)]
    assert values == expected
    assert data["period"]["period"] == 7 and data["period"]["preperiod"] == 0
    text = run("table", "subtraction", "--range", "stones=0..60", "-p", "take=1,3,4")
    assert "period 7" in text.stdout and "checked to 60, not proven" in text.stdout


def test_table_two_parameters() -> None:
    result = run("table", "nim", "--range", "piles=1..1", "--range", "misere=0..1", "--json")
    assert result.returncode == 0, result.stderr
    cells = json.loads(result.stdout)["cells"]
    assert {(c["misere"], c["value"]) for c in cells} == {(0, 1), (1, "loss")}


def test_find_period() -> None:
    assert find_period([5, 0, 1, 0, 1, 0, 1]) == (1, 2)
    assert find_period([1, 2, 3]) is None
    assert find_period([0] * 4) == (0, 1)


def test_a_game_from_a_file_with_typed_parameters(tmp_path: Path) -> None:
    path = tmp_path / "staircase.py"
    path.write_text(USER_GAME)
    spec = f"{path}:Staircase"
    for height, step in ((7, 2), (9, 3), (12, 2)):
        result = run("solve", spec, "-p", f"height={height}", "-p", f"step={step}", "--json")
        assert result.returncode == 0, result.stderr
        data = json.loads(result.stdout)
        # An independent DP over the stairs.
        wins = [False] * (height + 1)
        for n in range(1, height + 1):
            wins[n] = any(d <= n and not wins[n - d] for d in (1, step))
        assert data["value"] == ("win" if wins[height] else "loss")
    bad = run("solve", spec, "-p", "height=tall")
    assert bad.returncode == 2 and "whole number" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1


def test_a_file_that_is_not_a_game(tmp_path: Path) -> None:
    path = tmp_path / "broken.py"
    path.write_text("class NotAGame:\n    def initial(self):\n        return 0\n")
    result = run("solve", f"{path}:NotAGame")
    assert result.returncode == 2
    assert "lacks moves(), play(), outcome()" in result.stderr
    path.write_text("def oops(:\n")
    result = run("solve", f"{path}:NotAGame")
    assert result.returncode == 2 and "syntax error" in result.stderr


@pytest.mark.parametrize(
    ("game", "params", "position", "moves"),
    [
        ("tictactoe", [], "XX./OO./...", ["1", "4", "2", "5"]),
        ("connect-four", [], "..../..../.O../XX.O", ["1", "4", "2", "2"]),
        ("nim", ["-p", "piles=1,2,3"], "1,2,1", ["3:2"]),
        ("subtraction", ["-p", "stones=9"], "5", ["3", "1"]),
    ],
)
def test_position_text_means_the_same_as_the_moves_to_it(
    game: str, params: list[str], position: str, moves: list[str]
) -> None:
    by_position = json.loads(run("analyze", game, *params, "--position", position, "--json").stdout)
    by_moves = run("analyze", game, *params, "--moves", ",".join(moves), "--json")
    assert by_moves.returncode == 0, by_moves.stderr
    expected = json.loads(by_moves.stdout)
    for field in ("position", "value", "remoteness", "moves", "best_moves"):
        assert by_position[field] == expected[field], field


def test_a_position_beyond_the_start_is_solved_from_itself() -> None:
    result = run("analyze", "subtraction", "-p", "stones=3", "--position", "100",
                 "--from-position", "--json")  # fmt: skip
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["value"] == ("win" if 100 % 4 else "loss")  # take 1-3: multiples of 4 lose
