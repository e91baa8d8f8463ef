"""MkDocs hook: the site's home page is the README, its links made the site's.

``docs/index.md`` holds a marker; when the site is built it is replaced by ``README.md``,
whose links into ``docs/`` (right on GitHub and in a clone) lose that prefix (right in the
site). The README is the one text a newcomer reads, on either.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

README = Path(__file__).resolve().parents[1] / "README.md"
MARKER = "<!-- the README, as the site's home page: tools/docs_readme.py -->"


def readme_for_the_site(text: str) -> str:
    """The README with its links into docs/ made relative to the site's root."""
    return re.sub(r"\]\(docs/", "](", text)


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    """MkDocs event: fill the home page's marker with the README."""
    if MARKER in markdown:
        return markdown.replace(MARKER, readme_for_the_site(README.read_text()))
    return markdown
