"""The compiled search with a tablebase at its leaves: a game searched from its start, its
later tiers read from a tablebase wherever the search reaches them.

What Gasser did for Nine Men's Morris (an 18-ply search of the opening over databases of
every position once all stones are placed), for any compiled game ranked by stones
(``stone_board``): ``ProbedSearch`` opens the tablebase, verifies every tier file it will
read (their SHA-256, before any answer), and lays out what the search's compiled probe
(``compiled_games.search_hooks.search_probe``) reads as arrays: each tier's slot, each
slot's records (mapped, not copied) and parts, the ranking's tables.

The tablebase may be the game's own, or one made by the same rules from another start (a
class that starts where the opening ends and solves every position, ``every_position``):
it is accepted when its parameters are this game's and the rules, played from the
tablebase's own start, behave as its fingerprint says.

How deep the search goes is found, not asked: from the position's tier, the longest chain
of tiers outside the tablebase (a game's ``child_tiers``). A tier outside it whose moves
stay in it could repeat positions, which the search cannot tell from a long game: refused.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..answers import Answers
from ..compiled_games.stones import ProbeTables
from ..core.compiled import read_only
from ..core.packed_records import DECODE, PackedRecords
from ..errors import SolverChoiceError, TablebaseError, TablebaseMismatch
from ..identity import fingerprint, identity_of
from ..protocol import SearchRules, StoneProbing
from ..rules import Rules
from ..solvers.compiled_search import CompiledSearch, log_size_within
from ..values import GameValue, Value
from .checked import CheckedRecords
from .header import Header, describe_mismatch, read_header
from .reader import Tablebase

MOST_PLIES = 4096
"""The deepest chain of tiers outside the tablebase a search takes (each a ply at least)."""


def open_for_probing(path: str | Path, rules: Rules[Any, Any]) -> Tablebase[Any, Any]:
    """The tablebase in ``path``, for ``rules``: the game's own, or one of the same rules
    and parameters made from another start (see the module docstring); else one line."""
    directory = Path(path)
    header = read_header(directory)
    ours = identity_of(rules)
    mismatch = describe_mismatch(header.identity, ours)
    if mismatch is None:
        return Tablebase(directory, rules, header)
    refused = f"{directory} cannot answer for {rules.name}: {mismatch}"
    made_with = header.identity.get("parameters")
    if made_with != ours["parameters"]:
        raise TablebaseMismatch(
            f"{directory} cannot answer for {rules.name}: it was made with parameters "
            f"{made_with}, not {ours['parameters']}"
        )
    tiers = rules.tiers
    if tiers is None:
        raise TablebaseMismatch(refused)
    tier, index = header.initial
    if tier not in header.tiers:
        raise TablebaseMismatch(refused)
    codes = tiers.batch_unrank(tier, np.array([index], dtype=np.int64))
    code = int(codes[0])
    if code < 0:
        raise TablebaseMismatch(refused)
    start = code if rules.from_code is None else rules.from_code(code)
    if fingerprint(rules.starting_at(start)) != header.identity.get("fingerprint"):
        raise TablebaseMismatch(
            f"{refused}; nor do the rules, played from its start, behave as when it was made"
        )
    return Tablebase(directory, rules, header)


def can_probe(rules: Rules[Any, Any], header: Header) -> bool:
    """Whether a search of ``rules`` may read the tablebase of ``header`` at its leaves: a
    tiered tablebase of values (not an opening book) of tiers a search can read
    (``TierRules.probing``: a compiled game ranked by stones)."""
    return (
        header.book is None
        and header.layout == "tiers"
        and rules.tiers is not None
        and rules.tiers.probing is not None
    )


def holds_tier(base: Tablebase[Any, Any], state: Any) -> bool:
    """Whether the tablebase holds the tier of ``state`` (then it answers, not the search)."""
    place = base.locate(state)
    return place is not None and place[0] in base.header.tiers


def _stone_game(rules: Rules[Any, Any]) -> StoneProbing:
    """How a search reads a tablebase of ``rules``' tiers, or SolverChoiceError."""
    probing = None if rules.tiers is None else rules.tiers.probing
    if probing is None:
        raise SolverChoiceError(
            f"{rules.name}: a search reads a tablebase at its leaves for compiled games "
            "ranked by their stones (stone_board, tier_parts, child_tiers)"
        )
    return probing


