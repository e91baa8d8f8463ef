"""The README's promise, swept over every command: bad input (unknown names, bad numbers,
missing and damaged files, hooks that raise) is one line on stderr and exit status 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_script import one_line_error, run_cli

GAME_COMMANDS = ["analyze", "check", "explore", "play", "solve"]

HOOKS_THAT_RAISE = """
class Broken:
    def __init__(self, n: int = 3):
        self.n = n

    def initial(self):
        return self.n

    def moves(self, s):
        if s == 1:
            raise ArithmeticError("moves of 1")
        return [1] if s > 0 else []

    def play(self, s, m):
        return s - m

    def outcome(self, s):
        return None
"""


@pytest.fixture(scope="module")
def damaged(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tic-tac-toe tablebase with one byte changed in a tier file."""
    target = tmp_path_factory.mktemp("damaged") / "tb"
    assert run_cli("solve", "tictactoe", "--save", str(target), "-q").returncode == 0
    tier = target / "tier-000001.rec"  # the start's children: read at once
    data = bytearray(tier.read_bytes())
    data[3] ^= 0x11
    tier.write_bytes(bytes(data))
    return target


@pytest.mark.parametrize("command", GAME_COMMANDS)
@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["nosuchgame"], "unknown game 'nosuchgame'"),
        (["connect-four", "-p", "width=x"], "'x' is not a whole number"),
        (["connect-four", "-p", "depth=3"], "unknown parameter 'depth'"),
        (["no/such/file.py:Game"], "no such file"),
    ],
)
def test_every_game_command_refuses_a_bad_game_in_one_line(
    command: str, args: list[str], words: str
) -> None:
    assert words in one_line_error(run_cli(command, *args))


@pytest.mark.parametrize("command", ["analyze", "play", "explore"])
def test_a_missing_or_damaged_tablebase_is_one_line(command: str, damaged: Path) -> None:
    assert "no header.json" in one_line_error(run_cli(command, "tictactoe", "--db", "/no/such/tb"))
    if command != "explore":  # (the server maps a tier when a page asks for it)
        side = ["--as", "second"] if command == "play" else []  # (perfectplay moves first)
        line = one_line_error(
            run_cli(command, "tictactoe", "--db", str(damaged), *side),
            quiet_stdout=command != "play",  # (play shows the board before it asks)
        )
        assert "fails its checksum" in line


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["verify", "/no/such/tb"], "no header.json"),
        (["compress", "/no/such/tb", "/tmp/perfectplay-never-written"], "no header.json"),
        (["cgt", "nosuchgame"], "unknown partizan game"),
        (["cgt", "--expr", "{1|"], "unclosed"),
        (["octal", "0.9x"], "no digit"),
        (["contest", "nosuchproblem"], "unknown problem"),
        (["table", "connect-four", "--range", "width=x..3"], "NAME=A..B"),
        (["solve", "tictactoe", "--method", "nosuch"], "unknown method"),
        (["analyze", "tictactoe", "--moves", "10"], "not a legal move"),
        (["analyze", "tictactoe", "--position", "XXXX"], "9 cells"),
        (["book", "tictactoe", "--depth", "2", "--out", "/tmp/perfectplay-no-book"],
         "cannot be searched"),
        (["explore", "tictactoe", "--port", "99999"], "--port"),
        (["solve", "tictactoe", "--memory", "lots"], "--memory"),
    ],
)  # fmt: skip
def test_bad_words_and_numbers_are_one_line(args: list[str], words: str) -> None:
    assert words in one_line_error(run_cli(*args))


@pytest.mark.parametrize("command", ["solve", "analyze", "check"])
def test_a_hook_that_raises_is_one_line_naming_it(command: str, tmp_path: Path) -> None:
    path = tmp_path / "broken.py"
    path.write_text(HOOKS_THAT_RAISE)
    result = run_cli(command, f"{path}:Broken")
    if command == "check":  # check reports problems (exit 1), one a line
        assert result.returncode == 1 and "Broken.moves(state) raised ArithmeticError" in (
            result.stdout
        )
        return
    assert "Broken.moves(state) raised ArithmeticError: moves of 1" in one_line_error(result)
