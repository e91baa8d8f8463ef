"""explore(): a game's reachable states into a StateGraph, by the builder that fits it."""

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
    game: Game[Any, Any] | Rules[Any, Any],
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
    rules = game if isinstance(game, Rules) else Rules(game)
    if max_states is not None and max_states < 1:
        raise ValueError(f"max_states must be at least 1, got {max_states}")
    if batch and rules.batch is None:
        raise GameError(f"{rules.name} has no batch_outcome() and batch_expand()")
    if rules.batch is not None and batch is not False:
        return explore_batch(rules, max_states, progress, MemoryWatch(memory))
    return explore_plain(rules, max_states, progress, MemoryWatch(memory))
