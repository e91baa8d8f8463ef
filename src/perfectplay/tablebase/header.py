"""The header of a tablebase directory: ``header.json``, read strictly, never evaluated.

Format version 1::

    {
      "format": "perfectplay-tablebase", "version": 1,
      "identity": {"game", "class", "parameters", "fingerprint"},   # see Rules.identity
      "layout": "tiers" | "graph",
      "record_bytes": 1 | 2,                 # see perfectplay.core.records
      "initial": {"tier": T, "index": I},
      "tiers": [{"tier", "size", "file", "sha256", "positions", "values", "remoteness",
                 "blocks"?, "hash_block"?,            # SHA-256 per block of hash_block bytes
                 "packed"?,                   # true: one byte a position (core.packed_records)
                 "scores"?: {"file", "sha256", "dtype", "integral"}}],  # a scored game's,
                                              # tiered: the tier's scores in dtype (<i1,
                                              # <i2, <i4 or <f8), as ``tiers.scored``
      "keys": {"file", "sha256", "count"} | null,    # graph layout: sorted int64 keys
      "grundy": {"file", "sha256"} | null,           # graph layout: int32, in key order
      "scores"?: {"file", "sha256", "integral"},     # scored games (graph layout): float64
                                              # in key order; the records' value codes
                                              # then say the score's sign (WIN > 0, LOSS
                                              # < 0, TIE 0) and their remoteness the plies;
                                              # tiered: {"integral"}, the files per tier
      "compressed": {"block_records": B, "tiers": [{"tier", "file", "sha256",
                     "index_file", "index_sha256"}]} | null,
      "book"?: {"depth", "play_depth"},              # an opening book: the first plies
      "codes"?: {"tiers": [{"tier", "file", "sha256", "count", "children"}]}
                                              # tiers ranked by the engine: sorted int64
    }

A tier file longer than one block also has the SHA-256 of each block, so that a reader
verifies the blocks it reads as it first reads them. ``values`` counts positions per value
code ("1" WIN, "2" LOSS, "3" TIE, "4" DRAW); ``remoteness`` per "value:remoteness".
Arrays are little-endian files beside the header.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.records import SCORE_TYPES
from ..errors import TablebaseError
from ..tiers.files import write_json_atomically

__all__ = ["Header", "TablebaseError", "TierEntry", "read_header", "write_header"]

FORMAT = "perfectplay-tablebase"
VERSION = 1
HEADER = "header.json"


@dataclass(frozen=True)
class TierEntry:
    """One tier's array: where it is, how long, its checksum and its counts."""

    tier: int
    size: int
    file: str
    sha256: str
    positions: int
    values: dict[str, int]
    remoteness: dict[str, int]
    blocks: tuple[str, ...] = ()
    """SHA-256 of each block of ``hash_block`` bytes; empty for a file of one block."""
    hash_block: int = 0
    scores: dict[str, Any] | None = None
    """A scored game's scores of the tier: {"file", "sha256", "dtype", "integral"}."""
    method: str | None = None
    """The tier method that solved it (``tiers.methods``: ``chunks``, ``by-edges``, ...);
    None for a scored game's tier and a tablebase made before it was kept."""
    packed: bool = False
    """Whether its file keeps one byte a position (``core.packed_records``), not
    ``record_bytes``."""

    def file_length(self, record_bytes: int) -> int:
        """The length in bytes of its records' file, given the header's record bytes."""
        return self.size * (1 if self.packed else record_bytes)


