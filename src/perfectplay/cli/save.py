"""perfectplay solve --save DIR: build a tablebase, then answer the start from it."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from ..errors import InterruptedSolve
from ..rules import Rules
from ..tablebase.reader import Tablebase, open_tablebase_for
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
    tier_method: str | None = None,
    pack: bool = False,
) -> None:
    """Build (or reuse) the tablebase of ``rules`` in ``directory`` and print its summary;
    ``solve_with`` is (method, max_states, memory) for a game explored in memory,
    ``cluster`` (workers, scheduler) asks for a solve on Dask, ``tier_method`` one method
    of the table of tier methods for every tier of its kind, ``pack`` the tiers in one
    byte a position where they allow."""
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
        tier_method=tier_method,
        pack=pack,
    )
    with open_tablebase_for(directory, rules) as base:
        if as_json:
            emit_json(_summary_json(base, built, directory))
        else:
            print_rows(_summary_rows(base, built, directory))


def solved_in_passing(rules: Rules[Any, Any], method: str, max_states: int | None) -> bool:
    """Whether ``solve`` without --save (and ``analyze`` without --db) goes tier by tier all
    the same (``solve_in_passing``): the default method, no --max-states, and a game whose
    tiers the engine ranks (a compiled game with a ``tier`` rule), scored or not."""
    if method != "auto" or max_states is not None:
        return False
    tiers = rules.tiers
    return tiers is not None and tiers.ranked_by_engine


def solve_in_passing(
    rules: Rules[Any, Any], memory: int | None, quiet: bool, as_json: bool
) -> None:
    """``solve`` without --save of a game ``solved_in_passing``: tier by tier as --save does,
    into a temporary directory removed once the start is answered, so that a user's compiled
    game is solved at the tier engine's speed and memory, not explored whole as a graph
    (Quixo 4x4: 20 s at 350 MB where exploring it took 36 s at 2.2 GB). The same rows as
    --save but where the tablebase lies; Ctrl-C keeps nothing (--save DIR keeps the
    finished tiers)."""
    with (
        scratch_tablebase(rules, memory, quiet) as (directory, built),
        open_tablebase_for(directory, rules) as base,
    ):
        if as_json:
            emit_json(_summary_json(base, built, directory, kept=False))
        else:
            print_rows(_summary_rows(base, built, directory, kept=False))


@contextmanager
def scratch_tablebase(
    rules: Rules[Any, Any], memory: int | None, quiet: bool
) -> Iterator[tuple[Path, Built]]:
    """The tablebase of a game ``solved_in_passing``, built in a temporary directory that is
    removed when the block ends (Ctrl-C: an InterruptedSolve saying nothing is kept)."""
    with tempfile.TemporaryDirectory(prefix="perfectplay-solve-") as scratch:
        directory = Path(scratch) / "tablebase"
        try:
            built = build_into(
                rules, directory, method="auto", max_states=None, memory=memory, quiet=quiet
            )
        except InterruptedSolve:
            raise InterruptedSolve(
                f"interrupted while solving {rules.name} tier by tier; nothing is kept: give "
                "--save DIR (or --db DIR to analyze) to keep the finished tiers and go on "
                "after an interruption"
            ) from None
        yield directory, built


def _summary_json(
    base: Tablebase[Any, Any], built: Built, directory: Path, kept: bool = True
) -> dict[str, Any]:
    """solve --json's fields, answered from the tablebase, and where it lies (``kept``: not
    for a scratch tablebase, removed once answered)."""
    summary = position_report(base, base.initial, [])
    for key in ("moves_played", "position", "moves"):
        del summary[key]
    summary["stats"]["seconds"] = round(built.seconds, 6)
    if kept:
        summary["tablebase"] = {
            "directory": str(directory),
            "layout": built.header.layout,
            "solved_by": built.method,
            "reused": built.reused,
            "bytes": files_bytes(directory),
        }
    if base.rules.presentation.published_plies is not None:
        summary["published_remoteness"] = published_remoteness(base)
    return summary


def _summary_rows(
    base: Tablebase[Any, Any], built: Built, directory: Path, kept: bool = True
) -> list[tuple[str, str]]:
    """solve's rows, answered from the tablebase, and (``kept``) where it lies and its
    size."""
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
    ]
    if kept:
        rows += [("tablebase", str(directory)), ("bytes on disk", f"{files_bytes(directory):,}")]
    return rows
