"""The shared cache (Redis) with a local stand-in while Redis cannot be reached.

The site's cache holds only counts (rate limits, code guesses: ``smearsite.kernel.ratelimit``,
``code_guard``), so a page load must not fail with Redis: while it is down each process
counts in a memory cache of its own (the limits then hold per process, not across them),
and says so in the log once per outage, and once more when Redis is back. After a failure
Redis is asked again only after ``RETRY_S``, so an outage costs a request nothing but a
dictionary lookup.
"""

from __future__ import annotations

import logging
import threading
import time

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)
RETRY_S = 1.0  # after a failure, how long the local cache answers alone
UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)


class RedisWithLocalFallback(RedisCache):
    """Django's Redis cache; each call that cannot reach Redis is answered locally."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self._local = LocMemCache(f"fallback:{server}", {"OPTIONS": {"MAX_ENTRIES": 10_000}})
        self._down_until = 0.0  # time.monotonic() before which Redis is not asked
        self._outage = False  # an outage was logged and its end not yet
        self._lock = threading.Lock()

    def _either(self, name: str, *args, **kwargs):
        if time.monotonic() >= self._down_until:
            try:
                result = getattr(super(), name)(*args, **kwargs)
            except UNREACHABLE as error:
                self._went_down(error)
            else:
                self._came_back()
                return result
        return getattr(self._local, name)(*args, **kwargs)

    def _went_down(self, error: Exception) -> None:
        with self._lock:
            self._down_until = time.monotonic() + RETRY_S
            first = not self._outage
            self._outage = True
        if first:
            logger.error("the shared cache (Redis) is unreachable: counting locally (%s)", error)

    def _came_back(self) -> None:
        if self._outage:
            with self._lock:
                was, self._outage = self._outage, False
            if was:
                logger.warning("the shared cache (Redis) is back")

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._either("add", key, value, timeout, version)

    def get(self, key, default=None, version=None):
        return self._either("get", key, default, version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._either("set", key, value, timeout, version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._either("touch", key, timeout, version)

    def delete(self, key, version=None):
        return self._either("delete", key, version)

    def get_many(self, keys, version=None):
        return self._either("get_many", keys, version)

    def has_key(self, key, version=None):
        return self._either("has_key", key, version)

    def incr(self, key, delta=1, version=None):
        return self._either("incr", key, delta, version)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._either("set_many", data, timeout, version)

    def delete_many(self, keys, version=None):
        return self._either("delete_many", keys, version)

    def clear(self):
        self._local.clear()
        return self._either("clear")
