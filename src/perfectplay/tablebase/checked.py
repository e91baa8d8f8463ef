"""A mapped tier file whose blocks are verified as they are first read.

A tier of a billion indices (Dobutsu shogi: 1.7 GB) would take seconds to hash before its
first answer. Its header keeps the SHA-256 of every block of ``hash_block`` bytes, and
``CheckedRecords`` hashes a block the first time a read touches it: no answer ever comes
from bytes that were not verified, and a probe pays for 16 MB, not the whole file. A block
is hashed through a mapping of the file, then its pages are let go from the
process (``let_go``: they stay in the page cache): kept, the pages of every block a line of
play touched stayed in the process's memory (Dobutsu shogi's ``solve --save`` report, 77
plies of perfect play: 1.07 GB of the tier mapped at the end, its peak, 2026-11-27).
"""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path
from typing import Any

import numpy as np

from ..tiers.files import let_go
from .header import TablebaseError


class CheckedRecords:
    """The records of one tier file, indexed like an array (an int or an int array)."""

    def __init__(self, path: Path, dtype: Any, blocks: tuple[str, ...], hash_block: int) -> None:
        self.path = path
        self.records: Any = np.memmap(path, dtype=dtype, mode="r")
        self.raw = np.memmap(path, dtype=np.uint8, mode="r")
        self.blocks = blocks
        self.per_block = hash_block // self.records.dtype.itemsize
        self.hash_block = hash_block
        if -(-self.raw.shape[0] // hash_block) != len(blocks):
            raise TablebaseError(f"{path}: its length does not fit its {len(blocks)} block hashes")
        self.verified = np.zeros(len(blocks), dtype=np.bool_)
        self._lock = threading.Lock()

    @property
    def shape(self) -> tuple[int]:
        """As an array's."""
        return (int(self.records.shape[0]),)

    def _verify(self, wanted: Any) -> None:
        for b in wanted:
            with self._lock:
                if self.verified[b]:
                    continue
                start, stop = b * self.hash_block, (b + 1) * self.hash_block
                digest = hashlib.sha256(self.raw[start:stop].data).hexdigest()
                let_go(self.raw, start, min(stop, self.raw.shape[0]))
                if digest != self.blocks[b]:
                    raise TablebaseError(
                        f"{self.path} fails its checksum at block {b} (damaged or changed); "
                        "no answer from it can be trusted"
                    )
                self.verified[b] = True

    def __getitem__(self, where: Any) -> Any:
        if isinstance(where, slice):
            start, stop, _ = where.indices(self.shape[0])
            if stop > start:
                first, last = start // self.per_block, (stop - 1) // self.per_block
                wanted = np.arange(first, last + 1)
                fresh = wanted[~self.verified[wanted]]
                if fresh.size:
                    self._verify(fresh.tolist())
            return self.records[where]
        if isinstance(where, (int, np.integer)):
            b = int(where) // self.per_block
            if not self.verified[b]:
                self._verify([b])
            return self.records[where]
        indices = np.asarray(where, dtype=np.int64)
        blocks = np.unique(indices // self.per_block)
        fresh = blocks[~self.verified[blocks]]
        if fresh.size:
            self._verify(fresh.tolist())
        return self.records[indices]
