"""Who is asking, by address, and how often: the limits that keep one visitor from using up
what everyone shares.

The address is the peer's, or behind TRUSTED_PROXY_COUNT proxies the one the outermost
trusted proxy saw (the same rule allauth's log-in limits use). Two kinds of count:

- ``allow``: a count per window in the cache, so with a shared cache (Redis) every server
  process counts together (pages, sign-ups, tables started);
- ``TokenBucket``: a burst, then a steady rate, in one process's memory, the site's one
  bucket: a session's messages over its table sockets (``SharedBuckets``,
  ``game.live.consumers``) and an address's connections to the server
  (``smearsite.server.serve.ConnectionPace``).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
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


class TokenBucket:
    """``burst`` takes at once, then ``rate_per_s`` a second: the bucket holds at most
    ``burst`` tokens, refills continuously, and a take spends one."""

    def __init__(
        self, burst: float, rate_per_s: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.burst, self.rate, self.clock = burst, rate_per_s, clock
        self.tokens = float(burst)
        self.at = clock()

    def take(self) -> bool:
        """Spend a token if there is one; False (and nothing spent) if not."""
        self._refill()
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def full(self) -> bool:
        """Refilled to its burst: the same as a bucket never used (it may be forgotten)."""
        self._refill()
        return self.tokens >= self.burst

    def _refill(self) -> None:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now


class SharedBuckets:
    """One token bucket per key (a session), shared by all its holders in this process
    (its sockets) and dropped with the last of them: more sockets buy no more messages."""

    def __init__(self, burst: int, rate_per_s: float) -> None:
        self.burst, self.rate = burst, rate_per_s
        self._buckets: dict[str, tuple[TokenBucket, int]] = {}

    def join(self, key: str) -> TokenBucket:
        bucket, users = self._buckets.get(key) or (TokenBucket(self.burst, self.rate), 0)
        self._buckets[key] = (bucket, users + 1)
        return bucket

    def leave(self, key: str) -> None:
        bucket, users = self._buckets[key]
        if users <= 1:
            del self._buckets[key]
        else:
            self._buckets[key] = (bucket, users - 1)
