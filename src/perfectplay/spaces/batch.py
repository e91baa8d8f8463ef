"""Exploring a game through the batch protocol: many states per call, over integer codes.

A batch game (see ``protocol.HOOKS``) gives ``batch_outcome(codes)`` and
``batch_expand(codes) -> Expansion``, optionally ``batch_key`` (symmetry) and ``universe``
(every state is a code below it). Codes are non-negative int64. With a universe the whole
space is expanded in one call and what the initial state cannot reach is dropped; otherwise
exploration goes level by level, deduplicating through a compiled hash table. Either way
the result is the same StateGraph the plain protocol builds.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.arrays import F64, I8, I32, I64, B
from ..core.memory import MemoryWatch, exploring_advice
from ..errors import GameError, InterruptedSolve, StateBudgetExceeded
from ..progress import ProgressCallback
from ..protocol import BatchRules, Codes, Expansion
from ..rules import Rules
from ..terminals import Kind, Terminals
from ..values import UNDECIDED
from .code_table import CodeTable, is_index_run
from .graph import StateGraph, breadth_first_order, relabel


@dataclass
class _Parts:
    """What an exploration gathered, before it becomes a StateGraph."""

    codes: Codes
    offsets: I64
    children: I32
    outcome_code: I8
    score: F64 | None
    rewards: F64 | None
    same_mover: B | None
    root: int
    lookup: Callable[[Hashable], int | None]


def explore_batch(
    rules: Rules[Any, Any],
    max_states: int | None,
    progress: ProgressCallback | None,
    memory: MemoryWatch,
) -> StateGraph:
    """The StateGraph of a batch game (see the module docstring)."""
    assert rules.batch is not None
    started = time.perf_counter()
    root_key = rules.key_of(rules.initial_state())
    if not isinstance(root_key, (int, np.integer)) or root_key < 0:
        raise GameError(f"{rules.name}: a batch game's states are non-negative integer codes")
    terminals = Terminals(rules.name)
    try:
        if rules.batch.universe is not None:
            parts = _explore_universe(rules, terminals, int(root_key), rules.batch.universe)
        else:
            parts = _explore_levels(rules, terminals, int(root_key), max_states, progress, memory)
    except KeyboardInterrupt:
        raise InterruptedSolve(
            f"interrupted while exploring {rules.name} ({time.perf_counter() - started:.1f} s "
            "in); nothing was solved"
        ) from None
    if max_states is not None and parts.codes.shape[0] > max_states:
        raise StateBudgetExceeded(
            f"{rules.name}: more than max_states={max_states:,} states; raise max_states"
        )
    kind: Kind = terminals.kind or "outcome"
    if kind == "outcome" and parts.rewards is not None and np.any(parts.rewards):
        raise GameError(f"{rules.name} has rewards but its outcomes are WIN/LOSS/TIE")
    terminal = parts.outcome_code != UNDECIDED
    if progress is not None:
        progress(parts.codes.shape[0], parts.codes.shape[0])
    return StateGraph(
        rules=rules,
        states=parts.codes,
        lookup=parts.lookup,
        offsets=parts.offsets,
        children=parts.children,
        kind=kind,
        terminal=terminal,
        outcome_code=np.zeros_like(parts.outcome_code) if kind == "scored" else parts.outcome_code,
        score=parts.score if kind == "scored" else None,
        integral_scores=terminals.integral,
        seconds=time.perf_counter() - started,
        same_mover=parts.same_mover
        if parts.same_mover is not None and parts.same_mover.any()
        else None,
        reward=parts.rewards if kind == "scored" else None,
        root=parts.root,
    )


def expand_checked(rules: Rules[Any, Any], batch: BatchRules, codes: Codes) -> Expansion:
    """The game's expansion of ``codes``, checked, with children in canonical form."""
    if codes.size == 0:
        nothing = np.zeros(0, dtype=np.int64)
        return Expansion(nothing, nothing)
    expansion = batch.batch_expand(codes)
    parents = np.asarray(expansion.parents, dtype=np.int64)
    children = np.asarray(expansion.children, dtype=np.int64)
    if parents.shape != children.shape:
        raise GameError(f"{rules.name}.batch_expand: parents and children differ in length")
    if parents.size and not is_index_run(parents, codes.size):
        raise GameError(
            f"{rules.name}.batch_expand: parents must be non-decreasing indices into the batch"
        )
    if children.size and children.min() < 0:
        raise GameError(f"{rules.name}.batch_expand produced a negative state code")
    if batch.batch_key is not None:
        children = np.asarray(batch.batch_key(children), dtype=np.int64)
    rewards = None if expansion.rewards is None else np.asarray(expansion.rewards, np.float64)
    same = None if expansion.same_mover is None else np.asarray(expansion.same_mover, np.bool_)
    return Expansion(parents, children, rewards, same)


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


