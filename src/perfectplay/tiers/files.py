"""Tier files: one array of records per tier in a directory; a killed solve loses nothing.

A tier being worked on lives in ``tier-T.partial``: zeros (no position), then the mark of a
reached position, then solved records. A finished tier is hashed (SHA-256) and renamed to
``tier-T.rec``; its hash and counts go to ``progress.json``, which is replaced atomically
(fsync'd). When a solve runs again, a finished tier is trusted only if its file still has
that hash; anything else is done again. So a killed process loses nothing (its writes are
in the kernel's page cache). A tier whose positions a pass marked (a hand-ranked game's) is
flushed and fsync'd before it is noted, or a power cut could leave it noted and lost, its
marks with it; an engine's tier needs no marks, so it is fsync'd by a thread while the next
tiers are solved, a lost one failing its hash and solved again, and the build waits for
those fsyncs before its header (``on_disk``; on a small board, 21 tiers solved in 0.36 s,
flushing and fsyncing each tier in turn took 15-20 ms, 2026-11-27). Only the tiers in use
are mapped.
"""

from __future__ import annotations

import hashlib
import json
import mmap
import os
import re
import time
from collections.abc import Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from ..core.packed_records import PackedRecords, pack_file, unpack_file
from ..core.records import RecordFormat
from ..errors import PerfectplayError
from ..identity import same_game

HASH_CHUNK = 1 << 22
NOTE_EVERY = 1.0
"""Seconds at least between two writes of ``progress.json`` as tiers finish (each write is
fsync'd: 21 of them took 11-18 ms of a 0.36 s solve, 2026-11-27). A tier finished but not
yet noted is taken back as it is when the solve runs again (``partial``), so a kill loses
at most this much work; Ctrl-C and errors write the progress at once (``note_progress``)."""
HASH_BLOCK = 1 << 24
"""Bytes per block of a tier file hashed on its own (files larger than one block), so that
a probe verifies the 16 MB it reads instead of the whole file (3 GB for Dobutsu shogi)."""


