"""Compiling a compiled game: its rule functions and the engine's loops around them, cached.

``compile_game`` returns the loops of ``drivers`` bound to one game's rules and parameters,
either as plain Python (small work, tests) or compiled by numba. Compiled loops come from a
copy of ``drivers.py`` in the cache directory (``PERFECTPLAY_CACHE``, else
``~/.cache/perfectplay``) named by a hash of the game's source file, its class and the
drivers' text: numba caches the machine code beside the copy, so a fresh process loads it
instead of compiling, and an edited game gets a new copy. The parameters are passed to the
loops at run time (bound here), so a new ``-p`` value compiles nothing; only the compiled
search's five rules (``search_hooks``), around which the search is compiled per parameter
set anyway, fold them in. A rule function numba cannot compile is reported in one line (the
function, its line, numba's reason).
"""

from __future__ import annotations

import hashlib
import inspect
import re
import sys
import threading
import types
import warnings
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path
from typing import Any

import numpy as np

from ..core.compiled import cached_jit, read_only
from ..core.specialised import jit_in_place, template_copy
from ..errors import GameError
from ..progress import announce
from ..protocol import SCORE_ENDS
from . import drivers, search_hooks
from .stones import least_code, rank_code

RULES = ("start", "moves", "play", "outcome", "key", "tier", "to_move", "reward", "unmoves",
         "exits", "stays", "tabled")  # fmt: skip
"""The rule functions a compiled game may write (the first four are required; ``exits``
and ``stays`` come together; ``tabled`` only the search reads)."""
INLINED = ("moves", "play", "outcome", "key", "tier")
"""Rules bound a second time as ``_inline_NAME``, inlined by numba into the loops that
run over every position (``expand_tiers``, ``solve_sweep``, ``moves_out``): in the first
two, Connect Four 6x4's sweeps took 2.85-2.88 s on one thread against 3.0 s calling them,
its expansions 2.0-2.1 s against 2.2 s. Inlined into every loop, Quixo's first compile took
20.5 s, not 10.9 s (2026-11-27)."""

LOOPS = ("outcomes", "keys", "tiers", "expand", "expand_tiers", "moves_out", "unmoves", "find",
         "find_all", "expand_ranked", "solve_sweep", "reverse_edges", "gather_parents",
         "tier_moves", "count_backward", "fill_backward", "find_all_near", "start")  # fmt: skip
TAKE_PARAMETERS = ("outcomes", "keys", "tiers", "expand", "expand_tiers", "moves_out",
                   "unmoves", "expand_ranked", "solve_sweep", "reverse_edges", "tier_moves",
                   "start")  # fmt: skip
"""The loops that run the rules: their first argument is the game's parameters."""
SEARCH_RULES = (
    "whole", "search_end", "search_bounds", "search_moves", "search_play", "search_key",
    "search_probe", "search_fold", "search_keeps", "search_reward", "search_tabled",
)  # fmt: skip


_lock = threading.Lock()
_built: dict[tuple[str, bool], types.ModuleType] = {}
_searches: dict[tuple[str, bool], types.ModuleType] = {}

FIRST_COMPILE = "10 to 30 s"
"""What a game's first compile takes on a 2-core machine (Connect Four 10.9 s, Quixo
about 20 s, a small test game 8 s, 2026-11-28), said when one starts."""


@dataclass(frozen=True)
class Loops:
    """The drivers' loops bound to one game and parameter set (compiled or plain)."""

    compiled: bool
    outcomes: Any
    keys: Any
    tiers: Any
    expand: Any
    expand_tiers: Any
    moves_out: Any
    unmoves: Any
    find: Any
    find_all: Any
    expand_ranked: Any
    solve_sweep: Any
    reverse_edges: Any
    gather_parents: Any
    tier_moves: Any
    count_backward: Any
    fill_backward: Any
    find_all_near: Any
    start: Any
    search_rules: Any
    """search_rules() -> the compiled search's rules for these parameters (a module with
    the functions SEARCH_RULES, built when first asked: ``search_hooks``)."""
    ident: str = ""
    """The hash the loops' machine code is cached under (empty: not cached, or not
    compiled)."""
    search_ident: str = ""
    """The same for the compiled search's rules, which fold the parameters in."""


