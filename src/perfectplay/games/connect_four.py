"""Connect Four on any board: drop a disc into a column; four (or ``connect``) in a row wins.

The encoding, drawn for 7 x 6: one bit per cell, ``stride = height + 1`` bits per column,
numbered up each column and then column by column::

       6 13 20 27 34 41 48    spare row: always empty
     +---------------------+
     | 5 12 19 26 33 40 47 |  top row
     | 4 11 18 25 32 39 46 |
     | 3 10 17 24 31 38 45 |
     | 2  9 16 23 30 37 44 |
     | 1  8 15 22 29 36 43 |
     | 0  7 14 21 28 35 42 |  bottom row
     +---------------------+
       1  2  3  4  5  6  7    columns as a person types them

A state is ``(mover, mask)``: the discs of the player to move, and all discs.
- A line of ``connect`` in direction d (1 up, stride across, stride - 1 and stride + 1 the
  diagonals) shows as a bit left in ``discs & discs >> d & discs >> 2d ...``; the spare row
  is never set, so no run wraps from the top of one column to the bottom of the next.
- Dropping a disc in column c is ``mask | (mask + bottom[c])``: the carry stops in the
  column's lowest empty cell. The player to move then changes, so the new mover's discs are
  ``mover ^ mask`` (the old opponent's).
- The code of a state, its key for solving, is ``mover + mask``. In a column holding k
  discs the mask is ``2**k - 1`` and the mover's part m is below ``2**k``, so the column's
  code ``2**k - 1 + m`` has its top bit at k (or k - 1 when m = 0): k, then m, can be read
  back, and the code fits ``width * stride`` bits (62 at most). Example: a column (height 3)
  holding X at the bottom and O above it, X to move: mask 0b011, mover 0b001, code 0b100.

Tier t (the tier protocol, for solving out of core) holds the positions with t discs; see
``DiscTiers`` for its dense ranking. The tier hooks rank raw codes, never mirrored ones.

Every rule below is written once, on values that are Python ints (one state, the plain
protocol) or int64 arrays (many states, the batch protocol): the bit operations are the same.
"""

from __future__ import annotations

from functools import cache
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from ..protocol import Expansion
from ..values import LOSS, TIE, Value

Codes = npt.NDArray[np.int64]
State = tuple[int, int]
Bits = TypeVar("Bits", int, Codes)
"""One state's bitboard (a Python int) or many states' (an int64 array)."""


class Board:
    """The geometry of a board and its rules on bitboards (see the module docstring)."""

    def __init__(self, width: int, height: int, connect: int) -> None:
        self.width, self.height, self.connect = width, height, connect
        self.stride = height + 1
        self.bottom = [1 << (c * self.stride) for c in range(width)]
        self.top = [1 << (c * self.stride + height - 1) for c in range(width)]
        self.full = sum(((1 << height) - 1) << (c * self.stride) for c in range(width))
        self.directions = (1, self.stride, self.stride - 1, self.stride + 1)
        self.column_bits = (1 << self.stride) - 1
        # held[v] and filled[v]: the number of discs, and the cells holding them, in a column
        # whose code is v (see the docstring); tall boards compute them instead of holding
        # tables of 2**stride entries.
        self.held: Codes | None = None
        self.filled: Codes | None = None
        if self.stride <= 16:
            counts = [(v + 1).bit_length() - 1 for v in range(1 << self.stride)]
            self.held = np.array(counts, dtype=np.int64)
            self.filled = (np.int64(1) << self.held) - 1

    def fill(self, columns: Codes) -> Codes:
        """The cells holding discs in columns with codes ``columns``: all bits below the top
        bit of ``columns + 1``."""
        if self.filled is not None:
            return self.filled[columns]
        smeared = columns + 1
        for shift in (1, 2, 4, 8, 16, 32):
            smeared |= smeared >> shift
        return smeared >> 1

    def discs(self, columns: Codes) -> Codes:
        """How many discs columns with codes ``columns`` hold."""
        if self.held is not None:
            return self.held[columns]
        return popcount(self.fill(columns))

    def line_ends(self, discs: Bits) -> Bits:
        """Non-zero (bitwise) where a set of discs holds ``connect`` in a row."""
        found = discs & 0
        for d in self.directions:
            run = discs
            for _ in range(self.connect - 1):
                run = run & (run >> d)
            found = found | run
        return found

    def drop(self, mover: Bits, mask: Bits, column: int) -> tuple[Bits, Bits]:
        """The state after a disc in ``column``, seen by the next player."""
        return mover ^ mask, mask | (mask + self.bottom[column])

    def mirror(self, codes: Bits) -> Bits:
        """The codes of the boards seen in a mirror (columns reversed)."""
        mirrored = codes & 0
        for c in range(self.width):
            column = (codes >> (c * self.stride)) & self.column_bits
            mirrored = mirrored | (column << ((self.width - 1 - c) * self.stride))
        return mirrored

    def boards(self, codes: Codes) -> tuple[Codes, Codes]:
        """(mover's discs, all discs) for an array of codes."""
        mask = np.zeros_like(codes)
        for c in range(self.width):
            shift = c * self.stride
            mask |= self.fill((codes >> shift) & self.column_bits) << shift
        return codes - mask, mask


