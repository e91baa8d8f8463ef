"""A proof replayed with a game's compiled rules: the template ``proof_tree`` compiles per
game (see ``perfectplay.core.specialised``).

The rules are the compiled game's own, as the search's hooks call them (``end``, ``moves``,
``play``, ``keeps``, ``reward``: the game's ``outcome``, ``moves``, ``play``, ``to_move`` and
``reward`` in its own order); no search, no table. A proof's nodes come in an order where
every child follows its parent (``proof_tree`` checks that first, so no claim rests on
itself), and a node's position is known once a parent has reached it: one pass over the
ids replays the whole proof. Scores are the search's integers, ``LOW`` and ``HIGH`` the
range's ends (a scored game's -inf and +inf: a mover left with no move, and its opponent).
"""

from typing import Any

from perfectplay.protocol import NOT_OVER

LOW = -1
"""The least score: a loss, or a scored game's -inf."""
HIGH = 1
"""The greatest: a win, or a scored game's +inf."""
SW = 1
"""The words of a position (the row's first; a wide game's canonical words follow)."""
TURNS = False
"""Whether a move may keep the turn (the rules give ``keeps``)."""
REWARDS = False
"""Whether moves earn points (the rules give ``reward``)."""
AT_LEAST = 0
AT_MOST = 1

# What a failed replay found (``fail[2]``); proof_tree words them.
OK = 0
OVER = 1
"""A node at a position the game is over in."""
NO_SUCH_MOVE = 2
"""An at-least node naming a move the position does not have."""
REPLIES = 3
"""An at-most node whose children are not one a legal move."""
GOES_ON = 4
"""A child marked as an end where the game goes on."""
ENDS_SHORT = 5
"""A child where the game ends at a score the claim does not meet."""
WEAK_CHILD = 6
"""A child node claiming less than its parent needs."""
OTHER_POSITION = 7
"""A child node first reached at another position."""
LEAF_SHORT = 8
"""A searched leaf whose search does not prove the claim."""
SEARCHED = -1
"""A child the checker proves by its own search (``leaf_search``), not a node."""
LEAF_TOO_DEEP = 9
"""A searched leaf whose search meets a line longer than the game's max_plies."""
TOO_DEEP = NOT_OVER + 1
"""``leaf_search``'s answer on a line longer than its rows."""
UNBOUNDED = 1 << 62
"""``leaf_search``'s budget for a search that must finish."""


def end(s: Any, p: int) -> int:  # the game's, set per copy
    raise NotImplementedError


def moves(s: Any, p: int, out: Any) -> int:  # the game's, set per copy
    raise NotImplementedError


def play(s: Any, p: int, move: int) -> None:  # the game's, set per copy
    raise NotImplementedError


def keeps(s: Any, p: int) -> bool:  # the game's when TURNS
    return False


def reward(s: Any, p: int, move: int) -> int:  # the game's when REWARDS
    return 0


def needed(side: int, bound: int, earned: int, kept: bool) -> tuple[int, int]:
    """The claim a child must prove for its parent's ``side bound`` through a move that
    earns ``earned`` and keeps the turn or not. The ends stay ends (-inf less 3 is -inf),
    and a finite bound stays finite: past the finite scores it means "any finite score"
    (a child that must score at most 10**7 may score anything but +inf)."""
    if bound >= HIGH:
        b = HIGH
    elif bound <= LOW:
        b = LOW
    else:
        b = min(max(bound - earned, LOW + 1), HIGH - 1)
    if kept:
        return side, b
    return 1 - side, -b


def holds(side: int, value: int, bound: int) -> bool:
    """Whether a score (or a stronger claim's bound) ``value`` meets ``side bound``."""
    if side == AT_LEAST:
        return value >= bound
    return value <= bound


def trivial(side: int, bound: int) -> bool:
    """Whether every score meets ``side bound`` (no node needed)."""
    if side == AT_LEAST:
        return bound <= LOW
    return bound >= HIGH


def end_of(s: Any, p: int, out: Any) -> int:
    """Row p's score when the game is over there (a mover without a move: LOW), else
    NOT_OVER."""
    e: int = end(s, p)
    if e == NOT_OVER and moves(s, p, out) == 0:
        return LOW
    return e


def combined(earned: int, child: int, kept: bool) -> int:
    """A move's score for its mover from its child's (the ends stay ends)."""
    if child >= HIGH or child <= LOW:
        return child if kept else -child
    return earned + child if kept else earned - child


def leaf_search(
    s: Any, out: Any, stack: Any, alpha: int, beta: int, budget: int
) -> tuple[int, int]:
    """Plain alpha-beta (fail-soft, the rules' order, no table) of row 1's score in the
    window (alpha, beta), on an explicit stack (rows 1, 2, ... of ``s``): (score, nodes),
    or (NOT_OVER, nodes) past ``budget`` nodes, or (TOO_DEEP, nodes) on a line longer
    than the rows (the game's max_plies: positions that repeat?). ``stack[p]``: alpha,
    beta, moves, the move searched, the best score, that move's reward and whether it
    kept the turn."""
    p = 1
    stack[1, 0], stack[1, 1] = alpha, beta
    nodes = 0
    while True:
        nodes += 1  # (entering row p)
        if nodes > budget:
            return NOT_OVER, nodes
        ret = end_of(s, p, out)
        descend = ret == NOT_OVER
        if descend:
            if p + 2 >= s.shape[0]:
                return TOO_DEEP, nodes
            stack[p, 2], stack[p, 3], stack[p, 4] = moves(s, p, out), 0, LOW - 1
        while not descend:  # (row p's score is ret: back to its parent)
            p -= 1
            if p == 0:
                return ret, nodes
            v = combined(stack[p, 5], ret, stack[p, 6] == 1)
            stack[p, 4] = max(stack[p, 4], v)
            stack[p, 0] = max(stack[p, 0], v)
            stack[p, 3] += 1
            descend = v < stack[p, 1] and stack[p, 3] < stack[p, 2]
            ret = stack[p, 4]
        m = out[p, stack[p, 3]]
        play(s, p, m)
        kept = keeps(s, p) if TURNS else False
        r = reward(s, p, m) if REWARDS else 0
        stack[p, 5], stack[p, 6] = r, 1 if kept else 0
        a, b = stack[p, 0], stack[p, 1]
        stack[p + 1, 0], stack[p + 1, 1] = (a - r, b - r) if kept else (r - b, r - a)
        p += 1


