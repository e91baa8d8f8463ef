"""Block-compressed tiers, for shipping: one zstd frame per block of records, and an index.

``tier-T.zst`` is the frames one after another; ``tier-T.idx`` holds n_blocks + 1
little-endian uint64 offsets into it. Reading one position decompresses one block (zstd
checks each frame's own content checksum); a few recent blocks are kept. ``compress``
writes a compressed copy of a tablebase directory, checking every tier first.

Filled slots: when the game says which index's record answers for each index
(``batch_answered_by``: itself, a twin that always holds the same record such as its
mirror image, or none where the index is surely no position), ``compress`` writes in each
slot not answered by itself the record before it (the block's first kept record for those
that open a block), so the records run on through the gaps; zstd then stores about half
(Connect Four 5x6 at level 12: 0.8 bits a position against 2.3). The header's
``"filled"`` says so, and the reader asks the game again before it trusts a record: a
slot reads as its twin's record, or as empty, exactly as the original.
"""

from __future__ import annotations

import dataclasses
import shutil
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.packed_records import DECODE
from ..core.parallel import in_parallel
from ..core.records import RecordFormat
from ..tiers.files import file_sha256, tier_file_name
from .header import Header, TablebaseError

if TYPE_CHECKING:
    from .header import TierEntry

BLOCK_RECORDS = 1 << 16
TASK_BLOCKS = 64
"""Blocks compressed by one task of ``compress`` (tasks run on every core, in order)."""
KEEP_BLOCKS = 32
"""Blocks kept per tier (2 MB of 1-byte records, 4 MB of 2-byte ones)."""


AnsweredBy = Callable[[Any], Any]
"""A tier's ``batch_answered_by``: for an int64 array of indices, the index whose record
answers for each (-1: none)."""


