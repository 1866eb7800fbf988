"""The checks every websocket passes before any consumer: where the page that opened it
came from, and how many connections its session and its address already hold."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

from smearsite.kernel.ratelimit import scope_address, scope_session_cookie

TOO_MANY = 4429  # close code: over a connection limit (the range left to applications)
TOO_MANY_SOCKETS = (
    "This browser has too many live tables open: close some tabs of this site, then reload."
)


DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_of(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin or URL, the port spelt out; None for anything
    that is not an http(s) origin ("null", a bad port)."""
    try:
        parts = urlsplit(url.strip().lower())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return parts.scheme, parts.hostname, port or DEFAULT_PORTS[parts.scheme]


def scope_header(scope: dict, name: bytes) -> str | None:
    """The value of header ``name`` (lower case) in an ASGI scope; None when absent."""
    for header, value in scope.get("headers") or []:
        if header == name:
            return value.decode("latin1")
    return None


class SiteOriginValidator:
    """ASGI middleware: a socket opens only from a page of the site's own origin, its
    scheme, host and port all the socket's own (Channels' ``OriginValidator`` matched the
    host alone, so a page on another port of the same host, or over https on a plain-http
    site, opened a seat's socket with its visitor's cookie).

    The socket's own origin is its page's: https on an HTTPS-only site or through a
    trusted proxy that says so, else http; the host and port of its Host header, which
    must be one of ``allowed_hosts`` (without one, the server's own address). SITE_URL
    (CSRF_TRUSTED_ORIGINS) counts too, as for Django's CSRF check: a proxy may pass on a
    Host without the public port."""

    def __init__(self, application, allowed_hosts: list[str]) -> None:
        self.application = application
        self.allowed_hosts = allowed_hosts

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            raise ValueError("SiteOriginValidator stands in front of websockets only")
        if self.valid_origin(scope):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)

    def valid_origin(self, scope: dict) -> bool:
        origin = origin_of(scope_header(scope, b"origin") or "")
        if origin is None:
            return False
        trusted = {origin_of(url) for url in settings.CSRF_TRUSTED_ORIGINS}
        return origin in trusted or origin == self.own_origin(scope, origin)

    def own_origin(self, scope: dict, origin: tuple[str, str, int]) -> tuple[str, str, int] | None:
        scheme = "https" if settings.HTTPS_ONLY or scope_is_secure(scope) else "http"
        host = scope_header(scope, b"host")
        if host is not None:
            domain, _ = split_domain_port(host)
            if not domain or not validate_host(domain, self.allowed_hosts):
                return None
            return origin_of(f"{scheme}://{host}")
        server = scope.get("server")
        if server:
            name, port = server
            return origin_of(
                f"{scheme}://[{name}]:{port}" if ":" in name else f"{scheme}://{name}:{port}"
            )
        # no Host and no server: an in-process caller (a test), never a browser's page;
        # an allowed host at the scheme's own port
        _, name, _ = origin
        allowed = validate_host(name, self.allowed_hosts)
        return (scheme, name, DEFAULT_PORTS[scheme]) if allowed else None


def scope_is_secure(scope: dict) -> bool:
    """Whether the socket reached the site over TLS: its own scheme, or what the trusted
    proxy in front says (X-Forwarded-Proto, read as Django reads it for a request)."""
    if scope.get("scheme") == "wss":
        return True
    if not settings.TRUSTED_PROXY_COUNT:
        return False
    proto = scope_header(scope, b"x-forwarded-proto") or ""
    return proto.split(",", 1)[0].strip() == "https"


def site_origin_validator(application) -> SiteOriginValidator:
    allowed_hosts = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed_hosts:
        allowed_hosts = [".localhost", "127.0.0.1", "[::1]"]
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
