"""Exploration: a game's reachable states turned into arrays that every full solver shares.

The StateGraph numbers states 0..n-1 in breadth-first order from the initial state (id 0),
stores children in CSR form (``offsets`` and ``children``), terminal values, and for every
edge whether the player to move stays the same (a move that gives another turn).
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal, Protocol

import numpy as np
import numpy.typing as npt

from .errors import GameError, InterruptedSolve, StateBudgetExceeded, describe
from .protocol import Game, Rules
from .values import Value, is_score, score_problem

Kind = Literal["outcome", "scored"]


class ProgressCallback(Protocol):
    """Called now and then during long work with (states expanded, states found), and for
    level-by-level exploration the level (plies from the start) just finished."""

    def __call__(self, done: int, found: int, /, level: int | None = None) -> None: ...


PROGRESS_EVERY = 1 << 13


@dataclass(eq=False)
class StateGraph:
    """The explored game: one integer id per reachable state (keyed by the game's key())."""

    rules: Rules[Any, Any]
    states: Sequence[Any] | npt.NDArray[np.int64]
    """The state behind each id: a list (plain games) or an array of codes (batch games)."""
    lookup: Callable[[Hashable], int | None]
    """The id of a canonical key, or None."""
    offsets: npt.NDArray[np.int64]
    children: npt.NDArray[np.int32]
    same_mover: npt.NDArray[np.bool_]
    """Per edge, whether the mover stays; empty when no move gives another turn."""
    kind: Kind
    terminal: npt.NDArray[np.bool_]
    outcome_code: npt.NDArray[np.int8]
    score: npt.NDArray[np.float64]
    """Terminal scores (NaN elsewhere) of a scored game; empty for an outcome game."""
    integral_scores: bool
    seconds: float
    extra_turns: bool = field(default=False)
    reward: npt.NDArray[np.float64] | None = field(default=None)
    """Points the mover collects along each edge (scored games with a reward hook)."""
    root: int = field(default=0)
    """The id of the initial state."""

    @property
    def n_states(self) -> int:
        """How many distinct states (keys) were reached."""
        return int(self.offsets.shape[0] - 1)

    @property
    def n_edges(self) -> int:
        """How many (state, move) pairs were expanded."""
        return int(self.children.shape[0])

    def state(self, sid: int) -> Any:
        """The (representative) state with id ``sid``."""
        state = self.states[sid]
        if isinstance(state, np.integer):
            code = int(state)
            return code if self.rules.from_code is None else self.rules.from_code(code)
        return state

    def id_of(self, state: Any) -> int | None:
        """The id of a state, or None if exploration never reached it."""
        try:
            return self.lookup(self.rules.key_of(state))
        except (TypeError, ValueError, OverflowError):
            return None

    def children_of(self, sid: int) -> npt.NDArray[np.int32]:
        """Ids of the children of state ``sid``, one per move."""
        return self.children[self.offsets[sid] : self.offsets[sid + 1]]

    @cached_property
    def reverse(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32], npt.NDArray[np.bool_]]:
        """Reverse edges in CSR form: (offsets, parents, same_mover), built on first use."""
        from .kernels import reverse_csr

        return reverse_csr(self.offsets, self.children, self.same_mover)

    @cached_property
    def children_first(self) -> npt.NDArray[np.int32]:
        """States ordered children before parents, built on first use; shorter than
        n_states when the graph has a cycle (the states left out are on or lead into one)."""
        from .kernels import reverse_topological_order

        rev_offsets, rev_parents, _ = self.reverse
        return reverse_topological_order(self.offsets, rev_offsets, rev_parents)


