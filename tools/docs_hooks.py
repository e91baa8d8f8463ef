"""The hook reference written from the code: ``python tools/docs_hooks.py``.

``docs/reference/hooks.md`` holds, between two markers, the tables of ``perfectplay.HOOKS``,
one per protocol (a game's; a partizan game's), each hook with its group, signature, what
happens without it and the built-in games that define it. This script writes them there,
so the page reads in the repository as on the site; a test fails when the page is not what
the script would write (the page cannot drift from the code).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

PAGE = Path(__file__).resolve().parents[1] / "docs" / "reference" / "hooks.md"
BEGIN = "<!-- the hook table, written by tools/docs_hooks.py -->"
END = "<!-- end of the hook table -->"

TITLES = {
    "game": "A game (`perfectplay.Rules` reads these)",
    "partizan": "A partizan game (`perfectplay.cgt.PartizanRules` reads these)",
}


def builtins_of(protocol: str) -> dict[str, type]:
    """The built-in classes that speak a protocol, by name."""
    from perfectplay.cgt import GAMES
    from perfectplay.games import BUILTINS, PARTIZAN_GAMES

    if protocol == "game":
        return dict(BUILTINS)
    return {cls.name: cls for cls in (*GAMES, *PARTIZAN_GAMES)}


def hook_table_markdown() -> str:
    """The hook tables as Markdown, one row a hook, in the order of ``HOOKS``."""
    from perfectplay import HOOKS

    rows: list[str] = []
    for protocol, title in TITLES.items():
        classes = builtins_of(protocol)
        rows += [
            f"### {title}",
            "",
            "| hook | group | signature | without it | built-ins that define it |",
            "| --- | --- | --- | --- | --- |",
        ]
        for hook in HOOKS:
            if hook.protocol != protocol:
                continue
            users = sorted(
                name for name, cls in classes.items() if getattr(cls, hook.name, None) is not None
            )
            shown = ", ".join(users) if users else "(none)"
            signature = hook.signature.replace("|", "\\|")
            without = hook.without.replace("|", "\\|")
            rows.append(f"| `{hook.name}` | {hook.group} | `{signature}` | {without} | {shown} |")
        rows.append("")
    rows += group_tables()
    return "\n".join(rows)


GROUPS = {
    "speed": "The batch group (`speed()` returns a `BatchRules`)",
    "tiers": "The tier group (`tiers()` returns a `TierRules`)",
}


def group_tables() -> list[str]:
    """The fields of the typed groups a game returns whole, one table a group, one row a
    field, with the built-ins whose group gives it (called on a default instance)."""
    import dataclasses

    from perfectplay.protocol import BatchRules, TierRules

    given: dict[str, dict[str, Any]] = {"speed": {}, "tiers": {}}
    for name, cls in builtins_of("game").items():
        game = cls()
        for method in given:
            found = getattr(game, method, None)
            group = found() if callable(found) else None
            if group is not None:
                given[method][name] = group
    rows: list[str] = []
    for (method, title), kind in zip(GROUPS.items(), (BatchRules, TierRules), strict=True):
        rows += [
            f"### {title}",
            "",
            "| field | signature | without it | built-ins that give it |",
            "| --- | --- | --- | --- |",
        ]
        for field in dataclasses.fields(kind):
            users = sorted(
                name
                for name, group in given[method].items()
                if getattr(group, field.name) is not None
                and getattr(group, field.name) is not False
            )
            shown = ", ".join(users) if users else "(none)"
            signature = field.metadata["signature"].replace("|", "\\|")
            without = field.metadata["without"].replace("|", "\\|")
            rows.append(f"| `{field.name}` | `{signature}` | {without} | {shown} |")
        rows.append("")
    return rows


def page_with_tables(page: str) -> str:
    """The page with the tables between its markers written afresh."""
    if BEGIN not in page or END not in page:
        raise ValueError(f"the hook page lacks its markers {BEGIN!r} and {END!r}")
    before, rest = page.split(BEGIN, 1)
    after = rest.split(END, 1)[1]
    return f"{before}{BEGIN}\n\n{hook_table_markdown()}\n{END}{after}"


def main() -> int:
    """Write the tables into the page; say whether it changed."""
    page = PAGE.read_text()
    written = page_with_tables(page)
    if written != page:
        PAGE.write_text(written)
        print(f"wrote the hook tables into {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