def _identity(cls: type, functions: dict[str, Any], max_moves: int, scored: bool) -> str:
    """A hash of what the compiled loops depend on (not the parameters: an argument): the
    game's file and rules, the files of the helpers they call (a module beside the game,
    a base class's file), the library's code compiled with them."""
    helper_files = sorted({path for f in functions.values() for path in _helper_files(f, set())})
    return code_identity(
        cls,
        functions,
        Path(drivers.__file__).read_bytes(),
        Path(__file__).read_bytes(),  # how the loops are compiled (inlining)
        _toolkit_digest(),
        *(_file_bytes(path) for path in helper_files),
        f"{cls.__module__}.{cls.__qualname__} {max_moves} {scored}",
    )


def _toolkit_sources() -> list[bytes]:
    """The sources of the library's kernels compiled into a game's loops and search rules
    (the board toolkit and the count of bits its rules may call, the ranking by stones the
    search inlines to probe a tablebase): a change there must not load code cached before
    it."""
    package = Path(__file__).resolve().parents[1]
    files = [*sorted((package / "boards").glob("*.py")), package / "core" / "bits.py",
             package / "compiled_games" / "stones.py"]  # fmt: skip
    return [path.read_bytes() for path in files]


def code_identity(cls: type, functions: dict[str, Any], *parts: bytes | str) -> str:
    """A hash of compiled code's sources: ``parts`` (a template's text, settings), the
    game's source file, its rule functions' source, numpy's version."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode() if isinstance(part, str) else part)
    try:
        source_file = inspect.getsourcefile(cls)
        digest.update(Path(source_file).read_bytes() if source_file else b"")
    except (OSError, TypeError):
        pass
    for name in sorted(functions):
        try:
            digest.update(inspect.getsource(functions[name]).encode())
        except (OSError, TypeError):
            digest.update(functions[name].__code__.co_code)
    digest.update(np.__version__.encode())
    return digest.hexdigest()[:20]


def compile_game(
    cls: type, params: tuple[int, ...], functions: dict[str, Any], max_moves: int, scored: bool,
    compiled: bool,
) -> Loops:  # fmt: skip
    """The loops of ``drivers`` over one game's rules, bound to its parameters (see the
    module docstring)."""
    ident = _identity(cls, functions, max_moves, scored)
    with _lock:
        module = _built.get((ident, compiled))
        if module is None:
            try:
                module = _build(cls, ident, params, functions, max_moves, scored, compiled)
            except GameError:
                raise
            except Exception:
                # numba's disk cache cannot serve this process (a class sent to a Dask
                # worker by value, whose module has no name there): compile afresh.
                module = _build(cls, ident, params, functions, max_moves, scored, compiled,
                                cache=False)  # fmt: skip
            _built[(ident, compiled)] = module
    cached = compiled and module.CACHED
    search_ident = _search_ident(ident, params)
    return Loops(
        compiled=compiled,
        ident=ident if cached else "",
        search_ident=search_ident if cached else "",
        search_rules=partial(_search_rules, cls, search_ident, params, module, compiled, cached),
        **_bound_loops(module, params),
    )


def _search_ident(ident: str, params: tuple[int, ...]) -> str:
    """The hash the search's rules of one parameter set are cached under."""
    digest = hashlib.sha256(Path(search_hooks.__file__).read_bytes())
    digest.update(f"{ident} {params}".encode())
    return digest.hexdigest()[:20]


