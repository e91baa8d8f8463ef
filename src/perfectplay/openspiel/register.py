"""register(game): any perfectplay game as a registered Python OpenSpiel game.

OpenSpiel then runs its own algorithms on it (MCTS, AlphaZero, evaluation), and
``PerfectBot`` and ``grade`` read its pyspiel states, which carry the perfectplay state.

OpenSpiel needs a fixed set of action numbers, the utility bounds and a longest game. By
default they come from exploring the game once: every distinct move (by its text) gets an
action number in the order first met, and the longest game is the longest path of the
explored graph. ``actions`` gives the moves instead, in action order. The player to move
is OpenSpiel player 0 at the start; with ``to_move``, whoever shares that label is player
0 and the other label player 1, else the turn passes at every move. A state with no moves
ends the game as a loss for the player to move, as in perfectplay. A game whose graph has
cycles ends after ``max_game_length`` plies as a tie. A scored game's infinite score (its
way of saying won or lost) becomes one point beyond its largest finite score, as OpenSpiel's
returns are finite.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found,unused-ignore]

from ..errors import GameError
from ..protocol import Game
from ..rules import Rules
from ..spaces.explore import explore_for
from ..spaces.graph import StateGraph
from ..values import Value

__all__ = ["register"]

DEFAULT_CYCLIC_LENGTH = 1000
"""Plies after which a game with cycles stops as a tie, unless told otherwise."""

_REGISTERED: dict[str, _Adapter] = {}


class _Shared:
    """Holds what states share (the rules, an immutable perfectplay state): OpenSpiel
    clones a Python state by deep copy, and these must not be copied."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


@dataclass
class _Adapter:
    """What the OpenSpiel game of one perfectplay game needs: its rules, the action table,
    the utility bounds and the longest game."""

    rules: Rules[Any, Any]
    texts: list[str]
    ids: dict[str, int]
    scored: bool
    bound: float
    """The largest total a player can get (OpenSpiel's max_utility)."""
    infinity: float
    """What an infinite score (a scored game's win) becomes: beyond every finite score."""
    max_length: int
    cyclic: bool
    first_label: Hashable

    def action_of(self, move: Any) -> int:
        """The action number of a move (by its text)."""
        text = self.rules.format_move(move)
        action = self.ids.get(text)
        if action is None:
            raise GameError(
                f"{self.rules.name}: move {text!r} has no OpenSpiel action; give every move "
                "in register(game, actions=...)"
            )
        return action


