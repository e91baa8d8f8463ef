"""Where a compiled game's time goes: each rule timed per call, compiled, with hints.

``profile_rules`` samples positions through the game's plain methods (every position, when
the game has no more than ``samples`` of them; else random playouts from the start), then
compiles each rule function with numba (as the engine does, helpers included) and times
it in a compiled loop over those positions: play and reward over their moves, key over
what play returns, tier over keyed positions, the rest over the positions. A solve calls,
per position that goes on, outcome and moves once, and play, key and tier once a move:
weighed so, the times say which rule a solve spends its time in.

The hints come from reading the rules with the standard library, never from running them:
a numpy array made inside a rule (an allocation on every call: ``dis`` finds the call, in
the rule or a helper it calls) and a key that moves the board cell by cell in a loop
(``ast`` finds a shift or an index by a name the loop sets), said only when the key also
takes a few times what a key of shifts and masks takes here; and the rule the time goes
to. A solve of Quixo written so (a grid array in every play, the eight symmetries applied
cell by cell) took 1.5x GamesmanOne's time where ``examples/quixo.py`` takes 0.8x.
"""

from __future__ import annotations

import ast
import dis
import inspect
import math
import random
import textwrap
import threading
import time
import types
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import GameError, UsageProblem
from ..protocol import name_of
from .building import RULES, jitted, numba_problem, users_own
from .form import CompiledGame

PER_POSITION = {"outcome": 1.0, "moves": 1.0, "unmoves": 0.0, "start": 0.0}
"""Calls a solve makes per position that goes on, for the rules called once (or never, in
the sweep: ``start`` runs once a solve, ``unmoves`` only in tiers with moves inside)."""
PER_MOVE = ("play", "key", "tier", "reward")
"""Rules a solve calls once a move; ``to_move`` is called once a move and once more."""
ALLOCATING = frozenset(
    {"zeros", "empty", "ones", "full", "array", "zeros_like", "empty_like", "ones_like",
     "full_like", "arange", "copy", "concatenate", "stack", "hstack", "vstack", "tile",
     "repeat", "linspace", "eye", "identity"}
)  # fmt: skip
"""numpy functions that make a new array."""
KEY_TIMES = 2.5
"""A key that loops cell by cell is worth a hint once it takes this many times what a key
of shifts and masks takes here (``_bit_board_key``, 20-30 ns on a 2-core machine with
others at work, 2026-11-28). Tic-tac-toe's key written cell by cell took 4.7-5.3 times
that, ``examples/quixo.py``'s 4 x 4 key 1.1-1.6 times. Against play's time instead, as
first meant, Quixo's key (0.9x play's, 42% of the time) drew the hint from the cell loop
of its other sizes, which never runs at 4 x 4."""
MIN_CALLS = 10_000
"""Each timed loop calls its rule at least this many times (the inputs repeated)."""
ROUND_SECONDS = 0.01
ROUNDS = 5
"""Each rule is timed in ROUNDS rounds of about ROUND_SECONDS; the fastest round counts."""
EXAMPLES = (
    "the image functions of perfectplay's examples/teeko.py (image) and examples/quixo.py "
    "(image_4x4)"
)


@dataclass(frozen=True)
class RuleTime:
    """One rule's time: per call, calls per position, and its share of the rules' time."""

    rule: str
    ns_per_call: float
    calls_per_position: float
    share: float
    """Of the rules' time per position (0 to 1)."""


@dataclass(frozen=True)
class Hint:
    """Something to change in a rule, and why; ``kind`` is "allocation", "key-cells" or
    "slowest"."""

    kind: str
    rule: str
    text: str


@dataclass(frozen=True)
class RulesProfile:
    """Where a compiled game's time goes (see the module docstring)."""

    game: str
    positions: int
    """Positions timed (and counted for the calls per position)."""
    every_position: bool
    """Whether those are every position the game has (else random playouts')."""
    mean_moves: float
    """Moves per position that goes on."""
    rules: tuple[RuleTime, ...]
    hints: tuple[Hint, ...]

    def as_dict(self) -> dict[str, Any]:
        """The profile as plain data, for JSON."""
        return asdict(self)


