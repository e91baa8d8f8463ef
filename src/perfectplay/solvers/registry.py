"""Every solver in one table: its name, what it answers, its precondition and its function.

``solve(game, method=...)``, the command line's ``--method`` and its help, and the test that
runs every solver on random games read this table and nothing else (networkx's
``flow_func``: a named choice with a default, ``auto``, the one that fits). A new solver is
one module in this package, opening with its precondition and its contract, and one entry
here. The methods of a tier too large for memory have their own table
(``tiers.methods``), chosen per tier (or forced with ``--tier-method``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from ..errors import SolverChoiceError
from .alphabeta import search
from .compiled_search import solve_position
from .grundy import solve_grundy
from .negamax import solve_negamax
from .retrograde import solve_retrograde


@dataclass(frozen=True)
class Solver:
    """One solver: ``graph`` solvers take an explored ``StateGraph`` and answer every
    position; a ``search`` takes the game and answers its root alone."""

    name: str
    kind: Literal["graph", "search"]
    answers: str
    """What it computes, in a few words (the command line's help)."""
    precondition: str
    """The games it accepts; it refuses others with a SolverChoiceError saying why."""
    function: Callable[..., Any]
    called: str = "perfectplay.solve(game, method=NAME), perfectplay solve --method NAME"
    """How a user runs it, in Python and on the command line."""


AUTO = "auto"
"""The default method: the graph solver that fits the explored game."""

SOLVERS: tuple[Solver, ...] = (
    Solver(
        "retrograde", "graph", "win, loss, tie or draw and remoteness, cycles allowed",
        "every end is WIN, LOSS or TIE (no scores)", solve_retrograde,
    ),
    Solver(
        "negamax", "graph", "the exact score of every position",
        "a scored game whose positions never repeat", solve_negamax,
    ),
    Solver(
        "grundy", "graph", "Grundy values (and win or loss) of every position",
        "impartial = True, normal play, positions that never repeat", solve_grundy,
    ),
    Solver(
        "alphabeta", "search", "the root's value and a best move, nothing explored in full",
        "any game (its root alone)", search,
        "perfectplay.search(game), perfectplay solve --method alphabeta",
    ),
    Solver(
        "search", "search", "exact scores at one position by compiled alpha-beta search",
        "a game with compiled rules (a compiled game, or the compiled_rules hook)",
        solve_position, "perfectplay analyze GAME --method search",
    ),
)  # fmt: skip


def solver_named(name: str) -> Solver:
    """The solver called ``name``; a SolverChoiceError naming the choices otherwise."""
    for entry in SOLVERS:
        if entry.name == name:
            return entry
    raise SolverChoiceError(f"unknown method {name!r}; choose one of {', '.join(method_names())}")


def method_names() -> tuple[str, ...]:
    """``auto`` and every solver's name, in the table's order."""
    return (AUTO, *(entry.name for entry in SOLVERS))


def methods_help() -> str:
    """One line for ``--method``: each choice and what it answers."""
    named = "; ".join(f"{entry.name}: {entry.answers}" for entry in SOLVERS)
    return f"{AUTO}: the solver that fits the game; {named}."
