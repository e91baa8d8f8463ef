"""The engine's loops around a compiled game's rules, one copy per game.

``building.compile_game`` copies this file's text into a cache directory under a name that
hashes the game's source and this text, imports the copy, binds the module globals below
to the game's rule functions, and compiles each loop with numba (``cache=True``: the copy's
machine code lands beside it, and a fresh process loads it in milliseconds). The rules are
globals, not arguments, because numba does not cache a function that takes another
function as an argument. The game's parameters are an argument, ``P`` (a tuple of ints,
passed on to every rule as its ``p``): one compiled copy serves every parameter set. A
copy per set, the parameters folded in as constants, compiles again for each new ``-p``
value (10 to 30 s) and solved 1.03-1.22x as fast (``bench/parameters.py``, 2026-11-28:
Connect Four 6x4 8.5 s against 10.4 s, 5x4 1.16x, Kalah(4, 3) 1.03x), short of the 1.3x
that would pay for it. In interpreted runs the same loops run as plain Python over the
plain rule functions.

Conventions: a state is a non-negative int64 code; ``moves(p, s, out)`` writes the moves of a
state that goes on into ``out`` and returns how many; ``outcome(p, s)`` is 0 while the game
goes on, else 1 WIN, 2 LOSS, 3 TIE for the player to move (a float score, NaN while it goes
on, in scored games). Children are canonical: ``key`` is applied to every state a move makes.
The compiled search's rules, which fold the parameters in, are in ``search_hooks``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

# Bound by building.compile_game before any loop runs (placeholders for the linters).
MAX_MOVES = 64
"""The size of the move buffer: no state has more moves."""
SCORED = False
HAS_TO_MOVE = False
HAS_REWARD = False
HAS_EXITS = False
"""Whether the game writes ``exits`` and ``stays`` (then ``moves_out`` reads them)."""
_start: Any = None
_moves: Any = None
_play: Any = None
_outcome: Any = None
_key: Any = None
_tier: Any = None
_to_move: Any = None
_reward: Any = None
_unmoves: Any = None
_exits: Any = None
_stays: Any = None
_inline_moves: Any = None
"""The same rules again, inlined into the loops over every position (building.INLINED)."""
_inline_play: Any = None
_inline_outcome: Any = None
_inline_key: Any = None
_inline_tier: Any = None


def outcomes(P: Any, codes: Any, out: Any) -> None:
    """out[i] = outcome of codes[i] (int8 codes, or float64 scores with NaN)."""
    for i in range(codes.shape[0]):
        out[i] = _outcome(P, codes[i])


def keys(P: Any, codes: Any, out: Any) -> None:
    """out[i] = the canonical key of codes[i]."""
    for i in range(codes.shape[0]):
        out[i] = _key(P, codes[i])


def tiers(P: Any, codes: Any, out: Any) -> None:
    """out[i] = the tier of codes[i]."""
    for i in range(codes.shape[0]):
        out[i] = _tier(P, codes[i])


def expand(P: Any, codes: Any, with_outcome: bool) -> Any:
    """The moves of codes: (parents, children, same_mover, rewards, bad).

    Children are keyed; ``parents[j]`` is the row of the move's state. With ``with_outcome``
    a state that has ended has no moves (the batch protocol expands only states that go on).
    same_mover is 1 where the move keeps the player to move (HAS_TO_MOVE games), rewards the
    mover's points (HAS_REWARD games). ``bad`` is -1, or the row of a state whose move
    count is negative or past MAX_MOVES.
    """
    n = codes.shape[0]
    parents, children, same, rewards, e, stop = _expand_part(P, codes, with_outcome, 0, _room(n))
    if stop < 0 or stop == n:  # (a count out of range: a part of none)
        return (parents[:e], children[:e], same[: e if HAS_TO_MOVE else 0],
                rewards[: e if HAS_REWARD else 0], -1 if stop == n else ~stop)  # fmt: skip
    all_parents = parents[:e]
    all_children = children[:e]
    all_same = same[: e if HAS_TO_MOVE else 0]
    all_rewards = rewards[: e if HAS_REWARD else 0]
    while stop < n:
        parents, children, same, rewards, e, stop = _expand_part(
            P, codes, with_outcome, stop, _room(n - stop)
        )
        if stop < 0:
            return parents[:0], children[:0], same[:0], rewards[:0], ~stop
        all_parents = np.concatenate((all_parents, parents[:e]))
        all_children = np.concatenate((all_children, children[:e]))
        all_same = np.concatenate((all_same, same[: e if HAS_TO_MOVE else 0]))
        all_rewards = np.concatenate((all_rewards, rewards[: e if HAS_REWARD else 0]))
    return all_parents, all_children, all_same, all_rewards, -1


def _expand_part(P: Any, codes: Any, with_outcome: bool, start: int, cap: int) -> Any:
    """``expand`` from row ``start`` on while ``cap`` leaves room for a position's moves:
    (parents, children, same, rewards, count, the row it stopped before, or ~row of a
    count out of range)."""
    parents = np.empty(cap, dtype=np.int64)
    children = np.empty(cap, dtype=np.int64)
    same = np.empty(cap if HAS_TO_MOVE else 0, dtype=np.uint8)
    rewards = np.empty(cap if HAS_REWARD else 0, dtype=np.float64)
    buffer = np.empty(MAX_MOVES, dtype=np.int64)
    e = 0
    for i in range(start, codes.shape[0]):
        if e + MAX_MOVES > cap:
            return parents, children, same, rewards, e, i
        s = codes[i]
        if with_outcome and _has_ended(P, s):
            continue
        k = _moves(P, s, buffer)
        if k < 0 or k > MAX_MOVES:
            return parents, children, same, rewards, 0, ~i
        mover = _to_move(P, s) if HAS_TO_MOVE else 0
        for j in range(k):
            child = _play(P, s, buffer[j])
            parents[e] = i
            children[e] = _key(P, child)
            if HAS_TO_MOVE:
                same[e] = 1 if _to_move(P, child) == mover else 0
            if HAS_REWARD:
                rewards[e] = _reward(P, s, buffer[j])
            e += 1
    return parents, children, same, rewards, e, codes.shape[0]


BAD_COUNT = 1
"""expand_tiers' problems: a count of moves out of range, a negative child code, a child
in a lower tier than ``tier``."""
BAD_CODE = 2
BAD_TIER = 3


def expand_tiers(P: Any, codes: Any, tier: int, ended: Any) -> Any:
    """The keyed children of the codes (of ``tier``) that go on, with their tiers:
    (children, child tiers, lowest child tier, highest, problem, row, child); ``ended[i]``
    is set to 1 for a state that has ended, 0 for one that goes on (so the solve need not
    ask again). ``problem`` is 0, or BAD_COUNT, BAD_CODE or BAD_TIER for the state at
    ``row`` and its ``child`` (the arrays then empty)."""
    n = codes.shape[0]
    children, child_tiers, e, stop, low, high, problem, child = _expand_tiers_part(
        P, codes, tier, ended, 0, _room(n), -1, -1
    )
    if problem:
        return children[:0], child_tiers[:0], tier, tier, problem, stop, child
    if stop == n:
        if low < 0:  # (no child)
            low, high = tier, tier
        # Views, not copies: the engine scatters or sorts the children into arrays of its
        # own at once (a copy here moved 16 bytes a move for nothing).
        return children[:e], child_tiers[:e], low, high, 0, -1, -1
    all_children = children[:e]
    all_tiers = child_tiers[:e]
    while stop < n:
        children, child_tiers, e, stop, low, high, problem, child = _expand_tiers_part(
            P, codes, tier, ended, stop, _room(n - stop), low, high
        )
        if problem:
            return children[:0], child_tiers[:0], tier, tier, problem, stop, child
        all_children = np.concatenate((all_children, children[:e]))
        all_tiers = np.concatenate((all_tiers, child_tiers[:e]))
    if low < 0:
        low, high = tier, tier
    return all_children, all_tiers, low, high, 0, -1, -1


def _expand_tiers_part(
    P: Any, codes: Any, tier: int, ended: Any, start: int, cap: int, low: int, high: int
) -> Any:
    """``expand_tiers`` from row ``start`` on while ``cap`` leaves room for a position's
    moves, the lowest and highest child tier so far given: (children, child tiers, count,
    the row it stopped before, lowest, highest, problem, child); on a problem, the row is
    the position's. ``low`` and ``high`` of -1 stand for no child yet."""
    children = np.empty(cap, dtype=np.int64)
    child_tiers = np.empty(cap, dtype=np.int64)
    buffer = np.empty(MAX_MOVES, dtype=np.int64)
    e = 0
    for i in range(start, codes.shape[0]):
        if e + MAX_MOVES > cap:
            return children, child_tiers, e, i, low, high, 0, -1
        s = codes[i]
        if _ends(_inline_outcome(P, s)):
            ended[i] = 1
            continue
        ended[i] = 0
        k = _inline_moves(P, s, buffer)
        if k < 0 or k > MAX_MOVES:
            return children, child_tiers, 0, i, low, high, BAD_COUNT, 0
        for j in range(k):
            child = _inline_key(P, _inline_play(P, s, buffer[j]))
            t = _inline_tier(P, child)
            if child < 0 or t < tier:
                problem = BAD_CODE if child < 0 else BAD_TIER
                return children, child_tiers, 0, i, low, high, problem, child
            children[e] = child
            child_tiers[e] = t
            if low < 0:
                low = t
                high = t
            low = min(low, t)
            high = max(high, t)
            e += 1
    return children, child_tiers, e, codes.shape[0], low, high, 0, -1


