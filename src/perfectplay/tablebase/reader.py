"""Opening a tablebase: lazily, memory-mapped, each array checked by its SHA-256 first.

``open_tablebase(path, game)`` reads the header, checks that it was made for this game
(name, class, parameters, fingerprint of the rules) and that every file is there at its
full length. A tier's array is mapped, and its checksum verified, the first time a position
of that tier is asked about (a large tier block by block, see ``checked``); a file whose
checksum fails gives an error and no answer.
The object answers what a ``Solution`` answers, is a context manager, and can be shared
by threads (mapping is guarded by a lock; reads need none).
"""

from __future__ import annotations

import threading
from functools import partial
from pathlib import Path
from types import TracebackType
from typing import Any

import numpy as np
import numpy.typing as npt

from ..answers import NO_STATE, Answers, exact
from ..core.packed_records import PackedRecords
from ..core.records import RecordFormat
from ..errors import TablebaseMismatch
from ..identity import identity_of
from ..protocol import Game, M, S
from ..rules import Rules
from ..tiers.files import file_sha256
from ..values import GameValue, Value
from .blocks import BlockReader
from .checked import CheckedRecords
from .codes import read_codes
from .header import Header, TablebaseError, describe_mismatch, read_header

_VALUES = (Value.WIN, Value.LOSS, Value.TIE, Value.DRAW)  # by value code - 1