def _bound_loops(module: types.ModuleType, params: tuple[int, ...]) -> dict[str, Any]:
    """The module's loops, those that run the rules bound to the parameters."""
    return {
        name: partial(getattr(module, name), params) if name in TAKE_PARAMETERS
        else getattr(module, name)
        for name in LOOPS
    }  # fmt: skip


def _search_rules(
    cls: type, search_ident: str, params: tuple[int, ...], module: Any, compiled: bool,
    cache: bool,
) -> types.ModuleType:  # fmt: skip
    """The compiled search's rules over the game for one parameter set (``search_hooks``):
    jitted, not yet compiled (the search compiles them when it first runs)."""
    with _lock:
        found = _searches.get((search_ident, compiled))
        if found is not None:
            return found
        name = f"perfectplay_search_{cls.__name__}_{search_ident}"
        rules: Any = template_copy(Path(search_hooks.__file__), name, "search", on_disk=cache)
        rules.P = params
        for rule in ("moves", "play", "outcome", "key", "tier", "to_move", "reward", "tabled"):
            setattr(rules, f"_{rule}", getattr(module, f"_{rule}"))
        rules.SCORED = module.SCORED
        if module.SCORED:
            rules.LOW_SCORE, rules.HIGH_SCORE = -SCORE_ENDS, SCORE_ENDS
        rules._rank_code = rank_code.compiled if compiled else rank_code.function
        rules._least_code = least_code.compiled if compiled else least_code.function
        if compiled:
            jit_in_place(rules, SEARCH_RULES, cache)
        _searches[(search_ident, compiled)] = rules
        return rules  # type: ignore[no-any-return]


def _build(
    cls: type, ident: str, params: tuple[int, ...], functions: dict[str, Any], max_moves: int,
    scored: bool, compiled: bool, cache: bool = True,
) -> types.ModuleType:  # fmt: skip
    """The drivers' module over the game's rules, its loops compiled (or plain) and run
    once on empty input with ``params`` (any parameter set: they are an argument)."""
    module: Any = _driver_module(cls, ident, compiled and cache)
    if compiled and not (cache and _cached(module)):  # said: the first compile takes seconds
        announce(
            f"compiling {cls.__name__}'s rules with numba (the first time takes "
            f"{FIRST_COMPILE}, for any parameters; then they load from the cache, perfectplay "
            "cache lists it)"
        )
    bound = dict(functions)
    bound.setdefault("key", _same)
    bound.setdefault("tier", _zero)
    bound.setdefault("to_move", _zero)
    bound.setdefault("reward", _no_reward)
    bound.setdefault("unmoves", _no_unmoves)
    bound.setdefault("exits", _no_unmoves)  # (never called: HAS_EXITS is False)
    bound.setdefault("stays", _zero)
    if compiled:
        bound = _compiled_rules(cls, params, bound, cache, scored)
    module.CACHED = compiled and cache
    module.MAX_MOVES = max_moves
    module.SCORED = scored
    module.HAS_TO_MOVE = "to_move" in functions
    module.HAS_REWARD = "reward" in functions
    module.HAS_EXITS = "exits" in functions
    for name in RULES:
        setattr(module, f"_{name}", bound.get(name))  # (tabled: None unless given)
    for name in INLINED:
        function = bound[name]
        if compiled:  # the same function (its helpers bound) under numba's inline="always"
            function = cached_jit(function.py_func, {"nogil": True, "inline": "always"})
        setattr(module, f"_inline_{name}", function)
    if compiled:
        # (compiled first: the loops call them)
        helpers = ("_room", "_ends", "_has_ended", "find", "find_near",
                   "_split_part", "_unmoves_part", "_expand_part", "_expand_tiers_part",
                   "_moves_out_part", "_expand_ranked_part", "_tier_moves_part")  # fmt: skip
        jit_in_place(
            module,
            (*helpers, *(n for n in LOOPS if n not in helpers)),
            cache,
            inline=("_ends", "_has_ended", "find", "find_near"),  # once a state or a move
        )
    if compiled:
        with warnings.catch_warnings():  # numba's own words: an error says what matters
            warnings.simplefilter("ignore")
            _first_calls(cls, _bound_loops(module, params), scored, functions)
    return module  # type: ignore[no-any-return]


