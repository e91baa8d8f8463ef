"""The batch protocol: games whose states are integers, explored many states at a time.

A batch game is a plain game (so people can play and analyse it) that also offers:

    batch_outcome(codes) -> array       int8 codes 0 (goes on) / WIN / LOSS / TIE, or
                                        float64 scores with NaN for "goes on"
    batch_expand(codes) -> Expansion    every move of every given non-terminal state
    batch_key(codes) -> codes           optional: canonical codes (symmetry)
    universe: int                       optional: every state is a code below it

The plain methods' states are the codes themselves, or any states whose ``key(state)`` is
the code, with ``from_code(code) -> state`` to turn a code back into a state.

Codes are non-negative int64. With ``universe`` the whole space is expanded in one call and
what the initial state cannot reach is dropped; otherwise exploration goes level by level,
deduplicating with sorted arrays. Either way the result is the same StateGraph the plain
protocol builds, and the same solvers run on it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from . import kernels
from .errors import GameError, InterruptedSolve, StateBudgetExceeded
from .graph import Kind, ProgressCallback, StateGraph
from .protocol import Rules
from .values import UNDECIDED, Value

Codes = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Expansion:
    """The moves of a batch of states.

    ``parents[i]`` is the index (into the batch) of the state whose move leads to
    ``children[i]``; parents must be non-decreasing. ``rewards`` (scored games) and
    ``same_mover`` (moves that give another turn) are per move, or None.
    """

    parents: npt.NDArray[np.int64]
    children: Codes
    rewards: npt.NDArray[np.float64] | None = None
    same_mover: npt.NDArray[np.bool_] | None = None


def is_batch_game(game: object) -> bool:
    """Whether a game offers the batch protocol."""
    return callable(getattr(game, "batch_outcome", None)) and callable(
        getattr(game, "batch_expand", None)
    )


class _Terminals:
    """Terminal values found batch by batch, and the kind of game they reveal."""

    def __init__(self, rules: Rules[Any, Any]) -> None:
        self.rules = rules
        self.kind: Kind | None = None
        self.integral = True

    def read(self, codes: Codes) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.float64]]:
        """Outcome codes and scores of a batch; checks the game's answer."""
        game: Any = self.rules.game
        result = np.asarray(game.batch_outcome(codes))
        if result.shape != codes.shape:
            raise GameError(
                f"{self.rules.name}.batch_outcome returned shape {result.shape} for "
                f"{codes.shape[0]} states"
            )
        if result.dtype.kind == "f":
            self._kind("scored")
            scores = result.astype(np.float64)
            done = ~np.isnan(scores)
            finite = scores[np.isfinite(scores)]
            if self.integral and not np.all(finite % 1 == 0):
                self.integral = False
            code = np.where(done, np.int8(Value.TIE), np.int8(UNDECIDED)).astype(np.int8)
            return code, scores
        code = result.astype(np.int8)
        bad = (code < UNDECIDED) | (code > int(Value.TIE))
        if bad.any():
            raise GameError(
                f"{self.rules.name}.batch_outcome gave code {int(code[bad][0])} for state "
                f"{int(codes[bad][0])}; expected 0 (goes on), 1 WIN, 2 LOSS or 3 TIE"
            )
        if (code != UNDECIDED).any():
            self._kind("outcome")
        return code, np.full(codes.shape[0], np.nan)

    def _kind(self, kind: Kind) -> None:
        if self.kind is not None and self.kind != kind:
            raise GameError(f"{self.rules.name}.batch_outcome mixes outcome codes and scores")
        self.kind = kind


def _expand(rules: Rules[Any, Any], codes: Codes) -> Expansion:
    game: Any = rules.game
    if codes.size == 0:
        nothing = np.zeros(0, dtype=np.int64)
        return Expansion(nothing, nothing)
    expansion = game.batch_expand(codes)
    parents = np.asarray(expansion.parents, dtype=np.int64)
    children = np.asarray(expansion.children, dtype=np.int64)
    if parents.shape != children.shape:
        raise GameError(f"{rules.name}.batch_expand: parents and children differ in length")
    if parents.size and not kernels.is_index_run(parents, codes.size):
        raise GameError(
            f"{rules.name}.batch_expand: parents must be non-decreasing indices into the batch"
        )
    if children.size and children.min() < 0:
        raise GameError(f"{rules.name}.batch_expand produced a negative state code")
    key = getattr(game, "batch_key", None)
    if callable(key):
        children = np.asarray(key(children), dtype=np.int64)
    return Expansion(parents, children, expansion.rewards, expansion.same_mover)


