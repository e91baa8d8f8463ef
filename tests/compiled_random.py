"""Random compiled games for the tests of ``perfectplay.compiled_games``.

Every rule is a deterministic pseudo-random function of (seed, state), computed by a small
integer hash that numba compiles and plain Python runs alike (32-bit words, products below
2**59: no overflow in either). States are 0..n-1 and the start is 0.

Parameters (in this order in ``p``): seed, n (states), degree (at most that many moves),
mode (where a move may lead: 0 anywhere; 1 the same tier or the next, 2 one of the next
two tiers, 3 the next tier only), block (states per tier: tier = state // block), sym (the
rules read only a state's class s >> 1, so s and s ^ 1 are interchangeable: a key merging
them, s & ~1, is a true symmetry; block is then even). Mode 0 in a tier game lowers tiers:
only for the test of that error.

A move is a label whose low 3 bits say which of the state's moves it is, so ``play`` really
reads the move it is given; a state ends by a random WIN / LOSS / TIE about one time in
eight (never the start), and a state that goes on with no move (one in eight) has lost.
"""

from __future__ import annotations

import numpy as np

from perfectplay.compiled_games import ONGOING, CompiledGame

M32 = 0xFFFFFFFF


def mix(x):
    """A 32-bit avalanche hash (x in 0..2**32-1)."""
    x = ((x >> 16) ^ x) * 0x45D9F3B & M32
    x = ((x >> 16) ^ x) * 0x45D9F3B & M32
    return (x >> 16) ^ x


def rnd(seed, s, salt):
    """A pseudo-random 32-bit word for (seed, state, salt)."""
    return mix((mix((seed * 0x9E3779B1 + salt * 0x85EBCA6B) & M32) ^ s) & M32)


def rule_state(p, s):
    """What the rules read of a state: its class under the symmetry (sym) or itself."""
    return s >> 1 if p[5] else s


def degree_of(p, s):
    """How many moves a state has (0 when its range of children is empty)."""
    if children_start(p, s) >= p[1]:
        return 0
    r = rnd(p[0], rule_state(p, s), 1)
    if rule_state(p, s) == 0:
        return p[2]
    return 0 if r % 8 == 0 else 1 + (r >> 3) % p[2]


