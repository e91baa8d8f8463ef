"""Ranking boards of stones by their counts, the board's symmetries folded: each position's
index is computed from the position, nothing is stored per position.

A stone-ranked state is laid out as a ``StoneBoard`` says: the mover's stones in bits
0..cells-1, the opponent's from bit ``theirs_at``, the rest (stones in hand, a phase) from
bit ``rest_at``. A *part* is every placement of ``mine`` stones of the mover and ``theirs``
of the opponent on the board, with the same rest; a tier of a game is one or more parts,
one after another.

The index of a position in its part. The mover's set is replaced by the least of its images
under the symmetries (masks compared as integers). A table per count of stones, built once
per board (one int32 and one uint8 per set: C(24, 9) = 1,307,504 sets, 6.5 MB), gives for
every set its orbit's number among the least sets of that count and a symmetry that takes
it to its least image. The opponent's set is moved by the same symmetry and, when the least
set of the mover is fixed by other symmetries too, by the one of those that makes it least;
it is then ranked among the cells the mover leaves empty, by the combinatorial number system:

    index = orbit * C(cells - mine, theirs) + rank of the opponent's set

A position and all its images share one index. Where the mover's least set has more
symmetries than the identity, some ranks of the opponent's set name a non-least image:
those indices are holes, which ``rank`` never gives and ``unrank`` answers with -1
(``StoneRanking.holes`` counts them). Nine Men's Morris with 3 to 9 stones a side on the
board: 9,193,626,407 indices for 8,904,593,601 positions up to the board's 16 symmetries
(Burnside's count), 3.1% holes; sorted codes would keep 16 times as many codes, 8 bytes each.

Tables where they measure faster: a set's rank is four lookups of what each byte adds
(``byte_rank``): on the Nine Men's Morris board, rank 98-150 ns and unrank 133-157 ns a
position through numpy's batches, against 275-283 and 186 ns cell by cell (2026-11-28,
bench/morris.py, one core, another solve on the other). The opponent's set is packed
among the empty cells, and put back, by the machine's bit gather and scatter
(``core.bits``: BMI2's pext and pdep), which replaced two tables of 512 KB looked up a
byte at a time: Nine Men's Morris's sector 9-4 solved in 119.0 s against 123.6 (the mean
of two runs each, 2026-12-01).
Codes are ranked in one loop per batch (``rank_span``), a run of codes with the same
mover's set (a position's children) taking that set's tables once: 26-27 ns a child of a
Nine Men's Morris position (2026-11-29).

The combinatorial number system: a set of k cells c_1 < c_2 < ... < c_k has rank
C(c_1, 1) + C(c_2, 2) + ... + C(c_k, k), the sets of k cells counted in the order of their
masks as integers (colex), 0 to C(n, k) - 1. A set is found from its rank by tables
(``SetTables``): its high half of cells first, then the low half by one lookup. Unranking
cell by cell (the greedy walk down the binomials, a mispredicted branch for each stone)
took 50-120 ns a set on the 24-point board against 4-9 by the tables (2026-12-02, random
ranks, one core): about 100 ns of every frontier position of a Morris sector's levels.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from math import comb
from typing import Any, NamedTuple

import numpy as np

from ..core.bits import gather, popcount, scatter
from ..core.compiled import inlined_kernel, kernel
from ..core.prefetch import prefetch
from ..errors import GameError

MAX_CELLS = 32
"""The most cells a board has: a set is ranked by four bytes' images."""
MAX_SYMMETRIES = 63
"""The most symmetries a board has: each orbit keeps its stabiliser as bits of an int64."""


