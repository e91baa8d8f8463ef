"""Connect Four's tier protocol: the tables of one board size and its kernels run over them.

``DiscTiers`` builds the ranking's tables once per board size (``ranking``), and the tables
some kernels read only when compiled (the disc masks of a tier's column fillings, the
ranks of every vector of column heights, the sweeps' terms) when first needed. Each hook
runs its kernel by ``Kernel.run``: compiled over the arrays for many positions, else
interpreted over the tables as nested lists (plain Python indexes lists, and computes on
their ints, several times faster than on numpy arrays and scalars), writing into the same
result arrays either way.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.compiled import Kernel
from ...core.records import SweepCodes
from .board import Board, Codes
from .children import expand_indices, ranked_children
from .ranking import Tables, count_discs, heights_ranks, rank_codes, ranking_tables
from .ranking import unrank_indices as unrank_kernel
from .sweeps import SWEEP_ROWS, SweepTables, mark_sweep, solve_sweep, sweep_tables
from .unreachable import unreachable_codes

HEIGHTS_LIMIT = 1 << 21
"""Boards with at most this many vectors of column heights keep the rank of each."""

TABLE_LIMIT = 1 << 20
"""Tiers with at most this many column fillings keep a table of their masks for unranking."""


class DiscTiers:
    """The tier protocol's dense ranking of the positions holding t discs (see ConnectFour
    and, for the ranking itself, ``ranking``)."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.cells = board.width * board.height
        self.tables, self.ways = ranking_tables(board.width, board.height)
        self.binom = self.tables.binom
        self.plain: Tables | None = None  # the tables as lists, once needed
        self.mask_tables: dict[int, Codes] = {}
        self.no_masks = np.zeros(0, dtype=np.int64)
        self.by_heights: Codes | None = None  # heights_ranks, once needed
        self.sweeping: SweepTables | None = None  # sweep_tables, once needed
        self.sweeping_plain: SweepTables | None = None  # and as lists

    def size(self, tier: int) -> int:
        """How many indices tier ``tier`` has."""
        self._check(tier)
        return int(self.ways[0, tier]) * int(self.binom[tier, (tier + 1) // 2])

    def rank(self, tier: int, codes: Codes) -> Codes:
        """The indices of codes within their tier; -1 for a code holding another number of
        discs (or no code at all)."""
        self._check(tier)
        return self._apply(rank_codes, codes, tier)

    def unrank(self, tier: int, indices: Codes) -> Codes:
        """The codes with the given indices in tier ``tier``; -1 for an index out of range.
        Compiled, with the masks of the tier's column fillings where they pay."""
        self._check(tier)
        shaped = np.ascontiguousarray(indices, dtype=np.int64)
        values = shaped.reshape(-1)
        out = np.empty(values.shape, dtype=np.int64)
        unrank_kernel.run(
            values.size,
            lambda: (values, tier, self._masks(tier, values.size), self.tables, out),
            plain=lambda: (values.tolist(), tier, self.no_masks, self._plain(), out),
        )
        return out.reshape(shaped.shape)

    def answered_by(self, tier: int, indices: Codes, connect: int, symmetry: bool) -> Codes:
        """For each index of the tier, the index whose record answers for it: -1 where it
        is surely no position play reaches (``unreachable``) and, with symmetry, where the
        code's mirror image is smaller (the solve keeps only that one); without symmetry,
        there, that image's index (a mirror image has the same value and remoteness); else
        the index itself."""
        indices = np.ascontiguousarray(indices, dtype=np.int64).reshape(-1)
        codes = self.unrank(tier, indices).reshape(-1)
        answered = indices.copy()
        answered[self._unreachable(codes, connect) | (codes < 0)] = -1
        mirrored = self.board.mirror(codes)
        twins = np.flatnonzero((answered >= 0) & (mirrored < codes))
        answered[twins] = -1 if symmetry else self.rank(tier, mirrored[twins])
        return answered

    def _unreachable(self, codes: Codes, connect: int) -> Any:
        """True where a code is surely no position play reaches (see ``unreachable``)."""
        out = np.empty(codes.shape, dtype=np.bool_)
        board = self.board
        shape = (board.width, board.stride, connect)
        unreachable_codes.run(
            codes.size,
            codes, *shape, board.filled, out,
            plain=lambda: (codes.tolist(), *shape, board.filled.tolist(), out),
        )  # fmt: skip
        return out

    def ranked_children(self, tier: int, codes: Codes) -> tuple[Codes, Codes] | None:
        """(parents, indices in tier + 1) of the children of codes of tier ``tier``, by
        ``children.ranked_children``; None on boards of more than 16 rows and for the last
        tier: the caller expands and ranks."""
        self._check(tier)
        codes = np.ascontiguousarray(codes, dtype=np.int64)
        if self.board.stride > 16 or tier >= self.cells:
            return None
        parents = np.empty(codes.shape[0] * self.board.width, dtype=np.int64)
        indices = np.empty_like(parents)
        height = self.board.height
        count = ranked_children.run(
            codes.size,
            lambda: (codes, tier, height, self.tables, self._heights_table(), parents, indices),
            plain=lambda: (codes.tolist(), tier, height, self._plain(), [], parents, indices),
        )
        return parents[:count], indices[:count]

    def expand_indices(
        self, tier: int, indices: Codes, connect: int
    ) -> tuple[Any, Codes, Codes] | None:
        """(outcome, parents, indices in tier + 1) of positions of a tier given by index,
        by ``children.expand_indices`` with lines of ``connect``; None on boards of more
        than 16 rows and for the last tier."""
        self._check(tier)
        indices = np.ascontiguousarray(indices, dtype=np.int64)
        if self.board.stride > 16 or tier >= self.cells:
            return None
        outcome = np.empty(indices.shape[0], dtype=np.int8)
        parents = np.empty(indices.shape[0] * self.board.width, dtype=np.int64)
        found = np.empty_like(parents)
        height, n = self.board.height, indices.size
        count = expand_indices.run(
            n,
            lambda: (indices, tier, height, connect, self._masks(tier, n), self.tables,
                     self._heights_table(), outcome, parents, found),
            plain=lambda: (indices.tolist(), tier, height, connect, [], self._plain(), [],
                           outcome, parents, found),
        )  # fmt: skip
        return outcome, parents[:count], found[:count]

    def sweep(
        self,
        tier: int,
        start: int,
        records: Any,
        child_records: Any,
        codes: SweepCodes,
        connect: int,
        solve: bool,
    ) -> int | None:
        """``sweeps.mark_sweep`` (lines of ``connect``) or ``sweeps.solve_sweep`` over
        records[i] for index start + i of a tier (the records stay arrays when it runs
        interpreted, the tables are lists); None on boards of more than SWEEP_ROWS rows."""
        self._check(tier)
        if self.board.height > SWEEP_ROWS:
            return None
        self._check_window(tier, start, records, child_records, codes)
        if self.sweeping is None:
            self.sweeping = sweep_tables(self.cells, self.board.height, self.binom)
        sweeping = self.sweeping
        task: Kernel[..., int] = solve_sweep if solve else mark_sweep
        rules = () if solve else (connect,)  # the solving sweep judges no ends
        arrays = (records, child_records, self.board.height, *rules)

        def plain() -> tuple[Any, ...]:
            if self.sweeping_plain is None:
                self.sweeping_plain = SweepTables(*(a.tolist() for a in sweeping))
            lists = SweepCodes(codes.reached, *(np.asarray(a).tolist() for a in codes[1:]))
            return (tier, start, *arrays, self._plain(), self.sweeping_plain, lists)

        work = records.shape[0] + child_records.shape[0]
        return int(task.run(work, tier, start, *arrays, self.tables, sweeping, codes, plain=plain))

    def tiers(self, codes: Codes) -> Codes:
        """The number of discs of each code."""
        return self._apply(count_discs, codes)

    def locate(self, code: int) -> tuple[int, int]:
        """(tier, index) of one code, as plain Python over the tables as lists: a probe of
        one position pays no array set-up (about 2.5 us instead of 5)."""
        plain, found, codes = self._plain(), [0], [code]
        count: Any = count_discs.function  # straight to the Python source: runs per probe
        count(codes, plain, found)
        tier = found[0]
        if not 0 <= tier <= self.cells:
            return tier, -1
        rank: Any = rank_codes.function
        rank(codes, tier, plain, found)
        return tier, found[0]

    def _check_window(
        self, tier: int, start: int, records: Any, child_records: Any, codes: SweepCodes
    ) -> None:
        """A sweep's window must lie in its tier, with the next tier's records of the same
        type, the one the codes were made for: the compiled kernels do not check indices."""
        size = self.size(tier)
        child_size = self.size(tier + 1) if tier < self.cells else 0
        if (
            not 0 <= start <= start + records.shape[0] <= size
            or child_records.shape != (child_size,)
            or records.dtype != child_records.dtype
            or records.dtype.kind != "u"
            or len(codes.worth) != 1 << (8 * records.dtype.itemsize)
        ):
            raise ValueError(
                f"a sweep of tier {tier} takes a window within its {size} indices (not "
                f"{start}..{start + records.shape[0]}) and the {child_size} records of the "
                f"next tier (not {child_records.shape}), both of the records' type that "
                f"the codes were made for"
            )

    def _heights_table(self) -> Codes:
        """``heights_ranks`` of this board, built once, where it has at most HEIGHTS_LIMIT
        entries (7 x 6: 823,543); else empty (the kernel sums the ranks instead)."""
        if self.by_heights is None:
            board = self.board
            entries = (board.height + 1) ** board.width
            self.by_heights = (
                heights_ranks(board.width, board.height, self.tables.before)
                if entries <= HEIGHTS_LIMIT
                else self.no_masks
            )
        return self.by_heights

    def _plain(self) -> Tables:
        """The tables as nested lists, built once: plain Python indexes lists, and computes
        on their ints, several times faster than on numpy arrays and scalars."""
        if self.plain is None:
            lists = (a.tolist() if isinstance(a, np.ndarray) else a for a in self.tables)
            self.plain = Tables(*lists)
        return self.plain

    def _check(self, tier: int) -> None:
        if not 0 <= tier <= self.cells:
            raise ValueError(f"tiers run from 0 to {self.cells} discs, not {tier}")

    def _apply(self, task: Kernel[..., None], values: Codes, *args: Any) -> Codes:
        """``task(values, *args, tables, out)`` over the values flattened, with the tables
        as arrays when it runs compiled and as lists when not; ``out`` shaped like them."""
        values = np.ascontiguousarray(values, dtype=np.int64)
        flat = values.reshape(-1)
        out = np.empty(flat.shape, dtype=np.int64)
        task.run(flat.size, flat, *args, self.tables, out,
                 plain=lambda: (flat.tolist(), *args, self._plain(), out))  # fmt: skip
        return out.reshape(values.shape)

    def _masks(self, tier: int, count: int) -> Codes:
        """The disc masks of the column fillings of a tier, by rank (kept once built), where
        they pay: to unrank many indices of a tier of not too many fillings, in columns
        that ``held`` reads; else no masks. Asked only by compiled runs (their arguments
        are made once numba is loaded): the table is unranked compiled too."""
        ways = int(self.ways[0, tier])
        if tier not in self.mask_tables:
            if ways > TABLE_LIMIT or 16 * count < ways or self.board.stride > 16:
                return self.no_masks
            first = np.arange(ways, dtype=np.int64) * int(self.binom[tier, (tier + 1) // 2])
            codes = np.empty(ways, dtype=np.int64)
            unrank_kernel.run(ways, first, tier, self.no_masks, self.tables, codes)
            self.mask_tables[tier] = self.board.boards(codes)[1]
        return self.mask_tables[tier]