def _cached(module: types.ModuleType) -> bool:
    """Whether numba has machine code of this copy of the loops in its cache already."""
    path = Path(module.__file__ or "")
    return any((path.parent / "__pycache__").glob(f"{path.stem}.*.nbi"))


def _driver_module(cls: type, ident: str, compiled: bool) -> types.ModuleType:
    """A fresh module of the drivers' text (on disk when compiled: see ``specialised``)."""
    name = f"perfectplay_game_{cls.__name__}_{ident}"
    return template_copy(Path(drivers.__file__), name, "games", on_disk=compiled)


def _same(p: Any, s: Any) -> Any:
    return s


def _zero(p: Any, s: Any) -> int:
    return 0


def _no_reward(p: Any, s: Any, m: Any) -> float:
    return 0.0


def _no_unmoves(p: Any, s: Any, out: Any) -> int:
    return 0


def _compiled_rules(
    cls: type, params: tuple[int, ...], functions: dict[str, Any], cache: bool, scored: bool
) -> dict[str, Any]:
    """Each rule function compiled by numba for its arguments, now: a function numba cannot
    compile is a GameError naming it, its line and numba's reason."""
    import numba

    p = numba.typeof(params)  # type: ignore[no-untyped-call]
    arguments = {
        "start": (p,),
        "moves": (p, numba.int64, numba.int64[::1]),
        "play": (p, numba.int64, numba.int64),
        "outcome": (p, numba.int64),
        "key": (p, numba.int64),
        "tier": (p, numba.int64),
        "to_move": (p, numba.int64),
        "reward": (p, numba.int64, numba.int64),
        "unmoves": (p, numba.int64, numba.int64[::1]),
        "exits": (p, numba.int64, numba.int64[::1]),
        "stays": (p, numba.int64),
        "tabled": (p, numba.int64),
    }
    # A disk cache numba cannot read back was written by a process that named the game's
    # module otherwise (the CLI names a file's module by its path, a script by its import):
    # its entries name that module (ModuleNotFoundError). Then every rule's entries are
    # emptied and the rules compiled again, cached under this process's name (compiled
    # afresh at every start before: 1.5 s of `analyze --db`, 2026-11-27); without a cache
    # if that fails too.
    for attempt in ("cached", "emptied", "uncached"):
        done: dict[int, Any] = {}
        compiled: dict[str, Any] = {}
        (name, function), dispatcher = next(iter(functions.items())), None
        try:
            for name, function in functions.items():
                dispatcher = jitted(function, done, cache and attempt != "uncached")
                try:
                    with warnings.catch_warnings():  # numba's own words: the error says it
                        warnings.simplefilter("ignore")
                        dispatcher.compile(arguments[name])
                except numba.core.errors.NumbaError as exc:
                    raise GameError(numba_problem(cls, name, function, exc)) from None
                _check_returned(cls, name, function, dispatcher, scored)
                compiled[name] = dispatcher
            return compiled
        except GameError:
            raise
        except Exception as exc:
            if attempt == "uncached":
                raise GameError(numba_problem(cls, name, function, exc)) from None
            every: dict[int, Any] = {}  # every rule and helper, the ones not reached yet too
            for function in functions.values():
                jitted(function, every, cache)
            for made in (dispatcher, *done.values(), *every.values()):
                stale = getattr(made, "_cache", None)
                if stale is not None:
                    stale.flush()
    raise AssertionError("unreachable")


