"""Spaces: where a game's positions get integer indices for the solvers.

``explore`` builds the ``StateGraph`` (hash-interned ids, children in CSR arrays) through
the plain protocol (``plain``) or the batch protocol (``batch``).
"""

from __future__ import annotations

from .explore import explore
from .graph import StateGraph

__all__ = ["StateGraph", "explore"]
