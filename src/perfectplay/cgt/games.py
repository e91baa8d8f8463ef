"""The value of any short partizan game a user writes, by memoization over positions.

A partizan game for ``value`` is any object with three methods::

    left_moves(state)  -> iterable of Left's moves
    right_moves(state) -> iterable of Right's moves
    play(state, move)  -> the state after the move (must not change ``state``)

``play`` gets each move exactly as ``left_moves`` or ``right_moves`` gave it; when the same
move could mean different things for the two players, put the player in the move. The
player with no move loses (normal play), and every line of play must end (short games).
For example, Cutcake: Left cuts a cake along its width, Right along its height, and a
state is a tuple of (width, height) cakes::

    class Cutcake:
        def left_moves(self, cakes):
            return [(i, k) for i, (w, h) in enumerate(cakes) for k in range(1, w)]

        def right_moves(self, cakes):
            return [(i, -k) for i, (w, h) in enumerate(cakes) for k in range(1, h)]

        def play(self, cakes, move):
            i, k = move
            w, h = cakes[i]
            pieces = ((k, h), (w - k, h)) if k > 0 else ((w, -k), (w, h + k))
            return cakes[:i] + pieces + cakes[i + 1 :]

        def components(self, cakes):  # optional: each cake is a game of its own
            return [(cake,) for cake in cakes]

    value(Cutcake(), ((3, 2),))  # the canonical value of a 3 x 2 cake

The optional hooks (``components``, ``key``, ``swap``: speed-ups that must not change any
value; ``initial``, ``parse_position``, ``show``, ``name``, ``players``: for the command
line) are listed with the game protocol's in ``perfectplay.protocol.HOOKS`` (those marked
``protocol="partizan"``), and read once by ``PartizanRules``, the one adapter of a partizan
game. ``components`` must return parts (an empty list: the position is 0) on which it
would return the part alone (or nothing). States must be hashable (they index the values
found). The walk is iterative (an explicit stack, no recursion), so depth is limited by
memory only; a position met again while its own value is being computed means the game
is loopy, which raises ``CycleError``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from ..errors import CycleError, GameError, StateBudgetExceeded, describe
from ..protocol import PARTIZAN_HOOKS, name_of, read_hooks
from .canonical import ZERO, CanonicalGame, add, negate
from .canonical.reduction import _canonical

__all__ = [
    "HOOKS",
    "PartizanGame",
    "PartizanRules",
    "PartizanSum",
    "Solver",
    "check_partizan",
    "value",
]

HOOKS = PARTIZAN_HOOKS
"""Every hook of a partizan game (``protocol.HOOKS``' entries marked "partizan")."""


@runtime_checkable
class PartizanGame(Protocol):
    """What ``value`` needs: Left's and Right's moves and how a move is played."""

    def left_moves(self, state: Any) -> Iterable[Any]:
        """Left's moves from state."""
        ...

    def right_moves(self, state: Any) -> Iterable[Any]:
        """Right's moves from state."""
        ...

    def play(self, state: Any, move: Any) -> Any:
        """The state after move."""
        ...


def check_partizan(game: object) -> None:
    """Raise GameError naming the hooks a partizan game lacks."""
    PartizanRules.of(game)


@dataclass(frozen=True)
class PartizanRules:
    """A partizan game's hooks, each read once from the table (``PARTIZAN_HOOKS``): the
    one place that looks at a user's partizan game; the optional ones are None when the
    game lacks them, and ``name`` and ``players`` have their defaults filled in."""

    game: Any
    name: str
    left_moves: Callable[[Any], Iterable[Any]]
    right_moves: Callable[[Any], Iterable[Any]]
    play: Callable[[Any, Any], Any]
    components: Callable[[Any], Iterable[Any]] | None
    key: Callable[[Any], Hashable] | None
    swap: Callable[[Any], Any] | None
    initial: Callable[[], Any] | None
    parse_position: Callable[[str], Any] | None
    show: Callable[[Any], str] | None
    players: tuple[str, str]

    @classmethod
    def of(cls, game: object) -> PartizanRules:
        """The hooks of ``game``; GameError naming the required ones it lacks."""
        hooks = read_hooks(game, "partizan")
        required = [h.name for h in PARTIZAN_HOOKS if h.group == "required"]
        missing = [name for name in required if name not in hooks]
        if missing:
            raise GameError(
                f"{type(game).__name__} is no partizan game: it lacks {', '.join(missing)} "
                "(see perfectplay.cgt.games)"
            )
        players = tuple(str(p) for p in hooks.get("players", ("Left", "Right")))
        if len(players) != 2:
            raise GameError(f"{type(game).__name__}.players names {len(players)} players, not 2")
        return cls(
            game=game,
            name=name_of(game),
            left_moves=hooks["left_moves"],
            right_moves=hooks["right_moves"],
            play=hooks["play"],
            components=hooks.get("components"),
            key=hooks.get("key"),
            swap=hooks.get("swap"),
            initial=hooks.get("initial"),
            parse_position=hooks.get("parse_position"),
            show=hooks.get("show"),
            players=(players[0], players[1]),
        )

    def describe(self, state: Any) -> str:
        """A position as the game shows it."""
        return str(self.show(state)) if self.show is not None else str(state)


@dataclass
class _Frame:
    state: Any
    key: Hashable
    mirror_key: Hashable
    options: list[tuple[bool, list[Any]]] | None = None


@dataclass
class Solver:
    """Values of one game's positions, memoized across calls.

    ``memo`` maps a position's key to its value; positions already met are also found by
    the state itself (so ``key`` runs once per distinct state). ``max_positions`` bounds
    how many positions (components) are valued; past it, ``StateBudgetExceeded``.
    """

    game: Any
    max_positions: int | None = None
    memo: dict[Hashable, CanonicalGame] = field(default_factory=dict)

    def __post_init__(self) -> None:
        rules = PartizanRules.of(self.game)
        self._left_moves = rules.left_moves
        self._right_moves = rules.right_moves
        self._play = rules.play
        self._components = rules.components
        self._key = rules.key
        self._swap = rules.swap
        # Components already valued, by the state itself (so key and swap run once each
        # per distinct state); the memo itself when states are their own keys.
        self._seen: dict[Any, CanonicalGame] = (
            self.memo if self._key is None and self._swap is None else {}
        )

    def _key_of(self, state: Any) -> Hashable:
        return self._key(state) if self._key is not None else state

    def _parts(self, state: Any) -> list[Any]:
        """The components of state."""
        if self._components is None:
            return [state]
        try:
            return list(self._components(state))
        except Exception as exc:
            raise GameError(
                f"components({describe(state)}) raised {type(exc).__name__}: {exc}"
            ) from exc

    def _probe(self, state: Any) -> _Frame | CanonicalGame:
        """The value of a component valued before (perhaps as its mirror image), or a
        frame to value it."""
        found = self._seen.get(state)
        if found is not None:
            return found
        key = self._key_of(state)
        found = self.memo.get(key)
        mirror_key: Hashable = None
        if found is None and self._swap is not None:
            mirror_key = self._key_of(self._swap(state))
            mirror = self.memo.get(mirror_key)
            if mirror is not None:
                found = negate(mirror)
        if found is None:
            return _Frame(state, key, mirror_key)
        self._seen[state] = found
        return found

    def value(self, state: Any) -> CanonicalGame:
        """The canonical value of state (the sum of its components' values)."""
        try:
            hash(state)
        except TypeError:
            raise GameError(
                f"state {describe(state)} is not hashable: use tuples, frozensets, strings"
            ) from None
        total = ZERO
        for part in self._parts(state):
            total = add(total, self._component_value(part))
        return total

    def _options(
        self, state: Any, moves: Iterable[Any], left: bool
    ) -> list[tuple[bool, list[Any]]]:
        out = []
        try:
            play = self._play
            parts = self._parts
            for move in moves:
                out.append((left, parts(play(state, move))))
        except GameError:
            raise
        except Exception as exc:
            raise GameError(
                f"playing a move from {describe(state)} raised {type(exc).__name__}: {exc}"
            ) from exc
        return out

    def _component_value(self, state: Any) -> CanonicalGame:
        probed = self._probe(state)
        if isinstance(probed, CanonicalGame):
            return probed
        memo = self.memo
        seen = self._seen
        probe = self._probe
        seen_get = seen.get
        active: set[Hashable] = set()
        stack = [probed]
        while stack:
            frame = stack[-1]
            if frame.options is None and self._known_or_opened(frame, active):
                stack.pop()
                continue
            assert frame.options is not None
            left: list[CanonicalGame] = []
            right: list[CanonicalGame] = []
            pending = False
            for is_left, parts in frame.options:
                total = ZERO
                for part in parts:
                    got: CanonicalGame | _Frame | None = seen_get(part)
                    if got is None:
                        got = probe(part)
                    if isinstance(got, CanonicalGame):
                        if not pending:
                            total = add(total, got)
                    else:
                        stack.append(got)
                        pending = True
                if not pending:
                    (left if is_left else right).append(total)
            if pending:
                continue
            result = _canonical(left, right)
            memo[frame.key] = result
            seen[frame.state] = result
            active.discard(frame.key)
            stack.pop()
        answer = self._probe(state)
        assert isinstance(answer, CanonicalGame)
        return answer

    def _known_or_opened(self, frame: _Frame, active: set[Hashable]) -> bool:
        """A frame met for the first time: True when its value is known already (noted as
        seen); else its options listed and its position marked on the path (``active``).
        CycleError when the position is on the path already; StateBudgetExceeded past the
        budget of positions valued."""
        memo = self.memo
        found = self._seen.get(frame.state)
        if found is None:
            found = memo.get(frame.key)
        if found is None and frame.mirror_key is not None:
            mirror = memo.get(frame.mirror_key)
            if mirror is not None:
                found = negate(mirror)
        if found is not None:
            self._seen[frame.state] = found
            return True
        if frame.key in active:
            raise CycleError(
                f"position {describe(frame.state)} is reached from itself: "
                "values need short games (every line of play ends)"
            )
        budget = self.max_positions
        if budget is not None and len(memo) >= budget:
            raise StateBudgetExceeded(f"more than {budget} positions valued; raise the budget")
        active.add(frame.key)
        frame.options = self._options(
            frame.state, self._moves(self._left_moves, frame), True
        ) + self._options(frame.state, self._moves(self._right_moves, frame), False)
        return False

    def _moves(self, hook: Callable[[Any], Iterable[Any]], frame: _Frame) -> Iterable[Any]:
        try:
            return list(hook(frame.state))
        except Exception as exc:
            raise GameError(
                f"{getattr(hook, '__name__', 'moves')}({describe(frame.state)}) raised "
                f"{type(exc).__name__}: {exc}"
            ) from exc


def value(game: Any, state: Any = None, *, max_positions: int | None = None) -> CanonicalGame:
    """The canonical value of a position of a partizan game (its ``initial()`` by default)."""
    if state is None:
        initial = PartizanRules.of(game).initial
        if initial is None:
            raise GameError(f"{type(game).__name__} has no initial(): give a position")
        state = initial()
    return Solver(game, max_positions).value(state)


class PartizanSum:
    """The disjunctive sum of partizan games: a move is made in exactly one of them.

    A state is a tuple of the parts' positions; a move is (part index, its move). Loopy
    parts are allowed (for ``perfectplay.outcomes``; ``value`` needs short parts).
    """

    def __init__(self, *games: Any) -> None:
        self.parts = games
        self.name = " + ".join(PartizanRules.of(g).name for g in games)

    def left_moves(self, state: tuple[Any, ...]) -> list[tuple[int, Any]]:
        """Left's moves in every part."""
        return [(i, m) for i, g in enumerate(self.parts) for m in g.left_moves(state[i])]

    def right_moves(self, state: tuple[Any, ...]) -> list[tuple[int, Any]]:
        """Right's moves in every part."""
        return [(i, m) for i, g in enumerate(self.parts) for m in g.right_moves(state[i])]

    def play(self, state: tuple[Any, ...], move: tuple[int, Any]) -> tuple[Any, ...]:
        """Play one part's move, leaving the others as they are."""
        i, inner = move
        return (*state[:i], self.parts[i].play(state[i], inner), *state[i + 1 :])
