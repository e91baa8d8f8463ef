"""Counters in the records for a loopy tier whose moves also lead into other tiers (their
records read beside it), or whose index stands for a position's images too: the parts of
``retrograde_in_records`` that read those children.

Nine Men's Morris is the case: a slide stays in its sector, a mill leads into a sector
with one stone less (solved before, on disk), and each index stands for up to 16 images
of a position. What a position's children in other tiers say is folded into its first
record, so that nothing per position is kept beside the records:

- a child lost for its mover makes the position a win at once, in the fewest plies such a
  child gives (``WIN`` with that remoteness, followed at its level; a child in the tier
  lost sooner lowers it while its level has not come);
- a child won for its mover is not counted (it is known), and sets ``LOST_BESIDE``: when
  the counter falls to 0, the position loses in the later of the level and the slowest
  such child, which ``slowest_losses`` finds again from its moves (once a position: a
  loss is decided once);
- a tied child is counted (it never decides a loss) and sets ``TIED_BESIDE``: once no win
  or loss is left, ``fastest_ties`` finds the soonest such tie of each open position so
  flagged again from its moves, before ties spread inside the tier;
- a drawn child is counted, and never taken off.

Each child position is counted once, however many moves lead to it (``first_of_each``
over the child's tier and index): two moves to two images of one position are one un-move
back from its index, so the un-moves are taken once per parent and child too.

Or, where the game gives the size of each position's orbit under the symmetries its index
stands for (``batch_orbit_sizes``: a game ranked by stones), counted by orbits
(``counts_orbits``), which ranks no child of the tier itself: an open position P counts
each of its moves into the tier as |orbit(P)|, and every un-move from a child C (the code
its index unranks to) takes |orbit(C)| from the parent it names. The edges between the two
orbits, counted from either end, are |orbit(P)| m = |orbit(C)| u, where m is P's moves into
C's orbit and u the un-moves of C into P's: so P's counter falls to 0 exactly when every
child is known to win, provided the un-moves list each (position, move) into C exactly once
(the game's ``check`` holds them to it). Nine Men's Morris's 5-stone database: 15.3 s
instead of 24.7, the same bytes (2026-11-30, 2 cores): the first pass ranked every slide's
child, and the levels dropped repeated un-moves.

Encoding of an open record (value code 7), 2 bytes: bit 12 ``LOST_BESIDE``, bit 11
``TIED_BESIDE``, bits 0-10 the counter (``counted.counter_mask``; by orbits, Morris's
largest is 54 jumps into the tier from an orbit of 16: 864).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.arrays import I64
from ..core.compiled import kernel, read_only
from ..core.packed_records import DECODE, PackedRecords
from ..core.prefetch import prefetch
from ..core.records import REACHED
from ..errors import GameError
from ..terminals import Terminals
from .counted import child_keys, counter_mask, first_of_each
from .files import TierFiles
from .graph import Chunk, TierGraph, expand_chunk, moves_out_chunk, present_codes

_WIN, _LOSS, _TIE, _DRAW = 1, 2, 3, 4
LOST_BESIDE = 1 << 12
TIED_BESIDE = 1 << 11
NEVER = np.iinfo(np.int64).max
UNSOLVED, TOO_MANY, TOO_REMOTE = 1, 2, 3


def reads_beside(graph: TierGraph, tier: int) -> bool:
    """Whether a tier's first pass and un-moves take this module's way: its moves lead
    into other tiers too, or its index stands for a position's images."""
    return bool(graph.children[tier]) or bool(graph.hooks.ranks_images_alike)


def counts_orbits(graph: TierGraph, tier: int) -> bool:
    """Whether the tier's counters count moves weighted by orbits (the game gives
    ``batch_orbit_sizes``) rather than each child position once: see the module
    docstring."""
    return graph.hooks.batch_orbit_sizes is not None and reads_beside(graph, tier)