def jitted(function: Any, done: dict[int, Any], cache: bool = True) -> Any:
    """``function`` under numba.njit, with the plain functions it calls from its own module
    (helpers) jitted too, without changing the user's module."""
    import numba

    if isinstance(function, numba.core.registry.CPUDispatcher):
        return function
    if id(function) in done:
        return done[id(function)]
    from ..core.compiled import Kernel

    written = function  # (as the user wrote it: its globals name the helpers' functions)
    helpers: dict[str, Any] = {}
    for name in function.__code__.co_names:
        value = function.__globals__.get(name)
        if isinstance(value, Kernel):
            helpers[name] = value.compiled
        elif (
            isinstance(value, types.FunctionType)
            and users_own(value, function)
            and value is not function
        ):
            helpers[name] = jitted(value, done, cache)
    if helpers:
        copy = types.FunctionType(
            function.__code__,
            {**function.__globals__, **helpers},
            function.__name__,
            function.__defaults__,
            function.__closure__,
        )
        copy.__qualname__ = function.__qualname__
        copy.__module__ = function.__module__
        function = copy
    cache = cache and function.__closure__ is None and _cacheable(function) and _reloadable(written)
    # Not inlined by numba into the engine's loops (LLVM inlines what is small): inlined,
    # Connect Four 6x4's sweeps took 6% less time, but Quixo's first compile 20.5 s, not
    # 10.9 s, and every test game's as much longer (2026-11-27).
    salt = _callees_identity(written) if cache else ""
    dispatcher = cached_jit(function, {"cache": cache, "nogil": True}, salt)
    done[id(written)] = dispatcher  # (by the function asked for, not its copy: a helper two
    # rules call is compiled and hashed once, and no copy's id, once freed, is met again)
    return dispatcher


def _callees_identity(function: Any) -> str:
    """A hash of the code a rule's machine code holds besides its own file's: the
    library's kernels (the board toolkit) and the user's helpers in other files. numba
    keys a function's disk cache by its own file alone, so a rule cached before a toolkit
    kernel it calls changed ran the old kernel (a rule of Nine Men's Morris calling a
    mended ``closers`` kept the broken one, 2026-12-01)."""
    digest = hashlib.sha256(_toolkit_digest().encode())
    own = function.__code__.co_filename
    for path in sorted(_helper_files(function, set()) - {own}):
        digest.update(_file_bytes(path))
    return digest.hexdigest()[:12]


@cache
def _toolkit_digest() -> str:
    """A hash of ``_toolkit_sources`` (read once a process)."""
    digest = hashlib.sha256()
    for part in _toolkit_sources():
        digest.update(part)
    return digest.hexdigest()


def _file_bytes(path: str) -> bytes:
    """A source file's bytes; none for code not from a file (``exec``, a notebook)."""
    try:
        return Path(path).read_bytes()
    except OSError:
        return b""


def _helper_files(function: Any, seen: set[int]) -> set[str]:
    """The files of the user's helpers a function calls, and theirs, and so on."""
    seen.add(id(function))
    found = {function.__code__.co_filename}
    for name in function.__code__.co_names:
        value = python_function(function.__globals__.get(name))
        fresh = isinstance(value, types.FunctionType) and id(value) not in seen
        if fresh and users_own(value, function):
            found |= _helper_files(value, seen)
    return found


def python_function(value: Any) -> Any:
    """A global a rule names, as the Python function it runs: a helper the user compiled
    with numba themselves (``@njit``) by its ``py_func``, so that its file names the
    rule's cache too (numba links its machine code into the rule's: cached before the
    helper's file changed, the rule ran the old helper)."""
    inner = getattr(value, "py_func", None)
    return inner if isinstance(inner, types.FunctionType) else value


def users_own(helper: Any, rule: Any) -> bool:
    """Whether a function a rule calls is the user's own, to compile with it: defined in
    the rule's module, or in a file of the same folder (a helper module beside the game)."""
    if helper.__module__ == rule.__module__:
        return True
    here = Path(rule.__code__.co_filename).parent
    return Path(helper.__code__.co_filename).parent == here and here.is_dir()


