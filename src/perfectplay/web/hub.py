"""The explorer's home page: the games with their parameters, each opened in an explorer.

Routes (GET): ``/`` the page (``static/hub.html``); ``/api/games`` the games, each with
its ``name``, a ``summary`` of its rules and its ``parameters`` (``name``, ``type``,
``default`` as text, or null when required); ``/api/open?game=NAME&p=NAME=VALUE&...``
builds and solves one (or finds its book, or its search) and answers ``{"url": ...}``, the
address of its explorer (``/g/KEY/``, the same page as ``create_app`` serves), or ``400``
with ``{"error": "..."}`` in one line; ``/g/KEY/...`` that explorer and its API.

The hub knows no game itself: the command line hands it the list (the built-ins, or the
games named by ``perfectplay explore GAME GAME...``, the user's own included) and a function
that opens one (``Opener``), so that a game opened here is built, checked and solved exactly
as ``perfectplay explore GAME`` does it.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

from ..answers import Answers
from ..errors import PerfectplayError
from ..rules import Rules
from .app import STATIC, create_app, not_found

Opener = Callable[[str, list[str]], tuple[Rules[Any, Any], Answers[Any, Any], str]]
"""(game name, ["NAME=VALUE", ...]) -> (its rules, its answers, where they come from);
raises a PerfectplayError whose message says, in one line, why it cannot be opened."""


def create_hub(games: list[dict[str, Any]], open_game: Opener) -> Any:
    """The home page over ``games`` (as ``/api/games`` lists them), opening each with
    ``open_game`` on first use and keeping it open."""
    opened: dict[str, Starlette] = {}
    lock = threading.Lock()
    known = {game["name"] for game in games}

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "hub.html", media_type="text/html")

    async def listing(request: Request) -> Response:
        return JSONResponse({"games": games})

    def open_one(request: Request) -> Response:  # sync: Starlette runs it in a thread
        name = request.query_params.get("game", "")
        assignments = [a for a in request.query_params.getlist("p") if a.strip()]
        if name not in known:
            return JSONResponse({"error": f"no game called {name!r} here"}, status_code=400)
        key = hashlib.sha256("\n".join([name, *sorted(assignments)]).encode()).hexdigest()[:16]
        with lock:  # one solve at a time; a game asked twice is solved once
            if key not in opened:
                try:
                    rules, answers, source = open_game(name, assignments)
                except PerfectplayError as exc:
                    return JSONResponse({"error": str(exc)}, status_code=400)
                except Exception as exc:  # a game that raises: one line, never a traceback
                    message = f"{name}: {type(exc).__name__}: {exc}"
                    return JSONResponse({"error": message}, status_code=400)
                opened[key] = create_app(rules, answers, source, home=True)
        return JSONResponse({"url": f"/g/{key}/"})

    hub = Starlette(
        routes=[
            Route("/", page),
            Route("/api/games", listing),
            Route("/api/open", open_one),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        exception_handlers={404: not_found},
    )

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] == "http" and path.startswith("/g/"):
            key, slash, rest = path[len("/g/") :].partition("/")
            explorer = opened.get(key)
            if explorer is not None and not slash:  # its page's links are relative
                await RedirectResponse(f"/g/{key}/")(scope, receive, send)
                return
            if explorer is not None:
                inner = "/" + rest
                await explorer(dict(scope, path=inner, raw_path=inner.encode()), receive, send)
                return
        await hub(scope, receive, send)

    return app
