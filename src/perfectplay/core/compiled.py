"""Kernels: loops written in numba's subset of Python, compiled only when the work is large.

The solvers' inner loops (a queue of decided states, an order of states, a hash table) are
worklist algorithms that numpy cannot express without one Python step per level. numba runs
them at native speed, but importing it costs about half a second and loading the cached
machine code of the kernels as much again. A ``Kernel`` therefore runs its function as plain
Python while its arrays are small (tic-tac-toe's 16,167 edges take milliseconds that way)
and numba is not loaded yet; the first time they are not, it imports numba and compiles
(cached on disk), and from then on every kernel runs compiled: once numba is loaded,
loading another cached kernel costs little.
Both runs execute the same source, and the tests compare them on random inputs.

``PERFECTPLAY_KERNELS=compiled`` (or ``interpreted``) overrides the choice, for tests.
"""

from __future__ import annotations

import os
import sys
import threading
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any, Generic, ParamSpec, TypeVar

import numpy as np

P = ParamSpec("P")
R = TypeVar("R")

INTERPRET_BELOW = 40_000
"""Kernels whose array arguments hold fewer elements than this in all run interpreted."""

_local = threading.local()
"""Per thread, ``depth``: how many interpreted kernels are running (their callees follow)."""

MODE = os.environ.get("PERFECTPLAY_KERNELS", "auto")
"""auto, compiled or interpreted; read once (kernels may run once per edge)."""


class Kernel(Generic[P, R]):
    """A function that numba can compile, called like the function itself."""

    def __init__(self, function: Callable[P, R], inline: bool = False) -> None:
        self.function = function
        self.inline = inline
        """Inlined into the kernels that call it (numba's inline="always"): a small
        function called once per element, whose call would cost more than its work."""
        self.__doc__ = function.__doc__
        self.__name__ = function.__name__
        self._compiled: Callable[P, R] | None = None

    @property
    def compiled(self) -> Callable[P, R]:
        """The numba dispatcher (imports numba and loads or builds the machine code)."""
        if self._compiled is None:
            function = self.function
            callees = {
                name: value.compiled
                for name in function.__code__.co_names
                if isinstance(value := function.__globals__.get(name), Kernel)
            }
            if callees:
                # numba resolves callees through the function's globals: show it compiled ones.
                function = types.FunctionType(
                    function.__code__,
                    {**function.__globals__, **callees},
                    function.__name__,
                    function.__defaults__,
                    function.__closure__,
                )
                function.__qualname__ = self.function.__qualname__
            options: dict[str, Any] = {"cache": True, "nogil": True}
            if self.inline:
                options["inline"] = "always"
            self._compiled = cached_jit(function, options)
        return self._compiled

    def interpreted(self, *args: P.args, **kwargs: P.kwargs) -> R:
        """The same function run by the Python interpreter (integer wrap-around as compiled);
        the kernels it calls run interpreted too."""
        _local.depth = _local.__dict__.get("depth", 0) + 1
        try:
            with np.errstate(over="ignore"):
                return self.function(*args, **kwargs)
        finally:
            _local.depth -= 1

    def compiles_for(self, work: int) -> bool:
        """Whether a call over ``work`` elements runs compiled: always once numba is loaded
        (or this kernel compiled), else only when the work is large enough to pay for the
        import. Kernels whose tables are large even for tiny inputs ask with their work.
        Runs once per call of a kernel: a probe of one position calls two."""
        if _local.__dict__.get("depth", 0) > 0:
            return False  # inside an interpreted kernel, callees stay interpreted
        if MODE == "auto":
            return self._compiled is not None or work >= INTERPRET_BELOW or "numba" in sys.modules
        return MODE == "compiled"

    def run_compiled(self, *args: P.args, **kwargs: P.kwargs) -> R:
        """The compiled function's result; Ctrl-C while its machine code runs is reported by
        Python as "returned a result with an exception set": raised again as the Ctrl-C."""
        try:
            return self.compiled(*args, **kwargs)
        except SystemError as exc:
            if isinstance(exc.__cause__, KeyboardInterrupt) or isinstance(
                exc.__context__, KeyboardInterrupt
            ):
                raise KeyboardInterrupt from None
            raise

    def run(
        self,
        work: int,
        *args: Any,
        plain: tuple[Any, ...] | Callable[[], tuple[Any, ...]] | None = None,
        vectorised: Callable[..., R] | None = None,
    ) -> R:
        """The kernel over ``args``, compiled when ``compiles_for(work)`` says so, else
        interpreted, over ``plain`` when it is given: the same arguments with read-only
        tables as lists, which the interpreter indexes several times faster than arrays.
        The one place a caller chooses how a kernel runs by the size of its work.

        Arguments made for one kind of run only may wait until that run is chosen:
        ``args`` may be a single function making them (called after numba is loaded: a
        table only the compiled run reads, the arrays it writes its results into), and
        ``plain`` a function making its own (lists of a large array). ``vectorised``, when
        given, runs in place of the interpreted kernel, over the same arguments (``plain``
        where given, else ``args``): the same rule as numpy passes over whole arrays, which
        beat a Python loop over a batch's elements."""
        if self.compiles_for(work):
            _ = self.compiled  # numba is loaded before the arguments are made
            return self.run_compiled(*_made(args))  # type: ignore[call-arg]
        given = _made(args) if plain is None else plain() if callable(plain) else plain
        if vectorised is not None:
            return vectorised(*given)
        return self.interpreted(*given)  # type: ignore[call-arg]

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        if _local.__dict__.get("depth", 0) > 0:  # called by an interpreted kernel: as is
            return self.function(*args, **kwargs)
        if self.compiles_for(_elements(args)):
            return self.run_compiled(*args, **kwargs)
        return self.interpreted(*args, **kwargs)


