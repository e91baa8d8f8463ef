"""Compiled games: rules written once as functions over int64 states, compiled by numba,
ranked and solved by the engine (see ``form`` for what a game writes).

Importing this package loads no numba: the rules compile the first time large work needs
them. ``CompiledGame`` and ``ONGOING`` load ``form`` when first asked for, so that a module
of the package (the engine's ranking, read by a tablebase) imports without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .form import ONGOING, CompiledGame

__all__ = ["ONGOING", "CompiledGame"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import form

        return getattr(form, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
