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
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .answers import NO_STATE, Answers
from .errors import SolverChoiceError
from .protocol import SearchRules
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
    play_depth: int = 0,
    log_size: int = 24,
    report: Callable[[str], None] | None = None,
) -> BookSummary:
    """Solve every position of the first ``depth`` plies and save them as a tablebase;
    with ``play_depth`` > ``depth``, also the lines of play up to that ply (``_lines``).

    The deepest positions are solved first, on one table kept throughout: their work is
    reused by the shallower ones above them. Each position's score is appended, as soon as
    it is known, to a journal beside the directory (``journal_path``): a build stopped
    anywhere (Ctrl-C, kill -9) and run again skips the positions it holds. The journal is
    removed once the book is saved.
    """
    compiled = compiled_rules_of(rules)
    plies = getattr(compiled, "plies", None)  # the compiled rules' optional field
    if plies is None:
        raise SolverChoiceError(
            f"{rules.name}: a book needs to know how many plies a game can last (a compiled "
            "game's max_plies)"
        )
    started = time.perf_counter()
    search = CompiledSearch(compiled, log_size)
    levels = positions_up_to(rules, depth)
    journal = journal_path(directory)
    known = read_journal(journal)
    scored: dict[int, tuple[Any, int]] = {}  # key: (state, score), every position kept

    def note(ply: int) -> None:
        if report is not None:
            report(
                f"ply {ply}: {len(scored):,} positions solved, {search.nodes:,} nodes, "
                f"{time.perf_counter() - started:,.0f} s"
            )

    _score_levels(rules, search, levels, journal, known, scored, note)
    if play_depth > depth:
        _score_lines(rules, search, play_depth, journal, known, scored, note)
    book = {"depth": depth, "play_depth": max(play_depth, depth)}
    _save_book(rules, directory, scored, compiled, plies, book)
    journal.unlink(missing_ok=True)
    return BookSummary(len(scored), search.nodes, time.perf_counter() - started)


def _score_levels(
    rules: Rules[Any, Any],
    search: CompiledSearch,
    levels: list[list[Any]],
    journal: Path,
    known: dict[int, int],
    scored: dict[int, tuple[Any, int]],
    note: Callable[[int], None],
) -> None:
    """Score every position of ``levels`` into ``scored``, the deepest ply first (so the
    shallower reuse the search's table): from the journal where it holds them, else by
    search, each new score appended to the journal."""
    for ply in reversed(range(len(levels))):
        for state in levels[ply]:
            key = _integer(rules.key_of(state))
            score = known.get(key)
            if score is None:
                score = int(search.score(search.rules.encode(state)))
                _append(journal, key, score)
            scored[key] = (state, score)
            note(ply)


def _score_lines(
    rules: Rules[Any, Any],
    search: CompiledSearch,
    play_depth: int,
    journal: Path,
    known: dict[int, int],
    scored: dict[int, tuple[Any, int]],
    note: Callable[[int], None],
) -> None:
    """Score into ``scored`` the positions of the lines of play up to ``play_depth``
    (``_lines``) it does not hold yet, each new score appended to the journal."""
    answers = SearchAnswers(rules, journal=lambda key, score: _append(journal, key, score))
    answers.search = search
    answers.seed({key: score for key, (_, score) in scored.items()} | known)
    for state, ply in _lines(rules, answers, play_depth):
        key = _integer(rules.key_of(state))
        if key not in scored:
            scored[key] = (state, answers.exact_score(state))
            note(ply)


def _save_book(
    rules: Rules[Any, Any],
    directory: Path,
    scored: dict[int, tuple[Any, int]],
    compiled: SearchRules,
    plies: Callable[[Any, int], Any],
    book: dict[str, int],
) -> None:
    """Save the scored positions as a tablebase: each score's value (its sign) and
    remoteness (the compiled rules' plies), the header marked a book of these depths."""
    states: list[Any] = []
    values: list[int] = []
    remoteness: list[int] = []
    for state, score in scored.values():
        states.append(state)
        values.append(int(Value.WIN if score > 0 else Value.LOSS if score < 0 else Value.TIE))
        remoteness.append(int(plies(compiled.encode(state), score)))
    save_arrays(
        rules,
        directory,
        states,
        np.array(values, dtype=np.int8),
        np.array(remoteness, dtype=np.int32),
        None,
        _integer(rules.key_of(rules.initial_state())),
        book=book,
    )


