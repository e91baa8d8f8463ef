"""A rule's numba disk cache, and the engine's loops compiled around the rules, are named
by the code they hold from other files (``building._callees_identity``, ``_identity``):
numba keys a cache by the rule's own file alone, so a rule cached before a helper in
another file changed would go on running the old helper."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

RULE = """
from helper import twice


def rule(p, s):
    return twice(s)


class Game:
    pass
"""
RUN = """
import sys
sys.path.insert(0, sys.argv[1])
import game_rules
from perfectplay.compiled_games.building import jitted
print(jitted(game_rules.rule, {}, True)((0,), 21))
"""


def helper(factor: int) -> str:
    return f"def twice(s):\n    return {factor} * s\n"


def jitted_helper(factor: int) -> str:
    """The helper as a user who compiles it themselves writes it (numba's own disk cache)."""
    return f"import numba\n\n\n@numba.njit(cache=True)\n{helper(factor)}"


def run_cached(folder: Path) -> int:
    """The rule's answer in a fresh process, its machine code cached on disk."""
    done = subprocess.run(
        [sys.executable, "-c", RUN, str(folder)], capture_output=True, text=True, check=True
    )
    return int(done.stdout.split()[-1])


@pytest.mark.parametrize("written", [helper, jitted_helper])
def test_a_rule_cached_before_its_helper_changed_runs_the_new_helper(
    tmp_path: Path, written: Callable[[int], str]
) -> None:
    (tmp_path / "game_rules.py").write_text(textwrap.dedent(RULE))
    (tmp_path / "helper.py").write_text(written(2))
    assert run_cached(tmp_path) == 42
    assert run_cached(tmp_path) == 42  # (from the cache)
    (tmp_path / "helper.py").write_text(written(3))
    assert run_cached(tmp_path) == 63


def test_the_identities_follow_the_helpers_files_not_others(tmp_path: Path) -> None:
    from perfectplay.compiled_games.building import _callees_identity, _identity

    (tmp_path / "game_rules.py").write_text(textwrap.dedent(RULE))
    (tmp_path / "helper.py").write_text(helper(2))
    sys.path.insert(0, str(tmp_path))
    try:
        import game_rules  # type: ignore[import-not-found]

        def both() -> tuple[str, str]:  # the rule's cache and the engine's loops'
            loops = _identity(game_rules.Game, {"moves": game_rules.rule}, 64, False)
            return _callees_identity(game_rules.rule), loops

        first = both()
        (tmp_path / "unrelated.py").write_text("x = 1\n")
        assert both() == first
        (tmp_path / "helper.py").write_text(helper(3))
        assert both()[0] != first[0] and both()[1] != first[1]
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("game_rules", None)
        sys.modules.pop("helper", None)


def test_a_rule_from_a_module_outside_sys_modules_is_said_once_and_not_cached(
    tmp_path: Path,
) -> None:
    """numba's cached data imports a rule's module by name: a file run as a module that
    ``sys.modules`` does not hold compiled again in every process (Morris, 30 s a run,
    unseen). The user is told once, naming the module, and nothing unreadable is written;
    the same file registered is cached."""
    import importlib.util
    import warnings

    from perfectplay.compiled_games.building import jitted

    (tmp_path / "lonely_rules.py").write_text("def rule(p, s):\n    return 3 * s\n")

    def loaded(name: str, register: bool) -> object:
        spec = importlib.util.spec_from_file_location(name, tmp_path / "lonely_rules.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        if register:
            sys.modules[name] = module
        spec.loader.exec_module(module)
        return module

    lonely = loaded("lonely_rules_unregistered", register=False)
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        first = jitted(lonely.rule, {}, True)  # type: ignore[attr-defined]
        jitted(lonely.rule, {}, True)  # type: ignore[attr-defined]
    told = [str(w.message) for w in said if issubclass(w.category, RuntimeWarning)]
    assert len(told) == 1 and "'lonely_rules_unregistered'" in told[0], told
    assert said[0].filename == __file__  # the line of the caller's, not the library's
    assert type(first._cache).__name__ == "NullCache" and first((0,), 7) == 21
    try:
        kept = loaded("lonely_rules_registered", register=True)
        with warnings.catch_warnings(record=True) as quiet:
            warnings.simplefilter("always")
            cached = jitted(kept.rule, {}, True)  # type: ignore[attr-defined]
        assert not [w for w in quiet if issubclass(w.category, RuntimeWarning)]
        assert type(cached._cache).__name__ != "NullCache" and cached((0,), 7) == 21
    finally:
        sys.modules.pop("lonely_rules_registered", None)