@dataclass(frozen=True)
class Header:
    """A parsed and checked header."""

    identity: dict[str, Any]
    layout: str
    record_bytes: int
    initial: tuple[int, int]
    tiers: dict[int, TierEntry]
    keys: dict[str, Any] | None
    grundy: dict[str, Any] | None
    compressed: dict[str, Any] | None
    book: dict[str, Any] | None = None
    """An opening book (``perfectplay book``): {"depth", "play_depth"}. It holds the
    positions of the first plies only: answered with the compiled search beyond them."""
    scores: dict[str, Any] | None = None
    """A scored game's scores: {"file", "sha256", "integral"} (see the module docstring)."""
    codes: dict[str, Any] | None = None
    """Tiers ranked by the engine: {"tiers": [{"tier", "file", "sha256", "count",
    "children"}]}, each tier's sorted int64 codes (see ``tablebase.codes``)."""

    def to_json(self) -> dict[str, Any]:
        """The header as written to disk."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "identity": self.identity,
            "layout": self.layout,
            "record_bytes": self.record_bytes,
            "initial": {"tier": self.initial[0], "index": self.initial[1]},
            "tiers": [_entry_json(entry) for entry in self.tiers.values()],
            "keys": self.keys,
            "grundy": self.grundy,
            "compressed": self.compressed,
            **({"codes": self.codes} if self.codes is not None else {}),
            **({"scores": self.scores} if self.scores is not None else {}),
            **({"book": self.book} if self.book is not None else {}),
        }

    def counts(self) -> dict[str, Any]:
        """Positions per value and per (value, remoteness), over every tier."""
        values: dict[str, int] = {}
        remoteness: dict[str, int] = {}
        for entry in self.tiers.values():
            for key, n in entry.values.items():
                values[key] = values.get(key, 0) + n
            for key, n in entry.remoteness.items():
                remoteness[key] = remoteness.get(key, 0) + n
        return {"positions": sum(values.values()), "values": values, "remoteness": remoteness}


def _entry_json(entry: TierEntry) -> dict[str, Any]:
    fields = dict(vars(entry))
    if entry.scores is None:
        del fields["scores"]
    if entry.method is None:
        del fields["method"]
    if not entry.packed:
        del fields["packed"]
    if not entry.blocks:
        del fields["blocks"], fields["hash_block"]
    else:
        fields["blocks"] = list(entry.blocks)
    return fields


def _method_name(text: Any) -> str | None:
    """A tier method's name as the header keeps it (a word of letters and dashes)."""
    if text is None:
        return None
    if not isinstance(text, str) or not 0 < len(text) <= 40 or set(text) - set(_NAME_LETTERS):
        raise ValueError(f"{text!r} is no tier method's name")
    return text


_NAME_LETTERS = "abcdefghijklmnopqrstuvwxyz-"


def _digest(text: Any) -> str:
    if not isinstance(text, str) or len(text) != 64 or set(text) - set("0123456789abcdef"):
        raise ValueError(f"{text!r} is no SHA-256")
    return text


def read_header(directory: Path) -> Header:
    """The header of a tablebase directory; TablebaseError when it is not a sound one."""
    path = directory / HEADER
    if not path.is_file():
        raise TablebaseError(f"{directory} is no tablebase: it has no {HEADER}")
    try:
        data = json.loads(path.read_text())
        return _parse(data)
    except (ValueError, KeyError, TypeError, AttributeError, OverflowError, RecursionError) as exc:
        raise TablebaseError(f"{path}: not a perfectplay tablebase header ({exc})") from None


def _parse(data: Any) -> Header:
    if data.get("format") != FORMAT:
        raise ValueError(f"format is {data.get('format')!r}")
    if data.get("version") != VERSION:
        raise ValueError(f"version {data.get('version')!r}; this perfectplay reads {VERSION}")
    if data["layout"] not in ("tiers", "graph") or data["record_bytes"] not in (1, 2):
        raise ValueError("layout or record_bytes out of range")
    tiers = {}
    for raw in data["tiers"]:
        entry = _tier_entry(raw)
        tiers[entry.tier] = entry
    scores = data.get("scores")
    if scores is not None and data["layout"] == "graph":
        scores = {"file": _plain_name(scores["file"]), "sha256": _digest(scores["sha256"]),
                  "integral": bool(scores["integral"])}  # fmt: skip
    elif scores is not None:
        scores = {"integral": bool(scores["integral"])}
        if any(entry.scores is None for entry in tiers.values()):
            raise ValueError("a tier of a scored game keeps no scores")
    elif any(entry.scores is not None for entry in tiers.values()):
        raise ValueError("tiers keep scores but the header says no game is scored")
    for optional in ("keys", "grundy"):
        if data.get(optional) is not None:
            _plain_name(data[optional]["file"])
    compressed = data.get("compressed")
    if compressed is not None:
        for raw in compressed["tiers"]:
            _plain_name(raw["file"])
            _plain_name(raw["index_file"])
    codes = data.get("codes")
    if codes is not None:
        for raw in codes["tiers"]:
            _plain_name(raw["file"])
            _digest(raw["sha256"])
            int(raw["tier"]), int(raw["count"]), [int(t) for t in raw["children"]]
    return Header(
        identity=dict(data["identity"]),
        layout=str(data["layout"]),
        record_bytes=int(data["record_bytes"]),
        initial=(int(data["initial"]["tier"]), int(data["initial"]["index"])),
        tiers=tiers,
        keys=data.get("keys"),
        grundy=data.get("grundy"),
        compressed=compressed,
        codes=codes,
        scores=scores,
        book=None
        if data.get("book") is None
        else {"depth": int(data["book"]["depth"]), "play_depth": int(data["book"]["play_depth"])},
    )