def profile_rules(game: Any, samples: int = 1000, seed: int = 0) -> RulesProfile:
    """Time each rule of a compiled game per call, compiled, on ``samples`` positions (see
    the module docstring); a game that is not a compiled game is a UsageProblem."""
    if not isinstance(game, CompiledGame):
        raise UsageProblem(
            f"{name_of(game)} is not a compiled game: the "
            "profile times the rule functions of a perfectplay.compiled_games.CompiledGame"
        )
    if samples < 1:
        raise ValueError("samples must be at least 1")
    functions = game.rule_functions
    sample = sample_positions(game, samples, random.Random(seed))
    inputs = _inputs(game, sample, samples, random.Random(seed + 1))
    # (``tabled`` is the search's alone: a solve never calls it, so it is not timed)
    timed = [name for name in RULES if name in functions and name in inputs]
    per_call = {name: _time_rule(game, name, inputs[name]) for name in timed}
    calls = {name: _calls(name, sample.mean_moves) for name in per_call}
    total = sum(per_call[name] * calls[name] for name in per_call)
    rules = tuple(
        RuleTime(
            rule=name,
            ns_per_call=per_call[name],
            calls_per_position=calls[name],
            share=per_call[name] * calls[name] / total if total > 0 else 0.0,
        )
        for name in per_call
    )
    return RulesProfile(
        game=name_of(game),
        positions=len(sample.positions),
        every_position=sample.every_position,
        mean_moves=sample.mean_moves,
        rules=rules,
        hints=tuple(_hints(game, rules)),
    )


def _calls(rule: str, mean_moves: float) -> float:
    if rule == "to_move":
        return 1.0 + mean_moves
    return mean_moves if rule in PER_MOVE else PER_POSITION[rule]


# ----- the positions ------------------------------------------------------------------


@dataclass
class Sample:
    """Positions of a game (keyed, as a solve holds them), each with its moves (None when
    the game has ended there)."""

    positions: dict[int, list[int] | None]
    every_position: bool

    @property
    def mean_moves(self) -> float:
        """Moves per position that goes on."""
        counts = [len(moves) for moves in self.positions.values() if moves is not None]
        return sum(counts) / len(counts) if counts else 0.0


def sample_positions(game: Any, samples: int, rng: random.Random) -> Sample:
    """Every position of the game when it has at most ``samples`` (explored from the start,
    as a solve would: a solve counts each once, where playouts see each depth about as
    often), else ``samples`` distinct ones from random playouts."""
    keyed = game.key if "key" in game.rule_functions else _same
    start = keyed(game.initial())
    found: dict[int, list[int] | None] = {}
    order = [start]
    seen = {start}
    done = 0
    while done < len(order) and len(seen) <= samples:
        state = order[done]
        done += 1
        moves = found[state] = _moves_of(game, state)
        for move in moves or ():
            child = keyed(game.play(state, move))
            if child not in seen:
                seen.add(child)
                order.append(child)
    if done == len(order):
        return Sample(found, every_position=True)
    played: dict[int, list[int] | None] = {}
    steps = 0
    while len(played) < samples and steps < 50 * samples:
        state = start
        while len(played) < samples and steps < 50 * samples:
            steps += 1
            moves = played[state] = found[state] if state in found else _moves_of(game, state)
            if not moves:
                break
            state = keyed(game.play(state, rng.choice(moves)))
    return Sample(played, every_position=False)


def _moves_of(game: Any, state: int) -> list[int] | None:
    return None if game.outcome(state) is not None else list(game.moves(state))


def _same(state: int) -> int:
    return state


def _inputs(game: Any, sample: Sample, samples: int, rng: random.Random) -> dict[str, Any]:
    """What each rule is timed on, as int64 arrays (see the module docstring)."""
    positions = list(sample.positions)
    going = [s for s, moves in sample.positions.items() if moves is not None]
    pairs = [(s, m) for s, moves in sample.positions.items() for m in moves or ()]
    if len(pairs) > samples:
        pairs = rng.sample(pairs, samples)
    children = [game.play(s, m) for s, m in pairs]
    keyed = [game.key(c) for c in children] if "key" in game.rule_functions else children
    if "unmoves" in game.rule_functions:  # run once as Python: a write past the buffer
        buffer = np.empty(game.max_moves, dtype=np.int64)  # is then an error, not a crash
        for state in positions:
            try:
                game.rule_functions["unmoves"](game.params, state, buffer)
            except IndexError:
                raise GameError(
                    f"{type(game).__name__}.unmoves() of state {state} writes past max_moves "
                    f"({game.max_moves}): raise max_moves to the most un-moves a state has"
                ) from None
    states, moves = zip(*pairs, strict=True) if pairs else ((), ())
    return {
        "start": (),
        "outcome": (_array(positions),),
        "to_move": (_array(positions),),
        "unmoves": (_array(positions), np.empty(game.max_moves, dtype=np.int64)),
        "moves": (_array(going), np.empty(game.max_moves, dtype=np.int64)),
        "play": (_array(list(states)), _array(list(moves))),
        "reward": (_array(list(states)), _array(list(moves))),
        "key": (_array(children),),
        "tier": (_array(keyed),),
    }


