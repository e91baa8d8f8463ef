"""Proof trees made by the compiled search (``proof_tree`` has the format, ``proof_check``
the checkers).

For a position whose exact score ``v`` the search found, two trees: ``>= v`` (one move of
the mover's at each of its nodes, every reply at the opponent's) and ``<= v`` (the other
way round). Each move a ``>=`` node names is found by null-window searches on the warm
table, the first move in the rules' order whose child proves enough; a ``<=`` node takes
every move. A position needed again with a claim no stronger than one already in the
tree reuses that node. Built by compiled code (``proof_grow``: no recursion, nodes in
arrays that grow as needed, some 25 bytes a node and the index), numbered so that every
child follows its parent, written once complete.

Serves games whose search scores are the game's own (compiled-form games: -1, 0, 1 for a
loss, tie, win; a scored game's score, +-SCORE_ENDS its ends), not searches with scores
of their own (the built-in Connect Four's, which count plies).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .core.memory import default_budget, resident_bytes, show_size
from .errors import SolverChoiceError
from .proof_check import leaf_rows, replay_kernel, score_range, trivial
from .proof_tree import (
    AT_LEAST,
    AT_MOST,
    SIDES,
    Header,
    ProofError,
    Tree,
    edge_counts,
    write_proof_file,
)
from .protocol import SCORE_ENDS
from .rules import Rules
from .solvers.compiled_search import CompiledSearch

PROGRESS_EVERY = 1000
"""Nodes expanded between two calls of a proof's progress callback."""
FIRST_ROOM = 1 << 12
"""Nodes the arrays first hold (doubled as needed)."""
LEAF_NODES = 0
"""The default budget of a leaf's search: none, every node written (the fastest to write
and to check, while the tree fits in memory; 1,000 left 97,717 nodes of 6x6 Othello six
plies in, against 21.6 million, at three times the work: the checker's search of a leaf
has neither table nor ordering)."""


def can_prove(search: CompiledSearch) -> bool:
    """Whether the search's scores are the game's own (see the module)."""
    return search.rules.plies is None and search.rules.probe is None


def _as_game(score: int) -> float:
    """A search score in the proof's terms (the search's ends are -inf and +inf)."""
    return math.copysign(math.inf, score) if abs(score) >= SCORE_ENDS else float(score)


class _Growing:
    """The tree being grown by ``proof_grow.grow``: its arrays (enlarged as it asks) and
    the search whose table and lane it uses."""

    def __init__(self, search: CompiledSearch, leaf_nodes: int) -> None:
        rules = search.rules
        self.search = search
        self.kernel = _grow_kernel(search)
        self.deep = (*leaf_rows(rules), np.int64(leaf_nodes))
        """The leaves' search: its rows, moves, stack, and budget of nodes."""
        self.width = rules.key_from or rules.words
        self.counts = np.zeros(5, np.int64)
        self.rows = np.zeros((3, rules.words), np.int64)
        self.out = np.zeros((3, rules.max_moves), np.int64)
        room = FIRST_ROOM + rules.max_moves
        self.kind = np.zeros(room, np.int8)
        self.bound = np.zeros(room, np.int64)
        self.choice = np.zeros(room, np.int64)
        self.first = np.zeros(room, np.int64)
        self.words = np.zeros((room, self.width), np.int64)
        self.pending = np.zeros(room, np.int64)
        self.edge = np.zeros(room, np.int64)
        self.index = np.zeros(1 << (4 * room).bit_length(), np.int64)  # (a power of 2)

    def root(self, row: tuple[int, ...], side: str, bound: int) -> int:
        """A root node claiming ``side bound`` (pending)."""
        t = int(self.counts[0]) + 1
        self.kind[t], self.bound[t] = SIDES.index(side), bound
        self.words[t] = row[: self.width]
        self.pending[self.counts[2]] = t
        self.counts[0] = t
        self.counts[2] += 1
        self.index[:] = 0
        self.kernel.reindex(self.index, self.kind, self.bound, self.words, t)
        return t

    def grow(self, budget: int) -> int:
        """Expand up to ``budget`` nodes; ``proof_grow``'s status."""
        search, lane = self.search, self.search.lanes[0]
        tree = (self.kind, self.bound, self.choice, self.first, self.words, self.edge,
                self.index, self.pending, self.counts)  # fmt: skip
        table = (lane.s, lane.out, lane.stack, search.keys, search.vals, search.hints,
                 search.works, search.key_mask, search.db, search.progress, search.checks,
                 search.halt)  # fmt: skip
        return int(self.kernel.grow(tree, self.rows, self.out, table, self.deep, budget))

    def enlarge(self, limit: int | None) -> None:
        """Twice the room for the nodes, edges and index that lack it; ProofError when
        the process would pass ``limit`` bytes (None: no bound)."""
        nodes, edges = int(self.counts[0]), int(self.counts[1])
        need = self.search.rules.max_moves + 2
        more = self.index.nbytes + self.edge.nbytes + len(self.kind) * (33 + 8 * self.width)
        if limit is not None and resident_bytes() + more > limit:
            raise ProofError(
                f"the proof outgrows the memory ({nodes:,} nodes so far, "
                f"{show_size(resident_bytes())} in use, {show_size(limit)} allowed): leave "
                "small subtrees to the checker with --proof-leaves (1,000: 97,717 nodes "
                "for 6x6 Othello six plies in, against 21.6 million), or give more --memory"
            )
        if nodes + need >= len(self.kind):
            size = 2 * len(self.kind)
            for name in ("kind", "bound", "choice", "first", "words", "pending"):
                setattr(self, name, _resized(getattr(self, name), size))
        if edges + need >= len(self.edge):
            self.edge = _resized(self.edge, 2 * len(self.edge))
        if 2 * (nodes + need) >= len(self.index):
            self.index = np.zeros(2 * len(self.index), np.int64)
            self.kernel.reindex(self.index, self.kind, self.bound, self.words, nodes)

    def tree(self) -> tuple[Tree, npt.NDArray[np.int64]]:
        """The finished tree numbered parents first, and each old id's new one."""
        n = int(self.counts[0])
        order = np.zeros(n, np.int64)
        placed = self.kernel.topological(self.kind, self.choice, self.first, self.edge, n,
                                         order, np.zeros(n, np.int64))  # fmt: skip
        if placed != n:
            raise ProofError("the proof goes round a cycle (positions repeat): it proves nothing")
        renamed = np.zeros(n + 1, np.int64)
        renamed[order] = np.arange(1, n + 1)
        counts = edge_counts(self.kind[order], self.choice[order])
        starts = self.first[order]
        offsets = np.cumsum(counts) - counts
        gather = np.repeat(starts - offsets, counts) + np.arange(int(counts.sum()))
        old = self.edge[gather]
        edge = np.where(old > 0, renamed[np.maximum(old, 0)], old)  # (0 an end, -1 a leaf)
        return Tree.of(self.kind[order], self.bound[order], self.choice[order], edge), renamed


