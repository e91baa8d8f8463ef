"""The built-in games, by the names the CLI knows them by."""

from __future__ import annotations

from .connect_four import ConnectFour
from .nim import Nim
from .subtraction import Subtraction
from .tictactoe import TicTacToe

BUILTINS: dict[str, type] = {
    "tictactoe": TicTacToe,
    "nim": Nim,
    "subtraction": Subtraction,
    "connect-four": ConnectFour,
}

__all__ = ["BUILTINS", "ConnectFour", "Nim", "Subtraction", "TicTacToe"]
