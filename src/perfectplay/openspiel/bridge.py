"""OpenSpiel games as perfectplay games: ``from_openspiel("connect_four(rows=4,columns=4)")``.

The game object speaks the plain protocol over pyspiel states (``initial``, ``moves``,
``play``, ``outcome``...), so a Solution answers questions about pyspiel states directly,
and the batch protocol over integer codes, so that solving never holds one pyspiel state
per position. Positions are merged by their string and the player to move, as OpenSpiel's
own tools do (``keep_histories=True`` merges by history instead, for a game whose string
does not decide its future).

How it explores: the first time anything needs more than the start (a solve, a key, an
end's kind), one depth-first walk over pyspiel states numbers every reachable position
(its code) and records, in flat arrays, each position's player, end value, first parent
and the codes of its children. Only the walk's stack holds live pyspiel states; the
batch hooks then hand the explorer those arrays, and ``from_code`` rebuilds a state by
replaying the actions from the start. The pyspiel calls of the walk are those of the
plainest exploration (``child``, ``current_player``, ``str``, one dict lookup per move),
so the bridge costs little more. Codes are the walk's order, the same in every process
for the same game, which keeps a saved tablebase valid.

The player "to move" at an end is the opponent of the player who made the last move, so
a terminal return becomes WIN / LOSS / TIE (or a score) for that player. A game whose
ends all return one size of win (for example +-1, or 1/0 around a constant sum of 1) is
won / lost / tied; any other game is scored, its score being half the difference of the
two returns (the return itself in a zero-sum game). ``scored=`` decides it without
exploring.
"""

from __future__ import annotations

import contextlib
import math
from array import array
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel  # type: ignore[import-not-found,unused-ignore]

from ..errors import GameError, GameNotFound, ParameterError
from ..memory import MemoryWatch
from ..protocol import Codes, Expansion
from ..values import LOSS, TIE, WIN, GameValue

__all__ = [
    "Move",
    "OpenSpielGame",
    "UnsupportedGame",
    "from_openspiel",
    "load_openspiel",
    "parameter_defaults",
    "unsupported",
]

PREFIX = "openspiel:"
CHECK_EVERY = 1 << 16
"""New positions between two looks at the process's memory during the walk."""

_T = pyspiel.GameType


class UnsupportedGame(GameError):
    """An OpenSpiel game that is not two-player, sequential, deterministic, of perfect
    information and zero- or constant-sum: perfectplay cannot solve it exactly."""


@dataclass(frozen=True)
class Move:
    """One move: OpenSpiel's action number and its action string. Moves are equal when
    their actions are, so a move typed as its number is the move."""

    action: int
    text: str = field(compare=False)

    def __str__(self) -> str:
        return self.text


def display_name(game: Any) -> str:
    """``openspiel:`` and the game's string, without the empty parentheses of no parameters."""
    text = str(game)
    return PREFIX + (text[:-2] if text.endswith("()") else text)


def unsupported(game: Any) -> list[str]:
    """The properties that keep an OpenSpiel game from being solved exactly (empty if none)."""
    kind = game.get_type()
    found = []
    players = game.num_players()
    if players != 2:
        found.append(f"{players} players")
    if kind.dynamics == _T.Dynamics.SIMULTANEOUS:
        found.append("simultaneous moves")
    elif kind.dynamics != _T.Dynamics.SEQUENTIAL:
        found.append("a mean-field game")
    if kind.chance_mode != _T.ChanceMode.DETERMINISTIC:
        found.append("chance")
    if kind.information != _T.Information.PERFECT_INFORMATION:
        found.append("imperfect information")
    if kind.utility == _T.Utility.GENERAL_SUM:
        found.append("general-sum returns")
    elif kind.utility == _T.Utility.IDENTICAL:
        found.append("identical returns (a team game)")
    return found