def explore_batch(
    rules: Rules[Any, Any],
    *,
    max_states: int | None = None,
    progress: ProgressCallback | None = None,
) -> StateGraph:
    """Build the StateGraph of a batch game (see the module docstring)."""
    started = time.perf_counter()
    game: Any = rules.game
    root_key = rules.key_of(rules.initial_state())
    if not isinstance(root_key, (int, np.integer)) or root_key < 0:
        raise GameError(f"{rules.name}: a batch game's states are non-negative integer codes")
    root = int(root_key)
    terminals = _Terminals(rules)
    try:
        universe = getattr(game, "universe", None)
        if isinstance(universe, int):
            parts = _explore_universe(rules, terminals, root, universe, max_states)
        else:
            parts = _explore_levels(rules, terminals, root, max_states, progress)
    except KeyboardInterrupt:
        raise InterruptedSolve(
            f"interrupted while exploring {rules.name} ({time.perf_counter() - started:.1f} s "
            "in); nothing was solved"
        ) from None
    codes, offsets, children, code, score, rewards, same, root_id, lookup = parts
    if max_states is not None and codes.shape[0] > max_states:
        raise StateBudgetExceeded(
            f"{rules.name}: more than max_states={max_states:,} states; raise max_states"
        )
    kind: Kind = terminals.kind or "outcome"
    if kind == "outcome" and rewards is not None and np.any(rewards):
        raise GameError(f"{rules.name} has rewards but its outcomes are WIN/LOSS/TIE")

    terminal = code != UNDECIDED
    if kind == "scored":
        code = np.zeros_like(code)
    else:
        score = np.zeros(0, dtype=np.float64)  # outcome games keep no scores
    if progress is not None:
        progress(codes.shape[0], codes.shape[0])
    return StateGraph(
        rules=rules,
        states=codes,
        lookup=lookup,
        offsets=offsets,
        children=children,
        same_mover=same if same is not None and same.any() else np.zeros(0, dtype=np.bool_),
        kind=kind,
        terminal=terminal,
        outcome_code=code,
        score=score,
        integral_scores=terminals.integral,
        seconds=time.perf_counter() - started,
        extra_turns=bool(same is not None and same.any()),
        reward=rewards if kind == "scored" and rewards is not None else None,
        root=root_id,
    )


def _identity(n: int) -> Callable[[Hashable], int | None]:
    """Ids are codes: a code below n is its own id."""

    def same(key: Hashable) -> int | None:
        if isinstance(key, (int, np.integer)) and 0 <= int(key) < n:
            return int(key)
        return None

    return same


def _sorted_lookup(codes: Codes) -> Callable[[Hashable], int | None]:
    """Id of a code among ``codes`` (id = position), by binary search."""
    order = np.argsort(codes, kind="stable")
    ordered = codes[order]
    n = codes.shape[0]

    def search(key: Hashable) -> int | None:
        if not isinstance(key, (int, np.integer)) or key < 0:
            return None
        i = int(np.searchsorted(ordered, key))
        return int(order[i]) if i < n and ordered[i] == key else None

    return search


_Parts = tuple[
    Codes,
    npt.NDArray[np.int64],
    npt.NDArray[np.int32],
    npt.NDArray[np.int8],
    npt.NDArray[np.float64],
    npt.NDArray[np.float64] | None,
    npt.NDArray[np.bool_] | None,
    int,
    Callable[[Hashable], int | None],
]
"""Codes, offsets, children, outcome codes, scores, rewards, same-mover flags, the root's
id, and how to find a code's id."""


def _explore_universe(
    rules: Rules[Any, Any],
    terminals: _Terminals,
    root: int,
    universe: int,
    max_states: int | None,
) -> _Parts:
    """Expand every code below ``universe`` at once, then keep what the root reaches."""
    if not 0 <= root < universe:
        raise GameError(f"{rules.name}: initial state code {root} is outside universe {universe}")
    all_codes = np.arange(universe, dtype=np.int64)
    code, score = terminals.read(all_codes)
    open_ids = np.flatnonzero(code == UNDECIDED)
    exp = _expand(rules, all_codes[open_ids])
    if exp.children.size and exp.children.max() >= universe:
        raise GameError(f"{rules.name}.batch_expand produced a code outside its universe")
    degree = np.bincount(exp.parents, minlength=open_ids.shape[0])
    full_degree = np.zeros(universe, dtype=np.int64)
    full_degree[open_ids] = degree
    offsets = np.zeros(universe + 1, dtype=np.int64)
    np.cumsum(full_degree, out=offsets[1:])
    order = kernels.breadth_first_order(offsets, exp.children, np.int64(root))
    rewards = None if exp.rewards is None else np.asarray(exp.rewards, dtype=np.float64)
    same = None if exp.same_mover is None else np.asarray(exp.same_mover, dtype=np.bool_)
    if order.shape[0] == universe:
        # Everything is reachable: ids are the codes themselves, nothing to renumber.
        children = exp.children.astype(np.int32)
        return all_codes, offsets, children, code, score, rewards, same, root, _identity(universe)
    new_offsets, new_children, source = kernels.relabel(
        order, offsets, exp.children, rewards is not None or same is not None
    )
    return (
        order,
        new_offsets,
        new_children,
        code[order],
        score[order],
        None if rewards is None else rewards[source],
        None if same is None else same[source],
        0,
        _sorted_lookup(order),
    )


