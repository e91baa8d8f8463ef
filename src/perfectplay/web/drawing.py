"""A position as SVG for the explorer: the game's own ``draw_svg`` hook, or its text.

The explorer knows no game by name: each built-in draws itself through the hook (see
``perfectplay.drawing`` for the contract and the helpers they share), and a game without
one is drawn as its ``show()`` text, one cell a character.
"""

from __future__ import annotations

from typing import Any

from ..drawing import letters
from ..rules import Rules


def draw(rules: Rules[Any, Any], state: Any, last: Any = None) -> str:
    """The SVG of a position; ``last`` is the move that led here (the game's own move
    object; None at the start)."""
    if rules.presentation.draw_svg is not None:
        return rules.presentation.draw_svg(state, last)
    return letters(rules.show(state))
