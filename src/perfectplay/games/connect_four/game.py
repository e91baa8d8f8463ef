"""Connect Four on any board: drop a disc into a column; four (or ``connect``) in a row wins.

The game class, which puts the package's modules together, a section per protocol: the
plain protocol on one state (``board``'s rules), the batch protocol over arrays of codes
(``kernels``), the tier protocol (``tiers``: tier t holds the positions with t discs), the
compiled search's rules (``search``), and the drawing for the explorer.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from ...core.records import SweepCodes
from ...drawing import CELL, move_attribute, svg
from ...protocol import BatchRules, Expansion, TierRules
from ...values import LOSS, TIE, Value
from .board import Bits, Board, Codes, dropped, line_ends
from .kernels import expand_arrays, expand_codes, outcome_arrays, outcome_codes
from .tiers import DiscTiers

State = tuple[int, int]
_dropped, _line_ends = dropped.function, line_ends.function  # the rules' source, per move
BAND = 14
"""Pixels of the band above the columns that shows each column's value (web explorer)."""


class ConnectFour:
    """Drop discs into columns; a line of four (or connect) wins, a full board ties."""

    name = "connect-four"
    aliases = ("connect4", "c4")

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

    def _canonical(self, codes: Bits) -> Bits:
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
        """Drop a disc; the result is seen by the other player (whose discs are the old
        opponent's)."""
        mover, mask = state
        return mover ^ mask, _dropped(mask, self.board.bottom[move])

    def outcome(self, state: State) -> Value | None:
        """LOSS when the previous player's discs hold a line; TIE on a full board."""
        mover, mask = state
        if _line_ends(mover ^ mask, self.board.stride, self.connect):
            return LOSS
        return TIE if mask == self.board.full else None

    def key(self, state: State) -> int:
        """The state's code (with symmetry, the smaller of it and its mirror image's)."""
        code = state[0] + state[1]
        return self._canonical(code) if self.symmetry else code  # runs once per move

    def from_code(self, code: int) -> State:
        """The state behind a code."""
        mover, mask = self.board.boards(np.array([code], dtype=np.int64))
        return int(mover[0]), int(mask[0])

    def show(self, state: State) -> str:
        """The board, top row first; X moved first. Columns are numbered from 1."""
        cells = self._cells(state)
        rows = [" ".join(column[r] for column in cells) for r in reversed(range(self.height))]
        rows.append(" ".join(str(c + 1) for c in range(self.width)))
        return "\n".join(rows)

    def _cells(self, state: State) -> list[list[str]]:
        """cells[c][r]: 'X', 'O' or '.' (empty) in column c, row r from the bottom."""
        mover, mask = state
        x_discs = mover if mask.bit_count() % 2 == 0 else mover ^ mask  # X moved first
        return [
            [
                "." if not mask & bit else "X" if x_discs & bit else "O"
                for bit in (1 << (c * self.board.stride + r) for r in range(self.height))
            ]
            for c in range(self.width)
        ]

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
            column = self.board.column(mask, c)
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
        codes = np.ascontiguousarray(codes, dtype=np.int64)
        board = self.board
        rules = (codes, self.width, board.stride, self.connect, board.full, board.filled)
        return outcome_codes.run(
            codes.size,
            lambda: (*rules, np.empty(codes.shape[0], dtype=np.int8)),
            plain=rules,
            vectorised=outcome_arrays,
        )

    def batch_expand(self, codes: Codes) -> Expansion:
        """A disc dropped in every column that has room, for every state at once."""
        codes = np.ascontiguousarray(codes, dtype=np.int64)
        board = self.board
        rules = (codes, self.width, board.stride, self.height, board.filled)
        room = codes.shape[0] * self.width
        parents, kids = expand_codes.run(
            codes.size,
            lambda: (*rules, np.empty(room, dtype=np.int64), np.empty(room, dtype=np.int64)),
            plain=rules,
            vectorised=expand_arrays,
        )
        return Expansion(parents, self._canonical(kids))

    def batch_key(self, codes: Codes) -> Codes:
        """Canonical codes: with symmetry, the smaller of a code and its mirror image's."""
        return self._canonical(codes)

    # --- the tier protocol: tier t holds the positions with t discs (see DiscTiers) --------

    initial_tier = 0

    @property
    def _ranking(self) -> DiscTiers:
        """The ranking tables of this board size (built on first use, shared)."""
        return _disc_tiers(self.width, self.height)

    def child_tiers(self, tier: int) -> list[int]:
        """One more disc; none after the last tier (a full board)."""
        return [tier + 1] if tier < self.width * self.height else []

    def tier_size(self, tier: int) -> int:
        """Fillings of the columns with ``tier`` discs times colourings of the discs."""
        return self._ranking.size(tier)

    def batch_rank(self, tier: int, codes: Codes) -> Codes:
        """Indices within the tier of raw codes (mover + mask, never mirrored)."""
        return self._ranking.rank(tier, codes)

    def batch_unrank(self, tier: int, indices: Codes) -> Codes:
        """Raw codes of the given indices; -1 for an index outside the tier."""
        return self._ranking.unrank(tier, indices)

    def batch_answered_by(self, tier: int, indices: Codes) -> Codes:
        """For each index, -1 where it is surely no position play reaches (a line that ended
        the game before the last move; with symmetry, a code that is not its own key), the
        index of its mirror image where that code is smaller (the same record), else itself."""
        return self._ranking.answered_by(tier, indices, self.connect, self.symmetry)

    def batch_ranked_children(self, tier: int, codes: Codes) -> tuple[Codes, Codes] | None:
        """The moves of codes of a tier as (parents, indices in tier + 1), without building
        the children's codes; None (expand and rank instead) with symmetry, whose children
        are mirrored, or where the ranking's kernel does not apply."""
        if self.symmetry:
            return None
        return self._ranking.ranked_children(tier, codes)

    def batch_expand_tier(self, tier: int, indices: Codes) -> tuple[Any, Codes, Codes] | None:
        """Unrank, judge and expand positions of a tier given by index in one pass, without
        building any code (see ``DiscTiers.expand_indices``); None as batch_ranked_children."""
        if self.symmetry:
            return None
        return self._ranking.expand_indices(tier, indices, self.connect)

    def batch_mark_tier(
        self, tier: int, start: int, records: Any, child_records: Any, codes: SweepCodes
    ) -> int | None:
        """Mark a window of a tier in one pass (see ``DiscTiers.sweep``): ends recorded,
        children reached; None with symmetry or more than 8 rows."""
        if self.symmetry:
            return None
        return self._ranking.sweep(tier, start, records, child_records, codes, self.connect, False)

    def batch_solve_tier(
        self, tier: int, start: int, records: Any, child_records: Any, codes: SweepCodes
    ) -> int | None:
        """Solve a window of a marked tier in one pass (see ``DiscTiers.sweep``); None as
        batch_mark_tier."""
        if self.symmetry:
            return None
        return self._ranking.sweep(tier, start, records, child_records, codes, self.connect, True)

    def tier_index(self, code: int) -> tuple[int, int]:
        """The tier and index of one code (a probe of one position)."""
        return self._ranking.locate(code)

    def batch_tier(self, codes: Codes) -> Codes:
        """The number of discs of each code."""
        return self._ranking.tiers(codes)

    # --- the groups Rules reads ------------------------------------------------------------

    def speed(self) -> BatchRules:
        """The batch protocol: the rules over arrays of board codes."""
        return BatchRules(
            self.batch_outcome,
            self.batch_expand,
            batch_key=self.batch_key,
            from_code=self.from_code,
        )

    def tiers(self) -> TierRules:
        """The tier protocol: positions by discs on the board, with sweeps of their own."""
        return TierRules(
            initial_tier=self.initial_tier,
            child_tiers=self.child_tiers,
            tier_size=self.tier_size,
            batch_rank=self.batch_rank,
            batch_unrank=self.batch_unrank,
            batch_tier=self.batch_tier,
            tier_index=self.tier_index,
            batch_answered_by=self.batch_answered_by,
            batch_ranked_children=self.batch_ranked_children,
            batch_expand_tier=self.batch_expand_tier,
            batch_mark_tier=self.batch_mark_tier,
            batch_solve_tier=self.batch_solve_tier,
        )

    # --- the compiled search ---------------------------------------------------------------

    def compiled_rules(self) -> Any:
        """The rules compiled by numba for the compiled search (see ``search``), or None
        when the board does not fit 63 bits."""
        from .search import bit_rules, supported

        if not supported(self.width, self.height, self.connect):
            return None
        return bit_rules(self.width, self.height, self.connect)

    # --- the drawing (web explorer) --------------------------------------------------------

    def draw_svg(self, state: State, last: int | None = None) -> str:
        """The board: a column is a move, its value shown on a band above it (the discs keep
        their colours, X red and O yellow, each with its letter); the last disc is ringed."""
        mask = state[1]
        cells = self._cells(state)
        legal = set(self.moves(state)) if self.outcome(state) is None else set()
        height, band = self.height, BAND
        body = []
        for c in range(self.width):
            move = move_attribute(self.format_move(c) if c in legal else None)
            body.append(f'<rect class="band" x="{c * CELL + 3}" y="0" width="{CELL - 6}" '
                        f'height="{band - 4}" rx="3"{move}/>')  # fmt: skip
            body.append(f'<rect class="column" x="{c * CELL + 1}" y="{band}" width="{CELL - 2}" '
                        f'height="{height * CELL}" rx="6"{move}/>')  # fmt: skip
            body.append(f'<text class="label" x="{c * CELL + CELL / 2}" '
                        f'y="{band + height * CELL + 16}">{c + 1}</text>')  # fmt: skip
            top = self.board.column(mask, c).bit_length() - 1
            for r, token in enumerate(cells[c]):
                kind = {"X": "disc-x", "O": "disc-o"}.get(token, "hole")
                ringed = " last" if last == c and r == top else ""
                cx, cy = c * CELL + CELL / 2, band + (height - 1 - r) * CELL + CELL / 2
                body.append(f'<circle class="{kind}{ringed}" cx="{cx}" cy="{cy}" '
                            f'r="{CELL / 2 - 6}"/>')  # fmt: skip
                if token != ".":
                    body.append(f'<text class="disc-letter" x="{cx}" y="{cy}">{token}</text>')
        bottom = band + height * CELL + 24
        body.append(f'<text class="note" x="2" y="{bottom + 14}">X: red disc, moves first; '
                    "O: yellow disc</text>")  # fmt: skip
        return svg(max(self.width * CELL, 230), bottom + 22, body)


@cache
def _disc_tiers(width: int, height: int) -> DiscTiers:
    return DiscTiers(Board(width, height, 2))
