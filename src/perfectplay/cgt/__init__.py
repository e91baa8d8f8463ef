"""Combinatorial game theory: values of short partizan games, exactly.

Every position of a short game (every line of play ends; the player who cannot move
loses) has a value, and the value of a sum of games is the sum of the values. Values are
``CanonicalGame`` objects in canonical form, one object per value::

    from perfectplay.cgt import parse, value, Domineering
    g = parse("{1|-1} + ^ + *")
    value(Domineering(4, 4)), g.outcome, g.mean, g.temperature

``value(game, state)`` computes the value of a position of any game written with
``left_moves``, ``right_moves`` and ``play`` (see ``perfectplay.cgt.games``).

This package imports only pure-Python modules of its own (no numba, no octal games).
"""

from __future__ import annotations

from typing import Any

from .canonical import (
    DOWN,
    ONE,
    STAR,
    UP,
    ZERO,
    CanonicalGame,
    Relation,
    compare,
    confused,
    game,
    integer,
    miny,
    nimber,
    number,
    outcome,
    switch,
    tiny,
    up_multiple,
)
from .clobber import Clobber
from .domineering import Domineering
from .games import HOOKS, PartizanGame, PartizanRules, PartizanSum, Solver, check_partizan, value
from .notation import parse, render
from .thermograph import Thermograph, svg, thermograph
from .toads import ToadsAndFrogs

GAMES: tuple[type[Any], ...] = (Domineering, ToadsAndFrogs, Clobber)
"""The built-in partizan games, one list: each class has its ``name`` and may have
``aliases`` (as the built-in games of ``perfectplay.games``)."""

BUILTINS: dict[str, type] = {
    name: cls for cls in GAMES for name in (cls.name, *vars(cls).get("aliases", ()))
}
"""The built-in partizan games by every name the command line knows them by."""

__all__ = [
    "BUILTINS",
    "DOWN",
    "HOOKS",
    "ONE",
    "STAR",
    "UP",
    "ZERO",
    "CanonicalGame",
    "Clobber",
    "Domineering",
    "PartizanGame",
    "PartizanRules",
    "PartizanSum",
    "Relation",
    "Solver",
    "Thermograph",
    "ToadsAndFrogs",
    "check_partizan",
    "compare",
    "confused",
    "game",
    "integer",
    "miny",
    "nimber",
    "number",
    "outcome",
    "parse",
    "render",
    "svg",
    "switch",
    "thermograph",
    "tiny",
    "up_multiple",
    "value",
]
