"""Exploring an OpenSpiel game: every reachable position numbered, in flat arrays.

The first time anything needs more than the start (a solve, a key, an end's kind), one
depth-first walk over pyspiel states numbers every reachable position (its code) and
records, in flat arrays, each position's player, end value, first parent and the codes of
its children. Only the walk's stack holds live pyspiel states; the batch hooks then hand
the explorer those arrays, and ``from_code`` rebuilds a state by replaying the actions from
the start. The pyspiel calls of the walk are those of the plainest exploration (``child``,
``current_player``, ``str``, one dict lookup per move), so the bridge costs little more.
Codes are the walk's order, the same in every process for the same game, which keeps a
saved tablebase valid.

The player "to move" at an end is the opponent of the player who made the last move, so
a terminal return becomes WIN / LOSS / TIE (or a score) for that player. A game whose
ends all return one size of win (for example +-1, or 1/0 around a constant sum of 1) is
won / lost / tied; any other game is scored, its score being half the difference of the
two returns (the return itself in a zero-sum game). ``scored=`` decides it without
exploring.

Kept apart from the adapter (``adapter.py``), which speaks the game protocol over pyspiel
states and hands this module every question about codes.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel  # type: ignore[import-not-found,unused-ignore]

from ..core.memory import MemoryWatch
from ..errors import GameError
from ..protocol import Codes, Expansion
from ..values import LOSS, TIE, WIN, GameValue

__all__ = ["CHECK_EVERY", "Positions", "player_of", "value_for"]

CHECK_EVERY = 1 << 16
"""New positions between two looks at the process's memory during the walk."""


def player_of(state: Any) -> int:
    """The player to move; at an end, the opponent of whoever moved last."""
    player = state.current_player()
    if player >= 0:
        return int(player)
    history = state.full_history()
    return 1 - int(history[-1].player) if history else 0


def value_for(state: Any, player: int) -> float:
    """An end's value for ``player``: half the difference of the two returns."""
    returns = state.returns()
    return float(returns[player] - returns[1 - player]) * 0.5


