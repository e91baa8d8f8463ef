"""A tier's sorted codes packed for shipping: deltas, split into byte planes, zstd.

Sorted codes differ little from one to the next, and their deltas' high bytes are mostly
zero: written plane by plane (every delta's byte 0, then every byte 1, ...) they compress
to almost nothing (Connect Four 6x4's largest tier: 0.08 bytes a code). A packed file is
decoded whole when its tier is first used.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

ENCODING = "delta-planes-zstd"


def pack(codes: Any, path: Path, level: int = 9) -> None:
    """Write sorted int64 ``codes`` packed into ``path``."""
    import zstandard

    deltas = np.diff(np.asarray(codes, dtype=np.int64), prepend=np.int64(0)).astype("<u8")
    planes = deltas.view(np.uint8).reshape(-1, 8).T.copy()
    path.write_bytes(zstandard.ZstdCompressor(level=level).compress(planes.tobytes()))


def unpack(path: Path, count: int) -> Any:
    """The sorted int64 codes packed in ``path`` (ValueError when they do not decode to
    ``count`` codes)."""
    import zstandard

    if count == 0:
        return np.zeros(0, dtype=np.int64)
    raw = zstandard.ZstdDecompressor().decompress(path.read_bytes(), max_output_size=8 * count)
    if len(raw) != 8 * count:
        raise ValueError(f"{path.name} decodes to {len(raw):,} bytes, not {8 * count:,}")
    planes = np.frombuffer(raw, dtype=np.uint8).reshape(8, count)
    deltas = planes.T.copy().view("<i8").reshape(count)  # every delta is below 2**63
    return np.cumsum(deltas, out=deltas)
