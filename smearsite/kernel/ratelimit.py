"""Who is asking, by address, and how often: the limits that keep one visitor from using up
what everyone shares.

The address is the peer's, or behind TRUSTED_PROXY_COUNT proxies the one the outermost
trusted proxy saw (the same rule allauth's log-in limits use). Counts live in the cache,
so with a shared cache (Redis) every server process counts together.
"""

from __future__ import annotations

import hashlib
import time
from http.cookies import CookieError, SimpleCookie

from django.conf import settings
from django.core.cache import cache


def client_address(*, peer: str | None, forwarded_for: str | None) -> str:
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies and forwarded_for:
        hops = [hop.strip() for hop in forwarded_for.split(",")]
        if len(hops) >= proxies and hops[-proxies]:
            return hops[-proxies]
    return peer or "unknown"


def request_address(request) -> str:
    return client_address(
        peer=request.META.get("REMOTE_ADDR"),
        forwarded_for=request.META.get("HTTP_X_FORWARDED_FOR"),
    )


def scope_address(scope: dict) -> str:
    """A websocket's (or any ASGI connection's) client address."""
    headers = dict(scope.get("headers") or [])
    forwarded = headers.get(b"x-forwarded-for")
    client = scope.get("client")
    return client_address(
        peer=client[0] if client else None,
        forwarded_for=forwarded.decode("latin1") if forwarded else None,
    )


def scope_session_cookie(scope: dict) -> str | None:
    """The session cookie an ASGI connection carries, read without loading the session."""
    for name, value in scope.get("headers") or []:
        if name == b"cookie":
            try:
                cookies = SimpleCookie(value.decode("latin1"))
            except CookieError:
                return None
            found = cookies.get(settings.SESSION_COOKIE_NAME)
            return found.value if found else None
    return None


def allow(action: str, who: str, *, limit: int, per_s: int) -> bool:
    """Count one ``action`` by ``who``: False once they made more than ``limit`` in the
    current window of ``per_s`` seconds (a fixed window: simple, and good enough to stop a
    flood)."""
    window = int(time.time() // per_s)
    digest = hashlib.sha256(who.encode()).hexdigest()[:32]
    key = f"rate:{action}:{digest}:{window}"
    if cache.add(key, 1, timeout=per_s + 1):
        return limit >= 1
    try:
        count = cache.incr(key)
    except ValueError:  # expired between the two calls
        cache.set(key, 1, timeout=per_s + 1)
        count = 1
    return count <= limit
