"""The compiled alpha-beta search: the template ``compiled_search`` compiles per game.

A template (see ``perfectplay.specialised``): ``compiled_search`` copies this file per
game's compiled rules, sets the globals below to the rules' functions and score range, and
compiles it with numba's disk cache when the rules are cached themselves (their ``ident``),
so a fresh process loads the search instead of compiling it. The scheme and the contract
are on ``compiled_search``'s page.
"""

from typing import Any

from perfectplay.protocol import NOT_OVER

LOW = 0
"""The least score (the rules' min_score)."""
UPPERS = 1
"""Table codes 1..UPPERS are upper bounds ``code + LOW - 1``; above, lower bounds."""
TURNS = False
"""Whether a move may keep the turn (the rules give ``keeps``): its child's score is then
the mover's own, not negated."""
REWARDS = False
"""Whether moves earn points for the mover (the rules give ``reward``)."""
SOFT = False
"""Fail-soft (the rules' ``fail_soft``): a search that fails low returns the best score it
saw, not alpha. Wide score ranges need it (each narrowing step then moves to a score met,
not to the middle of the range); others keep fail-hard, whose node counts the C reference
of Connect Four's search shares."""
MTD_PASSES = 16
"""Fail-soft narrowing steps to the last bound (MTD(f)) this many times, then halves."""
KEY_WORDS = 0
"""0: ``key`` gives the position's own unique key, which the table keeps (masked). Else the
table keeps, per entry, the ``KEY_WORDS`` words of the row from column ``KEY_FROM`` (the
position's canonical words, which ``key`` leaves there), and ``key`` gives their hash,
which only chooses the entry: states wider than one key (two 36-bit boards)."""
KEY_FROM = 0
"""The row's first column of the words the table keeps (with KEY_WORDS)."""
PAIRS = False
"""Whether the table's entries go in pairs (the rules' ``table_pairs``): a key may sit in
either entry of its pair; the first keeps the larger subtree (the bits of the nodes
searched under it), the second the latest; an entry pushed from the first moves to the
second."""
PROGRESS_EVERY = 1 << 16
"""Nodes between two updates of the progress count another thread reads."""
FOLD = False
"""Whether the table keys row p by ``fold(s, p, db)`` (the rules give it) and not ``key``."""
SHARED = False
"""Whether threads share the table (``parallel``): each entry then has a seal, a hash of
its key, bound and move written after them, and an entry read whose seal does not match
(another thread wrote it meanwhile) is taken as empty; every thread stops (``halt``) once
one has its answer."""
HELPER_ROWS = 4
"""Rows where a helper thread (``helper`` true) tries the moves after the first in the
reverse order: it keeps the likely best first, and meets the other moves' subtrees in an
order the other thread does not, leaving their bounds in the shared table."""
HALT_EVERY = 1 << 12
"""Nodes between two looks at ``halt``, a thread sharing the table."""
TABLE_MOVES = False
"""Whether the table keeps, with a lower bound, the move that proved it (its place in the
game's order, in ``hints``), tried first when the position is met again: the narrowing
searches meet every position several times."""


def end(s: Any, p: int) -> int:  # the game's, set per copy
    raise NotImplementedError


def bounds(s: Any, p: int) -> tuple[int, int]:  # the game's, set per copy
    raise NotImplementedError


def moves(s: Any, p: int, out: Any) -> int:  # the game's, set per copy
    raise NotImplementedError


def play(s: Any, p: int, move: int) -> None:  # the game's, set per copy
    raise NotImplementedError


def key(s: Any, p: int) -> int:  # the game's, set per copy
    raise NotImplementedError


def probe(s: Any, p: int, db: Any) -> int:  # the game's when it reads a tablebase
    """No tablebase: nothing is known beyond ``end``."""
    return NOT_OVER


def fold(s: Any, p: int, db: Any) -> int:  # the game's when FOLD
    """Row p's key read through ``db``."""
    return 0


def tabled(s: Any, p: int) -> bool:  # the game's when it gives one
    """Every position is kept in the table."""
    return True


def table_key(s: Any, p: int, db: Any) -> int:
    """Row p's key in the table: ``fold``'s when the rules give it, else ``key``'s."""
    if FOLD:
        folded: int = fold(s, p, db)
        return folded
    k: int = key(s, p)
    return k


def keeps(s: Any, p: int) -> bool:  # the game's when TURNS
    """Whether the mover of row p moves again in row p + 1."""
    return False


def reward(s: Any, p: int, move: int) -> int:  # the game's when REWARDS
    """The points ``move`` earns the mover of row p."""
    return 0


