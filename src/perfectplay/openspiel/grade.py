"""Grading an agent against perfect play: every decision it makes, checked against the
solved values of the game.

``grade(game, agent, games=N)`` plays N games between the agent and ``PerfectBot``, the
agent moving first in the even games and second in the odd ones. At each of the agent's
turns it notes whether the move kept the position's value (a win stays a win, a tie a tie),
whether it was a best move (the fastest win or slowest loss too), each blunder (a win
thrown to a tie or a loss, a tie thrown to a loss) with its position and a best move, and
the remoteness wasted (plies a kept win was made longer, or a kept loss shorter). All of
it per ply, and the results of the games. ``Grade.as_json()`` is plain JSON.

The agent is a ``pyspiel.Bot`` (used for both sides), a function ``(player, seed) ->
pyspiel.Bot`` (a fresh bot per game, e.g. for OpenSpiel's random bot, which is tied to a
player), or an OpenSpiel policy (anything with ``action_probabilities(state)``), which
plays by sampling its probabilities; for a policy, ``policy_share`` gives the exact share
of reachable positions where its most likely action keeps the value and is a best move.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import pyspiel  # type: ignore[import-not-found,unused-ignore]

from ..answers import Answers, MoveValue
from ..errors import GameError, UsageProblem
from ..solution import Solution
from ..solve import solve, solve_for
from ..values import GameValue, Value, preference_key
from .adapter import OpenSpielGame, from_openspiel
from .bot import Perfect, PerfectBot

__all__ = ["Blunder", "Grade", "PlyGrade", "grade", "policy_share"]

Agent = Any
"""A pyspiel.Bot, a function (player, seed) -> pyspiel.Bot, or an OpenSpiel policy."""


def value_json(value: GameValue | None) -> str | float | int | None:
    """A value as JSON holds it: win / loss / tie / draw, or the score."""
    return str(value) if isinstance(value, Value) else value


def _rank(value: GameValue) -> float:
    """Smaller is better for the player to move: win, tie, draw, loss; or minus the score."""
    return preference_key(value, None)[0]


@dataclass
class PlyGrade:
    """The agent's decisions at one ply (the first move of a game is ply 1)."""

    ply: int
    decisions: int = 0
    kept: int = 0
    """Moves that kept the position's value."""
    best: int = 0
    """Moves that were best: value kept, and the fastest win or slowest loss."""
    blunders: int = 0
    wasted: int = 0
    """Plies by which kept wins were made longer and kept losses shorter."""


@dataclass
class Blunder:
    """A move that threw value away."""

    game: int
    ply: int
    side: str
    """first or second: the agent's side in that game."""
    position: str
    played: str
    value: str | float | int | None
    """What the position was worth to the agent before the move."""
    after: str | float | int | None
    """What it was worth after the move."""
    best_move: str
    best_remoteness: int | None


@dataclass
class Grade:
    """What grading found; ``as_json()`` for scripts."""

    game: str
    agent: str
    games: int
    seed: int
    decisions: int = 0
    kept: int = 0
    best: int = 0
    wasted: int = 0
    blunders: list[Blunder] = field(default_factory=list)
    results: dict[str, dict[str, int]] = field(
        default_factory=lambda: {s: {"win": 0, "tie": 0, "loss": 0} for s in ("first", "second")}
    )
    """The agent's results, by the side it played."""
    perfect_results: dict[str, str | float | int | None] = field(default_factory=dict)
    """What perfect play gets from each side: the value of the start for that side."""
    by_ply: list[PlyGrade] = field(default_factory=list)
    policy_share: dict[str, float | int] | None = None

    @property
    def kept_share(self) -> float:
        """The share of the agent's moves that kept the value (1.0 when it made none)."""
        return self.kept / self.decisions if self.decisions else 1.0

    @property
    def best_share(self) -> float:
        """The share of the agent's moves that were best moves."""
        return self.best / self.decisions if self.decisions else 1.0

    def as_json(self) -> dict[str, Any]:
        """Everything, as JSON types."""
        data = asdict(self)
        data["kept_share"] = self.kept_share
        data["best_share"] = self.best_share
        return data


