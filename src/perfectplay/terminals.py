"""The one check of the values a game gives at its ends, shared by every explorer and search.

An end is worth WIN, LOSS or TIE (an outcome game) or a number (a scored game; +-inf allowed,
NaN and integers beyond 2**53 refused); a game is one kind or the other. ``Terminals`` sees
the ends one at a time (plain exploration, search) or an array at a time (the batch
protocol), and remembers the kind they reveal so that the first end of the other kind is
refused with both ends named.
"""

from __future__ import annotations

import math
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from .errors import GameError, describe
from .protocol import Codes
from .values import UNDECIDED, Value, is_score, score_problem

Kind = Literal["outcome", "scored"]


class Terminals:
    """The ends met so far of one game, and the kind of game they reveal."""

    def __init__(self, name: str, kind: Kind | None = None) -> None:
        self.name = name
        self.kind: Kind | None = kind
        """None until an end with a value is met (or a game declares its kind)."""
        self.integral = True
        """Whether every score so far is a whole number (or infinite)."""
        self._first: dict[Kind, tuple[object, object]] = {}
        """The first end of each kind: (value, state), described only if ever needed."""

    def check(self, state: Any, value: object) -> Value | float:
        """The value of one end: a Value, or a score as a float; GameError when unusable."""
        if isinstance(value, Value):
            if value is Value.DRAW:
                raise GameError(
                    f"{self.name}.outcome(state) returned DRAW for {describe(state)}; a game "
                    "that ends returns WIN, LOSS or TIE (DRAW is what a solver reports for "
                    "play that never ends)"
                )
            self._meet("outcome", value.name, state)
            return value
        if not is_score(value):
            raise GameError(
                f"{self.name}.outcome(state) returned {describe(value)} "
                f"({type(value).__name__}) for {describe(state)}; expected None, "
                "WIN, LOSS, TIE or a number"
            )
        problem = score_problem(value)
        if problem is not None:
            raise GameError(f"{self.name}.outcome(state) for {describe(state)}: {problem}")
        self._meet("scored", value, state)
        number = float(value)  # type: ignore[arg-type]
        if not (isinstance(value, (int, np.integer)) or math.isinf(number)):
            self.integral = False
        return number

    def check_reward(self, value: object) -> float:
        """The points a move earns, as a float; GameError when it is no usable number."""
        problem = score_problem(value) if is_score(value) else "not a number"
        if problem is not None:
            raise GameError(
                f"{self.name}.reward(state, move) returned {describe(value)}: {problem}"
            )
        if not isinstance(value, (int, np.integer)):
            self.integral = False
        return float(value)  # type: ignore[arg-type]

    def check_batch(
        self, codes: Codes, result: npt.ArrayLike
    ) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.float64] | None]:
        """What ``batch_outcome(codes)`` returned, checked: outcome codes (0 goes on; for a
        scored game, TIE marks an end) and the scores of a scored game (NaN goes on)."""
        values = np.asarray(result)
        if values.shape != codes.shape:
            raise GameError(
                f"{self.name}.batch_outcome returned shape {values.shape} for "
                f"{codes.shape[0]} states"
            )
        if values.dtype.kind == "f":
            scores = values.astype(np.float64)
            done = ~np.isnan(scores)
            if done.any():
                i = int(np.flatnonzero(done)[0])
                self._meet("scored", scores[i], int(codes[i]), "batch_outcome")
            if self.integral and not np.all(scores[np.isfinite(scores)] % 1 == 0):
                self.integral = False
            return np.where(done, np.int8(Value.TIE), np.int8(UNDECIDED)).astype(np.int8), scores
        code = values.astype(np.int8)
        bad = (code < UNDECIDED) | (code > int(Value.TIE))
        if bad.any():
            raise GameError(
                f"{self.name}.batch_outcome gave code {int(code[bad][0])} for state "
                f"{int(codes[bad][0])}; expected 0 (goes on), 1 WIN, 2 LOSS or 3 TIE"
            )
        ended = np.flatnonzero(code != UNDECIDED)
        if ended.size:
            i = int(ended[0])
            self._meet("outcome", Value(int(code[i])).name, int(codes[i]), "batch_outcome")
        return code, None

    def met_outcome(self, code: int, state: object, method: str) -> None:
        """Note an outcome end (code WIN, LOSS or TIE) a batch hook reported for ``state``."""
        self._meet("outcome", Value(code).name, state, method)

    def _meet(
        self, kind: Kind, value: object, state: object, method: str = "outcome(state)"
    ) -> None:
        """Note an end of ``kind``; refuse it if the game already showed the other kind.

        Runs once per end: what the message needs is kept raw and described only on error.
        """
        self._first.setdefault(kind, (value, state))
        if self.kind is None:
            self.kind = kind
        elif self.kind != kind:
            raise GameError(
                f"{self.name}.{method} mixes outcomes and scores: "
                f"{self._example('outcome')} but {self._example('scored')}; a game is either "
                "won/lost/tied or scored (use +-inf for a scored win)"
            )

    def _example(self, kind: Kind) -> str:
        if kind not in self._first:
            return "an outcome" if kind == "outcome" else "a score"
        value, state = self._first[kind]
        shown = value if kind == "outcome" else describe(value)  # outcomes come as names
        return f"{shown} for {describe(state)}"