def _reloadable(function: Any) -> bool:
    """Whether another process can load the function's machine code from numba's cache:
    the cached data imports the function's module by name, so a module run from a file
    without a place in ``sys.modules`` compiles again in every process (Morris's rules
    30 s a run). Said once a module, and not cached: nothing written that cannot be read."""
    name = function.__module__
    if name in sys.modules:
        return True
    if name not in _unregistered:
        _unregistered.add(name)
        warnings.warn(
            f"module {name!r} is not in sys.modules, so numba cannot load its compiled rules "
            "from the cache and each process compiles them again: put the module in "
            "sys.modules before exec_module (importlib's recipe for a source file)",
            RuntimeWarning,
            stacklevel=_callers_level(),
        )
    return False


def _callers_level() -> int:
    """The ``stacklevel`` of the first frame outside perfectplay: a warning names the line
    of the caller's that led to it, not the library's."""
    library = str(Path(__file__).resolve().parents[1])
    frame, level = sys._getframe(1), 1
    while frame.f_back is not None and frame.f_code.co_filename.startswith(library):
        frame, level = frame.f_back, level + 1
    return level


_unregistered: set[str] = set()  # the modules said so once


def _cacheable(function: Any) -> bool:
    """Whether numba can cache it: defined in a real file (not a notebook or stdin)."""
    filename = function.__code__.co_filename
    return bool(filename) and not filename.startswith("<") and Path(filename).is_file()


RETURNS = {
    "start": "a state (an int)",
    "moves": "the count of moves (an int)",
    "play": "a state (an int)",
    "outcome": "ONGOING (0), WIN (1), LOSS (2) or TIE (3)",
    "key": "a state (an int)",
    "tier": "an int",
    "to_move": "an int",
    "unmoves": "the count of un-moves (an int)",
    "exits": "the count of moves leaving the tier (an int)",
    "stays": "the count of moves staying in the tier (an int)",
    "tabled": "whether the search's table keeps the state (a bool)",
}
"""What each rule returns, on every path: an integer (numba's types)."""
COMPILED_GAMES_PAGE = "docs/tutorial/compiled-games.md"


def _check_returned(cls: type, name: str, function: Any, dispatcher: Any, scored: bool) -> None:
    """A GameError when numba found the rule returning something other than its kind of
    value (a float state, None on some path, a tuple...), naming the rule and its line."""
    import numba

    returned = dispatcher.nopython_signatures[-1].return_type
    if name == "reward" or (name == "outcome" and scored):
        good = isinstance(returned, (numba.types.Integer, numba.types.Float))
        wanted = "a number (a float score, NaN while the game goes on)"
    else:  # (a bool is an int to numba: ``return s >= 64`` makes a tier of 0 or 1)
        good = isinstance(returned, (numba.types.Integer, numba.types.Boolean))
        wanted = RETURNS.get(name, "an int")
    if good:
        return
    code = function.__code__
    said = f"None on some path ({returned})" if isinstance(
        returned, (numba.types.Optional, numba.types.NoneType)) else str(returned)  # fmt: skip
    raise GameError(
        f"{cls.__name__}.{name}() at {Path(code.co_filename).name}:{code.co_firstlineno} "
        f"returns {said}; it must return {wanted} on every path (see {COMPILED_GAMES_PAGE})"
    )


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def numba_problem(cls: type, name: str, function: Any, exc: Exception) -> str:
    """One line: the rule function, where numba failed in it, and numba's reason."""
    text = _ANSI.sub("", str(exc))
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    reason = next(
        (
            line
            for line in lines
            if not line.startswith(("-", "During:", "File", "^", ">", "Failed in"))
        ),
        type(exc).__name__,
    )
    reason = reason.rstrip(":").removesuffix(" in (nopython mode)")
    where = re.findall(r'File "([^"]+)", line (\d+)', text)
    code = function.__code__
    place = f"{Path(code.co_filename).name}:{code.co_firstlineno}"
    for path, line in reversed(where):
        if Path(path).name == Path(code.co_filename).name:
            place = f"{Path(path).name}:{line}"
            break
    return (
        f"{cls.__name__}.{name}() at {place} cannot be compiled by numba: {reason} "
        f"(compiled rules take and return int64 and numpy arrays; see {COMPILED_GAMES_PAGE})"
    )


