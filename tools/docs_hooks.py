"""MkDocs hooks for the documentation site: the hook reference rendered from the code.

``docs/reference/hooks.md`` holds a marker that is replaced, when the site is built, by the
tables of ``perfectplay.HOOKS``, one per protocol (a game's; a partizan game's), each hook
with its group, signature, what happens without it and the built-in games that define it,
so the page can never drift from the code.
"""

from __future__ import annotations

from typing import Any

MARKER = "<!-- the hook table -->"

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
    return "\n".join(rows)


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    """MkDocs event: fill the hook reference's marker."""
    if MARKER in markdown:
        return markdown.replace(MARKER, hook_table_markdown())
    return markdown
