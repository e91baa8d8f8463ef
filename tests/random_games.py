"""Small explicit games for property tests, and Hypothesis strategies that draw them.

A game here is a graph spelled out in full: states are the ints 0..n-1, and a move is the
index of an edge in ``edges[state]`` (so parallel edges to one child are distinct moves).
``terminal`` maps a state to its outcome (WIN / LOSS / TIE or a score); a terminal state's
edges are never looked at. ``player`` (optional) says who moves where: a move between two
states with the same player gives that player another turn.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from hypothesis import strategies as st

from perfectplay.values import LOSS, TIE, WIN

INF = math.inf
MAX_STATES = 12
MAX_DEGREE = 4


class ExplicitGame:
    """A game over an explicit graph; the mover changes on every move."""

    def __init__(
        self,
        edges: Mapping[int, Sequence[int]],
        terminal: Mapping[int, Any] | None = None,
        root: int = 0,
        *,
        impartial: bool = False,
        name: str = "explicit",
    ) -> None:
        self.edges: dict[int, list[int]] = {s: list(kids) for s, kids in edges.items()}
        self.terminal: dict[int, Any] = dict(terminal or {})
        self.root = root
        self.impartial = impartial
        self.name = name

    @property
    def n_states(self) -> int:
        return len(self.edges)

    def initial(self) -> int:
        return self.root

    def moves(self, state: int) -> list[int]:
        return list(range(len(self.edges[state])))

    def play(self, state: int, move: int) -> int:
        return self.edges[state][move]

    def outcome(self, state: int) -> Any:
        return self.terminal.get(state)

    def _options(self) -> dict[str, Any]:
        return {"impartial": self.impartial, "name": self.name}

    def with_root(self, root: int) -> ExplicitGame:
        """The same graph played from another state."""
        return ExplicitGame(self.edges, self.terminal, root, **self._options())

    def with_changes(
        self, edges: Mapping[int, Sequence[int]], terminal: Mapping[int, Any]
    ) -> ExplicitGame:
        """The same kind of game over other edges and ends."""
        return ExplicitGame(edges, terminal, self.root, **self._options())

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(edges={self.edges!r}, terminal={self.terminal!r}, "
            f"root={self.root!r}, impartial={self.impartial!r})"
        )


class ExplicitTurnGame(ExplicitGame):
    """An explicit game whose states say who moves: a move to a state of the same player
    gives that player another turn."""

    def __init__(
        self,
        edges: Mapping[int, Sequence[int]],
        terminal: Mapping[int, Any] | None = None,
        root: int = 0,
        *,
        player: Mapping[int, int],
        impartial: bool = False,
        name: str = "explicit-turns",
    ) -> None:
        super().__init__(edges, terminal, root, impartial=impartial, name=name)
        self.player = dict(player)

    def to_move(self, state: int) -> int:
        return self.player[state]

    def _options(self) -> dict[str, Any]:
        return {**super()._options(), "player": self.player}

    def with_root(self, root: int) -> ExplicitTurnGame:
        return ExplicitTurnGame(self.edges, self.terminal, root, **self._options())

    def with_changes(
        self, edges: Mapping[int, Sequence[int]], terminal: Mapping[int, Any]
    ) -> ExplicitTurnGame:
        return ExplicitTurnGame(edges, terminal, self.root, **self._options())

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(edges={self.edges!r}, terminal={self.terminal!r}, "
            f"root={self.root!r}, player={self.player!r}, impartial={self.impartial!r})"
        )


# --- strategies -------------------------------------------------------------------------

outcomes = st.sampled_from([WIN, LOSS, TIE])
"""A terminal outcome."""

scores = st.one_of(
    st.integers(-3, 3),
    st.integers(-3, 3),
    st.integers(-3, 3),
    st.sampled_from([INF, -INF]),
    st.sampled_from([0.5, -2.5]),
)
"""A terminal score: mostly small ints (so that equal values are common), sometimes
+-inf, now and then a fraction."""


@st.composite
def graph_edges(
    draw: st.DrawFn,
    *,
    acyclic: bool,
    min_states: int = 1,
    max_states: int = MAX_STATES,
    max_degree: int = MAX_DEGREE,
) -> dict[int, list[int]]:
    """Edges over states 0..n-1. Acyclic graphs only point to higher ids; cyclic ones may
    point anywhere (self-loops included). Every state but the root gets one parent with a
    lower id, so everything is reachable unless an end cuts it off. Parallel edges allowed."""
    n = draw(st.integers(min_states, max_states))
    edges: dict[int, list[int]] = {}
    for s in range(n):
        if acyclic and s == n - 1:
            edges[s] = []
            continue
        target = st.integers(s + 1, n - 1) if acyclic else st.integers(0, n - 1)
        edges[s] = draw(st.lists(target, max_size=max_degree))
    for s in range(1, n):
        parent = draw(st.integers(0, s - 1))
        kids = edges[parent]
        kids.insert(draw(st.integers(0, len(kids))), s)
    return edges


@st.composite
def _ends(
    draw: st.DrawFn, edges: dict[int, list[int]], value: st.SearchStrategy[Any]
) -> dict[int, Any]:
    """Terminal values for some states: most sinks, a few states with moves (whose moves
    the end then hides)."""
    terminal: dict[int, Any] = {}
    for s, kids in edges.items():
        ends_here = draw(st.integers(0, 7)) >= (3 if not kids else 7)
        if ends_here:
            terminal[s] = draw(value)
    return terminal


@st.composite
def _players(draw: st.DrawFn, n: int) -> dict[int, int]:
    return {s: draw(st.integers(0, 1)) for s in range(n)}


@st.composite
def games(
    draw: st.DrawFn,
    *,
    acyclic: bool,
    scored: bool = False,
    extra_turns: bool | None = None,
    max_states: int = MAX_STATES,
) -> ExplicitGame:
    """An outcome game (WIN/LOSS/TIE ends) or a scored game over a random graph.

    ``extra_turns`` True labels states with players (some moves then give another turn),
    False never does, None lets Hypothesis choose.
    """
    edges = draw(graph_edges(acyclic=acyclic, max_states=max_states))
    terminal = draw(_ends(edges, scores if scored else outcomes))
    if extra_turns is None:
        extra_turns = draw(st.booleans())
    if extra_turns:
        return ExplicitTurnGame(edges, terminal, player=draw(_players(len(edges))))
    return ExplicitGame(edges, terminal)


def outcome_dags(**kwargs: Any) -> st.SearchStrategy[ExplicitGame]:
    """Acyclic games ending in WIN, LOSS or TIE."""
    return games(acyclic=True, **kwargs)


def outcome_graphs(**kwargs: Any) -> st.SearchStrategy[ExplicitGame]:
    """Games ending in WIN, LOSS or TIE, cycles and self-loops allowed."""
    return games(acyclic=False, **kwargs)


def scored_dags(**kwargs: Any) -> st.SearchStrategy[ExplicitGame]:
    """Acyclic scored games (a few may reach no scored end and so be outcome games)."""
    return games(acyclic=True, scored=True, **kwargs)


def scored_graphs(**kwargs: Any) -> st.SearchStrategy[ExplicitGame]:
    """Scored games, cycles allowed."""
    return games(acyclic=False, scored=True, **kwargs)


@st.composite
def impartial_games(
    draw: st.DrawFn,
    *,
    acyclic: bool = True,
    max_states: int = MAX_STATES,
    loss_ends: bool | None = None,
) -> ExplicitGame:
    """Impartial normal-play games: a state ends when it has no moves, or (with
    ``loss_ends``) by declaring LOSS for the mover, the one end normal play allows."""
    edges = draw(graph_edges(acyclic=acyclic, max_states=max_states))
    if loss_ends is None:
        loss_ends = draw(st.booleans())
    terminal = draw(_ends(edges, st.just(LOSS))) if loss_ends else {}
    return ExplicitGame(edges, terminal, impartial=True, name="impartial")


@st.composite
def with_forced_cycle(draw: st.DrawFn, game: ExplicitGame) -> ExplicitGame:
    """``game`` changed so that its root lies on a cycle of states with one move each:
    play from the root can do nothing but go round."""
    n = game.n_states
    others = draw(st.permutations(range(1, n)))
    length = draw(st.integers(0, n - 1))
    cycle = [0, *others[:length]]
    edges = {s: list(kids) for s, kids in game.edges.items()}
    terminal = dict(game.terminal)
    for i, s in enumerate(cycle):
        edges[s] = [cycle[(i + 1) % len(cycle)]]
        terminal.pop(s, None)
    return game.with_changes(edges, terminal)