class Beside:
    """The records of a tier's other child tiers, read (memory-mapped) as the tier is
    solved."""

    def __init__(
        self,
        graph: TierGraph,
        files: TierFiles,
        terminals: Terminals,
        tier: int,
        holes: bool = False,
    ):
        self.graph, self.terminals, self.tier = graph, terminals, tier
        self.holes = holes
        """Whether the first pass is handed every index, holes among them (indices that
        unrank to no position: left out of its records)."""
        self.shift = files.record.shift
        self.kids = {k: files.final(k) for k in graph.children[tier] if k != tier}
        self.orbits = counts_orbits(graph, tier)
        self.exits_only = self.orbits and graph.hooks.batch_moves_out is not None
        """Whether the first pass lists only the moves leaving the tier (the others
        counted by orbits in the game's loop): a few a position."""

    def _chunk(
        self, indices: I64, weighed: bool = False, codes: I64 | None = None
    ) -> tuple[Any, Any, Any]:
        """The chunk of ``indices`` (their ``codes``, if unranked already) expanded, which
        of its moves to count (``once``: those that reach a child position first;
        ``weighed``: every move, the children in this tier left unranked), and each move's
        child record in another tier (0 in this one)."""
        chunk = expand_chunk(self.graph, self.terminals, self.tier, indices,
                             unranked_in=self.tier if weighed else None,
                             codes=codes)  # fmt: skip
        if chunk.same_mover is not None and np.asarray(chunk.same_mover).any():
            raise GameError("un-moves in a loopy tier need moves that always pass the turn")
        if weighed:
            once = np.ones(chunk.parents.shape[0], dtype=np.bool_)
        else:
            once = first_of_each(chunk.parents, child_keys(self.graph, self.tier, chunk))
        return chunk, once, self._read_beside(chunk)

    def _read_beside(self, chunk: Chunk) -> Any:
        """Each move's child record in another tier (0 in this one): by numpy's indexing
        for a chunk the kernels take interpreted (no loop in Python), else compiled
        (``_records_beside``, each record asked for ahead)."""
        beside = np.zeros(chunk.parents.shape[0], dtype=np.uint16)
        child_tier = np.asarray(chunk.child_tier, dtype=np.int64)
        child_index = np.asarray(chunk.child_index, dtype=np.int64)
        if not _records_beside.compiles_for(beside.shape[0]):
            read_by_indexing(self.kids, child_tier, child_index, beside)
            return beside
        for kid, records in self.kids.items():
            packed = isinstance(records, PackedRecords)
            source = read_only(np.asarray(records.codes if packed else records))
            _records_beside.run_compiled(child_tier, child_index, kid, source, DECODING,
                                         packed, beside)  # fmt: skip
        return beside

    def first_records(self, indices: I64) -> tuple[I64, Any, int]:
        """Pass 1 for a piece of reached indices: their first records (see the module
        docstring) and the largest remoteness decided among them. Counted by orbits where
        the game lists only the moves leaving the tier (``batch_moves_out``): the others
        are counted in its loop, never written out (Nine Men's Morris's slides). With
        ``holes``, the indices that unrank to no position are left out of the records
        returned."""
        codes = None
        if self.holes:
            indices, codes = present_codes(self.graph, self.tier, indices)
        if self.exits_only:
            chunk = moves_out_chunk(self.graph, self.terminals, self.tier, indices, codes)
            once = np.ones(chunk.parents.shape[0], dtype=np.bool_)
            beside = self._read_beside(chunk)
        else:
            chunk, once, beside = self._chunk(indices, self.orbits, codes)
        here = np.asarray(chunk.child_tier) == self.tier
        open_rows = np.asarray(chunk.open_rows, np.int64)
        if self.orbits:
            assert chunk.codes is not None
            weight = self.weights(chunk.codes[open_rows])
        else:
            weight = np.ones(open_rows.shape[0], dtype=np.int64)
        inside = chunk.inside
        if inside is None:
            inside = np.zeros(open_rows.shape[0], dtype=np.int64)
        records = np.empty(indices.shape[0], dtype=np.uint16)
        status, highest = _first_records(
            np.asarray(chunk.outcome, dtype=np.int8), open_rows,
            np.asarray(chunk.parents, np.int64), once, here, beside, inside, weight,
            self.shift, counter_mask(self.shift), records,
        )  # fmt: skip
        self._check(status)
        return indices, records, highest

    def weights(self, codes: Any) -> Any:
        """What each move of these positions of the tier counts (``counts_orbits``): the
        size of its orbit."""
        sizes = self.graph.hooks.batch_orbit_sizes
        assert sizes is not None
        return np.asarray(sizes(self.tier, codes), dtype=np.int64)

    def slowest_losses(self, indices: I64, level: int) -> tuple[I64, Any]:
        """The records of positions whose counter fell to 0 at ``level`` and that have a
        child won for its mover in another tier: lost in the later of level + 1 and the
        slowest such child."""
        parents, once, beside = self._moves_beside(indices)
        records = np.empty(indices.shape[0], dtype=np.uint16)
        status = _beside_best(parents, once, beside, self.shift, _WIN, level + 1, records)
        self._check(status)
        return indices, records

    def fastest_ties(self, indices: I64) -> tuple[I64, Any]:
        """The records of open positions with a tied child in another tier: tied in the
        fewest plies such a child gives."""
        parents, once, beside = self._moves_beside(indices)
        records = np.empty(indices.shape[0], dtype=np.uint16)
        status = _beside_best(parents, once, beside, self.shift, _TIE, 0, records)
        self._check(status)
        return indices, records

    def _moves_beside(self, indices: I64) -> tuple[I64, Any, Any]:
        """For open positions: each move's row among them, whether to read it, and its
        child's record in another tier (0 in this one). Only the moves leaving the tier
        where the game lists them (``batch_moves_out``): the records read are the same,
        and the moves inside are neither ranked nor told apart."""
        if self.graph.hooks.batch_moves_out is not None:
            chunk = moves_out_chunk(self.graph, self.terminals, self.tier, indices)
            once = np.ones(chunk.parents.shape[0], dtype=np.bool_)
            return np.asarray(chunk.parents, np.int64), once, self._read_beside(chunk)
        chunk, once, beside = self._chunk(indices)
        return np.asarray(chunk.parents, np.int64), once, beside

    def _check(self, status: int) -> None:
        name = self.graph.rules.name
        if status == UNSOLVED:
            raise GameError(f"{name}: tier {self.tier} has a move into a tier not solved yet")
        if status == TOO_MANY and self.orbits:
            raise GameError(f"{name}: tier {self.tier} has a position whose moves inside the "
                            f"tier, each counted as its orbit's images, pass the counter's "
                            f"{counter_mask(self.shift):,}: solve it with --tier-method "
                            f"by-unmoves")  # fmt: skip
        if status == TOO_MANY:
            raise GameError(f"{name}: tier {self.tier} has a position with more than "
                            f"{counter_mask(self.shift):,} moves")  # fmt: skip
        if status == TOO_REMOTE:
            raise GameError(f"{name}: tier {self.tier}: remoteness beyond the records' reach")


