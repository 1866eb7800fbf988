"""The checks every websocket passes before any consumer: where the page that opened it
came from, and how many connections its session and its address already hold."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from channels.security.websocket import OriginValidator
from django.conf import settings

from smearsite.kernel.ratelimit import scope_address, scope_session_cookie

TOO_MANY = 4429  # close code: over a connection limit (the range left to applications)
TOO_MANY_SOCKETS = (
    "This browser has too many live tables open: close some tabs of this site, then reload."
)


class SiteOriginValidator(OriginValidator):
    """Channels' check of the Origin's host against ALLOWED_HOSTS, and on an HTTPS-only site
    its scheme too: a page served over plain http (downgraded, or someone else's on the
    same name) may not open a socket that carries the visitor's session."""

    def valid_origin(self, parsed_origin) -> bool:
        if settings.HTTPS_ONLY and (parsed_origin is None or parsed_origin.scheme != "https"):
            return False
        return super().valid_origin(parsed_origin)


def site_origin_validator(application) -> SiteOriginValidator:
    allowed_hosts = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed_hosts:
        allowed_hosts = ["localhost", "127.0.0.1", "[::1]"]
    return SiteOriginValidator(application, allowed_hosts)


class ConnectionLimits:
    """ASGI middleware: at most SMEAR_SOCKETS_PER_SESSION websockets per session cookie
    and SMEAR_SOCKETS_PER_ADDRESS per client address open in this process. One more is accepted only
    to be told why (``refusal()``, then close code 4429), before the session is loaded or
    the database touched: a flood of refusals costs the server next to nothing."""

    def __init__(self, application, *, refusal: Callable[[str], str]) -> None:
        self.application = application
        self.refusal = refusal
        self._refusal_text: str | None = None  # drawn once, at the first refusal
        self.open: Counter[str] = Counter()

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            return await self.application(scope, receive, send)
        limits = {f"address:{scope_address(scope)}": settings.SMEAR_SOCKETS_PER_ADDRESS}
        session = scope_session_cookie(scope)
        if session:
            limits[f"session:{session}"] = settings.SMEAR_SOCKETS_PER_SESSION
        if any(self.open[key] >= limit for key, limit in limits.items()):
            return await self._refuse(receive, send)
        self.open.update(limits.keys())
        try:
            return await self.application(scope, receive, send)
        finally:
            self.open.subtract(limits.keys())
            for key in limits:
                if self.open[key] <= 0:
                    del self.open[key]

    async def _refuse(self, receive, send) -> None:
        message = await receive()
        if message["type"] != "websocket.connect":
            return
        if self._refusal_text is None:
            self._refusal_text = self.refusal(TOO_MANY_SOCKETS)
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": self._refusal_text})
        await send({"type": "websocket.close", "code": TOO_MANY, "reason": "too many sockets"})
