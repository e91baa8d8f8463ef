"""Proof trees made by the compiled search (``proof_tree`` has the format and the checker).

For a position whose exact score ``v`` the search found, two trees: ``>= v`` (one move of
the mover's at each of its nodes, every reply at the opponent's) and ``<= v`` (the other
way round). Each move a ``>=`` node names is found by null-window searches on the warm
table (``CompiledSearch.at_most``), the first move in the rules' order whose child proves
enough; a ``<=`` node takes every move. A position needed again with a claim no stronger
than one already in the tree reuses that node. Built iteratively (no recursion), in
memory (a node: its position, claim and children), written once complete.

Serves games whose search scores are the game's own (compiled-form games: -1, 0, 1 for a
loss, tie, win; a scored game's score, +-SCORE_ENDS its ends), not searches with scores
of their own (the built-in Connect Four's, which count plies).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .errors import SolverChoiceError
from .proof_tree import (
    AT_LEAST,
    AT_MOST,
    Header,
    Node,
    ProofError,
    end_score,
    holds,
    needed_claim,
    score_range,
    trivial,
    write_header,
    write_node,
)
from .protocol import SCORE_ENDS
from .rules import Rules
from .solvers.compiled_search import CompiledSearch

PROGRESS_EVERY = 1000
"""Nodes between two calls of a proof's progress callback."""


def can_prove(search: CompiledSearch) -> bool:
    """Whether the search's scores are the game's own (see the module)."""
    return search.rules.plies is None and search.rules.probe is None


def _as_game(score: int) -> float:
    """A search score in the proof's terms (the search's ends are -inf and +inf)."""
    return math.copysign(math.inf, score) if abs(score) >= SCORE_ENDS else float(score)


class _Builder:
    """The tree being built: nodes by id (1-based), and the node of each (position, side)
    with its strongest bound, for reuse."""

    def __init__(self, rules: Rules[Any, Any], search: CompiledSearch) -> None:
        self.rules = rules
        self.search = search
        self.nodes: list[Node | None] = []
        self.positions: list[Any] = []
        self.claims: list[tuple[str, float]] = []
        self.known: dict[tuple[Any, str], tuple[float, int]] = {}
        self.pending: list[int] = []
        self.scores = score_range(rules)

    def claim(self, state: Any, side: str, bound: float) -> int:
        """The id of a node claiming ``side bound`` for ``state`` (a new one, to expand,
        unless a node there already claims as much)."""
        found = self.known.get((state, side))
        if found is not None and (found[0] >= bound if side == AT_LEAST else found[0] <= bound):
            return found[1]
        self.nodes.append(None)
        self.positions.append(state)
        self.claims.append((side, bound))
        ident = len(self.nodes)
        self.known[(state, side)] = (bound, ident)
        self.pending.append(ident)
        return ident

    def proves(self, child: Any, side: str, bound: float) -> bool:
        """Whether the search finds ``child``'s score ``side bound``."""
        words = self.search.rules.encode(child)
        if math.isinf(bound):  # (the search's ends: a player left with no move)
            bound = math.copysign(SCORE_ENDS, bound)
        if side == AT_LEAST:
            return not self.search.at_most(words, math.ceil(bound) - 1)
        return self.search.at_most(words, math.floor(bound))

    def expand(self, ident: int) -> None:
        """Give node ``ident`` its move and children (new nodes pending)."""
        rules = self.rules
        state = self.positions[ident - 1]
        side, bound = self.claims[ident - 1]
        if side == AT_LEAST:
            for move in rules.legal_moves(state):
                child = rules.play(state, move)
                needs, value = needed_claim(rules, state, move, child, side, bound)
                score = end_score(rules, child)
                if trivial(needs, value, self.scores) or score is not None:
                    if score is None or holds(needs, score, value):
                        self.nodes[ident - 1] = Node(side, bound, rules.format_move(move), (0,))
                        return
                    continue
                if self.proves(child, needs, value):
                    child_id = self.claim(child, needs, value)
                    self.nodes[ident - 1] = Node(side, bound, rules.format_move(move), (child_id,))
                    return
            raise ProofError(
                f"{rules.name}: no move of a position proves {side} {bound:g}, as the search "
                "said one would (the compiled rules and the plain ones disagree?)"
            )
        children = []
        for move in rules.legal_moves(state):
            child = rules.play(state, move)
            needs, value = needed_claim(rules, state, move, child, side, bound)
            score = end_score(rules, child)
            if trivial(needs, value, self.scores):
                children.append(0)
            elif score is not None:
                if not holds(needs, score, value):
                    raise ProofError(
                        f"{rules.name}: a reply ends the game at {score:g}, against the "
                        f"search's {side} {bound:g} (the compiled rules and the plain ones "
                        "disagree?)"
                    )
                children.append(0)
            else:
                children.append(self.claim(child, needs, value))
        self.nodes[ident - 1] = Node(side, bound, None, tuple(children))


def write_proof(
    rules: Rules[Any, Any],
    state: Any,
    moves: list[str],
    search: CompiledSearch,
    score: int,
    path: Path,
    progress: Callable[[int], None] | None = None,
    start: str | None = None,
) -> int:
    """Write to ``path`` the proof that ``state`` scores exactly ``score`` (the search's):
    its ``>=`` and ``<=`` trees. ``state`` is reached by ``moves`` from the start, or from
    ``start``, a position as ``parse_state`` reads it. The file appears whole or not at
    all (written beside it, then renamed). The number of nodes."""
    if not can_prove(search):
        raise SolverChoiceError(
            f"{rules.name}: proofs are written for compiled-form games, whose search scores "
            "are the game's own"
        )
    if rules.outcome(state) is not None:
        raise SolverChoiceError("the game is over at this position: there is nothing to prove")
    builder = _Builder(rules, search)
    value = _as_game(score)
    claims = []
    for side in (AT_LEAST, AT_MOST):
        if not trivial(side, value, builder.scores):
            claims.append((builder.claim(state, side, value), side, value))
    expanded = 0
    while builder.pending:
        builder.expand(builder.pending.pop())
        expanded += 1
        if progress is not None and expanded % PROGRESS_EVERY == 0:
            progress(expanded)
    header = Header(
        rules.name, start, tuple(moves), rules.show(state), tuple(claims), len(builder.nodes)
    )
    partial = path.with_name(path.name + ".partial")
    with partial.open("w", encoding="utf-8") as stream:
        write_header(stream, header)
        for ident, node in enumerate(builder.nodes, start=1):
            assert node is not None
            write_node(stream, ident, node)
    os.replace(partial, path)
    return len(builder.nodes)
