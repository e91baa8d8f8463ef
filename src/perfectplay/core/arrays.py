"""The array types the engine's kernels pass around, and the empty arrays a kernel takes
for what a game does not have (numba needs an array, not None)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

I8 = npt.NDArray[np.int8]
I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
B = npt.NDArray[np.bool_]

NO_BOOLS = np.zeros(0, dtype=np.bool_)
"""What a kernel takes for per-edge flags a game does not have (numba needs an array)."""
NO_FLOATS = np.zeros(0, dtype=np.float64)
"""What a kernel takes for per-edge numbers a game does not have."""