class ProbeTables(NamedTuple):
    """What the compiled search reads of a tablebase of a game ranked by stones (its
    ``db``: ``compiled_games.search_hooks``), made by ``tablebase.probes.probe_tables``:
    where each tier's records are, its parts, and the board's tables as ``rank_code`` and
    ``least_code`` take them. Named, so that the search reads a field by its name."""

    slot_of: Any
    """Each tier's slot among the tablebase's tiers (-1: not in it)."""
    records: Any
    """Each slot's records (a numba typed list of arrays)."""
    part_from: Any
    """Each slot's first part (and one past the last slot's last)."""
    mine: Any
    """Each part's count of the mover's stones."""
    theirs: Any
    """Each part's count of the opponent's stones."""
    rest: Any
    """Each part's rest (the bits above the stones)."""
    offsets: Any
    """Each part's first index in its tier."""
    shift: int
    """The records' value shift."""
    decode: Any
    """decode[what a tier holds]: the record a packed tier's byte stands for
    (``core.packed_records``); empty where the tiers hold their records as they are."""
    cells: int
    theirs_at: int
    rest_at: int
    binomials: Any
    byte_rank: Any
    images: Any
    orbit: Any
    symmetry: Any
    least: Any
    stabiliser: Any
    set_at: Any
    orbit_at: Any


@dataclass(frozen=True)
class StoneBoard:
    """A board of ``cells`` cells, its ``symmetries`` (each a permutation: cell i goes to
    cell ``symmetry[i]``; together a group, the identity among them), and where a state
    keeps the opponent's stones and the rest (see the module docstring)."""

    cells: int
    symmetries: tuple[tuple[int, ...], ...] = ()
    theirs_at: int = 0
    """The bit of the opponent's first cell (0: ``cells``, right after the mover's)."""
    rest_at: int = 0
    """The bit where the rest starts (0: right after the opponent's cells)."""

    def __post_init__(self) -> None:
        if not 1 <= self.cells <= MAX_CELLS:
            raise GameError(f"a stone board has 1 to {MAX_CELLS} cells, not {self.cells}")
        theirs_at = self.theirs_at or self.cells
        rest_at = self.rest_at or theirs_at + self.cells
        if theirs_at < self.cells or rest_at < theirs_at + self.cells or rest_at > 62:
            raise GameError(
                f"a stone board's layout overlaps or leaves no room: the mover's {self.cells} "
                f"cells from bit 0, the opponent's from bit {theirs_at}, the rest from bit "
                f"{rest_at} (at most 62)"
            )
        object.__setattr__(self, "theirs_at", theirs_at)
        object.__setattr__(self, "rest_at", rest_at)
        object.__setattr__(self, "symmetries", _group(self.cells, self.symmetries))


