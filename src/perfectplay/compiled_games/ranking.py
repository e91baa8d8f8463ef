"""An engine's ranking: every tier's code set and child tiers, kept in files beside a
tablebase's records (``codes.json`` and a file of codes per tier), read back and checked.

The codes are found by ``discovery``; a tier's codes in ``code_sets``.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..core.packed_codes import ENCODING
from ..errors import TablebaseError
from ..identity import same_game
from ..tiers.files import file_sha256
from .code_sets import CodeSet, PackedCodeSet, mapped

KEEP_AT_LEAST = 2
"""Tiers whose codes stay mapped at once: a tier being solved and its child tiers, so the
most child tiers any tier has, plus one, and at least this many. Four at once, whatever
the game, kept two tiers more than Connect Four's solve uses mapped (8 bytes a position
each: its 5x4 board's peak on two threads went to 10.5-12.8 bytes a position)."""


@dataclass
class Ranking:
    """Every tier's code set and the tiers its moves lead into."""

    tiers: dict[int, CodeSet]
    children: dict[int, tuple[int, ...]]
    """Child tiers of each tier, itself included when its moves stay inside it."""
    initial_tier: int
    seconds: float = 0.0
    expanded: int = field(default=0)
    moves: int = 0
    """States expanded and the moves they made, while discovering."""
    directory: Path | None = None
    """Where the codes are kept (``codes.json`` and a file per tier), if anywhere."""
    _recent: list[int] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _known: int = -1
    _keep: int = KEEP_AT_LEAST

    def use(self, tier: int) -> CodeSet | None:
        """A tier's code set, kept mapped; the tiers not used lately are released."""
        found = self.tiers.get(tier)
        if found is None or found.path is None:
            return found
        with self._lock:
            if len(self.children) != self._known:  # (children grow while discovering)
                self._known = len(self.children)
                widest = max((len(kids) for kids in self.children.values()), default=0)
                self._keep = max(KEEP_AT_LEAST, widest + 1)
            if tier in self._recent:
                self._recent.remove(tier)
            self._recent.append(tier)
            while len(self._recent) > self._keep:
                self.tiers[self._recent.pop(0)].release()
        return found

    def as_json(self) -> dict[str, Any]:
        """What a tablebase header and ``codes.json`` keep of it (with ``save_tier``'s)."""
        return {"tiers": [self.entries[t] for t in sorted(self.tiers)]}

    entries: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Per tier kept in files: {"tier", "file", "sha256", "count", "children"}."""
    ended: dict[int, Any] = field(default_factory=dict)
    """Per tier without moves inside it, as found: which positions have ended, one bit an
    index (bit i % 8 of byte i // 8), so that its solve asks the rules only about those.
    Kept in memory (an eighth of a byte a position); a ranking read back has none."""


CODES_JSON = "codes.json"


def codes_file_name(tier: int) -> str:
    """The file of a tier's codes: ``tier-000012.codes`` (beside ``tier-000012.rec``)."""
    return f"tier-{tier:06d}.codes"


def save_tier(directory: Path, tier: int, parts: list[Any]) -> tuple[CodeSet, dict[str, Any]]:
    """Write a tier's codes into ``directory`` (fsync'd) from its sorted parts, in order
    (never joined in memory); its set, mapped from the file, and its entry (children filled
    in later). Called in a thread of its own while the search goes on (``discovery``)."""
    name = codes_file_name(tier)
    path = directory / name
    digest = hashlib.sha256()
    count = 0
    temporary = path.with_suffix(".codes-partial")
    with temporary.open("wb") as handle:
        for part in parts:
            array = np.ascontiguousarray(part, dtype="<i8")
            if array.size:
                array.tofile(handle)
                digest.update(array.data)
                count += int(array.shape[0])
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)
    found = CodeSet.of(mapped(path, count), path)
    found.release()
    entry = {"tier": tier, "file": name, "sha256": digest.hexdigest(), "count": count}
    return found, entry


