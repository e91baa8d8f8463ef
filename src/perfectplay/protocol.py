"""The game protocol: what a user writes, and every hook perfectplay reads, in one table.

A game is any object with four methods::

    initial() -> state
    moves(state) -> iterable of moves
    play(state, move) -> state
    outcome(state) -> None | WIN | LOSS | TIE | number

``outcome`` speaks for the player to move; None means the game goes on. A state with no
moves and no outcome is a loss for the player to move (normal play). States (or their
keys) must be hashable.

Two typed groups make a game fast: ``speed()`` returns a ``BatchRules`` (the batch
protocol: the rules over arrays of integer codes) and ``tiers()`` a ``TierRules`` (the tier
protocol below); each field says what it is and what happens without it, and the
constructor enforces the required ones.

A game may write its array functions as kernels (``perfectplay.core.compiled.kernel``): loops over
integer arrays in numba's subset of Python, run interpreted on small inputs and compiled
on large ones; a small kernel called per element by others is an ``inlined_kernel``.

The tier protocol, for solving out of core: a tier is a set of positions with a dense index
0..tier_size(tier)-1, given by the game's own ranking (``batch_rank`` and its inverse
``batch_unrank``; an index that is no legal position unranks to -1). Every move from a
position of tier t leads into a tier that ``child_tiers(t)`` lists; t lists itself when
moves stay inside it (a loopy tier, solved by rounds), and the tiers form no other cycle.
The rules themselves come from the batch protocol. A game may also sweep a window of a tier
whose moves lead into at most one other tier in one loop of its own (``batch_mark_tier``,
``batch_solve_tier``), reading and writing records through the ``SweepCodes`` it is handed
(``perfectplay.core.records``), never their format.

``HOOKS`` lists every method and attribute perfectplay looks for, with what happens when a
game lacks it, in six groups: the four required methods; the rules (``to_move``,
``reward``, ``key``, ``partizan``: what play means beyond them); the game's kind (its
name, aliases, whether impartial or scored: one ``GameKind`` record); its presentation
(``show``, ``format_move``, ``parse_move``, ``parse_state``, ``draw_svg``,
``published_plies``: one ``Presentation`` record, for the front ends); speed (``speed()``,
and ``compiled_rules()`` for the compiled search); tiers (``tiers()``). The hooks of a
partizan game (``perfectplay.cgt``: Left's and Right's moves) are in the same table,
marked ``protocol="partizan"``. ``read_hooks`` reads either set from an object; two
adapters use it, ``perfectplay.rules.Rules`` for games and
``perfectplay.cgt.PartizanRules`` for partizan games, and nothing else looks at a user's
game.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Literal, NamedTuple, Protocol, TypeVar, runtime_checkable

import numpy as np
import numpy.typing as npt

from .values import GameValue

__all__ = [
    "GAME_HOOKS",
    "HOOKS",
    "NOT_OVER",
    "PARTIZAN_HOOKS",
    "BatchRules",
    "Codes",
    "EngineRanking",
    "Expansion",
    "Game",
    "GameKind",
    "Hook",
    "Presentation",
    "SearchRules",
    "StoneProbing",
    "TierRules",
    "name_of",
    "read_hooks",
]

S = TypeVar("S")
M = TypeVar("M")


NOT_OVER = -(1 << 62)
"""What a SearchRules' ``end`` returns when it does not know a state's score at once."""
SCORE_ENDS = 1 << 20
"""A scored compiled game's search takes scores in -SCORE_ENDS..SCORE_ENDS, the ends for
-inf and +inf (a mover left with no move has lost)."""


class SearchRules(NamedTuple):
    """What the ``compiled_rules`` hook returns: a game's rules for the compiled alpha-beta
    search (the contract is on ``perfectplay.solvers.compiled_search``'s page)."""

    words: int
    max_moves: int
    max_plies: int
    min_score: int
    max_score: int
    key_bits: int
    end: Any
    bounds: Any
    moves: Any
    play: Any
    key: Any
    encode: Callable[[Any], tuple[int, ...]]
    plies: Callable[[tuple[int, ...], int], int] | None = None
    """Plies to the end under perfect play of an encoded state with a given score, where
    scores tell it (opening books need it); None where they do not."""
    ident: str = ""
    """A hash of the compiled rules' code: the search compiled around them is kept in
    numba's disk cache under it; empty for rules that cannot be cached."""
    probe: Any = None
    """``probe(s, p, db) -> int``, optional: the exact score of state ``p`` read from a
    tablebase (``db``, what the search was given), else ``NOT_OVER``; asked after ``end``."""
    keeps: Any = None
    """``keeps(s, p) -> bool``, optional: whether the mover of row ``p`` moves again in row
    ``p + 1`` (after ``play``): an extra turn, whose child's score is not negated."""
    reward: Any = None
    """``reward(s, p, move) -> int``, optional: the points ``move`` earns row ``p``'s mover,
    added to the child's score (scored games whose moves collect points)."""
    fail_soft: bool = False
    """Whether the search fails soft (a null-window search that fails low returns the best
    score it met): for a wide range of scores, where halving the range would take many
    searches; Pons' fail-hard scheme (node counts as its C reference's) otherwise."""
    key_words: int = 0
    """0: ``key`` is unique to the position (the table keeps it). Else states wider than
    one key: ``key(s, p)`` leaves the position's canonical words in row p's columns
    ``key_from .. key_from + key_words - 1`` and returns their hash; the table keeps the
    words (``8 * key_words`` bytes an entry) and the hash only chooses the entry."""
    key_from: int = 0
    """The first column of those words (with ``key_words``)."""
    table_moves: bool = False
    """Whether the table keeps the move that proved a lower bound (1 or 2 bytes an entry
    more) and the search tries it first when it meets the position again."""
    fold: Any = None
    """``fold(s, p, db) -> int``, optional: row p's table key read through ``db``, in place
    of ``key`` (a game ranked by stones: the least of its images, by the tablebase's tables,
    so that a position and its images share an entry); unique like ``key``'s."""
    tabled: Any = None
    """``tabled(s, p) -> bool``, optional: whether the search keeps row p's position in its
    table (asked before ``key``); without it, every position. Near the end a position is
    searched faster than its key is made and looked up (6x6 Othello: twice as fast with no
    entry for 7 empty cells or fewer)."""
    table_pairs: bool = True
    """Whether the table's entries go in pairs, the first kept for the larger subtree
    (``perfectplay.solvers.compiled_search``); False: one entry an index, always replaced
    (the scheme of Connect Four's C reference, whose node counts the bench compares)."""


Codes = npt.NDArray[np.int64]
"""Integer state codes of the batch protocol: non-negative int64."""


@runtime_checkable
class Game(Protocol[S, M]):
    """What a user writes: a finite two-player game of perfect information."""

    def initial(self) -> S:
        """The starting state."""
        ...

    def moves(self, state: S) -> Iterable[M]:
        """The legal moves of a state that is not over."""
        ...

    def play(self, state: S, move: M) -> S:
        """The state after ``move``; must not change ``state``."""
        ...

    def outcome(self, state: S) -> GameValue | None:
        """None while the game goes on, else WIN / LOSS / TIE or a score for the mover."""
        ...


@dataclass(frozen=True)
class Expansion:
    """What ``batch_expand(codes)`` returns: the moves of a batch of states.

    ``parents[i]`` is the index (into the batch) of the state whose move leads to
    ``children[i]``; parents are non-decreasing. ``rewards`` (scored games) and
    ``same_mover`` (moves that give another turn) are per move, or None when the game has
    none.
    """

    parents: npt.NDArray[np.int64]
    children: Codes
    rewards: npt.NDArray[np.float64] | None = None
    same_mover: npt.NDArray[np.bool_] | None = None


def _part(signature: str, without: str) -> dict[str, str]:
    """A field's entry in the hook reference: its signature, and what happens without it."""
    return {"signature": signature, "without": without}


@dataclass(frozen=True)
class BatchRules:
    """What a game's ``speed()`` returns: the batch protocol, its rules over integer codes
    (``perfectplay.spaces.batch`` explores with them, the tier solver runs them). The two
    fields without a default are required; the constructor enforces them."""

    batch_outcome: Callable[[Codes], Any] = field(
        metadata=_part(
            "batch_outcome(codes) -> int8 codes 0/WIN/LOSS/TIE, or float scores with NaN",
            "(required)",
        )
    )
    batch_expand: Callable[[Codes], Expansion] = field(
        metadata=_part("batch_expand(codes) -> Expansion", "(required)")
    )
    batch_key: Callable[[Codes], Codes] | None = field(
        default=None,
        metadata=_part("batch_key(codes) -> canonical codes", "codes are their own canonical form"),
    )
    universe: int | None = field(
        default=None,
        metadata=_part(
            "universe: int (every state is a code below it)",
            "batch exploration goes level by level from the start",
        ),
    )
    from_code: Callable[[int], Any] | None = field(
        default=None,
        metadata=_part("from_code(code) -> state", "the codes are the plain states themselves"),
    )
    engine_loops: Callable[[bool], Any] | None = field(
        default=None,
        metadata=_part(
            "engine_loops(compiled) -> a CompiledGame's loops, compiled (True) or plain "
            "Python (False)",
            "check does not compare compiled and plain runs",
        ),
    )


@dataclass(frozen=True)
class TierRules:
    """What a game's ``tiers()`` returns: the tier protocol (see the module), for solving
    out of core. The five fields without a default are required; the constructor enforces
    them."""

    initial_tier: int = field(
        metadata=_part("initial_tier: int (the tier of the initial state)", "(required)")
    )
    child_tiers: Callable[[int], Iterable[int]] = field(
        metadata=_part(
            "child_tiers(tier) -> iterable of int (every tier one move can reach; itself if loopy)",
            "(required)",
        )
    )
    tier_size: Callable[[int], int] = field(
        metadata=_part("tier_size(tier) -> int (indices 0..size-1)", "(required)")
    )
    batch_rank: Callable[[int, Codes], Any] = field(
        metadata=_part(
            "batch_rank(tier, codes) -> int64 indices of the codes within the tier", "(required)"
        )
    )
    batch_unrank: Callable[[int, Any], Any] = field(
        metadata=_part(
            "batch_unrank(tier, indices) -> int64 codes, -1 where an index is no legal position",
            "(required)",
        )
    )
    batch_tier: Callable[[Codes], Any] | None = field(
        default=None,
        metadata=_part(
            "batch_tier(codes) -> int64 tiers of the codes",
            "every move of a tier leads to its only child tier",
        ),
    )
    batch_parents: Callable[[int, Codes], Expansion] | None = field(
        default=None,
        metadata=_part(
            "batch_parents(tier, codes) -> Expansion of un-moves: for each code, every "
            "position from which a move leads to it (or to another code of its key), at "
            "least once, as a code batch_rank ranks (those of other tiers, or with no index "
            "in the tier, are dropped by the solver, which tells each parent once)",
            "a loopy tier is solved by rounds (value iteration), one pass over it per round",
        ),
    )
    parents_in_tier: bool = field(
        default=False,
        metadata=_part(
            "parents_in_tier: bool (batch_parents lists only the parents in the tier asked: "
            "a compiled game's un-moves loop drops the others by its tier rule)",
            "the solver asks batch_tier of every parent and drops those of other tiers",
        ),
    )
    tier_index: Callable[[int], tuple[int, int]] | None = field(
        default=None,
        metadata=_part(
            "tier_index(code) -> (tier, index) of one code, for probing one position",
            "a probe calls batch_tier and batch_rank on one-element arrays (microseconds more)",
        ),
    )
    batch_answered_by: Callable[[int, Codes], Any] | None = field(
        default=None,
        metadata=_part(
            "batch_answered_by(tier, indices) -> int64 array: for each index, the index of "
            "the same tier whose record answers for it: itself; a twin that always holds the "
            "same record (its mirror image); or -1 where it is surely no position play "
            "reaches. compress fills the slots not answered by themselves with what "
            "compresses best, and a reader asks again before trusting a record",
            "compress keeps every slot as the solve wrote it",
        ),
    )
    batch_ranked_children: Callable[[int, Codes], Any] | None = field(
        default=None,
        metadata=_part(
            "batch_ranked_children(tier, codes) -> (parents, indices) of the moves of codes "
            "(that go on) of a tier whose moves all lead into one tier (another, or itself: "
            "a loopy tier alone), ranked there; or None to decline. It may add a third "
            "array, each child's end as batch_outcome gives it (int8): a loopy tier alone "
            "counts its moves while it is marked, as it does from the children's codes "
            "without this; given without the ends, the counting takes a pass of its own",
            "the tier solver expands the codes and ranks the children (two kernels, and the "
            "children's codes built in between)",
        ),
    )
    batch_expand_tier: Callable[[int, Codes], Any] | None = field(
        default=None,
        metadata=_part(
            "batch_expand_tier(tier, indices) -> (outcome, parents, child indices) of "
            "positions given by index in a tier whose moves all lead into one other tier: "
            "outcome codes as batch_outcome's (-1: no position), and the moves of those that "
            "go on, parents counting only those (the j-th that goes on is row j) and in "
            "order, ranked in the child tier; or None to decline",
            "the tier solver unranks, judges and expands in three passes (batch_unrank, "
            "batch_outcome, then batch_ranked_children or batch_expand)",
        ),
    )
    batch_mark_tier: Callable[[int, int, Any, Any, Any], int | None] | None = field(
        default=None,
        metadata=_part(
            "batch_mark_tier(tier, start, records, child_records, codes) -> positions "
            "visited, or None to decline: one pass over records[i] (index start + i) of a "
            "tier whose moves lead into at most one other tier; each position whose record "
            "is codes.reached (a SweepCodes) and has ended gets codes.ended[outcome], each "
            "that goes on writes codes.reached at its children's indices in child_records",
            "the tier solver marks by batch_expand_tier (or its three steps), in chunks",
        ),
    )
    batch_solve_tier: Callable[[int, int, Any, Any, Any], int | None] | None = field(
        default=None,
        metadata=_part(
            "batch_solve_tier(tier, start, records, child_records, codes) -> positions "
            "solved, a negative codes.record_of code where one failed, or None to decline: "
            "after batch_mark_tier, each position whose record is codes.reached gets "
            "codes.record_of[best + 1], best the largest codes.worth[child record] of its "
            "moves (-1 for none)",
            "the tier solver solves by batch_expand_tier (or its three steps), in chunks",
        ),
    )
    every_position: bool = field(
        default=False,
        metadata=_part(
            "every_position: bool (every index of every tier that batch_unrank maps to a "
            "code is a position to solve, whether play from the start reaches it or not: a "
            "database of positions, as the mid- and endgame of a game of stones)",
            "only the positions play reaches from the start are solved",
        ),
    )
    ranks_images_alike: bool = field(
        default=False,
        metadata=_part(
            "ranks_images_alike: bool (a tier's index stands for a position and its images "
            "under the board's symmetries: batch_unrank gives one of them, which ranks back "
            "to it; a compiled game ranked by its stones sets it)",
            "batch_unrank gives back the very code that was ranked",
        ),
    )
    batch_orbit_sizes: Callable[[int, Codes], Any] | None = field(
        default=None,
        metadata=_part(
            "batch_orbit_sizes(tier, codes) -> int64 count of each code's distinct images "
            "under the symmetries an index stands for (with ranks_images_alike), where "
            "batch_parents lists each (position, move) into the very code asked exactly once: "
            "a loopy tier solved in its records then counts moves weighted by orbits instead "
            "of ranking every child (a compiled game ranked by stones, without a key, gives "
            "it; its check holds the un-moves to that)",
            "a loopy tier solved in its records ranks every child to count each once",
        ),
    )
    batch_moves_out: Callable[[int, Codes], tuple[Any, Any, Any]] | None = field(
        default=None,
        metadata=_part(
            "batch_moves_out(tier, codes) -> (inside, rows, children): for codes of the tier "
            "that go on, each one's count of moves staying in the tier (int64, never listed) "
            "and the moves leaving it (the row of each one's code, its keyed child): the "
            "first pass of a loopy tier counted by orbits reads only these (a compiled game "
            "ranked by stones gives it)",
            "that first pass expands every move and asks batch_tier of every child",
        ),
    )
    probing: StoneProbing | None = field(
        default=None,
        metadata=_part(
            "probing: StoneProbing (how a compiled search reads a tablebase of these tiers "
            "at its leaves; a compiled game ranked by its stones gives itself)",
            "no search reads a tablebase of the game (analyze --db searches nothing)",
        ),
    )
    engine: EngineRanking | None = field(
        default=None,
        metadata=_part(
            "engine: EngineRanking (the engine's ranking of a compiled game's tiers, which "
            "owns it; perfectplay.compiled_games.engine_tiers)",
            "the tier solver marks what play reaches; a tablebase holds records only",
        ),
    )

    @property
    def ranked_by_engine(self) -> bool:
        """Every index is a position play reaches (the engine's ranking of its codes)."""
        return self.engine is not None


class StoneProbing(Protocol):
    """What a compiled search needs to read a tablebase at its leaves (``TierRules.probing``,
    ``perfectplay.tablebase.probes``): a compiled game ranked by its stones, whose
    ranking's tables the search's probe reads as arrays."""

    @property
    def scored(self) -> bool:
        """Whether the game ends in scores (a search reads a tablebase of values only)."""

    @property
    def stone_ranking(self) -> Any:
        """The ranking by stones (``compiled_games.stones.StoneRanking``)."""

    def checked_tier(self, code: Any) -> int:
        """The tier of one code (an int), or one line naming what is wrong with it."""

    def checked_parts(self, tier: int) -> tuple[tuple[int, int, int], ...]:
        """A tier's parts (the mover's stones, the opponent's, the rest), checked."""

    def search_rules(self, max_plies: int, probing: bool = False) -> SearchRules:
        """The compiled rules of a search ``max_plies`` deep, probing a tablebase if asked."""


class EngineRanking(Protocol):
    """The tiers of a compiled game ranked by the engine (``compiled_games.engine_tiers``):
    each tier's reachable codes, found once and kept sorted, a position's index its place
    among them; a tablebase keeps the codes beside the records."""

    @property
    def max_moves(self) -> int:
        """The most moves a position has."""

    def ranking(
        self,
        progress: Any = None,
        memory: Any = None,
        directory: Path | None = None,
        identity: dict[str, Any] | None = None,
    ) -> Any:
        """The ranking, found once (kept in ``directory`` when given, taken up there)."""

    def reading(self, ranking: Any) -> TierRules:
        """The same tiers answered from a ranking read from a tablebase."""

    def warm(self, work: int) -> None:
        """Load the loops work of this size runs, before it is timed or spread."""

    @property
    def lays_out_moves(self) -> bool:
        """Whether ``tier_moves`` serves the game (its ends are outcomes, not scores)."""

    @property
    def parents_lay_out_moves(self) -> bool:
        """Whether the tiers' ``batch_parents`` are the moves laid out and turned round (the
        game writes no un-moves): they cost as much memory as the tier's moves."""

    def tier_moves(self, tier: int, take_out: Callable[[Any], None]) -> Any:
        """(outcome, offsets, parents, pending): every move of a loopy tier laid out, the
        moves inside it backward, the moves out handed to take_out((rows, children, slots,
        same)) a part at a time (``tiers.retrograde_by_edges``)."""

    def rank_near(self, tier: int, codes: Any, slots: Any) -> Any:
        """``batch_rank`` of ``tier_moves``' children, each looked for first near the last
        child by the same move slot."""


HookGroup = Literal["required", "rules", "kind", "presentation", "speed", "tiers"]
HookProtocol = Literal["game", "partizan"]


@dataclass(frozen=True)
class GameKind:
    """What a game is, read once from its "kind" hooks by ``Rules`` (``rules.kind``): its
    name (else its class's), the other names the command line takes, whether both players
    have the same moves (Grundy values), and whether it ends in scores where it says so
    (None: the ends met tell)."""

    name: str
    aliases: tuple[str, ...] = ()
    impartial: bool = False
    scored: bool | None = None


@dataclass(frozen=True)
class Presentation(Generic[S, M]):
    """How people see a game: its "presentation" hooks as ``Rules`` read them
    (``rules.presentation``), each None where the game lacks it. The front ends (command
    line, explorer, notebook) read them, through ``Rules.show``, ``format_move``,
    ``parse_move`` and ``read_position`` where a failure must name the hook; no solver does.
    ``draw_svg`` is always called with the move that led to the position (None at the
    start), whichever form the game wrote."""

    show: Callable[[S], str] | None = None
    format_move: Callable[[M], str] | None = None
    parse_move: Callable[[str], M] | None = None
    parse_state: Callable[[str], S] | None = None
    draw_svg: Callable[[S, M | None], str] | None = None
    published_plies: Callable[[S], int] | None = None
    """The plies a published count adds past a position the rules end (Tanaka's Dobutsu
    counts the lion's capture)."""


@dataclass(frozen=True)
class Hook:
    """One method or attribute of a game that perfectplay reads."""

    name: str
    group: HookGroup
    signature: str
    without: str
    """What perfectplay does when a game lacks it."""
    method: bool = True
    """False for a plain attribute (a flag or a number)."""
    protocol: HookProtocol = "game"
    """"game": read by ``Rules`` from a game (win, lose, tie or score); "partizan": read by
    ``perfectplay.cgt`` from a partizan game (Left's and Right's moves, values that add)."""


_LISTED: tuple[Hook, ...] = (
    Hook("initial", "required", "initial() -> state", "not a game"),
    Hook("moves", "required", "moves(state) -> iterable of moves", "not a game"),
    Hook("play", "required", "play(state, move) -> state", "not a game"),
    Hook("outcome", "required", "outcome(state) -> None | WIN | LOSS | TIE | number", "not a game"),
    Hook(
        "to_move",
        "rules",
        "to_move(state) -> hashable label of the player to move",
        "every move passes the turn",
    ),
    Hook(
        "reward",
        "rules",
        "reward(state, move) -> points the mover collects (scored games)",
        "moves earn nothing; a scored game's value is its final score",
    ),
    Hook(
        "key",
        "rules",
        "key(state) -> canonical hashable form (symmetric states share one)",
        "the state is its own key",
    ),
    Hook("show", "presentation", "show(state) -> text", "str(state)"),
    Hook("format_move", "presentation", "format_move(move) -> text", "str(move)"),
    Hook(
        "parse_move",
        "presentation",
        "parse_move(text) -> move",
        "a move is read by matching the text format_move gives",
    ),
    Hook(
        "parse_state",
        "presentation",
        "parse_state(text) -> state",
        "positions are reached by moves only (analyze --moves)",
    ),
    Hook(
        "draw_svg",
        "presentation",
        "draw_svg(state, last=None) -> str: an <svg> of the position for the web explorer, "
        "last the move that led to it (the parameter may be left out); elements with "
        'data-move="MOVE" (a move as format_move gives it) become clickable, class "last" '
        "rings the last move (see perfectplay.drawing)",
        "the explorer draws the position as its show() text",
    ),
    Hook(
        "partizan",
        "rules",
        "partizan(state) -> (partizan game, its position, True when Left is to move); "
        "ValueError when the state is no such game (see perfectplay.cgt.games)",
        "no combinatorial values of positions (analyze --cgt)",
    ),
    Hook(
        "published_plies",
        "presentation",
        "published_plies(state) -> int: the plies a published count of the game adds past "
        "this position, where perfectplay's rules end it (Dobutsu shogi: 1 where the "
        "mover's capture of the lion is left to play, as Tanaka counts it)",
        "distances are given as perfectplay counts them only",
    ),
    Hook("name", "kind", "name: str", "the class name", method=False),
    Hook(
        "aliases",
        "kind",
        "aliases: tuple of other names the command line takes (built-in games)",
        "the name alone",
        method=False,
    ),
    Hook(
        "impartial",
        "kind",
        "impartial: bool (both players have the same moves, normal play)",
        "no Grundy values unless asked for",
        method=False,
    ),
    Hook(
        "scored",
        "kind",
        "scored: bool",
        "told by the ends met (only alpha-beta search can need it)",
        method=False,
    ),
    Hook(
        "speed",
        "speed",
        "speed() -> BatchRules: the batch protocol over integer codes, one typed group "
        "(its parts below)",
        "explored one state at a time through the plain methods",
    ),
    Hook(
        "compiled_rules",
        "speed",
        "compiled_rules() -> numba-compiled rules over int64 states, or None "
        "(see perfectplay.solvers.compiled_search)",
        "search runs in Python, one call of the game per node",
    ),
    Hook(
        "tiers",
        "tiers",
        "tiers() -> TierRules or None: the tier protocol, one typed group (its parts "
        "below; it needs speed() too)",
        "no tiered solving: solve and save explore the state graph in memory",
    ),
    # A partizan game (perfectplay.cgt): Left and Right have moves of their own, the player
    # who cannot move loses, and positions have values in combinatorial game theory.
    Hook(
        "left_moves",
        "required",
        "left_moves(state) -> iterable of Left's moves",
        "not a partizan game",
        protocol="partizan",
    ),
    Hook(
        "right_moves",
        "required",
        "right_moves(state) -> iterable of Right's moves",
        "not a partizan game",
        protocol="partizan",
    ),
    Hook(
        "play",
        "required",
        "play(state, move) -> the state after the move",
        "not a partizan game",
        protocol="partizan",
    ),
    Hook(
        "components",
        "rules",
        "components(state) -> independent parts (their values add up)",
        "each position is valued whole",
        protocol="partizan",
    ),
    Hook(
        "key",
        "rules",
        "key(state) -> hashable; positions with equal keys have equal values",
        "the state is its own key",
        protocol="partizan",
    ),
    Hook(
        "swap",
        "rules",
        "swap(state) -> the state with the players exchanged (its value negated)",
        "a position and its swap are valued apart",
        protocol="partizan",
    ),
    Hook(
        "initial",
        "presentation",
        "initial() -> the start position (command line)",
        "the command line needs --position",
        protocol="partizan",
    ),
    Hook(
        "parse_position",
        "presentation",
        "parse_position(text) -> state (the command line's --position)",
        "positions come from initial() only",
        protocol="partizan",
    ),
    Hook("show", "presentation", "show(state) -> text", "str(state)", protocol="partizan"),
    Hook("name", "kind", "name: str", "the class name", method=False, protocol="partizan"),
    Hook(
        "aliases",
        "kind",
        "aliases: tuple of other names the command line takes (built-in games)",
        "the name alone",
        method=False,
        protocol="partizan",
    ),
    Hook(
        "players",
        "kind",
        "players: (Left's name, Right's name), as reports name them (e.g. White, Black)",
        'reports say "Left" and "Right"',
        method=False,
        protocol="partizan",
    ),
)

_ORDER = ("required", "rules", "kind", "presentation", "speed", "tiers")
HOOKS: tuple[Hook, ...] = tuple(
    sorted(_LISTED, key=lambda h: (h.protocol != "game", _ORDER.index(h.group)))
)
"""Every hook, a game's first, then a partizan game's, each by group: required, rules (what
the game means beyond its four methods), kind (what it is: one ``GameKind``),
presentation (how people see it: one ``Presentation``, read by the front ends), speed,
tiers."""
GAME_HOOKS = tuple(h for h in HOOKS if h.protocol == "game")
"""The hooks of a game, read by ``Rules``."""
PARTIZAN_HOOKS = tuple(h for h in HOOKS if h.protocol == "partizan")
"""The hooks of a partizan game, read by ``perfectplay.cgt.PartizanRules``."""
REQUIRED_METHODS = tuple(h.name for h in GAME_HOOKS if h.group == "required")


def read_hooks(game: object, protocol: HookProtocol) -> dict[str, Any]:
    """Every hook of one protocol that ``game`` has, read once: callables for methods,
    values for attributes (a method that is not callable, or an attribute that is None,
    counts as absent)."""
    found: dict[str, Any] = {}
    for hook in HOOKS:
        if hook.protocol == protocol:
            value = getattr(game, hook.name, None)
            if callable(value) if hook.method else value is not None:
                found[hook.name] = value
    return found


def name_of(game: object) -> str:
    """A game's name as ``Rules`` gives it (its ``name``, else its class's), for a game
    or a game class, without reading its other hooks."""
    name = getattr(game, "name", None)
    return (
        name if isinstance(name, str) else (game if isinstance(game, type) else type(game)).__name__
    )


def hook_table(protocol: HookProtocol = "game") -> str:
    """One protocol's hooks as text, one a line: group, signature, what happens without."""
    return "\n".join(
        f"{h.group:<12} {h.signature}  [without: {h.without}]"
        for h in HOOKS
        if h.protocol == protocol
    )


def hook_summary() -> str:
    """Every hook's name by protocol and group, a line a group (for --help)."""
    lines = []
    for protocol in ("game", "partizan"):
        groups: dict[str, list[str]] = {}
        for h in HOOKS:
            if h.protocol == protocol:
                groups.setdefault(h.group, []).append(h.name)
        for group, names in groups.items():
            lines += textwrap.wrap(f"{protocol} {group}: {', '.join(names)}", width=88,
                                   subsequent_indent="    ")  # fmt: skip
    return "\n".join(lines)