def _group(cells: int, given: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    """The symmetries checked (permutations of the cells, closed under composition), the
    identity first; one line naming what is wrong otherwise."""
    identity = tuple(range(cells))
    found: list[tuple[int, ...]] = [identity]
    for symmetry in given:
        image = tuple(int(c) for c in symmetry)
        if sorted(image) != list(identity):
            raise GameError(
                f"a stone board's symmetry {list(image)[:8]}... is not a permutation of its "
                f"{cells} cells"
            )
        if image not in found:
            found.append(image)
    if len(found) > MAX_SYMMETRIES:
        raise GameError(f"a stone board has at most {MAX_SYMMETRIES} symmetries")
    known = set(found)
    for a in found:
        for b in found:
            composed = tuple(a[b[i]] for i in range(cells))
            if composed not in known:
                raise GameError(
                    "a stone board's symmetries are not a group: two of them composed give "
                    "a permutation that is not among them (list every symmetry)"
                )
    return tuple(found)


@dataclass
class _CountTables:
    """For sets of one count: each set's orbit and symmetry (by the set's rank), the least
    set of each orbit and its stabiliser (bits: the symmetries that fix it)."""

    orbit: Any
    symmetry: Any
    least: Any
    stabiliser: Any


@dataclass(frozen=True)
class _Stacked:
    """The ``_CountTables`` of every count up to ``largest``, concatenated: those of count
    c start at ``set_at[c]`` (orbit, symmetry) and ``orbit_at[c]`` (least, stabiliser)."""

    largest: int
    orbit: Any
    symmetry: Any
    least: Any
    stabiliser: Any
    set_at: Any
    orbit_at: Any


@dataclass(frozen=True)
class SetTables:
    """The sets of ``count`` of a board's cells from their colex ranks. A set is split at
    cell ``low_cells``: its high cells' value v is found first, ``starts[v]`` being the
    first rank of the sets whose high cells are v (the ranks run through them in order of
    v), by a guess ``guide[rank >> shift]`` (the largest v starting at or before the guess
    bucket's first rank) and a step or two up; then the low cells are the set of
    ``count - popcount(v)`` of them at the rest of the rank, one lookup of ``low_sets``
    (where each count's sets start: ``low_at``). A set's rank does not depend on how many
    cells there are, so one board's tables serve every part's empty cells."""

    low_cells: int
    low_sets: Any
    low_at: Any
    starts: Any
    guide: Any
    shift: int


def set_tables(cells: int, count: int) -> SetTables:
    """The tables unranking sets of ``count`` of ``cells`` cells (``SetTables``): for 24
    cells, 48 KB a count (and 16 KB shared); for 31, 768 KB (and 128 KB)."""
    low = cells // 2
    high = cells - low
    ones = np.array([bin(v).count("1") for v in range(1 << max(low, high))], dtype=np.int64)
    by_count = np.argsort(ones[: 1 << low], kind="stable")  # (counts ascending, each colex)
    low_sets = by_count.astype(np.int32)
    low_at = np.searchsorted(ones[by_count], np.arange(low + 2)).astype(np.int64)
    below = count - ones[: 1 << high]  # the low cells' count under each high value
    sizes = np.array([comb(low, int(b)) if 0 <= b <= low else 0 for b in below], dtype=np.int64)
    starts = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
    total = int(starts[-1])  # C(cells, count)
    shift = max(0, (total - 1).bit_length() - high)
    firsts = np.arange(((total - 1) >> shift) + 1, dtype=np.int64) << shift
    guide = (np.searchsorted(starts[:-1], firsts, side="right") - 1).astype(np.int32)
    return SetTables(low, low_sets, low_at, starts, guide, shift)


@dataclass
class StoneRanking:
    """The rank and unrank of positions of a ``StoneBoard``, part by part; tables are built
    per count of stones on first use and kept (shared by every thread)."""

    board: StoneBoard
    binomials: Any = field(init=False)
    byte_rank: Any = field(init=False)
    images: Any = field(init=False)
    _tables: dict[int, _CountTables] = field(default_factory=dict, init=False)
    _sets: dict[int, SetTables] = field(default_factory=dict, init=False)
    _stack: _Stacked | None = field(default=None, init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False)

    def __post_init__(self) -> None:
        n = self.board.cells
        self.binomials = np.array(
            [[comb(i, j) for j in range(n + 1)] for i in range(n + 1)], dtype=np.int64
        )
        # byte_rank[byte, v, k]: what the cells of byte ``byte`` of a set with value v add
        # to its rank when k cells of the set lie below them; a set's rank is four lookups.
        self.byte_rank = np.zeros((4, 256, MAX_CELLS + 1), dtype=np.int64)
        for byte in range(4):
            for value in range(256):
                cells = [8 * byte + bit for bit in range(8) if value >> bit & 1]
                for below in range(MAX_CELLS + 1 - len(cells)):
                    self.byte_rank[byte, value, below] = sum(
                        comb(cell, below + i + 1) for i, cell in enumerate(cells)
                    )
        # images[k, byte, v]: the cells of byte ``byte`` of a set with value v, moved by
        # symmetry k: a set's image is four lookups or-ed.
        symmetries = self.board.symmetries
        self.images = np.zeros((len(symmetries), 4, 256), dtype=np.int64)
        for k, symmetry in enumerate(symmetries):
            for byte in range(4):
                for value in range(256):
                    image = 0
                    for bit in range(8):
                        cell = 8 * byte + bit
                        if value >> bit & 1 and cell < n:
                            image |= 1 << symmetry[cell]
                    self.images[k, byte, value] = image

    def __getstate__(self) -> dict[str, Any]:
        """A copy for another process: the board (tables are made again there)."""
        return {"board": self.board}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["board"])  # type: ignore[misc]

    def part_size(self, mine: int, theirs: int) -> int:
        """Indices of a part: orbits of the mover's sets times the opponent's sets."""
        n = self.board.cells
        if mine < 0 or theirs < 0 or mine + theirs > n:
            return 0
        return len(self.tables(mine).least) * comb(n - mine, theirs)

    def tables(self, mine: int) -> _CountTables:
        """The tables of sets of ``mine`` stones (built on first use)."""
        with self._lock:
            found = self._tables.get(mine)
            if found is None:
                found = self._tables[mine] = self._build(mine)
            return found

    def set_tables(self, count: int) -> SetTables:
        """The tables unranking sets of ``count`` cells (built on first use)."""
        with self._lock:
            found = self._sets.get(count)
            if found is None:
                found = self._sets[count] = set_tables(self.board.cells, count)
            return found

    def sets(self, count: int, ranks: Any) -> Any:
        """The set (a mask of cells) of ``count`` cells at each colex rank."""
        ranks = np.ascontiguousarray(ranks, dtype=np.int64)
        if ranks.shape[0] and (ranks.min() < 0 or ranks.max() >= comb(self.board.cells, count)):
            raise GameError(f"a rank of a set of {count} of {self.board.cells} cells out of range")
        out = np.empty(ranks.shape[0], dtype=np.int64)
        found = self.set_tables(count)
        sets_at.run(ranks.shape[0], ranks, out, found.low_cells, found.low_sets, found.low_at,
                    found.starts, found.guide, found.shift, count)  # fmt: skip
        return out

    def stacked(self, largest: int) -> _Stacked:
        """The tables of every count up to ``largest`` one after another, so that one
        kernel ranks codes of several parts (built on first use, again for a larger
        count: 21 MB for the 24-point board up to 9 stones)."""
        with self._lock:
            found = self._stack
        if found is not None and found.largest >= largest:
            return found
        counts = [self.tables(count) for count in range(largest + 1)]
        set_at = np.cumsum([0, *(len(t.orbit) for t in counts)], dtype=np.int64)
        orbit_at = np.cumsum([0, *(len(t.least) for t in counts)], dtype=np.int64)
        found = _Stacked(
            largest,
            np.concatenate([t.orbit for t in counts]),
            np.concatenate([t.symmetry for t in counts]),
            np.concatenate([t.least for t in counts]),
            np.concatenate([t.stabiliser for t in counts]),
            set_at,
            orbit_at,
        )
        with self._lock:
            self._stack = found
        return found

    def _build(self, count: int) -> _CountTables:
        n = self.board.cells
        sets = comb(n, count)
        orbit = np.empty(sets, dtype=np.int32)
        symmetry = np.empty(sets, dtype=np.uint8)
        least = np.empty(sets, dtype=np.int64)
        stabiliser = np.empty(sets, dtype=np.int64)
        orbits = count_tables.run(
            sets, n, count, self.binomials, self.byte_rank, self.images, orbit, symmetry, least,
            stabiliser,
        )  # fmt: skip
        return _CountTables(orbit, symmetry, least[:orbits].copy(), stabiliser[:orbits].copy())

    def rank(self, codes: Any, parts: Sequence[tuple[int, int, int]]) -> Any:
        """The index of each code among ``parts`` (each (mine, theirs, rest), one after
        another); -1 for a code of none of them."""
        codes = np.ascontiguousarray(codes, dtype=np.int64)
        out = np.empty(codes.shape[0], dtype=np.int64)
        if not parts:
            out[:] = -1
            return out
        mine, theirs, rest = (np.array(c, dtype=np.int64) for c in zip(*parts, strict=True))
        sizes = [self.part_size(m, t) for m, t, _ in parts]
        offsets = np.cumsum([0, *sizes[:-1]], dtype=np.int64)
        stack = self.stacked(int(mine.max()))
        board = self.board
        rank_span.run(
            codes.shape[0], codes, out, board.cells, board.theirs_at, board.rest_at, mine,
            theirs, rest, offsets, 0, len(parts), self.binomials, self.byte_rank, self.images,
            stack.orbit, stack.symmetry, stack.least, stack.stabiliser, stack.set_at,
            stack.orbit_at,
        )  # fmt: skip
        return out

    def orbit_sizes(self, codes: Any, parts: Sequence[tuple[int, int, int]]) -> Any:
        """How many distinct images each code of ``parts`` has under the board's
        symmetries (its orbit: the symmetries' count over those that fix it). A tier
        solved in its records counts a position's moves by this weight rather than ranking
        each child (``tiers.children_beside``)."""
        codes = np.ascontiguousarray(codes, dtype=np.int64)
        out = np.empty(codes.shape[0], dtype=np.int64)
        if not codes.shape[0] or not parts:
            out[:] = 1
            return out
        stack = self.stacked(max(mine for mine, _, _ in parts))
        orbit_size_span.run(
            codes.shape[0], codes, out, self.board.cells, self.board.theirs_at,
            self.byte_rank, self.images, stack.orbit, stack.symmetry, stack.stabiliser,
            stack.set_at, stack.orbit_at,
        )  # fmt: skip
        if (out == 0).any():
            raise GameError("orbit_sizes: a code with more of the mover's stones than its parts")
        return out

    def unrank(self, indices: Any, parts: Sequence[tuple[int, int, int]]) -> Any:
        """The code at each index among ``parts``; -1 for a hole or an index out of range.
        Indices in order (a solve's pieces) are unranked part by part in place, found by
        a binary search; others by masks, each part's gathered and scattered back."""
        indices = np.ascontiguousarray(indices, dtype=np.int64)
        out = np.full(indices.shape[0], -1, dtype=np.int64)
        in_order = indices.shape[0] < 2 or bool((indices[1:] >= indices[:-1]).all())
        offset = 0
        for mine, theirs, kept in parts:
            size = self.part_size(mine, theirs)
            if in_order:
                first, last = (int(i) for i in np.searchsorted(indices, (offset, offset + size)))
                if last > first:
                    self._unrank_part(indices[first:last], out[first:last], offset, mine,
                                      theirs, kept)  # fmt: skip
            else:
                chosen = np.flatnonzero((indices >= offset) & (indices < offset + size))
                if chosen.shape[0]:
                    made = np.empty(chosen.shape[0], dtype=np.int64)
                    self._unrank_part(indices[chosen], made, offset, mine, theirs, kept)
                    out[chosen] = made
            offset += size
        return out

    def _unrank_part(
        self, indices: Any, out: Any, offset: int, mine: int, theirs: int, kept: int
    ) -> None:
        """``unrank_part`` of the indices of one part (its first at ``offset``)."""
        board, tables, found = self.board, self.tables(mine), self.set_tables(theirs)
        unrank_part.run(
            indices.shape[0], indices, out, offset, board.cells, board.theirs_at, theirs,
            kept << board.rest_at, self.binomials, self.images, tables.least, tables.stabiliser,
            found.low_cells, found.low_sets, found.low_at, found.starts, found.guide,
            found.shift,
        )  # fmt: skip

    def holes(self, mine: int, theirs: int) -> int:
        """Indices of a part that name no position (see the module docstring)."""
        size = self.part_size(mine, theirs)
        made = np.empty(size, dtype=np.int64)
        self._unrank_part(np.arange(size, dtype=np.int64), made, 0, mine, theirs, 0)
        return int(np.count_nonzero(made < 0))


