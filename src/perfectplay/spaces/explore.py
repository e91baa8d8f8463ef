"""explore(): a game's reachable states into a StateGraph, by the builder that fits it.

``explore(game)`` reads the game; ``explore_for(rules)`` takes a game read already.
"""

from __future__ import annotations

from typing import Any

from ..core.memory import MemoryWatch
from ..errors import GameError
from ..progress import ProgressCallback
from ..protocol import Game
from ..rules import Rules
from .batch import explore_batch
from .graph import StateGraph
from .plain import explore_plain


def explore(
    game: Game[Any, Any],
    *,
    max_states: int | None = None,
    progress: ProgressCallback | None = None,
    batch: bool | None = None,
    memory: int | None = None,
) -> StateGraph:
    """Reach every state of ``game`` from its initial state, breadth first, without recursion.

    A game offering the batch protocol is explored with arrays unless ``batch=False``;
    ``batch=True`` insists on it. Raises GameError when the game breaks the protocol,
    StateBudgetExceeded when more than ``max_states`` states are found or the process would
    hold more than ``memory`` bytes (default: most of the memory available), InterruptedSolve
    on Ctrl-C.
    """
    return explore_for(
        Rules(game), max_states=max_states, progress=progress, batch=batch, memory=memory
    )


def explore_for(
    rules: Rules[Any, Any],
    *,
    max_states: int | None = None,
    progress: ProgressCallback | None = None,
    batch: bool | None = None,
    memory: int | None = None,
) -> StateGraph:
    """``explore`` of a game read already (its ``Rules``)."""
    if max_states is not None and max_states < 1:
        raise ValueError(f"max_states must be at least 1, got {max_states}")
    if batch and rules.batch is None:
        raise GameError(f"{rules.name} gives no batch protocol (speed())")
    if rules.batch is not None and batch is not False:
        return explore_batch(rules, max_states, progress, MemoryWatch(memory))
    return explore_plain(rules, max_states, progress, MemoryWatch(memory))
