"""Compiled games whose state is several int64 words: a 6x6 Othello's two 36-bit boards.

A state that does not fit one int64 (72 bits of two bit boards) is a fixed number of words.
A user subclasses ``WideGame``, sets ``words``, declares its parameters as annotated int or
bool class attributes with defaults (as ``CompiledGame``), and writes the rules in numba's
subset of Python over a state ``s``, a 1-D int64 array of ``words`` items, each rule taking
the parameters ``p`` (a tuple of ints) first::

    start(p, s)                      write the initial state into s
    moves(p, s, out) -> int          write the moves of s into out, best first; their count
    play(p, s, m, t)                 write the state after move m into t (s unchanged)
    outcome(p, s) -> int             ONGOING (0) or WIN / LOSS / TIE for the player to move
                                     (scored = True: a float score, or NaN while it goes on)
  optional:
    key(p, s, t)                     write a canonical state into t (symmetric states share it)
    to_move(p, s) -> int             who moves (a move keeping it gives another turn)
    reward(p, s, m) -> float         points the mover collects (scored games)
    tabled(p, s) -> bool             whether the search keeps s in its table (near the end,
                                     searching a position again is faster than its key)

and a plain method ``max_plies(self) -> int``, the most moves a game can last, which opens
the compiled alpha-beta search (``analyze --method search``): there the table keeps each
position's canonical words whole (``8 * words`` bytes an entry), never a hash alone, so no
two positions can share an entry's answer. The plain protocol's states are tuples of
``words`` ints, derived from the rules run as Python: a game small enough is solved
strongly by the plain path (``perfectplay solve``) from the same rules, which is how a
search is checked. The batch and tier protocols, which keep a state in one int64, are not
offered: a state that fits one word is written as a ``CompiledGame``.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from ..errors import GameError
from ..protocol import SCORE_ENDS, SearchRules
from ..values import Value
from .building import code_identity
from .declared import check_required, declare, read_parameters

WIDE_RULES = ("start", "moves", "play", "outcome", "key", "to_move", "reward", "tabled")
"""The rule functions a wide game may write (the first four are required)."""
REQUIRED = ("start", "moves", "play", "outcome")
ONGOING = 0


class WideGame:
    """Base class of games whose state is ``words`` int64 words (see the module docstring)."""

    rule_functions: ClassVar[dict[str, Any]] = {}
    parameter_names: ClassVar[tuple[str, ...]] = ()
    words: ClassVar[int] = 2
    max_moves: ClassVar[int] = 64
    scored: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not isinstance(cls.words, int) or isinstance(cls.words, bool) or cls.words < 1:
            raise GameError(f"{cls.__name__}.words must be a positive int, got {cls.words!r}")
        declare(cls, WIDE_RULES)

    def __init__(self, **params: Any) -> None:  # replaced per subclass by parameters_init
        self._setup(params)

    def _setup(self, params: dict[str, Any]) -> None:
        check_required(self, REQUIRED, "a wide game")
        self.params: tuple[int, ...] = read_parameters(self, params)
        self._buffer = np.zeros(self.max_moves, dtype=np.int64)
        self._compiled: dict[str, Any] = {}
        if "key" in self.rule_functions:
            self.key = self._plain_key
        if "to_move" in self.rule_functions:
            self.to_move = self._plain_to_move
        if "reward" in self.rule_functions:
            self.reward = self._plain_reward

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_compiled"] = {}
        return state

    # ----- the plain protocol, from the rule functions run as Python -----------------------

    def initial(self) -> tuple[int, ...]:
        """The start."""
        made = np.zeros(self.words, dtype=np.int64)
        self._rule("start", (), made)
        return _words(made)

    def moves(self, state: tuple[int, ...]) -> list[int]:
        """The moves of a state, as ints."""
        n = self._rule("moves", (state,), self._buffer)
        if not isinstance(n, (int, np.integer)) or not 0 <= n <= self.max_moves:
            raise GameError(
                f"{self._call('moves', (state,))} returned {n!r:.40}; expected a count of "
                f"moves 0..{self.max_moves} (raise max_moves for more)"
            )
        return [int(m) for m in self._buffer[: int(n)]]

    def play(self, state: tuple[int, ...], move: int) -> tuple[int, ...]:
        """The state after a move."""
        made = np.zeros(self.words, dtype=np.int64)
        self._rule("play", (state, move), made)
        return _words(made)

    def outcome(self, state: tuple[int, ...]) -> Value | float | None:
        """None while the game goes on, else the end for the player to move."""
        found = self._rule("outcome", (state,))
        if self.scored:
            if not isinstance(found, (int, float, np.integer, np.floating)):
                raise GameError(
                    f"{self._call('outcome', (state,))} returned {found!r:.40}; a scored "
                    "game's outcome is a float, NaN while it goes on"
                )
            score = float(found)
            return None if math.isnan(score) else score
        if isinstance(found, (int, np.integer)) and int(found) == ONGOING:
            return None
        try:
            return Value(int(found))
        except (TypeError, ValueError):
            raise GameError(
                f"{self._call('outcome', (state,))} returned {found!r:.40}; expected ONGOING "
                "(0), WIN (1), LOSS (2) or TIE (3)"
            ) from None

    def _plain_key(self, state: tuple[int, ...]) -> tuple[int, ...]:
        made = np.zeros(self.words, dtype=np.int64)
        self._rule("key", (state,), made)
        return _words(made)

    def _plain_to_move(self, state: tuple[int, ...]) -> int:
        found = self._rule("to_move", (state,))
        if not isinstance(found, (int, np.integer, np.bool_)):
            raise GameError(f"{self._call('to_move', (state,))} returned {found!r:.40}; an int")
        return int(found)

    def _plain_reward(self, state: tuple[int, ...], move: int) -> float:
        found = self._rule("reward", (state, move))
        if not isinstance(found, (int, float, np.integer, np.floating)):
            raise GameError(f"{self._call('reward', (state, move))} returned {found!r:.40}")
        return float(found)

    def _rule(self, name: str, args: tuple[Any, ...], *written: Any) -> Any:
        """A rule run as plain Python on the state (args[0]) as an array; what it raises
        becomes a GameError naming the rule and its arguments."""
        call = list(args)
        if call:
            call[0] = self._array(call[0])
        try:
            return self.rule_functions[name](self.params, *call, *written)
        except GameError:
            raise
        except IndexError:
            raise GameError(
                f"{self._call(name, args)} wrote or read past an array: a state has "
                f"{self.words} words, a state's moves at most max_moves ({self.max_moves})"
            ) from None
        except Exception as exc:
            raise GameError(
                f"{self._call(name, args)} raised {type(exc).__name__}: {exc}"
            ) from None

    def _array(self, state: Any) -> Any:
        """A state as the rules take it, checked: ``words`` ints of int64."""
        try:
            words = tuple(int(w) for w in state)
        except TypeError:
            raise GameError(
                f"{type(self).__name__}: a state is a tuple of {self.words} ints, got {state!r:.40}"
            ) from None
        if len(words) != self.words or not all(-(2**63) <= w < 2**63 for w in words):
            raise GameError(
                f"{type(self).__name__}: a state is {self.words} int64 words, got {state!r:.60}"
            )
        return np.array(words, dtype=np.int64)

    def _call(self, name: str, args: tuple[Any, ...]) -> str:
        return f"{type(self).__name__}.{name}({', '.join(['p', *(str(a) for a in args)])})"

    # ----- the compiled search ------------------------------------------------------------

    def compiled_rules(self) -> SearchRules | None:
        """The rules for the compiled alpha-beta search of a game that says how long it can
        last (``max_plies``), else None: the state's words in a row, then its canonical
        words (with ``key``), which the table keeps whole."""
        longest = getattr(self, "max_plies", None)
        if not callable(longest):
            return None
        hooks, ident = self._search_hooks()
        width = self.words
        keyed = "key" in self.rule_functions
        wide = SCORE_ENDS if self.scored else 1
        return SearchRules(
            words=2 * width if keyed else width,
            max_moves=self.max_moves,
            max_plies=int(longest()),
            min_score=-wide,
            max_score=wide,
            key_bits=63,
            end=hooks.search_end,
            bounds=hooks.search_bounds,
            moves=hooks.search_moves,
            play=hooks.search_play,
            key=hooks.search_key,
            encode=self._encode_row,
            ident=ident,
            keeps=hooks.search_keeps if "to_move" in self.rule_functions else None,
            reward=hooks.search_reward if "reward" in self.rule_functions else None,
            tabled=hooks.search_tabled if "tabled" in self.rule_functions else None,
            fail_soft=self.scored,
            key_words=width,
            table_moves=True,
            key_from=width if keyed else 0,
        )

    def _encode_row(self, state: Any) -> tuple[int, ...]:
        """A plain state as the search's row (its canonical words follow, made by the
        search)."""
        words = tuple(int(w) for w in self._array(state))
        return words + (0,) * self.words if "key" in self.rule_functions else words

    def _search_hooks(self) -> tuple[Any, str]:
        """The ``wide_search`` copy over this game's compiled rules and parameters, and the
        hash its machine code is cached under."""
        if "hooks" in self._compiled:
            return self._compiled["hooks"], self._compiled["ident"]
        from ..core.specialised import jit_in_place, template_copy
        from . import wide_search
        from .building import jitted, numba_problem

        ident = _identity(type(self), self.rule_functions, self.params)
        name = f"perfectplay_wide_{type(self).__name__}_{ident}"
        hooks: Any = template_copy(Path(wide_search.__file__), name, "search", on_disk=True)
        hooks.P = self.params
        hooks.W = self.words
        hooks.KEYED = "key" in self.rule_functions
        hooks.SCORED = self.scored
        if self.scored:
            hooks.LOW_SCORE, hooks.HIGH_SCORE = -SCORE_ENDS, SCORE_ENDS
        done: dict[int, Any] = {}
        for rule in WIDE_RULES[1:]:
            function = self.rule_functions.get(rule)
            if function is not None:
                try:
                    setattr(hooks, f"_{rule}", jitted(function, done))
                except Exception as exc:
                    raise GameError(numba_problem(type(self), rule, function, exc)) from None
        jit_in_place(hooks, ("whole", "search_end", "search_bounds", "search_keeps",
                             "search_reward", "search_moves", "search_play", "search_tabled",
                             "search_key"),
                     cache=True)  # fmt: skip
        self._compiled.update(hooks=hooks, ident=ident)
        return hooks, ident


def _words(made: Any) -> tuple[int, ...]:
    return tuple(int(w) for w in made)


def _identity(cls: type[WideGame], functions: dict[str, Any], params: tuple[int, ...]) -> str:
    """A hash of what the search's rules depend on: the template, the game's source and
    rules, its parameters, numpy's version."""
    from . import wide_search

    return code_identity(
        cls,
        functions,
        Path(wide_search.__file__).read_bytes(),
        f"{cls.__module__}.{cls.__qualname__} {cls.words} {params}",
    )
