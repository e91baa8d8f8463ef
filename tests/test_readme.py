"""The README's complete example runs verbatim and prints what the README says it prints."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_example_prints_what_it_claims(tmp_path: Path) -> None:
    text = README.read_text()
    match = re.search(r"```python\n(.*?)```\n\nprints\n\n```text\n(.*?)```", text, re.DOTALL)
    assert match, "README lost its example and the output it claims"
    code, claimed = match.groups()
    script = tmp_path / "example.py"
    script.write_text(code)
    run = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=False
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == claimed


def test_readme_names_the_two_setup_commands() -> None:
    text = README.read_text()
    assert "make demo" in text and "make test" in text
    makefile = (README.parent / "Makefile").read_text()
    assert re.search(r"^demo:", makefile, re.MULTILINE)
    assert re.search(r"^test:", makefile, re.MULTILINE)
