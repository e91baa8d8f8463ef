"""The pawns board: its rows read and checked, its states, and the board seen by either side.

A board is H rows of W cells holding ``.`` (empty), ``o`` or ``x``, written as the rows
joined by ``/``. A state is ``(board, flipped)``: ``board`` is the position seen by the
player to move, who always plays ``o`` moving right, as bytes: the rows joined by ``/``.
When ``x`` is really to move (``flipped`` is True) the real board is turned half a turn
(the whole string read backwards, so rows and columns are reversed) and ``o`` and ``x`` are
swapped (``flip``; ``real_board`` turns a state back). The sum view (``segments``) keeps
row segments as text and swaps them the same way (``SWAP_TEXT``).
"""

from __future__ import annotations

State = tuple[bytes, bool]
"""``(board, flipped)``: the board seen by the player to move, and whether that is ``x``."""
Move = tuple[int, int]
"""The real cell ``(row, column)``, from 0, of the piece that steps."""

SWAP = bytes.maketrans(b"ox", b"xo")
"""``o`` and ``x`` exchanged, in a board of bytes."""
SWAP_TEXT = str.maketrans("ox", "xo")
"""``o`` and ``x`` exchanged, in text."""
OWN = ord("o")
ENEMY = ord("x")
PIECES = frozenset(".ox")


def parse_board(board: str) -> list[str]:
    """The rows of a board written as rows separated by ``/``; ValueError when malformed."""
    rows = board.strip().split("/")
    width = len(rows[0])
    for number, row in enumerate(rows, start=1):
        if not row:
            raise ValueError(f"row {number} is empty; write rows of '.', 'o', 'x' joined by '/'")
        bad = set(row) - PIECES
        if bad:
            raise ValueError(
                f"row {number} ({row!r}) holds {''.join(sorted(bad))!r}; cells are '.', 'o', 'x'"
            )
        if len(row) != width:
            raise ValueError(
                f"row {number} has {len(row)} cells but row 1 has {width}; rows must be equal"
            )
    if width < 2:
        raise ValueError("the board needs at least 2 columns")
    joined = "".join(rows)
    if "o" not in joined or "x" not in joined:
        raise ValueError("each side needs at least one piece: the game would already be over")
    for number, row in enumerate(rows, start=1):
        if row[-1] == "o":
            raise ValueError(f"row {number} has an 'o' in the rightmost column: o has already won")
        if row[0] == "x":
            raise ValueError(f"row {number} has an 'x' in the leftmost column: x has already won")
    return rows


def flip(board: bytes) -> bytes:
    """The board as the other player sees it: turned half a turn, colours swapped."""
    return board[::-1].translate(SWAP)


def real_board(state: State) -> str:
    """The board of a state as it really stands (``o`` moving right), as text."""
    board, flipped = state
    return (flip(board) if flipped else board).decode("ascii")
