"""Small helpers for a game's ``draw_svg`` hook: the SVG frame, rows of tokens, text.

The web explorer draws a position only through its game's ``draw_svg(state, last=None)``
(see ``protocol.HOOKS``); a game without the hook is drawn as its ``show()`` text by
``letters``. The contract the explorer relies on: the hook returns one ``<svg>`` element;
an element carrying ``data-move="MOVE"`` (MOVE as ``format_move`` writes it) is clickable
and coloured by that move's value, so a game puts the attribute on what a click should play
and only while the move is legal; values are drawn on empty cells or bands, never on the
pieces; the element of ``last`` (the move that led here, the game's own move object, None
at the start) carries the class ``last``. The explorer's style sheet names the classes used
here (``cell``, ``mark``, ``number``, ``token``, ``label``, ``note``, ``letters``).
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

CELL = 48
"""Pixels per cell of a drawn board."""


def svg(width: float, height: float, body: list[str]) -> str:
    """An ``<svg>`` element of the given size around the drawn elements."""
    width, height = int(width), int(height)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}">' + "".join(body) + "</svg>"
    )


def move_attribute(move: str | None) -> str:
    """`` data-move="MOVE"`` for a move a click plays, empty for None."""
    return "" if move is None else f' data-move="{escape(move)}"'


def token_rows(counts: list[int], move_of: Callable[[int, int], str | None],
               labels: list[str]) -> str:  # fmt: skip
    """Rows of tokens, row i holding counts[i] under labels[i]; the k-th token from the
    right of row i plays ``move_of(i, k)`` (None: no move), so a click takes that token and
    those to its right."""
    size = CELL * 0.6
    width = max([*counts, 1]) * size + 90
    body = []
    for i, count in enumerate(counts):
        y = i * (size + 10) + 6
        body.append(f'<text class="label" x="4" y="{y + size * 0.7}">{escape(labels[i])}</text>')
        for j in range(count):
            body.append(
                f'<circle class="token"{move_attribute(move_of(i, count - j))} '
                f'cx="{80 + j * size + size / 2}" cy="{y + size / 2}" r="{size / 2 - 3}"/>'
            )
    return svg(width, len(counts) * (size + 10) + 12, body)


def letters(text: str) -> str:
    """Any text, one cell a character, in a fixed-width grid (the drawing of a game that
    does not draw itself)."""
    lines = text.splitlines() or [""]
    width = max(len(line) for line in lines)
    step_x, step_y = 14, 24
    body = [
        f'<text class="letters" x="6" y="{(i + 1) * step_y}" xml:space="preserve">'
        f"{escape(line)}</text>"
        for i, line in enumerate(lines)
    ]
    return svg(max(width, 1) * step_x + 12, len(lines) * step_y + 12, body)
