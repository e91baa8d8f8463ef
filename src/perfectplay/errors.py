"""The errors perfectplay raises: each one a sentence a person can act on."""

from __future__ import annotations

import reprlib

_short = reprlib.Repr()
_short.maxstring = 60
_short.maxother = 60
_short.maxtuple = 12
_short.maxlist = 12


def describe(obj: object) -> str:
    """A short repr for error messages, never longer than a line."""
    return _short.repr(obj)


class PerfectplayError(Exception):
    """Base of every error perfectplay raises on purpose (bad games, bad input, bad calls)."""


class GameError(PerfectplayError):
    """A game broke the protocol: the message names the method and the state."""


class StateBudgetExceeded(PerfectplayError):
    """Exploration reached the max_states budget before the game was exhausted."""


class CycleError(PerfectplayError):
    """A solver that needs an acyclic state graph met a cycle."""


class UnexploredStateError(PerfectplayError):
    """A solution was asked about a state its solver never reached."""


class SolverChoiceError(PerfectplayError):
    """The requested solving method does not apply to this game."""


class InterruptedSolve(PerfectplayError):
    """Solving was interrupted (Ctrl-C); the message says how far it got."""