class Positions:
    """The positions of one OpenSpiel game met so far, each numbered by its code, and the
    walk that numbers them (see the module docstring).

    ``name`` names the game in errors; ``keyof`` gives the key positions are merged by
    (with the player to move); ``declared`` is ``scored=`` (None: told by the ends).
    """

    def __init__(
        self, name: str, keyof: Callable[[Any], str], declared: bool | None, root: Any
    ) -> None:
        self.name = name
        self._keyof = keyof
        self._declared = declared
        self._tables: tuple[dict[str, int], dict[str, int]] = ({}, {})
        """Per player to move, the key of each position met since the last seal, to its code."""
        self._sealed: list[tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]] | None = None
        """Per player, the rest: hashes of keys, sorted, and their codes (see ``_seal``)."""
        # Per code: player to move, end value (NaN goes on), first parent and its action,
        # where its children start in _edges (-1: not expanded) and how many there are.
        self._label = array("b")
        self._value = array("d")
        self._parent = array("i")
        self._action = array("q")
        self._first = array("q")
        self._degree = array("i")
        self._edges = array("i")
        self._held: dict[int, Any] = {}
        """States with no parent to replay from: the start, and positions asked about
        that the start does not reach."""
        self._complete = False
        self._kind: str | None = None
        self._size = 1.0
        """The size of a win, for a won/lost/tied game."""
        self._adopt(root, player_of(root))

    def __len__(self) -> int:
        """How many positions have a code so far."""
        return len(self._label)

    # ------------------------------------------------------------------ questions

    def code_of(self, state: Any) -> int:
        """The code of a position, walking the game first if it was not met yet (and
        numbering it apart if the start does not reach it)."""
        player = player_of(state)
        text = self._keyof(state)
        code = self._find(player, text)
        if code is None and not self._complete:
            self.explore()
            code = self._find(player, text)
        if code is None:
            code = self._adopt(state, player)
        return code

    def from_code(self, code: int) -> Any:
        """A state of the position numbered ``code``, rebuilt by replaying its actions."""
        if not 0 <= code < len(self._label):
            raise GameError(f"{self.name}: no position has code {code}")
        actions = []
        while code not in self._held:
            actions.append(self._action[code])
            code = self._parent[code]
        state = self._held[code].clone()
        for action in reversed(actions):
            state.apply_action(action)
        return state

    def end_value(self, value: float) -> GameValue:
        """An end's value as the protocol says it: WIN / LOSS / TIE, or a score."""
        if self._kind is None and self._declared is None:
            self.explore()  # the kind of the game's ends is told by all of them
        if self._kind == "scored" or (self._kind is None and self._declared):
            return int(value) if float(value).is_integer() else value
        if value != 0 and self._kind is not None and abs(value) != self._size:
            raise GameError(
                f"{self.name}: an end returns {value:+g} where wins return "
                f"{self._size:+g}; pass scored=True to solve it as a scored game"
            )
        return WIN if value > 0 else LOSS if value < 0 else TIE

    def batch_outcome(self, codes: Codes) -> npt.NDArray[Any]:
        """Outcome codes (WIN / LOSS / TIE for the player to move, 0 goes on), or scores
        with NaN for a scored game."""
        self.ensure_complete()
        values = self._values_at(codes)
        if self._kind == "scored":
            return values
        result = np.zeros(values.shape[0], dtype=np.int8)
        result[values > 0] = int(WIN)
        result[values < 0] = int(LOSS)
        result[values == 0] = int(TIE)
        return result

    def batch_expand(self, codes: Codes) -> Expansion:
        """The children of every code, from the arrays the walk filled."""
        self.ensure_complete()
        first, degree, labels = self._expansion_of(codes)
        total = int(degree.sum())
        parents = np.repeat(np.arange(codes.shape[0], dtype=np.int64), degree)
        shift = np.cumsum(degree) - degree - first  # batch offset minus edge offset
        index = np.arange(total, dtype=np.int64) - np.repeat(shift, degree)
        children = np.frombuffer(self._edges, dtype=np.int32)[index].astype(np.int64)
        child_labels = np.frombuffer(self._label, dtype=np.int8)[children]
        same = child_labels == labels[parents]
        return Expansion(parents, children, same_mover=same)

    # ------------------------------------------------------------------ the walk

    def ensure_complete(self) -> None:
        """Walk the game unless every position met is expanded already."""
        if not self._complete:
            self.explore()

    def explore(self) -> None:
        """Expand every pending position and all it reaches, then tell the kind of the
        game's ends and seal the keys."""
        self._walk(self._pending())
        self._complete = True
        self._decide_kind()
        self._seal()

    def _adopt(self, state: Any, player: int) -> int:
        """A new code for a state the walk has not met (kept whole: nothing to replay)."""
        code = len(self._label)
        self._tables[player][self._keyof(state)] = code
        self._label.append(player)
        self._parent.append(-1)
        self._action.append(-1)
        self._first.append(-1)
        self._degree.append(0)
        self._held[code] = state.clone()
        if state.is_terminal():
            self._value.append(value_for(state, player))
            if self._complete:
                self._decide_kind()
        else:
            self._value.append(math.nan)
            self._complete = False
        return code

    def _pending(self) -> list[int]:
        """Codes of positions that go on but were never expanded."""
        first = np.frombuffer(self._first, dtype=np.int64)
        values = np.frombuffer(self._value, dtype=np.float64)
        found: list[int] = np.flatnonzero((first < 0) & np.isnan(values)).tolist()
        del first, values  # views: the arrays cannot grow while they live
        return found

    def _walk(self, codes: list[int]) -> None:
        """Expand the positions of ``codes`` and all they reach, depth first. Runs once
        per position and move: kept to the pyspiel calls."""
        states = [self.from_code(c) for c in codes]
        tables, keyof = self._tables, self._keyof
        edges = self._edges
        add_edge = edges.append
        add_label, add_value = self._label.append, self._value.append
        add_parent, add_action = self._parent.append, self._action.append
        add_first, add_degree = self._first.append, self._degree.append
        first, degree = self._first, self._degree
        n = len(self._label)
        nan = math.nan
        sealed = self._sealed is not None
        watch = MemoryWatch()
        next_check = n + CHECK_EVERY
        state: Any = None
        try:
            while codes:
                code = codes.pop()
                state = states.pop()
                mover = state.current_player()
                other = 1 - mover
                start = len(edges)
                for action in state.legal_actions():
                    child = state.child(action)
                    player = child.current_player()
                    ended = player < 0
                    if ended:
                        player = other
                    text = keyof(child)
                    table = tables[player]
                    found = table.get(text)
                    if found is None and sealed:
                        found = self._find(player, text)
                    if found is None:
                        found = table[text] = n
                        n += 1
                        add_label(player)
                        add_parent(code)
                        add_action(action)
                        add_first(-1)
                        add_degree(0)
                        if ended:
                            returns = child.returns()
                            add_value((returns[player] - returns[1 - player]) * 0.5)
                        else:
                            add_value(nan)
                            codes.append(found)
                            states.append(child)
                    add_edge(found)
                # Marked expanded only once every edge is in: an interrupted walk resumes.
                first[code] = start
                degree[code] = len(edges) - start
                if n >= next_check:
                    next_check = n + CHECK_EVERY
                    watch.check(f"exploring {self.name}", n)
        except pyspiel.SpielError as exc:
            raise GameError(f"{self.name}: OpenSpiel failed at {state!s:.200}: {exc}") from None

    def _seal(self) -> None:
        """Trade the key dictionaries for sorted arrays of key hashes and codes.

        A dictionary entry costs some 150 bytes (the key string, the code as an object,
        the slot); a sealed one 12. A hash met in the arrays is confirmed by rebuilding the
        position from its code and comparing keys, so lookups stay exact; they take
        microseconds, which only answering (not exploring) pays.
        """
        sealed = []
        for player, table in enumerate(self._tables):
            hashes = np.fromiter((hash(k) for k in table), dtype=np.int64, count=len(table))
            codes = np.fromiter(table.values(), dtype=np.int32, count=len(table))
            table.clear()
            if self._sealed is not None:
                hashes = np.concatenate([self._sealed[player][0], hashes])
                codes = np.concatenate([self._sealed[player][1], codes])
            order = np.argsort(hashes, kind="stable")
            sealed.append((hashes[order], codes[order]))
        self._sealed = sealed

    def _find(self, player: int, text: str) -> int | None:
        """The code of the position with this key and player to move, or None."""
        code = self._tables[player].get(text)
        if code is not None or self._sealed is None:
            return code
        hashes, codes = self._sealed[player]
        wanted = hash(text)
        i = int(np.searchsorted(hashes, wanted))
        while i < hashes.shape[0] and hashes[i] == wanted:
            candidate = int(codes[i])
            if self._keyof(self.from_code(candidate)) == text:
                return candidate
            i += 1
        return None

    def _decide_kind(self) -> None:
        """Won/lost/tied or scored, from every end met (or as declared); a won/lost/tied
        game whose ends disagree on the size of a win gets a GameError."""
        values = np.frombuffer(self._value, dtype=np.float64)
        ends = values[~np.isnan(values)]
        del values
        sizes = np.unique(np.abs(ends[ends != 0]))
        if self._kind is None:
            if self._declared is not None:
                self._kind = "scored" if self._declared else "outcome"
            else:
                self._kind = "outcome" if sizes.size <= 1 else "scored"
            if self._kind == "outcome" and sizes.size:
                self._size = float(sizes[0])
        if self._kind == "outcome" and sizes.size and not np.all(sizes == self._size):
            odd = float(sizes[sizes != self._size][0])
            raise GameError(
                f"{self.name}: ends return wins of {self._size:g} and of {odd:g}; pass "
                "scored=True to solve it as a scored game"
            )

    def _values_at(self, codes: Codes) -> npt.NDArray[np.float64]:
        values = np.frombuffer(self._value, dtype=np.float64)
        picked: npt.NDArray[np.float64] = values[codes]
        return picked

    def _expansion_of(
        self, codes: Codes
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int8]]:
        first = np.frombuffer(self._first, dtype=np.int64)[codes]
        degree = np.frombuffer(self._degree, dtype=np.int32)[codes].astype(np.int64)
        labels = np.frombuffer(self._label, dtype=np.int8)[codes]
        if np.any(first < 0):
            code = int(codes[np.flatnonzero(first < 0)[0]])
            raise GameError(f"{self.name}: position {code} was never expanded")
        return first, degree, labels
