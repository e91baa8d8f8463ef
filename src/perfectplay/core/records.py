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
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from ..errors import TablebaseError
from ..values import Value
from .compiled import kernel

NONE = 0
REACHED = 7
SCORE_TYPES = ("<i1", "<i2", "<i4", "<f8")
"""The types a scored game's tier keeps its scores in, narrowest first (``tiers.scored``)."""


def score_signs(scores: Any) -> npt.NDArray[np.int8]:
    """The value code that stands for each score in a scored game's records: WIN above 0,
    LOSS below (-inf too), TIE at 0."""
    below = np.where(scores < 0, int(Value.LOSS), int(Value.TIE))
    return np.where(scores > 0, int(Value.WIN), below).astype(np.int8)


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


class SweepCodes(NamedTuple):
    """The records a game's tier sweeps (``batch_mark_tier``, ``batch_solve_tier``) read and
    write, so that they need not know the record format; built by ``sweep_codes``.

    A sweep folds a position's moves into one number, ``best``: it starts at -1 (no move)
    and takes ``max(best, worth[child record])`` over the moves; the position's record is
    then ``record_of[best + 1]``. Worth, best first: a win for the mover (a child lost for
    its own mover) in q plies ranks above a win in q + 1, then ties (sooner above later),
    then draws, then losses (later above sooner), so the maximum is what retrograde
    analysis picks: the winner hurries, a tie comes soonest, the loser stalls; no move at
    all is a loss. Every move passes the turn.
    """

    reached: int
    """The record of a position reached and not yet solved."""
    ended: Any
    """ended[outcome code]: the record of a position that ended so (remoteness 0)."""
    worth: Any
    """worth[child record]: how good the move is for the mover (int64, one per record);
    ``unsolved`` for a child with no value."""
    record_of: Any
    """record_of[best + 1]: the mover's record (int64); UNSOLVED_CHILD or TOO_REMOTE (both
    negative) when a child had no value or the remoteness does not fit the records."""


UNSOLVED_CHILD = -1
TOO_REMOTE = -2


def sweep_codes(record: RecordFormat) -> SweepCodes:
    """The tables of ``SweepCodes`` for one record format.

    Worth of a move in q plies (the child's remoteness + 1), K = max remoteness + 2:
    loss q, draw K, tie 2K - q, win 3K - q; a child without value 3K (above all, so it
    cannot hide), read back as UNSOLVED_CHILD."""
    top = record.max_remoteness
    k = top + 2
    shift = record.shift
    worth = np.full(1 << (8 * record.bytes), 3 * k, dtype=np.int64)
    plies = np.arange(top + 1, dtype=np.int64)
    worth[(int(Value.WIN) << shift) + plies] = plies + 1  # the mover loses
    worth[(int(Value.LOSS) << shift) + plies] = 3 * k - (plies + 1)
    worth[(int(Value.TIE) << shift) + plies] = 2 * k - (plies + 1)
    worth[(int(Value.DRAW) << shift) + plies] = k
    record_of = np.full(3 * k + 2, TOO_REMOTE, dtype=np.int64)
    record_of[0] = int(Value.LOSS) << shift  # no move
    q = np.arange(top + 1, dtype=np.int64)
    record_of[q + 1] = (int(Value.LOSS) << shift) + q
    record_of[k + 1] = int(Value.DRAW) << shift
    record_of[2 * k - q[1:] + 1] = (int(Value.TIE) << shift) + q[1:]
    record_of[3 * k - q[1:] + 1] = (int(Value.WIN) << shift) + q[1:]
    record_of[3 * k + 1] = UNSOLVED_CHILD
    ended = np.zeros(int(Value.DRAW) + 1, dtype=np.int64)
    for value in (Value.WIN, Value.LOSS, Value.TIE):
        ended[int(value)] = int(value) << shift
    return SweepCodes(record.reached, ended, worth, record_of)


@kernel
def tally_records(records: Any, tally: Any) -> None:
    """tally[r] += how many records are r (np.bincount would widen them to 8 bytes each).
    Four tallies take turns, so that equal records in a row do not wait on one counter."""
    turns = np.zeros((4, tally.shape[0]), dtype=np.int64)
    n = records.shape[0]
    for i in range(0, n - n % 4, 4):
        turns[0, records[i]] += 1
        turns[1, records[i + 1]] += 1
        turns[2, records[i + 2]] += 1
        turns[3, records[i + 3]] += 1
    for i in range(n - n % 4, n):
        turns[0, records[i]] += 1
    for r in range(tally.shape[0]):
        tally[r] += turns[0, r] + turns[1, r] + turns[2, r] + turns[3, r]


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

    def add_records(self, records: Any, record: RecordFormat) -> None:
        """Count a tier's final records (every nonzero one is a position)."""
        tally = np.zeros(1 << (8 * record.bytes), dtype=np.int64)
        if records.shape[0]:
            tally_records(np.asarray(records), tally)
        self.add_tally(tally, record)

    def add_tally(self, tally: Any, record: RecordFormat) -> None:
        """Count final records tallied as tally[record] (the record 0, no position, left
        out)."""
        tally = tally.copy()
        tally[0] = 0
        for found in np.flatnonzero(tally).tolist():
            code, plies, count = found >> record.shift, found & record.max_remoteness, tally[found]
            self.positions += int(count)
            self.values[code] = self.values.get(code, 0) + int(count)
            key = f"{code}:{plies}"
            self.remoteness[key] = self.remoteness.get(key, 0) + int(count)

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
