"""The site's server: daphne, with each address's new connections paced before any byte is read.

    python -m smearsite.serve -e tcp:port=8000:interface=0.0.0.0:backlog=1024 \
        smearsite.asgi:application

(daphne's own arguments, all of them.) Every new connection costs daphne's one event loop
its HTTP parsing and, for a websocket, the handshake, before any of the site's own limits
(``smearsite.fair_share``, ``smearsite.websockets``) can say no. One address opening
thousands of websockets as fast as it can would hold that loop, and everyone's pages
would wait behind it. So each client address has a bucket of new connections:
SMEAR_CONNECTIONS_BURST_PER_ADDRESS at once, refilled at
SMEAR_CONNECTIONS_PER_SECOND_PER_ADDRESS. A connection past it is answered a fixed 429
and closed as it is accepted: nothing is parsed and nothing reaches Django. Open
connections are not counted, so a held page or socket costs its address nothing.

Behind reverse proxies (TRUSTED_PROXY_COUNT > 0) every connection comes from a proxy's
address, so the pace is off: the proxy paces its clients' connections instead (README).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from daphne.cli import CommandLineInterface
from daphne.http_protocol import HTTPFactory
from daphne.server import Server
from django.conf import settings
from twisted.internet import reactor
from twisted.internet.protocol import Protocol

TOO_MANY_CONNECTIONS = (
    b"HTTP/1.1 429 Too Many Requests\r\n"
    b"Content-Type: text/plain; charset=utf-8\r\n"
    b"Retry-After: 1\r\n"
    b"Connection: close\r\n"
    b"\r\n"
    b"Too many new connections from your address. Wait a moment, then try again.\n"
)


class ConnectionPace:
    """A token bucket per address: ``burst`` connections at once, ``per_second`` after."""

    FORGET_AFTER = 4096  # addresses remembered before the refilled ones are dropped

    def __init__(
        self, per_second: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.per_second, self.burst, self.clock = per_second, burst, clock
        self.buckets: dict[str, tuple[float, float]] = {}  # address: (tokens, when)

    def admit(self, address: str) -> bool:
        now = self.clock()
        tokens = self._tokens(address, now)
        if len(self.buckets) >= self.FORGET_AFTER:
            self._forget_refilled(now)
        if tokens < 1:
            self.buckets[address] = (tokens, now)
            return False
        self.buckets[address] = (tokens - 1, now)
        return True

    def _tokens(self, address: str, now: float) -> float:
        tokens, when = self.buckets.get(address, (self.burst, now))
        return min(self.burst, tokens + (now - when) * self.per_second)

    def _forget_refilled(self, now: float) -> None:
        """A full bucket is the same as none, so memory stays bounded by recent addresses."""
        for address in [a for a in self.buckets if self._tokens(a, now) >= self.burst]:
            del self.buckets[address]


class TooManyConnections(Protocol):
    """Writes the refusal and closes its side at once; the client's request is read only to
    be dropped (closing with it unread would reset the connection, refusal and all), until
    the client closes too or LINGER_S is up."""

    LINGER_S = 2.0

    def connectionMade(self) -> None:
        self.transport.write(TOO_MANY_CONNECTIONS)
        self.transport.loseWriteConnection()
        self.linger = reactor.callLater(self.LINGER_S, self.transport.abortConnection)

    def dataReceived(self, data: bytes) -> None:
        pass

    def connectionLost(self, reason=None) -> None:
        if self.linger.active():
            self.linger.cancel()


class PacedHTTPFactory(HTTPFactory):
    """daphne's HTTP factory, refusing an address's connections past its pace."""

    def __init__(self, server: Server, pace: ConnectionPace) -> None:
        super().__init__(server)
        self.pace = pace

    def buildProtocol(self, addr):
        address = getattr(addr, "host", None)  # a UNIX socket's peer has none
        if address is not None and not self.pace.admit(address):
            refusal = TooManyConnections()
            refusal.factory = self
            return refusal
        return super().buildProtocol(addr)


def configured_pace() -> ConnectionPace | None:
    """The pace the settings ask for; None (no pace) behind proxies or when either number
    is 0 (a burst of 0 would refuse every connection)."""
    per_second = settings.SMEAR_CONNECTIONS_PER_SECOND_PER_ADDRESS
    burst = settings.SMEAR_CONNECTIONS_BURST_PER_ADDRESS
    if settings.TRUSTED_PROXY_COUNT or per_second <= 0 or burst <= 0:
        return None
    return ConnectionPace(per_second, burst)


class PacedServer(Server):
    """daphne's server listening through ``PacedHTTPFactory``. daphne makes its factory in
    ``run``, just before listening; this takes that assignment and puts the paced one in."""

    @property
    def http_factory(self) -> HTTPFactory:
        return self._http_factory

    @http_factory.setter
    def http_factory(self, factory: HTTPFactory) -> None:
        pace = configured_pace()
        self._http_factory = factory if pace is None else PacedHTTPFactory(self, pace)


class PacedCommandLineInterface(CommandLineInterface):
    server_class = PacedServer


if __name__ == "__main__":
    PacedCommandLineInterface.entrypoint()