def let_go(records: Any, start: int, stop: int) -> None:
    """Drop from this process's memory the pages of a mapped tier file that hold only
    records[start:stop], a window finished with: they stay in the page cache (dirty ones are
    written back as any), and are read again from there if touched. A tier is swept window
    by window, so without this every page of it stays resident until the tier is unmapped
    (Connect Four 5x6: two tiers of 700 MB). Arrays that are not mapped are left alone."""
    handle = getattr(records, "_mmap", None)
    if handle is None or not hasattr(handle, "madvise") or not hasattr(mmap, "MADV_DONTNEED"):
        return
    item = records.dtype.itemsize
    shift = records.offset % mmap.ALLOCATIONGRANULARITY  # where the array starts in the map
    first = -(-(shift + start * item) // mmap.PAGESIZE) * mmap.PAGESIZE
    last = (shift + stop * item) // mmap.PAGESIZE * mmap.PAGESIZE
    if last > first:
        handle.madvise(mmap.MADV_DONTNEED, first, last - first)


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file, read in 4 MB pieces."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while piece := handle.read(HASH_CHUNK):
            digest.update(piece)
    return digest.hexdigest()


def file_hashes(path: Path, block: int | None = None) -> dict[str, Any]:
    """In one reading: the SHA-256 of a file ("sha256") and, for a file longer than one
    block, of each block of ``block`` bytes ("blocks", "hash_block"), those on a second
    thread (hashlib lets go of the GIL: Dobutsu shogi's 1.7 GB tier hashed twice took
    about 2 s on one, 2026-11-27), three blocks in memory at most."""
    block = HASH_BLOCK if block is None else block
    if path.stat().st_size <= block:  # one block: its hash is the file's
        return {"sha256": file_sha256(path)}
    whole = hashlib.sha256()
    parts: list[Future[str]] = []
    with ThreadPoolExecutor(1, thread_name_prefix="perfectplay-hash") as pool:
        with path.open("rb") as handle:
            while piece := handle.read(block):
                if len(parts) >= 2:
                    parts[-2].result()  # (one read, one waiting, one being hashed)
                parts.append(pool.submit(_hex_sha256, piece))
                whole.update(piece)
        hashed = [part.result() for part in parts]
    return {"sha256": whole.hexdigest(), "blocks": hashed, "hash_block": block}


def _hex_sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def write_atomically(path: Path, parts: bytes | Iterable[bytes]) -> None:
    """Replace ``path`` by ``parts`` (bytes, or pieces of them written one after another)
    so that a reader sees the old file or the new, whole: a temporary name, fsync, rename."""
    temporary = path.with_name(path.name + ".tmp")
    with temporary.open("wb") as handle:
        for part in [parts] if isinstance(parts, bytes) else parts:
            handle.write(part)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def write_json_atomically(path: Path, data: dict[str, Any], *, readable: bool = False) -> None:
    """Replace ``path`` by ``data`` so that a reader sees the old file or the new, whole.
    ``readable`` indents it for people (Python's encoder); else it is compact, written by
    the C encoder: progress is written again after every tier, and grows with them."""
    if readable:
        text = json.dumps(data, indent=1, sort_keys=True)
    else:
        text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    write_atomically(path, text.encode())


def fsync_file(path: Path) -> None:
    """Wait until a file's contents are on the disk."""
    with path.open("rb") as handle:
        os.fsync(handle.fileno())


def tier_file_name(tier: int, suffix: str) -> str:
    """The file name of a tier's records: ``tier-000012.rec``."""
    return f"tier-{tier:06d}.{suffix}"


BUILD_FILES = re.compile(
    r"(tier-\d+\.(rec|partial|packing|scores|scores-partial|codes|codes-partial|reached"
    r"|counted|counted-at|resume|resume-tmp|resume-snapshot-\d+|(span|ends)-\d+-\d+)"
    r"|keys\.i64|grundy\.i32|scores\.f64|codes\.json|progress\.json)(\.tmp\d*)?"
)
"""Every file a build writes in its directory, finished or working (its records, its
packing, the engine's codes, marks in bits, counted first records, resume points and
their copies, Dask's spans, the progress), each perhaps as a temporary ``.tmp``: a
directory holding these alone is a build to go on with."""


COUNTED = "counted-children"
"""The progress note of the first records a marking counted: each child position once
(2026-11-30; the note "counted" of earlier markings counted moves, which the solve's
un-moves no longer match: such files are left unread, and the solve counts again)."""


class TierFiles:
    """The record files of one solve, and the progress that says which are finished."""

    def __init__(
        self,
        directory: Path,
        record: RecordFormat,
        identity: dict[str, Any],
        pack: bool = False,
    ) -> None:
        self.directory = directory
        self.record = record
        self.pack = pack and record.bytes == 2
        """Whether a finished tier is kept in one byte a position where its records allow
        (``core.packed_records``); its working file is 2-byte records all the same."""
        directory.mkdir(parents=True, exist_ok=True)
        self.progress_path = directory / "progress.json"
        self._noted = time.monotonic()
        self._syncer: ThreadPoolExecutor | None = None
        self._syncing: list[Future[None]] = []
        self.progress: dict[str, Any] = {
            "identity": identity,
            "record_bytes": record.bytes,
            "expanded": [],
            "solved": {},
        }
        if self.progress_path.exists():
            try:
                found = json.loads(self.progress_path.read_text())
            except (OSError, ValueError) as exc:
                raise PerfectplayError(f"{self.progress_path}: unreadable ({exc})") from None
            same = same_game(found.get("identity") or {}, identity)
            if not same or found.get("record_bytes") != record.bytes:
                raise PerfectplayError(
                    f"{directory} holds an unfinished solve of another game or other "
                    "parameters; use another directory or empty this one"
                )
            self.progress = found

    def partial(self, tier: int, size: int) -> np.memmap[Any, Any]:
        """The working array of a tier, created as zeros (a sparse file) if new. A tier
        whose working file was renamed final by ``finish`` but not yet noted as solved (a
        kill before the next note of the progress, up to NOTE_EVERY later) is taken back as
        it is: its records are solved, and a new file of zeros would lose what play reaches
        in it."""
        path = self.directory / tier_file_name(tier, "partial")
        length = size * self.record.bytes
        final = self.directory / tier_file_name(tier, "rec")
        taken_back = not self.is_noted(tier) and final.exists()
        if not path.exists() and taken_back and final.stat().st_size == length:
            os.replace(final, path)
        elif not path.exists() and taken_back and size and final.stat().st_size == size:
            unpack_file(final, path)  # (packed, and the 2-byte file gone: 1 byte an index)
        if not path.exists() or path.stat().st_size != length:
            with path.open("wb") as handle:
                handle.truncate(length)
        if size == 0:  # nothing to map: an empty array stands in
            return np.zeros(0, dtype=self.record.dtype)  # type: ignore[return-value]
        return np.memmap(path, dtype=self.record.dtype, mode="r+", shape=(size,))

    def zeroed(self, tier: int, size: int) -> np.memmap[Any, Any]:
        """A tier's working array as zeros (a sparse file), whatever it held."""
        (self.directory / tier_file_name(tier, "partial")).unlink(missing_ok=True)
        self.drop_resume_points(tier)
        return self.partial(tier, size)

    def reopen(self, tier: int, size: int) -> np.memmap[Any, Any]:
        """A tier's working array with every reached position open again (value code 7):
        what an interrupted solve of this tier had decided is not trusted, nor needed."""
        records = self.partial(tier, size)
        self.drop_resume_points(tier)
        reached = self.record.reached
        for start in range(0, size, 1 << 20):
            block = np.asarray(records[start : start + (1 << 20)])
            records[start : start + (1 << 20)] = np.where(block != 0, reached, 0).astype(
                self.record.dtype
            )
        return records

    def drop_resume_points(self, tier: int) -> None:
        """Remove a tier's resume points (its records are final, or open again)."""
        for point in self.directory.glob(tier_file_name(tier, "resume*")):
            point.unlink()

    def all_reached(self, tier: int, size: int) -> np.memmap[Any, Any]:
        """A tier's working array with every index an open position (value code 7): the
        records of a tier the engine ranked (its codes are what play reaches), made when the
        tier is solved, so that no pass marks them first; what an interrupted solve of the
        tier had decided is not trusted."""
        records = self.partial(tier, size)
        self.drop_resume_points(tier)
        records[:] = self.record.reached
        return records

    def reached_bits_to_mark(self, tier: int, size: int) -> np.memmap[Any, Any]:
        """The bit set of a tier's reached positions while it is marked in bits
        (``reached_set``), as bytes of whole 64-bit words, created as zeros if new (what an
        interrupted marking found is kept)."""
        length = -(-size // 64) * 8
        path = self.directory / tier_file_name(tier, "reached")
        if not path.exists() or path.stat().st_size != length:
            with path.open("wb") as handle:
                handle.truncate(length)
        return np.memmap(path, dtype=np.uint8, mode="r+", shape=(length,))

    def reached_bits(self, tier: int, size: int) -> np.memmap[Any, Any] | None:
        """The reached bit set of a tier marked in bits, read-only, as 64-bit words; None
        when its file is gone or cut short (the tier is then marked again)."""
        path = self.directory / tier_file_name(tier, "reached")
        if not path.is_file() or path.stat().st_size != -(-size // 64) * 8:
            return None
        return np.memmap(path, dtype=np.uint64, mode="r")

    def forget_marking(self, tier: int) -> None:
        """Note a tier as not marked (its reached bit set is lost), to be marked again."""
        self._unmark([tier])
        write_json_atomically(self.progress_path, self.progress)

    def _unmark(self, tiers: list[int]) -> None:
        """Take ``tiers`` out of every note of their marking (not yet written)."""
        for key in ("expanded", "in_bits", "ends_recorded"):
            self.progress[key] = [t for t in self.progress.get(key, []) if t not in tiers]
        for tier in tiers:
            self.progress.get(COUNTED, {}).pop(str(tier), None)

    def drop_bit_sets(self, tier: int) -> None:
        """Remove a tier's reached bit set and the first records its marking counted (its
        records are final)."""
        (self.directory / tier_file_name(tier, "reached")).unlink(missing_ok=True)
        for path in self.counted_paths(tier):
            path.unlink(missing_ok=True)

    def counted_paths(self, tier: int) -> tuple[Path, Path]:
        """The files of first records a marking in bits counted (``counted``): their
        indices, their records."""
        return (
            self.directory / tier_file_name(tier, "counted-at"),
            self.directory / tier_file_name(tier, "counted"),
        )

    def counted_rows(self, tier: int) -> int | None:
        """How many first records the tier's marking counted, as noted with it; None when
        it counted none (the solve counts them)."""
        rows = self.progress.get(COUNTED, {}).get(str(tier))
        return None if rows is None else int(rows)

    def write_partial(self, tier: int, size: int, windows: Any) -> None:
        """Write a tier's working file from ``windows``, (start, records) pairs covering
        [0, size) in order, through the file (not a mapping: a tier of 1.7 GB written so
        adds nothing to this process's resident memory)."""
        path = self.directory / tier_file_name(tier, "partial")
        with path.open("wb") as handle:
            for start, records in windows:
                handle.seek(start * self.record.bytes)
                handle.write(np.ascontiguousarray(records, dtype=self.record.dtype).tobytes())
            handle.truncate(size * self.record.bytes)

    def final(self, tier: int) -> Any:
        """The finished records of a tier, read-only: a mapped array, or a packed tier's
        bytes read as records (``PackedRecords``)."""
        path = self.directory / tier_file_name(tier, "rec")
        if path.stat().st_size == 0:
            return np.zeros(0, dtype=self.record.dtype)
        if self.progress["solved"].get(str(tier), {}).get("packed"):
            return PackedRecords(np.memmap(path, dtype=np.uint8, mode="r"))
        return np.memmap(path, dtype=self.record.dtype, mode="r")

    def is_expanded(self, tier: int) -> bool:
        """Whether the children of this tier's reached positions are all marked."""
        return tier in self.progress["expanded"]

    def mark_expanded(
        self,
        *tiers: int,
        ends_recorded: bool = False,
        in_bits: bool = False,
        counted: int | None = None,
    ) -> None:
        """Record that tiers' children are marked (after their files are flushed; an
        engine's tiers need no marks: every index is a position), and
        whether the marking pass also wrote the records of their positions that ended, or
        marked them in a bit set (``reached_bits_to_mark``) rather than their records, and
        how many first records it counted (``counted_paths``): one write of the progress
        for all of them."""
        self.progress["expanded"].extend(tiers)
        if ends_recorded:
            self.progress.setdefault("ends_recorded", []).extend(tiers)
        if in_bits:
            self.progress.setdefault("in_bits", []).extend(tiers)
        if counted is not None:
            for tier in tiers:
                self.progress.setdefault(COUNTED, {})[str(tier)] = counted
        write_json_atomically(self.progress_path, self.progress)

    def marked_in_bits(self, tier: int) -> bool:
        """Whether a tier's reached positions are marked in its bit sets (not its records)."""
        return tier in self.progress.get("in_bits", [])

    def ends_recorded(self, tier: int) -> bool:
        """Whether the marking pass of a tier wrote the records of its ended positions
        (batch_mark_tier), so that only those that go on are left to solve."""
        return tier in self.progress.get("ends_recorded", [])

    def is_noted(self, tier: int) -> bool:
        """Whether the progress notes a tier as solved (its file unchecked)."""
        return str(tier) in self.progress["solved"]

    def has_working_file(self, tier: int) -> bool:
        """Whether a tier has its working file (or one finished but not noted: ``partial``)."""
        final = self.directory / tier_file_name(tier, "rec")
        partial = self.directory / tier_file_name(tier, "partial")
        return partial.exists() or (not self.is_noted(tier) and final.exists())

    def is_solved(self, tier: int) -> bool:
        """Whether a tier is finished and its file still has the hash it was finished with."""
        entry = self.progress["solved"].get(str(tier))
        path = self.directory / tier_file_name(tier, "rec")
        return entry is not None and path.exists() and file_sha256(path) == entry["sha256"]

    def unfinish(self, tiers: list[int], keep_marking: bool) -> None:
        """Forget that ``tiers`` were solved (their files go), so that the same solve run
        again solves them anew from their children; what play reaches is marked again, in
        every tier unless ``keep_marking`` (an engine's ranking, whose tiers need no marks:
        the others stay noted as marked)."""
        for tier in tiers:
            self.progress["solved"].pop(str(tier), None)
            (self.directory / tier_file_name(tier, "rec")).unlink(missing_ok=True)
        if keep_marking:
            self._unmark(tiers)
        else:  # (marks written again over a solve in progress: its resume points go)
            for point in self.directory.glob("tier-*.resume*"):
                point.unlink()
            self.progress["expanded"] = []
            self.progress["ends_recorded"] = []
            self.progress["in_bits"] = []
            self.progress[COUNTED] = {}
        write_json_atomically(self.progress_path, self.progress)

    def drop_stray_partials(self, tiers: Any) -> None:
        """Remove the working files and bit sets of finished tiers (a repair marks what
        play reaches again, in every tier's working file)."""
        for tier in tiers:
            if str(tier) in self.progress["solved"]:
                (self.directory / tier_file_name(tier, "partial")).unlink(missing_ok=True)
                (self.directory / tier_file_name(tier, "scores-partial")).unlink(missing_ok=True)
                self.drop_bit_sets(tier)

    def finish(self, tier: int, records: Any, summary: dict[str, Any], durable: bool) -> None:
        """Make a solved tier final (``settle``), then record it as done with ``summary``;
        the progress is written at most every NOTE_EVERY seconds."""
        hashes = self.settle(tier, records, durable)
        self.progress["solved"][str(tier)] = {**hashes, **summary}
        if time.monotonic() - self._noted >= NOTE_EVERY:
            self.note_progress()

    def settle(self, tier: int, records: Any, durable: bool) -> dict[str, Any]:
        """Make a solved tier final: hash, rename; its hashes (``finish`` records them as
        done, a Dask worker hands them to the coordinator). ``records`` is
        the mapping the tier was solved through, read through the same page cache by the
        hash (None for a tier written through its file: ``write_partial``, settled slots).
        ``durable``: flushed and fsync'd first, for a tier whose positions a pass marked (a
        hand-ranked game's): once noted solved, a copy the disk lost in a power
        cut would be solved again from zeros, its marks gone with it. An engine's tier
        needs no marks (every index is a position, solved again from zeros), so a lost one
        costs only its solve (see the module docstring)."""
        partial = self.directory / tier_file_name(tier, "partial")
        final = self.directory / tier_file_name(tier, "rec")
        self.drop_resume_points(tier)  # before the records are final, not after: a point
        # found beside finished records would take them for first records
        if isinstance(records, np.memmap) and durable:  # (a packed file is written past the
            records.flush()  # page cache from the same pages: the 2-byte file need not be)
        if self.pack and partial.stat().st_size and self._packed(partial, final, durable):
            hashes = {**file_hashes(final), "packed": True}
            partial.unlink()  # (a kill before the next note: ``partial`` unpacks it)
        elif durable:
            on_disk = self._fsync_later(partial)  # while the hash reads the page cache
            hashes = file_hashes(partial)
            on_disk.result()  # on the disk before it is renamed and noted solved
            os.replace(partial, final)
        else:
            hashes = file_hashes(partial)
            os.replace(partial, final)
        if not durable:  # on the disk by the end of the build, waited for there (``on_disk``)
            self._syncing.append(self._fsync_later(final))
        return hashes

    @staticmethod
    def _packed(partial: Path, final: Path, durable: bool) -> bool:
        """Whether a finished tier's records fit one byte each and are now its ``final``
        file so (``core.packed_records``: written beside, fsync'd first where ``durable``,
        renamed)."""
        packing = final.with_suffix(".packing")
        if not pack_file(partial, packing, sync=durable):
            return False
        os.replace(packing, final)
        return True

    def _fsync_later(self, path: Path) -> Future[None]:
        """fsync ``path`` on this build's fsync thread (made when first needed)."""
        if self._syncer is None:
            self._syncer = ThreadPoolExecutor(1, thread_name_prefix="perfectplay-fsync")
        return self._syncer.submit(fsync_file, path)

    def on_disk(self, *others: Path) -> None:
        """Wait until every finished tier's file, ``others`` and the directory are on the
        disk: before a header says the tablebase is whole. The tiers' files are fsync'd by
        a thread as they finish, while the next tiers are solved (a wait of 25-30 ms at the
        end of a 0.33 s solve when all were fsync'd there, 2026-11-27)."""
        for future in self._syncing:
            future.result()
        self._syncing.clear()
        if self._syncer is not None:
            self._syncer.shutdown()
            self._syncer = None
        for path in others:
            fsync_file(path)
        handle = os.open(self.directory, os.O_RDONLY)
        try:
            os.fsync(handle)
        finally:
            os.close(handle)

    def note_progress(self) -> None:
        """Write the progress now (``finish`` writes it at most every NOTE_EVERY seconds)."""
        write_json_atomically(self.progress_path, self.progress)
        self._noted = time.monotonic()
