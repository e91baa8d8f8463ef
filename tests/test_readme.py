"""The README's and the documentation's examples run verbatim and print what they say they
print; the site builds strictly; the hook reference is the code's."""

from __future__ import annotations

import dataclasses
import os
import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
DOCS = README.parent / "docs"


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


def test_docs_bring_your_own_game_runs_as_shown(tmp_path: Path) -> None:
    text = (DOCS / "tutorial" / "command-line.md").read_text()
    section = text[text.index("## Bring your own game") :]
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


def test_docs_tablebase_example_prints_what_it_claims(tmp_path: Path) -> None:
    text = (DOCS / "tutorial" / "tiers.md").read_text()
    section = text[text.index("## Tablebases in Python") :]
    match = re.search(r"```python\n(.*?)```\n\nprints\n\n```text\n(.*?)```", section, re.DOTALL)
    assert match, "the tiers page lost its tablebase example and the output it claims"
    code, claimed = match.groups()
    (tmp_path / "example.py").write_text(code)
    run = subprocess.run(
        [sys.executable, "example.py"], capture_output=True, text=True, cwd=tmp_path, timeout=300
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == claimed
    assert (tmp_path / "c4-4x4" / "header.json").exists()


def test_docs_compiled_game_is_the_example_file() -> None:
    text = (DOCS / "tutorial" / "compiled-games.md").read_text()
    section = text[text.index("# Your own game at C speed") :]
    code = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert code
    example = README.parent / "examples" / "connect_four.py"
    assert code.group(1) == example.read_text()
    assert len(code.group(1).splitlines()) < 100


def test_docs_compiled_walkthrough_runs_as_shown(tmp_path: Path) -> None:
    text = (DOCS / "tutorial" / "compiled-games.md").read_text()
    section = text[text.index("# Your own game at C speed") :]
    section = section[: section.index("How it works")]
    commands = re.findall(r"```sh\n(perfectplay .*?)\n```", section)
    shown = re.findall(r"```text\n(.*?)```", section, re.DOTALL)
    assert len(commands) == 3 and len(shown) == 3
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


def _pages() -> list[Path]:
    return [README, *sorted(DOCS.rglob("*.md"))]


def test_every_python_block_of_the_docs_is_python() -> None:
    for page in _pages():
        for block in re.findall(r"```python\n(.*?)```", page.read_text(), re.DOTALL):
            compile(block, str(page), "exec")  # a SyntaxError names the page


def test_every_example_that_says_what_it_prints_prints_it(tmp_path: Path) -> None:
    """Each Python block followed by "prints" and a text block, on every page, run verbatim
    in an empty folder of its own."""
    pairs = [
        (page, code, claimed)
        for page in _pages()
        for code, claimed in re.findall(
            r"```python\n(.*?)```\n\nprints\n\n```text\n(.*?)```", page.read_text(), re.DOTALL
        )
    ]
    assert len(pairs) >= 3  # the README's, the first game's and the tablebase example
    for i, (page, code, claimed) in enumerate(pairs):
        folder = tmp_path / str(i)
        folder.mkdir()
        (folder / "example.py").write_text(code)
        run = subprocess.run(
            [sys.executable, "example.py"], capture_output=True, text=True, cwd=folder,
            timeout=300, check=False,
        )  # fmt: skip
        assert run.returncode == 0, (page, run.stderr)
        assert run.stdout == claimed, page


def test_the_readme_is_short_and_its_links_lead_somewhere() -> None:
    text = README.read_text()
    assert len(text.splitlines()) <= 150
    links = re.findall(r"\]\(([^)#]+)\)", text)
    assert len(links) >= 15
    missing = [link for link in links if not (README.parent / link).is_file()]
    assert missing == []
    nav = (README.parent / "mkdocs.yml").read_text()
    pages = {str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md")}
    assert {p for p in pages if p not in nav} == set()  # every page is in the site's menu


def test_the_hook_reference_is_written_from_the_code() -> None:
    """The hook page's tables come from HOOKS, with the built-ins that define each hook,
    and the committed page is what ``tools/docs_hooks.py`` writes; a built-in that defines
    a public name the table lacks fails here."""
    sys.path.insert(0, str(README.parent / "tools"))
    try:
        from docs_hooks import BEGIN, END, builtins_of, hook_table_markdown, page_with_tables
    finally:
        sys.path.pop(0)

    from perfectplay import HOOKS
    from perfectplay.games import BUILTINS
    from perfectplay.protocol import BatchRules, TierRules

    table = hook_table_markdown()
    game_part, rest = table.split("### A partizan game")
    partizan_part, speed_part, tiers_part = rest.split("\n### ")
    rows = {}
    for protocol, part in (("game", game_part), ("partizan", partizan_part)):
        rows[protocol] = {
            line.split("`")[1]: line for line in part.splitlines() if line.startswith("| `")
        }
        assert list(rows[protocol]) == [h.name for h in HOOKS if h.protocol == protocol]
    for group, part, kind in (("speed", speed_part, BatchRules), ("tiers", tiers_part, TierRules)):
        rows[group] = {
            line.split("`")[1]: line for line in part.splitlines() if line.startswith("| `")
        }
        assert list(rows[group]) == [f.name for f in dataclasses.fields(kind)]
    assert rows["tiers"]["batch_solve_tier"].endswith("| connect-four |")  # its sweeps only
    assert rows["speed"]["universe"].endswith("| stones, subtraction |")
    assert len(rows["game"]) <= 22  # the "about 20 public names"
    assert rows["game"]["initial"].count(",") == len(BUILTINS) - 1  # every built-in starts
    assert rows["partizan"]["players"].endswith("| pawns-segments |")  # o and x
    page = (DOCS / "reference" / "hooks.md").read_text()
    assert page_with_tables(page) == page, "run python tools/docs_hooks.py"
    assert table in page
    assert page_with_tables(f"a\n{BEGIN}\nold\n{END}\nb") == f"a\n{BEGIN}\n\n{table}\n{END}\nb"
    # a built-in of either protocol that defines a public name its tables lack fails here
    # (a game's batch and tier parts: the fields of their groups)
    strays = {
        f"{name}.{attribute}"
        for protocol in ("game", "partizan")
        for name, cls in builtins_of(protocol).items()
        for klass in cls.__mro__
        if klass.__module__.startswith("perfectplay.")
        for attribute in vars(klass)
        if not attribute.startswith("_")
        and attribute not in rows[protocol]
        and not (protocol == "game" and (attribute in rows["speed"] or attribute in rows["tiers"]))
    }
    assert strays == set()


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    """`make docs`'s build: MkDocs with the Material theme, a warning fails it."""
    mkdocs = Path(sys.executable).with_name("mkdocs")
    run = subprocess.run(
        [str(mkdocs), "build", "--strict", "--quiet", "--site-dir", str(tmp_path / "site")],
        capture_output=True, text=True, cwd=README.parent, timeout=300, check=False,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    api = (tmp_path / "site" / "reference" / "api" / "index.html").read_text()
    assert 'id="perfectplay.solve' in api and 'id="perfectplay.Solution"' in api
    home = (tmp_path / "site" / "index.html").read_text()
    assert "competitive programmers checking a hunch" in home  # the README is the home page
    assert 'href="docs/' not in home and 'href="tutorial/first-game/"' in home


FRONT_END_PACKAGES = {"cli", "web", "contest", "openspiel", "books"}
"""Packages documented by their guides (the command line, the explorer, the judge
problems, OpenSpiel) or holding data only."""


def test_every_library_package_has_its_reference_page() -> None:
    source = README.parent / "src" / "perfectplay"
    packages = {
        path.parent.name
        for path in source.glob("*/__init__.py")
        if path.parent.name not in FRONT_END_PACKAGES
    }
    nav = (README.parent / "mkdocs.yml").read_text()
    for name in packages:
        page = DOCS / "reference" / "packages" / f"{name}.md"
        assert page.is_file(), f"no reference page for perfectplay.{name}"
        assert f"::: perfectplay.{name}\n" in page.read_text()
        assert f"reference/packages/{name}.md" in nav