def held(keys: Any, slot: int, k: int, key_mask: int, s: Any, p: int) -> bool:
    """Whether the table's entry ``slot`` is row p's (key k)."""
    if KEY_WORDS == 0:
        return bool(keys[slot] == (k & key_mask))
    at = slot * KEY_WORDS
    for w in range(KEY_WORDS):  # noqa: SIM110 (numba: a plain loop)
        if keys[at + w] != s[p, KEY_FROM + w]:
            return False
    return True


def hold(keys: Any, slot: int, k: int, key_mask: int, s: Any, p: int) -> None:
    """Make the table's entry ``slot`` row p's (key k)."""
    if KEY_WORDS == 0:
        keys[slot] = k & key_mask
    else:
        at = slot * KEY_WORDS
        for w in range(KEY_WORDS):
            keys[at + w] = s[p, KEY_FROM + w]


def index_of(k: int, size: int) -> int:
    """The table's entry for key k (with PAIRS, the first of its pair)."""
    if PAIRS:
        return (k % (size >> 1)) * 2
    return k % size


def log_work(n: int) -> int:
    """The nodes of a subtree, as the table keeps them: the bits of n, at most 255."""
    bits = 0
    while n > 0 and bits < 255:
        n >>= 1
        bits += 1
    return bits


def move_entry(keys: Any, vals: Any, hints: Any, checks: Any, works: Any, a: int, b: int) -> None:
    """Entry a copied onto entry b, whole (its key words, bound, move, seal, work)."""
    if KEY_WORDS == 0:
        keys[b] = keys[a]
    else:
        for w in range(KEY_WORDS):
            keys[b * KEY_WORDS + w] = keys[a * KEY_WORDS + w]
    vals[b] = vals[a]
    if TABLE_MOVES:
        hints[b] = hints[a]
    if SHARED:
        checks[b] = checks[a]
    works[b] = works[a]


def keep(
    keys: Any, vals: Any, hints: Any, checks: Any, works: Any, slot: int, k: int,
    key_mask: int, s: Any, p: int, code: int, hint: int, work: int,
) -> None:  # fmt: skip
    """Row p's bound ``code`` (and move ``hint``) kept in the table at ``slot`` (key k);
    with PAIRS, in the first entry of the pair when row p holds it already or its subtree
    is at least as large as the first's (whose entry then moves to the second), else in
    the second."""
    if PAIRS:
        lg = log_work(work)
        if held(keys, slot, k, key_mask, s, p):
            if lg < works[slot]:
                lg = works[slot]
        elif lg >= works[slot]:
            if vals[slot] != 0:
                move_entry(keys, vals, hints, checks, works, slot, slot + 1)
        else:
            slot += 1
        works[slot] = lg
    hold(keys, slot, k, key_mask, s, p)
    vals[slot] = code
    if TABLE_MOVES:
        hints[slot] = hint
    if SHARED:
        checks[slot] = seal(k, code, hint)


def seal(k: int, code: int, hint: int) -> int:
    """An entry's seal: a hash of its key ``k``, xor its bound's code (32 bits) and move
    (16 bits above them). For one key, two entries have the same seal only if they hold
    the same code and move; a read mixing two keys' writes passes only if the two keys'
    hashes differ by exactly what their codes and moves do (about one chance in 2**63)."""
    h = (k * 0x2545F4914F6CDD1D) & 0x7FFFFFFFFFFFFFFF
    h ^= h >> 31
    return h ^ (code & 0xFFFFFFFF) ^ ((hint & 0xFFFF) << 32)


def reverse_after_first(out: Any, p: int, n: int) -> None:
    """Row p's moves after the first in the reverse order (a helper thread's)."""
    i = 1
    j = n - 1
    while i < j:
        m = out[p, i]
        out[p, i] = out[p, j]
        out[p, j] = m
        i += 1
        j -= 1


def first_hint(out: Any, p: int, hint: int, n: int) -> None:
    """Move the table's move (the ``hint``-th of the game's order, 1-based) to the front of
    row p's moves, the others kept in order."""
    if 1 < hint <= n:
        m = out[p, hint - 1]
        for j in range(hint - 1, 0, -1):
            out[p, j] = out[p, j - 1]
        out[p, 0] = m


def hint_of(stack: Any, p: int) -> int:
    """The place (1-based) in the game's order of row p's move being searched, its moves
    having been reordered by ``first_hint`` with the hint stack[p, 8] (and by a helper,
    stack[p, 9], the moves after the first reversed)."""
    i: int = stack[p, 3]  # (the searched move's place in the reordered row, 1-based)
    if SHARED and stack[p, 9] != 0 and i > 1:
        i = stack[p, 2] + 2 - i
    hint: int = stack[p, 8]
    if hint <= 1 or i > hint:
        return i
    if i == 1:
        return hint
    return i - 1


