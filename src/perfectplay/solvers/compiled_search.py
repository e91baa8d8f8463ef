"""Compiled alpha-beta search: a position's exact score, run by numba end to end.

For games too large to solve strongly that give their rules as numba-compiled functions
(the ``compiled_rules`` hook). The search is specialised per game: numba compiles it once
per rules object, with the game's functions inlined. Games without compiled rules keep
``perfectplay.solvers.alphabeta``.

The compiled rules (``SearchRules``): a state is a row of ``words`` int64 in a stack
``s`` of ``max_plies + 1`` rows; row ``p + 1`` is a child of row ``p``. Scores are integers
in ``[min_score, max_score]`` for the player to move (negamax: a move that passes the
turn negates its child's score, one that keeps it, ``keeps``, does not; ``reward`` adds
the move's points). numba functions, called as:

- ``end(s, p) -> int``: the exact score of state ``p`` when known at once (the game is over,
  or decided by a rule the game knows), else ``NOT_OVER`` (-2**62). Called first on every
  state; may leave in the state's own words what ``bounds`` and ``moves`` need.
- ``bounds(s, p) -> (lo, hi)``: ``lo <= score <= hi`` for a state ``end`` did not decide.
- ``moves(s, p, out) -> n``: write the ``n`` moves of such a state to ``out[p, :n]``, the
  ones to try first first (``out`` has ``max_moves`` columns; the game may use the rest as
  scratch). They may leave out moves that cannot be better than the others. A state with
  no move scores its lower bound (normal play: the player who cannot move has lost).
- ``play(s, p, move)``: write the state after ``move`` into row ``p + 1``.
- ``key(s, p) -> int``: a key unique to the position, ``0 <= key < 2 ** key_bits``; for
  states wider than one key (``key_words``), a hash of the canonical words ``key`` leaves
  in the row, which the table keeps whole.

and ``encode(state) -> tuple of words`` (plain Python) turns a plain state into a row, and
``ident``, a hash of the compiled rules' code (empty: not cached), under which the search
compiled around them is kept in numba's disk cache. A game longer than ``max_plies`` stops
the search with a SolverChoiceError (one line). Compiled games give these rules themselves
(``CompiledGame.compiled_rules``: scores -1, 0, 1, or a scored game's own).
Optional: ``plies(words, score) -> int`` (plain Python), the plies to the end under perfect
play that a score stands for: opening books (``perfectplay.book``) need it; ``probe``,
``keeps``, ``reward`` and ``fail_soft`` (``SearchRules``' fields).

The search (Pascal Pons' scheme for Connect Four, written from its published description,
as a general engine):
- **Null-window narrowing** on the score (MTD-like): the root's score is bracketed by
  ``bounds`` and narrowed by searches with windows (med, med + 1), med tried near 0 first
  (half the bound on each side): short wins and losses settle in shallow searches first.
  This plays the part of iterative deepening (depth and score go together in Connect Four:
  a window near the extremes asks for a quick win, which a shallow tree proves), and every
  pass reuses the table of the previous ones.
- **Negamax alpha-beta**, on an explicit stack (no recursion: depth ``<= max_plies``).
- **A transposition table** of ``2 ** log_size`` entries or a few more, in pairs
  (``table_pairs``, the default; Connect Four's one entry an index, always replaced, as
  its C reference): a prime number of pairs, a key's pair ``key % pairs``. An entry
  holds one bound: an upper bound after a search that failed low, a lower bound after a
  cut, and the size of the subtree that proved it (the bits of its node count, a byte).
  A key sits in either entry of its pair: the first keeps the larger subtree, the second
  the latest (a bound that displaces the first entry moves that entry to the second).
  Large searches fill the table many times over; always replacing, they lost the bounds
  of the subtrees near the root, which cost the most to search again (6x6 Othello 4 plies
  in: 3.5 billion nodes with one entry an index, 1.2 billion in pairs, the same memory).
  An entry keeps the key modulo ``2 ** 32`` when ``key_bits`` is at most 32 plus the
  index's bits (``log_size - 1`` in pairs, else ``log_size``): the index and the kept
  bits then tell keys apart (Chinese remainders); else it keeps the whole key. Where the
  rules' ``tabled`` says no (positions near the end), the search neither looks the
  position up nor keeps it: searching it again costs less than its key.

Contract: the exact score, equal to plain negamax over every move; a best move; the nodes
searched (calls of the search on a state, counted like the C reference in ``bench/``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.parallel import on_threads
from ..core.specialised import fingerprint, jit_in_place, template_copy
from ..errors import SolverChoiceError
from ..protocol import NOT_OVER, SCORE_ENDS, Game, SearchRules
from ..rules import Rules

NO_TABLEBASE = np.zeros(1, dtype=np.int64)
"""The ``db`` of a search that probes no tablebase (the engine's own ``probe`` ignores it)."""


@dataclass(frozen=True)
class CompiledResult:
    """A position's exact score, one best move (None when the game is over), the cost."""

    score: int
    best_move: Any
    nodes: int
    seconds: float
    method: str = "compiled search"


@dataclass(frozen=True)
class MoveScore:
    """One move of a position and its exact score for the player making it."""

    move: Any
    score: int


@dataclass(frozen=True)
class TableLayout:
    """What a table entry holds for some rules at some ``log_size``: the kept key (the
    whole key, or its low 32 bits when the index and those bits tell keys apart, or the
    ``key_words`` canonical words of a wide state), the bound, the move that proved it."""

    wide_keys: bool
    key_words: int
    key_type: Any
    val_type: Any
    hint_type: Any
    table_moves: bool
    pairs: bool

    @staticmethod
    def of(rules: SearchRules, log_size: int) -> TableLayout:
        index_bits = log_size - 1 if rules.table_pairs else log_size
        wide = rules.key_bits > 32 + index_bits or rules.key_words > 0
        codes = 2 * (rules.max_score - rules.min_score + 1)
        return TableLayout(
            wide_keys=wide,
            key_words=max(1, rules.key_words),
            key_type=np.int64 if wide else np.uint32,
            val_type=np.int8 if codes < 128 else np.int16 if codes < 1 << 15 else np.int32,
            hint_type=np.uint8 if rules.max_moves < 256 else np.uint16,
            table_moves=rules.table_moves,
            pairs=rules.table_pairs,
        )

    def entry_bytes(self, threads: int = 1) -> int:
        """The bytes of one entry: its key, bound, move, the size of its subtree (a byte),
        and, in a table shared by threads, 8 more (the seal)."""
        move = np.dtype(self.hint_type).itemsize if self.table_moves else 0
        keys = self.key_words * np.dtype(self.key_type).itemsize
        seal = 8 if threads > 1 else 0
        work = 1 if self.pairs else 0
        return int(keys + np.dtype(self.val_type).itemsize + move + work + seal)


def table_entries(log_size: int, pairs: bool = True) -> int:
    """The entries of a table at ``log_size``: the least prime at least ``2 ** log_size``,
    or in ``pairs`` twice the least prime at least ``2 ** (log_size - 1)`` (odd, so the
    kept key bits and the pair's index are Chinese remainders)."""
    if pairs:
        return 2 * prime_at_least(1 << (log_size - 1))
    return prime_at_least(1 << log_size)


def prime_at_least(n: int) -> int:
    """The smallest prime >= n (trial division: n is a table size, 2**24 takes ms)."""
    candidate = max(2, n)
    while True:
        if all(candidate % d for d in range(2, int(candidate**0.5) + 1)):
            return candidate
        candidate += 1


@cache
def _engine(rules: Any, shared: bool = False) -> Any:
    """The compiled search of one game's rules: a copy of ``search_engine`` around them
    (its ``negamax``, ``key_after``, ``key_of`` and the root's steps), loaded
    from numba's disk cache when the rules have an ``ident`` (compiled once per game and
    kept), else compiled now. ``shared``: the copy whose threads share a table."""
    from . import search_engine

    ident = getattr(rules, "ident", "")
    settings = (rules.min_score, rules.max_score, rules.fail_soft, rules.key_words,
                rules.key_from, rules.table_moves, rules.keeps is not None,
                rules.reward is not None, rules.probe is not None,
                rules.fold is not None, rules.tabled is not None, rules.table_pairs,
                shared)  # fmt: skip
    made_for = f"{ident}|{settings}"  # (the module's globals: a copy compiled for each)
    name = f"perfectplay_search_{fingerprint(Path(search_engine.__file__).read_bytes(), made_for)}"
    module: Any = template_copy(Path(search_engine.__file__), name, "search", bool(ident))
    module.LOW = rules.min_score
    module.UPPERS = rules.max_score - rules.min_score + 1
    module.SOFT = rules.fail_soft
    for name in ("end", "bounds", "moves", "play", "key"):
        setattr(module, name, getattr(rules, name))
    made = []
    for name in ("probe", "keeps", "reward", "fold", "tabled"):  # optional: else the template's
        given = getattr(rules, name)
        if given is None:
            made.append(name)
        else:
            setattr(module, name, given)
    module.KEY_WORDS = rules.key_words
    module.KEY_FROM = rules.key_from
    module.TABLE_MOVES = rules.table_moves
    module.SHARED = shared
    module.FOLD = rules.fold is not None
    module.PAIRS = rules.table_pairs
    made += ["table_key", "held", "hold", "seal", "index_of", "log_work", "move_entry", "keep",
             "reverse_after_first", "first_hint", "hint_of", "child_end", "descend", "half",
             "negamax", "known_at_root", "root_bounds", "next_window", "key_after",
             "key_of"]  # callees first  # fmt: skip
    module.TURNS = rules.keeps is not None
    module.REWARDS = rules.reward is not None
    # Once a node or a move: inlined (the template's probe, keeps and reward then fold
    # away), as the rules' own calls are not.
    # (The table's helpers, held, hold, first_hint and hint_of, and child_end are left to
    # LLVM: inlined by numba too, Connect Four's search no longer compiled: RecursionError
    # in numba's control-flow analysis.)
    inlined = ("descend", "probe", "keeps", "reward", "fold", "tabled", "table_key")
    jit_in_place(module, tuple(made), cache=bool(ident), inline=inlined)
    return module


@dataclass
class Lane:
    """One thread's rows of the search: the states ``s``, their moves ``out``, the
    explicit stack (the table is shared)."""

    s: npt.NDArray[np.int64]
    out: npt.NDArray[np.int64]
    stack: npt.NDArray[np.int64]

    @staticmethod
    def of(rules: SearchRules) -> Lane:
        rows = rules.max_plies + 2
        return Lane(
            s=np.zeros((rows, rules.words), dtype=np.int64),
            out=np.zeros((rows, rules.max_moves), dtype=np.int64),
            stack=np.zeros((rows, 11), dtype=np.int64),
        )


def parallel(search: CompiledSearch, med: int) -> tuple[int, int, bool, int]:
    """One window (med, med + 1) searched from row 0 by every lane of ``search`` at once,
    on the one table: the first lane plays the game's order, the others the helper's
    (``search_engine.HELPER_ROWS``), so they part at the first rows and each leaves its
    subtrees' bounds for the others. The first to finish answers and halts the rest;
    every entry a lane reads is checked against its seal, so a torn entry is never
    trusted. The nodes of every lane are counted. Daemon threads: Ctrl-C leaves at once."""
    search.halt[0] = 0
    results: list[Any] = [None] * len(search.lanes)

    def run(i: int) -> None:
        lane = search.lanes[i]
        try:
            results[i] = search.engine.negamax(
                lane.s, med, med + 1, search.keys, search.vals, search.hints, search.works,
                search.key_mask, lane.out, lane.stack, search.db, search.progress,
                search.checks, search.halt, i > 0,
            )  # fmt: skip
        except BaseException:  # (the others stop too; on_threads raises it)
            search.halt[0] = 1
            raise

    on_threads(len(results), run)
    nodes = sum(int(found[1]) for found in results)
    answer = next(found for found in results if found[0] != NOT_OVER)
    return int(answer[0]), nodes, bool(answer[2]), int(answer[3])


class CompiledSearch:
    """The compiled search of one game with its transposition table (kept across calls).

    ``log_size`` sets the table: ``2 ** log_size`` entries or a few more
    (``table_entries``), in pairs unless the rules say not (``table_pairs``), 5 to 10
    bytes each, or 8 a word kept and 1 to 5 for wide states (24: 16.8 million entries,
    84 MB for Connect Four; pages are zeroed lazily by the system, so a small search
    touches little of it). ``threads`` > 1: that many threads search each window on one
    table (8 bytes an entry more, its seal), the first to finish giving the answer
    (``parallel``); games whose moves keep the turn or earn points search on one.
    """

    def __init__(
        self, rules: SearchRules, log_size: int = 24, db: Any = None, threads: int = 1
    ) -> None:
        self.rules = rules
        self.db: Any = NO_TABLEBASE if db is None else db
        """What the rules' ``probe`` reads (a tablebase's records and ranking, as arrays)."""
        self.size = table_entries(log_size, rules.table_pairs)
        self.layout = TableLayout.of(rules, log_size)
        self.key_mask = -1 if self.layout.wide_keys else 0xFFFFFFFF
        simple = rules.keeps is None and rules.reward is None
        self.threads = max(1, threads) if simple else 1
        compiled: Any = rules  # a NamedTuple: hashable, one engine per rules object
        self.engine = _engine(compiled, self.threads > 1)
        self.best_key: int | None = None
        """After ``score``: the key of the child a best move leads to, when the search met it."""
        self.lanes = [Lane.of(rules) for _ in range(self.threads)]
        self.s = self.lanes[0].s
        self.halt = np.zeros(1, dtype=np.int64)
        self.nodes = 0
        self.progress = np.zeros(4, dtype=np.int64)
        """Read by another thread while a search runs: [0] the nodes so far (``nodes`` and
        the running search's, to ``PROGRESS_EVERY``; threads add to it unlocked, so a
        count may be lost: the display's only), [1] and [2] the bounds the running
        score's narrowing has proven, [3] its windows searched."""
        self.clear()

    def clear(self) -> None:
        """Empty the table (fresh zeroed pages: cheap until touched)."""
        layout = self.layout
        self.keys: npt.NDArray[Any] = np.zeros(self.size * layout.key_words, layout.key_type)
        self.vals: npt.NDArray[Any] = np.zeros(self.size, dtype=layout.val_type)
        self.hints: npt.NDArray[Any] = np.zeros(
            self.size if layout.table_moves else 1, dtype=layout.hint_type
        )
        self.checks = np.zeros(self.size if self.threads > 1 else 1, dtype=np.int64)
        self.works = np.zeros(self.size if layout.pairs else 1, dtype=np.uint8)
        """Each entry's subtree: the bits of the nodes searched under it."""

    def table_fill(self) -> float:
        """The share of the table's entries in use (a pass over it: ms for millions)."""
        return float(np.count_nonzero(self.vals)) / self.size

    def _load(self, words: tuple[int, ...]) -> None:
        if len(words) != self.rules.words:
            raise ValueError(f"encode() gave {len(words)} words, the rules say {self.rules.words}")
        for lane in self.lanes:
            lane.s[0, :] = words

    def score(self, words: tuple[int, ...]) -> int:
        """The exact score of an encoded state (nodes added to ``self.nodes``)."""
        self._load(words)
        self.progress[:] = (self.nodes, self.rules.min_score, self.rules.max_score, 0)
        try:
            found = self._narrowed()
        except ValueError as exc:
            raise self._refusal(exc) from None
        value, nodes, known, move = found
        self.nodes += int(nodes)
        self.progress[0] = self.nodes
        # (A hash of wide states may be shared: their best move is then proven afresh.)
        unique = self.rules.key_words == 0
        self.best_key = (
            int(self.engine.key_after(self.s, move, self.db)) if known and unique else None
        )
        return int(value)

    def key(self, words: tuple[int, ...]) -> int:
        """The key of an encoded state."""
        self._load(words)
        return int(self.engine.key_of(self.s, self.db))

    def at_most(self, words: tuple[int, ...], bound: int) -> bool:
        """Whether an encoded state's score is <= bound (one null-window search)."""
        self._load(words)
        self.progress[0] = self.nodes
        try:
            first, nodes, _, _ = self._window(bound)
        except ValueError as exc:
            raise self._refusal(exc) from None
        self.nodes += int(nodes)
        self.progress[0] = self.nodes
        return bool(first <= bound)

    def _narrowed(self) -> tuple[int, int, bool, int]:
        """Row 0's exact score by null windows narrowing its bounds (``next_window``, one
        ``_window`` each): (score, nodes, whether a best root move is known, that move).
        The first window asks whether the mover avoids a loss (score >= 0: where every
        score is even, as on a 6x6 Othello board, a loss is then one window nearer, 9%
        fewer nodes along Feinstein's line). ``progress[1:4]``: the bounds proven so far
        and the windows searched, as each ends."""
        engine = self.engine
        first = engine.known_at_root(self.s, self.db)
        if first != NOT_OVER:
            return int(first), 1, False, 0
        lo, hi = engine.root_bounds(self.s)
        nodes, known, best, guess, passes = 0, False, 0, -1, 0  # (guess -1: is it >= 0?)
        while lo < hi:
            self.progress[1:4] = (lo, hi, passes)
            med = int(engine.next_window(lo, hi, guess, passes))
            r, n, cut, move = self._window(med)
            nodes += n
            passes += 1
            if r <= med:
                hi, guess = r, r - 1
            else:  # the root move that cut scores >= r, the final lower bound
                lo, guess, known, best = r, r, cut, move
        self.progress[1:4] = (lo, hi, passes)
        return lo, nodes, known, best

    def _window(self, med: int) -> tuple[int, int, bool, int]:
        """One search of row 0 with the window (med, med + 1): (score, nodes, whether a
        root move cut, that move)."""
        if self.threads == 1:
            lane = self.lanes[0]
            r, n, cut, move = self.engine.negamax(
                lane.s, med, med + 1, self.keys, self.vals, self.hints, self.works, self.key_mask,
                lane.out, lane.stack, self.db, self.progress, self.checks, self.halt, False,
            )  # fmt: skip
            return int(r), int(n), bool(cut), int(move)
        return parallel(self, med)

    def _refusal(self, exc: ValueError) -> Exception:
        """What the compiled code's ValueError means, in one line (SolverChoiceError): a
        line longer than max_plies (a game longer than it says, or one whose positions
        repeat: the search follows no repetition, and stops rather than guess), a score
        the search cannot hold; any other error as it is."""
        text = str(exc)
        if "longer than max_plies" in text:
            return SolverChoiceError(
                f"the search met a line longer than max_plies ({self.rules.max_plies}): the "
                "game lasts longer than it says, or its positions repeat, which the search "
                "cannot follow; solve it whole (perfectplay solve) instead"
            )
        if "whole-number scores" in text or "beyond the search's range" in text:
            return SolverChoiceError(
                f"{text.removeprefix('compiled rules: ')}: solve the game whole instead"
            )
        return exc


TABLE_FLOOR = 10
"""The least table a memory bound leaves the search: 2**10 entries."""


def entry_bytes(rules: SearchRules, log_size: int, threads: int = 1) -> int:
    """The bytes of one table entry for ``rules`` at ``log_size`` on ``threads``
    (``TableLayout``)."""
    return TableLayout.of(rules, log_size).entry_bytes(threads)


def log_size_within(rules: SearchRules, table_bytes: int, threads: int = 1) -> int:
    """The largest ``log_size`` whose table (on ``threads``) fits in ``table_bytes`` (its
    entries, ``table_entries``, a few over 2**log_size: far below a byte per million);
    SolverChoiceError when not even 2**TABLE_FLOOR entries fit."""
    for log_size in range(40, TABLE_FLOOR - 1, -1):
        if (
            table_entries(log_size, rules.table_pairs) * entry_bytes(rules, log_size, threads)
            <= table_bytes
        ):
            return log_size
    least = (1 << TABLE_FLOOR) * entry_bytes(rules, TABLE_FLOOR, threads)
    raise SolverChoiceError(
        f"the search's table needs at least {least:,} bytes; the memory bound leaves it "
        f"{max(table_bytes, 0):,}: give more --memory"
    )


def compiled_rules_of(rules: Rules[Any, Any]) -> SearchRules:
    """The game's compiled rules; SolverChoiceError when it has none (for these parameters)."""
    found = None if rules.compiled_rules is None else rules.compiled_rules()
    if found is None:
        raise SolverChoiceError(f"{rules.name} cannot be searched: {why_not_searched(rules)}")
    return found  # type: ignore[no-any-return]


def why_not_searched(rules: Rules[Any, Any]) -> str:
    """What keeps a game from the compiled search, and what to do, in words."""
    if not rules.compiled_form:
        if rules.compiled_rules is not None:
            return "its compiled rules serve no search for these parameters"
        return (
            "the search runs on compiled rules: write the game in the compiled form "
            "(docs/tutorial/compiled-games.md) with a method max_plies(self) -> int"
        )
    return "add a method max_plies(self) -> int, the most plies a game of it can last"


def move_terms(rules: Rules[Any, Any], state: Any, move: Any, child: Any) -> tuple[bool, int]:
    """How ``move``'s child's score counts for the mover of ``state``: whether the move keeps
    the turn (the score kept, else negated) and the points it earns."""
    kept = not rules.mover_changes(state, child)
    return kept, 0 if rules.reward is None else int(rules.reward(state, move))


def through_move(rules: Rules[Any, Any], state: Any, move: Any, child: Any, score: int) -> int:
    """The score of ``move`` for the mover of ``state``, given its child's score: the move's
    reward plus the child's score, negated unless the move keeps the turn; -inf and +inf
    (a range's ends) stay as they are."""
    kept, earned = move_terms(rules, state, move, child)
    return (score if kept else -score) + (0 if abs(score) >= SCORE_ENDS else earned)


def solve_position(
    game: Game[Any, Any],
    state: Any = None,
    *,
    log_size: int = 24,
    search: CompiledSearch | None = None,
) -> CompiledResult:
    """The exact score of ``state`` (default: the start) and a best move, by compiled search
    (see ``solve_position_for``)."""
    return solve_position_for(Rules(game), state, log_size=log_size, search=search)


def solve_position_for(
    rules: Rules[Any, Any],
    state: Any = None,
    *,
    log_size: int = 24,
    search: CompiledSearch | None = None,
) -> CompiledResult:
    """``solve_position`` of a game read already (its ``Rules``).

    The best move is the root move that proved the final lower bound in the search, when
    there is one; else the first legal move (in the game's order) whose child is proven to
    score minus the position's score, by one null-window search each on the warm table.
    """
    if state is None:
        state = rules.initial_state()
    if search is None:
        search = CompiledSearch(compiled_rules_of(rules), log_size)
    started = time.perf_counter()
    before = search.nodes
    encode = search.rules.encode
    score = search.score(encode(state))
    best = None
    legal = rules.legal_moves(state)
    if search.best_key is not None:
        wanted = search.best_key
        best = next((m for m in legal if search.key(encode(rules.play(state, m))) == wanted), None)
    if best is None:
        for move in legal:
            child = rules.play(state, move)
            # The move is best when its child's score, through the move, reaches the score.
            kept, earned = move_terms(rules, state, move, child)
            if kept and not search.at_most(encode(child), score - earned - 1):
                best = move
                break
            if not kept and search.at_most(encode(child), earned - score):
                best = move
                break
    return CompiledResult(
        score=score,
        best_move=best,
        nodes=search.nodes - before,
        seconds=time.perf_counter() - started,
    )


def score_moves(
    game: Game[Any, Any],
    state: Any,
    *,
    log_size: int = 24,
    search: CompiledSearch | None = None,
) -> list[MoveScore]:
    """Every legal move of ``state`` with its exact score, best first (ties: game order).

    One search per move on a shared table, so later moves reuse earlier work.
    """
    return score_moves_for(Rules(game), state, log_size=log_size, search=search)


def score_moves_for(
    rules: Rules[Any, Any],
    state: Any,
    *,
    log_size: int = 24,
    search: CompiledSearch | None = None,
) -> list[MoveScore]:
    """``score_moves`` of a game read already (its ``Rules``)."""
    if search is None:
        search = CompiledSearch(compiled_rules_of(rules), log_size)
    encode = search.rules.encode
    scored = []
    for move in rules.legal_moves(state):
        child = rules.play(state, move)
        found = search.score(encode(child))
        scored.append(MoveScore(move, through_move(rules, state, move, child, found)))
    return sorted(scored, key=lambda entry: -entry.score)


def principal_variation(
    rules: Rules[Any, Any],
    state: Any,
    first: Any,
    search: CompiledSearch,
    node_budget: int,
    max_plies: int = 1000,
) -> tuple[list[Any], bool]:
    """A line of best moves from ``state``, starting with ``first`` (a best move found),
    each next one found by ``solve_position`` on the warm table; and whether it reaches
    the end of the game. It stops early once the searches for it have taken
    ``node_budget`` nodes (a count, not a time: the same line on every run), and where a
    position comes back (a draw that goes round: the line would repeat itself)."""
    line = [first]
    state = rules.play(state, first)
    seen = {rules.key_of(state)}
    spent = 0
    while len(line) < max_plies and spent < node_budget:
        if not rules.legal_moves(state):
            return line, True
        found = solve_position_for(rules, state, search=search)
        spent += found.nodes
        if found.best_move is None:
            return line, True
        line.append(found.best_move)
        state = rules.play(state, found.best_move)
        key = rules.key_of(state)
        if key in seen:
            return line, False
        seen.add(key)
    return line, not rules.legal_moves(state)