class _PolicyAgent:
    """An OpenSpiel policy playing by sampling its action probabilities."""

    def __init__(self, policy: Any, seed: int) -> None:
        self.policy = policy
        self.rng = random.Random(seed)

    def restart_at(self, state: Any) -> None:
        """Nothing to forget."""

    def inform_action(self, state: Any, player: int, action: int) -> None:
        """Nothing to track."""

    def step(self, state: Any) -> int:
        """An action drawn from the policy's probabilities in ``state``."""
        probabilities = self.policy.action_probabilities(state)
        actions = list(probabilities)
        return int(self.rng.choices(actions, weights=[probabilities[a] for a in actions])[0])


def _is_policy(agent: Any) -> bool:
    return callable(getattr(agent, "action_probabilities", None)) and not isinstance(
        agent, pyspiel.Bot
    )


def _agent_for(agent: Agent, player: int, seed: int) -> Any:
    """The bot that plays one game as ``player``."""
    if _is_policy(agent):
        return _PolicyAgent(agent, seed)
    if isinstance(agent, pyspiel.Bot):
        return agent
    if callable(agent):
        return agent(player, seed)
    raise UsageProblem(f"cannot play {agent!r}: give a pyspiel.Bot, a bot factory or a policy")


def _setting(game: Any, answers: Answers[Any, Any] | None) -> tuple[Any, Answers[Any, Any], str]:
    """The pyspiel game to play, the answers to judge by, and the game's name."""
    if isinstance(game, str):
        game = from_openspiel(game)
    if isinstance(game, OpenSpielGame):
        return game.openspiel, answers if answers is not None else solve(game), game.name
    rules = getattr(game, "perfectplay_rules", None)
    if rules is not None:  # a perfectplay game made an OpenSpiel game by register()
        return game, answers if answers is not None else solve_for(rules), rules.name
    if isinstance(game, pyspiel.Game):
        bridge = from_openspiel(game)
        return game, answers if answers is not None else solve(bridge), bridge.name
    raise UsageProblem(f"cannot grade on {game!r}: give an OpenSpiel game or spec")


def _result(returns: list[float], player: int) -> str:
    mine, theirs = returns[player], returns[1 - player]
    return "win" if mine > theirs else "loss" if mine < theirs else "tie"


