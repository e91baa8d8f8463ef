"""Sorted sets of codes: radix sort with duplicates dropped, merge, and difference, compiled.

The engine keeps each tier's codes as a sorted array of distinct int64, and finds a tier's
codes by sorting the children its parents send it. numpy's ``unique`` takes about 0.7 us a
code here (13 s for 8.7 million), and its comparison sort about 75 ns; a least-significant-
digit radix sort over the bits the codes actually span (codes less their minimum; digits of
11 bits on long arrays, up to 14 on short ones) takes a few ns a code a pass: a tier's
bucket, about 26 bits of span, in two passes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .compiled import inlined_kernel, kernel

RADIX_BITS = 11
"""Bits of a radix digit for long arrays: 2**11 counters stay in the first-level cache."""
SMALL_SORT = 1 << 16
"""Arrays this short (a bucket of a tier, gathered) sort in cache with digits as wide as
their length allows, up to SMALL_RADIX_BITS: a bucket's 26-bit span in two passes."""
SMALL_RADIX_BITS = 14
MOST_PASSES = 6
"""Passes of a radix sort at most: 63 bits of span in digits of RADIX_BITS or more."""
MOST_CODE = (1 << 63) - 1
"""The greatest int64: where a search for the least code starts."""


@inlined_kernel
def _bit_length(value: int) -> int:
    """Bits of a non-negative int64 (at most 63)."""
    bits = 0
    while bits < 63 and value >> bits:
        bits += 1
    return bits


@kernel
def sort_distinct(codes: Any) -> Any:
    """The distinct values of ``codes`` (non-negative int64), sorted; ``codes`` unchanged."""
    n = codes.shape[0]
    source = codes.copy()
    kept = _sort_distinct_into(source, np.empty(n, dtype=np.int64), source, 0)
    return source[:kept].copy()


@inlined_kernel
def _sort_distinct_into(codes: Any, scratch: Any, out: Any, k: int) -> int:
    """Sort ``codes`` (non-negative int64; overwritten, as is ``scratch`` of the same
    length) and write its distinct values, in order, to ``out`` from index k; returns the
    index past the last one written (``out`` may be ``codes`` itself with k = 0)."""
    n = codes.shape[0]
    if n == 0:
        return k
    low = codes[0]
    high = codes[0]
    for i in range(n):
        c = codes[i]
        low = min(low, c)
        high = max(high, c)
    passes, digit = _digits(n, high - low)
    counts = np.empty((max(passes, 1), 1 << digit), dtype=np.int64)
    _count_digits(codes, low, passes, digit, counts)
    return _distinct_in_order(codes, scratch, out, k, low, passes, digit, counts)


@inlined_kernel
def _digits(n: int, span: int) -> tuple[int, int]:
    """(passes, bits a digit) of a radix sort of n codes spanning ``span`` (the greatest
    less the least): digits of RADIX_BITS on long arrays, up to SMALL_RADIX_BITS on short
    ones (no more counters than about the codes themselves), as even as the passes allow."""
    bits = _bit_length(span)
    widest = RADIX_BITS
    if n <= SMALL_SORT:
        widest = max(RADIX_BITS, min(SMALL_RADIX_BITS, _bit_length(n)))
    passes = (bits + widest - 1) // widest
    digit = (bits + passes - 1) // passes if passes else 1
    return passes, digit


@inlined_kernel
def _count_value(v: int, passes: int, digit: int, counts: Any) -> None:
    """Count each of ``passes`` digits of ``digit`` bits of ``v`` (a code less the least)
    in its row of ``counts``."""
    mask = (1 << digit) - 1
    for p in range(passes):
        counts[p, (v >> (p * digit)) & mask] += 1


@inlined_kernel
def _count_digits(codes: Any, low: int, passes: int, digit: int, counts: Any) -> None:
    """Replace each code by itself less ``low`` and count every pass's digits of it in
    ``counts`` (at least ``passes`` rows of 2**digit, any contents): one pass for all."""
    counts[:passes, : 1 << digit] = 0  # (one call when interpreted, not a loop)
    for i in range(codes.shape[0]):
        v = codes[i] - low
        codes[i] = v
        _count_value(v, passes, digit, counts)