def _joined(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _registered() -> dict[str, Any]:
    """OpenSpiel's game types by short name."""
    return {kind.short_name: kind for kind in pyspiel.registered_games()}


def _game_type(name: str) -> Any:
    """The GameType of a registered game; GameNotFound, in one line, when there is none."""
    types = _registered()
    if name not in types and name.startswith("python_"):
        # OpenSpiel's games written in Python register themselves on import; one of their
        # optional modules failing to import leaves the name unknown.
        with contextlib.suppress(Exception):
            import open_spiel.python.games  # type: ignore[import-untyped,import-not-found,unused-ignore]  # noqa: F401
        types = _registered()
    if name not in types:
        fits = sorted(n for n, t in types.items() if not _type_problems(t))
        raise GameNotFound(
            f"{PREFIX}{name}: no such OpenSpiel game; two-player perfect-information games: "
            + ", ".join(fits)
        )
    return types[name]


def _type_problems(kind: Any) -> bool:
    """Whether a game type is plainly not for perfectplay (used to list candidates)."""
    return bool(
        kind.dynamics != _T.Dynamics.SEQUENTIAL
        or kind.chance_mode != _T.ChanceMode.DETERMINISTIC
        or kind.information != _T.Information.PERFECT_INFORMATION
        or kind.utility not in (_T.Utility.ZERO_SUM, _T.Utility.CONSTANT_SUM)
        or not kind.min_num_players <= 2 <= kind.max_num_players
    )


def parameter_defaults(name: str) -> dict[str, Any]:
    """The parameters an OpenSpiel game takes, each with its default (whose type is the
    parameter's: int, float, bool or str)."""
    return dict(_game_type(name).parameter_specification)


def load_openspiel(spec: str, parameters: Mapping[str, Any] | None = None) -> Any:
    """The pyspiel game of ``spec`` ("connect_four" or "connect_four(rows=4)"), with
    ``parameters`` added; names and types are checked here so that a mistake is one line
    (OpenSpiel itself would also print its own message on stderr)."""
    spec = spec.strip()
    try:
        given = dict(pyspiel.game_parameters_from_string(spec))
    except Exception as exc:  # pyspiel reports a malformed string as SpielError
        raise GameNotFound(f"{PREFIX}{spec}: cannot read it as an OpenSpiel game") from exc
    name = str(given.pop("name", spec))
    defaults = parameter_defaults(name)
    given.update(parameters or {})
    for key, value in given.items():
        if key not in defaults:
            known = ", ".join(sorted(defaults)) or "none"
            raise ParameterError(
                f"{PREFIX}{name}: unknown parameter {key!r}; this game takes: {known}"
            )
        expected = type(defaults[key])
        if isinstance(value, float) and expected is int and value.is_integer():
            given[key] = value = int(value)
        if isinstance(value, int) and expected is float and not isinstance(value, bool):
            given[key] = value = float(value)
        if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
            raise ParameterError(
                f"{PREFIX}{name}: parameter {key}={value!r} should be {expected.__name__}"
            )
    try:
        return pyspiel.load_game(name, given)
    except pyspiel.SpielError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else "cannot be loaded"
        raise GameNotFound(f"{PREFIX}{name}: {first}") from None


class OpenSpielGame:
    """A two-player, sequential, deterministic, perfect-information, zero- or constant-sum
    OpenSpiel game as a perfectplay game (see the module docstring).

    States are pyspiel states; moves are ``Move(action, text)``; ``to_move`` is the
    OpenSpiel player (0 or 1); keys are integer codes of the positions.
    """

    def __init__(
        self,
        spec: str,
        keep_histories: bool = False,
        scored: bool | None = None,
        *,
        openspiel_game: Any = None,
    ) -> None:
        game = load_openspiel(spec) if openspiel_game is None else openspiel_game
        self.openspiel = game
        self.spec = str(game)
        """The game's OpenSpiel string with every parameter given (part of its identity)."""
        self.keep_histories = keep_histories
        self.name = display_name(game)
        problems = unsupported(game)
        if problems:
            raise UnsupportedGame(f"{self.name}: {_joined(problems)}")
        if scored is not None:
            self.scored = scored
        self._declared: bool | None = scored
        self._keyof: Callable[[Any], str] = pyspiel.State.history_str if keep_histories else str
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
        self._texts: dict[str, int] | None = None
        """Action strings to actions, built when a move is first read from text."""
        self._held: dict[int, Any] = {}
        """States with no parent to replay from: the start, and positions asked about
        that the start does not reach."""
        self._complete = False
        self._kind: str | None = None
        self._size = 1.0
        """The size of a win, for a won/lost/tied game."""
        root = game.new_initial_state()
        self._adopt(root, self._player_of(root))

    # ------------------------------------------------------------------ the plain protocol

    def initial(self) -> Any:
        """The start: a new pyspiel state."""
        return self.openspiel.new_initial_state()

    def moves(self, state: Any) -> list[Move]:
        """The legal actions, each with its action string."""
        player = state.current_player()
        return [Move(a, state.action_to_string(player, a)) for a in state.legal_actions()]

    def play(self, state: Any, move: Move | int) -> Any:
        """The state after ``move`` (a new pyspiel state; ``state`` is left as it was)."""
        return state.child(move.action if isinstance(move, Move) else int(move))

    def outcome(self, state: Any) -> GameValue | None:
        """None while the game goes on; at an end, its value for the player who did not
        make the last move."""
        if not state.is_terminal():
            return None
        return self._end_value(self._value_for(state, self._player_of(state)))

    def to_move(self, state: Any) -> int:
        """The OpenSpiel player to move; at an end, the opponent of the last mover."""
        return self._player_of(state)

    def key(self, state: Any) -> int:
        """The code of a position: its number in the exploration from the start."""
        player = self._player_of(state)
        text = self._keyof(state)
        code = self._find(player, text)
        if code is None and not self._complete:
            self._explore()
            code = self._find(player, text)
        if code is None:
            code = self._adopt(state, player)
        return code

    def show(self, state: Any) -> str:
        """The state as OpenSpiel prints it."""
        return str(state)

    def format_move(self, move: Move) -> str:
        """The action string."""
        return move.text

    def parse_move(self, text: str) -> Move:
        """A move from its action string, or from its action number (handy where action
        strings hold commas, as in ``analyze --moves``)."""
        text = text.strip()
        if text.lstrip("-").isdigit():
            return Move(int(text), text)
        if self._texts is None:
            game = self.openspiel
            count = game.num_distinct_actions()
            self._texts = {
                game.action_to_string(player, action): action
                for player in (1, 0)
                for action in range(count if count <= 1 << 16 else 0)
            }
        action = self._texts.get(text)
        if action is None:
            raise ValueError("not an action string of this game; an action number also does")
        return Move(action, text)

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

    # ------------------------------------------------------------------ the batch protocol

    def batch_outcome(self, codes: Codes) -> npt.NDArray[Any]:
        """Outcome codes (WIN / LOSS / TIE for the player to move, 0 goes on), or scores
        with NaN for a scored game."""
        self._ensure_complete()
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
        self._ensure_complete()
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

    @property
    def positions(self) -> int:
        """How many positions have a code so far."""
        return len(self._label)

    def explore(self) -> int:
        """Walk every position reachable from the start (and from positions asked about);
        returns how many there are. Solving does this by itself."""
        self._ensure_complete()
        return len(self._label)

    def _ensure_complete(self) -> None:
        if not self._complete:
            self._explore()

    def _player_of(self, state: Any) -> int:
        """The player to move; at an end, the opponent of whoever moved last."""
        player = state.current_player()
        if player >= 0:
            return int(player)
        history = state.full_history()
        return 1 - int(history[-1].player) if history else 0

    def _value_for(self, state: Any, player: int) -> float:
        returns = state.returns()
        return float(returns[player] - returns[1 - player]) * 0.5

    def _end_value(self, value: float) -> GameValue:
        """An end's value as the protocol says it: WIN / LOSS / TIE, or a score."""
        if self._kind is None and self._declared is None:
            self._explore()  # the kind of the game's ends is told by all of them
        if self._kind == "scored" or (self._kind is None and self._declared):
            return int(value) if float(value).is_integer() else value
        if value != 0 and self._kind is not None and abs(value) != self._size:
            raise GameError(
                f"{self.name}: an end returns {value:+g} where wins return "
                f"{self._size:+g}; pass scored=True to solve it as a scored game"
            )
        return WIN if value > 0 else LOSS if value < 0 else TIE

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
            self._value.append(self._value_for(state, player))
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

    def _explore(self) -> None:
        """Expand every pending position and all it reaches, depth first (see the module
        docstring). Runs once per position and move: kept to the pyspiel calls."""
        codes = self._pending()
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
        self._complete = True
        self._decide_kind()
        self._seal()

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


def from_openspiel(
    game_or_spec: Any,
    keep_histories: bool = False,
    *,
    scored: bool | None = None,
    **parameters: Any,
) -> OpenSpielGame:
    """A perfectplay game of an OpenSpiel game: a pyspiel.Game, or a spec such as
    "tic_tac_toe" or "connect_four(rows=4,columns=4)" (``parameters`` are added to it).

    UnsupportedGame, naming the failing property, for any game that is not two-player,
    sequential, deterministic, of perfect information and zero- or constant-sum.
    """
    if isinstance(game_or_spec, str):
        game = load_openspiel(game_or_spec, parameters)
    else:
        if parameters:
            raise ParameterError("parameters go with a spec, not with a loaded pyspiel game")
        game = game_or_spec
    return OpenSpielGame(str(game), keep_histories, scored, openspiel_game=game)
