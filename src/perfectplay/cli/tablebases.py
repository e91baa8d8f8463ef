"""What the tablebase commands share: building one, opening one, and naming its game."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.memory import show_size
from ..core.records import format_for
from ..errors import GameError, GameNotFound, PerfectplayError, UsageProblem, describe
from ..games import BUILTINS
from ..identity import identity_of
from ..rules import Rules
from ..tablebase.build import build_tablebase_for, damaged_tiers, reopen_damaged
from ..tablebase.header import Header, TablebaseError, existing, read_header
from ..tablebase.reader import Tablebase
from ..tablebase.write import save_solution
from ..tiers.files import BUILD_FILES
from ..tiers.graph import TierGraph
from .common import explored_solve, index_space, trust_speed_hooks
from .estimates import announce_last_solve, remember_rate, remember_solve, remembered_rate
from .loader import build_game, find_game_class
from .progress import dask_progress, duration_text, tier_progress


@dataclass(frozen=True)
class Built:
    """A tablebase made (or found) by ``solve --save``."""

    header: Header
    seconds: float
    method: str
    reused: bool


def build_into(
    rules: Rules[Any, Any],
    directory: Path,
    *,
    method: str,
    max_states: int | None,
    memory: int | None,
    quiet: bool,
    workers: int | None = None,
    scheduler: str | None = None,
    tier_method: str | None = None,
    pack: bool = False,
) -> Built:
    """Solve ``rules`` into a tablebase in ``directory``: tier by tier on disk when the game
    has tiers (on Dask with ``workers`` or ``scheduler``; ``tier_method`` as
    ``tiers.methods`` takes it; ``pack``: tiers in one byte a position where they allow,
    in one process), else explored in memory and saved; a finished one of this game is
    reused."""
    if directory.exists() and not directory.is_dir():
        raise UsageProblem(f"--save {directory}: that is a file, not a directory")
    reused = _reuse_or_repair(rules, directory)
    if reused is not None:
        return reused
    _check_free(directory)
    trust_speed_hooks(rules)
    on_dask = workers is not None or scheduler is not None
    tiered = _saved_by_tiers(rules, method, max_states, on_dask)
    if pack and (on_dask or not tiered):
        raise UsageProblem("--pack keeps the tiers of a game with tiers solved in one process "
                           "(not on Dask)")  # fmt: skip
    slots = _check_disk(rules, directory, quiet, pack) if tiered else None
    with _cleared_on_failure(directory, rules.name):
        if on_dask:
            return _build_on_dask(rules, directory, workers, scheduler, quiet, tier_method)
        if tiered:
            return _build_by_tiers(rules, directory, slots, memory, quiet, (tier_method, pack))
        solution = explored_solve(rules, method, max_states, quiet, memory)
        return Built(
            save_solution(solution, directory), solution.stats.seconds, solution.method, False
        )


def _reuse_or_repair(rules: Rules[Any, Any], directory: Path) -> Built | None:
    """A finished tablebase of this game in ``directory``, reused; None when there is none
    or it is damaged, the damaged tiers then made ready to be solved again."""
    found = existing(directory, identity_of(rules))
    if found is not None:
        damaged = damaged_tiers(directory, found)
        if not damaged:
            return Built(found, 0.0, found.layout, reused=True)
        # Damaged since it was finished: solve the damaged tiers again, keep the others.
        names = ", ".join(found.tiers[t].file for t in damaged)
        which = "those tiers" if len(damaged) > 1 else "that tier"
        print(f"{directory}: {names} failed their checksums; solving {which} again",
              file=sys.stderr)  # fmt: skip
        if found.layout == "tiers" and rules.tiers is not None:
            reopen_damaged(directory, found, damaged, rules.tiers.ranked_by_engine)
        else:  # explored in memory: saved again whole
            (directory / "header.json").unlink()
    return None


def _saved_by_tiers(
    rules: Rules[Any, Any], method: str, max_states: int | None, on_dask: bool
) -> bool:
    """Whether the game is saved tier by tier on disk; the options that do not apply to how
    it is saved refused."""
    if on_dask and rules.ends_in_scores():
        raise UsageProblem(f"{rules.name} is scored: it is saved in one process, not on Dask")
    tiered = rules.tiers is not None
    if tiered and (method != "auto" or max_states is not None):
        raise UsageProblem(
            f"{rules.name} is solved tier by tier on disk with --save; "
            "--method and --max-states do not apply (--memory does)"
        )
    if on_dask and rules.tiers is None:
        raise UsageProblem(
            f"--workers and --scheduler solve tier by tier; {rules.name} has no tiers"
        )
    return tiered


def _build_on_dask(
    rules: Rules[Any, Any],
    directory: Path,
    workers: int | None,
    scheduler: str | None,
    quiet: bool,
    tier_method: str | None = None,
) -> Built:
    """The tablebase solved tier by tier on Dask (local workers or a scheduler's)."""
    from ..tablebase.on_dask import build_on_dask

    with dask_progress(quiet=quiet) as told:
        header, seconds = build_on_dask(
            rules,
            directory,
            workers=workers,
            scheduler=scheduler,
            report=told,
            announce=None if quiet else _announce,
            tier_method=tier_method,
        )
    return Built(header, seconds, "tiers on Dask", reused=False)


def _build_by_tiers(
    rules: Rules[Any, Any],
    directory: Path,
    slots: int | None,
    memory: int | None,
    quiet: bool,
    how: tuple[str | None, bool] = (None, False),
) -> Built:
    """The tablebase solved tier by tier on disk in this process (``how``: the tier method
    forced, if any, and whether to pack); a whole build's rate (or size and time)
    remembered to say what to expect next time."""
    fresh = not directory.is_dir() or not any(directory.iterdir())
    expected = None
    if slots is None and fresh:  # ranked by the engine: its size comes from a last solve
        expected = announce_last_solve(rules, "tiers", quiet)
    with tier_progress(quiet=quiet, expected=expected) as report:
        header, seconds = build_tablebase_for(
            rules, directory, progress=report, memory=memory, tier_method=how[0], pack=how[1]
        )
    if fresh and slots is not None and slots >= ANNOUNCE_SLOTS:
        # A whole large build: its rate says what to expect of the next one of this game. A
        # small one's rate is mostly fixed costs (a 3-row Dobutsu's, kept under the game's
        # name, made the full game's estimate 2.1 hours for a 3-minute solve).
        remember_rate(rules, slots / max(seconds, 1e-9))
    elif fresh:
        remember_solve(rules, "tiers", header.counts()["positions"], seconds)
    return Built(header, seconds, "tiers", reused=False)


def _announce(line: str) -> None:
    print(line, file=sys.stderr)


@contextmanager
def _cleared_on_failure(directory: Path, name: str) -> Iterator[None]:
    """Remove a directory this build made when it fails for good (a broken game, or before
    writing anything); keep what an interrupted build finished, to go on from there."""
    created = not directory.exists()
    try:
        yield
    except (PerfectplayError, ValueError) as exc:
        ours = isinstance(exc, PerfectplayError)
        for_good = isinstance(exc, GameError) or not ours
        if created and directory.is_dir() and (for_good or not any(directory.iterdir())):
            shutil.rmtree(directory, ignore_errors=True)
        if ours:
            raise
        # The library's own limits (such as the longest remoteness a record holds).
        raise TablebaseError(f"cannot save {name} as a tablebase: {exc}") from None


def _check_disk(
    rules: Rules[Any, Any], directory: Path, quiet: bool, pack: bool = False
) -> int | None:
    """Before a tier-by-tier build of a game ranked by hand: say how large it is (its tiers'
    slots: what play reaches is at most that; from ANNOUNCE_SLOTS on) and refuse at once,
    in one line, when the disk holds less than the records still to write (a record per
    slot; packed, a byte a slot and the largest tier's working file beside; the files of a
    build taken up count as written). A game ranked by the engine learns its size only by
    finding its positions: nothing is said or checked up front. Returns the slots (None
    for such a game)."""
    found = index_space(rules, 1 << 62)
    if found is None:
        return None
    slots = found[0]
    graph = TierGraph(rules)
    record = format_for(graph.longest if graph.longest is not None else 1 << 8).bytes
    if graph.scored:  # a slot's score too: at most 8 bytes (float64), as written while solved
        record += 8
    working = 0
    if pack and record == 2:  # (a byte a slot once packed; one tier at 2 while it is solved)
        record, working = 1, max(graph.sizes.values(), default=0)
    written = (
        sum(p.stat().st_size for p in directory.iterdir() if p.is_file())
        if directory.is_dir()
        else 0
    )
    need = max(0, slots * record + working - written)
    where = directory
    while not where.exists():
        where = where.parent
    free = shutil.disk_usage(where).free
    if need > free:
        raise UsageProblem(
            f"--save {directory}: {rules.name}'s tablebase needs about {show_size(need)} more "
            f"on disk ({slots:,} slots at {record} byte{'s' if record > 1 else ''} each"
            f"{', packed' if working else ''}), and "
            f"{show_size(free)} is free there"
        )
    if not quiet and slots >= ANNOUNCE_SLOTS:
        rate = remembered_rate(rules)
        when = "" if rate is None else (
            f", about {duration_text(slots / rate)} on this machine (at the rate of its last "
            "whole tier-by-tier solve here)"
        )  # fmt: skip
        print(f"{rules.name}: at most {slots:,} positions (its tiers' slots), about "
              f"{show_size(slots * record)} on disk{when}", file=sys.stderr)  # fmt: skip
    return slots


ANNOUNCE_SLOTS = 50_000_000
"""A build of at least this many slots says its size (and time) before it starts; smaller
ones take seconds, and a command refused later keeps to its one line."""


def _check_free(directory: Path) -> None:
    """Refuse to write a tablebase among files that are not one."""
    if not directory.is_dir():
        return
    if any(not BUILD_FILES.fullmatch(path.name) for path in directory.iterdir()):
        raise UsageProblem(
            f"--save {directory}: the directory holds other files and no tablebase; "
            "give a new or empty directory"
        )


def held(base: Tablebase[Any, Any], state: Any, directory: Path, shown: str | None) -> None:
    """Raise a one-line error when the tablebase has no record of ``state`` (``shown`` is how
    the user wrote it)."""
    if base.lookup(state) is None:
        what = describe(state) if shown is None else repr(shown)
        raise UsageProblem(
            f"the tablebase in {directory} does not hold position {what}: "
            f"play does not reach it from the start of {base.rules.name}"
        )


def game_of(directory: Path, spec: str | None, params: list[str]) -> Any:
    """The game named on the command line, or else the built-in the header names."""
    if spec is not None:
        return build_game(spec, params)
    if params:
        raise UsageProblem("--param needs GAME: name the game the parameters are for")
    identity = read_header(directory).identity
    name = identity.get("game")
    cls = BUILTINS.get(name) if isinstance(name, str) else None
    source, class_name = identity.get("file"), identity.get("class")
    if cls is None and isinstance(source, str) and isinstance(class_name, str):
        if not Path(source).is_file():
            raise UsageProblem(
                f"{directory} holds {name!r} of {source}, which is no longer there; name "
                f"the game: perfectplay verify {directory} path/to/file.py:{class_name}"
            )
        try:
            cls = find_game_class(f"{source}:{class_name}")  # the file the header records
        except GameNotFound as exc:
            raise UsageProblem(
                f"{directory} holds {name!r} of {source}, which cannot be loaded again "
                f"({exc}); name the game: perfectplay verify {directory} GAME"
            ) from None
    if cls is None:
        raise UsageProblem(
            f"{directory} holds {name!r}, which is not a built-in game; name it: "
            f"perfectplay verify {directory} path/to/file.py:ClassName -p NAME=VALUE ..."
        )
    kwargs = {
        key: tuple(value) if isinstance(value, list) else value
        for key, value in dict(identity.get("parameters") or {}).items()
    }
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise UsageProblem(f"{directory}: cannot rebuild {name} from its header: {exc}") from None


def files_bytes(directory: Path, names: list[str] | None = None) -> int:
    """Bytes on disk of the files in ``directory`` (of ``names`` only, when given)."""
    if names is not None:
        return sum((directory / name).stat().st_size for name in names)
    return sum(path.stat().st_size for path in directory.iterdir() if path.is_file())