def read_by_indexing(kids: dict[int, Any], child_tier: I64, child_index: I64, beside: Any) -> None:
    """``_records_beside`` for every tier of ``kids`` (tier: its records) by numpy's
    indexing: for a chunk the kernels take interpreted."""
    for kid, records in kids.items():
        where = np.flatnonzero(child_tier == kid)
        beside[where] = records[child_index[where]]


READ_AHEAD = 16
"""How many moves ahead ``_records_beside`` asks for a child's record. The records of the
tiers beside are files of up to a gigabyte, mapped, read at random: read one after
another by numpy's indexing, they were a seventh of the first pass of Nine Men's Morris's
sector 8-6 (2026-12-04, ``perf``: numpy's ``mapiter_trivial_get``)."""
DECODING = read_only(DECODE)


@kernel
def _records_beside(
    child_tier: I64,
    child_index: I64,
    kid: int,
    source: Any,
    decode: Any,
    packed: bool,
    beside: Any,
) -> None:
    """``beside[m]``: the record of move m's child, for the moves into tier ``kid``, read
    from ``source`` (its records, or its packed bytes to ``decode``)."""
    count = child_tier.shape[0]
    for m in range(count):
        ahead = m + READ_AHEAD
        if ahead < count and child_tier[ahead] == kid:
            prefetch(source, child_index[ahead])
        if child_tier[m] == kid:
            code = source[child_index[m]]
            beside[m] = decode[code] if packed else code


