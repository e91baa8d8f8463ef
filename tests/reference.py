"""Slow, plain reference solvers, written from the definitions and nothing else.

They talk to a game only through its protocol (initial, moves, play, outcome, to_move)
and share no code with the engine. Outcome games with cycles are solved as a fixed point,
round by round: round k finds, from the sets of round k-1, the states that are won or
lost within k plies (then tied within k plies); what is never decided is a DRAW. Acyclic
games are solved by plain recursive minimax with a memo, Grundy values by recursive mex.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from typing import Any

from perfectplay.values import DRAW, LOSS, TIE, WIN, Value

State = Hashable
Solved = dict[State, tuple[Any, int | None]]


class CycleFound(Exception):
    """A recursive reference met a state that is its own descendant."""


def successors(game: Any, state: State) -> list[tuple[Any, State, bool]]:
    """(move, child, same mover) for every move; none once the game is over there."""
    if game.outcome(state) is not None:
        return []
    to_move = getattr(game, "to_move", None)
    result = []
    for move in game.moves(state):
        child = game.play(state, move)
        same = to_move is not None and to_move(child) == to_move(state)
        result.append((move, child, same))
    return result


def reachable(game: Any, root: State | None = None) -> list[State]:
    """Every state reachable from the root (or ``root``), the root first."""
    start = game.initial() if root is None else root
    seen = [start]
    found = {start}
    i = 0
    while i < len(seen):
        for _, child, _ in successors(game, seen[i]):
            if child not in found:
                found.add(child)
                seen.append(child)
        i += 1
    return seen


def is_over(game: Any, state: State) -> bool:
    """The game has ended at ``state``: an outcome, or no move."""
    return game.outcome(state) is not None or not successors(game, state)


def kind(game: Any) -> str:
    """'scored' when some reachable end is a number, else 'outcome'."""
    for s in reachable(game):
        end = game.outcome(s)
        if end is not None and not isinstance(end, Value):
            return "scored"
    return "outcome"


def has_cycle(game: Any) -> bool:
    """Some reachable state can be reached again from itself."""
    for s in reachable(game):
        starts = [child for _, child, _ in successors(game, s)]
        if any(s in reachable(game, c) for c in starts):
            return True
    return False


def seen_by_mover(value: Any, same: bool) -> Any:
    """A child's value as the player moving into it sees it."""
    if same:
        return value
    if isinstance(value, Value):
        return {WIN: LOSS, LOSS: WIN}.get(value, value)
    return -value


def outcome_rank(value: Value, remoteness: int | None) -> tuple[int, float]:
    """Smaller is better for the mover: win soonest, tie soonest, draw, lose latest."""
    if value is WIN:
        return (0, remoteness)  # type: ignore[return-value]
    if value is TIE:
        return (1, remoteness)  # type: ignore[return-value]
    if value is DRAW:
        return (2, 0)
    return (3, -remoteness)  # type: ignore[operator]


# --- outcome games, cycles allowed: a fixed point ----------------------------------------


def solve_outcomes(game: Any) -> Solved:
    """Value and remoteness of every reachable state of a WIN/LOSS/TIE game, by rounds."""
    states = reachable(game)
    moves = {s: successors(game, s) for s in states}
    end = {s: game.outcome(s) for s in states}

    # Round 0: the ends. Round k: a state with moves wins within k plies when some move
    # leads to a state the mover wins (seen from the mover) within k-1; it loses within k
    # plies when every move leads to one the mover loses within k-1.
    won: dict[State, int] = {}
    lost: dict[State, int] = {}
    for s in states:
        if end[s] is WIN:
            won[s] = 0
        elif end[s] is LOSS or (end[s] is None and not moves[s]):
            lost[s] = 0
    k = 1
    while True:
        wins_for_mover = {}
        losses_for_mover = {}
        for s in states:
            if end[s] is not None or s in won or s in lost or not moves[s]:
                continue
            outcomes = []
            for _, child, same in moves[s]:
                if child in won:
                    outcomes.append(seen_by_mover(WIN, same))
                elif child in lost:
                    outcomes.append(seen_by_mover(LOSS, same))
                else:
                    outcomes.append(None)
            if WIN in outcomes:
                wins_for_mover[s] = k
            elif all(o is LOSS for o in outcomes):
                losses_for_mover[s] = k
        if not wins_for_mover and not losses_for_mover:
            break
        won.update(wins_for_mover)
        lost.update(losses_for_mover)
        k += 1

    # Ties, the same way, among the states neither won nor lost: tied ends in round 0,
    # then any state with a move to a state tied within k-1 plies.
    tied: dict[State, int] = {s: 0 for s in states if end[s] is TIE}
    k = 1
    while True:
        new = {}
        for s in states:
            if end[s] is not None or s in won or s in lost or s in tied:
                continue
            if any(child in tied for _, child, _ in moves[s]):
                new[s] = k
        if not new:
            break
        tied.update(new)
        k += 1

    result: Solved = {}
    for s in states:
        if s in won:
            result[s] = (WIN, won[s])
        elif s in lost:
            result[s] = (LOSS, lost[s])
        elif s in tied:
            result[s] = (TIE, tied[s])
        else:
            result[s] = (DRAW, None)
    return result


