"""A proof tree grown by the compiled search: the template ``proof_search`` compiles per
game's search (see ``perfectplay.core.specialised``).

Nodes live in arrays (1-based ids; id 0 stands for an end): ``kind`` (AT_LEAST or
AT_MOST), ``bounds``, ``choice`` (an at-least node's move, as its place in the rules'
order; an at-most node's number of moves), ``first`` (the node's first edge) and ``words``
(its position). ``edges`` hold each node's children, one for an at-least node, one a move
for an at-most node. A node waits in ``pending`` until expanded: an at-least node takes
the first move, in the rules' order, whose child the search proves to meet the claim (a
null window on the search's warm table, ``negamax``); an at-most node takes every move. A
claim on a position already in the tree with as strong a bound reuses its node, found in
``index`` (open addressing on the position's words and the claim's side; 0 is empty).

``grow`` works until the pending nodes are done, a budget of expansions is spent (the
caller shows progress and can be interrupted between calls) or the arrays lack room for
one more node's children; the caller then enlarges them (``reindex`` fills a larger
index) and calls again: nothing is lost. ``topological`` orders the finished tree so that
every child follows its parent (the file's order, which lets a checker see that no claim
rests on itself).
"""

from typing import Any

from perfectplay.protocol import NOT_OVER

LOW = -1
"""The least score: a loss, or a scored game's -inf."""
HIGH = 1
"""The greatest: a win, or a scored game's +inf."""
SW = 1
"""The words of a position (the row's first)."""
MAX_MOVES = 1
"""The most moves a position has (the room an expansion may need)."""
TURNS = False
REWARDS = False
AT_LEAST = 0
AT_MOST = 1

SEARCHED = -1
"""An edge to a leaf the checker proves by its own search."""

DONE = 0
"""``grow``: no node pending."""
ROOM = 1
"""``grow``: the arrays or the index need room for one more expansion."""
BUDGET = 2
"""``grow``: the budget of expansions is spent."""
REFUTED = 3
"""``grow``: the search and the rules disagree (no move proves an at-least claim the
search found, or a reply ends the game short of an at-most claim): ``counts[4]`` is the
node."""

# counts: [nodes, edges, pending, expanded, the refuted node]
NODES = 0
EDGES = 1
PENDING = 2
EXPANDED = 3
AT_FAULT = 4


# Set per copy before anything compiles (placeholders here): the game's rules as
# ``proof_replay``'s copy calls them (``end``, ``moves``, ``play``, ``keeps``, ``reward``),
# that copy's helpers (``needed``, ``holds``, ``trivial``, ``end_of``, and ``leaf_search``,
# the checker's own search of a leaf), and the search's ``negamax`` (its table's null
# windows).
end: Any = None
moves: Any = None
play: Any = None
keeps: Any = None
reward: Any = None
needed: Any = None
holds: Any = None
trivial: Any = None
end_of: Any = None
leaf_search: Any = None
negamax: Any = None


def slot_of(index: Any, words: Any, kind: Any, row: Any, side: int) -> int:
    """The index's slot for (row's position, side): the one holding its node, else the
    empty one where it would go."""
    h = (side + 1) * -7046029254386353131  # (odd constants as signed int64)
    for w in range(SW):
        h = (h ^ row[w]) * -4658895280553007687
        h ^= h >> 31
    mask = index.shape[0] - 1
    slot: int = h & mask
    while True:
        t = index[slot]
        if t == 0:
            return slot
        if kind[t] == side:
            same = True
            for w in range(SW):
                if words[t, w] != row[w]:
                    same = False
                    break
            if same:
                return slot
        slot = (slot + 1) & mask


def claim(row: Any, side: int, bound: int, tree: Any) -> int:
    """The node claiming ``side bound`` at row's position: one there as strong, or a new
    one (pending, and the index's for that position and side from now on)."""
    kind, bounds, _, _, words, _, index, pending, counts = tree
    slot = slot_of(index, words, kind, row, side)
    t: int = index[slot]
    if t != 0 and holds(side, bounds[t], bound):
        return t
    t = counts[NODES] + 1
    counts[NODES] = t
    kind[t] = side
    bounds[t] = bound
    for w in range(SW):
        words[t, w] = row[w]
    index[slot] = t
    pending[counts[PENDING]] = t
    counts[PENDING] += 1
    return t


def proves(row: Any, side: int, bound: int, table: Any) -> bool:
    """Whether the search finds row's position's score ``side bound`` (one null window on
    its table)."""
    lane, lane_out, lane_stack, keys, vals, hints, works, key_mask, db, progress, checks, halt = (
        table
    )
    for w in range(lane.shape[1]):
        lane[0, w] = row[w]
    med = bound - 1 if side == AT_LEAST else bound
    halt[0] = 0
    r, _, _, _ = negamax(lane, med, med + 1, keys, vals, hints, works, key_mask, lane_out,
                         lane_stack, db, progress, checks, halt, False)  # fmt: skip
    proven: bool = r > med if side == AT_LEAST else r <= med
    return proven


