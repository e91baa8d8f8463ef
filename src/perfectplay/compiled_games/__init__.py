"""Compiled games: rules written once as functions over int64 states, compiled by numba,
ranked and solved by the engine (see ``form`` for what a game writes).

Importing this package loads no numba: the rules compile the first time large work needs
them.
"""

from .form import ONGOING, CompiledGame

__all__ = ["ONGOING", "CompiledGame"]
