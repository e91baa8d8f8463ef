"""The tier protocol of a compiled game ranked by the engine: an object that owns its ranking.

A ``CompiledGame`` with a ``tier`` rule and no ranking by stones has its tiers ranked by the
engine: every tier's reachable codes, found once by ``discovery`` and kept sorted
(``ranking``), a position's index its place among them. ``EngineTiers`` holds that ranking
and answers the tier protocol from it (``rules()`` gives the typed ``TierRules``). A
tablebase that kept the codes hands them to ``reading(ranking)``, which gives a second
object answering from them: the user's game object is never changed by reading a
tablebase.

The ranking found for the game itself is kept here, once, behind a lock (threads of one
solve share it); a copy sent to another process keeps only where the ranking lies on disk
and reads it there.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from ..core.compiled import read_only
from ..core.memory import MemoryBudgetExceeded, MemoryWatch, show_size
from ..core.parallel import in_parallel
from ..core.records import SweepCodes
from ..progress import ProgressCallback
from ..protocol import Expansion, TierRules
from ..tiers.graph import PART_AT_LEAST, PARTS
from .code_sets import IN_ORDER_FROM, CodeSet
from .discovery import discover
from .ranking import CODES_JSON, Ranking, kept_ranking, load_kept, save_ranking


class RankedGame(Protocol):
    """What the engine's tiers read of their compiled game (``form.CompiledGame`` gives
    it): the rules, their loops, and the plain rules' checked answers."""

    @property
    def rule_functions(self) -> dict[str, Any]:
        """The rule functions the game wrote, by name."""

    @property
    def scored(self) -> bool:
        """Whether the game ends in scores."""

    @property
    def max_moves(self) -> int:
        """The most moves a position has."""

    def engine_loops(self, compiled: bool = True) -> Any:
        """The engine's loops over the rules, compiled or plain Python."""

    def loops_for(self, work: int) -> Any:
        """The loops that work of this size runs."""

    def ranked_compiled(self) -> bool:
        """Whether the ranking is found by compiled loops."""

    def describe(self, code: int) -> str:
        """A state as an error names it."""

    def checked_tier(self, code: int) -> int:
        """The tier of a code, checked."""

    def root_tier(self) -> int:
        """The start's tier, checked."""

    def tiers_of(self, codes: Any) -> Any:
        """The tier of each code."""

    def parents_by_unmoves(self) -> Callable[[int, Any], Expansion] | None:
        """The game's un-moves, when it has them."""


COMPILED_PROCESS = 300 << 20
"""About what a process holds once numba has compiled a game's rules (numba, LLVM and the
machine code: 255 MB measured for tic-tac-toe's, 2026-11-28), before any position."""
_NONE_ENDED = read_only(np.zeros(0, dtype=np.uint8))
"""No bits of ended positions for a tier (a ranking read back): the solve asks the rules."""


