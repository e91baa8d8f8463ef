"""Lists of arrays handed to compiled kernels, made by compiled code.

numba takes a list of arrays as its typed ``List``. Made from Python (``List(arrays)``), the
list's methods are compiled afresh in every process: 0.2-0.3 s here, a third of the solve
of a game of a few million positions. Made by these kernels, they come from numba's disk
cache like any kernel (under 10 ms for a hundred arrays, 2026-11-27). This module imports
numba: it is imported only where compiled kernels run.
"""

from __future__ import annotations

from typing import Any

from numba.typed import List

from .compiled import kernel


@kernel
def _listed(example: Any) -> Any:
    """An empty typed List of arrays typed as ``example`` (put in, then taken out)."""
    arrays = List()
    arrays.append(example)
    arrays.pop()
    return arrays


@kernel
def _appended(arrays: Any, more: Any) -> None:
    """``more`` put at the end of the typed List ``arrays``."""
    arrays.append(more)


def typed_list(arrays: list[Any]) -> Any:
    """numba's typed List of ``arrays`` (at least one; each a contiguous int64 array, not
    copied: the list holds references to them). Every array goes in by ``_appended``, so
    that its machine code is loaded on the first list, however short: a process's first
    list of several arrays loaded it mid-solve (7 ms of a 0.36 s solve)."""
    listed = _listed.run_compiled(arrays[0])
    for array in arrays:
        _appended.run_compiled(listed, array)
    return listed
