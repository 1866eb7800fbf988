"""Request bodies are bounded before anything buffers them whole.

Django's ASGI handler reads a request's whole body into a spooled file (to disk past
FILE_UPLOAD_MAX_MEMORY_SIZE) before any view, CSRF check or size check sees it, so a
2 GiB POST without a token wrote 2 GiB before its 403. ``BodyLimit`` stands in front of
it: a declared Content-Length over SMEAR_MAX_BODY_BYTES is answered 413 without reading
a byte of the body, and a body that grows past the limit as it arrives (chunked, or a
lying length) is answered 413 as soon as it does, having kept at most the limit in
memory. Whatever serves the site, this holds; the server (``smearsite.server.serve_daphne``)
refuses the same bodies even earlier, before it buffers them itself.

The limit is per path (``BodyLimits``): SMEAR_MAX_BODY_BYTES for every form, and more
where the settings say so (SMEAR_MAX_BODY_BYTES_BY_PATH: the Stripe webhook's).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
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


@dataclass(frozen=True)
class BodyLimits:
    """The largest body accepted: ``default``, or a path's own in ``by_path`` (exact paths,
    without the query; any other spelling of one gets the default, the smaller)."""

    default: int
    by_path: Mapping[str, int] = field(default_factory=dict)

    def for_path(self, path: str) -> int:
        return self.by_path.get(path, self.default)

    @classmethod
    def from_settings(cls) -> BodyLimits:
        from django.conf import settings

        return cls(
            default=settings.SMEAR_MAX_BODY_BYTES,
            by_path=dict(settings.SMEAR_MAX_BODY_BYTES_BY_PATH),
        )


class BodyLimit:
    """ASGI middleware for HTTP: a body over its path's limit is answered 413 in words."""

    def __init__(self, app: Callable, *, limits: BodyLimits) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        max_bytes = self.limits.for_path(scope.get("path", ""))
        length = declared_length(scope)
        if length is not None and length > max_bytes:
            await self.refuse(send, max_bytes)
            return
        body = await self.read_body(receive, max_bytes)
        if body is None:
            await self.refuse(send, max_bytes)
            return
        await self.app(scope, replay(body, receive), send)

    async def read_body(self, receive: Receive, max_bytes: int) -> bytes | None:
        """The whole body, or None once it passes the limit (the rest is left unread)."""
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away: let Django see it
                return b"".join(chunks)
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > max_bytes:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    async def refuse(self, send: Send, max_bytes: int) -> None:
        text = TOO_LARGE.format(limit=max_bytes).encode()
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