class PerfectplayState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state holding a perfectplay state (``perfectplay_state``)."""

    def __init__(self, game: Any, adapter: _Adapter, inner: Any) -> None:
        super().__init__(game)
        self._adapter = _Shared(adapter)
        self._inner = _Shared(inner)
        self._player = 0
        self._plies = 0
        self._points = [0.0, 0.0]
        self._returns = [0.0, 0.0]
        self._moves: list[Any] = []
        self._ended = False
        self._settle()

    @property
    def perfectplay_state(self) -> Any:
        """The perfectplay state this pyspiel state stands for."""
        return self._inner.value

    def action_of(self, move: Any) -> int:
        """The action number of one of the perfectplay game's moves."""
        adapter: _Adapter = self._adapter.value
        return adapter.action_of(move)

    def _settle(self) -> None:
        """Read the moves, or the end and its returns, of the state now held."""
        adapter: _Adapter = self._adapter.value
        rules = adapter.rules
        state = self._inner.value
        result = rules.outcome(state)
        self._moves = [] if result is not None else list(rules.moves(state))
        too_long = adapter.cyclic and self._plies >= adapter.max_length
        self._ended = result is not None or not self._moves or too_long
        if not self._ended:
            return
        me = self._player
        if too_long and result is None:
            mine = 0.0
        elif result is None:
            mine = -adapter.infinity if adapter.scored else -1.0
        elif isinstance(result, Value):
            mine = 1.0 if result is Value.WIN else -1.0 if result is Value.LOSS else 0.0
        else:
            mine = max(-adapter.infinity, min(adapter.infinity, float(result)))
        mine += self._points[me] - self._points[1 - me]
        self._returns = [0.0, 0.0]
        self._returns[me] = mine
        self._returns[1 - me] = -mine

    def current_player(self) -> int:
        """0 or 1, or pyspiel.PlayerId.TERMINAL at the end."""
        return int(pyspiel.PlayerId.TERMINAL) if self._ended else self._player

    def _legal_actions(self, player: int) -> list[int]:
        adapter: _Adapter = self._adapter.value
        return sorted(adapter.action_of(m) for m in self._moves)

    def _move(self, action: int) -> Any:
        adapter: _Adapter = self._adapter.value
        for move in self._moves:
            if adapter.ids.get(adapter.rules.format_move(move)) == action:
                return move
        raise GameError(f"{adapter.rules.name}: action {action} is not legal here")

    def _apply_action(self, action: int) -> None:
        adapter: _Adapter = self._adapter.value
        rules = adapter.rules
        state = self._inner.value
        move = self._move(action)
        child = rules.play(state, move)
        if rules.reward is not None:
            self._points[self._player] += float(rules.reward(state, move))
        if rules.to_move is None:
            self._player = 1 - self._player
        else:
            self._player = 0 if rules.to_move(child) == adapter.first_label else 1
        self._inner = _Shared(child)
        self._plies += 1
        self._settle()

    def _action_to_string(self, player: int, action: int) -> str:
        adapter: _Adapter = self._adapter.value
        return adapter.texts[action]

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._ended

    def returns(self) -> list[float]:
        """Each player's total: +1 / -1 / 0 for won / lost / tied games, else the score."""
        return list(self._returns)

    def __str__(self) -> str:
        adapter: _Adapter = self._adapter.value
        return adapter.rules.show(self._inner.value)


def _longest_game(graph: StateGraph) -> tuple[int, bool]:
    """The most plies any game can last, and whether the graph has cycles (then 0)."""
    order = graph.children_first
    if order.shape[0] < graph.n_states:
        return 0, True
    offsets, children = graph.offsets, graph.children
    depth = np.zeros(graph.n_states, dtype=np.int64)
    for sid in order.tolist():  # children first: each child's depth is final
        lo, hi = int(offsets[sid]), int(offsets[sid + 1])
        if hi > lo:
            depth[sid] = 1 + int(depth[children[lo:hi]].max())
    return int(depth[graph.root]), False


def _action_table(rules: Rules[Any, Any], graph: StateGraph) -> list[str]:
    """Every distinct move text of the explored game, in the order first met."""
    seen: dict[str, None] = {}
    for sid in range(graph.n_states):
        if graph.terminal[sid]:
            continue
        for move in rules.moves(graph.state(sid)):
            seen.setdefault(rules.format_move(move), None)
    return list(seen)


def _short_name(name: str) -> str:
    return "perfectplay_" + re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def register(
    game: Game[Any, Any],
    *,
    name: str | None = None,
    actions: Iterable[Any] | None = None,
    max_game_length: int | None = None,
) -> Any:
    """Register ``game`` with OpenSpiel and return the loaded pyspiel game.

    ``name`` is its OpenSpiel short name (default ``perfectplay_`` and the game's name,
    numbered when another game holds it); registering the same game object again returns
    it as registered the first time.
    """
    return register_for(Rules(game), name=name, actions=actions, max_game_length=max_game_length)


def register_for(
    rules: Rules[Any, Any],
    *,
    name: str | None = None,
    actions: Iterable[Any] | None = None,
    max_game_length: int | None = None,
) -> Any:
    """``register`` of a game read already (its ``Rules``)."""
    short, registered = _name_for(rules, name)
    if registered:
        return pyspiel.load_game(short)
    adapter = _adapter_for(rules, actions, max_game_length)
    _register_class(short, _game_type(short, rules), _game_info(adapter), adapter)
    _REGISTERED[short] = adapter
    return pyspiel.load_game(short)


