"""The batch protocol checked against the plain rules on the sample (outcomes, and children
as a multiset with their rewards and turns), and a compiled game's loops compiled against
the same loops run as plain Python."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from ..errors import describe
from ..protocol import BatchRules
from ..values import Value, is_score
from .sample import SHOWN, Check


class BatchCheck(Check):
    """The checks of the batch protocol (and of a compiled game's loops), on the sample."""

    def batch(self, batch: BatchRules) -> None:
        """batch_outcome against outcome, then batch_expand against play on open codes."""
        codes = np.fromiter(self.states, dtype=np.int64, count=len(self.states))
        values = self.array("batch_outcome", batch.batch_outcome, codes)
        open_codes = []
        for code, value in zip(codes.tolist(), values.tolist(), strict=False):
            plain = self.rules.outcome(self.states[code])
            if not _agrees(plain, value, values.dtype.kind == "f"):
                said = f"outcome gives {describe(plain)} (state {describe(self.states[code])})"
                self.add("batch_outcome", f"gives {value} for code {code} but {said}")
            elif plain is None:
                open_codes.append(code)
        exp = self.call("batch_expand", batch.batch_expand, np.array(open_codes, dtype=np.int64))
        if exp is None:
            return
        parents, children = np.asarray(exp.parents), np.asarray(exp.children, dtype=np.int64)
        n = children.shape[0]
        rewards = np.zeros(n) if exp.rewards is None else np.asarray(exp.rewards, np.float64)
        same = np.zeros(n, bool) if exp.same_mover is None else np.asarray(exp.same_mover, bool)
        within = n == 0 or (parents.min() >= 0 and parents.max() < len(open_codes))
        if not (within and parents.shape == rewards.shape == same.shape == (n,)):
            self.add("batch_expand", "gave parents outside the batch, or unequal lengths")
            return
        if batch.batch_key is not None:
            children = np.asarray(self.call("batch_key", batch.batch_key, children), dtype=np.int64)
        detail = self.rules.reward is not None or self.rules.to_move is not None
        detail = detail or exp.rewards is not None or exp.same_mover is not None
        found: dict[int, Counter[Any]] = {code: Counter() for code in open_codes}
        for p, child, reward, again in zip(
            parents.tolist(), children.tolist(), rewards, same, strict=True
        ):
            found[open_codes[p]][(child, float(reward), bool(again)) if detail else child] += 1
            self.children.setdefault(open_codes[p], []).append(child)
        for code, got in found.items():
            want = self.plain_children(self.states[code], detail)
            if want != got:
                lacks, has = (
                    describe(sorted(c.elements(), key=str)) for c in (want - got, got - want)
                )
                said = f"lacks children {lacks} that play() gives, and has {has} it does not"
                self.add(
                    "batch_expand", f"code {code} (state {describe(self.states[code])}) {said}"
                )

    def compiled_agreement(self, loops_of: Callable[[bool], Any]) -> None:
        """A compiled game's loops give the same answers compiled and as plain Python, on
        the sampled codes: outcomes, keys, tiers and moves (in order)."""
        codes = np.fromiter(self.states, dtype=np.int64, count=len(self.states))
        compiled, plain = loops_of(True), loops_of(False)
        for name in ("outcomes", "keys", "tiers"):
            scored = name == "outcomes" and bool(self.rules.kind.scored)
            kind = np.float64 if scored else np.int64
            got, want = np.empty(codes.shape[0], kind), np.empty(codes.shape[0], kind)
            getattr(compiled, name)(codes, got)
            getattr(plain, name)(codes, want)
            differ = np.flatnonzero(~((got == want) | (np.isnan(got) & np.isnan(want))))
            for i in differ[:SHOWN].tolist():
                self.add(
                    "compiled",
                    f"{name} of code {int(codes[i])}: compiled {got[i]}, plain Python {want[i]}",
                )
        got_moves, want_moves = compiled.expand(codes, True), plain.expand(codes, True)
        for part, a, b in zip(("parents", "children"), got_moves[:2], want_moves[:2], strict=True):
            if a.shape != b.shape or not np.array_equal(a, b):
                self.add(
                    "compiled",
                    f"the moves of the sampled codes differ compiled and as plain Python "
                    f"({part}; integer overflow or undefined behaviour in the rules?)",
                )
                break

    def engine_loops(self) -> None:
        """A compiled game ranked by the engine: every tier loop a solve may run gives, on
        the sampled codes, the moves its ``expand`` gives (``checking.loops``)."""
        tiers, loops_of = self.rules.tiers, self.rules.engine_loops
        if tiers is None or not tiers.ranked_by_engine or loops_of is None or not self.states:
            return
        from .loops import check_tier_loops  # (only compiled games)

        codes = np.fromiter(self.states, dtype=np.int64, count=len(self.states))
        scored = bool(self.rules.kind.scored)
        check_tier_loops(loops_of(False), codes, partial(self.add, "engine"), scored=scored)


def _agrees(plain: object, got: Any, scored: bool) -> bool:
    """Whether batch_outcome's ``got`` says what outcome(state) said."""
    if scored:
        if plain is None or not is_score(plain):
            return plain is None and math.isnan(got)
        return float(plain) == float(got)  # type: ignore[arg-type]
    if plain is None:
        return int(got) == 0
    return isinstance(plain, Value) and int(plain) == int(got)
