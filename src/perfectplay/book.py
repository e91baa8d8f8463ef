"""Opening books: every position of the first plies solved by compiled search, saved as a
tablebase.

A book answers instantly what would take the search minutes near the start of a large game
(7 x 6 Connect Four). It is an ordinary tablebase (graph layout: the positions' keys beside
their records) holding only the positions with at most ``depth`` plies played: the
tablebase reader answers for those, and ``SearchAnswers`` answers for every position, from
the book where it holds it and by search elsewhere (``analyze --db`` on 7 x 6 uses both).

Precondition: the game has compiled rules with a ``plies(words, score)`` function (the plies
to the end under perfect play, perfectplay's remoteness) and scores whose sign is the value:
positive WIN, negative LOSS, 0 TIE (Connect Four's). Building is a long job: run it once.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .answers import Answers
from .errors import SolverChoiceError
from .rules import Rules
from .solvers.compiled_search import CompiledSearch, compiled_rules_of
from .tablebase.write import save_arrays
from .values import Value


@dataclass(frozen=True)
class BookSummary:
    """What a book build did: positions solved, their nodes, the time it took."""

    positions: int
    nodes: int
    seconds: float


def positions_up_to(rules: Rules[Any, Any], depth: int) -> list[list[Any]]:
    """The positions reached in 0..depth plies from the start, one list per ply, each
    position once (by key), in the order first met."""
    seen = {rules.key_of(rules.initial_state())}
    levels = [[rules.initial_state()]]
    for _ in range(depth):
        level = []
        for state in levels[-1]:
            for move in rules.legal_moves(state):
                child = rules.play(state, move)
                key = rules.key_of(child)
                if key not in seen:
                    seen.add(key)
                    level.append(child)
        levels.append(level)
    return levels


def build_book(
    rules: Rules[Any, Any],
    directory: Path,
    depth: int,
    *,
    log_size: int = 24,
    report: Callable[[str], None] | None = None,
) -> BookSummary:
    """Solve every position of the first ``depth`` plies and save them as a tablebase.

    The deepest positions are solved first, on one table kept throughout: their work is
    reused by the shallower ones above them. Each position's score is appended, as soon as
    it is known, to a journal beside the directory (``journal_path``): a build stopped
    anywhere (Ctrl-C, kill -9) and run again skips the positions it holds. The journal is
    removed once the book is saved.
    """
    compiled = compiled_rules_of(rules)
    plies = getattr(compiled, "plies", None)  # the compiled rules' optional field
    if plies is None:
        raise SolverChoiceError(f"{rules.name}: a book needs compiled rules with plies()")
    started = time.perf_counter()
    search = CompiledSearch(compiled, log_size)
    levels = positions_up_to(rules, depth)
    states: list[Any] = []
    values: list[int] = []
    remoteness: list[int] = []
    journal = journal_path(directory)
    known = read_journal(journal)
    for ply in reversed(range(len(levels))):
        for state in levels[ply]:
            words = compiled.encode(state)
            key = _integer(rules.key_of(state))
            score = known.get(key)
            if score is None:
                score = int(search.score(words))
                _append(journal, key, score)
            states.append(state)
            values.append(int(Value.WIN if score > 0 else Value.LOSS if score < 0 else Value.TIE))
            remoteness.append(int(plies(words, score)))
            if report is not None:
                report(
                    f"ply {ply}: {len(states):,} positions solved, {search.nodes:,} nodes, "
                    f"{time.perf_counter() - started:,.0f} s"
                )
    save_arrays(
        rules,
        directory,
        states,
        np.array(values, dtype=np.int8),
        np.array(remoteness, dtype=np.int32),
        None,
        _integer(rules.key_of(rules.initial_state())),
    )
    journal.unlink(missing_ok=True)
    return BookSummary(len(states), search.nodes, time.perf_counter() - started)


def journal_path(directory: Path) -> Path:
    """The journal of a book being built into ``directory``: a line ``key score ok`` per
    position solved so far."""
    directory = Path(directory)
    return directory.with_name(directory.name + ".journal")


def read_journal(path: Path) -> dict[int, int]:
    """The scores a journal holds; a last line cut short by a kill (no ``ok``) is left out."""
    if not path.exists():
        return {}
    known = {}
    for line in path.read_text().splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2] == "ok" and all(p.lstrip("-").isdigit() for p in parts[:2]):
            known[int(parts[0])] = int(parts[1])
    return known


def _append(path: Path, key: int, score: int) -> None:
    """One position's score at the end of the journal, on disk before the next search."""
    import os

    with path.open("a") as handle:
        handle.write(f"{key} {score} ok\n")  # "ok": the line was written whole
        handle.flush()
        os.fsync(handle.fileno())


def _integer(key: object) -> int:
    if not isinstance(key, int):
        raise SolverChoiceError("a book needs integer keys")
    return key


def book_score(book: Answers[Any, Any], compiled: Any, state: Any) -> int | None:
    """The score of a position the book holds, or None: the score whose sign is the value
    and whose plies to the end are the remoteness (the inverse of ``plies``)."""
    found = book.lookup(state)
    if found is None:
        return None
    value, remoteness = found
    words = compiled.encode(state)
    if value == Value.TIE:
        return 0
    sign = 1 if value == Value.WIN else -1
    for size in range(1, max(-compiled.min_score, compiled.max_score) + 1):
        if compiled.plies(words, sign * size) == remoteness:
            return sign * size
    return None


class SearchAnswers(Answers[Any, Any]):
    """Answers for a game too large to solve: from an opening book where it holds the
    position, else by compiled search (value and remoteness from the score), remembered.

    What ``play`` needs on 7 x 6 Connect Four: instant near the start with a book, seconds
    or less from about 12 discs on, slow in between without one.
    """

    def __init__(self, rules: Rules[Any, Any], book: Answers[Any, Any] | None = None) -> None:
        self.rules = rules
        self.book = book
        self.compiled: Any = compiled_rules_of(rules)  # with the optional plies()
        if getattr(self.compiled, "plies", None) is None:
            raise SolverChoiceError(f"{rules.name}: answering by search needs plies()")
        self.search: CompiledSearch | None = None
        self._memo: dict[Any, tuple[Value, int]] = {}

    @property
    def initial(self) -> Any:
        return self.rules.initial_state()

    @property
    def scored(self) -> bool:
        return False

    def lookup(self, state: Any) -> tuple[Value, int] | None:
        key = self.rules.key_of(state)
        found = self._memo.get(key)
        if found is None:
            held = None if self.book is None else self.book.lookup(state)
            if held is not None and isinstance(held[0], Value) and held[1] is not None:
                found = (held[0], held[1])
            else:
                if self.search is None:
                    self.search = CompiledSearch(self.compiled)
                words = self.compiled.encode(state)
                score = self.search.score(words)
                value = Value.WIN if score > 0 else Value.LOSS if score < 0 else Value.TIE
                found = (value, int(self.compiled.plies(words, score)))
            self._memo[key] = found
        return found


SHIPPED = Path(__file__).resolve().parent / "books"
"""The books that ship in the package, a directory each."""


def shipped_book(rules: Rules[Any, Any]) -> Path | None:
    """The directory of the book shipped for this game and these parameters, or None. Only
    the header's game and parameters are read here; opening it checks the rest."""
    import json

    from .identity import identity_of

    mine = identity_of(rules)
    for header in sorted(SHIPPED.glob("*/header.json")):
        identity = json.loads(header.read_text()).get("identity", {})
        if (identity.get("game"), identity.get("parameters")) == (
            mine.get("game"),
            mine.get("parameters"),
        ):
            return header.parent
    return None
