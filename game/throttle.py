"""A token bucket: a burst of messages, then a steady rate."""

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
