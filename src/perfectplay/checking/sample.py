"""The self-check's sample: random playouts from the initial state, the sampled positions
coded by their keys, and the check that a key is a symmetry of the rules. The plain rules
are the reference every other protocol is held to."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from ..diagnosis import diagnose
from ..errors import describe
from ..rules import Rules

MAX_PLIES = 1000  # a playout stops here (a game with cycles may never end)
SHOWN = 5  # problems told per hook; the rest are counted


class Check:
    """One game's sample and the problems found in it so far."""

    def __init__(self, rules: Rules[Any, Any], samples: int, seed: int) -> None:
        self.rules, self.samples, self.rng = rules, samples, random.Random(seed)
        self.lines: list[str] = []
        self.count: Counter[str] = Counter()
        self.paths: list[list[Any]] = []
        self.states: dict[int, Any] = {}  # the sampled states by code (their keys)
        self.coded: list[list[int]] = []  # the playouts as codes
        self.children: dict[int, list[int]] = {}  # batch_expand's children of open codes
        self.listed: dict[int, list[int]] = {}  # child_tiers, asked once per tier
        self.children_of: dict[tuple[Any, bool], Counter[Any]] = {}  # plain_children's

    def add(self, hook: str, message: str) -> None:
        self.count[hook] += 1
        if self.count[hook] <= SHOWN:
            self.lines.append(f"{self.rules.name}.{hook}: {message}")

    def call(self, hook: str, function: Callable[..., Any], *args: Any) -> Any:
        """function(*args), or None (and a problem) when it raises."""
        try:
            return function(*args)
        except Exception as exc:
            self.add(hook, f"raised {type(exc).__name__}: {exc} (arguments {describe(args)})")
            return None

    def array(self, hook: str, function: Callable[..., Any], *args: Any) -> npt.NDArray[Any]:
        """function(*args) as an array as long as the last argument; empty on a problem."""
        got = self.call(hook, function, *args)
        values = np.zeros(0, dtype=np.int64) if got is None else np.asarray(got)
        if got is not None and values.shape != (len(args[-1]),):
            self.add(hook, f"gave shape {values.shape} for {len(args[-1])} inputs")
            return np.zeros(0, dtype=np.int64)
        return values

    def playouts(self) -> None:
        """Random playouts from the initial state until ``samples`` states are seen."""
        seen = 0
        while seen < self.samples and len(self.paths) < self.samples:
            state = self.rules.initial_state()
            path = [state]
            try:
                while len(path) <= MAX_PLIES and (moves := self.rules.legal_moves(state)):
                    state = self.rules.play(state, self.rng.choice(moves))
                    path.append(state)
            except Exception as exc:
                self.lines.append(str(diagnose(self.rules, state, exc)))
                break
            self.paths.append(path)
            seen += len(path)

    def codes(self) -> bool:
        """Code the sampled states by their keys; False when a key is no code."""
        for path in self.paths:
            self.coded.append([])
            for state in path:
                code = self.rules.key_of(state)
                if not isinstance(code, (int, np.integer)) or code < 0:
                    self.add("key", f"a batch game's keys are ints >= 0, not {describe(code)}")
                    return False
                self.states.setdefault(int(code), state)
                self.coded[-1].append(int(code))
        return bool(self.coded)

    def key_symmetry(self) -> None:
        """A key is a true symmetry: sampled states sharing a key (with the children of
        every sampled state) have the same outcome and the same multiset of children's
        keys, with the same rewards and turns. A key that merges states play tells apart
        would give them one value."""
        rules = self.rules
        seen: dict[Any, Any] = {}
        pool = [state for path in self.paths for state in path]
        for state in list(pool):
            if rules.outcome(state) is None:
                pool += [rules.play(state, move) for move in rules.moves(state)]
        told: set[Any] = set()
        for state in pool:
            key = rules.key_of(state)
            other = seen.setdefault(key, state)
            if other == state or key in told:
                continue
            if rules.outcome(other) != rules.outcome(state):
                told.add(key)
                self.add(
                    "key",
                    f"states {describe(other)} and {describe(state)} share key {describe(key)} "
                    f"but end differently ({describe(rules.outcome(other))}, "
                    f"{describe(rules.outcome(state))})",
                )
            elif rules.outcome(state) is None and self.plain_children(
                other, True
            ) != self.plain_children(state, True):
                told.add(key)
                self.add(
                    "key",
                    f"states {describe(other)} and {describe(state)} share key {describe(key)} "
                    "but their moves lead to different positions: a key must be a symmetry "
                    "of the rules",
                )

    def plain_children(self, state: Any, detail: bool) -> Counter[Any]:
        """The keys of play(state, m) for every move m (with rewards and turns if detail),
        found once a state (the key's check asks again for every state sharing a key)."""
        try:
            return Counter(self.children_of[(state, detail)])
        except KeyError:
            pass
        except TypeError:  # a state that cannot be hashed: found every time
            return self._plain_children(state, detail)
        found = self.children_of[(state, detail)] = self._plain_children(state, detail)
        return Counter(found)

    def _plain_children(self, state: Any, detail: bool) -> Counter[Any]:
        rules, found = self.rules, Counter[Any]()
        for move in rules.moves(state):
            child = rules.play(state, move)
            key = rules.key_of(child)
            key = int(key) if isinstance(key, (int, np.integer)) else key
            if detail:
                reward = 0.0 if rules.reward is None else float(rules.reward(state, move))
                key = (key, reward, not rules.mover_changes(state, child))
            found[key] += 1
        return found
