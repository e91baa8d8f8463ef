"""The board tests' fixture: each toolkit function run compiled and interpreted."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(params=["compiled", "interpreted"])
def run(request: pytest.FixtureRequest) -> Any:
    """A kernel's compiled or interpreted run."""

    def call(k: Any, *args: Any) -> Any:
        return k.compiled(*args) if request.param == "compiled" else k.interpreted(*args)

    return call