def _array(values: list[int]) -> Any:
    """``values`` as int64, repeated to MIN_CALLS or more (a call of the timed loop then
    weighs far more than the call into it)."""
    made = np.array(values, dtype=np.int64)
    if 0 < made.size < MIN_CALLS:
        made = np.resize(made, -(-MIN_CALLS // made.size) * made.size)
    return made


# ----- the timing ---------------------------------------------------------------------
# The loops numba compiles around a rule: each call's result is summed and returned, so
# that the calls are not optimised away.


def _each_start(rule: Any, p: Any, n: int) -> Any:
    total = 0
    for _ in range(n):
        total += rule(p)
    return total


def _each_state(rule: Any, p: Any, states: Any) -> Any:
    total = 0
    for i in range(states.shape[0]):
        total += rule(p, states[i])
    return total


def _each_move(rule: Any, p: Any, states: Any, moves: Any) -> Any:
    total = 0
    for i in range(states.shape[0]):
        total += rule(p, states[i], moves[i])
    return total


def _each_buffer(rule: Any, p: Any, states: Any, out: Any) -> Any:
    total = 0
    for i in range(states.shape[0]):
        total += rule(p, states[i], out) + out[0]
    return total


_lock = threading.Lock()
_loops: dict[str, Any] = {}
_rules: dict[tuple[int, bool], Any] = {}
"""Compiled once a process: the timing loops, and each rule function (by id; its helpers
too), cached or not on disk."""
_helpers: dict[bool, dict[int, Any]] = {True: {}, False: {}}
_bit_board: list[float] = []
"""What ``bit_board_key_ns`` found, once a process."""


def _loop(name: str) -> Any:
    """One of the timing loops, compiled (numba compiles it again for each rule passed)."""
    import numba

    with _lock:
        if name not in _loops:
            _loops[name] = numba.njit(nogil=True)(globals()[name])
        return _loops[name]


def _compiled(function: Any, cache: bool) -> Any:
    """A rule function under numba (``building.jitted``: its helpers compiled with it)."""
    with _lock:
        key = (id(function), cache)
        if key not in _rules:  # the function is kept with it: its id is not reused
            _rules[key] = (function, jitted(function, _helpers[cache], cache))
        return _rules[key][1]


def _time_rule(game: Any, name: str, arrays: tuple[Any, ...]) -> float:
    """Nanoseconds per call of one rule, compiled, in a compiled loop over ``arrays``."""
    import numba

    function = game.rule_functions[name]
    if name == "start":
        loop, calls = _loop("_each_start"), MIN_CALLS
    elif not arrays[0].size:  # never called on what was sampled (no moves, say)
        return 0.0
    else:
        kind = {1: "_each_state", 2: "_each_move"}[len(arrays)]
        if name in ("moves", "unmoves"):
            kind = "_each_buffer"
        loop, calls = _loop(kind), arrays[0].size
    run: Any = None
    for cache in (True, False):  # a disk cache numba cannot read back: compile afresh
        rule = _compiled(function, cache)
        arguments = (rule, game.params, calls) if name == "start" else (rule, game.params, *arrays)
        try:
            loop(*arguments)  # compiles the rule and the loop around it; warms them
        except numba.core.errors.NumbaError as exc:
            raise GameError(numba_problem(type(game), name, function, exc)) from None
        except Exception as exc:
            if not cache:
                raise GameError(
                    f"{type(game).__name__}.{name}() raised {type(exc).__name__}: {exc} "
                    "when compiled, on the sampled positions"
                ) from None
            continue
        run = arguments
        break
    return _seconds(loop, run) / calls * 1e9


def _seconds(loop: Any, arguments: tuple[Any, ...]) -> float:
    """The fastest of ROUNDS rounds of calls of ``loop``, per call, in seconds."""
    began = time.perf_counter()
    loop(*arguments)
    once = time.perf_counter() - began
    repeats = max(1, min(10_000, int(ROUND_SECONDS / max(once, 1e-9))))
    best = math.inf
    for _ in range(ROUNDS):
        began = time.perf_counter()
        for _ in range(repeats):
            loop(*arguments)
        best = min(best, (time.perf_counter() - began) / repeats)
    return best


# ----- the hints ----------------------------------------------------------------------


def _hints(game: Any, rules: tuple[RuleTime, ...]) -> Iterator[Hint]:
    functions = game.rule_functions
    for timed in rules:
        if timed.rule == "start":
            continue
        found = allocations(functions[timed.rule])
        if found:
            made, where = found[0]
            yield Hint(
                "allocation",
                timed.rule,
                f"{timed.rule} makes a numpy array (np.{made}, {where}) each time it runs: "
                f"an allocation a call, {timed.ns_per_call:,.1f} ns a call in all; keep the "
                "position in the int64 state and change it with bit operations, or read a "
                "table made once at module level",
            )
    times = {timed.rule: timed for timed in rules}
    key, play = times.get("key"), times.get("play")
    largest = max(rules, key=lambda timed: timed.share)
    loop = cell_loop(functions["key"]) if key is not None else None
    if key is not None and loop is not None:
        bits = bit_board_key_ns()
        if key.ns_per_call >= KEY_TIMES * bits:
            against = f", {_times(key, play)} play's" if play is not None else ""
            yield Hint(
                "key-cells",
                "key",
                f"key takes {key.ns_per_call:,.1f} ns a call{against}, {key.share:.0%} of "
                f"the rules' time, and moves the board cell by cell in a loop ({loop}): "
                "the eight symmetries of a square board can be applied to a bit board with "
                f"a few shifts and masks each ({bits:,.1f} ns a call here for two 5 x 5 "
                f"boards), as {EXAMPLES} do",
            )
    if largest.share > 0:
        yield Hint(
            "slowest",
            largest.rule,
            f"most of the time goes to {largest.rule}: {largest.share:.0%} of the rules' "
            f"time per position ({largest.ns_per_call:,.1f} ns a call, "
            f"{largest.calls_per_position:.2f} calls a position)",
        )


def bit_board_key_ns() -> float:
    """What a key of shifts and masks takes here, per call, in nanoseconds: the least of
    the eight images of a position of two 5 x 5 bit boards (``_bit_board_key``)."""
    with _lock:
        if _bit_board:
            return _bit_board[0]
    states = np.random.default_rng(0).integers(0, 1 << 51, MIN_CALLS, dtype=np.int64)
    key = _compiled(_bit_board_key, False)
    loop = _loop("_each_state")
    loop(key, (), states)
    found = _seconds(loop, (key, (), states)) / states.size * 1e9
    with _lock:
        _bit_board[:] = [found]
    return found


_COLUMN = sum(1 << (5 * r) for r in range(5))
_DIAGONALS = tuple(sum(1 << (6 * r + k) for r in range(5 - k)) for k in range(5))
"""Bits of a 5 x 5 board (bit 5r + c): its first column; cells (r, r + k) for each k."""


def _image(x: int, t: int) -> int:
    """A 5 x 5 board of bits transposed (t & 4), rows reversed (t & 1), columns reversed
    (t & 2), by moving bits in groups (as ``examples/teeko.py``)."""
    if t & 4:  # cell (r, r + k) and cell (r + k, r) are 4k bits apart
        a1, a2, a3, a4 = _DIAGONALS[1], _DIAGONALS[2], _DIAGONALS[3], _DIAGONALS[4]
        x = (
            (x & _DIAGONALS[0])
            | ((x & a1) << 4) | ((x >> 4) & a1)
            | ((x & a2) << 8) | ((x >> 8) & a2)
            | ((x & a3) << 12) | ((x >> 12) & a3)
            | ((x & a4) << 16) | ((x >> 16) & a4)
        )  # fmt: skip
    if t & 1:
        x = (
            ((x & 31) << 20) | (((x >> 5) & 31) << 15) | (x & (31 << 10))
            | (((x >> 15) & 31) << 5) | ((x >> 20) & 31)
        )  # fmt: skip
    if t & 2:
        c0, c1 = _COLUMN, _COLUMN << 1
        x = ((x & c0) << 4) | ((x >> 4) & c0) | ((x & c1) << 2) | ((x >> 2) & c1) | (
            x & (_COLUMN << 2))  # fmt: skip
    return x


def _bit_board_key(p: Any, s: int) -> int:
    """The least of a position's eight images: two 5 x 5 boards, then whose turn it is."""
    first, second, turn = s & 0x1FFFFFF, (s >> 25) & 0x1FFFFFF, s & (1 << 50)
    best = s
    for t in range(1, 8):
        best = min(best, _image(first, t) | (_image(second, t) << 25) | turn)
    return best


def _times(key: RuleTime, play: RuleTime) -> str:
    return f"{key.ns_per_call / play.ns_per_call:.1f}x" if play.ns_per_call > 0 else "more than"


def _place(function: Any, line: int | None) -> str:
    code = function.__code__
    return f"{Path(code.co_filename).name}:{line or code.co_firstlineno}"


def _helpers_called(function: Any, names: Any) -> Iterator[Any]:
    """The user's own functions among ``names`` of ``function``'s globals (its helpers)."""
    for name in names:
        value = function.__globals__.get(name)
        if (
            isinstance(value, types.FunctionType)
            and value is not function
            and users_own(value, function)
        ):
            yield value


def allocations(function: Any) -> list[tuple[str, str]]:
    """The numpy arrays a rule makes, read from its bytecode and its helpers': (the numpy
    function, where) for each call found."""
    found: list[tuple[str, str]] = []
    seen: set[int] = set()

    def visit(function: Any) -> None:
        if id(function) in seen:
            return
        seen.add(id(function))
        codes = [function.__code__]
        while codes:
            code = codes.pop()
            codes += [c for c in code.co_consts if isinstance(c, types.CodeType)]
            numpy_before = False
            for instruction in dis.get_instructions(code):
                line = instruction.positions.lineno if instruction.positions else None
                if instruction.opname in ("LOAD_GLOBAL", "LOAD_NAME"):
                    value = function.__globals__.get(instruction.argval)
                    numpy_before = value is np
                    if _numpy_maker(value):
                        found.append((str(instruction.argval), _place(function, line)))
                    continue
                attribute = instruction.opname in ("LOAD_ATTR", "LOAD_METHOD")
                if attribute and numpy_before and instruction.argval in ALLOCATING:
                    found.append((str(instruction.argval), _place(function, line)))
                numpy_before = False
        for helper in _helpers_called(function, function.__code__.co_names):
            visit(helper)

    visit(function)
    return found


def _numpy_maker(value: Any) -> bool:
    """Whether a global is a numpy function that makes an array (``from numpy import zeros``)."""
    module = getattr(value, "__module__", None) or ""
    return (
        callable(value)
        and (module == "numpy" or module.startswith("numpy."))
        and getattr(value, "__name__", "") in ALLOCATING
    )


def cell_loop(function: Any) -> str | None:
    """Where a rule (or a helper it calls) moves a board cell by cell in a loop: a shift by
    an amount, or an index, that the loop sets; None when it does not, or its source
    cannot be read."""
    seen: set[int] = set()

    def visit(function: Any) -> str | None:
        if id(function) in seen:
            return None
        seen.add(id(function))
        tree = _tree(function)
        if tree is None:
            return None
        loops = [node for node in ast.walk(tree) if isinstance(node, (ast.For, ast.While))
                 and _cell_by_cell(function, node)]  # fmt: skip
        if loops:  # the innermost (a loop comes after the loops around it in the walk)
            return _place(function, function.__code__.co_firstlineno + loops[-1].lineno - 1)
        called = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call)
                  and isinstance(n.func, ast.Name)}  # fmt: skip
        for helper in _helpers_called(function, sorted(called)):
            found = visit(helper)
            if found is not None:
                return found
        return None

    return visit(function)


