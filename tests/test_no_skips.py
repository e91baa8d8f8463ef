"""CI's rule that no test may skip (``tests/conftest.py``), on small suites of their own."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PASSING = "def test_b():\n    assert True\n"
SKIPPING = {
    # a test that skips itself, and a module skipped whole for a missing extra
    "inside": ("import pytest\n\ndef test_a():\n    pytest.skip('no extra')\n", "no extra"),
    "module": ("import pytest\n\npytest.importorskip('no_such_module_here')\n", "no_such"),
}


def run_suite(where: Path, skipping: str, no_skips: bool) -> subprocess.CompletedProcess[str]:
    shutil.copy(Path(__file__).with_name("conftest.py"), where / "conftest.py")
    (where / "test_skipping.py").write_text(SKIPPING[skipping][0])
    (where / "test_passing.py").write_text(PASSING)
    env = {k: v for k, v in os.environ.items() if k != "PERFECTPLAY_NO_SKIPS"}
    if no_skips:
        env["PERFECTPLAY_NO_SKIPS"] = "1"
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(where)]
    return subprocess.run(command, capture_output=True, text=True, env=env, cwd=where, check=False)


@pytest.mark.parametrize("skipping", sorted(SKIPPING))
@pytest.mark.parametrize("no_skips", [False, True], ids=["developer", "ci"])
def test_a_skip_fails_only_where_no_skip_is_allowed(
    tmp_path: Path, skipping: str, no_skips: bool
) -> None:
    result = run_suite(tmp_path, skipping, no_skips)
    summary = result.stdout.strip().splitlines()[-1]
    if no_skips:
        assert result.returncode != 0, result.stdout
        assert "skipped" not in summary, summary
        assert "allows no skip" in result.stdout, result.stdout
        assert SKIPPING[skipping][1] in result.stdout, result.stdout
    else:
        assert result.returncode == 0, result.stdout
        assert "1 passed, 1 skipped" in summary, summary
