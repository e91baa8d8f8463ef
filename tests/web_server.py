"""A real explorer server for tests: uvicorn on a free port of 127.0.0.1, in a thread."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

uvicorn = pytest.importorskip("uvicorn", reason="the explorer is an extra: perfectplay[explorer]")
pytest.importorskip("starlette", reason="the explorer is an extra: perfectplay[explorer]")

from perfectplay.web.app import create_app  # noqa: E402


@contextmanager
def serving(rules: Any, answers: Any, source: str = "test") -> Iterator[str]:
    """The explorer of ``answers`` served until the block ends; yields its base URL."""
    with serving_app(create_app(rules, answers, source)) as base:
        yield base


@contextmanager
def serving_home() -> Iterator[str]:
    """The home page of the built-in games, opened as ``perfectplay explore`` opens them."""
    from contextlib import ExitStack

    from perfectplay.cli.web_command import home_games, home_opener
    from perfectplay.web.hub import create_hub

    with ExitStack() as stack, serving_app(
        create_hub(home_games(), home_opener(stack, None, None))
    ) as base:  # fmt: skip
        yield base


@contextmanager
def serving_app(app: Any) -> Iterator[str]:
    """An ASGI app served until the block ends; yields its base URL."""
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the explorer server did not start")
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def get(url: str) -> tuple[int, Any]:
    """(status, JSON body) of a GET."""
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())