def popcount(values: Codes) -> Codes:
    """The number of set bits of each value (numpy before 2.0 has no bitwise_count)."""
    v = values.astype(np.uint64)
    v = v - ((v >> np.uint64(1)) & np.uint64(0x5555555555555555))
    v = (v & np.uint64(0x3333333333333333)) + ((v >> np.uint64(2)) & np.uint64(0x3333333333333333))
    v = (v + (v >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return ((v * np.uint64(0x0101010101010101)) >> np.uint64(56)).astype(np.int64)


def binomials(n: int) -> Codes:
    """binom[i, j] = C(i, j) for i, j in 0..n (0 when j > i); exact in int64 up to n = 66."""
    binom = np.zeros((n + 1, n + 1), dtype=np.int64)
    binom[:, 0] = 1
    for i in range(1, n + 1):
        binom[i, 1:] = binom[i - 1, 1:] + binom[i - 1, :-1]
    return binom


TABLE_LIMIT = 1 << 20
"""Tiers with at most this many column fillings keep a table of their masks."""


class DiscTiers:
    """The tier protocol's dense ranking of the positions holding t discs (see ConnectFour).

    index = rank of the column heights * C(t, x) + rank of which discs are X, where x =
    ceil(t / 2) (X moved first). Heights are ranked lexicographically, column 0 first, with
    ``before[c, s, h]``: the fillings of columns c.. with s discs whose column c holds fewer
    than h. The discs, listed column by column and bottom to top, make a t-bit word with a bit
    set for each X; it is ranked in the combinatorial number system (the sum of C(p_i, i)
    over the X positions p_1 < p_2 < ...), eight positions at a time through ``colex``.
    """

    def __init__(self, board: Board) -> None:
        self.board = board
        width, height = board.width, board.height
        self.cells = cells = width * height
        self.binom = binomials(cells + 1)
        ways = np.zeros((width + 1, cells + 1), dtype=np.int64)  # ways[c, s], as above
        ways[width, 0] = 1
        for c in reversed(range(width)):
            for h in range(height + 1):
                ways[c, h:] += ways[c + 1, : cells + 1 - h]
        self.ways = ways
        self.before = np.zeros((width, cells + 1, height + 2), dtype=np.int64)
        for c in range(width):
            for h in range(1, height + 2):
                self.before[c, h - 1 :, h] = ways[c + 1, : cells + 2 - h]
        np.cumsum(self.before, axis=2, out=self.before)
        # colex[j, i, byte]: what the X bits ``byte`` at positions 8j to 8j + 7 add to the
        # rank when i X discs come before them.
        byte = np.arange(256, dtype=np.int64)
        self.bits = np.array([b.bit_count() for b in range(256)], dtype=np.int64)
        before_x = np.arange(cells + 1, dtype=np.int64)[:, None]
        self.colex = np.zeros(((cells + 7) // 8, cells + 1, 256), dtype=np.int64)
        for j in range(self.colex.shape[0]):
            for b in range(min(8, cells - 8 * j)):
                nth = before_x + self.bits[byte & ((1 << b) - 1)] + 1
                taken = self.binom[8 * j + b, np.minimum(nth, cells + 1)]
                self.colex[j] += np.where((byte >> b) & 1 == 1, taken, 0)
        self.ones = np.array([(1 << h) - 1 for h in range(height + 2)], dtype=np.int64)
        self.mask_tables: dict[int, Codes] = {}

    def size(self, tier: int) -> int:
        """How many indices tier ``tier`` has."""
        if not 0 <= tier <= self.cells:
            raise ValueError(f"tiers run from 0 to {self.cells} discs, not {tier}")
        return int(self.ways[0, tier]) * int(self.binom[tier, (tier + 1) // 2])

    def rank(self, tier: int, codes: Codes) -> Codes:
        """The indices of codes within their tier; -1 for a code holding another number of
        discs (or no code at all)."""
        board, x_count = self.board, (tier + 1) // 2
        codes = np.asarray(codes, dtype=np.int64)
        left = np.full(codes.shape, tier, dtype=np.int64)
        heights = np.zeros(codes.shape, dtype=np.int64)
        position = np.zeros(codes.shape, dtype=np.int64)
        x_word = np.zeros(codes.shape, dtype=np.int64)
        bad = (codes >> (board.width * board.stride)) != 0
        for c in range(board.width):
            column = (codes >> (c * board.stride)) & board.column_bits
            filled = board.fill(column)
            x_discs = column - filled if tier % 2 == 0 else (column - filled) ^ filled
            discs = board.discs(column)
            bad |= discs > left
            heights += self.before[c][np.maximum(left, 0), discs]
            left -= discs
            x_word |= x_discs << position
            position += discs
        colour = np.zeros(codes.shape, dtype=np.int64)
        seen = np.zeros(codes.shape, dtype=np.int64)
        for j in range((tier + 7) // 8):
            byte = (x_word >> (8 * j)) & 255
            colour += self.colex[j][np.minimum(seen, self.cells), byte]
            seen += self.bits[byte]
        index: Codes = heights * self.binom[tier, x_count] + colour
        index[bad | (left != 0) | (seen != x_count)] = -1
        return index

    def unrank(self, tier: int, indices: Codes) -> Codes:
        """The codes with the given indices in tier ``tier``; -1 for an index out of range."""
        indices = np.asarray(indices, dtype=np.int64)
        valid = (indices >= 0) & (indices < self.size(tier))
        x_count = (tier + 1) // 2
        heights, colour = np.divmod(np.where(valid, indices, 0), self.binom[tier, x_count])
        if self.ways[0, tier] <= TABLE_LIMIT:
            mask = self._mask_table(tier)[heights]
        else:
            mask = self.masks(tier, heights)
        x_discs = self._deposit(mask, self._x_word(tier, colour))
        codes: Codes = mask + (x_discs if tier % 2 == 0 else x_discs ^ mask)
        codes[~valid] = -1
        return codes

    def masks(self, tier: int, heights: Codes) -> Codes:
        """The disc masks of the column fillings with ranks ``heights`` in tier ``tier``."""
        board = self.board
        heights = heights.copy()
        left = np.full(heights.shape, tier, dtype=np.int64)
        mask = np.zeros(heights.shape, dtype=np.int64)
        for c in range(board.width):
            table = self.before[c]
            discs = np.zeros(heights.shape, dtype=np.int64)
            for h in range(1, board.height + 1):
                discs += table[:, h][left] <= heights
            heights -= table[left, discs]
            mask |= self.ones[discs] << (c * board.stride)
            left -= discs
        return mask

    def _mask_table(self, tier: int) -> Codes:
        """The masks of every column filling of a tier, by rank (kept once built)."""
        if tier not in self.mask_tables:
            self.mask_tables[tier] = self.masks(tier, np.arange(self.ways[0, tier]))
        return self.mask_tables[tier]

    def _x_word(self, tier: int, colour: Codes) -> Codes:
        """The t-bit words (bit p set when disc p is X) with colex ranks ``colour``: from the
        top position down, disc p is X when the rank left reaches C(p, X discs left)."""
        x_left = np.full(colour.shape, (tier + 1) // 2, dtype=np.intp)
        below = np.empty(colour.shape, dtype=np.int64)
        taken = np.empty(colour.shape, dtype=np.bool_)
        colour = colour.copy()
        octets = np.zeros(((tier + 7) // 8, *colour.shape), dtype=np.uint8)
        for p in reversed(range(tier)):
            np.take(self.binom[p], x_left, out=below)
            np.greater_equal(colour, below, out=taken)
            below *= taken
            colour -= below
            x_left -= taken
            octets[p >> 3] |= taken.view(np.uint8) << np.uint8(p & 7)
        word = np.zeros(colour.shape, dtype=np.int64)
        for j, octet in enumerate(octets):
            word |= octet.astype(np.int64) << (8 * j)
        return word

    def _deposit(self, mask: Codes, word: Codes) -> Codes:
        """The bits of ``word``, lowest first, spread over the set bits of ``mask`` (whose
        columns are filled from the bottom)."""
        board = self.board
        spread = np.zeros(mask.shape, dtype=np.int64)
        word = word.copy()
        for c in range(board.width):
            filled = (mask >> (c * board.stride)) & board.column_bits
            spread |= (word & filled) << (c * board.stride)
            word >>= board.discs(filled)  # a column code 2**k - 1 holds k discs
        return spread


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
        self.board = Board(width, height, connect)

    def canonical(self, codes: Bits) -> Bits:
        """With symmetry, the smaller of a code and its mirror image's; else the code."""
        if not self.symmetry:
            return codes
        mirrored = self.board.mirror(codes)
        if isinstance(codes, np.ndarray):
            return np.minimum(codes, mirrored)
        return min(codes, mirrored)

    # --- the plain protocol ----------------------------------------------------------------

    def initial(self) -> State:
        """The empty board."""
        return (0, 0)

    def moves(self, state: State) -> list[int]:
        """Columns that are not full, left to right from 0."""
        return [c for c, top in enumerate(self.board.top) if not state[1] & top]

    def play(self, state: State, move: int) -> State:
        """Drop a disc; the result is seen by the other player."""
        return self.board.drop(state[0], state[1], move)

    def outcome(self, state: State) -> Value | None:
        """LOSS when the previous player's discs hold a line; TIE on a full board."""
        mover, mask = state
        if self.board.line_ends(mover ^ mask):
            return LOSS
        return TIE if mask == self.board.full else None

    def key(self, state: State) -> int:
        """The state's code (with symmetry, the smaller of it and its mirror image's)."""
        return self.canonical(state[0] + state[1])

    def from_code(self, code: int) -> State:
        """The state behind a code."""
        mover, mask = self.board.boards(np.array([code], dtype=np.int64))
        return int(mover[0]), int(mask[0])

    def show(self, state: State) -> str:
        """The board, top row first; X moved first. Columns are numbered from 1."""
        mover, mask = state
        x_discs = mover if mask.bit_count() % 2 == 0 else mover ^ mask
        rows = []
        for r in reversed(range(self.height)):
            row = []
            for c in range(self.width):
                bit = 1 << (c * self.board.stride + r)
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
                bit = 1 << (c * self.board.stride + r)
                if cell == "X":
                    x |= bit
                elif cell == "O":
                    o |= bit
                elif cell != ".":
                    raise ValueError(f"cells are X, O or '.', not {cell!r}")
        mask = x | o
        for c in range(self.width):
            column = (mask >> (c * self.board.stride)) & self.board.column_bits
            if column & (column + 1):
                raise ValueError(f"column {c + 1} has a gap under a disc")
        if not 0 <= x.bit_count() - o.bit_count() <= 1:
            raise ValueError("X moves first: X has as many discs as O, or one more")
        return (x if x.bit_count() == o.bit_count() else o), mask

    def format_move(self, move: int) -> str:
        """Columns are numbered from 1."""
        return str(move + 1)

    def parse_move(self, text: str) -> int:
        """A column number from 1."""
        return int(text) - 1

    # --- the batch protocol: the same rules over arrays of codes ---------------------------

    def batch_outcome(self, codes: Codes) -> npt.NDArray[np.int8]:
        """LOSS (2) where the previous player has a line, TIE (3) on a full board, else 0."""
        mover, mask = self.board.boards(codes)
        result = np.zeros(codes.shape[0], dtype=np.int8)
        result[mask == self.board.full] = int(TIE)
        result[self.board.line_ends(mover ^ mask) != 0] = int(LOSS)
        return result

    def batch_expand(self, codes: Codes) -> Expansion:
        """A disc dropped in every column that has room, for every state at once."""
        mover, mask = self.board.boards(codes)
        children = np.empty((codes.shape[0], self.width), dtype=np.int64)
        playable = np.empty((codes.shape[0], self.width), dtype=np.bool_)
        for c in range(self.width):
            playable[:, c] = (mask & self.board.top[c]) == 0
            after: Any = self.board.drop(mover, mask, c)
            children[:, c] = after[0] + after[1]
        parents, columns = np.nonzero(playable)
        return Expansion(parents.astype(np.int64), self.canonical(children[parents, columns]))

    def batch_key(self, codes: Codes) -> Codes:
        """Canonical codes: with symmetry, the smaller of a code and its mirror image's."""
        return self.canonical(codes)

    # --- the tier protocol: tier t holds the positions with t discs (see DiscTiers) --------

    initial_tier = 0

    @property
    def ranking(self) -> DiscTiers:
        """The ranking tables of this board size (built on first use, shared)."""
        return _disc_tiers(self.width, self.height)

    def child_tiers(self, tier: int) -> list[int]:
        """One more disc; none after the last tier (a full board)."""
        return [tier + 1] if tier < self.width * self.height else []

    def tier_size(self, tier: int) -> int:
        """Fillings of the columns with ``tier`` discs times colourings of the discs."""
        return self.ranking.size(tier)

    def batch_rank(self, tier: int, codes: Codes) -> Codes:
        """Indices within the tier of raw codes (mover + mask, never mirrored)."""
        return self.ranking.rank(tier, codes)

    def batch_unrank(self, tier: int, indices: Codes) -> Codes:
        """Raw codes of the given indices; -1 for an index outside the tier."""
        return self.ranking.unrank(tier, indices)

    def batch_tier(self, codes: Codes) -> Codes:
        """The number of discs of each code."""
        board, codes = self.board, np.asarray(codes, dtype=np.int64)
        discs = np.zeros(codes.shape, dtype=np.int64)
        for c in range(board.width):
            discs += board.discs((codes >> (c * board.stride)) & board.column_bits)
        return discs


@cache
def _disc_tiers(width: int, height: int) -> DiscTiers:
    return DiscTiers(Board(width, height, 2))
