"""The message rate limit of a table's live connections: a token bucket (a burst of
messages, then a steady rate), shared by the connections of one session."""

from __future__ import annotations

import time


class TokenBucket:
    def __init__(self, burst: int, rate_per_s: float) -> None:
        self.burst, self.rate = burst, rate_per_s
        self.tokens = float(burst)
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class SharedBuckets:
    """One token bucket per key (a session), shared by all its connections in this process
    and dropped with the last of them: more connections do not buy more messages."""

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
