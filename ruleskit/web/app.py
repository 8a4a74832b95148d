"""The web server: pages and a small JSON API over a Lobby (play) or a LogReplay (replay).

Every request is checked: tokens, JSON bodies (size, types) and versions.
A refused request gets a JSON `{"error": ...}` and leaves the game as it was.
A seat's address gives that seat's payload and actions only; the host's
address adds starting, saving and loading games and the log.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..digits import plain_digits
from ..errors import RulesError
from .lobby import Lobby
from .replay import LogReplay
from .table import Refusal

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 4 * 1024 * 1024  # a saved game of a full-size pack is well under 100 KB
BODY_SECONDS = 30.0  # a saved game's upload at a slow connection's few KB/s takes well under this
NO_STORE = {"Cache-Control": "no-store"}


class SafeJSONResponse(JSONResponse):
    """JSON whose text may hold a lone surrogate (a request's `"\\ud800"` repeated in a refusal): it is
    written as its JSON escape, where Starlette's encoding raised a UnicodeEncodeError (a 500)."""

    def render(self, content: Any) -> bytes:
        text = json.dumps(content, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":"))
        # Only a surrogate fails to encode, and it only ever stands inside a JSON string: `\udXXX` is its escape.
        return text.encode("utf-8", errors="backslashreplace")


def refused(exc: Refusal) -> JSONResponse:
    return SafeJSONResponse({"error": exc.message}, status_code=exc.status, headers=NO_STORE)


def answer(data: Any) -> JSONResponse:
    return SafeJSONResponse(data, headers=NO_STORE)


async def pack_failed(request: Request, exc: Exception) -> JSONResponse:
    """An error in the pack's code met while answering (a `shows` that divides by zero): its located message,
    not a traceback."""
    return SafeJSONResponse({"error": str(exc)}, status_code=500, headers=NO_STORE)


# Every app answers an error of the pack's code with its message (see `pack_failed`).
PACK_ERRORS: dict[Any, Callable[..., Any]] = {RulesError: pack_failed}


async def read_body(request: Request, seconds: float = BODY_SECONDS) -> bytes:
    """The request's body, refused past `MAX_BODY` bytes or when it has not all come within `seconds`: a
    client that sends a byte now and then held a worker and the request open for as long as it liked."""
    declared = request.headers.get("content-length")
    if declared is not None and (not plain_digits(declared) or int(declared) > MAX_BODY):
        raise Refusal("the request is too large", 413)
    try:
        return await asyncio.wait_for(collect_body(request), seconds)
    except TimeoutError:
        raise Refusal(f"the request's body did not arrive within {seconds:g} seconds", 408) from None


async def collect_body(request: Request) -> bytes:
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise Refusal("the request is too large", 413)
    return body


async def read_json(request: Request) -> dict[str, Any]:
    try:
        data = json.loads(await read_body(request) or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError, ValueError):
        # Not JSON, not UTF-8, nested past the parser's depth, or a number too long to read.
        raise Refusal("the request body must be a JSON object") from None
    if not isinstance(data, dict):
        raise Refusal("the request body must be a JSON object")
    if not is_unicode(data):
        raise Refusal("the request body's text must be valid Unicode (a lone surrogate escape such as \\ud800 is not)")
    return data


def is_unicode(data: Any) -> bool:
    """Whether every string in parsed JSON encodes (JSON's `\\ud800` escape reads as a lone surrogate)."""
    stack = [data]  # a loop, not recursion: the body may nest as deep as the parser allows
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not item.isascii():
                try:
                    item.encode("utf-8")
                except UnicodeEncodeError:
                    return False
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return True


def page(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers=NO_STORE)