@inlined_kernel
def _distinct_in_order(
    keys: Any, scratch: Any, out: Any, k: int, low: int, passes: int, digit: int, counts: Any
) -> int:
    """Sort ``keys`` (codes less ``low``: int64, or uint32 where the span allows, with
    ``scratch`` of their type and length; both overwritten) by the digits counted in
    ``counts`` (``_digits``, ``_count_digits``), each pass only scattering, and write their
    distinct values plus ``low`` to ``out`` from index k; returns the index past the last
    written. Repeats are dropped without a branch (half of a tier's children repeat: a
    branch on it is mispredicted half the time)."""
    n = keys.shape[0]
    radix = 1 << digit
    mask = radix - 1
    source = keys
    target = scratch
    for p in range(passes):
        total = 0
        for d in range(radix):
            c = counts[p, d]
            counts[p, d] = total
            total += c
        shift = p * digit
        for i in range(n):
            v = source[i]
            d = (v >> shift) & mask
            target[counts[p, d]] = v
            counts[p, d] += 1
        source, target = target, source
    previous = -1
    for i in range(n):  # every value is at least 0: the first one is kept
        v = int(source[i])
        out[k] = v + low
        k += v != previous
        previous = v
    return k


@kernel
def merge_distinct(a: Any, b: Any) -> Any:
    """The sorted union of two sorted arrays of distinct codes."""
    out = np.empty(a.shape[0] + b.shape[0], dtype=np.int64)
    i = 0
    j = 0
    k = 0
    while i < a.shape[0] and j < b.shape[0]:
        if a[i] < b[j]:
            out[k] = a[i]
            i += 1
        elif b[j] < a[i]:
            out[k] = b[j]
            j += 1
        else:
            out[k] = a[i]
            i += 1
            j += 1
        k += 1
    while i < a.shape[0]:
        out[k] = a[i]
        i += 1
        k += 1
    while j < b.shape[0]:
        out[k] = b[j]
        j += 1
        k += 1
    return out[:k].copy()


@kernel
def missing_from(known: Any, codes: Any) -> Any:
    """The codes (sorted, distinct) that the sorted ``known`` lacks, in order."""
    out = np.empty(codes.shape[0], dtype=np.int64)
    i = 0
    k = 0
    for j in range(codes.shape[0]):
        c = codes[j]
        while i < known.shape[0] and known[i] < c:
            i += 1
        if i == known.shape[0] or known[i] != c:
            out[k] = c
            k += 1
    return out[:k].copy()


@kernel
def group_by_tier(codes: Any, tiers: Any, low: int, span: int) -> Any:
    """(starts, grouped): ``codes`` grouped by tier (tiers low .. low + span - 1), stable;
    the codes of tier low + t are grouped[starts[t]:starts[t + 1]]. A counting sort: two
    passes, where numpy's unique over the tiers would hash every one."""
    starts = np.zeros(span + 1, dtype=np.int64)
    for i in range(tiers.shape[0]):
        starts[tiers[i] - low + 1] += 1
    for t in range(span):
        starts[t + 1] += starts[t]
    fill = starts[:span].copy()
    grouped = np.empty(codes.shape[0], dtype=np.int64)
    for i in range(codes.shape[0]):
        t = tiers[i] - low
        grouped[fill[t]] = codes[i]
        fill[t] += 1
    return starts, grouped


@inlined_kernel
def _bucket(code: int, low: int, shift: int, table: Any, last: int) -> int:
    """A code's bucket: table[(code - low) >> shift], the cell clamped to the table."""
    v = code - low
    return int(table[0 if v < 0 else min(v >> shift, last)])