def child_ok(
    s: Any, out: Any, i: int, j: int, side: int, bound: int, child: int, tree: Any,
    walk: Any, leaves: Any,
) -> int:  # fmt: skip
    """Whether row 1 (node i's move j's child) meets ``side bound`` as the proof says: an
    end that scores it, node ``child`` claiming as much there (its position kept when first
    met), or a leaf, whose search is left to ``check_leaves`` (listed in ``leaves``)."""
    kind, bounds = tree[0], tree[1]
    states, seen = walk
    if child == SEARCHED:
        node, move, sides, claims, words, count = leaves
        t = count[0]
        node[t], move[t], sides[t], claims[t] = i, j, side, bound
        for w in range(SW):
            words[t, w] = s[1, w]
        count[0] = t + 1
        return OK
    if child == 0:
        if trivial(side, bound):
            return OK
        e = end_of(s, 1, out)
        if e == NOT_OVER:
            return GOES_ON
        return OK if holds(side, e, bound) else ENDS_SHORT
    if kind[child] != side or not holds(side, bounds[child], bound):
        return WEAK_CHILD
    if seen[child]:
        for w in range(SW):
            if states[child, w] != s[1, w]:
                return OTHER_POSITION
        return OK
    seen[child] = True
    for w in range(SW):
        states[child, w] = s[1, w]
    return OK


def through(s: Any, out: Any, i: int, j: int, child: int, tree: Any, walk: Any, leaves: Any) -> int:
    """Node i's move j (in the rules' order, listed in ``out[0]``) played into row 1 and
    its child checked."""
    m = out[0, j]
    play(s, 0, m)
    kept = keeps(s, 0) if TURNS else False
    earned = reward(s, 0, m) if REWARDS else 0
    side, b = needed(tree[0][i], tree[1][i], earned, kept)
    return child_ok(s, out, i, j, side, b, child, tree, walk, leaves)


def node_ok(s: Any, out: Any, i: int, tree: Any, walk: Any, leaves: Any, fail: Any) -> int:
    """Node i checked at the position in row 0: its one move, or every reply."""
    kind, _, choice, first, edges = tree
    if end(s, 0) != NOT_OVER:
        return OVER
    n = moves(s, 0, out)
    if kind[i] == AT_LEAST:
        j = choice[i]
        if j < 0 or j >= n:
            return NO_SUCH_MOVE
        fail[1] = j
        return through(s, out, i, j, edges[first[i]], tree, walk, leaves)
    if choice[i] != n:
        return REPLIES
    for j in range(n):
        fail[1] = j
        code = through(s, out, i, j, edges[first[i] + j], tree, walk, leaves)
        if code != OK:
            return code
    return OK


def replay(
    tree: Any, walk: Any, leaves: Any, s: Any, out: Any, fail: Any, start: int, room: int
) -> int:
    """The nodes a claim reaches from id ``start`` on, in id order (parents first), until
    the last or until ``leaves`` has fewer than ``room`` places left: the id to go on from
    (past the last: done). ``tree``: (kind, bounds, choice, first, edges); ``walk``: the
    positions known (``states``) and which (``seen``: the roots' set beforehand); the
    leaves met are listed, not searched. On a failure, ``fail`` = (node, move index or -1,
    code); ``fail[2]`` stays OK otherwise; ``fail[3]`` counts the nodes checked."""
    kind = tree[0]
    states, seen = walk
    capacity = leaves[0].shape[0]
    for i in range(start, kind.shape[0]):
        if leaves[5][0] + room > capacity:
            return i
        if not seen[i]:
            continue
        for w in range(s.shape[1]):
            s[0, w] = states[i, w] if w < SW else 0
        fail[0] = i
        fail[1] = -1
        code = node_ok(s, out, i, tree, walk, leaves, fail)
        if code != OK:
            fail[2] = code
            return i
        fail[3] += 1
    done: int = kind.shape[0]
    return done


def check_leaves(leaves: Any, first: int, step: int, s: Any, out: Any, stack: Any, why: Any) -> int:
    """The listed leaves ``first``, ``first + step``, ... each searched (``leaf_search``,
    unbounded): the first whose search does not prove its claim (``why[0]``: LEAF_SHORT
    or LEAF_TOO_DEEP), else -1 (threads take interleaved shares: the least of their
    answers is the first leaf that fails)."""
    _, _, sides, claims, words, count = leaves
    for t in range(first, count[0], step):
        for w in range(s.shape[1]):
            s[1, w] = words[t, w] if w < SW else 0
        side, bound = sides[t], claims[t]
        med = bound - 1 if side == AT_LEAST else bound
        score, _ = leaf_search(s, out, stack, med, med + 1, UNBOUNDED)
        if score == TOO_DEEP:
            why[0] = LEAF_TOO_DEEP
            return t
        if not holds(side, score, bound):
            why[0] = LEAF_SHORT
            return t
    return -1
