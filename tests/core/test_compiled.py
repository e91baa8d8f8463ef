"""Kernels run interpreted on small inputs and compiled on large ones: both must agree.

Each kernel is run both ways on random graphs (cycles, self-loops, dead ends, extra turns)
and the results compared array by array; the hash table is checked against a dict.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.core.compiled import Kernel
from perfectplay.solvers.grundy import mex
from perfectplay.solvers.negamax import negamax
from perfectplay.solvers.retrograde import retrograde
from perfectplay.spaces.code_table import CodeTable, hash_find, hash_grow, hash_intern
from perfectplay.spaces.graph import (
    breadth_first_order,
    relabel,
    reverse_csr,
    reverse_topological_order,
)


@st.composite
def graphs(draw: Any) -> dict[str, Any]:
    n = draw(st.integers(1, 40))
    degrees = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
    m = sum(degrees)
    children = np.array(draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m)), np.int32)
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(degrees, out=offsets[1:])
    turns = draw(st.booleans())
    same = np.array(draw(st.lists(st.booleans(), min_size=m, max_size=m)), np.bool_)
    codes = np.array(draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)), np.int8)
    codes[offsets[1:] == offsets[:-1]] = np.where(codes[offsets[1:] == offsets[:-1]] == 0, 0, 2)
    return {
        "offsets": offsets,
        "children": children,
        "same": same if turns and m else np.zeros(0, np.bool_),
        "codes": codes,
        "scores": np.array(draw(st.lists(st.integers(-5, 5), min_size=n, max_size=n)), float),
        "rewards": np.array(draw(st.lists(st.integers(-3, 3), min_size=m, max_size=m)), float),
    }


def both(kernel: Kernel[Any, Any], *args: Any) -> tuple[Any, Any]:
    copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    return kernel.interpreted(*args), kernel.compiled(*copies)


def same(a: Any, b: Any) -> None:
    if isinstance(a, tuple):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            same(x, y)
    else:
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
        assert np.asarray(a).dtype == np.asarray(b).dtype


@settings(max_examples=60, deadline=None)
@given(graphs())
def test_graph_kernels_agree(g: dict[str, Any]) -> None:
    same(*both(reverse_csr, g["offsets"], g["children"], g["same"]))
    rev_offsets, parents, rev_same = reverse_csr.compiled(g["offsets"], g["children"], g["same"])
    same(*both(reverse_topological_order, g["offsets"], rev_offsets, parents))
    same(*both(retrograde, g["offsets"], g["codes"], rev_offsets, parents, rev_same))
    order = breadth_first_order.compiled(g["offsets"], g["children"].astype(np.int64), np.int64(0))
    same(*both(breadth_first_order, g["offsets"], g["children"].astype(np.int64), np.int64(0)))
    # relabel needs every child inside the order: take the whole graph in reversed order.
    everything = np.arange(g["offsets"].shape[0] - 1, dtype=np.int64)[::-1].copy()
    same(*both(relabel, everything, g["offsets"], g["children"].astype(np.int64), True))
    assert order[0] == 0


@settings(max_examples=60, deadline=None)
@given(graphs())
def test_ordered_kernels_agree(g: dict[str, Any]) -> None:
    rev_offsets, parents, _ = reverse_csr.compiled(g["offsets"], g["children"], g["same"])
    order = reverse_topological_order.compiled(g["offsets"], rev_offsets, parents)
    terminal = g["codes"] != 0
    args = (order, g["offsets"], g["children"], g["same"], terminal, g["scores"], g["rewards"])
    if order.shape[0] == g["offsets"].shape[0] - 1:  # negamax and mex need no cycle
        interpreted, compiled = both(negamax, *args)
        same(interpreted, compiled)
        same(*both(mex, order, g["offsets"], g["children"]))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 2**62), min_size=1, max_size=300))
def test_hash_table_both_ways(codes: list[int]) -> None:
    array = np.array(codes, dtype=np.int64)
    results = []
    for run in ("interpreted", "compiled"):
        keys = np.full(1 << 10, -1, dtype=np.int64)
        ids = np.empty(1 << 10, dtype=np.int32)
        result = np.empty(array.shape[0], dtype=np.int32)
        new = np.empty(array.shape[0], dtype=np.int64)
        call = getattr(hash_intern, run)
        stop, fresh = call(
            keys, ids, array, np.int64(0), np.int64(0), np.int64(700), result, new, np.int64(0)
        )
        grown = getattr(hash_grow, run)(keys, ids, np.int64(1 << 11))
        found = [int(getattr(hash_find, run)(*grown, np.int64(c))) for c in codes]
        results.append((int(stop), int(fresh), result.tolist(), new[: int(fresh)].tolist(), found))
    assert results[0] == results[1]
    first_seen = list(dict.fromkeys(codes))
    assert results[0][3] == first_seen
    assert results[0][4] == [first_seen.index(c) for c in codes]


def test_code_table_matches_a_dict_across_growth() -> None:
    rng = np.random.default_rng(7)
    table = CodeTable(capacity=8)
    expected: dict[int, int] = {}
    for _ in range(30):
        batch = rng.integers(0, 5_000, size=rng.integers(1, 400), dtype=np.int64)
        ids, new = table.intern(batch)
        for code in batch.tolist():
            expected.setdefault(code, len(expected))
        assert ids.tolist() == [expected[c] for c in batch.tolist()]
        assert set(new.tolist()) <= set(expected)
    assert table.size == len(expected)
    assert table.find(5_001) is None
    assert all(table.find(c) == i for c, i in expected.items())


def test_ctrl_c_inside_compiled_code_stays_a_ctrl_c() -> None:
    """Python reports a KeyboardInterrupt pending when machine code returns as a SystemError
    caused by it; a kernel raises it again as the KeyboardInterrupt it is."""
    import pytest

    from perfectplay.core.compiled import Kernel

    def interrupted() -> None:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as exc:
            raise SystemError("returned a result with an exception set") from exc

    def broken() -> None:
        raise SystemError("something else")

    for function, expected in ((interrupted, KeyboardInterrupt), (broken, SystemError)):
        kernel_ = Kernel(lambda: None)
        kernel_._compiled = function
        with pytest.raises(expected):
            kernel_.run_compiled()


def test_run_makes_only_the_arguments_of_the_run_it_takes(monkeypatch: pytest.MonkeyPatch) -> None:
    """``Kernel.run`` makes deferred arguments only for the run it chooses (a compiled run's
    from ``args``, an interpreted run's from ``plain``), and runs ``vectorised`` in place of
    the interpreted kernel, over the same arguments."""
    from perfectplay.core import compiled

    kernel_: Kernel[Any, int] = Kernel(lambda values: int(sum(values)))
    kernel_._compiled = lambda values: int(sum(values)) + 1000  # stands for machine code
    made: list[str] = []

    def arrays() -> tuple[Any, ...]:
        made.append("arrays")
        return (np.arange(3),)

    def lists() -> tuple[Any, ...]:
        made.append("lists")
        return ([0, 1, 2],)

    def negated(values: Any) -> int:
        return -int(values.sum())

    monkeypatch.setattr(compiled, "MODE", "interpreted")
    assert kernel_.run(3, arrays, plain=lists) == 3 and made == ["lists"]
    assert kernel_.run(3, arrays) == 3 and made == ["lists", "arrays"]
    assert kernel_.run(3, np.arange(3), vectorised=negated) == -3
    assert kernel_.run(3, arrays, plain=lists, vectorised=len) == 3  # over the lists
    assert made == ["lists", "arrays", "lists"]
    monkeypatch.setattr(compiled, "MODE", "compiled")
    made.clear()
    assert kernel_.run(3, arrays, plain=lists) == 1003 and made == ["arrays"]
    assert kernel_.run(3, np.arange(3), vectorised=negated) == 1003


def test_a_disk_cache_naming_a_module_that_is_gone_is_compiled_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """numba unpickles a cache's index before it checks that the index is fresh: an index
    naming a type of a module that was moved would fail every call. ``cached_jit`` empties
    such a cache, and the function compiles and runs."""
    import importlib
    import pickle

    from perfectplay.core.compiled import cached_jit

    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "kernel_home.py").write_text("def twice(x):\n    return 2 * x\n")
    (tmp_path / "ghost_types.py").write_text("class Ghost:\n    pass\n")
    home = importlib.import_module("kernel_home")
    ghost = importlib.import_module("ghost_types")
    assert cached_jit(home.twice, {"cache": True})(21) == 42  # the cache is written
    [index] = (tmp_path / "__pycache__").glob("*twice-*.nbi")
    with index.open("rb") as f:
        version = pickle.load(f)
    index.write_bytes(pickle.dumps(version) + pickle.dumps(ghost.Ghost()))
    del sys.modules["ghost_types"]
    (tmp_path / "ghost_types.py").unlink()
    with pytest.raises(ModuleNotFoundError):  # what numba alone does with it
        import numba

        numba.njit(cache=True)(home.twice)(4)
    assert cached_jit(home.twice, {"cache": True})(4) == 8


def test_one_file_loaded_under_two_module_names_keeps_a_cache_for_each(tmp_path: Path) -> None:
    """The command line loads a game file as ``perfectplay_user_<hash>``, a test or a
    package imports the same file under another name. numba names its disk cache by file
    and function only, while the cached data imports its module by name: the second name
    failed with ModuleNotFoundError on the first's cache. Each process here compiles and
    caches the same file under its own name, then loads its cache again, in either order."""
    import subprocess

    (tmp_path / "rules_file.py").write_text("def twice(x):\n    return 2 * x + 1\n")
    script = (
        "import importlib.util, sys\n"
        "from perfectplay.core.compiled import cached_jit\n"
        "name, path = sys.argv[1], sys.argv[2]\n"
        "spec = importlib.util.spec_from_file_location(name, path)\n"
        "module = importlib.util.module_from_spec(spec)\n"
        "sys.modules[name] = module\n"
        "spec.loader.exec_module(module)\n"
        "print(cached_jit(module.twice, {'cache': True})(20))\n"
    )
    path = str(tmp_path / "rules_file.py")
    for name in ("perfectplay_user_0123", "rules_file", "perfectplay_example_rules_file",
                 "perfectplay_user_0123", "rules_file"):  # fmt: skip
        run = subprocess.run([sys.executable, "-c", script, name, path],
                             capture_output=True, text=True, timeout=120)  # fmt: skip
        assert run.returncode == 0, run.stderr[-2000:]
        assert run.stdout.strip() == "41"
    caches = {p.name.split(".py311")[1] for p in (tmp_path / "__pycache__").glob("*.nbi")}
    assert caches == {".nbi", "-perfectplay_user_0123.nbi", "-perfectplay_example_rules_file.nbi"}