@kernel
def image_of(images: Any, k: int, bits: int) -> int:
    """The cells of ``bits`` moved by symmetry ``k``."""
    return int(
        images[k, 0, bits & 255]
        | images[k, 1, (bits >> 8) & 255]
        | images[k, 2, (bits >> 16) & 255]
        | images[k, 3, (bits >> 24) & 255]
    )


@inlined_kernel
def least_under(images: Any, stable: int, bits: int) -> int:
    """The least image of ``bits`` under the symmetries ``stable`` names (bit k: symmetry
    k; the identity, bit 0, keeps ``bits`` itself): the opponent's set once the mover's is
    least, among the symmetries that fix the mover's."""
    fixed = stable >> 1
    k = 1
    best = bits
    while fixed:
        if fixed & 1:
            image = image_of(images, k, bits)
            if image < best:
                best = image
        fixed >>= 1
        k += 1
    return int(best)


@kernel
def bytes_rank(byte_rank: Any, bits: int) -> int:
    """The rank of a set of cells among the sets of its size (colex), a byte at a time."""
    rank = 0
    below = 0
    for byte in range(4):
        value = (bits >> (8 * byte)) & 255
        rank += byte_rank[byte, value, below]
        below += popcount(value)
    return int(rank)


@inlined_kernel
def set_at_rank(
    low_cells: int,
    low_sets: Any,
    low_at: Any,
    starts: Any,
    guide: Any,
    shift: int,
    k: int,
    rank: int,
) -> int:
    """The set of ``k`` cells with that colex rank, by its ``SetTables``."""
    high = int(guide[rank >> shift])
    while starts[high + 1] <= rank:
        high += 1
    return int(high << low_cells | low_sets[low_at[k - popcount(high)] + rank - starts[high]])


