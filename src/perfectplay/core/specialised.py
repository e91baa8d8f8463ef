"""Modules specialised per game: a template's text copied, its globals set, compiled, cached.

numba compiles a function with the globals it reads frozen as constants, so a loop whose
game functions and sizes are globals is compiled for that game alone, as fast as if written
for it. It caches machine code beside the source file, keyed by the file and the function,
and it cannot cache a function that takes a function or closes over one. So a template
(the compiled games' loops, the compiled search) is copied per game into the cache
directory under a name that hashes everything the code depends on; the caller sets the
copy's globals and jits its functions with ``cache=True``: a fresh process loads them from
disk instead of compiling, and a change anywhere gives a new copy.

Templates are plain Python in numba's subset, importable as they stand (the tests run
them interpreted); their globals hold placeholders until set.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import sys
import types
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .compiled import cached_jit


def cache_directory() -> Path:
    """Where specialised copies and their machine code are kept (``PERFECTPLAY_CACHE``,
    else ``~/.cache/perfectplay``)."""
    root = os.environ.get("PERFECTPLAY_CACHE")
    return Path(root) if root else Path.home() / ".cache" / "perfectplay"


def fingerprint(*parts: bytes | str) -> str:
    """A short hash of what a specialised copy depends on."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode() if isinstance(part, str) else part)
        digest.update(b"\0")
    return digest.hexdigest()[:20]


def template_copy(template: Path, name: str, folder: str, on_disk: bool) -> types.ModuleType:
    """A fresh module of ``template``'s text named ``name``: a file in the cache directory's
    ``folder`` when ``on_disk`` (so numba can cache it), else executed in memory."""
    name = re.sub(r"[^A-Za-z0-9_]", "_", name)
    text = template.read_text()
    if not on_disk:
        module = types.ModuleType(name)
        exec(compile(text, str(template), "exec"), module.__dict__)
        return module
    directory = cache_directory() / folder
    path = directory / f"{name}.py"
    if not path.is_file():
        directory.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".tmp{os.getpid()}")
        temporary.write_text(text)
        os.replace(temporary, path)
    found = module_from_file(name, path)
    assert found is not None
    return found


def module_from_file(name: str, path: Path, *, beside: bool = False) -> types.ModuleType | None:
    """The file at ``path`` run as module ``name``, kept in ``sys.modules`` (taken out again
    if it raises); None when Python has no loader for such a file. ``beside``: its folder
    goes on ``sys.path`` first, so the modules beside it import, as ``python file.py``
    does."""
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    folder = str(Path(path).resolve().parent)
    if beside and folder not in sys.path:
        sys.path.insert(0, folder)
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


def jit_in_place(
    module: types.ModuleType, names: Iterable[str], cache: bool, inline: Iterable[str] = ()
) -> None:
    """Replace each named function of ``module`` by its numba dispatcher, in the order
    given (a function's callees first: it sees them compiled); ``inline`` ones are inlined
    into their callers."""
    inlined = set(inline)
    for name in names:
        options: dict[str, Any] = {"cache": cache, "nogil": True}
        if name in inlined:
            options["inline"] = "always"
        setattr(module, name, cached_jit(getattr(module, name), options))
