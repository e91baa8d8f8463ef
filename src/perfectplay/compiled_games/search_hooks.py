"""The compiled search's rules over a compiled game, one copy per game and parameter set.

``building.search_hooks`` copies this file's text into the cache directory under a name
that hashes the game's loops and its parameters, binds the globals below (the parameters
``P`` as a constant, the rule functions) and jits the five rules that
``perfectplay.solvers.compiled_search`` calls: that search is compiled around them, per
game and parameter set, so the parameters are folded in here (the engine's loops take
them as an argument, ``drivers``). A state is a row of one word, the game's own code; the
score is the value alone (1 a win, 0 a tie, -1 a loss for the player to move), which the
search narrows like any other.

``search_probe`` reads a tablebase of a game ranked by stones (``perfectplay.tablebase.probes``
builds its ``db``): the tier of row p, the tier's slot among the tablebase's (-1: not in
it), the position's index by ``stones.rank_code`` over the tier's parts, its record.
``search_fold`` keys the table by the least of a position's images, by the same tables,
for a game without a ``key`` rule of its own.
"""

from __future__ import annotations

from typing import Any

from perfectplay.protocol import NOT_OVER

# Bound by building.search_hooks before any rule runs (placeholders for the linters).
P: Any = ()
"""The game's parameters, a tuple of ints (a compile-time constant)."""
SCORED = False
"""A scored game: ``outcome`` gives a float score (NaN while the game goes on)."""
LOW_SCORE = -1
"""The least score the search takes (a scored game's -inf: a mover with no move)."""
HIGH_SCORE = 1
"""The greatest (a scored game's +inf)."""
_to_move: Any = None
_reward: Any = None
_tabled: Any = None
_moves: Any = None
_play: Any = None
_outcome: Any = None
_key: Any = None
_tier: Any = None
_rank_code: Any = None
_least_code: Any = None


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
        score = _outcome(P, s[p, 0])
        if score != score:
            return NOT_OVER
        return whole(score)
    o = _outcome(P, s[p, 0])
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
    return bool(_to_move(P, s[p, 0]) == _to_move(P, s[p + 1, 0]))


def search_reward(s: Any, p: int, move: int) -> int:
    """The points ``move`` earns row p's mover."""
    return whole(_reward(P, s[p, 0], move))


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


def search_tabled(s: Any, p: int) -> bool:
    """Whether the search keeps row p in its table (the game's ``tabled`` rule)."""
    return bool(_tabled(P, s[p, 0]))


def search_fold(s: Any, p: int, db: Any) -> int:
    """Row p's table key when the search probes a tablebase of a game without a ``key``
    rule: the least of the position's images under the board's symmetries
    (``stones.least_code``, by the tablebase's tables in ``db``), as the tablebase itself
    folds them; a position and its images then share the table's entry."""
    k: int = _least_code(
        s[p, 0], db.cells, db.theirs_at, db.rest_at, db.byte_rank, db.images, db.orbit,
        db.symmetry, db.least, db.stabiliser, db.set_at, db.orbit_at,
    )  # fmt: skip
    return k


def search_probe(s: Any, p: int, db: Any) -> int:
    """The value of row p read from the tablebase when its tier is there, else NOT_OVER.
    ``db``: a ``stones.ProbeTables``."""
    slot_of = db.slot_of
    code = s[p, 0]
    tier = _tier(P, code)
    if tier < 0 or tier >= slot_of.shape[0] or slot_of[tier] < 0:
        return NOT_OVER
    slot = slot_of[tier]
    index = _rank_code(
        code, db.cells, db.theirs_at, db.rest_at, db.mine, db.theirs, db.rest, db.offsets,
        db.part_from[slot], db.part_from[slot + 1], db.binomials, db.byte_rank,
        db.images, db.orbit, db.symmetry, db.least, db.stabiliser, db.set_at, db.orbit_at,
    )  # fmt: skip
    held = db.records[slot]
    if index < 0 or index >= held.shape[0]:
        raise ValueError("the tablebase has no index for a position the search reached")
    record = held[index]
    if db.decode.shape[0]:  # (packed tiers: a byte stands for a record)
        record = db.decode[record]
    value = record >> db.shift
    if value == 1:
        return 1
    if value == 2:
        return -1
    if value == 3 or value == 4:
        return 0
    raise ValueError("the tablebase has no value for a position the search reached")
