"""Request bodies are bounded before anything buffers them whole.

Django's ASGI handler reads a request's whole body into a spooled file (to disk past
FILE_UPLOAD_MAX_MEMORY_SIZE) before any view, CSRF check or size check sees it, so a
2 GiB POST without a token wrote 2 GiB before its 403. ``BodyLimit`` stands in front of
it: a declared Content-Length over SMEAR_MAX_BODY_BYTES is answered 413 without reading
a byte of the body, and a body that grows past the limit as it arrives (chunked, or a
lying length) is answered 413 as soon as it does, having kept at most the limit in
memory. Whatever serves the site, this holds; the server (``smearsite.server.serve_daphne``)
refuses the same bodies even earlier, before it buffers them itself.

The largest legitimate body here is a small form or a Stripe event (a few KiB).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

TOO_LARGE = "This request is larger than this site accepts ({limit} bytes at most).\n"


def declared_length(scope: Scope) -> int | None:
    """The Content-Length a request declares; None when it declares none, or nonsense."""
    for name, value in scope.get("headers") or []:
        if name == b"content-length":
            text = value.decode("latin1").strip()
            return int(text) if text.isdigit() else None
    return None


class BodyLimit:
    """ASGI middleware for HTTP: a body over ``max_bytes`` is answered 413 in words."""

    def __init__(self, app: Callable, *, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = declared_length(scope)
        if length is not None and length > self.max_bytes:
            await self.refuse(send)
            return
        body = await self.read_body(receive)
        if body is None:
            await self.refuse(send)
            return
        await self.app(scope, replay(body, receive), send)

    async def read_body(self, receive: Receive) -> bytes | None:
        """The whole body, or None once it passes the limit (the rest is left unread)."""
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away: let Django see it
                return b"".join(chunks)
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    async def refuse(self, send: Send) -> None:
        text = TOO_LARGE.format(limit=self.max_bytes).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"text/plain; charset=utf-8"),
                    (b"content-length", str(len(text)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": text})


def replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands over the body already read, then defers to the server's."""
    sent = False

    async def again() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return again