def _name_for(rules: Rules[Any, Any], name: str | None) -> tuple[str, bool]:
    """The short name to register the game under, and whether this very game holds it
    already; a default name taken by another game is numbered, a name given is refused."""
    short = name or _short_name(rules.name)
    for suffix in range(2, 1 << 20):
        taken = _REGISTERED.get(short)
        if taken is None:
            break
        if taken.rules.game is rules.game:
            return short, True
        if name is not None:
            raise GameError(f"OpenSpiel already has a game named {name!r}; choose another name")
        short = f"{_short_name(rules.name)}_{suffix}"
    return short, False


def _adapter_for(
    rules: Rules[Any, Any], actions: Iterable[Any] | None, max_game_length: int | None
) -> _Adapter:
    """The game explored once: its action table (or the ``actions`` given), its longest
    game and its utility bounds."""
    graph = explore_for(rules)
    texts = (
        _action_table(rules, graph)
        if actions is None
        else list(dict.fromkeys(rules.format_move(m) for m in actions))
    )
    longest, cyclic = _longest_game(graph)
    if cyclic:
        longest = max_game_length or DEFAULT_CYCLIC_LENGTH
    elif max_game_length is not None:
        longest = max(longest, max_game_length)
    bound, infinity = _utility_bounds(graph, longest)
    root = rules.initial_state()
    return _Adapter(
        rules=rules,
        texts=texts,
        ids={text: i for i, text in enumerate(texts)},
        scored=graph.kind == "scored",
        bound=bound,
        infinity=infinity,
        max_length=max(longest, 1),
        cyclic=cyclic,
        first_label=None if rules.to_move is None else rules.to_move(root),
    )


def _utility_bounds(graph: StateGraph, longest: int) -> tuple[float, float]:
    """The largest total a player can get and what an infinite score becomes: 1 and 1 for
    a game of outcomes; for a scored game one beyond its largest finite score, the bound
    adding the largest reward at every ply of the longest game."""
    bound = infinity = 1.0
    if graph.kind == "scored":
        assert graph.score is not None
        finite = graph.score[np.isfinite(graph.score)]
        infinity = float(np.abs(finite).max(initial=0.0)) + 1.0
        bound = infinity
        if graph.reward is not None and graph.reward.size:
            bound += longest * float(np.abs(graph.reward).max())
    return bound, infinity


def _game_type(short: str, rules: Rules[Any, Any]) -> Any:
    """OpenSpiel's description of the game: two players, sequential, deterministic,
    perfect information, zero-sum, rewarded at the end."""
    return pyspiel.GameType(
        short_name=short,
        long_name=f"perfectplay {rules.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={},
    )


def _game_info(adapter: _Adapter) -> Any:
    """OpenSpiel's sizes of the game: its actions, utility bounds and longest game."""
    return pyspiel.GameInfo(
        num_distinct_actions=max(len(adapter.texts), 1),
        max_chance_outcomes=0,
        num_players=2,
        min_utility=-adapter.bound,
        max_utility=adapter.bound,
        utility_sum=0.0,
        max_game_length=adapter.max_length,
    )


def _register_class(short: str, game_type: Any, game_info: Any, adapter: _Adapter) -> None:
    """Register with OpenSpiel a pyspiel.Game class whose states are the game's."""
    rules = adapter.rules

    class PerfectplayGame(pyspiel.Game):  # type: ignore[misc]
        """A perfectplay game as OpenSpiel sees it."""

        def __init__(self, params: dict[str, Any] | None = None) -> None:
            super().__init__(game_type, game_info, params or {})
            self.perfectplay_rules = rules

        def new_initial_state(self) -> PerfectplayState:
            return PerfectplayState(self, adapter, rules.initial_state())

    PerfectplayGame.__name__ = PerfectplayGame.__qualname__ = f"Registered_{short}"
    pyspiel.register_game(game_type, PerfectplayGame)