BAD_TURN = 4
"""moves_out's problem beside BAD_COUNT and BAD_CODE: a move that keeps the player to move
(a loopy tier counted this way needs moves that pass the turn)."""
BAD_EXIT = 5
"""moves_out's problem where a move ``exits`` lists stays in the tier."""


def moves_out(P: Any, codes: Any, tier: int, inside: Any, by_moves: bool) -> Any:
    """The moves of codes that go on (of ``tier``), split: ``inside[i]`` set to how many of
    code i's moves stay in ``tier`` (counted, never written out), and the others listed:
    (rows, keyed children, problem, row, child), ``problem`` as ``expand_tiers``' (or
    BAD_TURN, or BAD_EXIT). A loopy tier that counts its moves by orbits reads only this of
    them: in Nine Men's Morris a slide stays in its sector and a mill leaves it. Where the
    game writes ``exits`` and ``stays`` (and not ``by_moves``: the check of them against
    ``moves``), those give the split: no move staying is generated or played."""
    split = HAS_EXITS and not by_moves
    n = codes.shape[0]
    rows, children, e, stop, problem, child = _moves_out_part(
        P, codes, tier, inside, 0, _room(n), split
    )
    if problem:
        return rows[:0], children[:0], problem, stop, child
    if stop == n:
        return rows[:e], children[:e], 0, -1, -1
    all_rows = rows[:e]
    all_children = children[:e]
    while stop < n:
        rows, children, e, stop, problem, child = _moves_out_part(
            P, codes, tier, inside, stop, _room(n - stop), split
        )
        if problem:
            return rows[:0], children[:0], problem, stop, child
        all_rows = np.concatenate((all_rows, rows[:e]))
        all_children = np.concatenate((all_children, children[:e]))
    return all_rows, all_children, 0, -1, -1


