"""The site's server: uvicorn, with each address's new connections paced before any byte is read.

    python -m smearsite.serve [--host 127.0.0.1] [--port 8000] [--backlog 1024]

uvicorn on uvloop, httptools and websockets (C where it counts: the event loop, HTTP
parsing, websocket framing) serves ``smearsite.asgi:application``. Its own reading of
proxy headers is off: the site trusts X-Forwarded-For and -Proto from TRUSTED_PROXY_COUNT
proxies only (``smearsite.ratelimit``, ``SECURE_PROXY_SSL_HEADER``).

Every new connection costs the one event loop its HTTP parsing and, for a websocket, the
handshake, before any of the site's own limits (``smearsite.fair_share``,
``smearsite.websockets``) can say no. One address opening thousands of websockets as fast
as it can would hold that loop, and everyone's pages would wait behind it. So each client
address has a bucket of new connections: SMEAR_CONNECTIONS_BURST_PER_ADDRESS at once,
refilled at SMEAR_CONNECTIONS_PER_SECOND_PER_ADDRESS. A connection past it is answered a
fixed 429 and closed as it is accepted: nothing is parsed and nothing reaches Django. Open
connections are not counted, so a held page or socket costs its address nothing.

Behind reverse proxies (TRUSTED_PROXY_COUNT > 0) every connection comes from a proxy's
address, so the pace is off: the proxy paces its clients' connections instead (README).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import time
from collections.abc import Callable

import uvicorn
from django.conf import settings

APPLICATION = "smearsite.asgi:application"
MAX_MESSAGE_BYTES = 64 * 1024  # a move is some 40 bytes (game.consumers: 512 characters at most)
GRACEFUL_SHUTDOWN_S = 10  # then open sockets are closed: their pages reconnect elsewhere
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


class TooManyConnections(asyncio.Protocol):
    """Writes the refusal and closes its side at once; the client's request is read only to
    be dropped (closing with it unread would reset the connection, refusal and all), until
    the client closes too or LINGER_S is up."""

    LINGER_S = 2.0

    def connection_made(self, transport: asyncio.Transport) -> None:
        transport.write(TOO_MANY_CONNECTIONS)
        if transport.can_write_eof():
            transport.write_eof()
        self.linger = asyncio.get_running_loop().call_later(self.LINGER_S, transport.abort)

    def data_received(self, data: bytes) -> None:
        pass

    def eof_received(self) -> bool:
        return False  # the client is done too: the transport closes

    def connection_lost(self, exc: Exception | None) -> None:
        self.linger.cancel()


def paced(protocol_class: type[asyncio.Protocol], pace: ConnectionPace) -> type:
    """uvicorn's HTTP protocol, handing an address's connections past its pace to
    ``TooManyConnections`` as they are accepted."""

    class Paced(protocol_class):
        def connection_made(self, transport: asyncio.Transport) -> None:
            peer = transport.get_extra_info("peername")
            address = peer[0] if isinstance(peer, tuple) else None  # a UNIX socket: none
            if address is not None and not pace.admit(address):
                refusal = TooManyConnections()
                transport.set_protocol(refusal)
                refusal.connection_made(transport)
                return
            super().connection_made(transport)

    Paced.__name__ = f"Paced{protocol_class.__name__}"
    return Paced


def configured_pace() -> ConnectionPace | None:
    """The pace the settings ask for; None (no pace) behind proxies or when either number
    is 0 (a burst of 0 would refuse every connection)."""
    per_second = settings.SMEAR_CONNECTIONS_PER_SECOND_PER_ADDRESS
    burst = settings.SMEAR_CONNECTIONS_BURST_PER_ADDRESS
    if settings.TRUSTED_PROXY_COUNT or per_second <= 0 or burst <= 0:
        return None
    return ConnectionPace(per_second, burst)


def config(host: str, port: int, *, backlog: int, access_log: bool) -> uvicorn.Config:
    """uvicorn's configuration of the site, loaded (the site's settings with it), its HTTP
    protocol paced as the settings ask."""
    loaded = uvicorn.Config(
        APPLICATION,
        host=host,
        port=port,
        backlog=backlog,
        lifespan="off",  # Channels' router has no lifespan; the site starts nothing there
        proxy_headers=False,
        server_header=False,
        access_log=access_log,
        ws_max_size=MAX_MESSAGE_BYTES,
        # every partial sent would be compressed once per socket: CPU on every move
        ws_per_message_deflate=False,
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_S,
    )
    loaded.load()
    pace = configured_pace()
    if pace is not None:
        loaded.http_protocol_class = paced(loaded.http_protocol_class, pace)
    return loaded


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve the site (HTTP and websockets).")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    # the listening socket's queue: a burst's connections past it wait a second to retry
    parser.add_argument("--backlog", type=int, default=1024)
    parser.add_argument("--access-log", action="store_true", help="log every request")
    args = parser.parse_args(argv)
    server = uvicorn.Server(
        config(args.host, args.port, backlog=args.backlog, access_log=args.access_log)
    )
    spare_the_collector()
    server.run()


# A move allocates a few thousand objects (its pages' models and drawings) and frees nearly
# all of them by reference counting; at Python's default of a young collection every 700
# allocations, the collector ran several times a move and walked the young survivors each
# time. Collections this many allocations apart made a redraw that draws its parts afresh
# a quarter cheaper, and the live bench's move round trip p95 about half.
YOUNG_COLLECTION_EVERY = 50_000


def spare_the_collector() -> None:
    """Start-up's objects (the site's modules, settings, templates) are never garbage:
    freeze them out of every later collection, and collect the young less often."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION_EVERY, middle, old)


if __name__ == "__main__":
    main()
