"""A request body that does not all arrive in time is refused (408): a client sending a byte now and then, or
nothing after its headers, held the request open for as long as it liked."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.requests import Request  # noqa: E402

from ruleskit.web.app import read_body  # noqa: E402
from ruleskit.web.table import Refusal  # noqa: E402


def request_sending(parts: list[bytes]) -> Request:
    """A POST whose body comes as `parts`, then nothing more, ever."""
    pending = list(parts)

    async def receive() -> dict[str, Any]:
        if pending:
            return {"type": "http.request", "body": pending.pop(0), "more_body": True}
        await asyncio.Event().wait()  # the client goes quiet
        raise AssertionError("never reached")

    scope = {"type": "http", "method": "POST", "path": "/", "headers": [], "query_string": b""}
    return Request(scope, receive)


@pytest.mark.parametrize("parts", [[], [b'{"action": '], [b"{", b"}"]])
def test_a_body_that_stops_coming_is_refused(parts: list[bytes]) -> None:
    with pytest.raises(Refusal) as refused:
        asyncio.run(read_body(request_sending(parts), seconds=0.05))
    assert refused.value.status == 408 and "did not arrive" in refused.value.message


def test_a_body_that_comes_whole_is_read() -> None:
    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"{}", "more_body": False}

    scope = {"type": "http", "method": "POST", "path": "/", "headers": [], "query_string": b""}
    assert asyncio.run(read_body(Request(scope, receive), seconds=30)) == b"{}"