def children_start(p, s):
    """The smallest state a move of s may lead to."""
    mode, block = p[3], p[4]
    if mode == 0:
        return 0
    if mode == 1:
        return (s // block) * block
    return (s // block + 1) * block


def child_of(p, s, j):
    """The state the j-th move of s leads to."""
    n, mode, block = p[1], p[3], p[4]
    lo = children_start(p, s)
    hi = min(n, lo + block) if mode == 3 else min(n, lo + 2 * block) if mode else n
    return lo + rnd(p[0], rule_state(p, s), 10 + j) % (hi - lo)


def random_end(p, s):
    """ONGOING, or WIN / LOSS / TIE for the player to move."""
    if rule_state(p, s) == 0:
        return ONGOING
    r = rnd(p[0], rule_state(p, s), 2) % 24
    return r + 1 if r < 3 else ONGOING


class RandomGame(CompiledGame):
    """A random graph over n states: cycles, draws, dead ends."""

    seed: int = 0
    n: int = 200
    degree: int = 3
    mode: int = 0
    block: int = 20
    sym: bool = False
    max_moves = 8

    def start(p):
        return 0

    def moves(p, s, out):
        k = degree_of(p, s)
        for j in range(k):
            out[j] = (rnd(p[0], rule_state(p, s), 50 + j) % 1000) * 8 + j
        return k

    def play(p, s, m):
        return child_of(p, s, m & 7)

    def outcome(p, s):
        return random_end(p, s)


def random_turn(p, s):
    return rnd(p[0], rule_state(p, s), 3) & 1


class TurnsGame(RandomGame):
    """A random graph whose states say who moves: some moves give another turn."""

    def to_move(p, s):
        return random_turn(p, s)


class KeyGame(RandomGame):
    """A random graph whose states come in interchangeable pairs, merged by a key."""

    sym: bool = True

    def key(p, s):
        return s - (s & 1)


class TurnsKeyGame(KeyGame):
    """Pairs merged by a key, and extra turns."""

    def to_move(p, s):
        return random_turn(p, s)


def swapped_turn(p, s):
    """Who moves at s when s and s ^ 1 are the same position with the players' labels
    swapped: the class's random label, flipped by the low bit."""
    return random_turn(p, s) ^ (s & 1)


class SwapKeyTurnsGame(KeyGame):
    """Pairs merged by a key that changes who is to move (s ^ 1 is s with the players'
    labels swapped: the moves of s ^ 1 lead to the children of s, each ^ 1), and extra
    turns. Whether a move keeps the player is the same from s and from s ^ 1."""

    def play(p, s, m):
        return child_of(p, s, m & 7) ^ (s & 1)

    def to_move(p, s):
        return swapped_turn(p, s)


class SwapKeyGame(KeyGame):
    """Pairs merged by a key that changes who is to move, and no extra turns: the low bit
    is the player to move, and every move hands the turn over."""

    def play(p, s, m):
        return (child_of(p, s, m & 7) & ~1) | (1 - (s & 1))

    def to_move(p, s):
        return s & 1


class TierGame(RandomGame):
    """Random tiers: tier = state // block, moves never lower it (mode 1: loopy tiers)."""

    mode: int = 1
    n: int = 120

    def tier(p, s):
        return s // p[4]


class TierTurnsGame(TierGame):
    """Random tiers with extra turns."""

    def to_move(p, s):
        return random_turn(p, s)


class TierKeyGame(TierGame):
    """Random tiers whose states come in pairs merged by a key (block is even)."""

    sym: bool = True

    def key(p, s):
        return s - (s & 1)


class TierSwapKeyTurnsGame(TierKeyGame):
    """Random tiers, a key that changes who is to move, and extra turns."""

    def play(p, s, m):
        return child_of(p, s, m & 7) ^ (s & 1)

    def to_move(p, s):
        return swapped_turn(p, s)


class TierSwapKeyGame(TierKeyGame):
    """Random tiers, a key that changes who is to move, every move handing the turn over."""

    def play(p, s, m):
        return (child_of(p, s, m & 7) & ~1) | (1 - (s & 1))

    def to_move(p, s):
        return s & 1


class TierUnmovesGame(TierGame):
    """Random loopy tiers that also list their un-moves inside a tier, found by scanning
    the tier: every state of it that goes on and has a move to s, once per such move (the
    rules cannot know which of those states play reaches)."""

    max_moves = 64

    def unmoves(p, s, out):
        return scanned_parents(p, s, out, False)


class TierAllUnmovesGame(TierUnmovesGame):
    """TierUnmovesGame whose un-moves also list the parents in the tier before (moves
    that led into s's tier): the tier protocol's un-moves leave those out."""

    def unmoves(p, s, out):
        return scanned_parents(p, s, out, False, 1)


def scanned_parents(p, s, out, pairs, before=0):
    """The states of s's tier (and of the ``before`` tiers below it) that go on and have a
    move to s (with ``pairs``, to s or the other state of its pair), once per such move;
    -1 when ``out`` is too short."""
    block = p[4]
    hi = min(p[1], (s // block) * block + block)
    lo = max(0, (s // block - before) * block)
    count = 0
    for t in range(lo, hi):
        if random_end(p, t) != ONGOING:
            continue
        for j in range(degree_of(p, t)):
            child = child_of(p, t, j)
            if child == s or (pairs and child - (child & 1) == s - (s & 1)):
                if count == out.shape[0]:
                    return -1
                out[count] = t
                count += 1
    return count


class TierKeyUnmovesGame(TierUnmovesGame):
    """Random loopy tiers with un-moves, states in pairs merged by a key (block is even):
    a state may move to both states of a pair, two moves to one position. The pair's
    states have the same moves, not mirrored ones, so the un-moves of s list the states
    with a move to either state of its pair (those of s alone would miss some)."""

    sym: bool = True

    def key(p, s):
        return s - (s & 1)

    def unmoves(p, s, out):
        return scanned_parents(p, s, out, True)


def upward_moves(p, s, out):
    """The random scored game's moves of a state that goes on: none one time in 16."""
    r = rnd(p[0], s, 1)
    k = p[2] if s == 0 else 0 if r % 16 == 0 else 1 + (r >> 4) % p[2]
    for j in range(k):
        out[j] = j * 8 + 5
    return k


def upward_child(p, s, m):
    """Where a move of the random scored game leads: 1..6 states further."""
    lo = s + 1
    return lo + rnd(p[0], s, 10 + m // 8) % min(p[1] - lo, 6)


class ScoredGame(CompiledGame):
    """A random scored game without cycles (a move leads 1..6 states further): ends (one
    state in 16, and the last) score -5..5 for the player to move, a state that goes on with
    no move (one in 16) is worth -inf."""

    seed: int = 0
    n: int = 60
    degree: int = 3
    scored = True
    max_moves = 8

    def start(p):
        return 0

    def moves(p, s, out):
        if s + 1 >= p[1]:
            return 0
        return upward_moves(p, s, out)

    def play(p, s, m):
        return upward_child(p, s, m)

    def outcome(p, s):
        if s + 1 >= p[1] or (s != 0 and rnd(p[0], s, 2) % 16 == 0):
            return float(rnd(p[0], s, 4) % 11) - 5.0
        return np.nan


class RewardGame(ScoredGame):
    """The random scored game whose moves earn -3..3 points for the mover."""

    def reward(p, s, m):
        return float(rnd(p[0], s, 20 + m // 8) % 7) - 3.0


class RewardTurnsGame(RewardGame):
    """Rewards and extra turns."""

    def to_move(p, s):
        return rnd(p[0], s, 3) & 1


class TierScoredGame(ScoredGame):
    """The random scored game in tiers of ``block`` states: a move leads 1..6 states
    further, so into the same tier (moves inside a tier, never a cycle) or later ones."""

    block: int = 7

    def tier(p, s):
        return s // p[3]


class TierRewardTurnsGame(RewardTurnsGame):
    """Tiers, rewards and extra turns."""

    block: int = 7

    def tier(p, s):
        return s // p[3]


class TierScoredLoopGame(TierScoredGame):
    """A scored game whose last states loop inside their tier: refused, one line."""

    def moves(p, s, out):
        if s + 2 >= p[1]:
            out[0] = 5
            return 1
        return upward_moves(p, s, out)

    def play(p, s, m):
        if s + 2 >= p[1]:
            return s + 1 if s + 2 == p[1] else s - 1
        return upward_child(p, s, m)

    def outcome(p, s):
        if s + 2 < p[1] and s != 0 and rnd(p[0], s, 2) % 16 == 0:
            return float(rnd(p[0], s, 4) % 11) - 5.0
        return np.nan