class EngineTiers:
    """A compiled game's tiers as the engine ranks them (see the module)."""

    def __init__(self, game: RankedGame, ranking: Ranking | None = None) -> None:
        self.game = game
        self._ranking = ranking
        self._read = ranking is not None  # (a ranking read from a tablebase: never replaced)
        self._kept_in: Path | None = None
        self._lock = threading.Lock()
        self._reverse: tuple[int, Any, Any] | None = None

    def __getstate__(self) -> dict[str, Any]:
        """What a copy in another process needs (Dask): the game, and where the ranking is
        kept; the codes are mapped again there."""
        ranking = self._ranking
        kept_in = self._kept_in if ranking is None else ranking.directory
        return {"game": self.game, "kept_in": kept_in}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["game"])  # type: ignore[misc]
        self._kept_in = state["kept_in"]

    def rules(self) -> TierRules:
        """The tier protocol answered from this object's ranking."""
        game = self.game
        return TierRules(
            initial_tier=game.root_tier(),
            child_tiers=self.child_tiers,
            tier_size=self.tier_size,
            batch_rank=self.batch_rank,
            batch_unrank=self.batch_unrank,
            batch_tier=game.tiers_of,
            batch_parents=(
                self.derived_parents if self.parents_lay_out_moves else game.parents_by_unmoves()
            ),
            parents_in_tier=not self.parents_lay_out_moves,  # (as the un-moves loop drops)
            tier_index=self.tier_index,
            batch_expand_tier=self.batch_expand_tier,
            batch_solve_tier=self.batch_solve_tier,
            engine=self,
        )

    @property
    def lays_out_moves(self) -> bool:
        """Whether ``tier_moves`` serves the game: not a scored one."""
        return not self.game.scored

    @property
    def parents_lay_out_moves(self) -> bool:
        """Whether the un-moves are derived from the moves (the game writes none, passes
        the turn at every move and ends in outcomes)."""
        rules = self.game.rule_functions
        return "unmoves" not in rules and "to_move" not in rules and not self.game.scored

    def reading(self, ranking: Ranking) -> TierRules:
        """The same tiers answered from a ranking read from a tablebase."""
        return EngineTiers(self.game, ranking).rules()

    def warm(self, work: int) -> None:
        """Load the loops that work of this size runs (compiled from numba's cache for
        large work), before it is timed or spread."""
        self.game.loops_for(work)

    @property
    def max_moves(self) -> int:
        """The most moves a position has (the game's bound)."""
        return int(self.game.max_moves)

    def ranking(
        self,
        progress: ProgressCallback | None = None,
        memory: MemoryWatch | None = None,
        directory: Path | None = None,
        identity: dict[str, Any] | None = None,
    ) -> Ranking:
        """Every tier's reachable codes, found once, then kept (see ``ranking``). With
        ``directory`` (a tablebase being built) the codes are kept there, out of core: a
        ranking a solve of the same game left there is taken up again. Without ``memory``,
        the default budget (most of the memory available): finding a large game's positions
        for a check or a probe stops in one line at it, never by the system's out-of-memory
        killer."""
        if memory is None:
            memory = MemoryWatch()
        game = self.game
        name = type(game).__name__
        with self._lock:
            current = self._ranking
            if self._read and current is not None and directory is None:
                return current
            if (
                current is not None
                and current.directory is not None
                and not (current.directory / CODES_JSON).is_file()
            ):  # its files were deleted since (a tablebase removed and built again)
                current = self._ranking = None
            if current is not None and (directory is None or current.directory == directory):
                return current
            if current is None and directory is None and self._kept_in is not None:
                found = load_kept(self._kept_in)  # a copy in another process: read it
                if found is not None:
                    self._ranking = found
                    return found
            compiled = game.ranked_compiled()
            if compiled and memory is not None and memory.limit is not None:
                _compiling_fits(name, memory.limit)
            loops = game.engine_loops(compiled)
            if directory is None:
                found = discover(loops, name, progress, memory, game.describe)
            else:
                directory.mkdir(parents=True, exist_ok=True)
                kept = kept_ranking(directory, identity or {})
                if kept is not None:
                    found = kept
                elif current is not None:
                    found = save_ranking(directory, current, identity or {})
                else:
                    found = discover(
                        loops, name, progress, memory, game.describe, directory, identity
                    )
            self._ranking = found
            return found

    def child_tiers(self, tier: int) -> tuple[int, ...]:
        return self.ranking().children.get(tier, ())

    def tier_size(self, tier: int) -> int:
        found = self.ranking().tiers.get(tier)
        return 0 if found is None else len(found)

    def _set(self, tier: int) -> CodeSet | None:
        return self.ranking().use(tier)

    def batch_rank(self, tier: int, codes: Any) -> Any:
        found = self._set(tier)
        if found is None:
            return np.full(np.shape(codes)[0], -1, dtype=np.int64)
        return found.rank(self.game.loops_for(int(np.shape(codes)[0])), codes)

    def batch_unrank(self, tier: int, indices: Any) -> Any:
        indices = np.asarray(indices, dtype=np.int64)
        found = self._set(tier)
        size = 0 if found is None else len(found)
        out = np.full(indices.shape[0], -1, dtype=np.int64)
        good = (indices >= 0) & (indices < size)
        if found is not None:
            out[good] = np.asarray(found.codes)[indices[good]]
        return out

    def tier_index(self, code: int) -> tuple[int, int]:
        tier = self.game.checked_tier(code)
        found = self._set(tier)
        if found is None:
            return tier, -1
        loops = self.game.loops_for(1)  # one probe: no compiler to load for it
        return tier, int(loops.find(found.codes, found.buckets, found.base, found.shift, code))

    def _into_one_tier(self, tier: int) -> tuple[CodeSet, CodeSet | None] | None:
        """(the tier's codes, its one child tier's, None when it has none) for a tier whose
        moves lead into at most one other tier and pass the turn, in a game that ends in
        WIN, LOSS or TIE; None for any other tier (no single pass then)."""
        ranking = self.ranking()
        kids = ranking.children.get(tier, ())
        game = self.game
        if len(kids) > 1 or tier in kids or game.scored or "to_move" in game.rule_functions:
            return None
        here = ranking.use(tier)
        assert here is not None
        return here, ranking.use(kids[0]) if kids else None

    def batch_expand_tier(self, tier: int, indices: Any) -> Any:
        """(outcome, parents, child indices) of positions of a tier whose moves lead into one
        other tier; None when they do not (the tier solver then goes step by step)."""
        sets = self._into_one_tier(tier)
        if sets is None:
            return None
        here, kid = sets
        if kid is None:
            return None
        indices = np.ascontiguousarray(indices, dtype=np.int64)
        outcome = np.empty(indices.shape[0], dtype=np.int8)
        loops = self.game.loops_for(len(here))
        parents, found = loops.expand_ranked(
            here.codes, indices, kid.codes, kid.buckets, kid.base, kid.shift, outcome
        )
        return outcome, parents, found

    def batch_solve_tier(
        self, tier: int, start: int, records: Any, child_records: Any, codes: SweepCodes
    ) -> int | None:
        """The tier protocol's solving sweep, with the ends judged in the same pass (every
        index is reached; no marking pass records them first); None where the moves do not
        all lead into one other tier, pass the turn and end in WIN, LOSS or TIE."""
        sets = self._into_one_tier(tier)
        if sets is None:
            return None
        here, kid = sets
        if kid is None:  # a tier whose every position has ended
            kid = CodeSet.of(np.zeros(0, dtype=np.int64))
        loops = self.game.loops_for(len(here))
        over = read_only(self.ranking().ended.get(tier, _NONE_ENDED))
        solved = loops.solve_sweep(here.codes, start, records, kid.codes, kid.buckets,
                                   kid.base, kid.shift, read_only(child_records), codes.reached,
                                   codes.ended, codes.worth, codes.record_of,
                                   over)  # fmt: skip
        return int(solved)

    def tier_moves(self, tier: int, take_out: Callable[[tuple[Any, ...]], None]) -> Any:
        """Every move of a loopy tier laid out for the engine's solver (retrograde_by_edges):
        each move played once, windows of the tier on every core, the moves inside turned
        around, each window's moves out handed to ``take_out`` in its worker as made."""
        found = self._set(tier)
        assert found is not None
        n = len(found)
        loops = self.game.loops_for(n)
        codes = found.codes
        parts: list[Any] = []
        step = max(PART_AT_LEAST, -(-n // PARTS))
        windows = [(a, min(a + step, n)) for a in range(0, n, step)]

        def lay_out(window: tuple[int, int]) -> Any:
            part = loops.tier_moves(codes, found.buckets, found.base, found.shift, tier, *window)
            take_out(part[3:])  # (rows, children, slots, same), then let go
            return part[:3]

        in_parallel(windows, lay_out, parts.append)
        if not parts:
            parts = [lay_out((0, 0))]
        outcome = np.concatenate([part[0] for part in parts])
        inside = np.concatenate([part[1] for part in parts])
        # Turned around window by window, each window's targets let go once used: never a
        # second copy of the tier's moves (at 4 bytes a move, the largest array here).
        offsets = np.zeros(n + 1, dtype=np.int64)
        for part in parts:
            loops.count_backward(part[2], offsets)
        np.cumsum(offsets, out=offsets)
        parents = np.empty(int(offsets[-1]), dtype=np.int32)
        fill = offsets[:-1].copy()
        start = 0
        for k, part in enumerate(parts):
            loops.fill_backward(part[1], part[2], start, fill, parents)
            start += part[1].shape[0]
            parts[k] = None
        del parts, fill
        if offsets[-1] < 2**31:  # 4 bytes an index saved while the tier is analysed
            offsets = offsets.astype(np.int32)
        return outcome, offsets, parents, inside

    def rank_near(self, tier: int, codes: Any, slots: Any) -> Any:
        """``batch_rank`` of children listed by ``tier_moves`` with their move slots: each
        looked for first near the last child by the same slot (in cache); many at once are
        ranked in order instead (``CodeSet.rank``)."""
        found = self._set(tier)
        codes = np.ascontiguousarray(codes, dtype=np.int64)
        out = np.full(codes.shape[0], -1, dtype=np.int64)
        loops = self.game.loops_for(codes.shape[0])
        if found is not None and codes.shape[0] >= IN_ORDER_FROM and loops.compiled:
            return found.rank(loops, codes)
        if found is not None:
            loops.find_all_near(found.codes, found.buckets, found.base, found.shift, codes,
                                np.ascontiguousarray(slots, dtype=np.int16), out)  # fmt: skip
        return out

    def derived_parents(self, tier: int, codes: Any) -> Expansion:
        """Un-moves without an ``unmoves`` rule: the tier's moves inside it, turned around
        once per tier in compiled code (8 bytes a move inside the tier, one tier kept)."""
        found = self._set(tier)
        codes = np.ascontiguousarray(codes, dtype=np.int64)
        if found is None:
            return Expansion(np.zeros(0, np.int64), np.zeros(0, np.int64))
        loops = self.game.loops_for(len(found))
        with self._lock:
            kept = self._reverse
            if kept is None or kept[0] != tier:
                offsets, parents = loops.reverse_edges(
                    found.codes, found.buckets, found.base, found.shift, tier
                )
                kept = self._reverse = (tier, offsets, parents)
        ranks = found.rank(loops, codes)
        rows, parents = loops.gather_parents(found.codes, kept[1], kept[2], ranks)
        return Expansion(rows, parents)


def _compiling_fits(name: str, limit: int) -> None:
    """Refuse at once, not after a compile of seconds, a budget that compiling exceeds."""
    if limit < COMPILED_PROCESS:
        raise MemoryBudgetExceeded(
            f"the memory budget of {show_size(limit)} is less than compiling {name}'s rules "
            f"takes (about {show_size(COMPILED_PROCESS)}: numba and the machine code, before "
            "any position); give more with --memory"
        )
