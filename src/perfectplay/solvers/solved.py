"""What a full solver hands back: one value and one remoteness per state of a StateGraph."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt


@dataclass(frozen=True)
class Solved:
    """Per state id: ``values`` (Value codes, or float scores of a scored game),
    ``remoteness`` (plies to the end; -1 for a draw) and, for a Grundy solve, ``grundy``."""

    values: npt.NDArray[np.int8] | npt.NDArray[np.float64]
    remoteness: npt.NDArray[np.int32]
    grundy: npt.NDArray[np.int32] | None = None
