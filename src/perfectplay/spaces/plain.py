"""Exploring a game through its plain methods: one Python call per state and per move.

Breadth first from the initial state (id 0), without recursion; a dictionary maps each
canonical key to its id. About 300,000 states a second on Connect Four.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.memory import MemoryWatch, exploring_advice
from ..diagnosis import diagnose
from ..errors import GameError, InterruptedSolve, StateBudgetExceeded, describe
from ..progress import ProgressCallback
from ..rules import Rules
from ..terminals import Kind, Terminals
from ..values import Value
from .graph import StateGraph

PROGRESS_EVERY = 1 << 13


@dataclass
class _Walk:
    """What the breadth-first walk gathers, in the compact arrays of the standard library."""

    states: list[Any]
    index: dict[Hashable, int]
    children: array[int] = field(default_factory=lambda: array("i"))
    offsets: array[int] = field(default_factory=lambda: array("q", [0]))
    same: array[int] = field(default_factory=lambda: array("b"))
    rewards: list[object] = field(default_factory=list)
    ends: list[tuple[int, object]] = field(default_factory=list)


def explore_plain(
    rules: Rules[Any, Any],
    max_states: int | None,
    progress: ProgressCallback | None,
    memory: MemoryWatch,
) -> StateGraph:
    """The StateGraph of a game, built one state at a time (see the module docstring)."""
    started = time.perf_counter()
    root = rules.initial_state()
    try:
        walk = _Walk(states=[root], index={rules.key_of(root): 0})
    except TypeError as exc:
        raise GameError(
            f"{rules.name}.initial() returned {describe(root)}, {rules.unhashable(exc)}"
        ) from None
    except Exception as exc:
        raise diagnose(rules, root, exc) from exc
    _walk(rules, walk, max_states if max_states is not None else -1, progress, memory)
    return _graph(rules, walk, time.perf_counter() - started)


def _over_budget(rules: Rules[Any, Any], limit: int, expanded: int) -> StateBudgetExceeded:
    """What the walk raises past ``max_states``."""
    return StateBudgetExceeded(
        f"{rules.name}: more than max_states={limit:,} states "
        f"({expanded:,} expanded); raise max_states or solve a smaller game"
    )


def _report(
    rules: Rules[Any, Any],
    expanded: int,
    found: int,
    memory: MemoryWatch,
    progress: ProgressCallback | None,
) -> None:
    """Every so many states: the memory checked, the progress told."""
    memory.check(f"exploring {rules.name}", found, exploring_advice(
        rules.tiers is not None, rules.may_search()))  # fmt: skip
    if progress is not None:
        progress(expanded, found)


def _walk(
    rules: Rules[Any, Any],
    walk: _Walk,
    limit: int,
    progress: ProgressCallback | None,
    memory: MemoryWatch,
) -> None:
    """Expand every state reached, breadth first; ``limit`` < 0 means no budget."""
    states, index, children, offsets = walk.states, walk.index, walk.children, walk.offsets
    outcome, moves, play, key, to_move, reward = (
        rules.outcome,
        rules.moves,
        rules.play,
        rules.key,
        rules.to_move,
        rules.reward,
    )
    i = 0
    state: Any = states[0]
    try:
        while i < len(states):  # runs once per state: keep it lean
            state = states[i]
            result = outcome(state)
            if result is not None:
                walk.ends.append((i, result))
            else:
                mover = to_move(state) if to_move is not None else None
                for move in moves(state):
                    child = play(state, move)
                    child_key = child if key is None else key(child)
                    cid = index.get(child_key)
                    if cid is None:
                        cid = len(states)
                        index[child_key] = cid
                        states.append(child)
                    children.append(cid)
                    if to_move is not None:
                        walk.same.append(to_move(child) == mover)
                    if reward is not None:
                        walk.rewards.append(reward(state, move))
            offsets.append(len(children))
            i += 1
            if limit >= 0 and len(states) > limit:
                raise _over_budget(rules, limit, i)
            if not i & (PROGRESS_EVERY - 1):
                _report(rules, i, len(states), memory, progress)
    except KeyboardInterrupt:
        raise InterruptedSolve(
            f"interrupted while exploring {rules.name}: {i:,} states expanded, "
            f"{len(states):,} found"
        ) from None
    except (StateBudgetExceeded, GameError):
        raise
    except Exception as exc:
        raise diagnose(rules, state, exc) from exc
    if progress is not None:
        progress(i, len(states))


def _graph(rules: Rules[Any, Any], walk: _Walk, seconds: float) -> StateGraph:
    """The walk's findings as a StateGraph, every end and reward checked."""
    n = len(walk.states)
    terminals = Terminals(rules.name)
    terminal = np.zeros(n, dtype=np.bool_)
    code = np.zeros(n, dtype=np.int8)
    score = np.full(n, np.nan)
    for sid, value in walk.ends:
        terminal[sid] = True
        checked = terminals.check(walk.states[sid], value)
        if isinstance(checked, Value):
            code[sid] = int(checked)
        else:
            score[sid] = checked
    kind: Kind = terminals.kind or "outcome"
    same = np.frombuffer(walk.same, dtype=np.int8).astype(np.bool_)
    edge_reward = None
    if rules.reward is not None:
        edge_reward = np.array([terminals.check_reward(r) for r in walk.rewards], np.float64)
        if kind != "scored" and edge_reward.any():
            raise GameError(
                f"{rules.name} has reward() but its outcome() gives WIN/LOSS/TIE; rewards "
                "belong to scored games (make outcome() return numbers)"
            )
    return StateGraph(
        rules=rules,
        states=walk.states,
        lookup=walk.index.get,
        offsets=np.frombuffer(walk.offsets, dtype=np.int64).copy(),
        children=np.frombuffer(walk.children, dtype=np.int32).copy(),
        kind=kind,
        terminal=terminal,
        outcome_code=code,
        score=score if kind == "scored" else None,
        integral_scores=terminals.integral,
        seconds=seconds,
        same_mover=same if same.any() else None,
        reward=edge_reward,
    )