def _moves_out_part(
    P: Any, codes: Any, tier: int, inside: Any, start: int, cap: int, split: bool
) -> Any:
    """``moves_out`` from row ``start`` on while ``cap`` leaves room for a position's
    moves, by ``moves`` or (``split``) by ``exits`` and ``stays``: (rows, children, count,
    the row it stopped before, problem, child); on a problem, the row is the position's."""
    if split:
        return _split_part(P, codes, tier, inside, start, cap)
    rows = np.empty(cap, dtype=np.int64)
    children = np.empty(cap, dtype=np.int64)
    buffer = np.empty(MAX_MOVES, dtype=np.int64)
    e = 0
    for i in range(start, codes.shape[0]):
        if e + MAX_MOVES > cap:
            return rows, children, e, i, 0, -1
        s = codes[i]
        k = _inline_moves(P, s, buffer)
        if k < 0 or k > MAX_MOVES:
            return rows, children, 0, i, BAD_COUNT, 0
        mover = _to_move(P, s) if HAS_TO_MOVE else 0
        stay = 0
        for j in range(k):
            child = _inline_key(P, _inline_play(P, s, buffer[j]))
            if child < 0 or (HAS_TO_MOVE and _to_move(P, child) == mover):
                return rows, children, 0, i, BAD_CODE if child < 0 else BAD_TURN, child
            if _inline_tier(P, child) == tier:
                stay += 1
                continue
            rows[e] = i
            children[e] = child
            e += 1
        inside[i] = stay
    return rows, children, e, codes.shape[0], 0, -1