def plies_outside(
    rules: Rules[Any, Any], tier: int, solved: set[int], most: int = MOST_PLIES
) -> int:
    """The most plies a line of play from a position of ``tier`` takes before it reaches a
    tier in ``solved`` or ends: the longest chain of tiers outside ``solved``, each left at
    its first move. SolverChoiceError for a tier outside ``solved`` whose moves may stay in
    it (a line could repeat positions there) or a chain longer than ``most``."""
    tiers = rules.tiers
    assert tiers is not None
    longest: dict[int, int] = {}
    pending: list[tuple[int, bool]] = [(tier, False)]
    on_path: set[int] = set()
    while pending:  # depth first, without recursion: a tier's chain once its children's
        here, done = pending.pop()
        if done:
            on_path.discard(here)
            below = [longest.get(int(c), 0) for c in tiers.child_tiers(here) if c not in solved]
            longest[here] = 1 + max(below, default=0)
            if longest[here] > most:
                raise SolverChoiceError(
                    f"{rules.name}: more than {most} tiers lie between this position and the "
                    "tablebase's"
                )
            continue
        if here in longest:
            continue
        children = [int(c) for c in tiers.child_tiers(here) if tiers.tier_size(int(c)) > 0]
        if here in children:
            raise SolverChoiceError(
                f"{rules.name}: tier {here} is not in the tablebase and its moves may stay "
                "in it (positions could repeat), which the search cannot follow: solve that "
                "tier into the tablebase"
            )
        on_path.add(here)
        pending.append((here, True))
        for child in children:
            if child in on_path:
                raise SolverChoiceError(
                    f"{rules.name}: the tiers {here} and {child} lead to each other"
                )
            if child not in solved and child not in longest:
                pending.append((child, False))
    return longest[tier]


def probe_tables(base: Tablebase[Any, Any], game: StoneProbing) -> ProbeTables:
    """What ``search_probe`` reads (its ``db``), every tier file verified first."""
    import numba.typed

    header = base.header
    if header.compressed is not None:
        raise TablebaseError(
            f"{base.directory} is compressed: a search reads its records in place (keep an "
            "uncompressed copy, or solve again with --save)"
        )
    if header.scores is not None:
        raise TablebaseError(f"{base.directory} keeps scores; the search reads values")
    tiers = sorted(header.tiers)
    ranking = game.stone_ranking
    slot_of = np.full(max(tiers, default=0) + 1, -1, dtype=np.int64)
    records = numba.typed.List()
    part_from = [0]
    parts: list[tuple[int, int, int, int]] = []
    largest = 0
    packed = all(header.tiers[tier].packed for tier in tiers) and bool(tiers)
    for slot, tier in enumerate(tiers):
        slot_of[tier] = slot
        records.append(read_only(_held(base, tier, packed)))
        offset = 0
        for movers, others, rested in game.checked_parts(tier):
            parts.append((movers, others, rested, offset))
            offset += ranking.part_size(movers, others)
            largest = max(largest, movers)
        part_from.append(len(parts))
    columns = np.array(parts, dtype=np.int64).reshape(-1, 4)
    stack = ranking.stacked(largest)
    board = ranking.board
    mine, theirs, rest, offsets = (np.ascontiguousarray(columns[:, i]) for i in range(4))
    return ProbeTables(
        slot_of, records, np.array(part_from, dtype=np.int64), mine, theirs, rest, offsets,
        base.record.shift, DECODE if packed else np.zeros(0, dtype=np.uint16),
        board.cells, board.theirs_at, board.rest_at, ranking.binomials, ranking.byte_rank,
        ranking.images, stack.orbit, stack.symmetry, stack.least,
        stack.stabiliser, stack.set_at, stack.orbit_at,
    )  # fmt: skip


def _held(base: Tablebase[Any, Any], tier: int, packed: bool) -> Any:
    """A tier's records as the search reads them, every block's checksum verified: its
    bytes when every tier is ``packed``, else its records (a packed tier's decoded in
    memory, where the tablebase mixes both kinds)."""
    found = base.tier_records(tier)
    inner = found.codes if isinstance(found, PackedRecords) else found
    if isinstance(inner, CheckedRecords):
        _ = inner[0 : inner.shape[0]]  # every block's checksum, now
        inner = inner.records
    if isinstance(found, PackedRecords) and not packed:
        return np.asarray(found)  # (decoded whole; its blocks verified above)
    held = np.asarray(inner)
    return held if held.size else np.zeros(0, dtype=np.uint8 if packed else base.record.dtype)


class _ProbingSearch(CompiledSearch):
    """A ``CompiledSearch`` whose probe's refusal (a position the tablebase has no record
    of: one made from another start, which never reached it) is a one-line TablebaseError."""

    directory: Path = Path()

    def _refusal(self, exc: ValueError) -> Exception:
        if "tablebase has no" not in str(exc):
            return super()._refusal(exc)
        return TablebaseError(
            f"{self.directory}: {exc} (made from another start, it never reached it; "
            "a database of every position, every_position, has them all)"
        )


