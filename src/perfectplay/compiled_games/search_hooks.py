"""The compiled search's rules over a compiled game, one copy per game and parameter set.

``building.search_hooks`` copies this file's text into the cache directory under a name
that hashes the game's loops and its parameters, binds the globals below (the parameters
``P`` as a constant, the rule functions) and jits the five rules that
``perfectplay.solvers.compiled_search`` calls: that search is compiled around them, per
game and parameter set, so the parameters are folded in here (the engine's loops take
them as an argument, ``drivers``). A state is a row of one word, the game's own code; the
score is the value alone (1 a win, 0 a tie, -1 a loss for the player to move), which the
search narrows like any other.
"""

from __future__ import annotations

from typing import Any

from perfectplay.protocol import NOT_OVER

# Bound by building.search_hooks before any rule runs (placeholders for the linters).
P: Any = ()
"""The game's parameters, a tuple of ints (a compile-time constant)."""
_moves: Any = None
_play: Any = None
_outcome: Any = None
_key: Any = None


def search_end(s: Any, p: int) -> int:
    """The value of row p when the game is over there, else NOT_OVER."""
    o = _outcome(P, s[p, 0])
    if o == 1:
        return 1
    if o == 2:
        return -1
    if o == 3:
        return 0
    return NOT_OVER


def search_bounds(s: Any, p: int) -> Any:
    """Every value is possible while the game goes on."""
    return -1, 1


def search_moves(s: Any, p: int, out: Any) -> int:
    """The game's moves of row p, in the game's order (none: the mover has lost)."""
    n: int = _moves(P, s[p, 0], out[p])
    return n


def search_play(s: Any, p: int, move: int) -> None:
    """Row p + 1: row p after ``move``."""
    s[p + 1, 0] = _play(P, s[p, 0], move)


def search_key(s: Any, p: int) -> int:
    """The canonical key of row p (symmetric positions share a table entry)."""
    k: int = _key(P, s[p, 0])
    return k