def _split_part(P: Any, codes: Any, tier: int, inside: Any, start: int, cap: int) -> Any:
    """``_moves_out_part`` by the game's ``exits`` and ``stays``."""
    rows = np.empty(cap, dtype=np.int64)
    children = np.empty(cap, dtype=np.int64)
    buffer = np.empty(MAX_MOVES, dtype=np.int64)
    e = 0
    for i in range(start, codes.shape[0]):
        if e + MAX_MOVES > cap:
            return rows, children, e, i, 0, -1
        s = codes[i]
        k = _exits(P, s, buffer)
        stay = _stays(P, s)
        if k < 0 or k > MAX_MOVES or stay < 0 or stay > MAX_MOVES:
            return rows, children, 0, i, BAD_COUNT, 0 if k < 0 or k > MAX_MOVES else 1
        mover = _to_move(P, s) if HAS_TO_MOVE else 0
        for j in range(k):
            child = _inline_key(P, _inline_play(P, s, buffer[j]))
            if child < 0 or (HAS_TO_MOVE and _to_move(P, child) == mover):
                return rows, children, 0, i, BAD_CODE if child < 0 else BAD_TURN, child
            if _inline_tier(P, child) == tier:
                return rows, children, 0, i, BAD_EXIT, child
            rows[e] = i
            children[e] = child
            e += 1
        inside[i] = stay
    return rows, children, e, codes.shape[0], 0, -1


def _has_ended(P: Any, s: Any) -> bool:
    """Whether the game is over at state s."""
    return _ends(_outcome(P, s))


def _ends(o: Any) -> bool:
    """Whether an outcome says the game is over (an outcome, or a score that is not NaN)."""
    if SCORED:
        return bool(o == o)
    return bool(o != 0)


ROOM_EACH = 16
"""The moves a part of a loop makes room for a position (all of them where MAX_MOVES is
smaller): see ``_room``."""


def _room(n: int) -> int:
    """How many moves a loop over n positions makes room for at once. The loops that list
    moves fill arrays of their own allocated once, a part, stopping before a position
    that might not fit (``MAX_MOVES`` left) and going on in a new part, each part joined
    to those before (rare: room is made for every move where ``MAX_MOVES`` is at most
    ROOM_EACH, for 16 a position elsewhere, and pages never written cost nothing; joined
    as a list at the end, a game's first compile took 19 s against 13-14.5). Arrays
    grown inside the loop instead cost Nine Men's Morris's un-moves 20-21 ns each against
    15-16 (sector 7-5, one process, taking turns, 2026-12-02): numba keeps an array that
    a loop may replace out of registers."""
    return max(16, n * min(MAX_MOVES, ROOM_EACH)) + MAX_MOVES


def unmoves(P: Any, codes: Any, tier: int) -> Any:
    """The un-moves of codes: (rows, parents, bad) with parents keyed, as ``expand``;
    with ``tier`` >= 0, only the parents of that tier (those the solvers of a loopy tier
    follow: Nine Men's Morris's un-moves that put a taken stone back, three in four of
    them, left the sector only after being written out and their tiers found apart)."""
    n = codes.shape[0]
    rows, parents, e, stop = _unmoves_part(P, codes, tier, 0, _room(n))
    if stop < 0 or stop == n:
        return rows[:e], parents[:e], -1 if stop == n else ~stop
    all_rows = rows[:e]
    all_parents = parents[:e]
    while stop < n:
        rows, parents, e, stop = _unmoves_part(P, codes, tier, stop, _room(n - stop))
        if stop < 0:
            return rows[:0], parents[:0], ~stop
        all_rows = np.concatenate((all_rows, rows[:e]))
        all_parents = np.concatenate((all_parents, parents[:e]))
    return all_rows, all_parents, -1