def _tree(function: Any) -> ast.AST | None:
    try:
        return ast.parse(textwrap.dedent(inspect.getsource(function)))
    except (OSError, TypeError, SyntaxError):
        return None


def _cell_by_cell(function: Any, loop: ast.For | ast.While) -> bool:
    """Whether a loop shifts or indexes by a name it sets, or passes such a name to a helper
    that shifts or indexes by a name (``cell(p, s, r, c)``)."""
    varying = {n.id for n in ast.walk(loop) if isinstance(n, ast.Name)
               and isinstance(n.ctx, ast.Store)}  # fmt: skip
    for node in ast.walk(loop):
        if _moves_bits(node, varying):
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            helper = function.__globals__.get(node.func.id)
            uses = any(_mentions(a, varying) for a in node.args)
            if uses and isinstance(helper, types.FunctionType) and users_own(helper, function):
                tree = _tree(helper)
                if tree is not None and any(_moves_bits(n, None) for n in ast.walk(tree)):
                    return True
    return False


def _moves_bits(node: ast.AST, varying: set[str] | None) -> bool:
    """A shift by, or an index of, a name in ``varying`` (any name, for None)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.LShift, ast.RShift)):
        return _mentions(node.right, varying)
    if isinstance(node, ast.Subscript):
        return _mentions(node.slice, varying)
    return False


def _mentions(node: ast.AST, varying: set[str] | None) -> bool:
    names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    return bool(names if varying is None else names & varying)
