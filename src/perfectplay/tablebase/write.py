"""Saving an explored solve: one tier, its positions in the order of their sorted keys.

Keys must be non-negative integers (every batch game's codes are); the keys are saved
beside the records, so a position is found by binary search. A scored game's scores are
saved beside them too (float64), its records holding the score's sign as the value and
the plies of perfect play. The header is written last.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.records import TierSummary, format_for, score_signs
from ..errors import GameError
from ..identity import identity_of
from ..rules import Rules
from ..solution import Solution
from ..tiers.files import file_sha256, tier_file_name
from .header import Header, TierEntry, existing, write_header


def save_solution(solution: Solution[Any, Any], directory: str | Path) -> Header:
    """Save a solution of an explored game as a tablebase directory (games whose keys are
    non-negative integers; scores are kept too); ``perfectplay.open_tablebase`` reads it
    back."""
    solved = solution.solved
    return save_arrays(
        solution.rules,
        Path(directory),
        solution.graph.states,
        solved.values,  # type: ignore[arg-type]
        solved.remoteness,
        solved.grundy,
        root_key=solution.rules.key_of(solution.initial),  # type: ignore[arg-type]
        integral=solution.integral_scores if solution.scored else None,
    )


def save_arrays(
    rules: Rules[Any, Any],
    directory: Path,
    states: Any,
    values: npt.NDArray[np.int8],
    remoteness: npt.NDArray[np.int32],
    grundy: npt.NDArray[np.int32] | None,
    root_key: int,
    integral: bool | None = None,
    book: dict[str, Any] | None = None,
) -> Header:
    """Write the values of an explored game (see the module docstring): outcome codes, or,
    with ``integral`` given (whether every score is a whole number), float scores."""
    keys = _integer_keys(rules, states)
    identity = identity_of(rules)
    existing(directory, identity)
    directory.mkdir(parents=True, exist_ok=True)
    order = np.argsort(keys, kind="stable")
    scores = None
    if integral is not None:
        scores = np.asarray(values, dtype=np.float64)[order]
        values = score_signs(scores)
    else:
        values = np.asarray(values)[order]
    values = values.astype(np.uint8)
    remoteness = np.asarray(remoteness)[order]
    remoteness = np.where(remoteness < 0, 0, remoteness)
    record = format_for(int(remoteness.max(initial=0)))
    records = (values.astype(record.dtype) << record.shift) | remoteness.astype(record.dtype)
    summary = TierSummary()
    summary.add(values, remoteness)
    files = {
        "tier": (tier_file_name(0, "rec"), records),
        "keys": ("keys.i64", keys[order].astype("<i8")),
    }
    if grundy is not None:
        files["grundy"] = ("grundy.i32", grundy[order].astype("<i4"))
    if scores is not None:
        files["scores"] = ("scores.f64", scores.astype("<f8"))
    sums = {}
    for what, (name, array) in files.items():
        path = directory / name
        array.tofile(path)
        sums[what] = file_sha256(path)
    header = Header(
        identity=identity,
        layout="graph",
        record_bytes=record.bytes,
        initial=(0, int(np.searchsorted(keys[order], root_key))),
        tiers={0: TierEntry(0, len(keys), files["tier"][0], sums["tier"], **summary.as_json())},
        keys={"file": "keys.i64", "sha256": sums["keys"], "count": len(keys)},
        grundy=None if "grundy" not in sums else {"file": "grundy.i32", "sha256": sums["grundy"]},
        compressed=None,
        scores=None
        if scores is None
        else {"file": "scores.f64", "sha256": sums["scores"], "integral": bool(integral)},
        book=book,
    )
    write_header(directory, header)
    return header


def _integer_keys(rules: Rules[Any, Any], states: Any) -> Any:
    """The states' canonical keys as int64; GameError when a key is no integer."""
    if isinstance(states, np.ndarray):
        return states.astype(np.int64)
    keys = [rules.key_of(s) for s in states]
    if not all(isinstance(k, int) and 0 <= k < 2**63 for k in keys):
        raise GameError(
            f"{rules.name}: saving needs states (or keys) that are non-negative integers; "
            "give the game a key(state) -> int"
        )
    return np.array(keys, dtype=np.int64)