def _unmoves_part(P: Any, codes: Any, tier: int, start: int, cap: int) -> Any:
    """``unmoves`` from row ``start`` on while ``cap`` leaves room for a position's
    un-moves: (rows, parents, count, the row it stopped before, or ~row of a count out
    of range)."""
    rows = np.empty(cap, dtype=np.int64)
    parents = np.empty(cap, dtype=np.int64)
    buffer = np.empty(MAX_MOVES, dtype=np.int64)
    e = 0
    for i in range(start, codes.shape[0]):
        if e + MAX_MOVES > cap:
            return rows, parents, e, i
        k = _unmoves(P, codes[i], buffer)
        if k < 0 or k > MAX_MOVES:
            return rows, parents, 0, ~i
        for j in range(k):
            parent = _key(P, buffer[j])
            if tier >= 0 and _tier(P, parent) != tier:
                continue
            rows[e] = i
            parents[e] = parent
            e += 1
    return rows, parents, e, codes.shape[0]


def find(codes: Any, buckets: Any, base: int, shift: int, code: int) -> int:
    """The index of ``code`` in the sorted ``codes``, or -1 when it is not there.

    ``buckets[b]`` is the first index whose code's bucket, (code - base) >> shift, is at
    least b: a search looks only inside its code's bucket (a few codes on average)."""
    if code < base:
        return -1
    b = (code - base) >> shift
    if b >= buckets.shape[0] - 1:
        return -1
    lo = buckets[b]
    hi = buckets[b + 1]
    while lo < hi:
        mid = (lo + hi) >> 1
        if codes[mid] < code:
            lo = mid + 1
        else:
            hi = mid
    if lo < buckets[b + 1] and codes[lo] == code:
        return int(lo)
    return -1


NEAR = 32
"""How far past its last answer a move's next child is looked for before the buckets."""


def find_near(codes: Any, buckets: Any, base: int, shift: int, code: int, hint: int) -> int:
    """``find``, looking first among the NEAR codes from ``hint`` on, one after another:
    the children by one move of positions taken in code order often come in code order
    too, a few codes apart, so this reads memory already in cache (Connect Four 6x4: 93% of
    them within 3 codes of the last, 1.7 on average; stepping found them in about 0.85 of
    the time a binary search over the NEAR codes took, 2026-11-27). A code past the NEAR
    codes goes to the buckets at once (games whose children come in no order: stepping
    over all NEAR codes first made Quixo 4x4's solve slower)."""
    last = min(codes.shape[0] - 1, hint + NEAR)
    if hint >= 0 and codes[hint] <= code and code <= codes[last]:
        j = hint
        while codes[j] < code:  # stops at ``last`` at the latest
            j += 1
        return int(j) if codes[j] == code else -1
    return find(codes, buckets, base, shift, code)


def find_all_near(
    codes: Any, buckets: Any, base: int, shift: int, queries: Any, slots: Any, out: Any
) -> None:
    """out[i] = the index of queries[i], looked for first near the last code found for the
    same move slot (queries in the order their positions were expanded)."""
    hints = np.full(MAX_MOVES + 1, -1, dtype=np.int64)
    for i in range(queries.shape[0]):
        j = slots[i]
        at = find_near(codes, buckets, base, shift, queries[i], hints[j])
        out[i] = at
        if at >= 0:
            hints[j] = at


def find_all(codes: Any, buckets: Any, base: int, shift: int, queries: Any, out: Any) -> None:
    """out[i] = find(codes, ..., queries[i])."""
    for i in range(queries.shape[0]):
        out[i] = find(codes, buckets, base, shift, queries[i])


