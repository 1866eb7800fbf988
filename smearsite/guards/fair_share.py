"""Each visitor's share of the server: at most a few of their requests are served at once.

A server process runs every Django view on a thread of its own, all taking turns on one
interpreter. A visitor who sends requests as fast as they can (a flood of posts, even ones
answered 429) would hold most of those turns, and a newcomer's page would wait behind
them. So a request first waits, on the event loop where waiting costs nothing, for one of
its visitor's few places: SMEAR_REQUESTS_AT_ONCE per session cookie, and
SMEAR_REQUESTS_AT_ONCE_PER_ADDRESS per client address (which bounds a visitor who drops
or forges cookies). Everyone else's requests go straight past. A visitor with
SMEAR_REQUESTS_WAITING requests already waiting is answered 429 at once, so the queue
is bounded too. Counts are per process; websockets have their own caps
(``smearsite.guards.websockets``).
"""

from __future__ import annotations

import asyncio
from collections import deque

from django.conf import settings

from smearsite.kernel.ratelimit import scope_address, scope_session_cookie

TOO_MANY_WAITING = (
    b"Too many of your requests are waiting on this site. Wait a moment, then try again."
)


class Gate:
    """Places for one visitor: ``limit`` requests inside at once, the rest queued in order."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.inside = 0
        self.queue: deque[asyncio.Future] = deque()

    @property
    def idle(self) -> bool:
        return self.inside == 0 and not self.queue

    async def enter(self) -> None:
        if self.inside < self.limit and not self.queue:
            self.inside += 1
            return
        place = asyncio.get_running_loop().create_future()
        self.queue.append(place)
        try:
            await place
        except asyncio.CancelledError:
            if place.done() and not place.cancelled():
                self.leave()  # handed a place just as it gave up: pass it on
            else:
                self.queue.remove(place)
            raise

    def leave(self) -> None:
        """Hand the place to the first one waiting, else free it."""
        while self.queue:
            place = self.queue.popleft()
            if not place.done():
                place.set_result(None)
                return
        self.inside -= 1


class FairShare:
    """ASGI middleware for HTTP: the per-visitor places described above."""

    def __init__(self, application) -> None:
        self.application = application
        self.gates: dict[str, Gate] = {}

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.application(scope, receive, send)
        keyed = self._gates_of(scope)
        gates = [gate for _, gate in keyed]
        if any(len(gate.queue) >= settings.SMEAR_REQUESTS_WAITING for gate in gates):
            self._forget_idle(keyed)
            return await _too_many_waiting(send)
        entered: list[Gate] = []
        try:
            # the session's place first: a request waiting for it holds no address place
            for gate in gates:
                await gate.enter()
                entered.append(gate)
            return await self.application(scope, receive, send)
        finally:
            for gate in entered:
                gate.leave()
            self._forget_idle(keyed)

    def _gates_of(self, scope: dict) -> list[tuple[str, Gate]]:
        wanted = []
        session = scope_session_cookie(scope)
        if session:
            wanted.append((f"session:{session}", settings.SMEAR_REQUESTS_AT_ONCE))
        address = scope_address(scope)
        wanted.append((f"address:{address}", settings.SMEAR_REQUESTS_AT_ONCE_PER_ADDRESS))
        return [(key, self.gates.setdefault(key, Gate(limit))) for key, limit in wanted]

    def _forget_idle(self, keyed: list[tuple[str, Gate]]) -> None:
        """Drop the gates nobody is using: a visitor's gate lives as long as their requests."""
        for key, gate in keyed:
            if gate.idle and self.gates.get(key) is gate:
                del self.gates[key]


async def _too_many_waiting(send) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": 429,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"retry-after", b"1"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": TOO_MANY_WAITING})