# --- acyclic games: recursion ------------------------------------------------------------


def _recursive(game: Any, value_of: Any) -> Solved:
    """Solve every reachable state by ``value_of(state, options)``, children first, where
    options are (child value seen by the mover, child remoteness + 1)."""
    memo: Solved = {}
    busy: set[State] = set()

    def solve(s: State) -> tuple[Any, int | None]:
        if s in memo:
            return memo[s]
        if s in busy:
            raise CycleFound(s)
        busy.add(s)
        options = []
        for _, child, same in successors(game, s):
            v, r = solve(child)
            options.append((seen_by_mover(v, same), r + 1))  # type: ignore[operator]
        busy.discard(s)
        memo[s] = value_of(s, options)
        return memo[s]

    for s in reachable(game):
        solve(s)
    return memo


def minimax_outcomes(game: Any) -> Solved:
    """WIN/LOSS/TIE game without cycles: the mover takes the fastest win, else the
    fastest tie, else the slowest loss."""

    def value_of(s: State, options: list[tuple[Value, int]]) -> tuple[Value, int]:
        end = game.outcome(s)
        if end is not None:
            return end, 0
        if not options:
            return LOSS, 0
        wins = [r for v, r in options if v is WIN]
        if wins:
            return WIN, min(wins)
        ties = [r for v, r in options if v is TIE]
        if ties:
            return TIE, min(ties)
        return LOSS, max(r for _, r in options)

    return _recursive(game, value_of)


def negamax_scores(game: Any) -> Solved:
    """Scored game without cycles: the best score for the mover, then the shortest game
    among the moves that reach it. A state with no moves and no score scores -inf."""

    def value_of(s: State, options: list[tuple[float, int]]) -> tuple[float, int]:
        end = game.outcome(s)
        if end is not None:
            return end, 0
        if not options:
            return -math.inf, 0
        best = max(v for v, _ in options)
        return best, min(r for v, r in options if v == best)

    return _recursive(game, value_of)


def upward_scores(game: Any) -> Solved:
    """Scores of a game whose moves all lead to larger states, rewards and extra turns
    included: a state is worth, to its mover, the best over its moves of the move's reward
    plus the child's value (negated when the turn passes); an end its score; a state with
    no move -inf. Remoteness: the shortest of the best moves."""
    to_move = getattr(game, "to_move", None)
    reward = getattr(game, "reward", None)
    solved: Solved = {}
    for s in sorted(reachable(game), reverse=True):
        end = game.outcome(s)
        if end is not None:
            solved[s] = (end, 0)
            continue
        options = []
        for move in game.moves(s):
            child = game.play(s, move)
            assert child > s  # the premise of the order above
            value, plies = solved[child]
            same = to_move is not None and to_move(child) == to_move(s)
            gain = reward(s, move) if reward is not None else 0.0
            options.append(((value if same else -value) + gain, plies + 1))  # type: ignore[operator]
        if not options:
            solved[s] = (-math.inf, 0)
            continue
        best = max(v for v, _ in options)
        solved[s] = (best, min(r for v, r in options if v == best))
    return solved


def grundy_values(game: Any) -> dict[State, int]:
    """Grundy value of every reachable state of an impartial game: mex of the children."""
    memo: dict[State, int] = {}
    busy: set[State] = set()

    def grundy(s: State) -> int:
        if s in memo:
            return memo[s]
        if s in busy:
            raise CycleFound(s)
        busy.add(s)
        below = {grundy(child) for _, child, _ in successors(game, s)}
        busy.discard(s)
        m = 0
        while m in below:
            m += 1
        memo[s] = m
        return m

    for s in reachable(game):
        grundy(s)
    return memo


# --- moves -------------------------------------------------------------------------------


def move_options(game: Any, solved: Solved, state: State) -> list[tuple[Any, Any, int | None]]:
    """(move, value for the mover, remoteness after the move + 1) for every legal move."""
    result = []
    for move, child, same in successors(game, state):
        v, r = solved[child]
        result.append((move, seen_by_mover(v, same), None if r is None else r + 1))
    return result


def best_moves(game: Any, solved: Solved, state: State, *, scored: bool) -> list[Any]:
    """The moves of perfect play: for scores the highest; for outcomes the best outcome
    with the best remoteness for it."""
    options = move_options(game, solved, state)
    if not options:
        return []
    if scored:
        top = max(v for _, v, _ in options)
        return [m for m, v, _ in options if v == top]
    top_rank = min(outcome_rank(v, r) for _, v, r in options)
    return [m for m, v, r in options if outcome_rank(v, r) == top_rank]