def expand_ranked(
    P: Any,
    tier_codes: Any,
    indices: Any,
    kid_codes: Any,
    buckets: Any,
    base: int,
    shift: int,
    outcome: Any,
) -> Any:
    """For positions given by index in a tier whose moves all lead into one other tier:
    outcome[i] their end (0 goes on), and (parents, child indices) of the moves of those
    that go on, parents counting only those. A child not in the child tier gets -1."""
    n = indices.shape[0]
    hints = np.full(MAX_MOVES, -1, dtype=np.int64)
    parents, found, e, stop, row = _expand_ranked_part(
        P, tier_codes, indices, kid_codes, buckets, base, shift, outcome, hints, 0, 0, _room(n)
    )
    if stop < 0 or stop == n:
        return parents[:e], found[:e]
    all_parents = parents[:e]
    all_found = found[:e]
    while stop < n:
        parents, found, e, stop, row = _expand_ranked_part(
            P, tier_codes, indices, kid_codes, buckets, base, shift, outcome, hints, stop, row,
            _room(n - stop),
        )  # fmt: skip
        if stop < 0:
            return parents[:0], found[:0]
        all_parents = np.concatenate((all_parents, parents[:e]))
        all_found = np.concatenate((all_found, found[:e]))
    return all_parents, all_found


def _expand_ranked_part(
    P: Any,
    tier_codes: Any,
    indices: Any,
    kid_codes: Any,
    buckets: Any,
    base: int,
    shift: int,
    outcome: Any,
    hints: Any,
    start: int,
    row: int,
    cap: int,
) -> Any:
    """``expand_ranked`` from ``start`` on (``row``: the positions that went on before it)
    while ``cap`` leaves room for a position's moves: (parents, found, count, where it
    stopped or -1 on a count out of range, then ``outcome`` -1 there, and ``row`` now)."""
    parents = np.empty(cap, dtype=np.int64)
    found = np.empty(cap, dtype=np.int64)
    buffer = np.empty(MAX_MOVES, dtype=np.int64)
    e = 0
    for i in range(start, indices.shape[0]):
        if e + MAX_MOVES > cap:
            return parents, found, e, i, row
        s = tier_codes[indices[i]]
        o = _outcome(P, s)
        outcome[i] = o
        if o != 0:
            continue
        k = _moves(P, s, buffer)
        if k < 0 or k > MAX_MOVES:
            outcome[i] = -1
            return parents, found, 0, -1, row
        for j in range(k):
            child = _key(P, _play(P, s, buffer[j]))
            parents[e] = row
            at = find_near(kid_codes, buckets, base, shift, child, hints[j])
            found[e] = at
            if at >= 0:
                hints[j] = at
            e += 1
        row += 1
    return parents, found, e, indices.shape[0], row


def solve_sweep(
    P: Any,
    tier_codes: Any,
    start: int,
    records: Any,
    kid_codes: Any,
    buckets: Any,
    base: int,
    shift: int,
    kid_records: Any,
    reached: int,
    ended: Any,
    worth: Any,
    record_of: Any,
    over: Any,
) -> int:
    """batch_solve_tier's pass over records[i] (index start + i) of a tier whose moves all
    lead into one other tier (``SweepCodes``: reached, ended, worth, record_of): a position
    whose record is ``reached`` or 0 (every index of the tier is a position: its working
    file is zeros until solved, ``tiers.one_pass``) gets ended[outcome] if it has ended, else
    record_of[best + 1], best the largest worth of its children's records. ``over`` holds
    a bit an index of the tier (bit i % 8 of byte i // 8) set where the position has ended,
    as the discovery found (the rules' outcome asked only there), or is empty (asked of
    every position). The moves are
    folded as they are made: no list of moves is written. Returns the positions solved,
    or a negative record_of code (-1 also for a child that is not in the child tier, or a
    count of moves out of range: the rules are not those the ranking was found with)."""
    buffer = np.empty(MAX_MOVES, dtype=np.int64)
    hints = np.full(MAX_MOVES, -1, dtype=np.int64)
    solved = 0
    for i in range(records.shape[0]):
        if records[i] != reached and records[i] != 0:
            continue  # solved already (a sweep taken up again)
        s = tier_codes[start + i]
        o = 0
        at = start + i
        if over.shape[0] == 0 or (over[at >> 3] >> (at & 7)) & 1:
            o = _inline_outcome(P, s)
        if o != 0:
            records[i] = ended[o]
            solved += 1
            continue
        k = _inline_moves(P, s, buffer)
        if k < 0 or k > MAX_MOVES:
            return -1
        best = -1
        for j in range(k):
            child = _inline_key(P, _inline_play(P, s, buffer[j]))
            at = find_near(kid_codes, buckets, base, shift, child, hints[j])
            if at < 0:
                return -1
            hints[j] = at
            w = worth[kid_records[at]]
            if w > best:
                best = w
        r = record_of[best + 1]
        if r < 0:
            return int(r)
        records[i] = r
        solved += 1
    return solved


