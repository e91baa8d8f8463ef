"""Bits counted, gathered and scattered by the machine: ``popcount``, the kernels' count of
a set's bits, and ``gather`` and ``scatter`` (BMI2's ``pext`` and ``pdep`` where the machine
has them, a loop over the mask's bits where it does not), the ranking by stones' packing of
the opponent's stones among the empty cells and back.

Compiled, ``popcount`` is LLVM's ``ctpop`` (one instruction on a CPU that has one: numba
compiles for the machine it runs on); run plainly, Python's ``int.bit_count``. The count
written out in shifts and masks took twelve operations: ranking a Nine Men's Morris
position by its stones counts bits fourteen times, and the ranking of a level's parents
took 78 ns a position with it against 46 with the instruction (2026-11-30, sector 9-7).
numba is imported only when a kernel calling it is compiled.
"""

from __future__ import annotations

from typing import Any

from .compiled import ByInstruction


def _plain_popcount(x: int) -> int:
    """The number of bits set in ``x`` (x >= 0)."""
    return int(x).bit_count()


def _compiled_popcount() -> Any:
    """An inlined numba function counting an integer's bits by ``ctpop``."""
    import numba
    import numpy as np
    from numba import types
    from numba.extending import intrinsic

    @intrinsic
    def ctpop(typingctx: Any, x: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.ctpop(args[0])

        return types.int64(types.int64), codegen

    def popcount(x: int) -> int:
        return ctpop(np.int64(x))  # type: ignore[call-arg]

    return numba.njit(inline="always", nogil=True, cache=False)(popcount)


popcount = ByInstruction(_plain_popcount, _compiled_popcount)


def _plain_gather(x: int, mask: int) -> int:
    """The bits of ``x`` at the set bits of ``mask``, packed low (x, mask >= 0)."""
    packed = 0
    at = 0
    while mask:
        low = mask & -mask
        if x & low:
            packed |= 1 << at
        at += 1
        mask ^= low
    return packed


def _plain_scatter(x: int, mask: int) -> int:
    """The low bits of ``x`` spread to the set bits of ``mask``, in order (x, mask >= 0)."""
    spread = 0
    at = 0
    while mask:
        low = mask & -mask
        if (x >> at) & 1:
            spread |= low
        at += 1
        mask ^= low
    return spread


def _has_bmi2() -> bool:
    """Whether the machine numba compiles for has BMI2's pext and pdep (not where numba is
    told to compile for another CPU, ``NUMBA_CPU_NAME``)."""
    import numba
    from llvmlite import binding

    if getattr(numba.config, "CPU_NAME", None) not in (None, "host"):
        return False
    return bool(binding.get_host_cpu_features().get("bmi2", False))


def _compiled_bits(instruction: str, plain: Any) -> Any:
    """An inlined numba function by ``llvm.x86.bmi.<instruction>.64`` where the machine has
    BMI2, else ``plain`` compiled (the same answers: the tests hold them to it)."""
    import numba

    if not _has_bmi2():
        return numba.njit(inline="always", nogil=True, cache=False)(plain)
    import numpy as np
    from llvmlite import ir
    from numba import types
    from numba.core import cgutils as helpers
    from numba.extending import intrinsic

    cgutils: Any = helpers

    @intrinsic
    def by_instruction(typingctx: Any, x: Any, mask: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            i64 = ir.IntType(64)
            function = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(i64, [i64, i64]), f"llvm.x86.bmi.{instruction}.64"
            )
            return builder.call(function, args)

        return types.int64(types.int64, types.int64), codegen

    def bits(x: int, mask: int) -> int:
        return by_instruction(np.int64(x), np.int64(mask))  # type: ignore[call-arg]

    return numba.njit(inline="always", nogil=True, cache=False)(bits)


gather = ByInstruction(_plain_gather, lambda: _compiled_bits("pext", _plain_gather))
"""The bits of x at mask's set bits, packed low: BMI2's ``pext``."""
scatter = ByInstruction(_plain_scatter, lambda: _compiled_bits("pdep", _plain_scatter))
"""The low bits of x spread to mask's set bits: BMI2's ``pdep``."""
