"""Tic-tac-toe on a 3x3 board, X first; a state is one int (X's cells in bits 0-8, O's in 9-17).

Cells are numbered row by row, 0 top left to 8 bottom right; cell i is bit i of X's half
and bit 9 + i of O's. The plain methods work on one state, the batch methods on arrays of
the same codes, through the same tables of the 512 sets of one player's cells.

Tier n (the tier protocol) holds the boards with n marks, X holding ceil(n / 2) of them.
Index = rank of the set of marked cells among the C(9, n) sets * C(n, ceil(n / 2)) + rank of
which of the marked cells (listed from cell 0 up) hold X; both ranks are the combinatorial
number system (colex order). ``TIER_CODES[n]`` lists the codes of tier n by index and
``INDEX`` gives the index of every code (-1 for a code that is no board), so ranking is one
table look-up. The tier hooks rank raw codes, never symmetric images.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import numpy.typing as npt

from ..drawing import CELL, move_attribute, svg
from ..protocol import BatchRules, Expansion, TierRules
from ..values import LOSS, TIE, Value

Codes = npt.NDArray[np.int64]

FULL = 0x1FF
LINES = (0x007, 0x038, 0x1C0, 0x049, 0x092, 0x124, 0x111, 0x054)
# HAS_LINE[cells] says whether a set of one player's cells holds three in a row.
HAS_LINE = bytes(any(cells & line == line for line in LINES) for cells in range(512))


def _transform(cells: int, perm: tuple[int, ...]) -> int:
    return sum(1 << perm[i] for i in range(9) if cells >> i & 1)


def _symmetries() -> list[tuple[int, ...]]:
    rotate = (2, 5, 8, 1, 4, 7, 0, 3, 6)  # cell i goes to rotate[i]
    mirror = (2, 1, 0, 5, 4, 3, 8, 7, 6)
    perms = []
    perm = tuple(range(9))
    for _ in range(4):
        perms.append(perm)
        perms.append(tuple(mirror[p] for p in perm))
        perm = tuple(rotate[p] for p in perm)
    return perms


# IMAGE[k][cells]: a set of cells under the k-th of the board's 8 symmetries.
IMAGE = [[_transform(cells, perm) for cells in range(512)] for perm in _symmetries()]
IMAGES = np.array(IMAGE, dtype=np.int64)
LINE_MADE = np.frombuffer(HAS_LINE, dtype=np.uint8).astype(np.bool_)
"""HAS_LINE as an array, to index with arrays of cell sets."""
MARKS = np.array([cells.bit_count() for cells in range(512)], dtype=np.int64)
"""MARKS[cells]: how many cells a set holds."""


def _colex(n: int, k: int) -> list[tuple[int, ...]]:
    """The k-subsets of range(n) in colex order (their bit sets in increasing order)."""
    return sorted(combinations(range(n), k), key=lambda chosen: sum(1 << i for i in chosen))


def _tier_codes(marks: int) -> Codes:
    """The codes of the boards with ``marks`` marks (X first), in index order."""
    codes = []
    for marked in _colex(9, marks):
        for crosses in _colex(marks, (marks + 1) // 2):
            x = sum(1 << marked[i] for i in crosses)
            codes.append(x | (sum(1 << cell for cell in marked) ^ x) << 9)
    return np.array(codes, dtype=np.int64)


def _tier(marks: int) -> Codes:
    """TIER_CODES[marks]; ValueError for a number of marks no board has."""
    if not 0 <= marks <= 9:
        raise ValueError(f"tiers run from 0 to 9 marks, not {marks}")
    return TIER_CODES[marks]


TIER_CODES = [_tier_codes(marks) for marks in range(10)]
INDEX = np.full(1 << 18, -1, dtype=np.int64)
for _codes in TIER_CODES:
    INDEX[_codes] = np.arange(_codes.shape[0])


class TicTacToe:
    """Three in a row wins; a full board with no line is a tie.

    symmetry=true solves the 8 rotations and reflections of a board as one state.
    """

    name = "tictactoe"
    aliases = ("tic-tac-toe", "ttt")

    def __init__(self, symmetry: bool = False) -> None:
        self.symmetry = symmetry

    def initial(self) -> int:
        """The empty board."""
        return 0

    def moves(self, state: int) -> list[int]:
        """The empty cells, 0 (top left) to 8 (bottom right)."""
        free = ~(state | state >> 9) & FULL
        return [i for i in range(9) if free >> i & 1]

    def play(self, state: int, move: int) -> int:
        """Mark a cell for the player to move."""
        x, o = state & FULL, state >> 9
        return state | (1 << move if x.bit_count() == o.bit_count() else 1 << (move + 9))

    def outcome(self, state: int) -> Value | None:
        """LOSS when the previous player made a line, TIE on a full board."""
        x, o = state & FULL, state >> 9
        last = x if x.bit_count() > o.bit_count() else o
        if HAS_LINE[last]:
            return LOSS
        if x | o == FULL:
            return TIE
        return None

    def key(self, state: int) -> int:
        """With symmetry, the smallest code among the board's 8 images; else the state."""
        if not self.symmetry:
            return state
        x, o = state & FULL, state >> 9
        return min(image[x] | image[o] << 9 for image in IMAGE)

    def show(self, state: int) -> str:
        """The board, empty cells numbered 1-9 as moves are typed."""
        rows = []
        for r in range(3):
            row = []
            for c in range(3):
                i = 3 * r + c
                row.append("X" if state >> i & 1 else "O" if state >> (i + 9) & 1 else str(i + 1))
            rows.append(" ".join(row))
        return "\n".join(rows)

    def parse_state(self, text: str) -> int:
        """A board as 9 cells row by row, X, O or . (slashes between rows allowed)."""
        cells = text.replace("/", "").replace(" ", "").upper()
        if len(cells) != 9 or set(cells) - set("XO."):
            raise ValueError("write 9 cells of X, O or ., e.g. X.O/.X./..O")
        x = sum(1 << i for i, c in enumerate(cells) if c == "X")
        o = sum(1 << i for i, c in enumerate(cells) if c == "O")
        if not 0 <= x.bit_count() - o.bit_count() <= 1:
            raise ValueError("X moves first: X has as many marks as O, or one more")
        return x | o << 9

    def format_move(self, move: int) -> str:
        """Cells are numbered 1-9, row by row."""
        return str(move + 1)

    def parse_move(self, text: str) -> int:
        """A cell number 1-9."""
        return int(text) - 1

    def draw_svg(self, state: int, last: int | None = None) -> str:
        """The board: a free cell is the move that marks it (its number in a corner), a
        marked cell shows its mark, the last move's cell is ringed."""
        legal = set(self.moves(state)) if self.outcome(state) is None else set()
        body = []
        for i in range(9):
            x, y = i % 3 * CELL, i // 3 * CELL
            move = move_attribute(self.format_move(i) if i in legal else None)
            ringed = " last" if i == last else ""
            body.append(
                f'<rect class="cell{ringed}" x="{x + 2}" y="{y + 2}" width="{CELL - 4}" '
                f'height="{CELL - 4}" rx="6"{move}/>'
            )
            mark = "X" if state >> i & 1 else "O" if state >> (i + 9) & 1 else None
            if mark is None:
                body.append(f'<text class="number" x="{x + 7}" y="{y + 16}">{i + 1}</text>')
            else:
                body.append(
                    f'<text class="mark" x="{x + CELL / 2}" y="{y + CELL / 2}">{mark}</text>'
                )
        return svg(3 * CELL, 3 * CELL, body)

    # --- the groups Rules reads -------------------------------------------------------------

    def speed(self) -> BatchRules:
        """The batch protocol: states are already integer codes."""
        return BatchRules(self.batch_outcome, self.batch_expand, batch_key=self.batch_key)

    def tiers(self) -> TierRules:
        """The tier protocol: tier n holds the boards with n marks."""
        return TierRules(
            initial_tier=self.initial_tier,
            child_tiers=self.child_tiers,
            tier_size=self.tier_size,
            batch_rank=self.batch_rank,
            batch_unrank=self.batch_unrank,
            batch_tier=self.batch_tier,
        )

    # --- the batch protocol: states are already integer codes -----------------------------

    def batch_outcome(self, codes: Codes) -> npt.NDArray[np.int8]:
        """LOSS (2) after the previous player's line, TIE (3) on a full board, else 0."""
        x, o = codes & FULL, codes >> 9
        last = np.where(MARKS[x] > MARKS[o], x, o)
        result = np.where((x | o) == FULL, np.int8(TIE), np.int8(0)).astype(np.int8)
        result[LINE_MADE[last]] = np.int8(LOSS)
        return result

    def batch_expand(self, codes: Codes) -> Expansion:
        """A mark in every empty cell of every board at once."""
        x, o = codes & FULL, codes >> 9
        shift = np.where(MARKS[x] == MARKS[o], 0, 9)
        cells = np.arange(9, dtype=np.int64)
        free = ((~(x | o)[:, None]) >> cells[None, :]) & 1
        parents, cell = np.nonzero(free)
        children = codes[parents] | (np.int64(1) << (cell + shift[parents]))
        return Expansion(parents.astype(np.int64), self.batch_key(children))

    def batch_key(self, codes: Codes) -> Codes:
        """With symmetry, the smallest of the 8 images of each board; else the codes."""
        if not self.symmetry:
            return codes
        x, o = codes & FULL, codes >> 9
        images: Codes = IMAGES[:, x] | (IMAGES[:, o] << 9)
        smallest: Codes = images.min(axis=0)
        return smallest

    # --- the tier protocol: tier n holds the boards with n marks (see the docstring) -------

    initial_tier = 0

    def child_tiers(self, tier: int) -> list[int]:
        """One more mark; none from a full board."""
        return [tier + 1] if tier < 9 else []

    def tier_size(self, tier: int) -> int:
        """C(9, n) sets of marked cells times C(n, ceil(n / 2)) ways to place the X's."""
        return int(_tier(tier).shape[0])

    def batch_rank(self, tier: int, codes: Codes) -> Codes:
        """Indices of raw codes within tier ``tier``; -1 for a code of another tier."""
        codes = np.asarray(codes, dtype=np.int64)
        index: Codes = INDEX[codes & ((1 << 18) - 1)]
        index[(self.batch_tier(codes) != tier) | (codes >> 18 != 0)] = -1
        return index

    def batch_unrank(self, tier: int, indices: Codes) -> Codes:
        """Codes of the given indices; -1 for an index outside the tier."""
        table = _tier(tier)
        indices = np.asarray(indices, dtype=np.int64)
        valid = (indices >= 0) & (indices < table.shape[0])
        return np.where(valid, table[np.where(valid, indices, 0)], -1)

    def batch_tier(self, codes: Codes) -> Codes:
        """The number of marks of each board."""
        codes = np.asarray(codes, dtype=np.int64)
        marks: Codes = MARKS[codes & FULL] + MARKS[(codes >> 9) & FULL]
        return marks
