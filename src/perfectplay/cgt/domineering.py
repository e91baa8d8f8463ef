"""Domineering: Left places vertical dominoes, Right horizontal ones (as in Winning Ways).

Each move covers two empty, adjacent cells; the player who cannot move loses. Regions
that touch nowhere are independent games, so a position's value is the sum of its
connected regions' values; that, with symmetry, is what keeps the work small.

A state is one int: the empty cells of the region as bits, cell (row r, column c) at bit
``r * stride + c``, rows from the top. ``stride`` is fixed per game object, at least 16
and more than the board's width and height, so a row's last bit is always clear and
shifting by 1 or by ``stride`` never carries a cell into another row. Components are
translated to the corner (their top row is row 0, their leftmost column is column 0);
``key`` picks the least of the four reflections that keep vertical dominoes vertical (the
same value), and ``swap`` is the transpose (vertical becomes horizontal: the negative
value). A move is the int of the two cells it covers.

Positions as text: rows from the top separated by ``/`` or newlines, ``.`` an empty cell,
``#`` (or ``x``) a filled one, all rows of one length.
"""

from __future__ import annotations

from ..errors import InputError

__all__ = ["Domineering"]

State = int
Move = int

_REVERSED: dict[int, list[int]] = {}


def _reverser(width: int) -> list[int]:
    """Row masks of ``width`` bits with their bits reversed (cached per width <= 16)."""
    table = _REVERSED.get(width)
    if table is None:
        table = [int(format(m, f"0{width}b")[::-1], 2) for m in range(1 << width)]
        if width <= 16:
            _REVERSED[width] = table
    return table


class Domineering:
    """Domineering on a width x height board: Left plays vertical dominoes, Right
    horizontal ones; whoever cannot move loses.

    width, height: the empty rectangle to start from (--position gives any region that
    fits in a board of this size or 15 x 15, whichever is larger).
    """

    name = "domineering"

    def __init__(self, width: int = 4, height: int = 4) -> None:
        if width < 0 or height < 0:
            raise ValueError("width and height must be at least 0")
        self.width = width
        self.height = height
        self.stride = max(16, width + 1, height + 1)
        self._row = (1 << self.stride) - 1

    def initial(self) -> State:
        """The empty width x height board."""
        row = (1 << self.width) - 1
        return sum(row << (r * self.stride) for r in range(self.height)) if row else 0

    def parse_position(self, text: str) -> State:
        """Rows of '.' (empty) and '#' or 'x' (filled), separated by '/' or newlines."""
        rows = [r.strip() for r in text.replace("\n", "/").split("/") if r.strip()]
        if not rows:
            raise InputError("a Domineering position needs at least one row of '.' and '#'")
        width = len(rows[0])
        if max(width, len(rows)) >= self.stride:
            raise InputError(
                f"the region is {width} x {len(rows)}: regions up to "
                f"{self.stride - 1} x {self.stride - 1} fit; give -p width=W -p height=H"
            )
        state = 0
        for number, row in enumerate(rows, start=1):
            if len(row) != width:
                raise InputError(
                    f"row {number} has {len(row)} cells but row 1 has {width}; rows must be equal"
                )
            bad = set(row) - set(".#xX")
            if bad:
                raise InputError(
                    f"row {number} ({row!r}) holds {''.join(sorted(bad))!r}; cells are "
                    "'.' (empty) and '#' (filled)"
                )
            for c, ch in enumerate(row):
                if ch == ".":
                    state |= 1 << ((number - 1) * self.stride + c)
        return state

    def _rows(self, state: State) -> list[int]:
        rows = []
        stride, mask = self.stride, self._row
        while state:
            rows.append(state & mask)
            state >>= stride
        return rows

    def show(self, state: State) -> str:
        """The region as rows of '.' and '#' (cut to its bounding box)."""
        rows = self._rows(self._corner(state)) if state else []
        width = max((r.bit_length() for r in rows), default=0)
        return "/".join("".join("." if r >> c & 1 else "#" for c in range(width)) for r in rows)

    def left_moves(self, state: State) -> list[Move]:
        """Vertical dominoes: a cell and the one below it."""
        stride = self.stride
        free = state & (state >> stride)
        moves = []
        while free:
            low = free & -free
            moves.append(low | (low << stride))
            free ^= low
        return moves

    def right_moves(self, state: State) -> list[Move]:
        """Horizontal dominoes: a cell and the one to its right."""
        free = state & (state >> 1)
        moves = []
        while free:
            low = free & -free
            moves.append(low | (low << 1))
            free ^= low
        return moves

    def play(self, state: State, move: Move) -> State:
        """Cover the move's two cells."""
        return state ^ move

    def _corner(self, region: State) -> State:
        """The region translated so that its top row and leftmost column are 0."""
        stride, mask = self.stride, self._row
        top = ((region & -region).bit_length() - 1) // stride
        region >>= top * stride
        columns = 0
        rest = region
        while rest:
            columns |= rest & mask
            rest >>= stride
        return region >> ((columns & -columns).bit_length() - 1)

    def components(self, state: State) -> list[State]:
        """The connected regions of two or more cells, each moved to the corner."""
        stride, mask = self.stride, self._row
        whole = state
        parts = []
        while state:
            region = state & -state
            while True:
                # One step in every direction, then along each row to the end of its run
                # in one addition (the carry runs through the empty cells and stops at the
                # first filled one; the cells reached are put back).
                grown = (region | (region >> 1) | (region << stride) | (region >> stride)) & whole
                grown |= ((whole + grown) ^ whole) & whole
                if grown == region:
                    break
                region = grown
            state ^= region
            if not region & (region - 1):
                continue  # a single cell takes no domino: value 0
            top = ((region & -region).bit_length() - 1) // stride
            region >>= top * stride
            columns = 0
            rest = region
            while rest:
                columns |= rest & mask
                rest >>= stride
            parts.append(region >> ((columns & -columns).bit_length() - 1))
        return parts

    def key(self, state: State) -> State:
        """The least of the region's four reflections that keep vertical dominoes vertical."""
        rows = self._rows(state)
        used = 0
        for r in rows:
            used |= r
        table = _reverser(used.bit_length())
        stride = self.stride
        flipped = 0
        upside = 0
        both = 0
        last = len(rows) - 1
        for i, r in enumerate(rows):
            m = table[r]
            flipped |= m << (i * stride)
            upside |= r << ((last - i) * stride)
            both |= m << ((last - i) * stride)
        return min(state, flipped, upside, both)

    def swap(self, state: State) -> State:
        """The transposed region: Left's moves become Right's."""
        stride = self.stride
        out = 0
        rest = state
        while rest:
            low = rest & -rest
            r, c = divmod(low.bit_length() - 1, stride)
            out |= 1 << (c * stride + r)
            rest ^= low
        return out
