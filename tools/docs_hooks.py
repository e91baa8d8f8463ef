"""MkDocs hooks for the documentation site: the hook reference rendered from the code.

``docs/reference/hooks.md`` holds a marker that is replaced, when the site is built, by the
table of ``perfectplay.HOOKS`` (name, group, signature, what happens without it) with the
built-in games that define each hook, so the page can never drift from the code.
"""

from __future__ import annotations

from typing import Any

MARKER = "<!-- the hook table -->"


def hook_table_markdown() -> str:
    """The hook table as Markdown, one row a hook, in the order of ``HOOKS``."""
    from perfectplay import HOOKS
    from perfectplay.games import BUILTINS

    rows = [
        "| hook | group | signature | without it | built-ins that define it |",
        "| --- | --- | --- | --- | --- |",
    ]
    for hook in HOOKS:
        users = sorted(
            name for name, cls in BUILTINS.items() if getattr(cls, hook.name, None) is not None
        )
        shown = ", ".join(users) if users else "(none)"
        signature = hook.signature.replace("|", "\\|")
        without = hook.without.replace("|", "\\|")
        rows.append(f"| `{hook.name}` | {hook.group} | `{signature}` | {without} | {shown} |")
    return "\n".join(rows) + "\n"


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    """MkDocs event: fill the hook reference's marker."""
    if MARKER in markdown:
        return markdown.replace(MARKER, hook_table_markdown())
    return markdown
