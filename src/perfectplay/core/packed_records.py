"""Packed tiers: one byte a position for a tier of 2-byte records whose values its
remoteness already says.

Where every move passes the turn, a win is an odd number of plies away and a loss an even
number (a position lost at once is 0 plies from its end, one that wins plays to a lost
child). A tier whose records are all such, with no tie and no remoteness beyond
``MOST_PLIES``, keeps one byte a position and loses nothing (Nine Men's Morris's longest
is 204 plies: 9.2 GB for its 9.2 billion indices instead of 18.5)::

    0          no position (the record 0)
    1 + r      a WIN (r odd) or a LOSS (r even) in r plies, r <= MOST_PLIES
    DRAW_CODE  a DRAW (remoteness field 0)
    255        unused

A packed tier's file holds these bytes; ``PackedRecords`` reads them as the 2-byte records
they stand for (``records.RecordFormat(2)``), so that a reader indexes either kind alike.
Packing is checked record by record: a tier with one record that does not fit is kept in
2 bytes (``pack_window`` says so), never changed.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .compiled import kernel
from .direct_io import write_direct

MOST_PLIES = 252
DRAW_CODE = 254
_SHIFT = 13  # the value code's place in a 2-byte record (``records.RecordFormat(2)``)
_WIN, _LOSS, _DRAW = 1, 2, 4


def _decoding() -> npt.NDArray[np.uint16]:
    table = np.zeros(256, dtype=np.uint16)
    plies = np.arange(MOST_PLIES + 1, dtype=np.uint16)
    values = np.where(plies % 2 == 1, _WIN, _LOSS).astype(np.uint16)
    table[1 : MOST_PLIES + 2] = (values << _SHIFT) | plies
    table[DRAW_CODE] = _DRAW << _SHIFT
    return table


DECODE = _decoding()
"""DECODE[code]: the 2-byte record a packed byte stands for (0 for the unused 255)."""


def pack_window(records: Any) -> npt.NDArray[np.uint8] | None:
    """The packed bytes of a window of 2-byte records, or None when one of them does not
    fit (a tie, a value its remoteness's parity contradicts, a remoteness beyond
    MOST_PLIES, an open position, a draw with a remoteness)."""
    records = np.asarray(records, dtype=np.uint16)
    codes = np.empty(records.shape[0], dtype=np.uint8)
    return codes if _packed(records, codes) else None


@kernel
def _packed(records: Any, codes: Any) -> bool:
    """Write each record's byte in ``codes``; False at the first that does not fit. One
    pass, compiled: the same checks as a dozen numpy passes over the window took 10 ns a
    record, single-threaded at the end of each of Nine Men's Morris's sectors (sector
    7-5: 2.9 s, 2026-12-01)."""
    for i in range(records.shape[0]):
        record = records[i]
        value, plies = record >> _SHIFT, record & ((1 << _SHIFT) - 1)
        if value == 0 and plies == 0:
            codes[i] = 0
        elif value == _DRAW and plies == 0:
            codes[i] = DRAW_CODE
        elif plies <= MOST_PLIES and (
            (value == _WIN and plies % 2 == 1) or (value == _LOSS and plies % 2 == 0)
        ):
            codes[i] = plies + 1
        else:
            return False
    return True


class PackedRecords:
    """A packed tier's bytes read as 2-byte records: an int, a slice or an int array
    indexes it as it would the records (``np.asarray`` decodes it whole: for a kernel that
    needs an array, at 2 bytes a position in memory)."""

    dtype = np.dtype("<u2")

    def __init__(self, codes: Any) -> None:
        self.codes = codes
        """The bytes (a mapped file, an array, or what indexes like one)."""

    @property
    def shape(self) -> tuple[int]:
        """As an array's."""
        return (int(self.codes.shape[0]),)

    @property
    def size(self) -> int:
        """As an array's."""
        return int(self.codes.shape[0])

    def __len__(self) -> int:
        return int(self.codes.shape[0])

    def __getitem__(self, where: Any) -> Any:
        if isinstance(where, (int, np.integer)):
            return DECODE[int(self.codes[where])]
        return DECODE[np.asarray(self.codes[where])]

    def __array__(self, dtype: Any = None, copy: Any = None) -> npt.NDArray[Any]:
        whole: npt.NDArray[Any] = DECODE[np.asarray(self.codes[0 : self.size])]
        return whole if dtype is None else whole.astype(dtype)


WINDOW = 1 << 24
"""Records packed or unpacked at once (32 MB of 2-byte records)."""


def pack_file(source: Path, target: Path, *, sync: bool = False) -> bool:
    """Write the packed bytes of the 2-byte records in ``source`` to ``target`` (past the
    page cache: ``direct_io``; fsync'd if ``sync``); False (and no ``target``) when a record
    does not fit."""
    records = np.memmap(source, dtype="<u2", mode="r")
    fits = [True]

    def windows(records: Any) -> Iterator[Any]:
        for start in range(0, records.shape[0], WINDOW):
            codes = pack_window(records[start : start + WINDOW])
            if codes is None:
                fits[0] = False
                return
            yield codes

    try:
        write_direct(target, windows(records), sync=sync)
    finally:
        del records
    if not fits[0]:
        target.unlink()
    return fits[0]


def unpack_file(source: Path, target: Path) -> None:
    """Write the 2-byte records the packed bytes in ``source`` stand for to ``target``."""
    codes = np.memmap(source, dtype=np.uint8, mode="r")
    with target.open("wb") as handle:
        for start in range(0, codes.shape[0], WINDOW):
            handle.write(DECODE[np.asarray(codes[start : start + WINDOW])].tobytes())