def descend(s: Any, p: int, move: int, stack: Any) -> tuple[int, int]:
    """Play ``move`` from row p into row p + 1, note how the child's score counts for row p
    (stack[p, 5]: 1 kept, -1 negated; stack[p, 6]: the reward) and give the child's window
    for row p's (stack[p, 0], stack[p, 1])."""
    play(s, p, move)
    if not TURNS and not REWARDS:  # (constants: Pons' negamax, nothing noted)
        return -stack[p, 1], -stack[p, 0]
    kept = False
    if TURNS:
        kept = keeps(s, p)
    earned = 0
    if REWARDS:
        earned = reward(s, p, move)
    stack[p, 5] = 1 if kept else -1
    stack[p, 6] = earned
    a = stack[p, 0]
    b = stack[p, 1]
    if not REWARDS:
        return (a, b) if kept else (-b, -a)
    if kept:
        return child_end(a, earned, False, False), child_end(b, earned, False, True)
    return child_end(b, earned, True, False), child_end(a, earned, True, True)


def child_end(x: int, earned: int, flip: bool, upper: bool) -> int:
    """An end ``x`` of row p's window as an end of its child's, through a move earning
    ``earned`` that keeps the turn (child = x - earned) or passes it (``flip``: child =
    earned - x), kept in the score range: the range's ends (-inf and +inf, which no
    reward moves) stay ends; a finite end stays finite, a window's lower end at most the
    largest finite score, its upper end at least the least (a finite bound moved onto an
    end would ask whether the score is infinite, not whether it reaches the bound: a
    wrong answer)."""
    high = LOW + UPPERS - 1
    if x in (LOW, high):
        return LOW + high - x if flip else x
    y = earned - x if flip else x - earned
    if upper:
        return min(max(y, LOW + 1), high)
    return min(max(y, LOW), high - 1)


