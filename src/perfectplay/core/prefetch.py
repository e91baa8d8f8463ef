"""Memory asked for ahead: ``prefetch``, a kernel's hint that an array's element will soon
be read and written.

Compiled, it is LLVM's ``llvm.prefetch`` (for writing, kept in every cache level); run
plainly, nothing. A loop that reads and writes elements of a large array at random, one
after another, waits on memory at each: telling the processor the element a few steps
ahead lets those waits overlap. The levels of a loopy tier solved in its records apply
each un-move to its parent's record that way (``tiers.retrograde_in_records._apply``):
Nine Men's Morris's sectors of hundreds of millions of positions, where the thread
applying them was the one the others waited for. numba is imported only when a kernel
calling it is compiled.
"""

from __future__ import annotations

from typing import Any

from .compiled import ByInstruction


def _plain_prefetch(array: Any, index: int) -> None:
    """Nothing: the interpreter has no use for the hint."""


def _compiled_prefetch() -> Any:
    """An inlined numba function asking for ``array[index]``'s cache line, for writing."""
    import numba
    from llvmlite import ir
    from numba import types
    from numba.core import cgutils as helpers
    from numba.extending import intrinsic

    cgutils: Any = helpers  # (numba's code generation helpers carry no types)

    @intrinsic
    def prefetch_item(typingctx: Any, array: Any, index: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            array_type = signature.args[0]
            made = context.make_array(array_type)(context, builder, args[0])
            pointer = cgutils.get_item_pointer(
                context, builder, array_type, made, [args[1]], wraparound=False
            )
            byte_pointer = ir.IntType(8).as_pointer()
            i32 = ir.IntType(32)
            hint = cgutils.get_or_insert_function(
                builder.module,
                ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32]),
                "llvm.prefetch.p0",
            )
            # (address, 1: for writing, 3: keep in every level, 1: a data cache)
            builder.call(hint, [builder.bitcast(pointer, byte_pointer), i32(1), i32(3), i32(1)])
            return context.get_dummy_value()

        return types.none(array, types.int64), codegen

    def prefetch(array: Any, index: int) -> None:
        prefetch_item(array, index)  # type: ignore[call-arg]

    return numba.njit(inline="always", nogil=True, cache=False)(prefetch)


prefetch = ByInstruction(_plain_prefetch, _compiled_prefetch)
