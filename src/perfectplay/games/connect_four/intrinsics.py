"""Bit tricks numba does not offer as functions: imported only where numba is wanted."""

from __future__ import annotations

from typing import Any

from numba import types
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx: Any, x: Any) -> Any:
    """The number of set bits of an int64 (one ``popcnt`` instruction where the CPU has it)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return x(x), codegen