def _tier_entry(raw: Any) -> TierEntry:
    """One tier's entry of the header, its names and digests checked."""
    entry = TierEntry(
        tier=int(raw["tier"]),
        size=int(raw["size"]),
        file=_plain_name(raw["file"]),
        sha256=str(raw["sha256"]),
        positions=int(raw["positions"]),
        values={str(k): int(v) for k, v in raw["values"].items()},
        remoteness={str(k): int(v) for k, v in raw["remoteness"].items()},
        blocks=tuple(_digest(d) for d in raw.get("blocks", [])),
        hash_block=int(raw.get("hash_block", 0)),
        scores=_tier_scores(raw["scores"]) if raw.get("scores") is not None else None,
        method=_method_name(raw.get("method")),
        packed=_flag(raw.get("packed", False)),
    )
    if entry.blocks and (entry.hash_block <= 0 or entry.hash_block % 8):
        raise ValueError(f"tier {entry.tier}: hash_block {entry.hash_block}")
    return entry


def _flag(raw: Any) -> bool:
    if not isinstance(raw, bool):
        raise ValueError(f"{raw!r} is no true or false")
    return raw


def _tier_scores(raw: Any) -> dict[str, Any]:
    """A tier's scores entry, checked."""
    if raw["dtype"] not in SCORE_TYPES:
        raise ValueError(f"scores of type {raw['dtype']!r}")
    return {"file": _plain_name(raw["file"]), "sha256": _digest(raw["sha256"]),
            "dtype": str(raw["dtype"]), "integral": bool(raw["integral"])}  # fmt: skip


def _plain_name(name: Any) -> str:
    """A file name inside the directory: no path separators, no way out of it."""
    if not isinstance(name, str) or not name or "/" in name or "\\" in name or name[0] == ".":
        raise ValueError(f"bad file name {name!r}")
    return name


def write_header(directory: Path, header: Header) -> None:
    """Write the header last, atomically: a directory with a header is a whole tablebase."""
    write_json_atomically(directory / HEADER, header.to_json(), readable=True)


def describe_mismatch(found: dict[str, Any], expected: dict[str, Any]) -> str | None:
    """Why a tablebase made for ``found`` cannot answer for ``expected``, or None."""
    if found.get("game") != expected["game"] or found.get("class") != expected["class"]:
        return f"it holds {found.get('game')!r}, not {expected['game']!r}"
    if found.get("parameters") != expected["parameters"]:
        return (
            f"it was made with parameters {found.get('parameters')}, not {expected['parameters']}"
        )
    if found.get("fingerprint") != expected["fingerprint"]:
        return (
            "the rules behave otherwise than when it was made (the game's code changed, or "
            "the header was edited)"
        )
    return None


def existing(directory: Path, identity: dict[str, Any]) -> Header | None:
    """The header of a finished tablebase of this very game in ``directory``, if any;
    TablebaseError when the directory holds another game's."""
    if not (directory / HEADER).exists():
        return None
    header = read_header(directory)
    mismatch = describe_mismatch(header.identity, identity)
    if mismatch is not None:
        raise TablebaseError(f"{directory} already holds a tablebase, but {mismatch}")
    return header