@kernel
def _first_records(
    outcome: Any,
    open_rows: I64,
    parents: I64,
    once: Any,
    here: Any,
    beside: Any,
    inside: Any,
    weight: Any,
    shift: int,
    counter: int,
    records: Any,
) -> tuple[int, int]:
    """``Beside.first_records`` in one pass over the moves and one over the positions
    (``weight``: what a move inside the tier counts, per open position; ``inside``: the
    moves inside it counted already, not among the moves); returns (status, the largest
    remoteness decided)."""
    width = open_rows.shape[0]
    mask = (1 << shift) - 1
    count = inside * weight
    win = np.full(width, NEVER, dtype=np.int64)
    slowest = np.zeros(width, dtype=np.int64)
    flags = np.zeros(width, dtype=np.int64)
    for m in range(parents.shape[0]):
        if not once[m]:
            continue
        row = parents[m]
        if here[m]:
            count[row] += weight[row]  # (its end, if it is one, is followed at level 0)
            continue
        value = beside[m] >> shift
        plies = (beside[m] & mask) + 1
        if value == _LOSS:
            win[row] = min(win[row], plies)
        elif value == _WIN:
            slowest[row] = max(slowest[row], plies)
            flags[row] |= LOST_BESIDE
        elif value == _TIE:
            count[row] += 1
            flags[row] |= TIED_BESIDE
        elif value == _DRAW:
            count[row] += 1
        else:
            return UNSOLVED, 0
    for i in range(outcome.shape[0]):
        records[i] = int(outcome[i]) << shift  # an end at remoteness 0
    highest = 0
    for row in range(width):
        if win[row] < NEVER:
            value, plies = _WIN, win[row]
        elif count[row] == 0:  # every move known lost, or none at all (0 plies)
            value, plies = _LOSS, slowest[row]
        else:
            if count[row] > counter:
                return TOO_MANY, 0
            records[open_rows[row]] = (REACHED << shift) | flags[row] | count[row]
            continue
        if plies > mask:
            return TOO_REMOTE, 0
        highest = max(highest, plies)
        records[open_rows[row]] = (value << shift) | plies
    return 0, highest


@kernel
def _beside_best(
    parents: I64, once: Any, beside: Any, shift: int, value: int, least: int, records: Any
) -> int:
    """Each position's record decided as ``value`` (a LOSS given by its children won in
    other tiers: the slowest; a TIE: the soonest of its tied children there), at least
    ``least`` plies; returns a status."""
    mask = (1 << shift) - 1
    found = np.full(records.shape[0], -1, dtype=np.int64)
    for m in range(parents.shape[0]):
        if not once[m] or beside[m] >> shift != value:
            continue
        plies = (beside[m] & mask) + 1
        row = parents[m]
        if found[row] < 0 or (plies > found[row] if value == _WIN else plies < found[row]):
            found[row] = plies
    for row in range(records.shape[0]):
        plies = max(found[row], least)
        if plies > mask:
            return TOO_REMOTE
        records[row] = ((_LOSS if value == _WIN else _TIE) << shift) | plies
    return 0
