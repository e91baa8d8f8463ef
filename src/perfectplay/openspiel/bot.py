"""PerfectBot: perfect play as a ``pyspiel.Bot``, from a Solution or a saved tablebase.

It wins as fast as it can, loses as slowly as it can and takes the fastest tie when it
cannot win; among equally good moves a seeded generator picks, so that games differ but
repeat from the same seed. It plays in ``evaluate_bots`` and anywhere else OpenSpiel takes
a bot, on an OpenSpiel game bridged by ``from_openspiel`` or on a perfectplay game made an
OpenSpiel game by ``register``.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pyspiel  # type: ignore[import-not-found,unused-ignore]

from ..answers import Answers
from ..errors import GameError
from ..tablebase.reader import open_tablebase
from .adapter import Move

__all__ = ["Perfect", "PerfectBot"]


class Perfect:
    """Solved answers seen from OpenSpiel: pyspiel states and action numbers in, the
    answers' own states and moves inside.

    A bridged game's states are pyspiel states already; a registered perfectplay game's
    pyspiel states carry the perfectplay state (see ``register``).
    """

    def __init__(self, answers: Answers[Any, Any]) -> None:
        self.answers = answers

    def inside(self, state: Any) -> Any:
        """The answers' state for a pyspiel state."""
        inner = getattr(state, "perfectplay_state", None)
        return state if inner is None else inner

    def action_of(self, state: Any, move: Any) -> int:
        """The OpenSpiel action of one of the answers' moves in ``state``."""
        if isinstance(move, Move):
            return move.action
        translate = getattr(state, "action_of", None)
        if translate is None:
            raise GameError(f"cannot tell the OpenSpiel action of move {move!r}")
        return int(translate(move))

    def best_actions(self, state: Any) -> list[int]:
        """The actions of perfect play in ``state``: best value, then fastest win, slowest
        loss, fastest tie."""
        inner = self.inside(state)
        return [self.action_of(state, m) for m in self.answers.best_moves(inner)]


class PerfectBot(pyspiel.Bot):  # type: ignore[misc]
    """Plays a best move of a Solution or tablebase; ties broken by ``seed``.

    ``answers`` is a Solution or Tablebase, or a tablebase directory (then ``game``, the
    game it was saved for, opens it).
    """

    def __init__(
        self,
        answers: Answers[Any, Any] | str | Path,
        game: Any = None,
        *,
        seed: int | None = 0,
        player_id: int | None = None,
    ) -> None:
        pyspiel.Bot.__init__(self)
        if isinstance(answers, (str, Path)):
            if game is None:
                raise GameError("a tablebase directory needs the game it was saved for")
            answers = open_tablebase(answers, game)
        self.perfect = Perfect(answers)
        self.seed = seed
        self._rng = random.Random(seed)
        self._player_id = player_id

    @property
    def answers(self) -> Answers[Any, Any]:
        """The solved values the bot plays from."""
        return self.perfect.answers

    def player_id(self) -> int | None:
        """The player this bot was made for, if it was told."""
        return self._player_id

    def restart_at(self, state: Any) -> None:
        """Nothing to forget: every move is read from the solved values."""

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Nothing to track."""

    def provides_policy(self) -> bool:
        """Its policy is uniform over the best moves."""
        return True

    def step_with_policy(self, state: Any) -> tuple[list[tuple[int, float]], int]:
        """The uniform policy over the best actions, and the one chosen."""
        best = self.perfect.best_actions(state)
        if not best:
            return [], pyspiel.INVALID_ACTION
        share = 1.0 / len(best)
        return [(a, share) for a in best], best[self._rng.randrange(len(best))]

    def step(self, state: Any) -> int:
        """A best action in ``state``."""
        return self.step_with_policy(state)[1]
