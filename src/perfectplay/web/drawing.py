"""Positions drawn as SVG, with the parts a click plays marked ``data-move="MOVE"``.

A game may draw itself with the optional hook ``draw_svg(state) -> str`` (an ``<svg>``
element; elements carrying ``data-move`` with a move as the game formats it become
clickable and are coloured by that move's value). Values are drawn on the empty cells a move
fills, or on a band beside the pieces, never on the pieces: Connect Four's red and yellow
discs carry their letters and keep their colours, its columns' values are on a band above
them. The last move is marked (class ``last``). The built-ins are drawn from the text of
their ``show()``: tic-tac-toe and Connect Four as boards whose cells or columns are the
moves, Nim and subtraction games as rows of tokens (a click takes the token and those to its
right), Dobutsu shogi and the judge games as boards of letters. Anything else is drawn as
its text.
"""

from __future__ import annotations

import re
from html import escape
from typing import Any

from ..rules import Rules

CELL = 48
"""Pixels per cell of the drawn boards."""


def draw(rules: Rules[Any, Any], state: Any, legal: list[str], last: str | None = None) -> str:
    """The SVG of a position; ``legal`` lists its moves as the game formats them, ``last``
    the move that led here (None at the start)."""
    if rules.draw_svg is not None:
        return str(rules.draw_svg(state))
    text = rules.show(state)
    name = rules.name
    if name in ("tictactoe", "weighted-tictactoe"):
        return _tictactoe(text, set(legal), last)
    if name == "connect-four":
        return _connect_four(text, set(legal), last)
    if name == "nim":
        return _piles(text, set(legal))
    if name in ("subtraction", "stones"):
        return _stones(text, set(legal))
    if name == "dobutsu":
        return _dobutsu(text)
    return _letters(text)


def _svg(width: int, height: int, body: list[str]) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}">' + "".join(body) + "</svg>"
    )


def _tictactoe(text: str, legal: set[str], last: str | None) -> str:
    """Rows of cells: a digit is an empty cell (the move that marks it, its number shown in
    a corner as the move list names it), else the mark; cells are numbered row by row, so
    the last move's cell is found by its number."""
    rows = [line.split() for line in text.splitlines() if line.strip()]
    body = []
    for r, row in enumerate(rows):
        for c, token in enumerate(row):
            x, y = c * CELL, r * CELL
            number = str(r * len(row) + c + 1)
            move = f' data-move="{escape(token)}"' if token in legal else ""
            marked = " last" if number == last else ""
            body.append(
                f'<rect class="cell{marked}" x="{x + 2}" y="{y + 2}" width="{CELL - 4}" '
                f'height="{CELL - 4}" rx="6"{move}/>'
            )
            if token.isdigit():
                body.append(f'<text class="number" x="{x + 7}" y="{y + 16}">{escape(token)}</text>')
            else:
                body.append(
                    f'<text class="mark" x="{x + CELL / 2}" y="{y + CELL / 2}">'
                    f"{escape(token)}</text>"
                )
    width = max((len(r) for r in rows), default=1) * CELL
    return _svg(width, len(rows) * CELL, body)


BAND = 14
"""Pixels of the band above Connect Four's columns that shows each column's value."""


def _connect_four(text: str, legal: set[str], last: str | None) -> str:
    """Rows of ``. X O``, top first, then the column numbers: a column is a move. Its value
    is shown on a band above it (the discs keep their colours: X red, O yellow, each with
    its letter), the last disc played is ringed, and a line says which disc is whose."""
    lines = [line.split() for line in text.splitlines() if line.strip()]
    rows, labels = lines[:-1], lines[-1]
    height, width = len(rows), len(labels)
    body = []
    for c, label in enumerate(labels):
        move = f' data-move="{escape(label)}"' if label in legal else ""
        body.append(
            f'<rect class="band" x="{c * CELL + 3}" y="0" width="{CELL - 6}" '
            f'height="{BAND - 4}" rx="3"{move}/>'
        )
        body.append(
            f'<rect class="column" x="{c * CELL + 1}" y="{BAND}" width="{CELL - 2}" '
            f'height="{height * CELL}" rx="6"{move}/>'
        )
        body.append(
            f'<text class="label" x="{c * CELL + CELL / 2}" y="{BAND + height * CELL + 16}">'
            f"{escape(label)}</text>"
        )
    top_disc = {
        c: next((r for r in range(height) if rows[r][c] != "."), None) for c in range(width)
    }
    for r, row in enumerate(rows):
        for c, token in enumerate(row):
            kind = {"X": "disc-x", "O": "disc-o"}.get(token, "hole")
            ringed = " last" if last == labels[c] and top_disc[c] == r else ""
            cx, cy = c * CELL + CELL / 2, BAND + r * CELL + CELL / 2
            body.append(f'<circle class="{kind}{ringed}" cx="{cx}" cy="{cy}" r="{CELL / 2 - 6}"/>')
            if token in ("X", "O"):
                body.append(f'<text class="disc-letter" x="{cx}" y="{cy}">{token}</text>')
    bottom = BAND + height * CELL + 24
    body.append(
        f'<text class="note" x="2" y="{bottom + 14}">X: red disc, moves first; '
        "O: yellow disc</text>"
    )
    return _svg(max(width * CELL, 230), bottom + 22, body)


