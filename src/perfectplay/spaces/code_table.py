"""The hash table of batch exploration: state codes (non-negative int64) to dense ids.

Open addressing with linear probing in two arrays, ``keys`` (-1 marks an empty slot) and
``ids``; the size is a power of two and the table stays at most three quarters full,
doubling when it must. Its loops are compiled kernels: inserting runs once per edge.
"""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np

from ..core.arrays import I32, I64
from ..core.compiled import kernel
from ..protocol import Codes

_EMPTY = -1
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


class CodeTable:
    """Codes to ids, ids given in order of first sight."""

    def __init__(self, capacity: int = 1 << 10) -> None:
        self.keys = np.full(capacity, _EMPTY, dtype=np.int64)
        self.ids = np.empty(capacity, dtype=np.int32)
        self.size = 0

    def intern(self, codes: Codes) -> tuple[I32, Codes]:
        """Ids for ``codes`` (new codes get the next ids) and the new codes, in that order."""
        result = np.empty(codes.shape[0], dtype=np.int32)
        new_codes = np.empty(codes.shape[0], dtype=np.int64)
        start = fresh = np.int64(0)
        while start < codes.shape[0]:
            room = self.keys.shape[0] * 3 // 4 - (self.size + int(fresh))
            if room <= 0:
                capacity = np.int64(2 * self.keys.shape[0])
                self.keys, self.ids = hash_grow(self.keys, self.ids, capacity)
                continue
            start, fresh = hash_intern(
                self.keys,
                self.ids,
                codes,
                start,
                np.int64(self.size),
                np.int64(room),
                result,
                new_codes,
                fresh,
            )
        self.size += int(fresh)
        return result, new_codes[: int(fresh)].copy()

    def find(self, key: Hashable) -> int | None:
        """The id of a code, or None."""
        if not isinstance(key, (int, np.integer)) or key < 0:
            return None
        found = int(hash_find(self.keys, self.ids, np.int64(key)))
        return None if found < 0 else found


@kernel
def _slot(code: np.int64, mask: np.int64) -> np.int64:
    mixed = np.uint64(code) * _GOLDEN
    return np.int64(mixed >> np.uint64(20)) & mask


@kernel
def hash_intern(
    keys: I64,
    ids: I32,
    codes: I64,
    start: np.int64,
    next_id: np.int64,
    room: np.int64,
    result: I32,
    new_codes: I64,
    fresh: np.int64,
) -> tuple[np.int64, np.int64]:
    """Ids of ``codes[start:]`` into ``result``; each unseen code gets the next id and is
    listed in ``new_codes`` after the ``fresh`` already there.

    Stops early once ``room`` more codes have been added (the table must then grow).
    Returns where it stopped and the new count of fresh codes.
    """
    mask = np.int64(keys.shape[0] - 1)
    limit = fresh + room
    for i in range(start, codes.shape[0]):
        if fresh >= limit:
            return np.int64(i), fresh
        code = codes[i]
        slot = _slot(code, mask)
        while True:
            key = keys[slot]
            if key == code:
                result[i] = ids[slot]
                break
            if key == _EMPTY:
                keys[slot] = code
                ids[slot] = next_id + fresh
                result[i] = next_id + fresh
                new_codes[fresh] = code
                fresh += 1
                break
            slot = (slot + 1) & mask
    return np.int64(codes.shape[0]), fresh


@kernel
def hash_find(keys: I64, ids: I32, code: np.int64) -> np.int64:
    """The id stored for ``code``, or -1."""
    mask = np.int64(keys.shape[0] - 1)
    slot = _slot(code, mask)
    while True:
        key = keys[slot]
        if key == code:
            return np.int64(ids[slot])
        if key == _EMPTY:
            return np.int64(-1)
        slot = (slot + 1) & mask


@kernel
def hash_grow(keys: I64, ids: I32, capacity: np.int64) -> tuple[I64, I32]:
    """The same table in ``capacity`` slots (a power of two)."""
    new_keys = np.full(capacity, _EMPTY, dtype=np.int64)
    new_ids = np.empty(capacity, dtype=np.int32)
    mask = np.int64(capacity - 1)
    for i in range(keys.shape[0]):
        code = keys[i]
        if code == _EMPTY:
            continue
        slot = _slot(code, mask)
        while new_keys[slot] != _EMPTY:
            slot = (slot + 1) & mask
        new_keys[slot] = code
        new_ids[slot] = ids[i]
    return new_keys, new_ids


@kernel
def is_index_run(parents: I64, size: int) -> bool:
    """Whether ``parents`` is non-decreasing and within 0..size-1."""
    if parents[0] < 0 or parents[parents.shape[0] - 1] >= size:
        return False
    for i in range(1, parents.shape[0]):  # noqa: SIM110 (numba compiles loops, not all())
        if parents[i] < parents[i - 1]:
            return False
    return True
