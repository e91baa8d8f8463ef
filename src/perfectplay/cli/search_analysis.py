"""analyze by compiled search: one position's exact score and every move's, for games that
give compiled rules and are too large to solve strongly (7 x 6 Connect Four)."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.table import Table

from ..answers import Answers
from ..book import SearchAnswers, book_score, shipped_book
from ..errors import InterruptedSolve
from ..protocol import SCORE_ENDS
from ..rules import Rules
from ..solvers.compiled_search import (
    CompiledSearch,
    compiled_rules_of,
    log_size_within,
    principal_variation,
    through_move,
)
from ..tablebase.header import read_header
from ..tablebase.probes import ProbedAnswers, can_probe, holds_tier, open_for_probing
from ..tablebase.reader import open_tablebase_for
from .common import emit_json, index_space, no_solve_options, out, print_rows
from .progress import status_lines

DEFAULT_LOG_SIZE = 24
"""The search's table without --memory: 2**24 entries (84 MB for Connect Four)."""
PROCESS_BYTES = 300 * 2**20
"""What a search process takes besides its table (Python, numpy, numba's code), kept out
of --memory when sizing the table."""
TOO_LARGE = 10**10
"""Games whose tiers hold more slots than this are analysed by search under --method auto."""


def too_large_to_solve(rules: Rules[Any, Any]) -> bool:
    """Whether ``--method auto`` should search rather than solve: the game has compiled
    rules and its tiers (the only size known without exploring) exceed ``TOO_LARGE``."""
    if rules.compiled_rules is None:
        return False
    found = index_space(rules, TOO_LARGE + 1)
    return found is not None and found[0] > TOO_LARGE


@contextmanager
def answers_without_solving(
    rules: Rules[Any, Any], db: Path | None, max_states: int | None, memory: int | None
) -> Iterator[tuple[Answers[Any, Any] | None, str]]:
    """What play and explore answer from when no full solve is wanted, and its name: a
    tablebase (``--db``); an opening book, with the search beyond its plies; for a game too
    large to solve (7x6 Connect Four), the book shipped for it, or the search alone.
    (None, "") when the game is to be solved."""
    searched = too_large_to_solve(rules)
    if searched and db is None:
        db = shipped_book(rules)  # the book in the package, if there is one
    if db is None:
        yield (SearchAnswers(rules), "compiled search") if searched else (None, "")
        return
    no_solve_options("auto", max_states, memory)
    if can_probe(rules, read_header(db)):
        with open_for_probing(db, rules) as probed:
            if holds_tier(probed, rules.initial_state()):  # the whole game's
                yield probed, f"tablebase {db}"
            else:  # its later tiers: the search before them
                yield ProbedAnswers(rules, probed), f"tablebase {db}, searched before its tiers"
        return
    with open_tablebase_for(db, rules) as base:
        if base.header.book is not None:  # the first plies only: search beyond
            yield SearchAnswers(rules, base), f"book {db}, search beyond"
        else:
            yield (SearchAnswers(rules, base) if searched else base), f"tablebase {db}"


def analyze_by_search(
    rules: Rules[Any, Any],
    state: Any,
    history: list[str],
    as_json: bool,
    book: Answers[Any, Any] | None = None,
    search: CompiledSearch | None = None,
    zero: str = "tie",
    method: str = "compiled search",
    quiet: bool = False,
    log_size: int = DEFAULT_LOG_SIZE,
    proving: Proving | None = None,
    threads: int = 1,
) -> None:
    """Print (or emit as JSON) the position, its exact score and each move's, best first;
    the moves leading into the book (if any) are read from it, the others searched (by
    ``search`` when given: one that probes a tablebase, else one with a table of
    ``log_size``). ``zero``: what a 0 is called. Progress on stderr unless ``quiet``. ``proving``:
    where to write the score's proof tree too; ``threads``: a new search's."""
    started = time.perf_counter()
    if search is None:
        search = CompiledSearch(compiled_rules_of(rules), log_size, threads=threads)
    moves, from_book = _scored_moves(rules, state, search, book, quiet)
    # Negamax: the position's score is its best move's; only a finished game needs a search.
    score = moves[0][1] if moves else search.score(search.rules.encode(state))
    line, whole = _line(rules, state, search, moves, from_book, quiet)
    seconds = time.perf_counter() - started
    if proving is not None:
        proving.write(rules, state, history, search, score, quiet)
    report = _search_report(
        rules, state, history, search, moves, from_book, score, seconds, zero, (line, whole)
    )
    report["method"] = method
    if as_json:
        emit_json(report)
        return
    _print_search_report(report, rules, search, moves, seconds)


