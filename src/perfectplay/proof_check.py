"""Proofs checked against the rules alone (``proof_tree`` has the format).

Two checkers, one walk: the ids in order (every child follows its parent), each node a
claim reaches replayed at its position. ``check_proof`` runs it compiled, with the
game's compiled rules (the search's hooks over the game's own ``outcome``, ``moves``,
``play``, ``to_move`` and ``reward``; ``proof_replay``, some million nodes a second);
``plain=True``, or a game not in the compiled form (a hand-written search's hooks may
leave out moves), replays the plain rules in Python
(thousands of nodes a second), sharing nothing with the compiled code. Both report the
first failure alike: the node, its move, what is wrong.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .core.parallel import THREADS, on_threads
from .errors import GameError
from .proof_tree import (
    AT_LEAST,
    AT_MOST,
    SEARCHED,
    SIDES,
    Header,
    ProofError,
    ProofRefuted,
    Tree,
    game_bound,
    read_proof,
)
from .protocol import SCORE_ENDS
from .rules import Rules
from .values import LOSS, TIE, WIN, Value

# What a replay found wrong (the codes of ``proof_replay``), in words.
PROBLEMS = {
    1: "moves from a position the game is over in",
    2: "names a move the position does not have",
    3: "has not one child a legal move",
    4: "ends there, yet the game goes on",
    5: "ends there at a score short of the claim",
    6: "goes to a node claiming less than is needed",
    7: "goes to a node first met at another position",
    8: "goes to a leaf whose search does not prove the claim",
    9: "goes to a leaf whose search meets a line longer than the game's max_plies "
    "(positions that repeat?)",
}


Progress = Callable[[int, int], None]
"""Told the nodes replayed and the leaves searched so far."""
PLAIN_PROGRESS_EVERY = 1000
"""Nodes the plain replay checks between two calls of its progress."""


@dataclass(frozen=True)
class Verdict:
    """A checked proof: the bounds it proves on the root's score (None: not claimed) and
    the nodes checked."""

    at_least: float | None
    at_most: float | None
    nodes: int


def end_score(rules: Rules[Any, Any], state: Any) -> float | None:
    """The score of a position the game is over in, for its mover, in the proof's terms
    (win 1, tie 0, loss -1; a scored game's score); a position with no move scores a loss
    (-inf in a scored game); None while the game goes on."""
    end = rules.outcome(state)
    if end is None:
        if rules.legal_moves(state):
            return None
        return -1.0 if not rules.ends_in_scores() else -math.inf
    if isinstance(end, Value):
        scores = {WIN: 1.0, TIE: 0.0, LOSS: -1.0}
        if end not in scores:
            raise ProofError(f"{rules.name}: an outcome of {end} has no score in a proof")
        return scores[end]
    return float(end)


def score_range(rules: Rules[Any, Any]) -> tuple[float, float]:
    """The least and the largest score of a game in a proof's terms: a loss and a win
    (-1, 1), or a scored game's -inf and inf."""
    return (-math.inf, math.inf) if rules.ends_in_scores() else (-1.0, 1.0)


def trivial(side: str, bound: float, scores: tuple[float, float]) -> bool:
    """Whether the claim ``side bound`` holds of any score in ``scores`` (the game's
    range; >= its least, <= its largest): no node proves it."""
    return bound <= scores[0] if side == AT_LEAST else bound >= scores[1]


def holds(side: str, value: float, bound: float) -> bool:
    """Whether ``side value`` (a claim) is at least as strong as ``side bound``."""
    return value >= bound if side == AT_LEAST else value <= bound


def needed_claim(
    rules: Rules[Any, Any], state: Any, move: Any, child: Any, side: str, bound: float
) -> tuple[str, float]:
    """The claim a child must prove for its parent's ``side bound`` through ``move``."""
    earned = 0.0 if rules.reward is None else float(rules.reward(state, move))
    if not rules.mover_changes(state, child):
        return side, bound - earned
    return (AT_MOST if side == AT_LEAST else AT_LEAST), earned - bound


def searched_plain(rules: Rules[Any, Any], state: Any, side: str, bound: float) -> int:
    """A leaf checked with the plain rules, as ``proof_replay.leaf_search`` checks it
    (fail-soft alpha-beta, the rules' order, no table, an explicit stack), in the game's
    own scores (fractions and infinities as they are), with the window just below or just
    above ``bound``: 0 when the search proves ``side bound``, else the problem's code (8;
    9 for a line longer than the game's max_plies, or a position met again on its line)."""
    if side == AT_LEAST:
        alpha, beta = math.nextafter(bound, -math.inf), bound
    else:
        alpha, beta = bound, math.nextafter(bound, math.inf)
    longest = getattr(rules.game, "max_plies", None)
    limit = int(longest()) if callable(longest) else None
    frames: list[list[Any]] = []  # [state, moves, move searched, alpha, beta, best, earned, kept]
    on_line: set[Any] = set()
    entering = (state, alpha, beta)
    while True:
        here, a, b = entering
        ret = end_score(rules, here)
        if ret is None:
            if here in on_line or (limit is not None and len(frames) >= limit):
                return 9
            frames.append([here, rules.legal_moves(here), 0, a, b, -math.inf, 0.0, False])
            on_line.add(here)
        while ret is not None:
            if not frames:
                return 0 if holds(side, ret, bound) else 8
            f = frames[-1]
            v = ret + f[6] if f[7] else f[6] - ret
            f[5], f[3], f[2] = max(f[5], v), max(f[3], v), f[2] + 1
            if v < f[4] and f[2] < len(f[1]):
                ret = None
            else:
                ret = f[5]
                on_line.discard(f[0])
                frames.pop()
        f = frames[-1]
        move = f[1][f[2]]
        child = rules.play(f[0], move)
        kept = not rules.mover_changes(f[0], child)
        earned = 0.0 if rules.reward is None else float(rules.reward(f[0], move))
        f[6], f[7] = earned, kept
        a, b = f[3], f[4]
        entering = (child, a - earned, b - earned) if kept else (child, earned - b, earned - a)


def check_proof(
    rules: Rules[Any, Any],
    path: Path,
    plain: bool = False,
    threads: int = 0,
    progress: Progress | None = None,
) -> Verdict:
    """Check the proof in ``path`` against ``rules`` alone: every claim's children claim
    enough, every move named is legal, every end scores as the claim needs, every leaf's
    search proves its claim, every node met again is the same position. ``threads``
    search the leaves of the compiled check (0: one a core); ``progress(nodes, leaves)``
    hears the nodes replayed and the leaves searched as they grow. ProofError: no proof,
    or one of another position; ProofRefuted names the first node that fails."""
    header, tree = read_proof(path)
    _bounds_of_the_game(rules, header, tree, path)
    root = _root_of(rules, header, path)
    roots = _roots(header, tree, path)
    # (a compiled-form game's hooks are its own rules; a hand-written search's may leave
    # out moves that cannot be better, which a checker must not)
    hook = rules.compiled_rules if rules.compiled_form and not plain else None
    compiled = None if hook is None else hook()
    if compiled is None:
        checked, failure = _replay_plain(rules, header, tree, root, roots, progress)
    else:
        checked, failure = replay_compiled(
            compiled, tree, compiled.encode(root), roots, threads, progress
        )
    if failure is not None:
        node, move, code = failure
        where = f"node {node}" if move < 0 else f"node {node}, its move {move + 1}"
        raise ProofRefuted(f"{path}: {where} {PROBLEMS[code]}")
    lows = [v for _, side, v in header.claims if side == AT_LEAST]
    highs = [v for _, side, v in header.claims if side == AT_MOST]
    return Verdict(max(lows, default=None), min(highs, default=None), checked)


def _bounds_of_the_game(rules: Rules[Any, Any], header: Header, tree: Tree, path: Path) -> None:
    """The header's infinity is the game's (SCORE_ENDS for a scored game, none for one of
    wins and losses) and every bound a score of the game: -1, 0 or 1; or in a scored
    game +-infinity, or a finite score below half of it (so no move's points carry a
    finite bound to an end)."""
    infinity = SCORE_ENDS if rules.ends_in_scores() else None
    if header.infinity != infinity:
        raise ProofError(f"{path}: a proof for another kind of game (its scores' infinity is "
                         f"{header.infinity}, {rules.name}'s {infinity})")  # fmt: skip
    bound = tree.bound[1:]
    if infinity is None:
        bad = np.abs(bound) > 1
    else:
        bad = (np.abs(bound) != infinity) & (np.abs(bound) >= infinity // 2)
    if bad.any():
        at = int(np.argmax(bad)) + 1
        raise ProofRefuted(f"{path}: node {at} claims {int(tree.bound[at])}, no score of "
                           f"{rules.name}")  # fmt: skip


def _roots(header: Header, tree: Tree, path: Path) -> list[int]:
    """The header's claimed nodes, each holding what the header says."""
    ids = []
    for ident, side, value in header.claims:
        if not 1 <= ident <= tree.nodes or (
            SIDES[int(tree.kind[ident])],
            game_bound(int(tree.bound[ident]), header.infinity),
        ) != (side, value):
            raise ProofRefuted(f"{path}: the header claims node {ident} {side} {value:g}, "
                               "which the tree does not hold")  # fmt: skip
        ids.append(ident)
    return ids


def _root_of(rules: Rules[Any, Any], header: Header, path: Path) -> Any:
    """The position a proof's header names, replayed by ``rules``; ProofError when it does
    not replay or is shown otherwise (a proof of another game or parameters)."""
    try:
        root = rules.initial_state() if header.start is None else rules.read_position(header.start)
        for text in header.moves:
            root = rules.play(root, rules.parse_move(root, text))
    except GameError as exc:
        raise ProofError(
            f"{path}: its position does not replay in {rules.name} (a proof of another "
            f"game or other parameters?): {exc}"
        ) from None
    if rules.show(root) != header.position:
        raise ProofError(
            f"{path}: a proof for another position (other parameters?) than "
            f"{rules.name}'s after {' '.join(header.moves) or 'no moves'}"
        )
    return root


def _replay_plain(
    rules: Rules[Any, Any],
    header: Header,
    tree: Tree,
    root: Any,
    roots: list[int],
    progress: Progress | None = None,
) -> tuple[int, tuple[int, int, int] | None]:
    """The walk with the plain rules: (nodes checked, the first failure or None)."""
    at: dict[int, Any] = dict.fromkeys(roots, root)
    scores = score_range(rules)
    checked = 0
    for ident in range(1, tree.nodes + 1):
        if ident not in at:  # (no claim reaches it)
            continue
        state = at.pop(ident)
        if rules.outcome(state) is not None:
            return checked, (ident, -1, 1)
        legal = rules.legal_moves(state)
        first = int(tree.first[ident])
        if tree.kind[ident] == 0:
            j = int(tree.choice[ident])
            if j >= len(legal):
                return checked, (ident, -1, 2)
            indices = [j]
        elif int(tree.choice[ident]) != len(legal):
            return checked, (ident, -1, 3)
        else:
            indices = list(range(len(legal)))
        side = SIDES[int(tree.kind[ident])]
        bound = game_bound(int(tree.bound[ident]), header.infinity)
        for k, j in enumerate(indices):
            move = legal[j]
            child = rules.play(state, move)
            code = _child_plain(rules, tree, header, scores, (state, move, child),
                                (side, bound), int(tree.edge[first + k]), at)  # fmt: skip
            if code:
                return checked, (ident, j, code)
        checked += 1
        if progress is not None and checked % PLAIN_PROGRESS_EVERY == 0:
            progress(checked, 0)
    return checked, None


def _child_plain(
    rules: Rules[Any, Any],
    tree: Tree,
    header: Header,
    scores: tuple[float, float],
    step: tuple[Any, Any, Any],
    claim: tuple[str, float],
    child_id: int,
    at: dict[int, Any],
) -> int:
    """Whether a move's child meets what its parent's claim needs (0), else the problem's
    code; a child node's position kept when first met (in ``at`` until replayed)."""
    state, move, child = step
    side, bound = needed_claim(rules, state, move, child, *claim)
    if child_id == SEARCHED:
        return searched_plain(rules, child, side, bound)
    if child_id == 0:
        if trivial(side, bound, scores):
            return 0
        score = end_score(rules, child)
        if score is None:
            return 4
        return 0 if holds(side, score, bound) else 5
    value = game_bound(int(tree.bound[child_id]), header.infinity)
    if SIDES[int(tree.kind[child_id])] != side or not holds(side, value, bound):
        return 6
    if child_id not in at:
        at[child_id] = child
    elif at[child_id] != child:
        return 7
    return 0


def replay_compiled(
    compiled: Any,
    tree: Tree,
    row: tuple[int, ...],
    roots: list[int],
    threads: int = 0,
    progress: Progress | None = None,
) -> tuple[int, tuple[int, int, int] | None]:
    """The walk with the game's compiled rules (``compiled``: its SearchRules; ``row``:
    the root as a row of the search): (nodes checked, the first failure or None). The
    nodes are replayed in turns, each listing the leaves it meets (up to LEAVES_AT_ONCE),
    which ``threads`` threads then search, each a share (0: ``core.parallel.THREADS``, one
    a core)."""
    kernel = replay_kernel(compiled)
    width = compiled.key_from or compiled.words
    states = np.zeros((tree.nodes + 1, width), np.int64)
    seen = np.zeros(tree.nodes + 1, np.bool_)
    for ident in roots:
        states[ident] = row[:width]
        seen[ident] = True
    leaves = (
        np.zeros(LEAVES_AT_ONCE, np.int64),
        np.zeros(LEAVES_AT_ONCE, np.int64),
        np.zeros(LEAVES_AT_ONCE, np.int64),
        np.zeros(LEAVES_AT_ONCE, np.int64),
        np.zeros((LEAVES_AT_ONCE, width), np.int64),
        np.zeros(1, np.int64),
    )
    lanes = [leaf_rows(compiled) for _ in range(threads or THREADS)]
    s, out, _ = lanes[0]
    fail = np.zeros(4, np.int64)
    arrays = (tree.kind, tree.bound, tree.choice, tree.first, tree.edge)
    at, searched = 1, 0
    while True:
        if progress is not None:
            progress(int(fail[3]), searched)
        leaves[5][0] = 0
        at = int(kernel.replay(arrays, (states, seen), leaves, s, out, fail, at,
                               compiled.max_moves + 1))  # fmt: skip
        bad, why = _leaves_checked(kernel, leaves, lanes)
        searched += int(leaves[5][0])
        if bad >= 0:
            return int(fail[3]), (int(leaves[0][bad]), int(leaves[1][bad]), why)
        if fail[2] != 0:
            return int(fail[3]), (int(fail[0]), int(fail[1]), int(fail[2]))
        if at > tree.nodes:
            return int(fail[3]), None


LEAVES_AT_ONCE = 1 << 16
"""Leaves listed by one turn of the compiled walk, then searched."""


def _leaves_checked(kernel: Any, leaves: Any, lanes: list[Any]) -> tuple[int, int]:
    """The listed leaves searched by a thread a lane, interleaved: the first that fails
    and why (its code), or (-1, 0)."""
    found = [(-1, 0)] * len(lanes)

    def run(k: int) -> None:  # (an error is raised to the caller: no leaf let through)
        s, out, stack = lanes[k]
        why = np.zeros(1, np.int64)
        found[k] = (int(kernel.check_leaves(leaves, k, len(lanes), s, out, stack, why)),
                    int(why[0]))  # fmt: skip

    if len(lanes) == 1 or leaves[5][0] < 2:
        run(0)
    else:
        on_threads(len(lanes), run)
    return min((f for f in found if f[0] >= 0), default=(-1, 0))


def leaf_rows(compiled: Any) -> tuple[Any, Any, Any]:
    """The rows, moves and stack of ``proof_replay``'s walk and of its leaves' search
    (row 0 a node, row 1 its child, the leaf's search below)."""
    rows = compiled.max_plies + 3
    return (
        np.zeros((rows, compiled.words), np.int64),
        np.zeros((rows, compiled.max_moves), np.int64),
        np.zeros((rows, 7), np.int64),
    )


_KERNELS: dict[Any, Any] = {}


def replay_kernel(compiled: Any) -> Any:
    """``proof_replay`` compiled around one game's rules (once a rules object; kept in
    numba's disk cache under the rules' ``ident``)."""
    found = _KERNELS.get(compiled)
    if found is not None:
        return found
    from . import proof_replay
    from .core.specialised import fingerprint, jit_in_place, template_copy

    source = Path(proof_replay.__file__)
    ident = getattr(compiled, "ident", "")
    settings = (compiled.min_score, compiled.max_score, compiled.key_from, compiled.words,
                compiled.keeps is not None, compiled.reward is not None)  # fmt: skip
    name = f"perfectplay_replay_{fingerprint(source.read_bytes(), f'{ident}|{settings}')}"
    module: Any = template_copy(source, name, "search", bool(ident))
    module.LOW, module.HIGH = compiled.min_score, compiled.max_score
    module.SW = compiled.key_from or compiled.words
    module.TURNS, module.REWARDS = compiled.keeps is not None, compiled.reward is not None
    for rule in ("end", "moves", "play", "keeps", "reward"):
        if getattr(compiled, rule) is not None:
            setattr(module, rule, getattr(compiled, rule))
    made = ["needed", "holds", "trivial", "end_of", "combined", "leaf_search", "child_ok",
            "through", "node_ok", "replay", "check_leaves"]  # fmt: skip
    if compiled.keeps is None:
        made.insert(0, "keeps")
    if compiled.reward is None:
        made.insert(0, "reward")
    jit_in_place(module, made, cache=bool(ident))
    _KERNELS[compiled] = module
    return module