def reverse_edges(P: Any, codes: Any, buckets: Any, base: int, shift: int, tier: int) -> Any:
    """The moves inside a tier, backward: (offsets, parents) such that the positions from
    which a move leads to index j are parents[offsets[j]:offsets[j + 1]] (indices, once per
    such move). Two passes over the tier's moves: count, then fill (no edge list kept)."""
    n = codes.shape[0]
    offsets = np.zeros(n + 1, dtype=np.int64)
    buffer = np.empty(MAX_MOVES, dtype=np.int64)
    for sweep in range(2):
        if sweep == 1:
            for j in range(n):
                offsets[j + 1] += offsets[j]
            parents = np.empty(offsets[n], dtype=np.int64)
            fill = offsets[:n].copy()
        for i in range(n):
            s = codes[i]
            if _outcome(P, s) != 0:
                continue
            k = _moves(P, s, buffer)
            for j in range(k):
                child = _key(P, _play(P, s, buffer[j]))
                if _tier(P, child) != tier:
                    continue
                at = find(codes, buckets, base, shift, child)
                if at < 0:
                    continue
                if sweep == 0:
                    offsets[at + 1] += 1
                else:
                    parents[fill[at]] = i
                    fill[at] += 1
    return offsets, parents


def tier_moves(
    P: Any, codes: Any, buckets: Any, base: int, shift: int, tier: int, start: int, stop: int
) -> Any:
    """The moves of indices [start, stop) of a loopy tier, each played once, for the engine's
    solver: (outcome, inside, targets, out_rows, out_children, out_slots, out_same).
    ``inside[i - start]`` counts index i's moves that stay in the tier and ``targets`` lists
    their children's indices (int32), in order, as ~index (negative) for a move that keeps
    the player to move (HAS_TO_MOVE games: an extra turn); moves out of the tier come as
    (index, child code, move slot) triples, with out_same 1 where the move keeps the player
    to move (empty in games without extra turns). Ended positions have no moves."""
    n = stop - start
    outcome = np.zeros(n, dtype=np.int8)
    inside = np.zeros(n, dtype=np.int32)
    hints = np.full(MAX_MOVES, -1, dtype=np.int64)
    targets, out_rows, out_children, out_slots, out_same, t, e, at = _tier_moves_part(
        P, codes, buckets, base, shift, tier, start, start, stop, outcome, inside, hints,
        _room(n),
    )  # fmt: skip
    all_targets, all_rows, all_children = targets[:t], out_rows[:e], out_children[:e]
    all_slots, all_same = out_slots[:e], out_same[: e if HAS_TO_MOVE else 0]
    while at < stop:  # (parts joined two arrays at a time: see ``_room``)
        targets, out_rows, out_children, out_slots, out_same, t, e, at = _tier_moves_part(
            P, codes, buckets, base, shift, tier, start, at, stop, outcome, inside, hints,
            _room(stop - at),
        )  # fmt: skip
        all_targets = np.concatenate((all_targets, targets[:t]))
        all_rows = np.concatenate((all_rows, out_rows[:e]))
        all_children = np.concatenate((all_children, out_children[:e]))
        all_slots = np.concatenate((all_slots, out_slots[:e]))
        all_same = np.concatenate((all_same, out_same[: e if HAS_TO_MOVE else 0]))
    return outcome, inside, all_targets, all_rows, all_children, all_slots, all_same


