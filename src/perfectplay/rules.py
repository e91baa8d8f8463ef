"""Rules: the one adapter between a user's game and the engine.

It reads every hook of ``protocol.HOOKS`` once, fills in the defaults the table promises,
and wraps calls so that a failing game gets a ``GameError`` naming the method and the
state. Nothing else in perfectplay reads a game's attributes (beside it, the protocol's own
``read_hooks``, which it calls, and ``name_of``, a game's name before it is read).
"""

from __future__ import annotations

import dataclasses
import inspect
import linecache
from collections.abc import Callable, Hashable, Iterable
from typing import Any, Generic, TypeVar

from .errors import GameError, PerfectplayError, UsageProblem, describe
from .protocol import (
    REQUIRED_METHODS,
    BatchRules,
    Game,
    GameKind,
    M,
    Presentation,
    S,
    TierRules,
    name_of,
    read_hooks,
)
from .values import GameValue, Value

G = TypeVar("G", "BatchRules", "TierRules")


def _read_hooks(game: object) -> dict[str, Any]:
    """Every game hook the game has (see ``protocol.read_hooks``)."""
    return read_hooks(game, "game")


def check_protocol(game: object) -> None:
    """Raise GameError unless ``game`` is an instance with the four required methods."""
    if isinstance(game, type):
        raise GameError(f"{game.__name__} is a class; pass an instance, e.g. {game.__name__}()")
    hooks = _read_hooks(game)
    missing = [m for m in REQUIRED_METHODS if m not in hooks]
    if missing:
        raise GameError(
            f"{name_of(game)} is not a game: it lacks "
            f"{', '.join(m + '()' for m in missing)}"
            f" (a game needs {', '.join(m + '()' for m in REQUIRED_METHODS)})"
        )


def _drawing(hook: Callable[..., str] | None) -> Callable[[Any, Any], str] | None:
    """draw_svg as a function of (state, last move): a hook that takes no ``last`` (the
    hook table's older form, draw_svg(state)) is called with the state alone."""
    if hook is None:
        return None
    try:
        parameters = inspect.signature(hook).parameters
    except (TypeError, ValueError):  # no signature to read (a builtin): give it the state
        parameters = {}  # type: ignore[assignment]
    takes_last = "last" in parameters or any(
        p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()
    )
    if takes_last:
        return lambda state, last: str(hook(state, last=last))
    return lambda state, last: str(hook(state))


def _aliases(given: Any) -> tuple[str, ...]:
    """A game's ``aliases`` as names: one string is one name (not its letters)."""
    return (given,) if isinstance(given, str) else tuple(str(name) for name in given)


_LOOSE_PARTS = tuple(
    (f.name, hook, kind)
    for hook, kind in (("speed", BatchRules), ("tiers", TierRules))
    for f in dataclasses.fields(kind)
    if f.name.startswith(("batch_", "tier_", "child_"))
)
"""The methods of the typed groups that the protocol's older form read one by one: (name,
the hook that gives their group, the group)."""


def _no_loose_parts(game: object, name: str, hooks: dict[str, Any]) -> None:
    """Refuse, in one line, a game that defines the parts of a group one by one (the
    protocol's older form) without the group: its speed would be lost without a word."""
    for part, hook, kind in _LOOSE_PARTS:
        if hook not in hooks and callable(getattr(game, part, None)):
            raise GameError(
                f"{name} defines {part}() but no {hook}(): perfectplay reads the "
                f"{'batch' if hook == 'speed' else 'tier'} protocol as one group; "
                f"return a {kind.__name__}(..., {part}=self.{part}, ...) from {hook}() "
                "(perfectplay.protocol)"
            )


def _group(name: str, hooks: dict[str, Any], hook: str, kind: type[G]) -> G | None:
    """A typed group a game gives whole (``speed()``, ``tiers()``), checked; None when
    the game lacks the hook or gives None."""
    if hook not in hooks:
        return None
    try:
        found = hooks[hook]()
    except PerfectplayError:
        raise
    except Exception as exc:
        raise GameError(f"{name}.{hook}() raised {type(exc).__name__}: {exc}") from None
    if found is not None and not isinstance(found, kind):
        raise GameError(
            f"{name}.{hook}() returned {type(found).__name__}; expected a {kind.__name__} "
            "(perfectplay.protocol) or None"
        )
    return found