@kernel
def scatter_by_bucket(codes: Any, low: int, shift: int, table: Any) -> Any:
    """(starts, grouped, extent): ``codes`` grouped by bucket, unsorted inside a bucket,
    and each bucket's least and greatest code (extent[0, b] and extent[1, b]; MOST_CODE
    and -1 for an empty bucket: ``union_of_buckets`` sorts on the span). A code's
    cell is (code - low) >> shift, clamped to the table (below ``low``: the first cell;
    past the end: the last); its bucket is table[cell], a non-decreasing table of uint16
    (at most 2**16 buckets), so every code of a bucket is less than every code of a later
    one. A counting sort: one pass finds each code's bucket and counts, one scatters by the
    buckets noted (2 bytes a code; looking the table up again, in a table of int64, took
    Connect Four 6x4's chunks 1.8x as long, 2026-11-27)."""
    buckets = int(table[table.shape[0] - 1]) + 1
    last = table.shape[0] - 1
    n = codes.shape[0]
    noted = np.empty(n, dtype=np.uint16)
    starts = np.zeros(buckets + 1, dtype=np.int64)
    for i in range(n):
        b = _bucket(codes[i], low, shift, table, last)
        noted[i] = b
        starts[b + 1] += 1
    for b in range(buckets):
        starts[b + 1] += starts[b]
    fill = starts[:buckets].copy()
    grouped = np.empty(n, dtype=np.int64)
    for i in range(n):
        b = noted[i]
        grouped[fill[b]] = codes[i]
        fill[b] += 1
    extent = np.empty((2, buckets), dtype=np.int64)
    for b in range(buckets):  # a pass over each bucket just written: noting the extents
        least = MOST_CODE  # as the codes were scattered took longer (Connect Four 6x4's
        greatest = -1  # scatters: 0.65 s against 0.58 s, and 0.43 s without extents)
        for i in range(starts[b], starts[b + 1]):
            least = min(least, grouped[i])
            greatest = max(greatest, grouped[i])
        extent[0, b] = least
        extent[1, b] = greatest
    return starts, grouped, extent


@inlined_kernel
def _gather_counted(
    pieces: Any, starts: Any, b: int, low: int, passes: int, digit: int, counts: Any, keys: Any
) -> int:
    """Bucket b's codes from every piece, less ``low``, into ``keys`` (of any integer type
    that holds the bucket's span), every pass's digits counted as they come (``counts``, at
    least ``passes`` rows of 2**digit, any contents); returns how many."""
    counts[:passes, : 1 << digit] = 0
    n = 0
    for p in range(starts.shape[0]):
        piece = pieces[p]
        for i in range(starts[p, b], starts[p, b + 1]):
            v = piece[i] - low
            keys[n] = v
            _count_value(v, passes, digit, counts)
            n += 1
    return n


@kernel
def union_of_buckets(pieces: Any, starts: Any, extent: Any, first: int, stop: int) -> Any:
    """The sorted distinct codes of buckets ``first`` .. ``stop`` - 1 of scattered pieces
    (a list of arrays; piece p's bucket b is pieces[p][starts[p, b]:starts[p, b + 1]]; the
    least and greatest code of bucket b of any piece are extent[0, b] and extent[1, b]):
    each bucket's codes gathered from every piece and sorted (small enough to stay in
    cache), the buckets one after another. With the span known before the gathering, the
    digits are counted as the codes are gathered, and a bucket spanning less than 2**32
    is sorted as 4-byte keys (against a pass to find the span and 8-byte keys: 7.6 ns a
    code against 10.2 on a tier of Connect Four 6x4, 2026-11-27); the digits' counters are
    made once for every bucket."""
    total = 0
    widest = 0
    for b in range(first, stop):
        n = 0
        for p in range(starts.shape[0]):
            n += starts[p, b + 1] - starts[p, b]
        total += n
        widest = max(widest, n)
    out = np.empty(total, dtype=np.int64)
    keys = np.empty(widest, dtype=np.uint32)
    scratch = np.empty(widest, dtype=np.uint32)
    wide_keys = np.empty(0, dtype=np.int64)  # made when a bucket spans 2**32 or more
    wide_scratch = np.empty(0, dtype=np.int64)
    counts = np.empty((MOST_PASSES, 1 << SMALL_RADIX_BITS), dtype=np.int64)  # the most used
    k = 0
    for b in range(first, stop):
        low = extent[0, b]
        high = extent[1, b]
        if high < low:  # empty
            continue
        n = 0
        for p in range(starts.shape[0]):
            n += starts[p, b + 1] - starts[p, b]
        passes, digit = _digits(n, high - low)
        if high - low < 1 << 32:
            n = _gather_counted(pieces, starts, b, low, passes, digit, counts, keys)
            k = _distinct_in_order(keys[:n], scratch[:n], out, k, low, passes, digit, counts)
        else:
            if wide_keys.shape[0] < n:
                wide_keys = np.empty(widest, dtype=np.int64)
                wide_scratch = np.empty(widest, dtype=np.int64)
            n = _gather_counted(pieces, starts, b, low, passes, digit, counts, wide_keys)
            k = _distinct_in_order(
                wide_keys[:n], wide_scratch[:n], out, k, low, passes, digit, counts
            )
    return out[:k].copy()