@dataclass(frozen=True)
class Proving:
    """Where to write a searched score's proof (``analyze --proof``), the position text
    the search started from (``--position``; None: the game's start), and the budget of
    its leaves' searches (``--proof-leaves``)."""

    path: Path
    start: str | None
    leaf_nodes: int = 0
    memory: int | None = None
    """The process's bound while the tree grows (``--memory``; None: 80% of what is free)."""

    def write(
        self,
        rules: Rules[Any, Any],
        state: Any,
        history: list[str],
        search: CompiledSearch,
        score: int,
        quiet: bool,
    ) -> None:
        """Write the proof, its progress on stderr (Ctrl-C: no file, one line)."""
        from ..proof_search import write_proof

        made = [0]

        def work() -> None:
            write_proof(rules, state, history, search, score, self.path,
                        progress=lambda n: made.__setitem__(0, n),
                        start=self.start, leaf_nodes=self.leaf_nodes,
                        memory=self.memory)  # fmt: skip

        def line() -> str:
            return f"{made[0]:,} nodes of the tree expanded, {int(search.progress[0]):,} searched"

        stopped = f"interrupted while writing the proof {self.path}"
        _watched(f"proving {rules.name}", quiet, work, lambda: stopped, line)


PV_BUDGET = 10**6
"""Nodes the principal variation may take beyond the root's moves' own (at least this)."""


def _line(
    rules: Rules[Any, Any],
    state: Any,
    search: CompiledSearch,
    moves: list[tuple[Any, int]],
    from_book: list[Any],
    quiet: bool,
) -> tuple[list[Any], bool]:
    """The principal variation after the moves are scored: best moves on the warm table,
    within as many nodes again as the moves took (its first move alone when a book
    answered it: its line was never searched)."""
    if not moves:
        return [], True
    first = moves[0][0]
    if first in from_book:
        return [first], False
    budget = max(search.nodes, PV_BUDGET)
    found: list[tuple[list[Any], bool]] = [([first], False)]

    def work() -> None:
        found[0] = principal_variation(rules, state, first, search, budget)

    _watched(
        "the principal variation", quiet, work,
        lambda: f"interrupted while following {rules.name}'s best line",
        lambda: f"{int(search.progress[0]):,} nodes",
    )  # fmt: skip
    return found[0]


def _watched(
    label: str,
    quiet: bool,
    work: Callable[[], None],
    stopped: Callable[[], str],
    line: Callable[[], str],
) -> None:
    """``work`` run ``interruptible`` (Ctrl-C: ``stopped()``'s line), ``line()`` shown as
    its progress after ``label`` unless ``quiet``."""
    with status_lines(label, quiet=quiet) as say:
        interruptible(work, stopped, None if say is None else lambda: say(line()))


def search_log_size(rules: Rules[Any, Any], memory: int | None, threads: int = 1) -> int:
    """The table's ``log_size`` for a search on ``threads`` under ``--memory`` (the bytes
    the process may take, the table getting all but ``PROCESS_BYTES``); DEFAULT_LOG_SIZE
    without."""
    if memory is None:
        return DEFAULT_LOG_SIZE
    return log_size_within(compiled_rules_of(rules), memory - PROCESS_BYTES, threads)


def _scored_moves(
    rules: Rules[Any, Any],
    state: Any,
    search: CompiledSearch,
    book: Answers[Any, Any] | None,
    quiet: bool = False,
) -> tuple[list[tuple[Any, int]], list[Any]]:
    """Each move of ``state`` with its score, best first, and the moves the book answered;
    the others searched, with progress on stderr (Ctrl-C stops the search at once and
    says the bounds proven so far)."""
    encode = search.rules.encode
    watch = _Watch(rules, state, search)
    from_book: list[Any] = []

    def work() -> None:
        for move in watch.legal:
            child = rules.play(state, move)
            known = None if book is None else book_score(book, search.rules, child)
            if known is not None:
                from_book.append(move)
                watch.scored.append((move, -known))
                continue
            watch.searching = (move, child)
            found = search.score(encode(child))
            watch.scored.append((move, through_move(rules, state, move, child, found)))
        watch.searching = None

    _watched(f"searching {rules.name}", quiet, work, watch.stopped, watch.line)
    moves = sorted(watch.scored, key=lambda entry: -entry[1])
    return moves, from_book