def leaf(row: Any, side: int, bound: int, deep: Any) -> bool:
    """Whether the checker's own search proves row's position ``side bound`` within the
    leaves' budget of nodes (the child then is a leaf, SEARCHED, not a node)."""
    s, out, stack, budget = deep
    if budget <= 0:
        return False
    for w in range(s.shape[1]):
        s[1, w] = row[w]
    med = bound - 1 if side == AT_LEAST else bound
    score, _ = leaf_search(s, out, stack, med, med + 1, budget)
    small: bool = score > NOT_OVER + 1 and holds(side, score, bound)  # (not past budget or rows)
    return small


def chosen(
    i: int, rows: Any, out: Any, n: int, tree: Any, table: Any, deep: Any
) -> tuple[int, int]:
    """At-least node i (its position in row 0, its n moves in ``out[0]``): the first move
    whose child meets the claim, and that child (0: an end; SEARCHED: a leaf), or (-1, 0)."""
    bounds = tree[1]
    for j in range(n):
        m = out[0, j]
        play(rows, 0, m)
        kept = keeps(rows, 0) if TURNS else False
        side, b = needed(AT_LEAST, bounds[i], reward(rows, 0, m) if REWARDS else 0, kept)
        if trivial(side, b):
            return j, 0
        e = end_of(rows, 1, out)
        if e != NOT_OVER:
            if holds(side, e, b):
                return j, 0
        elif proves(rows[1], side, b, table):
            if leaf(rows[1], side, b, deep):
                return j, SEARCHED
            return j, claim(rows[1], side, b, tree)
    return -1, 0


def replies(i: int, rows: Any, out: Any, n: int, tree: Any, deep: Any) -> bool:
    """At-most node i's children, one a move, into the edges from ``first[i]``; False when
    a reply ends the game short of the claim."""
    bounds, first, edges = tree[1], tree[3], tree[5]
    for j in range(n):
        m = out[0, j]
        play(rows, 0, m)
        kept = keeps(rows, 0) if TURNS else False
        side, b = needed(AT_MOST, bounds[i], reward(rows, 0, m) if REWARDS else 0, kept)
        child = 0
        if not trivial(side, b):
            e = end_of(rows, 1, out)
            if e == NOT_OVER:
                child = SEARCHED if leaf(rows[1], side, b, deep) else claim(rows[1], side, b, tree)
            elif not holds(side, e, b):
                return False
        edges[first[i] + j] = child
    return True


def grow(tree: Any, rows: Any, out: Any, table: Any, deep: Any, budget: int) -> int:
    """Expand pending nodes (the last first) until DONE, BUDGET, ROOM or REFUTED.
    ``tree``: (kind, bounds, choice, first, words, edges, index, pending, counts);
    ``table``: the search's lane and table (``proves``); ``deep``: the leaves' search's
    rows, moves, stack and budget (``leaf``)."""
    kind, _, choice, first, words, edges, index, pending, counts = tree
    done = 0
    while counts[PENDING] > 0:
        room = counts[NODES] + MAX_MOVES + 1
        if room >= kind.shape[0] or counts[EDGES] + MAX_MOVES >= edges.shape[0]:
            return ROOM
        if 2 * room >= index.shape[0]:
            return ROOM
        if done >= budget:
            return BUDGET
        counts[PENDING] -= 1
        i = pending[counts[PENDING]]
        for w in range(rows.shape[1]):
            rows[0, w] = words[i, w] if w < SW else 0
        n = moves(rows, 0, out)
        first[i] = counts[EDGES]
        if kind[i] == AT_LEAST:
            counts[EDGES] += 1
            j, child = chosen(i, rows, out, n, tree, table, deep)
            choice[i] = j
            edges[first[i]] = child
            ok = j >= 0
        else:
            counts[EDGES] += n
            choice[i] = n
            ok = replies(i, rows, out, n, tree, deep)
        if not ok:
            counts[AT_FAULT] = i
            return REFUTED
        done += 1
        counts[EXPANDED] += 1
    return DONE


def reindex(index: Any, kind: Any, bounds: Any, words: Any, nodes: int) -> None:
    """Fill an empty (larger) index with nodes 1..nodes, each position and side's
    strongest (the latest made: a node is made only stronger than the one it replaces)."""
    for t in range(1, nodes + 1):
        slot = slot_of(index, words, kind, words[t], kind[t])
        index[slot] = t


def topological(
    kind: Any, choice: Any, first: Any, edges: Any, nodes: int, order: Any, left: Any
) -> int:
    """``order[k]``: the node to number k + 1, every child after its parents (Kahn's
    algorithm from the nodes nothing points to; ``left`` counts each node's parents not yet
    placed); the count placed, less than ``nodes`` when a claim rests on itself (positions
    that repeat)."""
    left[:] = 0
    for i in range(1, nodes + 1):
        count = 1 if kind[i] == AT_LEAST else choice[i]
        for e in range(first[i], first[i] + count):
            if edges[e] > 0:
                left[edges[e] - 1] += 1
    ready = 0  # (order[placed:ready] waits to be placed: a queue within order)
    for i in range(1, nodes + 1):
        if left[i - 1] == 0:
            order[ready] = i
            ready += 1
    placed = 0
    while placed < ready:
        i = order[placed]
        placed += 1
        count = 1 if kind[i] == AT_LEAST else choice[i]
        for e in range(first[i], first[i] + count):
            c = edges[e]
            if c > 0:
                left[c - 1] -= 1
                if left[c - 1] == 0:
                    order[ready] = c
                    ready += 1
    return placed