def negamax(
    s: Any,
    alpha: int,
    beta: int,
    keys: Any,
    vals: Any,
    hints: Any,
    works: Any,
    key_mask: int,
    out: Any,
    stack: Any,
    db: Any,
    progress: Any,
    checks: Any,
    halt: Any,
    helper: bool,
) -> tuple[int, int, bool, int]:
    """One null-window (or any-window) alpha-beta search of row 0 on an explicit stack:
    (score, nodes, whether a root move cut, that move). stack[p] = (alpha, beta, number
    of moves, next move, key, sign and reward of the move being searched, best score, the
    table's move, a helper's order, the nodes counted when it was entered or -1 when it is
    not kept in the table) of the state on row p; ``db`` goes to ``probe``; ``progress[0]`` grows by
    ``PROGRESS_EVERY`` every so many nodes (read by another thread: the search holds no GIL).
    A row's score is its mover's: the reward plus the child's score, negated unless the
    move kept the turn. SHARED: ``checks`` the entries' seals; a thread that finds
    ``halt[0]`` set stops and returns NOT_OVER (another has the answer); one that ends
    sets it; ``helper``: reorders as HELPER_ROWS says."""
    size = vals.shape[0]
    nodes = 0
    cut = False
    cut_move = 0
    p = 0
    a = alpha
    b = beta
    ret = 0
    entering = True
    while True:
        if entering:
            nodes += 1
            if nodes % PROGRESS_EVERY == 0:
                progress[0] += PROGRESS_EVERY
            if SHARED and nodes % HALT_EVERY == 0 and halt[0] != 0:
                return NOT_OVER, nodes, False, 0
            ret = end(s, p)
            if ret == NOT_OVER:
                ret = probe(s, p, db)
            settled = ret != NOT_OVER
            if not settled:
                lo, hi = bounds(s, p)
                if a < lo:
                    a = lo
                    if a >= b:
                        ret = a
                        settled = True
                if not settled and b > hi:
                    b = hi
                    if a >= b:
                        ret = b
                        settled = True
            kept = False
            k = 0
            hint = 0
            if not settled:
                kept = tabled(s, p)
            if kept:
                k = table_key(s, p, db)
                slot = index_of(k, size)
                code = 0
                found = held(keys, slot, k, key_mask, s, p)
                if PAIRS and not found:  # (the second entry of the pair)
                    slot += 1
                    found = held(keys, slot, k, key_mask, s, p)
                if found:
                    code = int(vals[slot])
                    if TABLE_MOVES:
                        hint = int(hints[slot])
                    if SHARED and checks[slot] != seal(k, code, hint):
                        code = 0  # (torn by another thread's write: as if empty)
                        hint = 0
                if code > UPPERS:
                    bound = code - UPPERS + LOW - 1
                    if a < bound:
                        a = bound
                        if a >= b:
                            ret = a
                            settled = True
                elif code > 0:
                    bound = code + LOW - 1
                    if b > bound:
                        b = bound
                        if a >= b:
                            ret = b
                            settled = True
            if not settled:
                n = moves(s, p, out)
                if n < 1:
                    ret = lo  # no move: the mover has lost (normal play), its least score
                else:
                    if p + 2 >= s.shape[0]:
                        raise ValueError("compiled rules: a game longer than max_plies")
                    stack[p, 0] = a
                    stack[p, 1] = b
                    stack[p, 2] = n
                    stack[p, 3] = 1
                    stack[p, 4] = k
                    stack[p, 10] = nodes if kept else -1  # (-1: not kept in the table)
                    if SOFT:
                        stack[p, 7] = NOT_OVER  # (the best score met: none yet)
                    if TABLE_MOVES:
                        if hint > n:
                            hint = 0  # (a symmetric position's move: no place here)
                        stack[p, 8] = hint
                        first_hint(out, p, hint, n)
                    if SHARED:
                        stack[p, 9] = 0
                        if helper and p < HELPER_ROWS and n > 2:
                            stack[p, 9] = 1
                            reverse_after_first(out, p, n)
                    a, b = descend(s, p, out[p, 0], stack)
                    p += 1
                    continue
            entering = False
        # ret is the score of row p: give it to row p - 1.
        if p == 0:
            if SHARED:
                halt[0] = 1
            return ret, nodes, cut, cut_move
        p -= 1
        score = -ret
        if TURNS and stack[p, 5] > 0:  # (a constant: numba drops the test when False)
            score = ret
        if REWARDS and LOW < score < LOW + UPPERS - 1:  # (the ends, -inf and +inf, stay)
            score += stack[p, 6]
            if score <= LOW or score >= LOW + UPPERS - 1:
                raise ValueError("compiled rules: a score beyond the search's range")
        if SOFT and score > stack[p, 7]:
            stack[p, 7] = score
        k = stack[p, 4]
        slot = index_of(k, size)
        if score >= stack[p, 1]:
            if p == 0:
                cut = True
                cut_move = out[0, stack[0, 3] - 1]
            code = score - LOW + 1 + UPPERS
            hint = 0
            if TABLE_MOVES:
                hint = hint_of(stack, p)
            if stack[p, 10] >= 0:  # (-1: not kept in the table)
                keep(keys, vals, hints, checks, works, slot, k, key_mask, s, p, code, hint,
                     nodes - stack[p, 10])  # fmt: skip
            ret = score
            continue
        if score > stack[p, 0]:
            stack[p, 0] = score
        i = stack[p, 3]
        if i < stack[p, 2]:
            stack[p, 3] = i + 1
            a, b = descend(s, p, out[p, i], stack)
            p += 1
            entering = True
            continue
        ret = stack[p, 0]
        if SOFT:
            ret = stack[p, 7]
        code = ret - LOW + 1
        hint = 0
        if TABLE_MOVES:
            hint = stack[p, 8]  # (failed low: the move it had, if any, kept)
        if stack[p, 10] >= 0:  # (-1: not kept in the table)
            keep(keys, vals, hints, checks, works, slot, k, key_mask, s, p, code, hint,
                 nodes - stack[p, 10])  # fmt: skip


def half(x: int) -> int:
    """x / 2 rounded toward 0, as C does."""
    return x // 2 if x >= 0 else -((-x) // 2)


def known_at_root(s: Any, db: Any) -> int:
    """Row 0's score when ``end`` or the tablebase knows it at once, else NOT_OVER."""
    first: int = end(s, 0)
    if first == NOT_OVER:
        first = probe(s, 0, db)
    return first


def root_bounds(s: Any) -> tuple[int, int]:
    """The bounds of row 0's score the game gives."""
    lo: int
    hi: int
    lo, hi = bounds(s, 0)
    return lo, hi


def next_window(lo: int, hi: int, guess: int, passes: int) -> int:
    """The next window (med, med + 1) narrowing ``lo <= score <= hi``: fail-hard (Pons),
    halving the bounds, tried near 0 first; fail-soft, MTD(f): at ``guess``, the bound the
    last search returned (a search near the score is the costly one: the next is one step
    away, not half the range), halving again after ``MTD_PASSES`` windows. The driver
    (``CompiledSearch.score``) runs one ``negamax`` a window."""
    if SOFT and passes < MTD_PASSES:
        return min(max(guess, lo), hi - 1)
    med = lo + (hi - lo) // 2
    if med <= 0 and half(lo) < med:
        med = half(lo)
    elif med >= 0 and half(hi) > med:
        med = half(hi)
    return med


def key_after(s: Any, move: int, db: Any) -> int:
    """The table key of row 0 after ``move``."""
    play(s, 0, move)
    k: int = table_key(s, 1, db)
    return k


def key_of(s: Any, db: Any) -> int:
    """The table key of row 0."""
    k: int = table_key(s, 0, db)
    return k
