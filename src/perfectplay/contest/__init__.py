"""The judge problems: each reads the judge's input and prints exactly the judge's output.

Every problem is modelled by a built-in game. abc349e is answered by the engine's solver;
aoj2741 and edpc_k by dedicated DPs that need no compiled kernels (loading numba's would
take half of the judge's 2 s), arc002d (too large to search at full size) by counting spare
moves. The tests check each dedicated method against the engine's solution of its game.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass

from .reader import InputError, Reader


@dataclass(frozen=True)
class Problem:
    """A judge problem: how to answer an input, and how to make random small inputs."""

    name: str
    title: str
    game: str
    """The built-in game that models it."""
    limit_seconds: float
    answer: Callable[[str], str]
    """The exact judge output for an input text; raises InputError on bad input."""
    generate: Callable[[random.Random], str]
    """A random small input that meets the problem's guarantees."""


PROBLEM_MODULES = ("abc349e", "aoj2741", "arc002d", "edpc_k")


def problems() -> dict[str, Problem]:
    """Every judge problem by name."""
    found = {}
    for name in PROBLEM_MODULES:
        module = importlib.import_module(f"{__name__}.{name}")
        found[name] = module.PROBLEM
    return found


__all__ = ["InputError", "Problem", "Reader", "problems"]