def finish_ranking(directory: Path, ranking: Ranking, identity: dict[str, Any]) -> None:
    """Write ``codes.json`` (atomically, last): the ranking in ``directory`` is whole."""
    for tier, entry in ranking.entries.items():
        entry["children"] = list(ranking.children.get(tier, ()))
    data = {"identity": identity, "initial_tier": ranking.initial_tier, **ranking.as_json()}
    temporary = directory / (CODES_JSON + ".partial")
    temporary.write_text(json.dumps(data))
    os.replace(temporary, directory / CODES_JSON)


def save_ranking(directory: Path, ranking: Ranking, identity: dict[str, Any]) -> Ranking:
    """A ranking found in memory, written into ``directory``; the same ranking read from
    there."""
    kept = Ranking({}, dict(ranking.children), ranking.initial_tier, ranking.seconds,
                   ranking.expanded, ranking.moves, directory)  # fmt: skip
    for tier, found in sorted(ranking.tiers.items()):
        kept.tiers[tier], kept.entries[tier] = save_tier(directory, tier, [found.codes])
    finish_ranking(directory, kept, identity)
    return kept


def load_ranking(
    directory: Path, entries: list[dict[str, Any]], initial_tier: int, check: bool = True
) -> Ranking:
    """A ranking kept in ``directory``: each file at its length and, with ``check``, its
    SHA-256 (TablebaseError otherwise, naming the file)."""
    ranking = Ranking({}, {}, initial_tier, directory=directory)
    for raw in entries:
        tier, name, count = int(raw["tier"]), str(raw["file"]), int(raw["count"])
        path = directory / name
        if not path.is_file():
            raise TablebaseError(f"{directory}: {name} is missing")
        if raw.get("encoding") == ENCODING:  # packed for shipping: decoded whole, checked
            if file_sha256(path) != raw["sha256"]:
                raise TablebaseError(
                    f"{directory}: {name} fails its checksum (damaged or changed); no answer "
                    "from it can be trusted"
                )
            ranking.tiers[tier] = PackedCodeSet(path, count)  # decoded when first used
            ranking.children[tier] = tuple(int(t) for t in raw["children"])
            ranking.entries[tier] = dict(raw)
            continue
        if path.stat().st_size != 8 * count:
            raise TablebaseError(
                f"{directory}: {name} holds {path.stat().st_size:,} bytes, not {8 * count:,} "
                "(truncated or damaged)"
            )
        if check and file_sha256(path) != raw["sha256"]:
            raise TablebaseError(
                f"{directory}: {name} fails its checksum (damaged or changed); no answer "
                "from it can be trusted"
            )
        found = CodeSet.of(mapped(path, count), path)
        found.release()
        ranking.tiers[tier] = found
        ranking.children[tier] = tuple(int(t) for t in raw["children"])
        ranking.entries[tier] = dict(raw)
    return ranking


def load_kept(directory: Path) -> Ranking | None:
    """The whole ranking kept in ``directory`` (checked), whatever game it names: for a
    copy of the game that found it, in another process."""
    path = directory / CODES_JSON
    if not path.is_file():
        return None
    data = json.loads(path.read_text())
    return load_ranking(directory, data["tiers"], int(data["initial_tier"]))


def kept_ranking(directory: Path, identity: dict[str, Any]) -> Ranking | None:
    """The whole ranking a solve of this game left in ``directory``, checked; None when
    there is none, or it was made for another game or fails a check (found again then)."""
    path = directory / CODES_JSON
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text())
        if not same_game(data.get("identity") or {}, identity):
            return None
        return load_ranking(directory, data["tiers"], int(data["initial_tier"]))
    except (TablebaseError, ValueError, KeyError, TypeError):
        return None


def joined(parts: list[Any]) -> Any:
    """Sorted parts in order as one array (no copy for one part)."""
    return np.concatenate(parts) if len(parts) > 1 else parts[0]