class ByInstruction(Kernel[P, R]):
    """A kernel inlined into its callers whose compiled form is made by ``compiled_by``
    (a numba function around an LLVM instruction: ``bits.popcount``, ``prefetch``), and
    whose plain form is ``function``."""

    def __init__(self, function: Callable[P, R], compiled_by: Callable[[], Any]) -> None:
        super().__init__(function, inline=True)
        self._compiled_by = compiled_by

    @property
    def compiled(self) -> Any:
        if self._compiled is None:
            self._compiled = self._compiled_by()
        return self._compiled


def read_only(array: Any) -> Any:
    """``array``, or a view of it that cannot be written. The engine's compiled loops take a
    tier's codes, its buckets and a child tier's records read-only, always: numba compiles a
    loop once per signature, and an array that is writable in one call (built in memory)
    and read-only in the next (mapped from a file) would compile or load the loop twice."""
    if not array.flags.writeable:
        return array
    view = array.view()
    view.flags.writeable = False
    return view


def cached_jit(function: Any, options: dict[str, Any], salt: str = "") -> Any:
    """``numba.njit(**options)(function)``, its disk cache named by ``salt`` too (a hash of
    the code it holds from other files, which numba's own naming misses), and emptied
    first when its index can no longer be read. numba checks that an index is fresh only
    after unpickling it, and the index names the types of the signatures by module: once a
    type moves to another module (``SweepCodes`` into ``tiers.records``), a cache written
    before would fail every call with ModuleNotFoundError instead of compiling again."""
    import numba

    dispatcher = numba.njit(**options)(function)
    cache = getattr(dispatcher, "_cache", None)
    _cache_by_module(cache, function, salt)
    index = getattr(cache, "_cache_file", None)
    if cache is not None and index is not None and hasattr(index, "_load_index"):
        try:
            index._load_index()
        except Exception:  # unreadable: a stale index, whatever the cause
            cache.flush()
    return dispatcher


def _cache_by_module(cache: Any, function: Any, salt: str = "") -> None:
    """Name the disk cache of ``function`` by its module too, where the module's name is not
    its file's: numba names a cache by file and function alone, but its data imports the
    module by name when loaded, so one file loaded under two names (the command line's
    ``perfectplay_user_<hash>``, a test's own name, a package's ``examples.othello``)
    would fail in one process with ModuleNotFoundError on the other's cache. Each name gets
    its own files instead, and each ``salt``."""
    if cache is None or not hasattr(cache, "_cache_file"):
        return
    module = getattr(function, "__module__", None) or ""
    stem = Path(function.__code__.co_filename).stem
    named = module not in ("", stem, "__main__")
    if not named and not salt:
        return
    from numba.core.caching import IndexDataCacheFile

    base = cache._impl.filename_base + (f"-{module.replace('.', '_')}" if named else "")
    base += f"-{salt}" if salt else ""
    cache._cache_file = IndexDataCacheFile(  # type: ignore[no-untyped-call]
        cache_path=cache._cache_path,
        filename_base=base,
        source_stamp=cache._impl.locator.get_source_stamp(),
    )


def _made(args: tuple[Any, ...]) -> tuple[Any, ...]:
    """A run's arguments: ``args``, or what its one item makes when that is a function."""
    if len(args) == 1 and callable(args[0]) and not isinstance(args[0], Kernel):
        made: tuple[Any, ...] = args[0]()
        return made
    return args


def _elements(args: tuple[Any, ...]) -> int:
    return sum(a.size for a in args if isinstance(a, np.ndarray))


def kernel(function: Callable[P, R]) -> Kernel[P, R]:
    """Declare a kernel (see the module docstring)."""
    return Kernel(function)


def inlined_kernel(function: Callable[P, R]) -> Kernel[P, R]:
    """Declare a kernel that the kernels calling it inline when compiled."""
    return Kernel(function, inline=True)
