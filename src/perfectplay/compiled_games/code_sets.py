"""A tier's sorted reachable codes and how a code is found among them (``CodeSet``).

A position's index in its tier is the rank of its code in the tier's sorted array of
reachable codes; no ranking to write. A code is found by a bucket index on its high bits,
(code - first code) >> shift, with about 8 codes a bucket, and a binary search inside its
bucket: a few probes of one or two cache lines, whatever the tier's size; many codes at once
are put in order and found in one walk. A code that is not in the tier is reported as -1,
never answered with another position's index. Memory: 8 bytes a code and about 1 byte a
code of buckets.
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.compiled import read_only
from ..core.packed_codes import unpack
from ..core.sorting import bucket_starts, rank_in_order
from ..errors import TablebaseError

if TYPE_CHECKING:  # (a type only: the loops a compiled game hands the engine)
    from .building import Loops

CODES_PER_BUCKET = 8
IN_ORDER_FROM = 4096
"""Queries from which a tier is searched in one walk, queries sorted first (``rank_in_order``:
Quixo's moves out of its tiers, 88 million of them, 60 ns a query against 110 by the bucket
index, the two measured on the same queries in one run)."""


class CodeSet:
    """One tier's sorted reachable codes, with the bucket index that finds a code in them.

    The codes are an array, or a file of little-endian int64 mapped while the tier is in
    use (``release`` unmaps it: out of core, only the tiers being solved stay resident)."""

    def __init__(
        self,
        codes: Any,
        buckets: Any | None,
        base: int,
        shift: int,
        path: Path | None = None,
        count: int = 0,
    ) -> None:
        self._codes = read_only(codes)
        self._buckets = None if buckets is None else read_only(buckets)
        self._base = base
        self._shift = shift
        self._count = count
        self.path = path
        self.size = int(codes.shape[0])

    @property
    def buckets(self) -> Any:
        """buckets[b]: the first index whose code's bucket, (code - base) >> shift, is b+
        (built when first asked: opening a tablebase builds none for the tiers it does not
        probe)."""
        found = self._buckets
        if found is None:
            found = self._buckets = read_only(
                _bucket_index(self.codes, self._base, self._shift, self._count)
            )
        return found

    @property
    def base(self) -> int:
        """The least code."""
        return self._base

    @property
    def shift(self) -> int:
        """Bits of a code below its bucket number."""
        return self._shift

    @classmethod
    def of(cls, codes: Any, path: Path | None = None) -> CodeSet:
        """The set of sorted, distinct ``codes``, with its bucket index (``path``: where the
        same codes are kept, mapped again after ``release``)."""
        n = int(codes.shape[0])
        if n == 0:
            return cls(codes, np.zeros(2, dtype=np.int64), 0, 0, path)
        base = int(codes[0])
        span = int(codes[-1]) - base + 1
        wanted = max(1, n // CODES_PER_BUCKET)
        shift = max(0, (span - 1).bit_length() - wanted.bit_length() + 1)
        count = ((span - 1) >> shift) + 1
        return cls(codes, None, base, shift, path, count)

    @property
    def codes(self) -> Any:
        """The sorted codes (mapped from the file again if released)."""
        found = self._codes
        if found is None:
            assert self.path is not None
            found = self._codes = read_only(mapped(self.path, self.size))
        return found

    def release(self) -> None:
        """Unmap the codes of a tier kept in a file (arrays in memory stay)."""
        if self.path is not None:
            self._codes = None

    def __len__(self) -> int:
        return self.size

    def rank(self, loops: Loops, queries: Any) -> Any:
        """The index of each query code in this set, -1 where it is not a member: many
        queries put in order and found in one walk (``rank_in_order``), a few by the
        bucket index."""
        queries = np.ascontiguousarray(queries, dtype=np.int64)
        out = np.empty(queries.shape[0], dtype=np.int64)
        if queries.shape[0] >= IN_ORDER_FROM and loops.compiled:
            rank_in_order.run_compiled(self.codes, queries, out)
        else:
            loops.find_all(self.codes, self.buckets, self.base, self.shift, queries, out)
        return out


class PackedCodeSet(CodeSet):
    """A tier's codes packed for shipping (``packed_codes``), decoded, with their bucket
    index, the first time the tier is used: opening a tablebase reads no tier it does not
    need."""

    def __init__(self, path: Path, size: int) -> None:
        self.path = path
        self.size = size
        self._whole: CodeSet | None = None
        self._lock = threading.Lock()

    def _decoded(self) -> CodeSet:
        whole = self._whole
        if whole is None:
            with self._lock:
                if self._whole is None:
                    assert self.path is not None
                    try:
                        self._whole = CodeSet.of(unpack(self.path, self.size))
                    except ValueError as exc:
                        raise TablebaseError(f"{self.path} cannot be decoded ({exc})") from None
                whole = self._whole
        return whole

    @property
    def codes(self) -> Any:
        return self._decoded().codes

    @property
    def buckets(self) -> Any:
        return self._decoded().buckets

    @property
    def base(self) -> int:
        return self._decoded().base

    @property
    def shift(self) -> int:
        return self._decoded().shift

    def release(self) -> None:
        """Kept decoded (decoding again would cost more than the memory)."""


def _bucket_index(codes: Any, base: int, shift: int, count: int) -> Any:
    """``bucket_starts``; by numpy's search of each bucket's first code while numba is not
    loaded, so that a probe of a compiled game's tablebase in a fresh process loads no
    compiler for it (opening one built every tier's buckets and loaded numba: 0.7 s of a
    1.1 s `analyze --db`, 2026-11-27)."""
    if "numba" not in sys.modules and base + ((count + 1) << shift) < 1 << 62:
        return bucket_index_by_search(codes, base, shift, count)
    return bucket_starts(codes, base, shift, count)


def bucket_index_by_search(codes: Any, base: int, shift: int, count: int) -> Any:
    """``bucket_starts`` by numpy: each bucket's first code searched for in ``codes`` (the
    buckets' first codes, base + (b << shift), must fit in int64)."""
    firsts = base + (np.arange(count + 1, dtype=np.int64) << shift)
    return np.searchsorted(codes, firsts, side="left").astype(np.int64)


def mapped(path: Path, size: int) -> Any:
    """The little-endian int64 codes of a file, mapped (read as they are used)."""
    if size == 0:
        return np.zeros(0, dtype=np.int64)
    return np.memmap(path, dtype="<i8", mode="r", shape=(size,))