def grade(
    game: Any,
    agent: Agent,
    *,
    games: int = 10,
    seed: int = 0,
    answers: Answers[Any, Any] | None = None,
    name: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Grade:
    """Play ``games`` games of ``agent`` against perfect play and grade every decision of
    the agent (see the module docstring). ``game`` is an OpenSpiel spec or game, a bridged
    game, or a registered perfectplay game; ``answers`` (a Solution or Tablebase) saves
    solving it here."""
    if games < 1:
        raise UsageProblem(f"games must be at least 1, got {games}")
    pyspiel_game, answers, game_name = _setting(game, answers)
    perfect = Perfect(answers)
    result = Grade(game=game_name, agent=name or _describe(agent), games=games, seed=seed)
    start = pyspiel_game.new_initial_state()
    start_value = answers.value(perfect.inside(start))
    result.perfect_results = {
        "first": value_json(start_value),
        "second": value_json(_flipped(start_value)),
    }
    plies: dict[int, PlyGrade] = {}
    for index in range(games):
        side = index % 2
        bots: list[Any] = [None, None]
        bots[side] = _agent_for(agent, side, seed * 7919 + index)
        bots[1 - side] = PerfectBot(answers, seed=seed * 7919 + index)
        state = pyspiel_game.new_initial_state()
        for bot in bots:
            bot.restart_at(state)
        ply = 0
        while not state.is_terminal():
            ply += 1
            player = state.current_player()
            if player == side:
                ranked = answers.move_values(perfect.inside(state))
                action = int(bots[side].step(state))
                _judge(result, plies, perfect, state, ranked, action, index, ply, side)
            else:
                action = int(bots[player].step(state))
            for other, bot in enumerate(bots):
                if other != player:
                    bot.inform_action(state, player, action)
            state.apply_action(action)
        result.results["first" if side == 0 else "second"][_result(state.returns(), side)] += 1
        if progress is not None:
            progress(index + 1, games)
    result.by_ply = [plies[p] for p in sorted(plies)]
    if _is_policy(agent) and isinstance(answers, Solution):
        result.policy_share = policy_share(answers, agent)
    return result


def _flipped(value: GameValue) -> GameValue:
    return value.flipped() if isinstance(value, Value) else -value


def _describe(agent: Any) -> str:
    return getattr(agent, "__name__", None) or type(agent).__name__


def _judge(
    result: Grade,
    plies: dict[int, PlyGrade],
    perfect: Perfect,
    state: Any,
    ranked: list[MoveValue[Any]],
    action: int,
    index: int,
    ply: int,
    side: int,
) -> None:
    """Grade one decision of the agent: ``action`` among the ranked moves of ``state``."""
    chosen = next((mv for mv in ranked if perfect.action_of(state, mv.move) == action), None)
    if chosen is None:
        raise GameError(f"the agent played action {action}, which is not legal in\n{state}")
    top = ranked[0]
    row = plies.setdefault(ply, PlyGrade(ply))
    row.decisions += 1
    result.decisions += 1
    kept = chosen.value == top.value
    best = kept and (
        not isinstance(top.value, Value)
        or preference_key(chosen.value, chosen.remoteness)
        == preference_key(top.value, top.remoteness)
    )
    if kept:
        row.kept += 1
        result.kept += 1
        wasted = 0
        if chosen.remoteness is not None and top.remoteness is not None:
            if top.value is Value.WIN:
                wasted = chosen.remoteness - top.remoteness
            elif top.value is Value.LOSS:
                wasted = top.remoteness - chosen.remoteness
        row.wasted += wasted
        result.wasted += wasted
    if best:
        row.best += 1
        result.best += 1
    if not kept and _rank(chosen.value) > _rank(top.value):
        row.blunders += 1
        rules = perfect.answers.rules
        result.blunders.append(
            Blunder(
                game=index,
                ply=ply,
                side="first" if side == 0 else "second",
                position=str(state),
                played=rules.format_move(chosen.move),
                value=value_json(top.value),
                after=value_json(chosen.value),
                best_move=rules.format_move(top.move),
                best_remoteness=top.remoteness,
            )
        )


def policy_share(solution: Solution[Any, Any], policy: Any) -> dict[str, float | int]:
    """Over every reachable position that goes on, the share where the policy's most
    likely action (the lowest-numbered among equals) keeps the value, and where it is a
    best move. Needs a bridged OpenSpiel game (its states are pyspiel states)."""
    if not isinstance(solution.rules.game, OpenSpielGame):
        raise UsageProblem("policy_share needs a game bridged by from_openspiel")
    graph = solution.graph
    positions = kept = best = 0
    for sid in range(graph.n_states):
        if graph.terminal[sid] or graph.offsets[sid] == graph.offsets[sid + 1]:
            continue
        state = graph.state(sid)
        probabilities = policy.action_probabilities(state)
        top_probability = max(probabilities.values())
        action = min(a for a, p in probabilities.items() if p == top_probability)
        ranked = solution.move_values(state)
        chosen = next(mv for mv in ranked if mv.move.action == action)
        positions += 1
        if chosen.value == ranked[0].value:
            kept += 1
            if preference_key(chosen.value, chosen.remoteness) == preference_key(
                ranked[0].value, ranked[0].remoteness
            ) or not isinstance(chosen.value, Value):
                best += 1
    return {
        "positions": positions,
        "kept_share": kept / positions if positions else 1.0,
        "best_share": best / positions if positions else 1.0,
    }