@kernel
def bucket_starts(codes: Any, base: int, shift: int, count: int) -> Any:
    """starts[b]: the first index of sorted ``codes`` whose (code - base) >> shift is b or
    more, for b in 0..count (n past the last): a bucket index built in one pass over the
    codes, where a binary search per bucket edge cost a search of the whole tier each."""
    n = codes.shape[0]
    starts = np.empty(count + 1, dtype=np.int64)
    b = 0
    for i in range(n):
        k = (codes[i] - base) >> shift
        while b <= k and b <= count:
            starts[b] = i
            b += 1
    while b <= count:
        starts[b] = n
        b += 1
    return starts


@kernel
def order_by_code(queries: Any) -> Any:
    """(keys, rows, low): the queries less their least, ``low``, sorted (``keys``), and the
    position in ``queries`` of each (``rows``): a radix sort carrying the positions along."""
    n = queries.shape[0]
    low = queries[0] if n else 0
    high = low
    for i in range(n):
        low = min(low, queries[i])
        high = max(high, queries[i])
    bits = _bit_length(high - low)
    passes = (bits + RADIX_BITS - 1) // RADIX_BITS
    digit = (bits + passes - 1) // passes if passes else 1
    mask = (1 << digit) - 1
    counts = np.zeros((max(passes, 1), mask + 1), dtype=np.int64)
    keys = np.empty(n, dtype=np.int64)
    rows = np.empty(n, dtype=np.int64)
    for i in range(n):
        v = queries[i] - low
        keys[i] = v
        rows[i] = i
        _count_value(v, passes, digit, counts)
    other_keys = np.empty(n, dtype=np.int64)
    other_rows = np.empty(n, dtype=np.int64)
    for p in range(passes):
        total = 0
        for d in range(mask + 1):
            c = counts[p, d]
            counts[p, d] = total
            total += c
        shift = p * digit
        for i in range(n):
            v = keys[i]
            d = (v >> shift) & mask
            at = counts[p, d]
            other_keys[at] = v
            other_rows[at] = rows[i]
            counts[p, d] = at + 1
        keys, other_keys = other_keys, keys
        rows, other_rows = other_rows, rows
    return keys, rows, low


@kernel
def rank_in_order(codes: Any, queries: Any, out: Any) -> None:
    """out[i]: the index of queries[i] in the sorted distinct ``codes``, -1 where it is not
    there. The queries are put in order first (``order_by_code``), then found in one
    forward walk over ``codes`` that gallops over the codes no query wants: each code read
    once at most, in memory order, where a search per query (the bucket index) reads a
    random line of a tier for each. Worth it for many queries (a tier's moves out of it)."""
    n = queries.shape[0]
    m = codes.shape[0]
    if n == 0:
        return
    keys, rows, low = order_by_code(queries)
    j = 0
    for k in range(n):
        q = keys[k] + low
        if j < m and codes[j] < q:  # gallop: the first code at least q lies past j
            step = 1
            while j + step < m and codes[j + step] < q:
                step *= 2
            lo = j + step // 2 + 1
            hi = min(j + step, m)
            while lo < hi:
                mid = (lo + hi) >> 1
                if codes[mid] < q:
                    lo = mid + 1
                else:
                    hi = mid
            j = lo
        out[rows[k]] = j if j < m and codes[j] == q else -1