def play_app(lobby: Lobby) -> Starlette:
    """The server for `ruleskit serve PACK`."""

    async def host_info(request: Request) -> Response:
        try:
            lobby.check_host(request.path_params["token"])
            return answer(await run_in_threadpool(lobby.info))
        except Refusal as exc:
            return refused(exc)

    async def host_new(request: Request) -> Response:
        try:
            lobby.check_host(request.path_params["token"])
            body = await read_json(request)
            await run_in_threadpool(lobby.start, body.get("players"), body.get("seats"), body.get("seed"))
            return answer(await run_in_threadpool(lobby.info))
        except Refusal as exc:
            return refused(exc)

    async def host_screen(request: Request) -> Response:
        try:
            lobby.check_host(request.path_params["token"])
            at = request.query_params.get("at", "")
            return answer(await run_in_threadpool(lobby.screen, int(at) if plain_digits(at) else None))
        except Refusal as exc:
            return refused(exc)

    async def host_download(request: Request, text_of: Callable[[], str], suffix: str, media_type: str) -> Response:
        """A file of the current game for the host only (saves and logs hold every hidden card)."""
        try:
            lobby.check_host(request.path_params["token"])
            text = await run_in_threadpool(text_of)
        except Refusal as exc:
            return refused(exc)
        name = f"{lobby.game.name}-{suffix}"
        return Response(text, media_type=media_type,
                        headers={**NO_STORE, "Content-Disposition": f'attachment; filename="{name}"'})

    async def host_save(request: Request) -> Response:
        return await host_download(request, lambda: lobby.current().save_text(), "save.json", "application/json")

    async def host_log(request: Request) -> Response:
        return await host_download(request, lambda: lobby.current().log_text(), "log.jsonl",
                                   "application/x-ndjson")

    async def host_load(request: Request) -> Response:
        try:
            lobby.check_host(request.path_params["token"])
            body = await read_body(request)
            # The page names the file it read (`?name=`): the feed tells where the game came from.
            await run_in_threadpool(lobby.load, body.decode("utf-8", errors="replace"),
                                    request.query_params.get("name"))
            return answer(await run_in_threadpool(lobby.info))
        except Refusal as exc:
            return refused(exc)

    async def seat_state(request: Request) -> Response:
        try:
            table = lobby.current()
            # Off the event loop: the table's lock may be held by bots playing, and no other request should wait.
            return answer(await run_in_threadpool(table.payload, table.seat_of(request.path_params["token"])))
        except Refusal as exc:
            return refused(exc)

    async def seat_act(request: Request) -> Response:
        try:
            table = lobby.current()
            seat = table.seat_of(request.path_params["token"])
            body = await read_json(request)
            await run_in_threadpool(table.act, seat, body.get("action"), body.get("version"))
            return answer(await run_in_threadpool(table.payload, seat))
        except Refusal as exc:
            return refused(exc)

    async def seat_undo(request: Request) -> Response:
        try:
            table = lobby.current()
            seat = table.seat_of(request.path_params["token"])
            body = await read_json(request)
            await run_in_threadpool(table.undo, seat, body.get("version"))
            return answer(await run_in_threadpool(table.payload, seat))
        except Refusal as exc:
            return refused(exc)

    routes = [
        Route("/", page),
        Route("/host/{token}", page),
        Route("/seat/{token}", page),
        Route("/api/host/{token}", host_info),
        Route("/api/host/{token}/new", host_new, methods=["POST"]),
        Route("/api/host/{token}/screen", host_screen),
        Route("/api/host/{token}/save", host_save),
        Route("/api/host/{token}/load", host_load, methods=["POST"]),
        Route("/api/host/{token}/log", host_log),
        Route("/api/seat/{token}", seat_state),
        Route("/api/seat/{token}/act", seat_act, methods=["POST"]),
        Route("/api/seat/{token}/undo", seat_undo, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, exception_handlers=PACK_ERRORS)


def replay_app(log: LogReplay) -> Starlette:
    """The server for `ruleskit serve --log LOG`: a finished (or unfinished) game to step through."""

    async def summary(request: Request) -> Response:
        return answer(log.summary())

    async def step(request: Request) -> Response:
        raw = request.path_params["step"]
        seat_text = request.query_params.get("seat", "all")
        if not plain_digits(raw) or int(raw) > log.steps:
            return refused(Refusal(f"steps go from 0 to {log.steps}", 404))
        if seat_text == "all":
            seat = None
        elif plain_digits(seat_text) and int(seat_text) < log.summary()["players"]:
            seat = int(seat_text)
        else:
            return refused(Refusal("seat must be 'all' or a seat number from 0"))
        return answer(await run_in_threadpool(log.step, int(raw), seat))

    async def home(request: Request) -> Response:
        return PlainTextResponse("", status_code=307, headers={"Location": "/replay"})

    routes = [
        Route("/", home),
        Route("/replay", page),
        Route("/api/replay", summary),
        Route("/api/replay/{step}", step),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, exception_handlers=PACK_ERRORS)