class _Watch:
    """What a search of every move of a position has done, for its progress line and
    for Ctrl-C: the moves scored, the move being searched and its child's proven bounds
    (``CompiledSearch.progress``, written by the compiled search as it runs)."""

    def __init__(self, rules: Rules[Any, Any], state: Any, search: CompiledSearch) -> None:
        self.rules = rules
        self.state = state
        self.search = search
        self.legal = list(rules.legal_moves(state))
        self.scored: list[tuple[Any, int]] = []
        self.searching: tuple[Any, Any] | None = None
        self.started = time.perf_counter()
        self.fill = 0.0
        self.fill_at = 0.0

    def bounds(self) -> tuple[Any, int, int] | None:
        """The move being searched and the bounds on its score proven so far."""
        searching = self.searching
        if searching is None:
            return None
        move, child = searching
        lo, hi = int(self.search.progress[1]), int(self.search.progress[2])
        ends = sorted(
            through_move(self.rules, self.state, move, child, bound) for bound in (lo, hi)
        )
        return move, ends[0], ends[1]

    def line(self) -> str:
        """The progress line: the move, nodes and rate, its bounds, the table's fill."""
        now = time.perf_counter()
        if now - self.fill_at >= 5:  # (a pass over the table: not at every tick)
            self.fill, self.fill_at = self.search.table_fill(), now
        nodes = int(self.search.progress[0])
        rate = nodes / max(now - self.started, 1e-9)
        text = f"{len(self.scored)} of {len(self.legal)} moves scored"
        found = self.bounds()
        if found is not None:
            move, lo, hi = found
            text += f", searching {self.rules.format_move(move)}: {_range(lo, hi)}"
            text += f" after {int(self.search.progress[3])} windows"
        return f"{text}; {nodes:,} nodes, {rate / 1e6:,.2f} M/s, table {self.fill:.0%} full"

    def stopped(self) -> str:
        """What Ctrl-C says: the bounds proven so far on the position's score."""
        nodes = int(self.search.progress[0])
        text = f"interrupted while searching {self.rules.name} ({nodes:,} nodes)"
        found = self.bounds()
        floor = max([s for _, s in self.scored] + ([found[1]] if found else []), default=None)
        parts = []
        if floor is not None and floor > -SCORE_ENDS:  # (-inf: no bound yet)
            parts.append(f"the position scores at least {floor:+d}")
        if self.scored:
            scored = ", ".join(f"{self.rules.format_move(m)} {s:+d}" for m, s in self.scored)
            parts.append(f"moves scored: {scored}")
        if found is not None:
            parts.append(f"{self.rules.format_move(found[0])}: {_range(found[1], found[2])}")
        return f"{text}: {'; '.join(parts)}" if parts else text


def _range(lo: int, hi: int) -> str:
    """Proven bounds on a score in words (the range's ends, +-inf in scored games, being
    no bound yet)."""
    if lo == hi:
        return f"exactly {lo:+d}"
    low, high = abs(lo) < SCORE_ENDS, abs(hi) < SCORE_ENDS
    if low and high:
        return f"between {lo:+d} and {hi:+d}"
    if low or high:
        return f"at least {lo:+d}" if low else f"at most {hi:+d}"
    return "no bound yet"


