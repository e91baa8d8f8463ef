"""The compiled search's rules over a wide game (``wide.WideGame``), one copy per game and
parameter set.

``wide.WideGame.compiled_rules`` copies this file's text into the cache directory under a
name that hashes the game's rules and parameters, binds the globals below and jits the
rules that ``perfectplay.solvers.compiled_search`` calls. A row of the search's stack is
the state's ``W`` words, then, for a game with a ``key`` rule, the ``W`` words of its
canonical state (``search_key`` writes them): the table keeps the canonical words whole,
or the state's own, and ``search_key``'s hash of them only chooses the table's entry.
"""

from __future__ import annotations

from typing import Any

from perfectplay.protocol import NOT_OVER

# Bound by wide.WideGame.compiled_rules before any rule runs (placeholders for the linters).
P: Any = ()
"""The game's parameters, a tuple of ints (a compile-time constant)."""
W = 2
"""The words of a state."""
KEYED = False
"""Whether the game gives a ``key`` rule (its canonical state, in columns W..2W-1)."""
SCORED = False
"""A scored game: ``outcome`` gives a float score (NaN while the game goes on)."""
LOW_SCORE = -1
"""The least score the search takes (a scored game's -inf: a mover with no move)."""
HIGH_SCORE = 1
"""The greatest (a scored game's +inf)."""
_moves: Any = None
_play: Any = None
_outcome: Any = None
_key: Any = None
_to_move: Any = None
_reward: Any = None
_tabled: Any = None


def whole(x: float) -> int:
    """A score as the search's integer: +-inf to the range's ends; ValueError for a score
    with a fraction or beyond the range."""
    if x <= -1e300:
        return LOW_SCORE
    if x >= 1e300:
        return HIGH_SCORE
    if x != int(x) or x <= LOW_SCORE or x >= HIGH_SCORE:
        raise ValueError("compiled rules: the search takes whole-number scores below 2**20")
    return int(x)


def search_end(s: Any, p: int) -> int:
    """The value or score of row p when the game is over there, else NOT_OVER."""
    if SCORED:
        score = _outcome(P, s[p, :W])
        if score != score:
            return NOT_OVER
        return whole(score)
    o = _outcome(P, s[p, :W])
    if o == 1:
        return 1
    if o == 2:
        return -1
    if o == 3:
        return 0
    return NOT_OVER


def search_bounds(s: Any, p: int) -> Any:
    """Every value or score is possible while the game goes on."""
    return LOW_SCORE, HIGH_SCORE


def search_keeps(s: Any, p: int) -> bool:
    """Whether row p's mover moves again in row p + 1."""
    return bool(_to_move(P, s[p, :W]) == _to_move(P, s[p + 1, :W]))


def search_reward(s: Any, p: int, move: int) -> int:
    """The points ``move`` earns row p's mover."""
    return whole(_reward(P, s[p, :W], move))


def search_moves(s: Any, p: int, out: Any) -> int:
    """The game's moves of row p, in the game's order (none: the mover has lost)."""
    n: int = _moves(P, s[p, :W], out[p])
    return n


def search_play(s: Any, p: int, move: int) -> None:
    """Row p + 1: row p after ``move``."""
    _play(P, s[p, :W], move, s[p + 1, :W])


def search_tabled(s: Any, p: int) -> bool:
    """Whether the search keeps row p in its table (the game's ``tabled`` rule)."""
    return bool(_tabled(P, s[p, :W]))


def search_key(s: Any, p: int) -> int:
    """A hash of row p's canonical words (written into the row first, for a game with a
    ``key`` rule): it chooses the table's entry, which keeps the words themselves."""
    at = 0
    if KEYED:
        _key(P, s[p, :W], s[p, W : 2 * W])
        at = W
    h = 0
    for w in range(W):
        h = ((h ^ s[p, at + w]) * 0x2545F4914F6CDD1D) & 0x7FFFFFFFFFFFFFFF
        h ^= h >> 29
    return h