def explore(
    game: Game[Any, Any] | Rules[Any, Any],
    *,
    max_states: int | None = None,
    progress: ProgressCallback | None = None,
    batch: bool | None = None,
) -> StateGraph:
    """Reach every state of ``game`` from its initial state, breadth first, without recursion.

    A game offering the batch protocol (``perfectplay.batch``) is explored with arrays
    unless ``batch=False``. Raises GameError when the game breaks the protocol,
    StateBudgetExceeded when more than ``max_states`` states are found, InterruptedSolve on
    Ctrl-C.
    """
    rules = game if isinstance(game, Rules) else Rules(game)
    if max_states is not None and max_states < 1:
        raise ValueError(f"max_states must be at least 1, got {max_states}")
    if batch is not False:
        from .batch import explore_batch, is_batch_game

        if is_batch_game(rules.game):
            return explore_batch(rules, max_states=max_states, progress=progress)
        if batch:
            raise GameError(f"{rules.name} has no batch_outcome() and batch_expand()")
    started = time.perf_counter()
    root = rules.initial_state()
    try:
        index: dict[Hashable, int] = {rules.key_of(root): 0}
    except TypeError as exc:
        raise GameError(
            f"{rules.name}.initial() returned {describe(root)}, {rules.unhashable(exc)}"
        ) from None
    except Exception as exc:
        raise rules.diagnose(root, exc) from exc
    states: list[Any] = [root]
    children = array("i")
    offsets = array("q", [0])
    same = array("b")
    rewards: list[object] = []
    terminal_ids: list[int] = []
    terminal_values: list[object] = []
    limit = max_states if max_states is not None else -1
    outcome, moves, play, key, to_move, reward = (
        rules.outcome,
        rules.moves,
        rules.play,
        rules.key,
        rules.to_move,
        rules.reward,
    )
    i = 0
    state: Any = root
    try:
        while i < len(states):
            state = states[i]
            result = outcome(state)
            if result is not None:
                terminal_ids.append(i)
                terminal_values.append(result)
            else:
                mover = to_move(state) if to_move is not None else None
                for move in moves(state):
                    child = play(state, move)
                    child_key = child if key is None else key(child)
                    cid = index.get(child_key)
                    if cid is None:
                        cid = len(states)
                        index[child_key] = cid
                        states.append(child)
                    children.append(cid)
                    if to_move is not None:
                        same.append(to_move(child) == mover)
                    if reward is not None:
                        rewards.append(reward(state, move))
            offsets.append(len(children))
            i += 1
            if limit >= 0 and len(states) > limit:
                raise StateBudgetExceeded(
                    f"{rules.name}: more than max_states={limit:,} states "
                    f"({i:,} expanded); raise max_states or solve a smaller game"
                )
            if progress is not None and not i & (PROGRESS_EVERY - 1):
                progress(i, len(states))
    except KeyboardInterrupt:
        raise InterruptedSolve(
            f"interrupted while exploring {rules.name}: {i:,} states expanded, "
            f"{len(states):,} found"
        ) from None
    except (StateBudgetExceeded, GameError):
        raise
    except Exception as exc:
        raise rules.diagnose(state, exc) from exc
    if progress is not None:
        progress(i, len(states))

    kind, terminal, code, score, integral = _classify_terminals(
        rules, states, terminal_ids, terminal_values
    )
    same_arr = np.frombuffer(same, dtype=np.int8).astype(np.bool_)
    if not same_arr.any():
        same_arr = same_arr[:0]  # no extra turns: the solvers need no flags
    edge_reward = None if reward is None else _check_rewards(rules, kind, rewards)
    if edge_reward is not None and not all(isinstance(r, (int, np.integer)) for r in rewards):
        integral = False
    return StateGraph(
        rules=rules,
        states=states,
        lookup=index.get,
        offsets=np.frombuffer(offsets, dtype=np.int64).copy(),
        children=np.frombuffer(children, dtype=np.int32).copy(),
        same_mover=same_arr,
        kind=kind,
        terminal=terminal,
        outcome_code=code,
        score=score,
        integral_scores=integral,
        seconds=time.perf_counter() - started,
        extra_turns=bool(same_arr.any()),
        reward=edge_reward,
    )


def _check_rewards(
    rules: Rules[Any, Any], kind: Kind, rewards: list[object]
) -> npt.NDArray[np.float64]:
    """Rewards as an array, after checking each is a usable number in a scored game."""
    for value in rewards:
        if not is_score(value) or score_problem(value) is not None:
            why = score_problem(value) if is_score(value) else "not a number"
            raise GameError(f"{rules.name}.reward(state, move) returned {describe(value)}: {why}")
    if kind != "scored" and any(rewards):
        raise GameError(
            f"{rules.name} has reward() but its outcome() gives WIN/LOSS/TIE; rewards belong "
            "to scored games (make outcome() return numbers)"
        )
    return np.asarray(rewards, dtype=np.float64)


def _classify_terminals(
    rules: Rules[Any, Any],
    states: Sequence[Any],
    ids: list[int],
    values: list[object],
) -> tuple[Kind, npt.NDArray[np.bool_], npt.NDArray[np.int8], npt.NDArray[np.float64], bool]:
    """Check every terminal value and sort the game into outcome or scored."""
    n = len(states)
    terminal = np.zeros(n, dtype=np.bool_)
    code = np.zeros(n, dtype=np.int8)
    score = np.full(n, np.nan)
    first_outcome: int | None = None
    first_score: int | None = None
    integral = True
    for sid, value in zip(ids, values, strict=True):
        terminal[sid] = True
        if isinstance(value, Value):
            if value is Value.DRAW:
                raise GameError(
                    f"{rules.name}.outcome(state) returned DRAW for {describe(states[sid])}; "
                    "a game that ends returns WIN, LOSS or TIE (DRAW is what a solver "
                    "reports for play that never ends)"
                )
            code[sid] = int(value)
            if first_outcome is None:
                first_outcome = sid
        elif is_score(value):
            problem = score_problem(value)
            if problem is not None:
                raise GameError(
                    f"{rules.name}.outcome(state) for {describe(states[sid])}: {problem}"
                )
            score[sid] = float(value)  # type: ignore[arg-type]
            if not (isinstance(value, (int, np.integer)) or np.isinf(score[sid])):
                integral = False
            if first_score is None:
                first_score = sid
        else:
            raise GameError(
                f"{rules.name}.outcome(state) returned {describe(value)} "
                f"({type(value).__name__}) for {describe(states[sid])}; expected None, "
                "WIN, LOSS, TIE or a number"
            )
    if first_outcome is not None and first_score is not None:
        raise GameError(
            f"{rules.name}.outcome(state) mixes outcomes and scores: "
            f"{Value(code[first_outcome]).name} for {describe(states[first_outcome])} but "
            f"{describe(values[ids.index(first_score)])} for {describe(states[first_score])}; "
            "a game is either won/lost/tied or scored (use +-inf for a scored win)"
        )
    kind: Kind = "scored" if first_score is not None else "outcome"
    if kind == "outcome":
        score = score[:0]  # outcome games keep no scores
    return kind, terminal, code, score, integral
