"""Records: a position's value and remoteness packed into 1 or 2 bytes, as tiers store them.

A record is an unsigned integer of ``bytes`` bytes: the value code in the top 3 bits, the
remoteness (plies to the end) in the rest::

    1 byte:  vvv rrrrr             remoteness 0..31
    2 bytes: vvv rrrrrrrrrrrrr     remoteness 0..8191

Value codes: 0 no position (an index that is no legal position, or one never reached),
1 WIN, 2 LOSS, 3 TIE, 4 DRAW (as ``values.Value``), 7 reached but not yet solved (only while
a solve runs). A DRAW never ends; its remoteness field is 0 and means nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from .errors import TablebaseError

NONE = 0
REACHED = 7


@dataclass(frozen=True)
class RecordFormat:
    """How records of one tablebase are laid out."""

    bytes: int
    """1 or 2."""

    @property
    def dtype(self) -> np.dtype[np.unsignedinteger]:
        """The array type of a record (little-endian on disk)."""
        return np.dtype("<u1") if self.bytes == 1 else np.dtype("<u2")

    @property
    def shift(self) -> int:
        """Where the value code starts."""
        return 8 * self.bytes - 3

    @property
    def max_remoteness(self) -> int:
        """The largest remoteness a record holds."""
        return (1 << self.shift) - 1

    @property
    def reached(self) -> int:
        """The record of a position reached but not yet solved."""
        return REACHED << self.shift

    def value_codes(self, records: npt.NDArray[np.unsignedinteger]) -> npt.NDArray[np.uint8]:
        """The value code of each record."""
        return (records >> self.shift).astype(np.uint8)

    def remoteness(self, records: npt.NDArray[np.unsignedinteger]) -> npt.NDArray[np.int32]:
        """The remoteness of each record."""
        return (records & self.max_remoteness).astype(np.int32)


def format_for(longest: int) -> RecordFormat:
    """The smallest record format whose remoteness field holds ``longest`` plies."""
    if longest <= RecordFormat(1).max_remoteness:
        return RecordFormat(1)
    if longest <= RecordFormat(2).max_remoteness:
        return RecordFormat(2)
    raise TablebaseError(
        f"games as long as {longest:,} plies do not fit a tablebase record (8,191 at most)"
    )


def count_pairs(values: Any, remoteness: Any) -> Any:
    """Positions per (value code << 13 | remoteness), by bincount: no sorting."""
    if not values.shape[0]:
        return np.zeros(0, dtype=np.int64)
    return np.bincount(values.astype(np.int64) << 13 | remoteness.astype(np.int64))


@dataclass
class TierSummary:
    """What a solved tier holds: positions per value code and per (value, remoteness)."""

    positions: int = 0
    values: dict[int, int] = field(default_factory=dict)
    remoteness: dict[str, int] = field(default_factory=dict)
    """Keys "value:remoteness", for JSON."""

    def add(self, values: Any, remoteness: Any) -> None:
        """Count a chunk of solved positions (value codes 0-7, remoteness below 2**13)."""
        self.add_counts(count_pairs(values, remoteness))

    def add_counts(self, counts: Any) -> None:
        """Count a chunk of solved positions counted by ``count_pairs``."""
        self.positions += int(counts.sum())
        for pair in np.flatnonzero(counts).tolist():
            code, plies, count = pair >> 13, pair & 0x1FFF, int(counts[pair])
            self.values[code] = self.values.get(code, 0) + count
            key = f"{code}:{plies}"
            self.remoteness[key] = self.remoteness.get(key, 0) + count

    def add_table(self, counts: Any) -> None:
        """Count a chunk of solved positions counted as counts[value code, remoteness]."""
        for code, plies in zip(*np.nonzero(counts), strict=True):
            count = int(counts[code, plies])
            self.positions += count
            self.values[int(code)] = self.values.get(int(code), 0) + count
            key = f"{int(code)}:{int(plies)}"
            self.remoteness[key] = self.remoteness.get(key, 0) + count

    def merge_json(self, data: dict[str, Any]) -> None:
        """Add a summary kept as JSON (``as_json``): a tier solved in spans."""
        self.positions += int(data["positions"])
        for code, count in data["values"].items():
            self.values[int(code)] = self.values.get(int(code), 0) + int(count)
        for key, count in data["remoteness"].items():
            self.remoteness[key] = self.remoteness.get(key, 0) + int(count)

    def as_json(self) -> dict[str, Any]:
        """The summary as progress.json and the header keep it."""
        return {
            "positions": self.positions,
            "values": {str(k): v for k, v in sorted(self.values.items())},
            "remoteness": dict(sorted(self.remoteness.items())),
        }