def _lines(
    rules: Rules[Any, Any], answers: SearchAnswers, play_depth: int
) -> Iterator[tuple[Any, int]]:
    """The positions (with their plies) a game reaches in fewer than ``play_depth`` plies
    when one side plays ``answers.best_move`` and the other anything, for either side
    playing the best moves; the positions where the best mover is to move come with the
    child its best move leads to. Scored along the way (the best mover's positions by
    search, their chosen children from them), so a book holding them answers ``play``
    from its first move to ply ``play_depth`` without searching."""
    for best_side in (0, 1):
        frontier, seen = [rules.initial_state()], set()
        for ply in range(play_depth):
            after = []
            for state in frontier:
                if rules.outcome(state) is not None or not rules.legal_moves(state):
                    continue
                yield state, ply
                if ply % 2 == best_side:
                    chosen = [answers.best_move(state)]
                else:
                    chosen = rules.legal_moves(state)
                for move in chosen:
                    child = rules.play(state, move)
                    if (key := rules.key_of(child)) not in seen:
                        seen.add(key)
                        after.append(child)
            if ply % 2 == best_side:  # the children chosen: scored, so the book holds them
                for child in after:
                    yield child, ply + 1
            frontier = after


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

    What ``play`` needs on 7 x 6 Connect Four: instant where the book holds the position
    and the child of a best move (``build_book`` with ``play_depth``), a second or less from
    about 8 discs on; in between, one exact search and a null-window search or a few.
    """

    def __init__(
        self,
        rules: Rules[Any, Any],
        book: Answers[Any, Any] | None = None,
        journal: Callable[[int, int], None] | None = None,
    ) -> None:
        self.rules = rules
        self.book = book
        self.journal = journal
        """Told (key, score) of every position scored by search, as soon as it is known."""
        self.compiled: Any = compiled_rules_of(rules)  # with the optional plies()
        if getattr(self.compiled, "plies", None) is None:
            raise SolverChoiceError(
                f"{rules.name}: answering by search needs to know how many plies a game can "
                "last (a compiled game's max_plies)"
            )
        self.search: CompiledSearch | None = None
        self._scores: dict[Any, int] = {}
        """The score of each position scored so far (searched, proven, or the book's)."""
        self._best_child: dict[Any, int] = {}
        """Per position searched, the search's key of the child its best move leads to,
        when the search proved it (``CompiledSearch.best_key``)."""

    @property
    def initial(self) -> Any:
        return self.rules.initial_state()

    @property
    def scored(self) -> bool:
        return False

    def lookup(self, state: Any) -> tuple[Value, int] | None:
        held = None if self.book is None else self.book.lookup(state)
        if held is not None and isinstance(held[0], Value) and held[1] is not None:
            return held[0], held[1]
        score = self.exact_score(state)
        value = Value.WIN if score > 0 else Value.LOSS if score < 0 else Value.TIE
        return value, int(self.compiled.plies(self.compiled.encode(state), score))

    def exact_score(self, state: Any) -> int:
        """The exact score of a position: known, the book's, or searched."""
        found = self._known_score(state)
        if found is None:
            search = self._searcher()
            found = search.score(self.compiled.encode(state))
            key = self.rules.key_of(state)
            self._remember(key, found)
            if search.best_key is not None:
                self._best_child[key] = search.best_key
        return found

    def best_move(self, state: Any = NO_STATE) -> Any:
        """A move of perfect play found by proving one child, not by valuing them all.

        With the position's score s known, a move whose child scores -s is best (no child
        scores less). It is, in this order: a child known at -s whose replies are all known
        (a book's line of play goes on through it: ``build_book`` with ``play_depth``); the
        child the search's best move led to; a child known at -s; the first move (in the
        game's order) whose child one null-window search on the warm table proves at most
        -s, usually far quicker than the child's exact score."""
        if state is NO_STATE:
            state = self.initial
        legal = self.rules.legal_moves(state)
        if not legal:
            return None
        score = self.exact_score(state)
        children = [(move, self.rules.play(state, move)) for move in legal]
        best = [(m, c) for m, c in children if self._known_score(c) == -score]
        for move, child in best:
            replies = [self.rules.play(child, m) for m in self.rules.legal_moves(child)]
            if all(self._known_score(reply) is not None for reply in replies):
                return move
        proven = self._best_child.get(self.rules.key_of(state))
        for move, child in children:
            if proven is not None and self._searcher().key(self.compiled.encode(child)) == proven:
                self._remember(self.rules.key_of(child), -score)
                return move
        if best:
            return best[0][0]
        for move, child in children:
            if self._known_score(child) is None and self._searcher().at_most(
                self.compiled.encode(child), -score
            ):
                self._remember(self.rules.key_of(child), -score)  # at most -s: exactly -s
                return move
        raise SolverChoiceError(
            f"{self.rules.name}: no move reaches the score {score} of this position; the "
            "compiled rules or the book disagree with the search"
        )

    def seed(self, scores: dict[Any, int]) -> None:
        """Take these positions' scores (by key) as known."""
        self._scores.update(scores)

    def _remember(self, key: Any, score: int) -> None:
        if self._scores.get(key) == score:
            return
        self._scores[key] = score
        if self.journal is not None:
            self.journal(key, score)

    def _known_score(self, state: Any) -> int | None:
        """The score of a position scored already or held by the book, else None."""
        key = self.rules.key_of(state)
        if key not in self._scores and self.book is not None:
            found = book_score(self.book, self.compiled, state)
            if found is not None:
                self._scores[key] = found
        return self._scores.get(key)

    def _searcher(self) -> CompiledSearch:
        if self.search is None:
            self.search = CompiledSearch(self.compiled)
        return self.search


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