def _tier_moves_part(
    P: Any,
    codes: Any,
    buckets: Any,
    base: int,
    shift: int,
    tier: int,
    start: int,
    first: int,
    stop: int,
    outcome: Any,
    inside: Any,
    hints: Any,
    cap: int,
) -> Any:
    """``tier_moves`` of indices [first, stop) of a window starting at ``start`` while
    ``cap`` leaves room for a position's moves: (targets, out_rows, out_children,
    out_slots, out_same, targets' count, moves out's count, the index it stopped before)."""
    targets = np.empty(cap, dtype=np.int32)
    out_rows = np.empty(cap, dtype=np.int32)
    out_children = np.empty(cap, dtype=np.int64)
    out_slots = np.empty(cap, dtype=np.int16)
    out_same = np.empty(cap if HAS_TO_MOVE else 0, dtype=np.uint8)
    buffer = np.empty(MAX_MOVES, dtype=np.int64)
    t = 0
    e = 0
    for i in range(first, stop):
        if t + MAX_MOVES > cap or e + MAX_MOVES > cap:
            return targets, out_rows, out_children, out_slots, out_same, t, e, i
        s = codes[i]
        o = _outcome(P, s)
        outcome[i - start] = o
        if o != 0:
            continue
        k = _moves(P, s, buffer)
        mover = _to_move(P, s) if HAS_TO_MOVE else 0
        for j in range(k):
            played = _play(P, s, buffer[j])
            # Who moves is asked of the child as played: a key may hand the turn to the
            # other player (a symmetry swapping the players' labels).
            same = HAS_TO_MOVE and _to_move(P, played) == mover
            child = _key(P, played)
            at = -1
            if _tier(P, child) == tier:
                at = find_near(codes, buckets, base, shift, child, hints[j])
            if at >= 0:
                hints[j] = at
                targets[t] = ~at if same else at
                t += 1
                inside[i - start] += 1
            else:
                out_rows[e] = i
                out_children[e] = child
                out_slots[e] = j
                if HAS_TO_MOVE:
                    out_same[e] = 1 if same else 0
                e += 1
    return targets, out_rows, out_children, out_slots, out_same, t, e, stop


def count_backward(targets: Any, offsets: Any) -> None:
    """Count each index's parents inside the tier into ``offsets[index + 1]`` (the moves
    of one window of the tier at a time: see ``fill_backward``; ~index for an extra turn)."""
    for e in range(targets.shape[0]):
        at = targets[e]
        offsets[(~at if at < 0 else at) + 1] += 1


def fill_backward(inside: Any, targets: Any, start: int, fill: Any, parents: Any) -> None:
    """Turn around the moves of the window that starts at index ``start`` (its counts of
    moves inside and their targets): parent i of index j goes to ``parents[fill[j]]``, and
    fill[j] moves on. With ``fill`` the prefix sums of the counts, every window filled in
    index order, the parents of j end as parents[offsets[j]:offsets[j + 1]], in order. A
    move that keeps the player to move (target ~j) leaves its parent as ~i."""
    e = 0
    for k in range(inside.shape[0]):
        for _ in range(inside[k]):
            at = targets[e]
            if at < 0:
                at = ~at
                parents[fill[at]] = ~(start + k)
            else:
                parents[fill[at]] = start + k
            fill[at] += 1
            e += 1


def gather_parents(codes: Any, offsets: Any, parents: Any, ranks: Any) -> Any:
    """(rows, parent codes): for each queried rank, the codes of its parents."""
    total = 0
    for q in range(ranks.shape[0]):
        a = ranks[q]
        if a >= 0:
            total += offsets[a + 1] - offsets[a]
    rows = np.empty(total, dtype=np.int64)
    found = np.empty(total, dtype=np.int64)
    e = 0
    for q in range(ranks.shape[0]):
        a = ranks[q]
        if a < 0:
            continue
        for t in range(offsets[a], offsets[a + 1]):
            rows[e] = q
            found[e] = codes[parents[t]]
            e += 1
    return rows, found


def start(P: Any) -> int:
    """The start, keyed."""
    return int(_key(P, _start(P)))
