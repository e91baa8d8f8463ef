"""Exploration: a game's reachable states turned into arrays that every full solver shares.

The StateGraph numbers states 0..n-1 in breadth-first order from the initial state (id 0),
stores children in CSR form (``offsets`` and ``children``), terminal values, and for every
edge whether the player to move stays the same (a move that gives another turn).
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from .errors import GameError, InterruptedSolve, StateBudgetExceeded, describe
from .protocol import Game, Rules
from .values import UNDECIDED, Value, is_score, score_problem

Kind = Literal["outcome", "scored"]
ProgressCallback = Callable[[int, int], None]
"""Called now and then during exploration with (states expanded, states found)."""

PROGRESS_EVERY = 1 << 13


@dataclass(eq=False)
class StateGraph:
    """The explored game: one integer id per reachable state (keyed by the game's key())."""

    rules: Rules[Any, Any]
    states: list[Any]
    index: dict[Hashable, int]
    offsets: npt.NDArray[np.int64]
    children: npt.NDArray[np.int32]
    same_mover: npt.NDArray[np.bool_]
    kind: Kind
    terminal: npt.NDArray[np.bool_]
    outcome_code: npt.NDArray[np.int8]
    score: npt.NDArray[np.float64]
    integral_scores: bool
    seconds: float
    extra_turns: bool = field(default=False)

    @property
    def n_states(self) -> int:
        """How many distinct states (keys) were reached."""
        return len(self.states)

    @property
    def n_edges(self) -> int:
        """How many (state, move) pairs were expanded."""
        return int(self.children.shape[0])

    def id_of(self, state: Any) -> int | None:
        """The id of a state, or None if exploration never reached it."""
        try:
            return self.index.get(self.rules.key_of(state))
        except TypeError:
            return None

    def children_of(self, sid: int) -> npt.NDArray[np.int32]:
        """Ids of the children of state ``sid``, one per move."""
        return self.children[self.offsets[sid] : self.offsets[sid + 1]]

    @cached_property
    def reverse(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32], npt.NDArray[np.bool_]]:
        """Reverse edges in CSR form: (offsets, parents, same_mover), built on first use."""
        n = self.n_states
        degrees = np.diff(self.offsets)
        parents = np.repeat(np.arange(n, dtype=np.int32), degrees)
        order = np.argsort(self.children, kind="stable")
        counts = np.bincount(self.children, minlength=n)
        rev_offsets = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(counts, out=rev_offsets[1:])
        return rev_offsets, parents[order], self.same_mover[order]


def explore(
    game: Game[Any, Any] | Rules[Any, Any],
    *,
    max_states: int | None = None,
    progress: ProgressCallback | None = None,
) -> StateGraph:
    """Reach every state of ``game`` from its initial state, breadth first, without recursion.

    Raises GameError when the game breaks the protocol, StateBudgetExceeded when more than
    ``max_states`` states are found, InterruptedSolve on Ctrl-C.
    """
    rules = game if isinstance(game, Rules) else Rules(game)
    started = time.perf_counter()
    try:
        root = rules.initial()
    except Exception as exc:
        raise GameError(f"{rules.name}.initial() raised {type(exc).__name__}: {exc}") from exc
    try:
        index: dict[Hashable, int] = {rules.key_of(root): 0}
    except Exception as exc:
        raise rules.diagnose(root, exc) from exc
    states: list[Any] = [root]
    children = array("i")
    offsets = array("q", [0])
    same = array("b")
    terminal_ids: list[int] = []
    terminal_values: list[object] = []
    limit = max_states if max_states is not None else -1
    outcome, moves, play, key, to_move = (
        rules.outcome,
        rules.moves,
        rules.play,
        rules.key,
        rules.to_move,
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

    n = len(states)
    kind, terminal, code, score, integral = _classify_terminals(
        rules, states, terminal_ids, terminal_values
    )
    same_arr = (
        np.frombuffer(same, dtype=np.int8).astype(np.bool_)
        if to_move is not None
        else np.zeros(len(children), dtype=np.bool_)
    )
    assert terminal.shape[0] == n
    return StateGraph(
        rules=rules,
        states=states,
        index=index,
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
    )


def _classify_terminals(
    rules: Rules[Any, Any],
    states: list[Any],
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
        assert (code[~terminal] == UNDECIDED).all()
    return kind, terminal, code, score, integral
