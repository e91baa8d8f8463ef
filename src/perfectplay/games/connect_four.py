"""Connect Four on any board: drop a disc into a column; four (or ``connect``) in a row wins.

A state is (mover's discs, all discs): two bitboards with ``height + 1`` bits per column
(the spare bit keeps columns apart, so shifts find lines without wrapping). Its code, for
solving, is the sum of the two boards: within each column that sum is the column's discs
plus a run of ones, which no other column content produces, so the code is unique and
short enough for 7 x 6. The batch methods apply the same rules to arrays of codes.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..batch import Expansion
from ..values import LOSS, TIE, Value

Codes = npt.NDArray[np.int64]
State = tuple[int, int]


class ConnectFour:
    """Drop discs into columns; a line of four (or connect) wins, a full board ties."""

    name = "connect-four"

    def __init__(
        self, width: int = 4, height: int = 4, connect: int = 4, symmetry: bool = False
    ) -> None:
        if width < 1 or height < 1 or connect < 2:
            raise ValueError("need width >= 1, height >= 1 and connect >= 2")
        if width * (height + 1) > 62:
            raise ValueError("the board must fit 62 bits: width * (height + 1) <= 62")
        self.width, self.height, self.connect = width, height, connect
        self.symmetry = symmetry
        stride = height + 1
        self.stride = stride
        self.bottom = [1 << (c * stride) for c in range(width)]
        self.top = [1 << (c * stride + height - 1) for c in range(width)]
        self.column_mask = [((1 << height) - 1) << (c * stride) for c in range(width)]
        self.full = sum(self.column_mask)
        self.directions = (1, stride, stride - 1, stride + 1)

    # --- the plain protocol -------------------------------------------------------------

    def initial(self) -> State:
        """The empty board."""
        return (0, 0)

    def moves(self, state: State) -> list[int]:
        """Columns that are not full, left to right from 0."""
        mask = state[1]
        return [c for c, top in enumerate(self.top) if not mask & top]

    def play(self, state: State, move: int) -> State:
        """Drop a disc; the result is seen by the other player (whose discs come first)."""
        pos, mask = state
        return pos ^ mask, mask | (mask + self.bottom[move])

    def outcome(self, state: State) -> Value | None:
        """LOSS when the previous player's discs hold a line; TIE on a full board."""
        pos, mask = state
        if self.has_line(pos ^ mask):
            return LOSS
        if mask == self.full:
            return TIE
        return None

    def has_line(self, discs: int) -> bool:
        """Whether a set of discs holds ``connect`` in a row in any direction."""
        for d in self.directions:
            run = discs
            for _ in range(self.connect - 1):
                run &= run >> d
            if run:
                return True
        return False

    def key(self, state: State) -> int:
        """The state's code (with symmetry, the smaller of it and its mirror image's)."""
        code = state[0] + state[1]
        return min(code, self.mirror_code(code)) if self.symmetry else code

    def from_code(self, code: int) -> State:
        """The state behind a code."""
        pos = mask = 0
        for c in range(self.width):
            shift = c * self.stride
            column = code >> shift & ((1 << self.stride) - 1)
            filled = (1 << ((column + 1).bit_length() - 1)) - 1
            mask |= filled << shift
            pos |= (column - filled) << shift
        return pos, mask

    def mirror_code(self, code: int) -> int:
        """The code of the board seen in a mirror (columns reversed)."""
        column_bits = (1 << self.stride) - 1
        mirrored = 0
        for c in range(self.width):
            column = code >> (c * self.stride) & column_bits
            mirrored |= column << ((self.width - 1 - c) * self.stride)
        return mirrored

    def show(self, state: State) -> str:
        """The board, top row first; X moved first. Columns are numbered from 1."""
        pos, mask = state
        x_to_move = mask.bit_count() % 2 == 0
        x_discs = pos if x_to_move else pos ^ mask
        rows = []
        for r in reversed(range(self.height)):
            row = []
            for c in range(self.width):
                bit = 1 << (c * self.stride + r)
                row.append("." if not mask & bit else "X" if x_discs & bit else "O")
            rows.append(" ".join(row))
        rows.append(" ".join(str(c + 1) for c in range(self.width)))
        return "\n".join(rows)

    def parse_state(self, text: str) -> State:
        """Rows top first, separated by '/', of X, O and '.'; X moved first.

        For example '..../..../.O../XX.O' on a 4 x 4 board.
        """
        rows = [row.strip().upper() for row in text.split("/")]
        if len(rows) != self.height or any(len(row) != self.width for row in rows):
            raise ValueError(f"write {self.height} rows of {self.width} cells, top row first")
        x = o = 0
        for r, row in enumerate(reversed(rows)):
            for c, cell in enumerate(row):
                bit = 1 << (c * self.stride + r)
                if cell == "X":
                    x |= bit
                elif cell == "O":
                    o |= bit
                elif cell != ".":
                    raise ValueError(f"cells are X, O or '.', not {cell!r}")
        mask = x | o
        for c in range(self.width):
            column = mask >> (c * self.stride) & ((1 << self.stride) - 1)
            if column & (column + 1):
                raise ValueError(f"column {c + 1} has a gap under a disc")
        if not 0 <= x.bit_count() - o.bit_count() <= 1:
            raise ValueError("X moves first: X has as many discs as O, or one more")
        mover = x if x.bit_count() == o.bit_count() else o
        return mover, mask

    def format_move(self, move: int) -> str:
        """Columns are numbered from 1."""
        return str(move + 1)

    def parse_move(self, text: str) -> int:
        """A column number from 1."""
        return int(text) - 1

    # --- the batch protocol -------------------------------------------------------------

    def _boards(self, codes: Codes) -> tuple[Codes, Codes]:
        """(mover's discs, all discs) for an array of codes."""
        column_bits = np.int64((1 << self.stride) - 1)
        # FILLED[v]: the filled cells of a column whose code is v.
        filled_of = np.array(
            [(1 << ((v + 1).bit_length() - 1)) - 1 for v in range(1 << self.stride)],
            dtype=np.int64,
        )
        mask = np.zeros_like(codes)
        for c in range(self.width):
            shift = np.int64(c * self.stride)
            mask |= filled_of[(codes >> shift) & column_bits] << shift
        return codes - mask, mask

    def _lines(self, discs: Codes) -> npt.NDArray[np.bool_]:
        found = np.zeros(discs.shape[0], dtype=np.bool_)
        for d in self.directions:
            run = discs.copy()
            for _ in range(self.connect - 1):
                run &= run >> np.int64(d)
            found |= run != 0
        return found

    def batch_outcome(self, codes: Codes) -> npt.NDArray[np.int8]:
        """LOSS (2) where the previous player has a line, TIE (3) on a full board, else 0."""
        pos, mask = self._boards(codes)
        result = np.zeros(codes.shape[0], dtype=np.int8)
        result[mask == self.full] = int(TIE)
        result[self._lines(pos ^ mask)] = int(LOSS)
        return result

    def batch_expand(self, codes: Codes) -> Expansion:
        """A disc dropped in every column that has room, for every state at once."""
        pos, mask = self._boards(codes)
        children = np.empty((codes.shape[0], self.width), dtype=np.int64)
        playable = np.empty((codes.shape[0], self.width), dtype=np.bool_)
        after = pos ^ mask
        for c in range(self.width):
            playable[:, c] = (mask & np.int64(self.top[c])) == 0
            children[:, c] = after + (mask | (mask + np.int64(self.bottom[c])))
        parents, columns = np.nonzero(playable)
        kids = children[parents, columns]
        if self.symmetry:
            kids = self.batch_key(kids)
        return Expansion(parents.astype(np.int64), kids)

    def batch_key(self, codes: Codes) -> Codes:
        """Canonical codes: with symmetry, the smaller of a code and its mirror image's."""
        if not self.symmetry:
            return codes
        column_bits = np.int64((1 << self.stride) - 1)
        mirrored = np.zeros_like(codes)
        for c in range(self.width):
            column = (codes >> np.int64(c * self.stride)) & column_bits
            mirrored |= column << np.int64((self.width - 1 - c) * self.stride)
        return np.minimum(codes, mirrored)
