"""The compiled game form: a game's rules written once, as functions over int64 states.

A user subclasses ``CompiledGame``, declares its parameters as annotated class attributes
(ints or bools, with defaults) and writes the rules as functions in numba's subset of
Python, each taking the parameters ``p`` (a tuple of ints, in declaration order) first::

    start(p) -> int                      the initial state
    moves(p, s, out) -> int              write the moves of s into out, return their count
    play(p, s, m) -> int                 the state after move m (s unchanged: ints are values)
    outcome(p, s) -> int                 ONGOING (0) or WIN / LOSS / TIE for the player to move
                                         (scored = True: a float score, or NaN while it goes on)
  optional:
    key(p, s) -> int                     a canonical code (symmetric states share one)
    tier(p, s) -> int                    never lowered by a move; moves may stay in a tier
    to_move(p, s) -> int                 who moves (a move keeping it gives another turn)
    reward(p, s, m) -> float             points the mover collects (scored games)
    unmoves(p, s, out) -> int            every state from which one move leads to s (or
                                         to a state of s's key), at least once (speeds up
                                         tiers with moves inside)
    exits(p, s, out) -> int              the moves of ``moves`` that leave s's tier, and
    stays(p, s) -> int                   how many stay in it (together: a loopy tier solved
                                         in its records plays only the moves out: ``exits``)

``max_moves`` (default 64) bounds a state's moves: the buffer ``out`` holds that many.
A plain method ``max_plies(self) -> int``, the most moves a game can last, opens the
compiled alpha-beta search to positions too large to solve (``analyze --method search``).
Everything else a game may define (``show``, ``format_move``, ``parse_move``,
``parse_state``, ``draw_svg``, ``name``...) stays plain Python, as in the plain protocol.

Ranked by stones (optional, plain methods): a game whose tiers are counts of two players'
stones on a board gives ``stone_board()`` (a ``stones.StoneBoard``: the cells, the board's
symmetries, where a state keeps each player's stones), ``tier_parts(tier)`` (the counts of
stones, and the bits above them, of each part of a tier) and ``child_tiers(tier)``; each
position's index is then computed (``stones``), its images folded, nothing kept per
position, where the default ranking keeps every reachable code (8 bytes each) sorted.

The class then speaks every protocol perfectplay reads, derived from the rules: the plain
methods (``initial``, ``moves``, ``play``, ``outcome``, and ``key``, ``to_move``,
``reward`` when written), the batch protocol, and, with a ``tier`` function, the tier
protocol with a ranking the engine finds by itself (``discovery``). The rule functions are
moved out of the class into ``rule_functions`` when it is defined, so that ``game.moves``
is the plain method; ``engine_loops(compiled=...)`` gives the engine's loops over them.
"""

from __future__ import annotations

import inspect
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from ..errors import GameError
from ..protocol import SCORE_ENDS, BatchRules, Expansion, SearchRules, TierRules
from ..values import Value
from . import exits
from .building import RULES, Loops, compile_game
from .declared import check_required, declare, read_parameters
from .engine_tiers import EngineTiers
from .guarded import guarded
from .stones import StoneBoard, StoneRanking

ONGOING = 0
"""What ``outcome`` returns while the game goes on (WIN, LOSS, TIE are perfectplay's)."""
STATES = "a state as an int from 0 to 2**63 - 1 (an int64 that is not negative)"
"""What a state is, said in the errors of rules that make one."""
REQUIRED = ("start", "moves", "play", "outcome")
SMALL_GAME = 5_000
"""A game of fewer positions is ranked by its rules as plain Python (see ``ranking``)."""
INTERPRET_BELOW = 20_000
"""Batch calls over fewer states run the rules as plain Python while numba is not loaded."""
_MODE = os.environ.get("PERFECTPLAY_KERNELS", "auto")


