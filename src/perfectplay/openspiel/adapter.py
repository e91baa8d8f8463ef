"""OpenSpiel games as perfectplay games: ``from_openspiel("connect_four(rows=4,columns=4)")``.

The game object speaks the plain protocol over pyspiel states (``initial``, ``moves``,
``play``, ``outcome``...), so a Solution answers questions about pyspiel states directly,
and the batch protocol over integer codes, so that solving never holds one pyspiel state
per position. Positions are merged by their string and the player to move, as OpenSpiel's
own tools do (``keep_histories=True`` merges by history instead, for a game whose string
does not decide its future).

Loading and checking the OpenSpiel game is ``loading.py``'s; numbering the positions (the
walk, the codes, the kind of the ends) is ``exploration.py``'s, to which every question
about codes goes. This module is the protocol itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy.typing as npt
import pyspiel  # type: ignore[import-not-found,unused-ignore]

from ..errors import ParameterError
from ..protocol import BatchRules, Codes, Expansion
from ..values import GameValue
from .exploration import Positions, player_of, value_for
from .loading import display_name, load_openspiel, refuse_unsupported

__all__ = ["Move", "OpenSpielGame", "from_openspiel"]


@dataclass(frozen=True)
class Move:
    """One move: OpenSpiel's action number and its action string. Moves are equal when
    their actions are, so a move typed as its number is the move."""

    action: int
    text: str = field(compare=False)

    def __str__(self) -> str:
        return self.text


class OpenSpielGame:
    """A two-player, sequential, deterministic, perfect-information, zero- or constant-sum
    OpenSpiel game as a perfectplay game (see the module docstring, and ``exploration``'s
    for how positions are numbered and ends valued).

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
        refuse_unsupported(game)
        if scored is not None:
            self.scored = scored
        keyof: Callable[[Any], str] = pyspiel.State.history_str if keep_histories else str
        self._texts: dict[str, int] | None = None
        """Action strings to actions, built when a move is first read from text."""
        self._positions = Positions(self.name, keyof, scored, game.new_initial_state())
        """Every position met so far, by code, and the walk that finds them."""

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
        return self._positions.end_value(value_for(state, player_of(state)))

    def to_move(self, state: Any) -> int:
        """The OpenSpiel player to move; at an end, the opponent of the last mover."""
        return player_of(state)

    def key(self, state: Any) -> int:
        """The code of a position: its number in the exploration from the start."""
        return self._positions.code_of(state)

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
        return self._positions.from_code(code)

    # ------------------------------------------------------------------ the batch protocol

    def speed(self) -> BatchRules:
        """The batch protocol over the positions the walk numbered."""
        return BatchRules(self.batch_outcome, self.batch_expand, from_code=self.from_code)

    def batch_outcome(self, codes: Codes) -> npt.NDArray[Any]:
        """Outcome codes (WIN / LOSS / TIE for the player to move, 0 goes on), or scores
        with NaN for a scored game."""
        return self._positions.batch_outcome(codes)

    def batch_expand(self, codes: Codes) -> Expansion:
        """The children of every code, from the arrays the walk filled."""
        return self._positions.batch_expand(codes)

    # ------------------------------------------------------------------ the walk

    @property
    def positions(self) -> int:
        """How many positions have a code so far."""
        return len(self._positions)

    def explore(self) -> int:
        """Walk every position reachable from the start (and from positions asked about);
        returns how many there are. Solving does this by itself."""
        self._positions.ensure_complete()
        return len(self._positions)


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