def _search_report(
    rules: Rules[Any, Any],
    state: Any,
    history: list[str],
    search: CompiledSearch,
    moves: list[tuple[Any, int]],
    from_book: list[Any],
    score: int,
    seconds: float,
    zero: str = "tie",
    line: tuple[list[Any], bool] = ([], False),
) -> dict[str, Any]:
    """The report on the position: the same fields as every analyze report (value,
    remoteness, moves...), and the search's own: its scores, what the book answered, its nodes."""
    encode = search.rules.encode
    best = [rules.format_move(m) for m, s in moves if s == score]
    plies = getattr(search.rules, "plies", None)

    def remoteness(words: tuple[int, ...], s: int) -> int | None:
        return None if plies is None else int(plies(words, s))

    here = encode(state)
    return {
        "game": rules.name,
        "method": "compiled search",
        "moves_played": history,
        "position": rules.show(state),
        "value": _value_of(score, zero, search.rules),
        "remoteness": remoteness(here, score),
        "best_moves": best,
        "principal_variation": [rules.format_move(m) for m in line[0]],
        "principal_variation_to_the_end": line[1],
        "moves": [
            {
                "move": rules.format_move(m),
                "value": _value_of(s, zero, search.rules),
                "remoteness": None
                if plies is None
                else remoteness(encode(rules.play(state, m)), -s) + 1,  # type: ignore[operator]
                "score": s,
            }
            for m, s in moves
        ],
        "stats": {"nodes": search.nodes, "seconds": round(seconds, 3)},
        "score": score,
        "from_book": [rules.format_move(m) for m in from_book],
        "nodes": search.nodes,
        "seconds": round(seconds, 3),
    }


def _print_search_report(
    report: dict[str, Any],
    rules: Rules[Any, Any],
    search: CompiledSearch,
    moves: list[tuple[Any, int]],
    seconds: float,
) -> None:
    """The report as text: the position, the score in words, and the table of moves."""
    out.print(report["position"], markup=False)
    out.print()
    print_rows(
        [
            ("game", rules.name),
            ("method", report["method"]),
            ("moves played", " ".join(report["moves_played"]) or "-"),
            ("score", _meaning(report["score"], search.rules, report["value"])),
            ("nodes", f"{search.nodes:,} in {seconds:.2f} s"),
            *([("from the book", " ".join(report["from_book"]))] if report["from_book"] else []),
            *([("best line", _best_line(report))] if report["principal_variation"] else []),
        ]
    )
    if not moves:
        out.print("\nthe game is over: no moves")
        return
    best = report["best_moves"]
    table = Table(title="moves, best first")
    table.add_column("move")
    table.add_column("score", justify="right")
    for move, s in moves:
        text = rules.format_move(move)
        table.add_row(f"[bold]{text}[/bold] *" if text in best else text, f"{s:+d}" if s else "0")
    out.print(table)


def _best_line(report: dict[str, Any]) -> str:
    """The principal variation, and whether it reaches the end of the game."""
    line = " ".join(report["principal_variation"])
    return line + (" (the end)" if report["principal_variation_to_the_end"] else " ...")


def _value_of(score: int, zero: str = "tie", searched: Any = None) -> str | int | float:
    """The value a score stands for, as every analyze report names it (``zero``: what a
    0 stands for; a tablebase the search read may say draw); a scored game's score itself
    (its range's ends: -inf and +inf)."""
    if searched is not None and searched.max_score >= SCORE_ENDS:
        return score if abs(score) < SCORE_ENDS else math.copysign(math.inf, score)
    return "win" if score > 0 else "loss" if score < 0 else zero


def _meaning(score: int, searched: Any, value: str = "draw") -> str:
    """A score in words: who wins; for rules whose scores tell how soon (``plies``), the
    larger the sooner; a scored game's score as it is, its range's ends as -inf and +inf."""
    if score == 0:
        return f"0 (a {value})"
    who = "the player to move wins" if score > 0 else "the player to move loses"
    if abs(score) >= SCORE_ENDS and searched.max_score >= SCORE_ENDS:
        return f"{'+' if score > 0 else '-'}inf ({who}: a player left with no move)"
    if getattr(searched, "plies", None) is not None:
        return f"{score:+d} ({who}; the larger, the sooner)"
    return f"{score:+d} ({who})"


def interruptible(
    work: Callable[[], None],
    stopped: Callable[[], str],
    tick: Callable[[], None] | None = None,
) -> None:
    """Run ``work`` in a thread, so that Ctrl-C stops the command at once (with the error
    ``stopped()`` says): compiled code holds no GIL (nogil) but would only see the signal
    when it returns, maybe hours later. ``tick`` (progress) is called every 0.2 s."""
    failure: list[BaseException] = []

    def run() -> None:
        try:
            work()
        except BaseException as exc:  # handed to the main thread below
            failure.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.2)
            if tick is not None and worker.is_alive():
                tick()
    except KeyboardInterrupt:
        raise InterruptedSolve(stopped()) from None
    if failure:
        raise failure[0]
