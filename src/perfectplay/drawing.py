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


def letter_grid(
    columns: int,
    marks: list[str],
    moves: dict[int, str] | None = None,
    *,
    last: int | None = None,
    turned: list[bool] | None = None,
    note: str = "",
) -> str:
    """A board of ``columns`` columns, cell q (row by row) showing ``marks[q]`` (upside
    down where ``turned[q]``: the other side's piece, as shogi draws it), clickable with
    ``moves[q]``, of class ``last`` where q is ``last``; ``note`` below it."""
    rows = -(-len(marks) // columns)
    moves, turned = moves or {}, turned or [False] * len(marks)
    body, mid = [], CELL / 2
    for q, mark in enumerate(marks):
        x, y = q % columns * CELL, q // columns * CELL
        ringed = " last" if q == last else ""
        box = f'x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="wheat" stroke="black"'
        body.append(f'<rect class="cell{ringed}" {box}{move_attribute(moves.get(q))}/>')
        if mark:
            turn = f' transform="rotate(180 {x + mid} {y + mid})"' if turned[q] else ""
            body.append(f'<text class="mark" x="{x + mid}" y="{y + mid + 6}" '
                        f'text-anchor="middle"{turn}>{escape(mark)}</text>')  # fmt: skip
    if note:
        body.append(f'<text class="note" x="2" y="{rows * CELL + 16}">{escape(note)}</text>')
    return svg(max(columns * CELL, 8 * len(note)), rows * CELL + (24 if note else 0), body)