class _CodeTable:
    """Codes to ids in a compiled hash table that doubles as it fills."""

    def __init__(self, capacity: int = 1 << 10) -> None:
        self.keys = np.full(capacity, -1, dtype=np.int64)
        self.ids = np.empty(capacity, dtype=np.int32)
        self.size = 0

    def intern(self, codes: Codes) -> tuple[npt.NDArray[np.int32], Codes]:
        """Ids for ``codes`` (new codes get the next ids) and the new codes, in that order.

        The table stays at most three quarters full, doubling when it must.
        """
        result = np.empty(codes.shape[0], dtype=np.int32)
        new_codes = np.empty(codes.shape[0], dtype=np.int64)
        start = fresh = np.int64(0)
        while start < codes.shape[0]:
            room = self.keys.shape[0] * 3 // 4 - (self.size + int(fresh))
            if room <= 0:
                capacity = np.int64(2 * self.keys.shape[0])
                self.keys, self.ids = kernels.hash_grow(self.keys, self.ids, capacity)
                continue
            start, fresh = kernels.hash_intern(
                self.keys,
                self.ids,
                codes,
                start,
                np.int64(self.size),
                np.int64(room),
                result,
                new_codes,
                fresh,
            )
        self.size += int(fresh)
        return result, new_codes[: int(fresh)].copy()

    def find(self, key: Hashable) -> int | None:
        """The id of a code, or None."""
        if not isinstance(key, (int, np.integer)) or key < 0:
            return None
        found = int(kernels.hash_find(self.keys, self.ids, np.int64(key)))
        return None if found < 0 else found


def _explore_levels(
    rules: Rules[Any, Any],
    terminals: _Terminals,
    root: int,
    max_states: int | None,
    progress: ProgressCallback | None,
) -> _Parts:
    """Breadth-first, one level per step; ids follow the order of discovery."""
    table = _CodeTable()
    _, frontier = table.intern(np.array([root], dtype=np.int64))
    level_codes: list[Codes] = [frontier]
    degree_parts: list[npt.NDArray[np.int64]] = []
    child_parts: list[npt.NDArray[np.int32]] = []
    reward_parts: list[npt.NDArray[np.float64]] = []
    same_parts: list[npt.NDArray[np.bool_]] = []
    code_parts: list[npt.NDArray[np.int8]] = []
    score_parts: list[npt.NDArray[np.float64]] = []
    expanded = 0
    while frontier.size:
        code, score = terminals.read(frontier)
        code_parts.append(code)
        # Until an end is seen the kind is unknown; scores are kept only for scored games.
        score_parts.append(score[:0] if terminals.kind == "outcome" else score)
        open_idx = np.flatnonzero(code == UNDECIDED)
        exp = _expand(rules, frontier[open_idx])
        degree = np.zeros(frontier.shape[0], dtype=np.int64)
        degree[open_idx] = np.bincount(exp.parents, minlength=open_idx.shape[0])
        degree_parts.append(degree)
        if exp.rewards is not None:
            reward_parts.append(np.asarray(exp.rewards, dtype=np.float64))
        if exp.same_mover is not None:
            same_parts.append(np.asarray(exp.same_mover, dtype=np.bool_))
        ids, frontier = table.intern(exp.children)
        child_parts.append(ids)
        expanded += code.shape[0]
        if max_states is not None and table.size > max_states:
            raise StateBudgetExceeded(
                f"{rules.name}: more than max_states={max_states:,} states "
                f"({expanded:,} expanded); raise max_states or solve a smaller game"
            )
        if progress is not None:
            progress(expanded, table.size, level=len(level_codes) - 1)
        level_codes.append(frontier)
    offsets = np.zeros(sum(d.shape[0] for d in degree_parts) + 1, dtype=np.int64)
    np.cumsum(_drain(degree_parts), out=offsets[1:])
    n_edges = int(offsets[-1])
    # Each list is joined and emptied in turn, so no two copies of everything coexist.
    codes = _drain(level_codes)
    children = _drain(child_parts) if child_parts else np.zeros(0, np.int32)
    return (
        codes,
        offsets,
        children,
        _drain(code_parts),
        _drain(score_parts),
        _joined(reward_parts, n_edges, np.float64),
        _joined(same_parts, n_edges, np.bool_),
        0,
        table.find,
    )


def _drain(parts: list[Any]) -> Any:
    """The parts joined into one array; the list is emptied so they can be freed."""
    joined = np.concatenate(parts)
    parts.clear()
    return joined


def _joined(parts: list[Any], n_edges: int, dtype: Any) -> Any:
    """Per-edge arrays from every level, or None when the game gave none."""
    if not parts:
        return None
    joined = np.concatenate(parts).astype(dtype)
    if joined.shape[0] != n_edges:
        raise GameError("batch_expand gave rewards or same_mover for some batches but not all")
    return joined
