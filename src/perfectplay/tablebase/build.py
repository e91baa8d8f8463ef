"""Making a tiered tablebase: the tier solver run into a directory, then the header.

Resumable: run it again after an interruption and it goes on from the finished tiers. The
header is written last, so a directory with a header is a whole tablebase.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..compiled_games.ranking import CODES_JSON
from ..core.memory import MemoryWatch
from ..core.records import RecordFormat, format_for
from ..errors import GameError
from ..identity import identity_of
from ..progress import ProgressCallback
from ..protocol import Game
from ..rules import Rules
from ..solve import solve_for
from ..tiers.files import TierFiles, file_sha256, tier_file_name
from ..tiers.graph import TierGraph
from ..tiers.scored import solve_scored_tiers
from ..tiers.solve import solve_tiers
from .header import HEADER, Header, TierEntry, existing, write_header
from .write import save_solution


def build_tiered(
    rules: Rules[Any, Any],
    directory: Path,
    progress: ProgressCallback | None = None,
    memory: int | None = None,
    tier_method: str | None = None,
    pack: bool = False,
) -> tuple[Header, float]:
    """Solve a tier game into ``directory``; the header and the seconds it took.
    ``tier_method``: one method of ``tiers.methods`` for every tier of its kind (an outcome
    game's; a scored game's tiers have their own solver). ``pack``: each finished tier in
    one byte a position where its records allow (``core.packed_records``)."""
    identity = identity_of(rules)
    found = existing(directory, identity)
    if found is not None:
        return found, 0.0
    ranking = None
    if rules.tiers is not None and rules.tiers.engine is not None:
        # Every tier's codes, found once and kept in the directory (taken up again there).
        ranking = rules.tiers.engine.ranking(progress, MemoryWatch(memory), directory, identity)
    graph = TierGraph(rules)
    # A loopy tier bounds no game's length: 2-byte records, remoteness up to 8,191.
    record = format_for(graph.longest if graph.longest is not None else 1 << 8)
    files = TierFiles(directory, record, identity, pack=pack)
    if graph.scored:
        if tier_method is not None:
            raise GameError(f"{rules.name} is scored: its tiers have one solver, no tier method")
        seconds = solve_scored_tiers(graph, files, progress, memory)
    else:
        seconds = solve_tiers(graph, files, progress, memory, tier_method)
    files.drop_stray_partials(graph.order)
    if ranking is not None:
        seconds += ranking.seconds  # finding the positions is part of the solve
    codes = None if ranking is None else ranking.as_json()
    # On the disk before the header says the tablebase is whole (the codes files were
    # fsync'd as written, the tiers' records are waited for; ``codes.json`` is not yet).
    kept_codes = directory / CODES_JSON
    files.on_disk(*([kept_codes] if kept_codes.exists() else []))
    return build_header(rules, graph, files, codes), seconds


def damaged_tiers(directory: Path, header: Header) -> list[int]:
    """The tiers of a finished, uncompressed tablebase whose records or scores file is
    missing, cut short or fails its checksum (every file hashed: this reads the whole
    tablebase once)."""
    if header.compressed is not None:
        return []
    damaged = []
    for tier, entry in header.tiers.items():
        files = [(entry.file, entry.file_length(header.record_bytes), entry.sha256)]
        if entry.scores is not None:
            size = entry.size * np.dtype(entry.scores["dtype"]).itemsize
            files.append((entry.scores["file"], size, entry.scores["sha256"]))
        for name, size, sha256 in files:
            path = directory / name
            if not path.is_file() or path.stat().st_size != size or file_sha256(path) != sha256:
                damaged.append(tier)
                break
    return damaged


def reopen_damaged(directory: Path, header: Header, damaged: list[int], engine: bool) -> None:
    """Make a finished tiered tablebase unfinished again, so that the same solve solves
    the ``damaged`` tiers again from their children (which are sound) and keeps the
    others: the header goes, and the damaged tiers leave the progress (``TierFiles.
    unfinish``: the marking of what play reaches lives in the working files of unfinished
    tiers, so it is done again; an engine's tiers need no marking, every index being a
    position)."""
    files = TierFiles(directory, RecordFormat(header.record_bytes), header.identity)
    files.unfinish(damaged, keep_marking=engine)
    (directory / HEADER).unlink()


def build_header(
    rules: Rules[Any, Any], graph: TierGraph, files: TierFiles, codes: dict[str, Any] | None = None
) -> Header:
    """Write the header of a tiered solve whose tiers are all finished; the header."""
    assert rules.batch is not None and rules.tiers is not None
    root = np.array([rules.key_of(rules.initial_state())], dtype=np.int64)
    root_index = int(rules.tiers.batch_rank(rules.tiers.initial_tier, root)[0])
    tiers = {}
    for tier in graph.order:
        done = files.progress["solved"][str(tier)]
        tiers[tier] = TierEntry(
            tier=tier,
            size=graph.sizes[tier],
            file=tier_file_name(tier, "rec"),
            sha256=done["sha256"],
            positions=done["positions"],
            values=done["values"],
            remoteness=done["remoteness"],
            blocks=tuple(done.get("blocks", ())),
            hash_block=int(done.get("hash_block", 0)),
            scores=done.get("scores"),
            method=done.get("method"),
            packed=bool(done.get("packed", False)),
        )
    header = Header(
        identity=files.progress["identity"],
        layout="tiers",
        record_bytes=files.record.bytes,
        initial=(rules.tiers.initial_tier, root_index),
        tiers=tiers,
        keys=None,
        grundy=None,
        compressed=None,
        codes=codes,
        scores={"integral": all(e.scores["integral"] for e in tiers.values() if e.scores)}
        if graph.scored
        else None,
    )
    write_header(files.directory, header)
    return header


def build_tablebase(
    game: Game[Any, Any],
    directory: str | Path,
    *,
    progress: ProgressCallback | None = None,
    max_states: int | None = None,
    memory: int | None = None,
    tier_method: str | None = None,
    pack: bool = False,
) -> tuple[Header, float]:
    """Solve ``game`` into a tablebase directory: tier by tier when it speaks the tier
    protocol, else explored in memory and saved (scores kept either way). The
    header and the seconds it took. ``memory`` is the budget in bytes (default: most of
    the memory available); ``tier_method``: one method of the table of tier methods
    (``tiers.methods``) for every tier of its kind, in a game with tiers; ``pack``: a
    game with tiers keeps each finished tier in one byte a position where its records
    allow (``core.packed_records``)."""
    return build_tablebase_for(
        Rules(game), directory, progress=progress, max_states=max_states, memory=memory,
        tier_method=tier_method, pack=pack,
    )  # fmt: skip


def build_tablebase_for(
    rules: Rules[Any, Any],
    directory: str | Path,
    *,
    progress: ProgressCallback | None = None,
    max_states: int | None = None,
    memory: int | None = None,
    tier_method: str | None = None,
    pack: bool = False,
) -> tuple[Header, float]:
    """``build_tablebase`` for a game read already (its ``Rules``)."""
    path = Path(directory)
    if rules.tiers is not None:
        return build_tiered(rules, path, progress, memory, tier_method, pack)
    if tier_method is not None:
        raise GameError(f"{rules.name} has no tiers: no tier method applies")
    found = existing(path, identity_of(rules))
    if found is not None:
        return found, 0.0
    solution = solve_for(rules, max_states=max_states, progress=progress, memory=memory)
    return save_solution(solution, path), solution.stats.seconds
