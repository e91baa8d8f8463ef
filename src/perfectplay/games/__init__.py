"""The built-in games, by the names the CLI knows them by."""

from __future__ import annotations

from typing import Any

from .connect_four import ConnectFour
from .dobutsu import Dobutsu
from .invisible import Invisible
from .nim import Nim
from .pawns import Pawns, PawnSegments
from .stones import Stones
from .subtraction import Subtraction
from .tictactoe import TicTacToe
from .weighted_tictactoe import WeightedTicTacToe

GAMES: tuple[type[Any], ...] = (
    TicTacToe,
    Nim,
    Subtraction,
    ConnectFour,
    Dobutsu,
    WeightedTicTacToe,
    Invisible,
    Pawns,
    Stones,
)
"""The built-in games, one list (in the order ``perfectplay list`` shows them): each class
has its ``name`` and may have ``aliases``, which the command line, ``list``, tablebase
headers and the explorer all read from here."""

PARTIZAN_GAMES: tuple[type[Any], ...] = (PawnSegments,)
"""Built-in partizan games (``perfectplay cgt``) that live beside a game of this package;
the combinatorial games of ``perfectplay.cgt`` are its own ``GAMES``."""

BUILTINS: dict[str, type] = {cls.name: cls for cls in GAMES}
"""The built-in games by name."""


def aliases_of(cls: type) -> tuple[str, ...]:
    """A built-in's other names: its class's own (a subclass, such as weighted tic-tac-toe,
    does not inherit its base's aliases)."""
    return tuple(vars(cls).get("aliases", ()))


ALIASES: dict[str, type] = {alias: cls for cls in GAMES for alias in aliases_of(cls)}
"""The built-in games by their other names."""


def builtin_game(name: str) -> type | None:
    """The built-in game called ``name`` (or one of its aliases), or None."""
    return BUILTINS.get(name) or ALIASES.get(name)


__all__ = [
    "ALIASES",
    "BUILTINS",
    "GAMES",
    "PARTIZAN_GAMES",
    "ConnectFour",
    "Dobutsu",
    "Invisible",
    "Nim",
    "PawnSegments",
    "Pawns",
    "Stones",
    "Subtraction",
    "TicTacToe",
    "WeightedTicTacToe",
    "aliases_of",
    "builtin_game",
]
