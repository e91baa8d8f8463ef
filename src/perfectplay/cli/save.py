"""perfectplay solve --save DIR: build a tablebase, then answer the start from it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from ..rules import Rules
from ..tablebase.reader import Tablebase, open_tablebase
from .common import emit_json, print_rows
from .present import (
    position_report,
    published_remoteness,
    remoteness_row,
    value_text,
)
from .tablebases import Built, build_into, files_bytes

save_option = click.option(
    "--save",
    type=click.Path(path_type=Path),
    default=None,
    metavar="DIR",
    help="Build a tablebase in DIR (tier by tier on disk for games with tiers) and answer "
    "from it; run again after Ctrl-C to go on.",
)


workers_option = click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="With --save: solve on a Dask cluster of N worker processes on this machine "
    "(pip install 'perfectplay[distributed]').",
)
scheduler_option = click.option(
    "--scheduler",
    default=None,
    metavar="ADDRESS",
    help="With --save: solve on the running Dask cluster at ADDRESS (tcp://host:8786); "
    "DIR must be on a file system every worker sees.",
)


def save_command(
    rules: Rules[Any, Any],
    directory: Path,
    solve_with: tuple[str, int | None, int | None],
    quiet: bool,
    as_json: bool,
    cluster: tuple[int | None, str | None] = (None, None),
) -> None:
    """Build (or reuse) the tablebase of ``rules`` in ``directory`` and print its summary;
    ``solve_with`` is (method, max_states, memory) for a game explored in memory,
    ``cluster`` (workers, scheduler) asks for a solve on Dask."""
    method, max_states, memory = solve_with
    workers, scheduler = cluster
    built = build_into(
        rules,
        directory,
        method=method,
        max_states=max_states,
        memory=memory,
        quiet=quiet,
        workers=workers,
        scheduler=scheduler,
    )
    with open_tablebase(directory, rules) as base:
        if as_json:
            emit_json(_summary_json(base, built, directory))
        else:
            print_rows(_summary_rows(base, built, directory))


def _summary_json(base: Tablebase[Any, Any], built: Built, directory: Path) -> dict[str, Any]:
    """solve --json's fields, answered from the tablebase, and where it lies."""
    summary = position_report(base, base.initial, [])
    for key in ("moves_played", "position", "moves"):
        del summary[key]
    summary["stats"]["seconds"] = round(built.seconds, 6)
    summary["tablebase"] = {
        "directory": str(directory),
        "layout": built.header.layout,
        "solved_by": built.method,
        "reused": built.reused,
        "bytes": files_bytes(directory),
    }
    if base.rules.published_plies is not None:
        summary["published_remoteness"] = published_remoteness(base)
    return summary


def _summary_rows(
    base: Tablebase[Any, Any], built: Built, directory: Path
) -> list[tuple[str, str]]:
    """solve's rows, answered from the tablebase, and where it lies and its size."""
    rules = base.rules
    rows = [
        ("game", rules.name),
        ("method", f"{built.method} (already built)" if built.reused else built.method),
        ("value", value_text(base.value())),
        ("remoteness", remoteness_row(base)),
    ]
    if base.has_grundy:
        rows.append(("grundy value", str(base.grundy(base.initial))))
    line = base.principal_variation(max_plies=40)
    rows += [
        ("best moves", " ".join(rules.format_move(m) for m in base.best_moves()) or "-"),
        ("perfect play", " ".join(rules.format_move(m) for m in line) or "-"),
        ("positions", f"{built.header.counts()['positions']:,}"),
        ("seconds", "0 (already built)" if built.reused else f"{built.seconds:.3f}"),
        ("tablebase", str(directory)),
        ("bytes on disk", f"{files_bytes(directory):,}"),
    ]
    return rows