class BlockReader:
    """The records of one compressed tier, indexed like an array; with ``answered_by`` (a
    filled tier), each slot reads as the record that answers for it."""

    def __init__(
        self,
        data: bytes,
        offsets: Any,
        size: int,
        block: int,
        dtype: Any,
        answered_by: AnsweredBy | None = None,
    ) -> None:
        import zstandard

        self.data = data
        self.offsets = offsets
        self.size = size
        self.block = block
        self.dtype = dtype
        self.answered_by = answered_by
        self._zstd = zstandard
        self._local = threading.local()  # a decompressor per thread: one is not thread-safe
        self._cache: OrderedDict[int, Any] = OrderedDict()
        self._lock = threading.Lock()
        self._last: tuple[int, Any] = (-1, None)
        """The block read last, with its number (one tuple: threads swap it whole)."""

    @classmethod
    def open(
        cls,
        directory: Path,
        header: Header,
        tier: int,
        record: RecordFormat,
        answered_by: AnsweredBy | None = None,
    ) -> BlockReader:
        """The reader of a tier, after checking both of its files' checksums; a filled
        tier needs the game's ``answered_by`` (see the module docstring)."""
        assert header.compressed is not None
        entry = next(t for t in header.compressed["tiers"] if int(t["tier"]) == tier)
        parts = []
        for name, sha in (
            (entry["file"], entry["sha256"]),
            (entry["index_file"], entry["index_sha256"]),
        ):
            path = directory / name
            if not path.is_file() or file_sha256(path) != sha:
                raise TablebaseError(f"{directory}: {name} is missing or fails its checksum")
            parts.append(path.read_bytes())
        offsets = np.frombuffer(parts[1], dtype="<u8")
        size = header.tiers[tier].size
        block = int(header.compressed["block_records"])
        if offsets.shape[0] != -(-size // block) + 1 or int(offsets[-1]) != len(parts[0]):
            raise TablebaseError(f"{directory}: the block index of tier {tier} does not fit")
        if header.compressed.get("filled") and answered_by is None:
            raise TablebaseError(
                f"{directory}: its slots were filled by the game's batch_answered_by, "
                "which this game lacks"
            )
        return cls(parts[0], offsets, size, block, record.dtype, answered_by)

    def _block(self, b: int) -> Any:
        with self._lock:
            found = self._cache.get(b)
            if found is not None:
                self._cache.move_to_end(b)
                return found
        frame = self.data[int(self.offsets[b]) : int(self.offsets[b + 1])]
        decompress = getattr(self._local, "decompress", None)
        if decompress is None:
            decompress = self._local.decompress = self._zstd.ZstdDecompressor().decompress
        array = np.frombuffer(decompress(frame), dtype=self.dtype)
        with self._lock:
            self._cache[b] = array
            while len(self._cache) > KEEP_BLOCKS:
                self._cache.popitem(last=False)
        return array

    def _entry(self, b: int) -> tuple[int, Any]:
        """(b, block b's records for one probe), kept as the block read last."""
        entry = (b, self._items(self._block(b)))
        self._last = entry
        return entry

    def _items(self, array: Any) -> Any:
        """What one probe indexes in a block: a memoryview of its records, whose items are
        plain ints (faster than numpy scalars), where the machine reads them in the file's
        little-endian order; else the array."""
        if sys.byteorder != "little":
            return array
        items = memoryview(array).cast("B")  # a cast goes through bytes
        return items if array.dtype.itemsize == 1 else items.cast("H")

    @property
    def shape(self) -> tuple[int]:
        """As an array's."""
        return (self.size,)

    def __getitem__(self, where: Any) -> Any:
        if type(where) is int:  # one probe: the block read last, else any kept one
            if not 0 <= where < self.size:
                raise IndexError(f"index {where} is outside the tier's {self.size}")
            b, i = divmod(where, self.block)
            if self.answered_by is not None:
                where = int(self.answered_by(np.array([where], dtype=np.int64))[0])
                if where < 0:
                    return 0  # surely no position
                b, i = divmod(where, self.block)
            last = self._last
            if last[0] != b:
                last = self._entry(b)
            return last[1][i]
        if isinstance(where, slice):
            where = np.arange(*where.indices(self.size))
        if isinstance(where, (int, np.integer)):
            return self[int(where)]
        indices = np.asarray(where, dtype=np.int64)
        if self.answered_by is not None:
            shape = indices.shape
            indices = np.asarray(self.answered_by(indices.reshape(-1)), np.int64).reshape(shape)
        result = np.zeros(indices.shape, dtype=self.dtype)  # 0 where no index answers
        blocks = np.where(indices < 0, -1, indices // self.block)
        for b in np.unique(blocks).tolist():
            if b >= 0:
                chosen = blocks == b
                result[chosen] = self._block(b)[indices[chosen] % self.block]
        return result


def _filled_by(
    records: Any, tier: int, first: int, count: int, answered_by: Callable[[int, Any], Any]
) -> Any:
    """The block of ``count`` records from ``first``, each slot holding the record of the
    slot the game's ``batch_answered_by`` answers it by; TablebaseError when that slot is
    not answered by itself (the game's hook is wrong)."""
    indices = np.arange(first, first + count)
    answered = np.asarray(answered_by(tier, indices), dtype=np.int64)
    twins = answered[(answered >= 0) & (answered != indices)]
    if (np.asarray(answered_by(tier, twins), np.int64) != twins).any():
        raise TablebaseError(
            "the game's batch_answered_by answers a slot by one that is not "
            "answered by itself: it is wrong, and the tablebase was not compressed"
        )
    return _filled(records, indices, answered)


def _written_frames(target: Path, tier: int, frames: list[bytes]) -> dict[str, Any]:
    """A tier's compressed blocks and their offsets written into ``target``: the entry of
    the header's ``compressed`` that names them, with their digests."""
    offsets = np.zeros(len(frames) + 1, dtype="<u8")
    np.cumsum([len(f) for f in frames], out=offsets[1:])
    data_name, index_name = tier_file_name(tier, "zst"), tier_file_name(tier, "idx")
    (target / data_name).write_bytes(b"".join(frames))
    offsets.tofile(target / index_name)
    return {
        "tier": tier,
        "file": data_name,
        "sha256": file_sha256(target / data_name),
        "index_file": index_name,
        "index_sha256": file_sha256(target / index_name),
    }


def compress(
    source: Path,
    target: Path,
    header: Header,
    level: int = 19,
    answered_by: Callable[[int, Any], Any] | None = None,
) -> Header:
    """Write a block-compressed copy of the tablebase in ``source`` into ``target``; with
    the game's ``batch_answered_by``, its slots filled (see the module docstring)."""
    import zstandard

    if header.compressed is not None:
        raise TablebaseError(f"{source} is compressed already")
    target.mkdir(parents=True, exist_ok=True)
    record = RecordFormat(header.record_bytes)
    local = threading.local()  # a compressor per thread: they are not shared

    def frames_of(records: Any, tier: int, span: tuple[int, int]) -> list[bytes]:
        compressor = getattr(local, "compressor", None)
        if compressor is None:
            compressor = local.compressor = zstandard.ZstdCompressor(
                level=level, write_checksum=True
            )
        frames = []
        for i in range(span[0], span[1], BLOCK_RECORDS):
            block = records[i : min(i + BLOCK_RECORDS, span[1])]
            if answered_by is not None:
                block = _filled_by(records, tier, i, block.shape[0], answered_by)
            frames.append(compressor.compress(block.tobytes()))
        return frames

    if header.layout != "tiers" or header.codes is not None:
        answered_by = None  # every slot of a graph or of an engine's ranking is a position
    tiers = []
    for entry in header.tiers.values():
        records = _verified(source, entry, record)
        frames: list[bytes] = []
        step = BLOCK_RECORDS * TASK_BLOCKS
        spans = [(a, min(a + step, entry.size)) for a in range(0, entry.size, step)]
        # zstd lets go of the GIL: the blocks are compressed on every core, kept in order.
        in_parallel(spans, partial(frames_of, records, entry.tier), frames.extend)
        tiers.append(_written_frames(target, entry.tier, frames))
    codes = None
    if header.codes is not None:  # an engine's ranking: each tier's codes packed
        codes = {"tiers": [_packed(source, target, entry) for entry in header.codes["tiers"]]}
    _copy_extras(source, target, header)
    compressed = {
        "block_records": BLOCK_RECORDS,
        "level": level,
        "tiers": tiers,
        **({"filled": "batch_answered_by"} if answered_by is not None else {}),
    }
    return dataclasses.replace(header, compressed=compressed, codes=codes)


def _copy_extras(source: Path, target: Path, header: Header) -> None:
    """The files beside the records (keys, Grundy values, scores), copied as they are once
    their checksums hold."""
    tiers = [entry.scores for entry in header.tiers.values()]  # (a tiered scored game's)
    for extra in (header.keys, header.grundy, header.scores, *tiers):
        if extra is not None and "file" in extra:
            if file_sha256(source / extra["file"]) != extra["sha256"]:
                raise TablebaseError(f"{source}: {extra['file']} fails its checksum")
            shutil.copyfile(source / extra["file"], target / extra["file"])


def _packed(source: Path, target: Path, entry: dict[str, Any]) -> dict[str, Any]:
    """A tier's codes packed into ``target`` (checked first); the header's entry for them."""
    from ..core.packed_codes import ENCODING, pack

    path = source / entry["file"]
    if not path.is_file() or file_sha256(path) != entry["sha256"]:
        raise TablebaseError(f"{source}: {entry['file']} is missing or fails its checksum")
    count = int(entry["count"])
    codes = np.fromfile(path, dtype="<i8") if count else np.zeros(0, dtype=np.int64)
    name = f"{entry['file']}.zst"
    pack(codes, target / name)
    return {**entry, "file": name, "sha256": file_sha256(target / name), "encoding": ENCODING}


def _filled(records: Any, indices: Any, answered: Any) -> Any:
    """The records of ``indices`` (a block of a tier's ``records``), each slot that is not
    answered by itself holding the record before it (the first kept one for those that
    open the block; 0 in a block that keeps none: a ranking by column heights puts whole
    blocks of mirror images together). A slot whose record differs from the one that
    answers for it (none: empty) means the game's batch_answered_by is wrong, and nothing
    is written."""
    answered = np.asarray(answered, dtype=np.int64)
    block = records[indices]
    expected = np.where(answered < 0, 0, records[np.maximum(answered, 0)])
    if (expected != block).any():
        raise TablebaseError(
            "the game's batch_answered_by answers a slot with a record other than its own: it "
            "is wrong, and the tablebase was not compressed"
        )
    flagged = answered != indices
    kept = np.flatnonzero(~flagged)
    if kept.size == 0:
        return np.zeros_like(block)
    source = np.where(flagged, -1, np.arange(block.shape[0]))
    np.maximum.accumulate(source, out=source)
    source[source < 0] = kept[0]
    return block[source]


def _verified(source: Path, entry: TierEntry, record: RecordFormat) -> Any:
    path = source / entry.file
    if not path.is_file() or file_sha256(path) != entry.sha256:
        raise TablebaseError(f"{source}: {entry.file} is missing or fails its checksum")
    if entry.packed:  # (compressed as the records its bytes stand for)
        return DECODE[np.fromfile(path, dtype=np.uint8)]
    return np.fromfile(path, dtype=record.dtype)