def zero_of(base: Tablebase[Any, Any]) -> str:
    """What a search's 0 stands for in the tablebase's words: "draw", "tie", or "tie or
    draw" when it holds both."""
    values = base.header.counts()["values"]
    drawn = values.get(str(int(Value.DRAW)), 0) > 0  # (counts keyed by value code)
    tied = values.get(str(int(Value.TIE)), 0) > 0
    return "tie or draw" if drawn and tied else "draw" if drawn else "tie"


class ProbedSearch:
    """The compiled search of ``rules`` from ``state`` and the positions after it, reading
    ``base`` at its leaves: ``search`` is a ``CompiledSearch`` (scores 1, 0, -1 for the
    mover), ``zero`` what its 0 stands for in the tablebase's words. ``tables``: the
    ``probe_tables`` of ``base`` already made (and verified) for an earlier search;
    ``threads``: the search's (``CompiledSearch``); ``table_bytes``: where given, the
    table is the largest of ``log_size``s that fits them (``log_size_within``: the depth is
    the tablebase's, which the game's own rules may not know)."""

    def __init__(
        self,
        rules: Rules[Any, Any],
        base: Tablebase[Any, Any],
        state: Any,
        log_size: int = 24,
        tables: ProbeTables | None = None,
        threads: int = 1,
        table_bytes: int | None = None,
    ) -> None:
        game = _stone_game(rules)
        if game.scored:
            raise SolverChoiceError(
                f"{rules.name}: a search reads a tablebase of values, not scores, at its leaves"
            )
        tier = game.checked_tier(rules.key_of(state))
        plies = plies_outside(rules, tier, set(base.header.tiers))
        found: SearchRules = game.search_rules(plies + 1, probing=True)
        if table_bytes is not None:
            log_size = log_size_within(found, table_bytes, threads)
        self.rules = rules
        self.base = base
        self.plies = plies
        """The most plies a line takes before it reaches the tablebase or ends."""
        self.zero = zero_of(base)
        if tables is None:
            tables = probe_tables(base, game)
        self.search = _ProbingSearch(found, log_size, tables, threads=threads)
        self.search.directory = base.directory


class ProbedAnswers(Answers[Any, Any]):
    """What ``play`` and ``explore`` ask, for a game whose later tiers are in a tablebase:
    read from it where it holds the position's tier, else by the search that probes it
    (the value alone: its remoteness is None, as the search does not count plies). Every
    score searched is kept."""

    def __init__(self, rules: Rules[Any, Any], base: Tablebase[Any, Any]) -> None:
        self.rules = rules
        self.base = base
        self._probed: ProbedSearch | None = None
        self._zero = zero_of(base)
        self._scores: dict[Any, int] = {}
        self._plies: dict[int, int] = {}
        """Per tier, the plies its positions' lines take before the tablebase's tiers."""

    @property
    def initial(self) -> Any:
        return self.rules.initial_state()

    @property
    def scored(self) -> bool:
        return False

    def lookup(self, state: Any) -> tuple[GameValue, int | None] | None:
        if holds_tier(self.base, state):
            return self.base.lookup(state)
        key = self.rules.key_of(state)
        score = self._scores.get(key)
        if score is None:  # (a score kept needs no search, however deep its position)
            probed = self._search_from(state)
            score = self._scores[key] = probed.search.score(probed.search.rules.encode(state))
        if score > 0:
            return Value.WIN, None
        if score < 0:
            return Value.LOSS, None
        if self._zero == "tie or draw":
            raise SolverChoiceError(
                f"{self.rules.name}: the search scores ties and draws alike (0), and the "
                "tablebase holds both: ask analyze, which says so"
            )
        return (Value.DRAW if self._zero == "draw" else Value.TIE), None

    def _search_from(self, state: Any) -> ProbedSearch:
        """The search, made again deeper when a position needs more plies than it has (its
        probe tables, verified once, kept)."""
        probed = self._probed
        if probed is not None:
            tier = _stone_game(self.rules).checked_tier(self.rules.key_of(state))
            plies = self._plies.get(tier)
            if plies is None:
                solved = set(self.base.header.tiers)
                plies = self._plies[tier] = plies_outside(self.rules, tier, solved)
            if plies <= probed.plies:
                return probed
        tables = None if probed is None else probed.search.db
        self._probed = ProbedSearch(self.rules, self.base, state, tables=tables)
        return self._probed
