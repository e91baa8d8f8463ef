"""The explorer's server: the page, its script and style, and the JSON API, on Starlette.

Routes (all GET):

- ``/``: the page; ``/?moves=5,1,9`` opens that position (the page keeps its URL so).
- ``/static/...``: the page's script and style.
- ``/api/game``: the game's name, where its answers come from, and the starting position.
- ``/api/position?moves=M1,M2,...``: the position after those moves (``views``).

A bad request (an illegal move, unreadable text, a position never solved) is answered
``400`` with ``{"error": "..."}`` and an unknown path ``404``; the server keeps serving.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..answers import Answers
from ..rules import Rules
from .views import BadRequest, position_view

STATIC = Path(__file__).resolve().parent / "static"
MAX_MOVES = 10_000
"""A request naming more moves than this is refused (no game here is that long)."""


async def not_found(request: Request, exc: Exception) -> Response:
    """An unknown path: ``404`` and ``{"error": "no such page: PATH"}``."""
    return JSONResponse({"error": f"no such page: {request.url.path}"}, status_code=404)


def create_app(
    rules: Rules[Any, Any], answers: Answers[Any, Any], source: str, home: bool = False
) -> Starlette:
    """The explorer for one solved game; ``source`` says where its answers come from (a
    tablebase directory, or a solve), for the page's header; ``home``: it was opened from
    the home page of games (``hub``), which the page then links back to. The page asks its
    API by relative paths, so that it works wherever it is mounted."""

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def game(request: Request) -> Response:
        return JSONResponse(
            {
                "game": rules.name,
                "source": source,
                "start": rules.show(answers.initial),
                "home": home,
            }
        )

    async def position(request: Request) -> Response:
        text = request.query_params.get("moves", "")
        moves = [m for m in text.split(",") if m.strip()] if text.strip() else []
        if len(moves) > MAX_MOVES:
            return JSONResponse({"error": f"more than {MAX_MOVES} moves"}, status_code=400)
        try:  # no await inside: requests are answered one at a time, in the event loop
            view = position_view(rules, answers, moves)
        except BadRequest as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        return JSONResponse(view)

    return Starlette(
        routes=[
            Route("/", page),
            Route("/api/game", game),
            Route("/api/position", position),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        exception_handlers={404: not_found},
    )