def _first_calls(cls: type, loops: dict[str, Any], scored: bool, functions: dict[str, Any]) -> None:
    """Compile (or load from the cache) every loop now, on empty input: a failure shows
    here in one line, not mid-solve, and a timed solve does not pay for compiling."""
    import numba

    none = np.zeros(0, dtype=np.int64)
    two = np.zeros(2, dtype=np.int64)
    # A tier's codes and buckets, a chunk of codes and a child tier's records are passed
    # read-only, always (``compiled.read_only``): the signature compiled here is the one used.
    kept, kept_two = read_only(none), read_only(two)
    kept_records = read_only(np.zeros(0, dtype=np.uint8))
    try:
        loops["start"]()
        loops["outcomes"](none, np.zeros(0, dtype=np.float64 if scored else np.int8))
        loops["keys"](none, none.copy())
        loops["tiers"](none, none.copy())
        loops["expand"](none, True)
        loops["expand"](none, False)
        loops["expand_tiers"](kept, 0, np.zeros(0, dtype=np.uint8))
        loops["unmoves"](none, -1)
        if callable(getattr(cls, "stone_board", None)):  # (only a game ranked by stones calls it)
            loops["moves_out"](none, 0, none.copy(), False)
        loops["find"](kept, kept_two, 0, 0, 0)
        loops["find_all"](kept, kept_two, 0, 0, none, none.copy())
        loops["expand_ranked"](kept, none, kept, kept_two, 0, 0, np.zeros(0, dtype=np.int8))
        if not scored:
            tables, no_records = np.zeros(4, dtype=np.int64), np.zeros(0, dtype=np.uint8)
            loops["solve_sweep"](kept, 0, no_records, kept, kept_two, 0, 0, kept_records, 0,
                                 tables, tables, tables, kept_records)  # fmt: skip
        offsets, parents = loops["reverse_edges"](kept, kept_two, 0, 0, 0)
        loops["gather_parents"](kept, offsets, parents, none)
        _, inside, targets, _, _, _, _ = loops["tier_moves"](kept, kept_two, 0, 0, 0, 0, 0)
        loops["find_all_near"](kept, kept_two, 0, 0, none, np.zeros(0, np.int16), none.copy())
        offsets = np.zeros(1, dtype=np.int64)
        loops["count_backward"](targets, offsets)
        loops["fill_backward"](inside, targets, 0, offsets, np.zeros(0, dtype=np.int32))
    except numba.core.errors.NumbaError as exc:
        raise GameError(_loop_problem(cls, functions, exc)) from None


def _loop_problem(cls: type, functions: dict[str, Any], exc: Exception) -> str:
    """One line for a loop that does not compile over rules that did: the rule whose line
    numba names, else the rules as a whole, with numba's reason."""
    text = _ANSI.sub("", str(exc))
    for path, line in reversed(re.findall(r'File "([^"]+)", line (\d+)', text)):
        for name, function in functions.items():
            code = function.__code__
            last = max((n for _, _, n in code.co_lines() if n is not None), default=0)
            if path == code.co_filename and code.co_firstlineno <= int(line) <= last:
                return numba_problem(cls, name, function, exc)
    first = numba_problem(cls, "start", functions["start"], exc)
    reason = first.split("cannot be compiled by numba: ", 1)[1]
    return f"the engine's loops over {cls.__name__}'s rules cannot be compiled by numba: {reason}"