class Tablebase(Answers[S, M]):
    """A saved solve, answering value, remoteness, moves and perfect play of its positions."""

    def __init__(self, directory: Path, rules: Rules[S, M], header: Header) -> None:
        self.directory = directory
        self.rules = rules
        self.header = header
        self.record = RecordFormat(header.record_bytes)
        self._lock = threading.Lock()
        self._arrays: dict[str, Any] = {}
        self._records: dict[int, Any] = {}  # per tier, what lookup reads (see lookup)
        self._tiers: Any = rules.tiers
        self._sizes = {tier: entry.size for tier, entry in header.tiers.items()}
        if header.scores is not None:
            self.integral_scores = bool(header.scores["integral"])
        self._check_files()
        if header.codes is not None and rules.tiers is not None and rules.tiers.engine:
            # The engine's ranking, read back (checksums first) instead of found again: the
            # tablebase's own tiers answer from it (the game object is left as it was).
            ranking = read_codes(directory, header.codes, header.initial[0])
            self.rules = rules.with_tiers(rules.tiers.engine.reading(ranking))
            self._tiers = self.rules.tiers

    def _check_files(self) -> None:
        """Every file present at its full length (checksums come when a file is first used)."""
        expected = []
        if self.header.compressed is None:
            width = self.record.bytes
            expected = [(e.file, e.file_length(width)) for e in self.header.tiers.values()]
        for entry in self.header.tiers.values():
            if entry.scores is not None:
                item = np.dtype(entry.scores["dtype"]).itemsize
                expected.append((entry.scores["file"], entry.size * item))
        if self.header.keys is not None:
            expected.append((self.header.keys["file"], 8 * int(self.header.keys["count"])))
            if self.header.scores is not None:
                expected.append((self.header.scores["file"], 8 * int(self.header.keys["count"])))
        for name, length in expected:
            path = self.directory / name
            if not path.is_file():
                raise TablebaseError(f"{self.directory}: {name} is missing")
            if path.stat().st_size != length:
                raise TablebaseError(
                    f"{self.directory}: {name} holds {path.stat().st_size:,} bytes, not "
                    f"{length:,} (truncated or damaged)"
                )

    def mapped(self, name: str, sha256: str, dtype: Any) -> Any:
        """A file of the tablebase, mapped read-only once its checksum is verified."""
        found = self._arrays.get(name)
        if found is not None:
            return found
        with self._lock:
            if name not in self._arrays:
                path = self.directory / name
                if file_sha256(path) != sha256:
                    raise TablebaseError(
                        f"{self.directory}: {name} fails its checksum (damaged or changed); "
                        "no answer from it can be trusted"
                    )
                size = path.stat().st_size
                self._arrays[name] = (
                    np.zeros(0, dtype) if size == 0 else np.memmap(path, dtype, mode="r")
                )
            return self._arrays[name]

    def tier_records(self, tier: int) -> Any:
        """The records of a tier (decompressed block by block when compressed; a packed
        tier's bytes read as records, ``PackedRecords``)."""
        entry = self.header.tiers[tier]
        if self.header.compressed is None:
            dtype = np.uint8 if entry.packed else self.record.dtype
            if entry.blocks:
                key = f"checked:{tier}"
                with self._lock:
                    if key not in self._arrays:
                        self._arrays[key] = CheckedRecords(
                            self.directory / entry.file, dtype, entry.blocks, entry.hash_block
                        )
                found = self._arrays[key]
            else:
                found = self.mapped(entry.file, entry.sha256, dtype)
            return PackedRecords(found) if entry.packed else found
        key = f"blocks:{tier}"
        found = self._arrays.get(key)
        if found is None:
            with self._lock:
                found = self._arrays.get(key)
                if found is None:
                    found = BlockReader.open(
                        self.directory, self.header, tier, self.record, self._answered_by(tier)
                    )
                    self._arrays[key] = found
        return found

    def _answered_by(self, tier: int) -> Any:
        """The game's batch_answered_by for one tier, or None."""
        hook = None if self._tiers is None else self._tiers.batch_answered_by
        return None if hook is None else partial(hook, tier)

    @property
    def initial(self) -> S:
        """The initial state of the game."""
        return self.rules.initial_state()

    @property
    def scored(self) -> bool:
        """Whether the tablebase keeps scores (a scored game) rather than outcomes."""
        return self.header.scores is not None

    def locate(self, state: S) -> tuple[int, int] | None:
        """(tier, index) of a state, or None when the tablebase has no place for it."""
        try:
            key = self.rules.key_of(state)
        except TypeError:
            return None
        if not isinstance(key, (int, np.integer)) or key < 0:
            return None
        if self.header.layout == "graph":
            assert self.header.keys is not None
            keys = self.mapped(self.header.keys["file"], self.header.keys["sha256"], "<i8")
            i = int(np.searchsorted(keys, key))
            return (0, i) if i < keys.shape[0] and int(keys[i]) == key else None
        tiers = self._tiers
        if tiers.tier_index is not None:  # one scalar call: the fast path of a probe
            tier, index = tiers.tier_index(int(key))
            size = self._sizes.get(tier)
            return (tier, index) if size is not None and 0 <= index < size else None
        code = np.array((key,), dtype=np.int64)
        tier = (
            int(tiers.batch_tier(code)[0]) if tiers.batch_tier is not None else tiers.initial_tier
        )
        size = self._sizes.get(tier)
        if size is None:
            return None
        index = int(tiers.batch_rank(tier, code)[0])
        return (tier, index) if 0 <= index < size else None

    def lookup(self, state: S) -> tuple[GameValue, int | None] | None:
        """The value and remoteness of ``state``, or None when it was never reached.

        Runs once per probe: the records of each tier are kept as a plain array once
        verified, and value codes are read from a tuple.
        """
        place = self.locate(state)
        if place is None:
            return None
        records = self._records.get(place[0])
        if records is None:
            records = self.tier_records(place[0])
            plain = not isinstance(records, (CheckedRecords, PackedRecords))
            if self.header.compressed is None and plain:
                records = np.asarray(records)  # a plain view of the map: faster to index
            self._records[place[0]] = records
        record = int(records[place[1]])
        code = record >> self.record.shift
        if code == 0:
            return None
        if self.header.scores is not None:
            score = exact(float(self.tier_scores(place[0])[place[1]]), self.integral_scores)
            return score, record & self.record.max_remoteness
        value = _VALUES[code - 1]
        return value, None if value is Value.DRAW else record & self.record.max_remoteness

    def tier_scores(self, tier: int) -> Any:
        """A scored game's scores of a tier (of every position, for the graph layout)."""
        entry = self.header.tiers[tier].scores
        if entry is not None:
            return self.mapped(entry["file"], entry["sha256"], entry["dtype"])
        assert self.header.scores is not None
        return self.mapped(self.header.scores["file"], self.header.scores["sha256"], "<f8")

    def probe_records(self, tier: int, indices: npt.NDArray[np.int64]) -> Any:
        """Raw records of many positions of one tier at once (see ``perfectplay.core.records``)."""
        return np.asarray(self.tier_records(tier)[indices])

    def grundy(self, state: S = NO_STATE) -> int:
        """The Grundy value of a state, when the tablebase keeps them."""
        if self.header.grundy is None:
            raise TablebaseError(f"{self.directory} keeps no Grundy values")
        self._known(state)  # raises for a state never reached
        place = self.locate(self.initial if state is NO_STATE else state)
        assert place is not None
        table = self.mapped(self.header.grundy["file"], self.header.grundy["sha256"], "<i4")
        return int(table[place[1]])

    @property
    def has_grundy(self) -> bool:
        """True when Grundy values were saved."""
        return self.header.grundy is not None

    def close(self) -> None:
        """Let go of every mapped file."""
        with self._lock:
            self._arrays.clear()
            self._records.clear()

    def __enter__(self) -> Tablebase[S, M]:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


def open_tablebase(path: str | Path, game: Game[S, M]) -> Tablebase[S, M]:
    """Open the tablebase in directory ``path`` for ``game`` (see the module docstring)."""
    return open_tablebase_for(path, Rules(game))


def open_tablebase_for(path: str | Path, rules: Rules[S, M]) -> Tablebase[S, M]:
    """``open_tablebase`` for a game read already (its ``Rules``)."""
    directory = Path(path)
    header = read_header(directory)
    mismatch = describe_mismatch(header.identity, identity_of(rules))
    if mismatch is not None:
        raise TablebaseMismatch(f"{directory} cannot answer for {rules.name}: {mismatch}")
    if header.layout == "tiers" and rules.tiers is None:
        raise TablebaseError(f"{directory} is tiered but {rules.name} has no tier ranking")
    return Tablebase(directory, rules, header)
