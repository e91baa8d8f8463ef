"""The tier protocol checked on the sample: each state ranks within its tier and unranks
back, each move leads into a tier ``child_tiers`` lists, random indices unrank to -1 or to
a code ranking back, the tiers form no cycle (a tier may list itself: a loopy tier),
un-moves lead back to positions whose moves reach the position, and the moves split at a
tier's edge are the moves."""

from __future__ import annotations

from collections import Counter
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt

from ..protocol import TierRules
from .batch import BatchCheck
from .sweeps import check_sweeps

MAX_TIERS = 100_000  # the tier graph is walked this far at most


class TierCheck(BatchCheck):
    """The checks of the tier protocol, on top of the batch protocol's."""

    def child_tiers(self, tiers: TierRules, tier: int) -> list[int]:
        if tier not in self.listed:
            listed = self.call("child_tiers", tiers.child_tiers, tier)
            self.listed[tier] = [] if listed is None else [int(t) for t in listed]
        return self.listed[tier]

    def tiers(self, tiers: TierRules) -> None:
        """Every check of the tier protocol."""
        if tiers.ranked_by_engine:
            self.engine_tiers(tiers)
            return
        reachable = self.tier_graph(tiers)
        reached = self.reached_tiers(tiers)
        self.ranks(tiers, reached)
        for code, kids in self.children.items():
            tier = reached.get(code)
            if tiers.batch_tier is None or tier is None:
                continue
            told = self.array("batch_tier", tiers.batch_tier, np.array(kids, dtype=np.int64))
            for kid, kid_tier in zip(kids, told.tolist(), strict=False):
                if kid_tier not in (listed := self.child_tiers(tiers, tier)):
                    said = f"has child {kid} of tier {kid_tier} (batch_tier); child_tiers({tier})"
                    self.add("child_tiers", f"code {code} of tier {tier} {said} = {listed}")
        if tiers.batch_ranked_children is not None:
            self.ranked_children(tiers, reached)
        if tiers.batch_expand_tier is not None:
            self.expand_tier(tiers, reached)
        if tiers.batch_mark_tier is not None and self.rules.batch is not None:
            by_tier: dict[int, list[int]] = {}
            for code, tier in sorted(reached.items()):
                by_tier.setdefault(tier, []).append(code)
            kids_of = partial(self.child_tiers, tiers)
            check_sweeps(tiers, self.rules.batch, kids_of, by_tier, self.add, self.call, self.rng)
        chosen = self.rng.sample(reachable, min(len(reachable), 50))
        for tier in chosen:
            self.unranks(tiers, tier, max(1, self.samples // len(chosen)))
        if tiers.batch_parents is not None and tiers.batch_tier is not None:
            self.unmoves(tiers, reached)
        if tiers.batch_moves_out is not None and tiers.batch_tier is not None:
            self.moves_out(tiers, reached)

    def engine_tiers(self, tiers: TierRules) -> None:
        """A game the engine ranks: no move lowers the tier (the ranking itself follows
        from the rules, and finding it means finding every position), and un-moves."""
        assert tiers.batch_tier is not None
        codes = np.fromiter(self.states, dtype=np.int64, count=len(self.states))
        reached = dict(
            zip(
                codes.tolist(),
                self.array("batch_tier", tiers.batch_tier, codes).tolist(),
                strict=False,
            )
        )
        for code, kids in self.children.items():
            told = self.array("batch_tier", tiers.batch_tier, np.array(kids, dtype=np.int64))
            for kid, kid_tier in zip(kids, told.tolist(), strict=False):
                if kid_tier < reached.get(code, kid_tier):
                    self.add(
                        "tier",
                        f"a move from code {code} (tier {reached[code]}) leads to code {kid} "
                        f"of tier {kid_tier}: a move may not lower the tier",
                    )
        if tiers.batch_parents is not None:
            self.unmoves(tiers, reached)
        self.engine_loops()

    def ranked_children(self, tiers: TierRules, reached: dict[int, int]) -> None:
        """batch_ranked_children, where it answers, gives each sampled code's moves as
        batch_expand and batch_rank do (the same indices, as often)."""
        assert tiers.batch_ranked_children is not None and self.rules.batch is not None
        for tier in sorted(set(reached.values())):
            kids = self.child_tiers(tiers, tier)
            if len(kids) != 1:
                continue
            codes = np.array(sorted(c for c, t in reached.items() if t == tier), dtype=np.int64)
            ended = self.array("batch_outcome", self.rules.batch.batch_outcome, codes)
            if ended.shape != codes.shape:
                continue  # (batch_outcome's fault, reported by its own check)
            codes = codes[ended == 0]
            found = self.call("batch_ranked_children", tiers.batch_ranked_children, tier, codes)
            moves = self.call("batch_expand", self.rules.batch.batch_expand, codes)
            if found is None or moves is None:
                continue
            self.same_moves("batch_ranked_children", tiers, tier, kids[0], codes, moves, found)

    def same_moves(
        self,
        hook: str,
        tiers: TierRules,
        tier: int,
        kid: int,
        codes: npt.NDArray[np.int64],
        moves: Any,
        found: tuple[Any, ...],
    ) -> None:
        """A problem of ``hook`` when the (parents, child indices) it ``found`` for
        ``codes`` of ``tier`` are not, as often, the moves batch_expand gave ranked in
        ``kid`` by batch_rank; and where it adds the children's ends, when they are not
        batch_outcome's of those children."""
        ranked = self.array("batch_rank", tiers.batch_rank, kid, moves.children)
        want = Counter(zip(np.asarray(moves.parents).tolist(), ranked.tolist(), strict=False))
        parents, index = (np.asarray(a).tolist() for a in found[:2])
        got = Counter(zip(parents, index, strict=False))
        for row, i in sorted((want - got) + (got - want))[:1]:
            said = "misses" if want[(row, i)] > got[(row, i)] else "adds"
            self.add(
                hook,
                f"tier {tier}: for code {int(codes[row])} it {said} index {i} of tier {kid} "
                f"(batch_expand and batch_rank give {want[(row, i)]} such moves, it gives "
                f"{got[(row, i)]})",
            )
        if len(found) == 3 and not (want - got) + (got - want) and self.rules.batch is not None:
            ends = self.array("batch_outcome", self.rules.batch.batch_outcome, moves.children)
            truth = Counter(zip(ranked.tolist(), ends.tolist(), strict=False))
            given = Counter(zip(index, np.asarray(found[2]).tolist(), strict=False))
            for i, end in sorted((truth - given) + (given - truth))[:1]:
                told = {e for (j, e) in truth if j == i}
                self.add(
                    hook,
                    f"tier {tier}: gives end {end} for a child of index {i}; batch_outcome "
                    f"gives {sorted(told)}",
                )

    def expand_tier(self, tiers: TierRules, reached: dict[int, int]) -> None:
        """batch_expand_tier, where it answers, gives each sampled position (by index) the
        end batch_outcome gives its code, and the moves batch_expand and batch_rank give."""
        assert tiers.batch_expand_tier is not None and self.rules.batch is not None
        for tier in sorted(set(reached.values())):
            kids = self.child_tiers(tiers, tier)
            if len(kids) != 1 or kids[0] == tier:
                continue
            codes = np.array(sorted(c for c, t in reached.items() if t == tier), dtype=np.int64)
            indices = self.array("batch_rank", tiers.batch_rank, tier, codes)
            found = self.call("batch_expand_tier", tiers.batch_expand_tier, tier, indices)
            ends = self.call("batch_outcome", self.rules.batch.batch_outcome, codes)
            if found is None or ends is None:
                continue
            outcome, parents, child_index = (np.asarray(a).tolist() for a in found)
            if len(outcome) != len(codes):
                self.add("batch_expand_tier", f"gave {len(outcome)} ends for {len(codes)} indices")
                return
            for row, (code, end) in enumerate(zip(codes.tolist(), np.asarray(ends).tolist(),
                                                  strict=True)):  # fmt: skip
                if outcome[row] != end:
                    self.add(
                        "batch_expand_tier",
                        f"tier {tier}: gives end {outcome[row]} for code {code}, batch_outcome "
                        f"{end}",
                    )
                    return
            going = codes[np.asarray(ends) == 0]
            moves = self.call("batch_expand", self.rules.batch.batch_expand, going)
            if moves is None:
                continue
            self.same_moves(
                "batch_expand_tier", tiers, tier, kids[0], going, moves, (parents, child_index)
            )

    def unmoves(self, tiers: TierRules, reached: dict[int, int]) -> None:
        """Un-moves are the inverse of the moves inside a tier: each move from a sampled
        position to a child of its own tier is listed as often by batch_parents, and each
        position batch_parents lists for that child moves to it as often. With a key, the
        positions (by their keys) are compared, not how often: a position with a symmetry of
        its own may move twice to one child by two images of it, which un-moves from the
        child's one code find once (the solvers take one word from a child to a parent)."""
        assert tiers.batch_parents is not None and tiers.batch_tier is not None
        expanded: dict[int, npt.NDArray[np.int64]] = {}  # a parent's children, keyed
        for code, kids in list(self.children.items())[: self.samples]:
            tier = reached.get(code)
            told = self.array("batch_tier", tiers.batch_tier, np.array(kids, dtype=np.int64))
            for kid in {k for k, t in zip(kids, told.tolist(), strict=False) if t == tier}:
                back = self.call("batch_parents", tiers.batch_parents, tier, np.array([kid]))
                if back is None:
                    continue
                keys = self.keyed(back.children)
                listed = Counter(int(c) for c in keys)
                self.placed(tiers, tier, code, back.children, keys)
                if self.counted(listed[code]) != self.counted(kids.count(kid)):
                    self.add(
                        "batch_parents",
                        f"tier {tier}: code {code} moves {kids.count(kid)} time(s) to {kid}, "
                        f"but batch_parents lists it {listed[code]} time(s)",
                    )
                self.expand_into(expanded, [b for b in listed if b not in expanded])
                for before, times in listed.items():
                    made = int(np.count_nonzero(expanded[before] == kid))
                    if self.counted(made) != self.counted(times):
                        self.add(
                            "batch_parents",
                            f"tier {tier}: lists {before} {times} time(s) before {kid}, "
                            f"which has {made} move(s) there",
                        )

    def expand_into(self, expanded: dict[int, npt.NDArray[np.int64]], codes: list[int]) -> None:
        """Each of ``codes``' children (by their keys) into ``expanded``, in one batch: a
        position is a parent of many, and one call a position costs an interpreted game
        more than its moves."""
        batch = self.rules.batch
        assert batch is not None
        if not codes:
            return
        moves = batch.batch_expand(np.array(codes, dtype=np.int64))
        keys = self.keyed(moves.children)
        ends = np.cumsum(np.bincount(np.asarray(moves.parents), minlength=len(codes)))
        for code, row in zip(codes, np.split(keys, ends[:-1]), strict=True):
            expanded[code] = row

    def moves_out(self, tiers: TierRules, reached: dict[int, int]) -> None:
        """The moves split at a tier's edge (``batch_moves_out``: a compiled game's
        ``exits`` and ``stays``, where it writes them) are its moves: as many staying in the
        tier as batch_expand's children there, the same children out of it."""
        assert tiers.batch_moves_out is not None and tiers.batch_tier is not None
        for code, kids in list(self.children.items())[: self.samples]:
            tier = reached.get(code)
            if tier is None:
                continue
            split = self.call("batch_moves_out", tiers.batch_moves_out, tier, np.array([code]))
            told = self.array("batch_tier", tiers.batch_tier, np.array(kids, dtype=np.int64))
            if split is None or len(told) != len(kids):
                continue
            inside, _, out = (np.asarray(part, dtype=np.int64) for part in split)
            staying = int(np.count_nonzero(told == tier))
            leaving = sorted(k for k, t in zip(kids, told.tolist(), strict=False) if t != tier)
            listed = sorted(out.tolist())
            if int(inside[0]) != staying or listed != leaving:
                others = len(listed) == len(leaving) != 0 and listed != leaving
                self.add(
                    "batch_moves_out",
                    f"tier {tier}: code {code} has {staying} move(s) staying and "
                    f"{len(leaving)} leaving (batch_expand), but batch_moves_out counts "
                    f"{int(inside[0])} staying and lists {len(listed)} other children"
                    + (", not the same ones" if others else ""),
                )

    def placed(
        self, tiers: TierRules, tier: int | None, code: int, parents: Any, keys: Any
    ) -> None:
        """The parents un-moves give for ``code`` (``keys``: theirs) are ranked where
        ``code`` is: the solvers rank un-moves as given (an image of a position that the
        ranking does not place would be dropped, and the position never told)."""
        same = np.asarray(parents, dtype=np.int64)[np.asarray(keys) == code]
        if not same.size:
            return
        asked = np.append(same, code)
        ranks = self.array("batch_rank", tiers.batch_rank, tier, asked)
        if ranks.size and bool((ranks[:-1] != ranks[-1]).any()):
            self.add(
                "batch_parents",
                f"tier {tier}: lists {int(same[0])}, an image of {code}, which batch_rank "
                f"places at {int(ranks[0])}, not {int(ranks[-1])}: give un-moves as codes "
                "batch_rank ranks (keyed, where the ranking keeps keys)",
            )

    def counted(self, times: int) -> int:
        """How often a move or un-move is compared: as it is, or with a key whether at all
        (see ``unmoves``)."""
        batch = self.rules.batch
        return times if batch is None or batch.batch_key is None else min(times, 1)

    def keyed(self, codes: Any) -> npt.NDArray[np.int64]:
        """Codes by their keys (un-moves may give any of a position's symmetric codes)."""
        raw: npt.NDArray[np.int64] = np.asarray(codes, dtype=np.int64)
        batch = self.rules.batch
        if batch is None or batch.batch_key is None or not raw.size:
            return raw
        keyed: npt.NDArray[np.int64] = np.asarray(batch.batch_key(raw), dtype=np.int64)
        return keyed

    def tier_graph(self, tiers: TierRules) -> list[int]:
        """The tiers reachable from initial_tier (depth first); cycles become problems."""
        colour = {tiers.initial_tier: 1}  # 1 on the path, 2 done
        order = [tiers.initial_tier]
        stack = [(tiers.initial_tier, iter(self.child_tiers(tiers, tiers.initial_tier)))]
        while stack:
            tier, pending = stack[-1]
            child = next(pending, None)
            if child is None:
                colour[tier] = 2
                stack.pop()
            elif child == tier:
                continue  # a loopy tier: its positions also move among themselves
            elif colour.get(child) == 1:
                path = " -> ".join(str(t) for t, _ in stack)
                self.add("child_tiers", f"the tiers form a cycle: {path} -> {child}")
                return order
            elif child not in colour and len(colour) < MAX_TIERS:
                colour[child] = 1
                order.append(child)
                stack.append((child, iter(self.child_tiers(tiers, child))))
        return order

    def reached_tiers(self, tiers: TierRules) -> dict[int, int]:
        """The tier of every sampled code: batch_tier's, or else followed along the
        playouts through each tier's only child tier."""
        if tiers.batch_tier is not None:
            codes = np.array(sorted(self.states), dtype=np.int64)
            told = self.array("batch_tier", tiers.batch_tier, codes)
            reached = dict(zip(codes.tolist(), told.tolist(), strict=False))
            start = reached.get(self.coded[0][0], tiers.initial_tier)
            if start != tiers.initial_tier:
                self.add("batch_tier", f"gives {start} for the initial state, not initial_tier")
            return reached
        reached = {}
        for path in self.coded:
            tier = tiers.initial_tier
            for step, code in enumerate(path):
                if step and len(self.child_tiers(tiers, tier)) != 1:
                    self.add(
                        "child_tiers", f"child_tiers({tier}) must list one tier (no batch_tier)"
                    )
                    break
                tier = self.child_tiers(tiers, tier)[0] if step else tier
                if reached.setdefault(code, tier) != tier:
                    self.add("child_tiers", f"code {code} is in tiers {reached[code]} and {tier}")
        return reached

    def ranks(self, tiers: TierRules, reached: dict[int, int]) -> None:
        """Each sampled code ranks within its tier and unranks back."""
        for tier in sorted(set(reached.values())):
            codes = np.array([c for c, t in reached.items() if t == tier], dtype=np.int64)
            size = self.call("tier_size", tiers.tier_size, tier)
            index = self.array("batch_rank", tiers.batch_rank, tier, codes)
            if size is None or index.shape != codes.shape:
                continue
            inside = (index >= 0) & (index < int(size))
            for code, i in zip(codes[~inside].tolist(), index[~inside].tolist(), strict=True):
                said = f"ranks to index {i}, outside 0..{int(size) - 1} (tier_size)"
                self.add("batch_rank", f"tier {tier}: code {code} {said}")
            if tiers.tier_index is not None:
                self.one_by_one(tiers, tier, codes, index)
            back = self.array("batch_unrank", tiers.batch_unrank, tier, index[inside])
            if tiers.ranks_images_alike and back.shape == index[inside].shape:
                # an image of the code comes back: the same index is asked of it instead
                again = self.array("batch_rank", tiers.batch_rank, tier, back)
                back = np.where(again == index[inside], codes[inside], back)
            pairs = zip(codes[inside].tolist(), index[inside].tolist(), strict=True)
            for (code, i), other in zip(pairs, back.tolist(), strict=False):
                if code != other:
                    said = f"ranks to index {i}, but batch_unrank({tier}, {i}) gives {other}"
                    self.add("batch_rank", f"tier {tier}: code {code} {said}")

    def one_by_one(self, tiers: TierRules, tier: int, codes: Any, index: Any) -> None:
        """tier_index of each code says what batch_tier and batch_rank say of it."""
        assert tiers.tier_index is not None
        for code, i in zip(codes.tolist(), index.tolist(), strict=True):
            found = self.call("tier_index", tiers.tier_index, code)
            if found is not None and tuple(found) != (tier, i):
                said = f"gives {tuple(found)} for code {code}; batch hooks give {(tier, i)}"
                self.add("tier_index", said)

    def unranks(self, tiers: TierRules, tier: int, count: int) -> None:
        """Random indices of a tier unrank to -1 or to codes of the tier ranking back."""
        size = int(self.call("tier_size", tiers.tier_size, tier) or 0)
        picks = range(size) if size <= count else self.rng.sample(range(size), count)
        index = np.array(picks, dtype=np.int64)
        codes = self.array("batch_unrank", tiers.batch_unrank, tier, index)
        index, codes = index[: codes.size][codes != -1], codes[codes != -1]
        back = self.array("batch_rank", tiers.batch_rank, tier, codes)
        for i, code, j in zip(index.tolist(), codes.tolist(), back.tolist(), strict=False):
            if i != j or code < 0:
                said = f"batch_unrank gives code {code} for index {i}, which batch_rank maps to {j}"
                self.add("batch_rank", f"tier {tier}: {said}")
        if tiers.batch_tier is None:
            return
        told = self.array("batch_tier", tiers.batch_tier, codes)
        for code, t in zip(codes.tolist(), told.tolist(), strict=False):
            if t != tier:
                self.add("batch_tier", f"gives {t} for code {code}, unranked in tier {tier}")