def _resized(array: npt.NDArray[Any], size: int) -> npt.NDArray[Any]:
    bigger = np.zeros((size, *array.shape[1:]), array.dtype)
    bigger[: len(array)] = array
    return bigger


def write_proof(
    rules: Rules[Any, Any],
    state: Any,
    moves: list[str],
    search: CompiledSearch,
    score: int,
    path: Path,
    progress: Callable[[int], None] | None = None,
    start: str | None = None,
    leaf_nodes: int = LEAF_NODES,
    memory: int | None = None,
) -> int:
    """Write to ``path`` the proof that ``state`` scores exactly ``score`` (the search's):
    its ``>=`` and ``<=`` trees. ``state`` is reached by ``moves`` from the start, or from
    ``start``, a position as ``parse_state`` reads it. A claim the checker's own search
    (plain alpha-beta, no table) proves in at most ``leaf_nodes`` nodes is a leaf, which
    the checker searches (0: none, every node written). ``memory``: the bytes the process
    may take while the tree grows (None: 80% of what is available). The file appears whole
    or not at all (written beside it, then renamed). The number of nodes."""
    if not can_prove(search):
        raise SolverChoiceError(
            f"{rules.name}: proofs are written for compiled-form games, whose search scores "
            "are the game's own"
        )
    if rules.outcome(state) is not None:
        raise SolverChoiceError("the game is over at this position: there is nothing to prove")
    growing = _Growing(search, leaf_nodes)
    row = search.rules.encode(state)
    value = _as_game(score)
    roots = []
    for side in (AT_LEAST, AT_MOST):
        if not trivial(side, value, score_range(rules)):
            roots.append((growing.root(row, side, score), side))
    limit = memory if memory is not None else default_budget()
    while (status := growing.grow(PROGRESS_EVERY)) != 0:
        if status == 1:
            growing.enlarge(limit)
        elif status == 3:
            raise ProofError(
                f"{rules.name}: the search and the rules disagree at a node of the proof "
                "(the compiled rules and the plain ones differ?)"
            )
        if progress is not None:
            progress(int(growing.counts[3]))
    tree, renamed = growing.tree()
    infinity = SCORE_ENDS if rules.ends_in_scores() else None
    claims = tuple((int(renamed[t]), side, value) for t, side in roots)
    header = Header(rules.name, start, tuple(moves), rules.show(state), claims, tree.nodes,
                    len(tree.edge), infinity)  # fmt: skip
    write_proof_file(path, header, tree)
    return tree.nodes


_KERNELS: dict[Any, Any] = {}


def _grow_kernel(search: CompiledSearch) -> Any:
    """``proof_grow`` compiled around one search (its rules and its ``negamax``), once."""
    engine = search.engine
    found = _KERNELS.get(engine)
    if found is not None:
        return found
    from . import proof_grow
    from .core.specialised import fingerprint, jit_in_place, template_copy

    rules = search.rules
    source = Path(proof_grow.__file__)
    ident = getattr(rules, "ident", "")
    replaying = replay_kernel(rules)
    # (the copies it calls by name: the search's and the checker's)
    made_for = f"{ident}|{engine.__name__}|{replaying.__name__}|{rules.min_score},{rules.max_score}"
    name = f"perfectplay_grow_{fingerprint(source.read_bytes(), made_for, str(rules.words))}"
    module: Any = template_copy(source, name, "search", bool(ident))
    module.LOW, module.HIGH = rules.min_score, rules.max_score
    module.SW = rules.key_from or rules.words
    module.MAX_MOVES = rules.max_moves
    module.TURNS, module.REWARDS = rules.keeps is not None, rules.reward is not None
    module.negamax = engine.negamax
    shared = ("end", "moves", "play", "keeps", "reward", "needed", "holds", "trivial",
              "end_of", "leaf_search")  # fmt: skip
    for helper in shared:
        setattr(module, helper, getattr(replaying, helper))
    made = ["slot_of", "claim", "proves", "leaf", "chosen", "replies", "grow", "reindex",
            "topological"]  # fmt: skip
    jit_in_place(module, made, cache=bool(ident))
    _KERNELS[engine] = module
    return module
