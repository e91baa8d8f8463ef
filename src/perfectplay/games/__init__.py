"""The built-in games, by the names the CLI knows them by."""

from __future__ import annotations

from .connect_four import ConnectFour
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
    "weighted-tictactoe": WeightedTicTacToe,
    "invisible": Invisible,
    "pawns": Pawns,
    "stones": Stones,
}

__all__ = [
    "BUILTINS",
    "ConnectFour",
    "Invisible",
    "Nim",
    "Pawns",
    "Stones",
    "Subtraction",
    "TicTacToe",
    "WeightedTicTacToe",
]
