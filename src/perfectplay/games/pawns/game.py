"""Pawns (AtCoder ARC 002 D): rows of pawns that only step straight ahead.

The board has H rows of W cells holding ``.`` (empty), ``o`` or ``x``. An ``o`` steps one
cell right, an ``x`` one cell left, always within its row; stepping onto an enemy piece
removes it, stepping onto one's own piece is not allowed. ``o`` moves first, and players
alternate, each moving exactly one piece. A player wins by removing every enemy piece or by
bringing a piece into the enemy camp: the rightmost column for ``o``, the leftmost for
``x``. Pieces only move forward, so the game always ends, and it has no ties.

No legal move. The frontmost piece of a side in any row can always step: the cell ahead is
empty or an enemy (a capture), never its own piece, and it is not the board's edge unless
the side has already won. So a side that still has a piece and has not lost always has a
move, and stuck positions never arise in play. The engine's normal-play convention (no move
is a loss for the mover) is therefore never invoked; the counting method of ``arc002d``
needs no special case for it either.

The board, its states ``(board, flipped)`` and their text are in ``board``; the moves are
named in real coordinates, ``(row, column)`` from 0, the cell of the piece that steps. A
board no piece can race is also a sum of row segments: ``partizan`` hands it to
``segments``.
"""

from __future__ import annotations

from ...values import LOSS, Value
from .board import ENEMY, OWN, SWAP, Move, State, parse_board, real_board
from .segments import PawnSegments, Segment


class Pawns:
    """Pawns step straight ahead and capture straight ahead; reach the far side or capture all.

    board: rows of '.', 'o', 'x' joined by '/'; o moves right and first, x moves left.
    """

    name = "pawns"

    def __init__(self, board: str = "..o.x/o...x") -> None:
        self.rows = parse_board(board)
        self.height = len(self.rows)
        self.width = len(self.rows[0])
        self.stride = self.width + 1
        size = self.height * self.stride
        # Where each index of a board string lies on the real board, as seen by o and by x;
        # and back: the index of a real cell in the board string of either player.
        self._real: tuple[list[Move], list[Move]] = ([], [])
        self._index: tuple[dict[Move, int], dict[Move, int]] = ({}, {})
        for i in range(size):
            row, col = divmod(i, self.stride)
            for flipped, cell in enumerate(
                [(row, col), (self.height - 1 - row, self.width - 1 - col)]
            ):
                self._real[flipped].append(cell)
                if col < self.width:
                    self._index[flipped][cell] = i

    def initial(self) -> State:
        """The given board, o to move."""
        return ("/".join(self.rows).encode("ascii"), False)

    def moves(self, state: State) -> list[Move]:
        """Every piece of the mover whose cell ahead is empty or holds an enemy."""
        board, flipped = state
        real = self._real[flipped]
        found = []
        i = board.find(b"o")
        while i >= 0:
            # The cell ahead is never '/' or past the end: an o there would have won.
            if board[i + 1] != OWN:
                found.append(real[i])
            i = board.find(b"o", i + 1)
        return found

    def play(self, state: State, move: Move) -> State:
        """Step the piece at ``move`` one cell ahead (capturing what is there); turn over."""
        board, flipped = state
        i = self._index[flipped][move]
        # ``flip`` written out: play runs once per edge of the game's graph.
        return ((board[:i] + b".o" + board[i + 2 :])[::-1].translate(SWAP), not flipped)

    def outcome(self, state: State) -> Value | None:
        """LOSS when the opponent has reached the mover's camp or removed all the mover's pieces.

        The mover (always ``o`` in the state's view) cannot have won already: the start has
        no winner, and a move never helps the other side.
        """
        board = state[0]
        if board[0] == ENEMY or b"/x" in board or b"o" not in board:
            return LOSS
        return None

    def show(self, state: State) -> str:
        """The real board, row 1 on top, and who is to move."""
        mover = "x (moving left)" if state[1] else "o (moving right)"
        return "\n".join([*real_board(state).split("/"), f"{mover} to move"])

    def format_move(self, move: Move) -> str:
        """The piece that steps: its column as a letter (a first) and its row counted from
        1, as in ``b3`` (no comma, which separates the moves of ``--moves``)."""
        return f"{chr(ord('a') + move[1])}{move[0] + 1}"

    def parse_move(self, text: str) -> Move:
        """``b3`` (column letter, row from 1), or ``3 2`` (row and column, from 1)."""
        text = text.strip().lower()
        if text[:1].isalpha() and text[1:].isdigit():
            return (int(text[1:]) - 1, ord(text[0]) - ord("a"))
        parts = text.replace(",", " ").split()
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            raise ValueError("a move is the piece's column letter and row, as b3")
        return (int(parts[0]) - 1, int(parts[1]) - 1)

    def partizan(self, state: State) -> tuple[PawnSegments, tuple[Segment, ...], bool]:
        """The position as a sum of row segments (``PawnSegments``), and whether o (Left)
        is to move; ValueError when a piece can race or capture (no such sum)."""
        view = PawnSegments(real_board(state))
        return view, view.initial(), not state[1]