def _explore_universe(
    rules: Rules[Any, Any], terminals: Terminals, root: int, universe: int
) -> _Parts:
    """Expand every code below ``universe`` at once, then keep what the root reaches."""
    assert rules.batch is not None
    if not 0 <= root < universe:
        raise GameError(f"{rules.name}: initial state code {root} is outside universe {universe}")
    all_codes = np.arange(universe, dtype=np.int64)
    code, score = terminals.check_batch(all_codes, rules.batch.batch_outcome(all_codes))
    open_ids = np.flatnonzero(code == UNDECIDED)
    exp = expand_checked(rules, rules.batch, all_codes[open_ids])
    if exp.children.size and exp.children.max() >= universe:
        raise GameError(f"{rules.name}.batch_expand produced a code outside its universe")
    full_degree = np.zeros(universe, dtype=np.int64)
    full_degree[open_ids] = np.bincount(exp.parents, minlength=open_ids.shape[0])
    offsets = np.zeros(universe + 1, dtype=np.int64)
    np.cumsum(full_degree, out=offsets[1:])
    order = breadth_first_order(offsets, exp.children, np.int64(root))
    if order.shape[0] == universe:
        # Everything is reachable: ids are the codes themselves, nothing to renumber.
        return _Parts(
            codes=all_codes,
            offsets=offsets,
            children=exp.children.astype(np.int32),
            outcome_code=code,
            score=score,
            rewards=exp.rewards,
            same_mover=exp.same_mover,
            root=root,
            lookup=_identity(universe),
        )
    carry = exp.rewards is not None or exp.same_mover is not None
    new_offsets, new_children, source = relabel(order, offsets, exp.children, carry)
    return _Parts(
        codes=order,
        offsets=new_offsets,
        children=new_children,
        outcome_code=code[order],
        score=None if score is None else score[order],
        rewards=None if exp.rewards is None else exp.rewards[source],
        same_mover=None if exp.same_mover is None else exp.same_mover[source],
        root=0,
        lookup=_sorted_lookup(order),
    )


def _check_budgets(rules: Rules[Any, Any], found: int, expanded: int, max_states: int | None,
                   memory: MemoryWatch) -> None:  # fmt: skip
    """StateBudgetExceeded past max_states, MemoryBudgetExceeded past the memory budget."""
    if max_states is not None and found > max_states:
        raise StateBudgetExceeded(
            f"{rules.name}: more than max_states={max_states:,} states "
            f"({expanded:,} expanded); raise max_states or solve a smaller game"
        )
    memory.check(f"exploring {rules.name}", found, exploring_advice(
        rules.tiers is not None, rules.may_search()))  # fmt: skip


def _explore_levels(
    rules: Rules[Any, Any],
    terminals: Terminals,
    root: int,
    max_states: int | None,
    progress: ProgressCallback | None,
    memory: MemoryWatch,
) -> _Parts:
    """Breadth-first, one level per step; ids follow the order of discovery."""
    assert rules.batch is not None
    table = CodeTable()
    _, frontier = table.intern(np.array([root], dtype=np.int64))
    level_codes: list[Codes] = [frontier]
    degree_parts: list[I64] = []
    child_parts: list[I32] = []
    reward_parts: list[F64] = []
    same_parts: list[B] = []
    code_parts: list[I8] = []
    score_parts: list[F64] = []
    expanded = 0
    while frontier.size:
        code, score = terminals.check_batch(frontier, rules.batch.batch_outcome(frontier))
        code_parts.append(code)
        if score is not None:
            score_parts.append(score)
        open_idx = np.flatnonzero(code == UNDECIDED)
        exp = expand_checked(rules, rules.batch, frontier[open_idx])
        degree = np.zeros(frontier.shape[0], dtype=np.int64)
        degree[open_idx] = np.bincount(exp.parents, minlength=open_idx.shape[0])
        degree_parts.append(degree)
        if exp.rewards is not None:
            reward_parts.append(exp.rewards)
        if exp.same_mover is not None:
            same_parts.append(exp.same_mover)
        ids, frontier = table.intern(exp.children)
        child_parts.append(ids)
        expanded += code.shape[0]
        _check_budgets(rules, table.size, expanded, max_states, memory)
        if progress is not None:
            progress(expanded, table.size, level=len(level_codes) - 1)
        level_codes.append(frontier)
    offsets = np.zeros(sum(d.shape[0] for d in degree_parts) + 1, dtype=np.int64)
    np.cumsum(_drain(degree_parts), out=offsets[1:])
    n_edges = int(offsets[-1])
    # Each list is joined and emptied in turn, so no two copies of everything coexist.
    codes = _drain(level_codes)
    if score_parts and len(score_parts) != len(code_parts):
        raise GameError(f"{rules.name}.batch_outcome mixes outcome codes and scores")
    return _Parts(
        codes=codes,
        offsets=offsets,
        children=_drain(child_parts) if child_parts else np.zeros(0, np.int32),
        outcome_code=_drain(code_parts),
        score=_drain(score_parts) if score_parts else None,
        rewards=_joined(reward_parts, n_edges),
        same_mover=_joined(same_parts, n_edges),
        root=0,
        lookup=table.find,
    )


def _drain(parts: list[Any]) -> Any:
    """The parts joined into one array; the list is emptied so they can be freed."""
    joined = np.concatenate(parts)
    parts.clear()
    return joined


def _joined(parts: list[Any], n_edges: int) -> Any:
    """Per-edge arrays from every level, or None when the game gave none."""
    if not parts:
        return None
    joined = np.concatenate(parts)
    if joined.shape[0] != n_edges:
        raise GameError("batch_expand gave rewards or same_mover for some batches but not all")
    return joined