@kernel
def sets_at(
    ranks: Any,
    out: Any,
    low_cells: int,
    low_sets: Any,
    low_at: Any,
    starts: Any,
    guide: Any,
    shift: int,
    k: int,
) -> None:
    """``set_at_rank`` of each rank (``StoneRanking.sets``)."""
    for i in range(ranks.shape[0]):
        out[i] = set_at_rank(low_cells, low_sets, low_at, starts, guide, shift, k, ranks[i])


@kernel
def count_tables(
    n: int,
    count: int,
    binomials: Any,
    byte_rank: Any,
    images: Any,
    orbit: Any,
    symmetry: Any,
    least: Any,
    stabiliser: Any,
) -> int:
    """Fill each set's orbit and symmetry (by rank), and each orbit's least set and
    stabiliser; the number of orbits. Sets come in rank order, which is their order as
    integers, so a set's least image has a rank already visited."""
    orbits = 0
    symmetries = images.shape[0]
    sets = binomials[n, count]
    bits = (1 << count) - 1
    for rank in range(sets):
        best = bits
        best_k = 0
        fixed = 1  # the identity, symmetry 0
        for k in range(1, symmetries):
            image = image_of(images, k, bits)
            if image < best:
                best = image
                best_k = k
            if image == bits:
                fixed |= 1 << k
        if best == bits:
            orbit[rank] = orbits
            symmetry[rank] = 0
            least[orbits] = bits
            stabiliser[orbits] = fixed
            orbits += 1
        else:
            orbit[rank] = orbit[bytes_rank(byte_rank, best)]
            symmetry[rank] = best_k
        if count == 0 or rank + 1 == sets:
            break
        low = bits & -bits  # the next set of as many cells, as an integer (Gosper)
        ripple = bits + low
        bits = (((ripple ^ bits) >> 2) // low) | ripple
    return orbits


@inlined_kernel
def rank_code(
    code: int,
    n: int,
    theirs_at: int,
    rest_at: int,
    part_mine: Any,
    part_theirs: Any,
    part_rest: Any,
    offsets: Any,
    first: int,
    last: int,
    binomials: Any,
    byte_rank: Any,
    images: Any,
    orbit: Any,
    symmetry: Any,
    least: Any,
    stabiliser: Any,
    set_at: Any,
    orbit_at: Any,
) -> int:
    """The index of one code among parts ``first..last - 1`` (offsets from the first of
    them), or -1 in none: the compiled search's probe of a tablebase per position. The
    arithmetic of ``rank_span`` for one code, written apart: a probe through
    ``rank_span`` (a one-code array made, a call of 21 arguments) took 222 ns, this
    inlined function 94 (2026-11-29); the tests hold the two to the same indices."""
    cells = (1 << n) - 1
    mover = code & cells
    other = (code >> theirs_at) & cells
    mine = popcount(mover)
    theirs = popcount(other)
    rest = code >> rest_at
    part = -1
    for q in range(first, last):
        if part_mine[q] == mine and part_theirs[q] == theirs and part_rest[q] == rest:
            part = q
            break
    if part < 0:
        return -1
    ranked = set_at[mine] + bytes_rank(byte_rank, mover)
    j = orbit[ranked]
    other = image_of(images, symmetry[ranked], other)
    best = least_under(images, stabiliser[orbit_at[mine] + j], other)
    held = least[orbit_at[mine] + j]
    packed = gather(best, cells & ~held)  # the opponent's cells among the empty ones
    empty_sets = binomials[n - mine, theirs]
    return int(offsets[part] + j * empty_sets + bytes_rank(byte_rank, packed))


@kernel
def least_code(
    code: int,
    n: int,
    theirs_at: int,
    rest_at: int,
    byte_rank: Any,
    images: Any,
    orbit: Any,
    symmetry: Any,
    least: Any,
    stabiliser: Any,
    set_at: Any,
    orbit_at: Any,
) -> int:
    """The least of a position's images (the mover's set least, then the opponent's among
    the symmetries that give it), its rest kept: the compiled search's table key, shared by
    a position and its images. The tables are ``StoneRanking.stacked``'s; a mover with
    more stones than they hold keeps its own code (then no image shares its key)."""
    cells = (1 << n) - 1
    mover = code & cells
    mine = popcount(mover)
    if mine + 2 > set_at.shape[0]:
        return code
    other = (code >> theirs_at) & cells
    ranked = set_at[mine] + bytes_rank(byte_rank, mover)
    j = orbit[ranked]
    other = image_of(images, symmetry[ranked], other)
    best = least_under(images, stabiliser[orbit_at[mine] + j], other)
    held = least[orbit_at[mine] + j]
    return int(held | best << theirs_at | (code >> rest_at) << rest_at)


AHEAD = 16
"""How many codes ahead ``rank_span`` asks for the mover's set's orbit and symmetry (its
stabiliser and least set: half as far). The sets of 9 stones take 6.5 MB of tables on
the Nine Men's Morris board, more than a core's cache, and the parents of a frontier
(each un-move moves a stone of the mover's set) rarely share a set: the loop waited on
each code's tables in turn. Parents of sector 7-5's positions (2026-12-02, one core):
35.2-37.2 ns a code asked ahead 16 codes, 33.8-37.2 by 32 or 48, against 40.7-44.2
without, interleaved runs."""
RING = 32
"""The codes' ranks of their mover's set kept from the look ahead (a power of two, more
than ``AHEAD``)."""


@kernel
def rank_span(
    codes: Any,
    out: Any,
    n: int,
    theirs_at: int,
    rest_at: int,
    part_mine: Any,
    part_theirs: Any,
    part_rest: Any,
    offsets: Any,
    first: int,
    last: int,
    binomials: Any,
    byte_rank: Any,
    images: Any,
    orbit: Any,
    symmetry: Any,
    least: Any,
    stabiliser: Any,
    set_at: Any,
    orbit_at: Any,
) -> None:
    """The index of each code among parts ``first..last - 1`` (offsets from the first of
    them), or -1 in none; ``out`` may be ``codes`` (each code is read before its index is
    written). One loop with the work of a code in its body: the same work as a function
    called per code, even inlined by numba, took 2.5 times as long (105 ns against 43 a
    code, children of Nine Men's Morris positions, 2026-11-29), the arrays passed at every
    call being counted in and out. A code's mover's set is ranked ``AHEAD`` codes before
    its turn and its tables asked for then (``core.prefetch``); a run of codes with one
    mover's set (a position's children often share it: a slide's do) ranks it once."""
    cells = (1 << n) - 1
    count = codes.shape[0]
    largest = set_at.shape[0] - 2  # (a mover with more stones is in no part)
    ranks = np.zeros(RING, dtype=np.int64)  # ranks[i % RING]: code i's set's rank, -1: none
    last_mover = -1  # the mover's set of the code before, and what it gave:
    j = turn = stable = held = 0  # its orbit, symmetry, stabiliser and least image
    ahead_mover = -1
    ahead_rank = -1
    for i in range(-AHEAD, count):  # (the first AHEAD steps only look ahead)
        a = i + AHEAD
        if a < count:
            mover = codes[a] & cells
            if mover != ahead_mover:
                mine = popcount(mover)
                ahead_rank = -1
                if mine <= largest:
                    ahead_rank = set_at[mine] + bytes_rank(byte_rank, mover)
                    prefetch(orbit, ahead_rank)
                    prefetch(symmetry, ahead_rank)
                ahead_mover = mover
            ranks[a % RING] = ahead_rank
        h = i + AHEAD // 2
        if 0 <= h < count and ranks[h % RING] >= 0:  # (its orbit asked for AHEAD / 2 ago)
            at = orbit_at[popcount(codes[h] & cells)] + orbit[ranks[h % RING]]
            prefetch(stabiliser, at)
            prefetch(least, at)
        if i < 0:
            continue
        code = codes[i]
        mover = code & cells
        other = (code >> theirs_at) & cells
        mine = popcount(mover)
        theirs = popcount(other)
        rest = code >> rest_at
        part = -1
        for q in range(first, last):
            if part_mine[q] == mine and part_theirs[q] == theirs and part_rest[q] == rest:
                part = q
                break
        if part < 0:
            out[i] = -1
            continue
        if mover != last_mover:
            ranked = ranks[i % RING]
            j = orbit[ranked]
            turn = symmetry[ranked]
            stable = stabiliser[orbit_at[mine] + j]
            held = least[orbit_at[mine] + j]
            last_mover = mover
        best = least_under(images, stable, image_of(images, turn, other))
        packed = gather(best, cells & ~held)  # the opponent's cells among the empty ones
        empty_sets = binomials[n - mine, theirs]
        out[i] = offsets[part] + j * empty_sets + bytes_rank(byte_rank, packed)


@kernel
def orbit_size_span(
    codes: Any,
    out: Any,
    n: int,
    theirs_at: int,
    byte_rank: Any,
    images: Any,
    orbit: Any,
    symmetry: Any,
    stabiliser: Any,
    set_at: Any,
    orbit_at: Any,
) -> None:
    """Each code's count of distinct images (``StoneRanking.orbit_sizes``): the mover's
    set taken to its least image, the symmetries that fix that set and take the
    opponent's to its least are the position's stabiliser, up to its least image."""
    cells = (1 << n) - 1
    symmetries = images.shape[0]
    for i in range(codes.shape[0]):
        code = codes[i]
        mover = code & cells
        mine = popcount(mover)
        if mine + 2 > set_at.shape[0]:  # (more stones than the parts hold: no orbit)
            out[i] = 0
            continue
        ranked = set_at[mine] + bytes_rank(byte_rank, mover)
        other = image_of(images, symmetry[ranked], (code >> theirs_at) & cells)
        stable = stabiliser[orbit_at[mine] + orbit[ranked]]
        best = least_under(images, stable, other)
        fixing = 0
        k = 0
        while stable:
            if stable & 1 and image_of(images, k, other) == best:
                fixing += 1
            stable >>= 1
            k += 1
        out[i] = symmetries // fixing


@kernel
def unrank_part(
    indices: Any,
    out: Any,
    offset: int,
    n: int,
    theirs_at: int,
    theirs: int,
    rest: int,
    binomials: Any,
    images: Any,
    least: Any,
    stabiliser: Any,
    low_cells: int,
    low_sets: Any,
    low_at: Any,
    starts: Any,
    guide: Any,
    shift: int,
) -> None:
    """The code at each index of a part whose first index is ``offset`` (its count of the
    mover's stones is ``least``'s); -1 at a hole. The opponent's sets by their
    ``SetTables`` (the rest of the arguments); an index right after the one before takes
    the next set of as many cells (Gosper's), without the table."""
    if least.shape[0] == 0:
        out[:] = -1
        return
    mine = popcount(least[0])
    empty_sets = binomials[n - mine, theirs]
    cells = (1 << n) - 1
    before = -2  # the index before, and its packed set: the next index's set is the next
    set_before = 0  # set of as many cells as an integer (colex order), not unranked again
    for i in range(indices.shape[0]):
        index = indices[i] - offset
        j = index // empty_sets
        held = least[j]
        rank = index % empty_sets
        if index == before + 1 and rank != 0:
            low = set_before & -set_before  # (Gosper's next set of as many cells)
            ripple = set_before + low
            packed = (((ripple ^ set_before) >> 2) >> popcount(low - 1)) | ripple
        else:
            packed = set_at_rank(low_cells, low_sets, low_at, starts, guide, shift, theirs, rank)
        before, set_before = index, packed
        other = scatter(packed, cells & ~held)  # the packed cells put back among the empty
        fixed = stabiliser[j] >> 1
        k = 1
        hole = False
        while fixed:
            if fixed & 1 and image_of(images, k, other) < other:
                hole = True
            fixed >>= 1
            k += 1
        out[i] = -1 if hole else held | other << theirs_at | rest
