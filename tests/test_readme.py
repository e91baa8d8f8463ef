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


def test_readme_bring_your_own_game_runs_as_shown(tmp_path: Path) -> None:
    text = README.read_text()
    section = text[text.index("### Bring your own game") :]
    code = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    command = re.search(r"```sh\n(perfectplay solve .*?)\n```", section)
    shown = re.search(r"```text\n(.*?)```", section, re.DOTALL)
    assert code and command and shown
    assert len(code.group(1).splitlines()) == 25
    (tmp_path / "coin_row.py").write_text(code.group(1))
    args = command.group(1).split()[1:]
    cli = Path(sys.executable).with_name("perfectplay")
    run = subprocess.run(
        [str(cli), *args], capture_output=True, text=True, cwd=tmp_path, timeout=120, check=False
    )
    assert run.returncode == 0, run.stderr
    actual = {
        line.split(None, 1)[0]: line.split(None, 1)[1].strip()
        for line in run.stdout.splitlines()
        if line.strip()
    }
    for line in shown.group(1).splitlines():
        name, value = line.split(None, 1)
        if name in ("seconds", "perfect"):
            continue  # timings vary; "perfect play" is checked below
        assert actual[name] == value.strip(), name
    assert "right left left right right left" in run.stdout


def test_readme_tablebase_example_prints_what_it_claims(tmp_path: Path) -> None:
    text = README.read_text()
    section = text[text.index("### Tablebases in Python") :]
    match = re.search(r"```python\n(.*?)```\n\nprints\n\n```text\n(.*?)```", section, re.DOTALL)
    assert match, "README lost its tablebase example and the output it claims"
    code, claimed = match.groups()
    (tmp_path / "example.py").write_text(code)
    run = subprocess.run(
        [sys.executable, "example.py"], capture_output=True, text=True, cwd=tmp_path, timeout=300
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == claimed
    assert (tmp_path / "c4-4x4" / "header.json").exists()


def test_readme_compiled_game_is_the_example_file() -> None:
    text = README.read_text()
    section = text[text.index("## Your own game at C speed") :]
    code = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert code
    example = README.parent / "examples" / "connect_four.py"
    assert code.group(1) == example.read_text()
    assert len(code.group(1).splitlines()) < 100


def test_readme_compiled_walkthrough_runs_as_shown(tmp_path: Path) -> None:
    text = README.read_text()
    section = text[text.index("## Your own game at C speed") :]
    section = section[: section.index("How it works")]
    commands = re.findall(r"```sh\n(perfectplay .*?)\n```", section)
    shown = re.findall(r"```text\n(.*?)```", section, re.DOTALL)
    assert len(commands) == 2 and len(shown) == 2
    (tmp_path / "examples").mkdir()
    example = README.parent / "examples" / "connect_four.py"
    (tmp_path / "examples" / "connect_four.py").write_text(example.read_text())
    cli = Path(sys.executable).with_name("perfectplay")
    for command, lines in zip(commands, shown, strict=True):
        run = subprocess.run(
            [str(cli), *command.split()[1:]],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            timeout=300,
            check=False,
        )
        assert run.returncode == 0, run.stderr
        printed = [" ".join(line.split()) for line in run.stdout.splitlines()]
        for line in lines.splitlines():
            assert " ".join(line.split()) in printed, line
