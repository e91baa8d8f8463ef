"""Dobutsu shogi (3x4 children's shogi) and its smaller variants, one idea a module.

Read in this order: ``board`` (the code of a position, the pieces and their steps, the
mover's view), ``ends`` (a lion taken, a try), ``moves`` (moves and un-moves),
``symmetry`` (the key: the mover's view, or its mirror image), ``ranking`` (the one
tier's index, up to the mirror) and
``game`` (the ``Dobutsu`` class, a section per protocol). Only ``Dobutsu`` is public.
"""

from __future__ import annotations

from .game import Dobutsu

__all__ = ["Dobutsu"]
