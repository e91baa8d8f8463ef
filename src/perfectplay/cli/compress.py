"""perfectplay compress: a block-compressed copy of a tablebase, for shipping."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import numpy as np

from ..core.records import SCORE_TYPES
from ..errors import UsageProblem
from ..games import BUILTINS
from ..identity import identity_of
from ..rules import Rules
from ..tablebase.blocks import compress
from ..tablebase.header import HEADER, Header, describe_mismatch, read_header, write_header
from .common import emit_json, json_option, params_option, print_rows
from .progress import working
from .tablebases import files_bytes, game_of


@click.command("compress")
@click.argument("directory", metavar="DIR", type=click.Path(file_okay=False, path_type=Path))
@click.argument("target", metavar="OUT", type=click.Path(file_okay=False, path_type=Path))
@click.argument("game", required=False)
@params_option
@click.option(
    "--level",
    type=click.IntRange(1, 22),
    default=19,
    show_default=True,
    help="zstd level: higher is smaller and slower to write (reading is fast at any).",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress display.")
@json_option
def compress_command(
    directory: Path,
    target: Path,
    game: str | None,
    params: tuple[str, ...],
    level: int,
    quiet: bool,
    as_json: bool,
) -> None:
    """Write a compressed copy of the tablebase in DIR into OUT: every tier in blocks of
    zstd frames, read a block at a time. analyze, play and verify read OUT as they read DIR.

    GAME defaults to the built-in named in the header; where the game tells which slots
    are answered by another's record or are surely no position (batch_answered_by), those
    are filled with what compresses best.

    Example: perfectplay compress c4-4x4 c4-4x4.zst
    """
    header = read_header(directory)
    _check_target(directory, target)
    answered_by = _answered_by_hook(directory, header, game, list(params))
    with working(f"compressing {directory}", quiet=quiet):
        compressed = compress(directory, target, header, level=level, answered_by=answered_by)
        write_header(target, compressed)  # last: a directory with a header is whole
    report = _sizes_report(directory, target, level, header, compressed)
    if as_json:
        emit_json(report)
        return
    _print_sizes(report, header, directory, target)


def _answered_by_hook(
    directory: Path, header: Header, game: str | None, params: list[str]
) -> Callable[[int, Any], Any] | None:
    """The game's batch_answered_by, once the game is the one the header names; None for
    a game that has none or a game of the user's not named on the command line."""
    if game is None and header.identity.get("game") not in BUILTINS:
        return None
    rules = Rules(game_of(directory, game, params))
    mismatch = describe_mismatch(header.identity, identity_of(rules))
    if mismatch is not None:
        raise UsageProblem(f"{directory} was not made by {rules.name}: {mismatch}")
    return None if rules.tiers is None else rules.tiers.batch_answered_by


def _sizes_report(
    directory: Path, target: Path, level: int, header: Header, compressed: Header
) -> dict[str, Any]:
    """The bytes of the tablebase before and after, all files and the tiers' and codes'."""
    assert compressed.compressed is not None
    after_names = [
        name for t in compressed.compressed["tiers"] for name in (t["file"], t["index_file"])
    ]
    before = files_bytes(directory, [entry.file for entry in header.tiers.values()])
    after = files_bytes(target, after_names)
    positions = header.counts()["positions"]
    codes_before = codes_after = 0
    if header.codes is not None and compressed.codes is not None:  # an engine's ranking
        codes_before = files_bytes(directory, [t["file"] for t in header.codes["tiers"]])
        codes_after = files_bytes(target, [t["file"] for t in compressed.codes["tiers"]])
    return {
        "source": str(directory),
        "target": str(target),
        "level": level,
        "positions": positions,
        "tier_bytes_before": before,
        "tier_bytes_after": after,
        "bytes_before": files_bytes(directory),
        "bytes_after": files_bytes(target),
        "bits_per_position": round(8 * after / positions, 4) if positions else None,
        "all_bits_per_position": (
            round(8 * files_bytes(target) / positions, 4) if positions else None
        ),
        "code_bytes_before": codes_before,
        "code_bytes_after": codes_after,
    }


def _print_sizes(report: dict[str, Any], header: Header, directory: Path, target: Path) -> None:
    """The report as rows of text, the scores' file (copied as it is) included."""
    level = report["level"]
    before, after = report["tier_bytes_before"], report["tier_bytes_after"]
    codes_before, codes_after = report["code_bytes_before"], report["code_bytes_after"]
    positions, bits = report["positions"], report["bits_per_position"]
    print_rows(
        [
            ("tablebase", f"{directory} -> {target} (zstd level {level})"),
            ("tier files", f"{before:,} bytes -> {after:,} bytes (blocks and their index)"),
            *(
                [("codes", f"{codes_before:,} bytes -> {codes_after:,} bytes (the ranking)")]
                if codes_before
                else []
            ),
            *(
                [
                    (
                        "scores",
                        f"{files_bytes(target, _score_files(header)):,} bytes "
                        f"({_score_types(header)}, copied as they are)",
                    )
                ]
                if header.scores is not None
                else []
            ),
            ("all files", f"{report['bytes_before']:,} bytes -> {report['bytes_after']:,} bytes"),
            ("positions", f"{positions:,}"),
            (
                "bits per position",
                "-"
                if bits is None
                else f"{bits:.3f} in the tier files, {report['all_bits_per_position']:.3f} in "
                "all files (codes, scores and header too)",
            ),
        ]
    )


def _check_target(directory: Path, target: Path) -> None:
    """OUT must be a new or empty directory (so not DIR itself)."""
    if target.exists() and not target.is_dir():
        raise UsageProblem(f"{target} is a file, not a directory")
    if target.is_dir() and any(target.iterdir()):
        what = "the tablebase itself" if (target / HEADER).exists() else "other files"
        raise UsageProblem(f"{target} holds {what}; give OUT as a new or empty directory")


def _score_files(header: Header) -> list[str]:
    """The files of a scored game's scores: one, or one per tier."""
    if header.scores is not None and "file" in header.scores:
        return [header.scores["file"]]
    return [e.scores["file"] for e in header.tiers.values() if e.scores is not None]


def _score_types(header: Header) -> str:
    """The types the scores are kept in (float64 for a game explored in memory)."""
    found = {e.scores["dtype"] for e in header.tiers.values() if e.scores is not None}
    kept = sorted(found, key=SCORE_TYPES.index)
    return ", ".join(np.dtype(t).name for t in kept) or "float64"
