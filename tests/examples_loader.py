"""The examples (examples/*.py) as modules for the tests: each loaded once, under a name
of its own, as a user's file is (the examples are no package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def load(name: str) -> Any:
    """The example module ``examples/NAME.py``, loaded once under a name of its own."""
    module_name = f"perfectplay_example_{name}"
    if module_name not in sys.modules:
        spec = importlib.util.spec_from_file_location(module_name, EXAMPLES / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
    return sys.modules[module_name]
