"""The batch path (arrays) against the plain path (one state at a time) on the same games.

Every reachable state must get the same value, remoteness and move values either way.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt
from hypothesis import given, settings
from hypothesis import strategies as st
from random_games import (
    ExplicitGame,
    ExplicitTurnGame,
    impartial_games,
    outcome_graphs,
    scored_dags,
)

from perfectplay import Expansion, GameError, explore, solve
from perfectplay.games import (
    ConnectFour,
    Invisible,
    Stones,
    Subtraction,
    TicTacToe,
    WeightedTicTacToe,
)
from perfectplay.protocol import BatchRules
from perfectplay.values import Value, is_score


class AsBatch:
    """An explicit game that also speaks the batch protocol (states are already ints)."""

    def __init__(self, game: ExplicitGame, universe: bool) -> None:
        self.game = game
        self.name = game.name
        self.impartial = game.impartial
        self.universe = game.n_states if universe else None
        self.scored = any(is_score(v) for v in game.terminal.values())
        if isinstance(game, ExplicitTurnGame):
            self.to_move = game.to_move

    def initial(self) -> int:
        return self.game.initial()

    def moves(self, state: int) -> list[int]:
        return self.game.moves(state)

    def play(self, state: int, move: int) -> int:
        return self.game.play(state, move)

    def outcome(self, state: int) -> Any:
        return self.game.outcome(state)

    def speed(self) -> BatchRules:
        return BatchRules(self.batch_outcome, self.batch_expand, universe=self.universe)

    def batch_outcome(self, codes: npt.NDArray[np.int64]) -> npt.NDArray[Any]:
        ends = [self.game.terminal.get(int(c)) for c in codes]
        if self.scored:
            return np.array([np.nan if e is None else float(e) for e in ends])
        return np.array([0 if e is None else int(e) for e in ends], dtype=np.int8)

    def batch_expand(self, codes: npt.NDArray[np.int64]) -> Expansion:
        parents: list[int] = []
        children: list[int] = []
        same: list[bool] = []
        turns = isinstance(self.game, ExplicitTurnGame)
        for i, code in enumerate(codes.tolist()):
            for child in self.game.edges[code]:
                parents.append(i)
                children.append(child)
                if turns:
                    same.append(self.game.to_move(child) == self.game.to_move(code))
        return Expansion(
            np.array(parents, dtype=np.int64),
            np.array(children, dtype=np.int64),
            same_mover=np.array(same, dtype=np.bool_) if turns else None,
        )


def assert_same_solution(game: Any, method: str = "auto") -> None:
    by_array = solve(game, method, batch=True)
    by_state = solve(game, method, batch=False)
    assert by_array.stats.states == by_state.stats.states
    assert by_array.stats.edges == by_state.stats.edges
    assert by_array.method == by_state.method
    for state in by_state.graph.states:
        assert by_array.value(state) == by_state.value(state), state
        assert by_array.remoteness(state) == by_state.remoteness(state), state
        moves_a = [(m.move, m.value, m.remoteness) for m in by_array.move_values(state)]
        moves_s = [(m.move, m.value, m.remoteness) for m in by_state.move_values(state)]
        assert moves_a == moves_s
        if by_state.has_grundy:
            assert by_array.grundy(state) == by_state.grundy(state)


@settings(max_examples=150, deadline=None)
@given(st.one_of(outcome_graphs(), scored_dags(), impartial_games()), st.booleans())
def test_batch_exploration_matches_plain_on_random_games(
    game: ExplicitGame, universe: bool
) -> None:
    wrapped = AsBatch(game, universe)
    has_scores = wrapped.scored
    if has_scores and any(isinstance(v, Value) for v in game.terminal.values()):
        return  # a mixed game is refused either way
    assert_same_solution(wrapped)


def test_subtraction_and_stones_batch_match_plain() -> None:
    rng = random.Random(11)
    for _ in range(30):
        stones = rng.randint(0, 60)
        take = tuple(sorted(rng.sample(range(1, 12), rng.randint(1, 4))))
        assert_same_solution(Subtraction(stones, take))
        assert_same_solution(Stones(stones, take), "retrograde")


def test_invisible_batch_matches_plain() -> None:
    rng = random.Random(2741)
    for _ in range(40):
        decks = [
            tuple(
                -1 if rng.random() < 0.3 else rng.randint(1, 30) for _ in range(rng.randint(1, 5))
            )
            for _ in range(2)
        ]
        assert_same_solution(Invisible(decks[0], decks[1]))


def test_universe_drops_what_the_root_cannot_reach() -> None:
    graph = explore(Subtraction(10, (2,)))
    assert graph.n_states == 6  # 10, 8, ..., 0: the odd piles are never reached
    assert graph.id_of(7) is None and graph.id_of(4) is not None
    assert graph.state(graph.root) == 10


def test_bad_batch_answers_are_named() -> None:
    class Unsorted(AsBatch):
        def batch_expand(self, codes: npt.NDArray[np.int64]) -> Expansion:
            exp = super().batch_expand(codes)
            return Expansion(exp.parents[::-1].copy(), exp.children[::-1].copy())

    game = AsBatch(ExplicitGame({0: [1, 2], 1: [3], 2: [3], 3: []}), universe=False)
    bad = Unsorted(game.game, universe=False)
    assert solve(game).value() is Value.LOSS
    try:
        solve(bad)
    except GameError as exc:
        assert "non-decreasing" in str(exc)
    else:
        raise AssertionError("unsorted parents were accepted")


def test_tictactoe_batch_matches_plain_with_and_without_symmetry() -> None:
    assert_same_solution(TicTacToe())
    assert_same_solution(TicTacToe(symmetry=True))


def test_connect_four_batch_matches_plain_on_small_boards() -> None:
    for width, height, connect in ((3, 3, 3), (4, 3, 4), (3, 4, 3), (4, 4, 4), (5, 3, 3)):
        for symmetry in (False, True):
            assert_same_solution(ConnectFour(width, height, connect, symmetry))


def test_connect_four_codes_round_trip() -> None:
    game = ConnectFour(5, 4)
    rng = random.Random(4)
    for _ in range(200):
        state = game.initial()
        for _ in range(rng.randint(0, 20)):
            if game.outcome(state) is not None or not game.moves(state):
                break
            state = game.play(state, rng.choice(game.moves(state)))
        code = game.key(state)
        assert game.from_code(code) == state
        pos, mask = game.board.boards(np.array([code], dtype=np.int64))
        assert (int(pos[0]), int(mask[0])) == state


def test_weighted_tictactoe_batch_matches_plain() -> None:
    rng = random.Random(349)
    for _ in range(5):
        weights = tuple(rng.randint(-9, 9) for _ in range(9))
        assert_same_solution(WeightedTicTacToe(weights))
