"""Stones (EDPC K): a pile of k stones, remove exactly one of the amounts in a."""

from __future__ import annotations

from .subtraction import Subtraction


class Stones(Subtraction):
    """A pile of k stones; each move removes one of the amounts a; no move loses."""

    name = "stones"

    def __init__(self, k: int = 4, a: tuple[int, ...] = (2, 3)) -> None:
        super().__init__(stones=k, take=a)