class Rules(Generic[S, M]):
    """A game with every optional hook filled in, and calls that explain their failures."""

    def __init__(self, game: Game[S, M]) -> None:
        if isinstance(game, Rules):  # (a Rules has the four methods: it would pass for a game)
            raise TypeError(
                "Rules(rules): give the game itself; a function that takes a game read "
                "already is named ..._for"
            )
        check_protocol(game)
        hooks = _read_hooks(game)
        self.game = game
        declared = hooks.get("scored")
        self.kind = GameKind(
            name=name_of(game),
            aliases=_aliases(hooks.get("aliases", ())),
            impartial=bool(hooks.get("impartial", False)),
            scored=declared if isinstance(declared, bool) else None,
        )
        """What the game is (its "kind" hooks)."""
        self.initial: Callable[[], S] = hooks["initial"]
        self.moves: Callable[[S], Iterable[M]] = hooks["moves"]
        self.play: Callable[[S, M], S] = hooks["play"]
        self.outcome: Callable[[S], GameValue | None] = hooks["outcome"]
        self.to_move: Callable[[S], Hashable] | None = hooks.get("to_move")
        self.key: Callable[[S], Hashable] | None = hooks.get("key")
        self.reward: Callable[[S, M], float] | None = hooks.get("reward")
        self.partizan: Callable[[S], tuple[Any, Any, bool]] | None = hooks.get("partizan")
        """The state as a partizan game for CGT (analyze --cgt), or None."""
        self.compiled_rules: Callable[[], Any] | None = hooks.get("compiled_rules")
        """Called only by the compiled search (it builds numba code)."""
        self.compiled_form = hasattr(game, "rule_functions")
        """Whether the game is written in the compiled form (``CompiledGame``: its rules as
        functions over int64 states), for advice on what it may add."""
        self.presentation: Presentation[S, M] = Presentation(
            show=hooks.get("show"),
            format_move=hooks.get("format_move"),
            parse_move=hooks.get("parse_move"),
            parse_state=hooks.get("parse_state"),
            draw_svg=_drawing(hooks.get("draw_svg")),
            published_plies=hooks.get("published_plies"),
        )
        """How people see it (its "presentation" hooks), for the front ends."""
        self._playout_scored: bool | None = None  # (``ends_in_scores``, once found)
        _no_loose_parts(game, self.name, hooks)
        self.batch: BatchRules | None = _group(self.name, hooks, "speed", BatchRules)
        self.tiers: TierRules | None = _group(self.name, hooks, "tiers", TierRules)
        if self.tiers is not None and self.batch is None:
            raise GameError(
                f"{self.name} gives tiers() without speed(): the tier solver runs the batch "
                "protocol, so a game with tiers gives both"
            )
        self.from_code: Callable[[int], S] | None = (
            None if self.batch is None else self.batch.from_code
        )
        self.engine_loops: Callable[[bool], Any] | None = (
            None if self.batch is None else self.batch.engine_loops
        )
        """A CompiledGame's loops, compiled (True) or plain Python (False); for check."""

    @property
    def name(self) -> str:
        """The game's name (``kind.name``), as every message names it."""
        return self.kind.name

    def ends_in_scores(self, plies: int = 1000) -> bool:
        """Whether the game ends in scores rather than WIN/LOSS/TIE: declared (``scored``),
        earned by moves (``reward``), else as the end of one playout (first moves) says;
        False when that playout does not end."""
        if self.reward is not None or self.kind.scored:
            return True
        if self.kind.scored is False:
            return False
        if self._playout_scored is None:
            found = False
            state = self.initial_state()
            for _ in range(plies):
                end = self.outcome(state)
                if end is not None:
                    found = not isinstance(end, Value)
                    break
                moves = self.legal_moves(state)
                if not moves:
                    break
                state = self.play(state, moves[0])
            self._playout_scored = found  # (kept only once the playout has run)
        return self._playout_scored

    def may_search(self) -> bool:
        """Whether ``analyze --method search`` may serve the game, for advice: it gives
        compiled rules (scores, rewards and extra turns included); a compiled game (its
        ``rule_functions``) only once it says how long it lasts (``max_plies``). Asked
        without building the rules (that compiles)."""
        if self.compiled_rules is None:
            return False
        return not self.compiled_form or callable(getattr(self.game, "max_plies", None))

    def starting_at(self, state: S) -> Rules[S, M]:
        """The same rules played from ``state``; a declared universe may not hold it, so
        batch exploration goes level by level from there."""
        moved = self._copy()
        moved.initial = lambda: state
        if self.batch is not None:
            moved.batch = dataclasses.replace(self.batch, universe=None)
        return moved

    def with_tiers(self, tiers: TierRules) -> Rules[S, M]:
        """The same rules answering the tier protocol from ``tiers`` (a tablebase's ranking
        read from disk): a new object; this one, and the game, stay as they were."""
        moved = self._copy()
        moved.tiers = tiers
        return moved

    def _copy(self) -> Rules[S, M]:
        """A second Rules of the same game, every field shared (the caller replaces some)."""
        moved: Rules[S, M] = object.__new__(Rules)
        moved.__dict__.update(self.__dict__)
        return moved

    def key_of(self, state: S) -> Hashable:
        """The canonical key of a state (the state itself when the game has no key())."""
        return state if self.key is None else self.key(state)

    def mover_changes(self, state: S, child: S) -> bool:
        """Whether the player to move differs between a state and a child of it."""
        return self.to_move is None or self.to_move(state) != self.to_move(child)

    def show(self, state: S) -> str:
        """The state as a person sees it; GameError when the game's show() fails."""
        show = self.presentation.show
        return str(state) if show is None else self._text("show", show, state)

    def format_move(self, move: M) -> str:
        """A move as a person sees it; GameError when the game's format_move() fails."""
        format_move = self.presentation.format_move
        if format_move is None:
            return str(move)
        return self._text("format_move", format_move, move)

    def _text(self, hook: str, function: Callable[[Any], Any], argument: Any) -> str:
        """A hook that draws text, called as every hook of the game is: its failure, or a
        result that is no string, is a GameError naming it."""
        try:
            text = function(argument)
        except Exception as exc:
            raise GameError(
                f"{self.name}.{hook}({describe(argument)}) raised {type(exc).__name__}: {exc}"
            ) from None
        if not isinstance(text, str):
            raise GameError(
                f"{self.name}.{hook}({describe(argument)}) returned {type(text).__name__} "
                f"{describe(text)}, not a string"
            )
        return text

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
        shown = ", ".join(self.format_move(m) for m in legal)
        parse = self.presentation.parse_move
        if parse is not None:
            try:
                move = parse(text)
            except Exception as exc:  # the user's parser: any failure means text it cannot read
                said = f"{exc}; legal moves here" if _raised_in_words(exc) else (
                    "a move is written as one of the legal moves here")  # fmt: skip
                raise GameError(f"cannot read move {text!r}: {said}: {shown}") from None
            if move in legal:
                return move
        else:
            for move in legal:
                if self.format_move(move) == text:
                    return move
        raise GameError(f"{text!r} is not a legal move here; legal moves: {shown}")

    def read_position(self, text: str) -> S:
        """A state from the game's parse_state(text); UsageProblem when it cannot be read."""
        parse = self.presentation.parse_state
        if parse is None:
            raise UsageProblem(
                f"{self.name} cannot read positions (it has no parse_state()); use --moves"
            )
        try:
            return parse(text)
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise UsageProblem(f"cannot read position {text!r}: {exc}") from None

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


def _raised_in_words(error: BaseException) -> bool:
    """Whether a game's own ``raise`` statement made ``error`` (its words are for people),
    not a conversion inside it (``int('abc')``: Python's words, not the game's)."""
    trace = error.__traceback__
    while trace is not None and trace.tb_next is not None:
        trace = trace.tb_next
    if trace is None:
        return False
    line = linecache.getline(trace.tb_frame.f_code.co_filename, trace.tb_lineno)
    return line.strip().startswith("raise")
