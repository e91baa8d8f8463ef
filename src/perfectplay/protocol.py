"""The game protocol a user writes, and the adapter that gives its optional hooks defaults.

A game is any object with four methods::

    initial() -> state
    moves(state) -> iterable of moves
    play(state, move) -> state
    outcome(state) -> None | WIN | LOSS | TIE | number

``outcome`` speaks for the player to move; None means the game goes on. A state with no
moves and no outcome is a loss for the player to move (normal play). Optional hooks:

    to_move(state) -> hashable   who moves; a move that keeps it the same gives another turn
    reward(state, move) -> num   points the mover collects by the move (scored games)
    key(state) -> hashable       canonical form: states with one key are solved once
    show(state) -> str           how a person sees the state
    format_move(move) -> str     how a person sees a move
    parse_move(text) -> move     how a person's text becomes a move

States (or their keys) must be hashable. A game with ``impartial = True`` (both players
have the same moves, normal play) is solved with Grundy values by default. ``scored = True``
or ``False`` says which kind of game it is; only alpha-beta search, which may settle the
root before meeting any end with an outcome, ever needs to be told.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from .errors import GameError, describe
from .values import GameValue

S = TypeVar("S")
M = TypeVar("M")

REQUIRED_METHODS = ("initial", "moves", "play", "outcome")


@runtime_checkable
class Game(Protocol[S, M]):
    """What a user writes: a finite two-player game of perfect information."""

    def initial(self) -> S:
        """The starting state."""
        ...

    def moves(self, state: S) -> Iterable[M]:
        """The legal moves of a state that is not over."""
        ...

    def play(self, state: S, move: M) -> S:
        """The state after ``move``; must not change ``state``."""
        ...

    def outcome(self, state: S) -> GameValue | None:
        """None while the game goes on, else WIN / LOSS / TIE or a score for the mover."""
        ...


def game_name(game: object) -> str:
    """The name a game goes by in messages and tables."""
    name = getattr(game, "name", None)
    return name if isinstance(name, str) else type(game).__name__


def check_protocol(game: object) -> None:
    """Raise GameError unless ``game`` has the four required methods."""
    if isinstance(game, type):
        raise GameError(f"{game.__name__} is a class; pass an instance, e.g. {game.__name__}()")
    missing = [m for m in REQUIRED_METHODS if not callable(getattr(game, m, None))]
    if missing:
        raise GameError(
            f"{game_name(game)} is not a game: it lacks {', '.join(m + '()' for m in missing)}"
            f" (a game needs {', '.join(m + '()' for m in REQUIRED_METHODS)})"
        )


class Rules(Generic[S, M]):
    """A game with every optional hook filled in, and calls that explain their failures."""

    def __init__(self, game: Game[S, M]) -> None:
        check_protocol(game)
        self.game = game
        self.name = game_name(game)
        self.initial: Callable[[], S] = game.initial
        self.moves: Callable[[S], Iterable[M]] = game.moves
        self.play: Callable[[S, M], S] = game.play
        self.outcome: Callable[[S], GameValue | None] = game.outcome
        self.to_move: Callable[[S], Hashable] | None = _optional(game, "to_move")
        self.key: Callable[[S], Hashable] | None = _optional(game, "key")
        self.reward: Callable[[S, M], float] | None = _optional(game, "reward")
        self.from_code: Callable[[int], S] | None = _optional(game, "from_code")
        self._show: Callable[[S], str] | None = _optional(game, "show")
        self._format_move: Callable[[M], str] | None = _optional(game, "format_move")
        self._parse_move: Callable[[str], M] | None = _optional(game, "parse_move")
        self.impartial = bool(getattr(game, "impartial", False))
        declared = getattr(game, "scored", None)
        self.declared_scored: bool | None = declared if isinstance(declared, bool) else None

    def key_of(self, state: S) -> Hashable:
        """The canonical key of a state (the state itself when the game has no key())."""
        return state if self.key is None else self.key(state)

    def mover_changes(self, state: S, child: S) -> bool:
        """Whether the player to move differs between a state and a child of it."""
        return self.to_move is None or self.to_move(state) != self.to_move(child)

    def show(self, state: S) -> str:
        """The state as a person sees it."""
        return str(state) if self._show is None else self._show(state)

    def format_move(self, move: M) -> str:
        """A move as a person sees it."""
        return str(move) if self._format_move is None else self._format_move(move)

    def legal_moves(self, state: S) -> list[M]:
        """The moves of a state, or [] once the game is over."""
        if self.outcome(state) is not None:
            return []
        return list(self.moves(state))

    def parse_move(self, state: S, text: str) -> M:
        """Read a person's move for ``state``; GameError when it is not legal there."""
        legal = self.legal_moves(state)
        if not legal:
            raise GameError("the game is over: there are no moves")
        text = text.strip()
        if self._parse_move is not None:
            try:
                move = self._parse_move(text)
            except Exception as exc:  # the user's parser: any failure means bad text
                raise GameError(f"cannot read move {text!r}: {exc}") from None
            if move in legal:
                return move
        else:
            for move in legal:
                if self.format_move(move) == text:
                    return move
        shown = ", ".join(self.format_move(m) for m in legal)
        raise GameError(f"{text!r} is not a legal move here; legal moves: {shown}")

    def initial_state(self) -> S:
        """The initial state; GameError if initial() fails."""
        try:
            return self.initial()
        except Exception as exc:
            raise GameError(f"{self.name}.initial() raised {type(exc).__name__}: {exc}") from exc

    def unhashable(self, exc: Exception) -> str:
        """The end of a message about a state that cannot serve as a dictionary key."""
        which = "but key(state) is" if self.key is not None else "which is"
        return (
            f"{which} not hashable ({type(exc).__name__}: {exc}); "
            "use tuples, frozensets or ints, or define key()"
        )

    def diagnose(self, state: Any, error: BaseException) -> GameError:
        """Turn an exception raised while expanding ``state`` into a GameError naming its cause.

        Exploration runs a tight loop without bookkeeping; when it fails, this replays the
        state step by step to find which method broke.
        """
        where = f"{self.name}"
        try:
            hash(self.key_of(state))
        except Exception as exc:
            return GameError(f"{where}: state {describe(state)}, {self.unhashable(exc)}")
        try:
            self.outcome(state)
        except Exception as exc:
            return _raised(where, "outcome", state, None, exc)
        try:
            moves = list(self.moves(state))
        except Exception as exc:
            return _raised(where, "moves", state, None, exc)
        for move in moves:
            try:
                child = self.play(state, move)
            except Exception as exc:
                return _raised(where, "play", state, move, exc)
            try:
                hash(self.key_of(child))
            except Exception as exc:
                return GameError(
                    f"{where}: play(state, {describe(move)}) from {describe(state)} returned "
                    f"{describe(child)}, {self.unhashable(exc)}"
                )
            if self.reward is not None:
                try:
                    self.reward(state, move)
                except Exception as exc:
                    return _raised(where, "reward", state, move, exc)
            if self.to_move is not None:
                try:
                    self.to_move(child)
                except Exception as exc:
                    return _raised(where, "to_move", child, None, exc)
        if self.to_move is not None:
            try:
                self.to_move(state)
            except Exception as exc:
                return _raised(where, "to_move", state, None, exc)
        return GameError(
            f"{where}: expanding state {describe(state)} failed ({type(error).__name__}: {error})"
        )


def _optional(game: object, name: str) -> Any:
    hook = getattr(game, name, None)
    return hook if callable(hook) else None


def _raised(where: str, method: str, state: object, move: object, exc: BaseException) -> GameError:
    args = "state" if move is None else f"state, {describe(move)}"
    return GameError(
        f"{where}.{method}({args}) raised {type(exc).__name__}: {exc} (state {describe(state)})"
    )


class StartingAt:
    """A game played from another state: every method is the game's but ``initial``.

    A batch game's ``universe`` is hidden, so exploration goes level by level from there.
    """

    def __init__(self, game: object, state: object) -> None:
        self._game = game
        self._state = state

    def initial(self) -> object:
        """The chosen state."""
        return self._state

    def __getattr__(self, name: str) -> Any:
        if name == "universe":  # the declared state space may not hold the new start
            raise AttributeError(name)
        return getattr(self._game, name)