class CompiledGame:
    """Base class of games whose rules are compiled functions (see the module docstring)."""

    rule_functions: ClassVar[dict[str, Any]] = {}
    """The rule functions the class wrote, by name (moved out of the class)."""
    parameter_names: ClassVar[tuple[str, ...]] = ()
    max_moves: ClassVar[int] = 64
    scored: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        declare(cls, RULES)

    def __init__(self, **params: Any) -> None:  # replaced per subclass by _make_init
        self._setup(params)

    def _setup(self, params: dict[str, Any]) -> None:
        check_required(self, REQUIRED, "a compiled game")
        if ("exits" in self.rule_functions) != ("stays" in self.rule_functions):
            raise GameError(
                f"{type(self).__name__} writes one of exits and stays: they come together "
                "(exits lists the moves leaving a tier, stays counts the others)"
            )
        self.params: tuple[int, ...] = read_parameters(self, params)
        self._plain = self.rule_functions
        self._buffer = np.empty(self.max_moves, dtype=np.int64)
        self._loops: dict[bool, Loops] = {}
        if "key" in self.rule_functions:
            self.key = self._plain_key
        if "to_move" in self.rule_functions:
            self.to_move = self._plain_to_move
        if "reward" in self.rule_functions:
            self.reward = self._plain_reward
        self._stones: StoneRanking | None = None
        tiered = "tier" in self.rule_functions
        stones = tiered and self._ranks_stones()
        if getattr(self, "every_position", False) and not stones:
            raise GameError(
                f"{type(self).__name__} sets every_position, which needs a ranking that names "
                "every position of a tier: rank it by stones (stone_board, tier_parts and "
                "child_tiers) and give it a tier rule"
            )
        # Ranked by stones, nothing is kept per position; else the engine ranks the tiers
        # by their reachable codes, which the EngineTiers object finds and keeps.
        self._engine = EngineTiers(self) if tiered and not stones else None

    def __getstate__(self) -> dict[str, Any]:
        """What a copy in another process needs (Dask): the parameters, and where the
        ranking is kept (``EngineTiers``); compiled loops are made again there."""
        state = dict(self.__dict__)
        state.pop("_loops", None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._loops = {}

    # ----- the typed groups Rules reads: speed and tiers -----------------------------------

    def speed(self) -> BatchRules:
        """The batch protocol over int64 codes, run by the engine's loops."""
        return BatchRules(
            batch_outcome=self.batch_outcome,
            batch_expand=self.batch_expand,
            batch_key=self.batch_key,
            universe=None,
            engine_loops=self.engine_loops,
        )

    def tiers(self) -> TierRules | None:
        """The tier protocol of a game with a ``tier`` rule (None without one): ranked by
        its stones when it declares them, else by the engine (``EngineTiers``)."""
        if self._engine is not None:
            return self._engine.rules()
        if self._stones is None:
            return None
        return TierRules(
            initial_tier=self.root_tier(),
            child_tiers=self.child_tiers,  # type: ignore[attr-defined]
            tier_size=self._stone_tier_size,
            batch_rank=self._stone_rank,
            batch_unrank=self._stone_unrank,
            batch_tier=self.tiers_of,
            batch_parents=self.parents_by_unmoves(),
            parents_in_tier=True,  # (the un-moves loop drops the others: ``_unmoves``)
            tier_index=self._stone_tier_index,
            ranks_images_alike=True,
            batch_orbit_sizes=None if "key" in self.rule_functions else self._stone_orbits,
            batch_moves_out=self._moves_out,
            every_position=bool(getattr(self, "every_position", False)),
            probing=self,
        )

    # ----- the tier protocol, ranked by stones (optional) ---------------------------------

    def _ranks_stones(self) -> bool:
        """Whether the game ranks its tiers by stones: it gives ``stone_board()``, then
        also ``tier_parts(tier)`` and ``child_tiers(tier)`` (see ``stones``)."""
        declared = getattr(self, "stone_board", None)
        if not callable(declared):
            return False
        name = type(self).__name__
        for needed in ("tier_parts", "child_tiers"):
            if not callable(getattr(self, needed, None)):
                raise GameError(
                    f"{name} gives stone_board() but not {needed}(tier): a game ranked by "
                    f"its stones says which counts of stones make each tier (tier_parts) "
                    f"and which tiers its moves lead to (child_tiers)"
                )
        board = declared()
        if not isinstance(board, StoneBoard):
            raise GameError(f"{name}.stone_board() returned {board!r:.60}; expected a StoneBoard")
        self._stones = StoneRanking(board)
        self._parts: dict[int, tuple[tuple[int, int, int], ...]] = {}
        return True

    def _tier_parts(self, tier: int) -> tuple[tuple[int, int, int], ...]:
        """A tier's parts, as the game gives them, checked once."""
        found = self._parts.get(tier)
        if found is not None:
            return found
        assert self._stones is not None
        board = self._stones.board
        parts = []
        for part in self.tier_parts(tier):  # type: ignore[attr-defined]
            try:
                mine, theirs, rest = (int(x) for x in part)
            except (TypeError, ValueError):
                mine = theirs = rest = -1
            if (
                mine < 0
                or theirs < 0
                or mine + theirs > board.cells
                or rest < 0
                or (rest >= 1 << (63 - board.rest_at))
            ):
                raise GameError(
                    f"{type(self).__name__}.tier_parts({tier}) gives {part!r:.40}; a part is "
                    f"(the mover's stones, the opponent's, the rest): counts that fit the "
                    f"{board.cells} cells and a rest below 2**{63 - board.rest_at}"
                )
            parts.append((mine, theirs, rest))
        self._parts[tier] = found = tuple(parts)
        return found

    @property
    def stone_ranking(self) -> StoneRanking | None:
        """The ranking by stones of a game that declares it (``stone_board``), else None."""
        return self._stones

    def checked_parts(self, tier: int) -> tuple[tuple[int, int, int], ...]:
        """A tier's parts (mover's stones, opponent's, rest), as the ranking reads them."""
        return self._tier_parts(tier)

    def _stone_tier_size(self, tier: int) -> int:
        assert self._stones is not None
        return sum(self._stones.part_size(m, t) for m, t, _ in self._tier_parts(tier))

    def _stone_rank(self, tier: int, codes: Any) -> Any:
        assert self._stones is not None
        return self._stones.rank(codes, self._tier_parts(tier))

    def _stone_orbits(self, tier: int, codes: Any) -> Any:
        assert self._stones is not None
        return self._stones.orbit_sizes(codes, self._tier_parts(tier))

    def _stone_unrank(self, tier: int, indices: Any) -> Any:
        assert self._stones is not None
        return self._stones.unrank(indices, self._tier_parts(tier))

    def _stone_tier_index(self, code: int) -> tuple[int, int]:
        tier = self.checked_tier(code)
        return tier, int(self._stone_rank(tier, np.array([code], dtype=np.int64))[0])

    # ----- the plain protocol, from the rule functions run as Python -----------------------

    def initial(self) -> int:
        """The start."""
        return self._state("start", (), self._rule("start"))

    def moves(self, state: int) -> list[int]:
        """The moves of a state, as ints."""
        try:
            n = self._plain["moves"](self.params, state, self._buffer)
        except IndexError:
            raise GameError(
                f"{type(self).__name__}.moves() of state {state} writes past max_moves "
                f"({self.max_moves}): raise max_moves to the most moves a state has"
            ) from None
        n = self._whole("moves", (state,), n, "a count of moves")
        if not 0 <= n <= self.max_moves:
            raise GameError(
                f"{type(self).__name__}.moves() returned a count of {n} moves; expected 0.."
                f"{self.max_moves} (raise max_moves for more)"
            )
        return [int(m) for m in self._buffer[:n]]

    def checked_split(self, state: int) -> None:
        """The game's ``exits`` and ``stays`` run on a state as plain Python: what they
        raise becomes a GameError naming the rule and the state (the guard's replay)."""
        for name, args in (("exits", (state, self._buffer)), ("stays", (state,))):
            try:
                self._plain[name](self.params, *args)
            except GameError:
                raise
            except Exception as exc:
                raise GameError(
                    f"{type(self).__name__}.{name}() of state {state} raised "
                    f"{type(exc).__name__}: {exc}"
                ) from None

    def play(self, state: int, move: int) -> int:
        """The state after a move."""
        return self._state("play", (state, move), self._rule("play", state, move))

    def outcome(self, state: int) -> Value | float | None:
        """None while the game goes on, else the end for the player to move."""
        found = self._rule("outcome", state)
        if self.scored:
            if not isinstance(found, (int, float, np.integer, np.floating)):
                raise self._returned("outcome", (state,), found, "a float score, or NaN "
                                     "while the game goes on")  # fmt: skip
            score = float(found)
            return None if math.isnan(score) else score
        code = self._whole("outcome", (state,), found, "ONGOING (0) while the game goes on, "
                           "else WIN (1), LOSS (2) or TIE (3)")  # fmt: skip
        if code == ONGOING:
            return None
        try:
            return Value(code)
        except ValueError:
            raise GameError(
                f"{type(self).__name__}.outcome() returned {code} for state {state}; expected "
                "ONGOING (0), WIN (1), LOSS (2) or TIE (3)"
            ) from None

    def _plain_key(self, state: int) -> int:
        return self._state("key", (state,), self._rule("key", state))

    def _plain_to_move(self, state: int) -> int:
        return self._whole("to_move", (state,), self._rule("to_move", state), "an int")

    def _plain_reward(self, state: int, move: int) -> float:
        found = self._rule("reward", state, move)
        if not isinstance(found, (int, float, np.integer, np.floating)):
            raise self._returned("reward", (state, move), found, "a number")
        return float(found)

    def _rule(self, name: str, *args: Any) -> Any:
        """A rule function run as plain Python; what it raises becomes a GameError naming
        the rule, the state and the move."""
        try:
            return self._plain[name](self.params, *args)
        except GameError:
            raise
        except Exception as exc:
            where = f" (state {args[0]})" if args else ""
            raise GameError(
                f"{self._call(name, args)} raised {type(exc).__name__}: {exc}{where}"
            ) from None

    def _whole(self, name: str, args: tuple[Any, ...], found: Any, wanted: str) -> int:
        """``found`` as an int (a bool too: numba reads one as 0 or 1), or a GameError saying
        what the rule returned instead."""
        if not isinstance(found, (int, np.integer, np.bool_)):
            raise self._returned(name, args, found, wanted)
        return int(found)

    def _state(self, name: str, args: tuple[Any, ...], found: Any) -> int:
        """A state a rule made, checked: an int from 0 to 2**63 - 1."""
        code = self._whole(name, args, found, STATES)
        if not 0 <= code < 2**63:
            raise self._returned(name, args, code, STATES)
        return code

    def _returned(self, name: str, args: tuple[Any, ...], found: Any, wanted: str) -> GameError:
        shown = f"{found!r:.60}" if not isinstance(found, int) else _shown_int(found)
        return GameError(
            f"{self._call(name, args)} returned {shown}; a compiled rule returns {wanted}"
        )

    def _call(self, name: str, args: tuple[Any, ...]) -> str:
        """A rule's call as an error names it: ``Game.play(p, 4, 1)``."""
        return f"{type(self).__name__}.{name}({', '.join(['p', *(str(a) for a in args)])})"

    # ----- the engine's loops ------------------------------------------------------------

    def engine_loops(self, compiled: bool = True) -> Loops:
        """The engine's loops over this game's rules, compiled by numba or plain Python."""
        if compiled not in self._loops:
            self._loops[compiled] = guarded(compile_game(
                type(self), self.params, self.rule_functions, self.max_moves, self.scored,
                compiled,
            ), self)  # fmt: skip
        return self._loops[compiled]

    def loops_for(self, work: int) -> Loops:
        """Compiled loops for large work (or once numba is loaded), plain ones for small."""
        if _MODE != "auto":
            return self.engine_loops(_MODE == "compiled")
        if work >= INTERPRET_BELOW or True in self._loops:
            return self.engine_loops(True)
        if self._stones is not None:
            # No discovery loads the compiled loops first: a game ranked by stones compiles
            # unless small, before its first tiers (small, run as plain Python in threads
            # that share the interpreter: Six Men's Morris' tier 5 marked 3,618 positions
            # in 26 s so, 2026-11-28).
            return self.engine_loops(not self._small())
        # numba loaded already costs nothing more, but a game's first compile does: a small
        # game runs as plain Python all through.
        return self.engine_loops("numba" in sys.modules and not self._small())

    # ----- the compiled search ------------------------------------------------------------

    def compiled_rules(self) -> SearchRules | None:
        """The rules for the compiled alpha-beta search (``analyze --method search``) of a
        game that says how long it can last (``max_plies``); None otherwise. Win/loss/tie
        games score -1, 0, 1 (the value, not how fast); scored games their integer score,
        rewards and extra turns (``to_move``) included."""
        longest = getattr(self, "max_plies", None)
        if not callable(longest):
            return None
        return self.search_rules(int(longest()))

    def search_rules(self, max_plies: int, probing: bool = False) -> SearchRules:
        """The compiled search's rules for games at most ``max_plies`` long; ``probing``:
        with the probe of a tablebase of the game's tiers ranked by stones
        (``perfectplay.tablebase.probes`` makes its ``db``)."""
        loops = self.engine_loops(True)
        searching = loops.search_rules()
        ident = loops.search_ident
        wide = SCORE_ENDS if self.scored else 1
        return SearchRules(
            words=1,
            max_moves=self.max_moves,
            max_plies=max_plies,
            min_score=-wide,
            max_score=wide,
            key_bits=63,
            end=searching.search_end,
            bounds=searching.search_bounds,
            moves=searching.search_moves,
            play=searching.search_play,
            key=searching.search_key,
            encode=_one_word,
            ident=f"{ident}+probe" if ident and probing else ident,
            probe=searching.search_probe if probing else None,
            fold=searching.search_fold if probing and "key" not in self.rule_functions else None,
            keeps=searching.search_keeps if "to_move" in self.rule_functions else None,
            reward=searching.search_reward if "reward" in self.rule_functions else None,
            tabled=searching.search_tabled if "tabled" in self.rule_functions else None,
            fail_soft=self.scored,
        )

    # ----- the batch protocol ------------------------------------------------------------

    def batch_outcome(self, codes: Any) -> Any:
        """Outcome codes (int8) or scores (float, NaN while the game goes on)."""
        codes = np.ascontiguousarray(codes, dtype=np.int64)
        out = np.empty(codes.shape[0], dtype=np.float64 if self.scored else np.int8)
        self.loops_for(codes.shape[0]).outcomes(codes, out)
        return out

    def batch_expand(self, codes: Any) -> Expansion:
        """The moves of states that go on, their children keyed."""
        codes = np.ascontiguousarray(codes, dtype=np.int64)
        parents, children, same, rewards, bad = self.loops_for(codes.shape[0]).expand(codes, False)
        if bad >= 0:
            self.moves(int(codes[bad]))  # raises the GameError that names the count
        return Expansion(
            parents,
            children,
            rewards if "reward" in self.rule_functions else None,
            same.astype(bool) if "to_move" in self.rule_functions else None,
        )

    def batch_key(self, codes: Any) -> Any:
        """Canonical codes."""
        codes = np.ascontiguousarray(codes, dtype=np.int64)
        out = np.empty_like(codes)
        self.loops_for(codes.shape[0]).keys(codes, out)
        return out

    # ----- the tier protocol, ranked by the engine ---------------------------------------

    def ranked_compiled(self) -> bool:
        """Whether the ranking is found by compiled loops: always but in interpreted mode,
        except (in auto mode) for a game of fewer than SMALL_GAME positions, which plain
        Python ranks in less time than a first compile takes (a 12-position game: 20 s
        compiled, 0.1 s interpreted)."""
        if _MODE != "auto":
            return _MODE == "compiled"
        return not self._small()

    def _small(self) -> bool:
        """Whether play reaches fewer than SMALL_GAME positions (found once)."""
        small = self.__dict__.get("_is_small")
        if small is None and self._stones is not None:  # its tiers' sizes bound it
            small = self._is_small = self._stone_indices_below(SMALL_GAME)
        if small is None:
            small = self._is_small = self._fewer_positions_than(SMALL_GAME)
        return bool(small)

    def _stone_indices_below(self, limit: int) -> bool:
        """Whether the tiers a stone-ranked game's start leads to hold fewer than ``limit``
        indices in all (their parts' sizes, summed without a position made)."""
        total = 0
        seen = {self.root_tier()}
        todo = list(seen)
        while todo:
            tier = todo.pop()
            total += self._stone_tier_size(tier)
            if total >= limit:
                return False
            for kid in self.child_tiers(tier):  # type: ignore[attr-defined]
                if kid not in seen:
                    seen.add(kid)
                    todo.append(kid)
        return True

    def _fewer_positions_than(self, limit: int) -> bool:
        """Whether play reaches fewer than ``limit`` positions (by key), by a search over
        the plain rules that stops at the limit."""
        start = self._root()
        seen = {start}
        frontier = [start]
        keyed = "key" in self.rule_functions
        while frontier:
            state = frontier.pop()
            if self.outcome(state) is not None:
                continue
            for move in self.moves(state):
                child = self.play(state, move)
                child = self._plain_key(child) if keyed else child
                if child not in seen:
                    seen.add(child)
                    if len(seen) >= limit:
                        return False
                    frontier.append(child)
        return True

    def describe(self, code: int) -> str:
        """A state as an error names it."""
        show = getattr(self, "show", None)
        if callable(show):
            try:
                return f"state {code} ({show(code)!s:.60})"
            except Exception:
                pass
        return f"state {code}"

    def checked_tier(self, code: int) -> int:
        """The tier of a code, by the rule run as plain Python, checked to be an int."""
        return self._whole("tier", (code,), self._rule("tier", code), "an int")

    def root_tier(self) -> int:
        """The start's tier, by the rules run as plain Python, checked."""
        return self.checked_tier(self._root())

    def checked_root(self) -> int:
        """The start, keyed, by the rules run as plain Python, checked."""
        return self._root()

    def _root(self) -> int:
        start = self.initial()
        return self._plain_key(start) if "key" in self.rule_functions else start

    def parents_by_unmoves(self) -> Callable[[int, Any], Expansion] | None:
        """The game's ``unmoves`` rule as the tier protocol's un-moves, when it has one."""
        return self._unmoves if "unmoves" in self.rule_functions else None

    def tiers_of(self, codes: Any) -> Any:
        """The tier of each code (the ``tier`` rule over a batch)."""
        codes = np.ascontiguousarray(codes, dtype=np.int64)
        out = np.empty_like(codes)
        self.loops_for(codes.shape[0]).tiers(codes, out)
        return out

    def _moves_out(self, tier: int, codes: Any) -> tuple[Any, Any, Any]:
        """The tier protocol's ``batch_moves_out``: by ``moves``, or by ``exits`` and
        ``stays`` spot-checked against it (``exits``)."""
        return exits.moves_out(self, tier, codes)

    def _unmoves(self, tier: int, codes: Any) -> Expansion:
        codes = np.ascontiguousarray(codes, dtype=np.int64)
        rows, parents, bad = self.loops_for(codes.shape[0]).unmoves(codes, tier)
        if bad >= 0:
            raise GameError(
                f"{type(self).__name__}.unmoves() of state {int(codes[bad])} gave a count "
                f"that is negative or more than max_moves ({self.max_moves})"
            )
        # Parents outside the tier are dropped by the loop (by the game's tier rule); those
        # without an index in it (play does not reach them, or the tier's parts leave them
        # out) are the caller's to drop when it ranks them: ranked here too, each parent
        # took two ranks (2026-11-29).
        return Expansion(rows, parents)


def _shown_int(value: int) -> str:
    """An int as an error shows it: near a power of two, as one."""
    if abs(value) >= 2**62:
        bits = abs(value).bit_length()
        near = 2 ** (bits - 1)
        rest = abs(value) - near
        sign = "-" if value < 0 else ""
        return f"{sign}2**{bits - 1}" + (f" + {rest}" if rest else "")
    return str(value)


def _one_word(state: Any) -> tuple[int, ...]:
    return (int(state),)


def source_path(cls: type) -> Path | None:
    """The file a compiled game was written in, when there is one."""
    try:
        found = inspect.getsourcefile(cls)
    except TypeError:
        return None
    return Path(found) if found else None
