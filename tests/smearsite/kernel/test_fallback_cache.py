"""The shared cache answers from memory while Redis cannot be reached, and logs it once."""

from __future__ import annotations

import logging

from smearsite.kernel import fallback_cache
from smearsite.kernel.fallback_cache import RedisWithLocalFallback

# nothing listens on port 1: every connection is refused at once
UNREACHABLE_URL = "redis://127.0.0.1:1/0"


def _cache() -> RedisWithLocalFallback:
    return RedisWithLocalFallback(
        UNREACHABLE_URL,
        {"OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2}},
    )


def test_counts_go_on_in_memory_while_redis_is_unreachable():
    cache = _cache()

    assert cache.add("rate:x", 1, timeout=10) is True
    assert cache.incr("rate:x") == 2
    assert cache.get("rate:x") == 2
    assert cache.add("rate:x", 1, timeout=10) is False


def test_an_outage_is_logged_once_and_redis_is_not_asked_again_at_once(caplog, monkeypatch):
    cache = _cache()
    asked = []
    real = RedisWithLocalFallback.__mro__[1].get

    def counting_get(self, *args, **kwargs):
        asked.append(args)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(RedisWithLocalFallback.__mro__[1], "get", counting_get)
    with caplog.at_level(logging.ERROR, logger=fallback_cache.__name__):
        for _ in range(5):
            assert cache.get("code-miss:y") is None

    assert len(asked) == 1  # the others came within RETRY_S of the failure
    assert len([r for r in caplog.records if "unreachable" in r.getMessage()]) == 1