def _token_rows(counts: list[int], moves: list[Any], labels: list[str]) -> str:
    """Rows of tokens; the k-th token from the right of row i plays ``moves[i](k)``."""
    size = CELL * 0.6
    width = max([*counts, 1]) * size + 90
    body = []
    for i, count in enumerate(counts):
        y = i * (size + 10) + 6
        body.append(f'<text class="label" x="4" y="{y + size * 0.7}">{escape(labels[i])}</text>')
        for j in range(count):
            take = count - j
            move = moves[i](take)
            marked = f' data-move="{escape(move)}"' if move else ""
            body.append(
                f'<circle class="token"{marked} cx="{80 + j * size + size / 2}" '
                f'cy="{y + size / 2}" r="{size / 2 - 3}"/>'
            )
    return _svg(int(width), int(len(counts) * (size + 10) + 12), body)


def _piles(text: str, legal: set[str]) -> str:
    """Nim: ``pile i: ||| (3)`` per line; taking k from pile i is the move ``i:k``."""
    counts = [int(m) for m in re.findall(r"\((\d+)\)", text)]

    def taker(i: int) -> Any:
        return lambda k: f"{i + 1}:{k}" if f"{i + 1}:{k}" in legal else None

    return _token_rows(
        counts,
        [taker(i) for i in range(len(counts))],
        [f"pile {i + 1}" for i in range(len(counts))],
    )


def _stones(text: str, legal: set[str]) -> str:
    """A subtraction game: ``N stones (take ...)``; taking k is the move ``k``."""
    found = re.match(r"\s*(\d+)", text)
    count = int(found.group(1)) if found else 0
    return _token_rows([count], [lambda k: str(k) if str(k) in legal else None], ["stones"])


ANIMALS = {"l": "lion", "g": "giraffe", "e": "elephant", "c": "chick", "h": "hen"}


def _dobutsu(text: str) -> str:
    """Dobutsu shogi: a row of column letters, the rows ``N  g l e`` (upper case: sente's
    pieces, at the bottom; lower case: gote's, drawn upside down), then both hands."""
    lines = text.splitlines()
    rows = [line.split()[1:] for line in lines if re.match(r"\s*\d+\s", line)]
    notes = [line for line in lines if "holds" in line or "to move" in line]
    width = max((len(r) for r in rows), default=3)
    body = []
    for r, row in enumerate(rows):
        for c, token in enumerate(row):
            x, y = c * CELL + 20, r * CELL + 4
            body.append(f'<rect class="square" x="{x}" y="{y}" width="{CELL}" height="{CELL}"/>')
            if token == ".":
                continue
            side = "sente" if token.isupper() else "gote"
            turn = (
                "" if side == "sente" else f' transform="rotate(180 {x + CELL / 2} {y + CELL / 2})"'
            )
            body.append(
                f'<g class="piece {side}"{turn}><rect x="{x + 5}" y="{y + 5}" width="{CELL - 10}" '
                f'height="{CELL - 10}" rx="8"/><text x="{x + CELL / 2}" y="{y + CELL / 2}">'
                f"{escape(token.upper())}</text><title>{side} "
                f"{ANIMALS.get(token.lower(), token)}</title></g>"
            )
        body.append(f'<text class="label" x="8" y="{r * CELL + 4 + CELL / 2}">{r + 1}</text>')
    for c in range(width):
        body.append(
            f'<text class="label" x="{c * CELL + 20 + CELL / 2}" y="{len(rows) * CELL + 20}">'
            f"{chr(ord('A') + c)}</text>"
        )
    top = len(rows) * CELL + 30
    for i, note in enumerate(notes):
        body.append(f'<text class="note" x="4" y="{top + 18 * (i + 1)}">{escape(note)}</text>')
    return _svg(width * CELL + 140, top + 18 * len(notes) + 10, body)


def _letters(text: str) -> str:
    """Any text, one cell a character, in a fixed-width grid."""
    lines = text.splitlines() or [""]
    width = max(len(line) for line in lines)
    step_x, step_y = 14, 24
    body = [
        f'<text class="letters" x="6" y="{(i + 1) * step_y}" xml:space="preserve">'
        f"{escape(line)}</text>"
        for i, line in enumerate(lines)
    ]
    return _svg(max(width, 1) * step_x + 12, len(lines) * step_y + 12, body)
