"""Every error perfectplay raises on purpose, each a sentence a person can act on.

Each refines the built-in exception a caller would naturally catch: an unexplored state is
also a ``KeyError``, a bad parameter also a ``ValueError``. The command line prints the
message of any ``PerfectplayError`` as one line and exits with status 2.
"""

from __future__ import annotations

import reprlib


class _Short(reprlib.Repr):
    """reprlib's short repr, with game values as a person names them (loss, not
    ``<Value.LOSS: 2>``)."""

    def repr_Value(self, obj: object, level: int) -> str:  # (named as reprlib looks it up)
        return str(obj)


_short = _Short()
_short.maxstring = 60
_short.maxother = 60
_short.maxtuple = 12
_short.maxlist = 12


def describe(obj: object) -> str:
    """A short repr for error messages, never longer than a line."""
    return _short.repr(obj)


class PerfectplayError(Exception):
    """Base of every error perfectplay raises on purpose (bad games, bad input, bad calls)."""

    def __str__(self) -> str:
        # KeyError would quote its message; every error here reads as a plain sentence.
        return str(self.args[0]) if self.args else ""


class GameError(PerfectplayError):
    """A game broke the protocol: the message names the method and the state."""


class StateBudgetExceeded(PerfectplayError):
    """Exploration or search passed its budget (states or nodes) before the game was done."""


class CycleError(PerfectplayError):
    """A solver that needs an acyclic state graph met a cycle."""


class UnexploredStateError(PerfectplayError, KeyError):
    """A solution was asked about a state its solver never reached."""


class SolverChoiceError(PerfectplayError, ValueError):
    """The requested solving method does not apply to this game."""


class InterruptedSolve(PerfectplayError):
    """Solving was interrupted (Ctrl-C); the message says how far it got."""


class TablebaseError(PerfectplayError):
    """A tablebase that cannot be trusted (missing, truncated, damaged, another game's) or
    a solve that cannot be saved as one."""


class TablebaseMismatch(TablebaseError):
    """A sound tablebase asked about another game, or the same game with other parameters
    or other rules."""


class ParameterError(PerfectplayError, ValueError):
    """A game parameter that does not exist or does not read as its type."""


class RangeError(PerfectplayError, ValueError):
    """A parameter range that does not read as NAME=A..B."""


class GameNotFound(PerfectplayError, LookupError):
    """A game name that names no game, or a file or module that cannot provide it."""


class UsageProblem(PerfectplayError, ValueError):
    """Command-line input that cannot be acted on."""


class InputError(PerfectplayError, ValueError):
    """Judge input that breaks the problem's format or constraints."""


class ProgramError(PerfectplayError):
    """The program under stress test cannot be started."""
