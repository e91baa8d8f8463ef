"""The built-in games, by the names the CLI knows them by."""

from __future__ import annotations

from .connect_four import ConnectFour
from .dobutsu import Dobutsu
from .invisible import Invisible
from .nim import Nim
from .pawns import Pawns
from .stones import Stones
from .subtraction import Subtraction
from .tictactoe import TicTacToe
from .weighted_tictactoe import WeightedTicTacToe

BUILTINS: dict[str, type] = {
    "tictactoe": TicTacToe,
    "nim": Nim,
    "subtraction": Subtraction,
    "connect-four": ConnectFour,
    "dobutsu": Dobutsu,
    "weighted-tictactoe": WeightedTicTacToe,
    "invisible": Invisible,
    "pawns": Pawns,
    "stones": Stones,
}

__all__ = [
    "BUILTINS",
    "ConnectFour",
    "Dobutsu",
    "Invisible",
    "Nim",
    "Pawns",
    "Stones",
    "Subtraction",
    "TicTacToe",
    "WeightedTicTacToe",
]
