"""Connect Four on any board: drop a disc into a column; four (or ``connect``) in a row wins.

A state is (mover's discs, all discs), two bitboards with ``height + 1`` bits per column
(the extra bit keeps columns apart, so a shift finds lines without wrapping).
"""

from __future__ import annotations

from ..values import LOSS, TIE, Value


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
        if not symmetry:
            self.key = None  # type: ignore[assignment]
        stride = height + 1
        self.stride = stride
        self.bottom = [1 << (c * stride) for c in range(width)]
        self.top = [1 << (c * stride + height - 1) for c in range(width)]
        self.column_mask = [((1 << height) - 1) << (c * stride) for c in range(width)]
        self.full = sum(self.column_mask)
        self.directions = (1, stride, stride - 1, stride + 1)

    def initial(self) -> tuple[int, int]:
        """The empty board."""
        return (0, 0)

    def moves(self, state: tuple[int, int]) -> list[int]:
        """Columns that are not full, left to right from 0."""
        mask = state[1]
        return [c for c, top in enumerate(self.top) if not mask & top]

    def play(self, state: tuple[int, int], move: int) -> tuple[int, int]:
        """Drop a disc; the result is seen by the other player (whose discs come first)."""
        pos, mask = state
        return pos ^ mask, mask | (mask + self.bottom[move])

    def outcome(self, state: tuple[int, int]) -> Value | None:
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

    def key(self, state: tuple[int, int]) -> tuple[int, int]:
        """The board or its mirror image, whichever codes smaller."""
        pos, mask = state
        last = self.width - 1
        mpos = mmask = 0
        for c, cmask in enumerate(self.column_mask):
            shift = (last - 2 * c) * self.stride
            if shift >= 0:
                mpos |= (pos & cmask) << shift
                mmask |= (mask & cmask) << shift
            else:
                mpos |= (pos & cmask) >> -shift
                mmask |= (mask & cmask) >> -shift
        return min(state, (mpos, mmask))

    def show(self, state: tuple[int, int]) -> str:
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

    def format_move(self, move: int) -> str:
        """Columns are numbered from 1."""
        return str(move + 1)

    def parse_move(self, text: str) -> int:
        """A column number from 1."""
        return int(text) - 1
