"""The site's server: daphne, with what one connection and one address may cost bounded
before any byte reaches Django.

    python -m smearsite.server.serve [--host 127.0.0.1] [--port 8000] [--backlog 1024]
                                     [--access-log] [--worker COMMAND]

With ``--worker`` the server also keeps COMMAND running (``make run``: the review worker)
under ``smearsite.server.supervise``, and starts that supervisor again if it dies.

daphne (twisted, autobahn) serves ``smearsite.asgi:application``: HTTP and websockets, as
the design names it. Its own reading of proxy headers is off: the site trusts
X-Forwarded-For and -Proto from TRUSTED_PROXY_COUNT proxies only (``smearsite.kernel.ratelimit``,
``SECURE_PROXY_SSL_HEADER``), none unless told, and says at start which
(``forwarded_headers_notice``). ``smearsite.server.serve_daphne`` bounds its HTTP side:

- **new connections per address are paced**: every new connection costs the one event
  loop its HTTP parsing and, for a websocket, the handshake, before any of the site's own
  limits (``smearsite.guards.fair_share``, ``smearsite.guards.websockets``) can say no.
  So each client address has a bucket of new connections:
  SMEAR_CONNECTIONS_BURST_PER_ADDRESS at once,
  refilled at SMEAR_CONNECTIONS_PER_SECOND_PER_ADDRESS; one past it is answered a fixed
  429 as it is accepted, nothing parsed;
- **open connections per address are counted**: SMEAR_CONNECTIONS_OPEN_PER_ADDRESS at
  most (pages, kept-alive connections and websockets together), then the same 429; and
  **all of them together** stay below the process's limit of open files (``max_open``):
  past it a newcomer takes the place of the connection that has waited longest for a
  request's head;
- **a request's head has SMEAR_HEADER_TIMEOUT_S** from the connection's opening (or its
  last response), however slowly it trickles in, then its body SMEAR_BODY_TIMEOUT_S
  (408); an idle kept-alive connection is closed after SMEAR_HEADER_TIMEOUT_S too;
- **a head is at most MAX_HEADER_BYTES in MAX_HEADERS lines** (431), and **a body at most
  SMEAR_MAX_BODY_BYTES**, or its path's own (SMEAR_MAX_BODY_BYTES_BY_PATH: the Stripe
  webhook's), 413 as soon as its length says so or it passes the limit; a body accepted
  is kept in memory, never spooled to a temporary file, and **all unfinished bodies
  together at most SMEAR_MAX_BODIES_BYTES**: past it the one waiting longest is shed.

Behind reverse proxies (TRUSTED_PROXY_COUNT > 0) every connection comes from a proxy's
address, so the pace and the count per address are off: the proxy does both (docs/deployment.md).
The deadlines and the size bounds hold whatever is in front.
"""

from __future__ import annotations

import argparse
import gc
import resource
import shlex
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from django.conf import settings

from smearsite.guards.body_limit import BodyLimits
from smearsite.kernel.ratelimit import TokenBucket
from smearsite.server.supervise import Keeper

APPLICATION = "smearsite.asgi:application"
MAX_MESSAGE_BYTES = 64 * 1024  # a move is some 40 bytes (game.live.consumers: 512 chars at most)
# a browser's head is 1-3 KiB, most of it cookies; nginx's default allows 4 lines of 8 KiB
MAX_HEADER_BYTES = 16 * 1024
MAX_HEADERS = 100
GRACEFUL_SHUTDOWN_S = 10  # for the site's tasks to end; sockets' pages reconnect elsewhere


class ConnectionPace:
    """A token bucket per address (``smearsite.kernel.ratelimit.TokenBucket``): ``burst``
    connections at once, ``per_second`` after."""

    FORGET_AFTER = 4096  # addresses remembered before the refilled ones are dropped

    def __init__(
        self, per_second: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.per_second, self.burst, self.clock = per_second, burst, clock
        self.buckets: dict[str, TokenBucket] = {}

    def admit(self, address: str) -> bool:
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) >= self.FORGET_AFTER:
                self._forget_refilled()
            bucket = self.buckets[address] = TokenBucket(self.burst, self.per_second, self.clock)
        return bucket.take()

    def _forget_refilled(self) -> None:
        """A full bucket is the same as none, so memory stays bounded by recent addresses."""
        for address in [a for a, bucket in self.buckets.items() if bucket.full()]:
            del self.buckets[address]


def configured_pace() -> ConnectionPace | None:
    """The pace the settings ask for; None (no pace) behind proxies or when either number
    is 0 (a burst of 0 would refuse every connection)."""
    per_second = settings.SMEAR_CONNECTIONS_PER_SECOND_PER_ADDRESS
    burst = settings.SMEAR_CONNECTIONS_BURST_PER_ADDRESS
    if settings.TRUSTED_PROXY_COUNT or per_second <= 0 or burst <= 0:
        return None
    return ConnectionPace(per_second, burst)


@dataclass(frozen=True)
class Limits:
    """What one connection may cost (``smearsite.server.serve_daphne``); None: not counted.
    A body is at most ``max_body_bytes``, or its path's own in ``max_body_bytes_by_path``."""

    header_timeout_s: float
    body_timeout_s: float
    max_body_bytes: int
    open_per_address: int | None
    max_header_bytes: int = MAX_HEADER_BYTES
    max_headers: int = MAX_HEADERS
    max_body_bytes_by_path: Mapping[str, int] = field(default_factory=dict)
    # all unfinished bodies together (None: not counted); at least the largest one
    max_bodies_bytes: int | None = None

    def body_limits(self) -> BodyLimits:
        return BodyLimits(default=self.max_body_bytes, by_path=self.max_body_bytes_by_path)


def configured_limits() -> Limits:
    """The limits the settings ask for; no count per address behind proxies (every
    connection is a proxy's) or when it is 0; no budget of all bodies when it is 0, else
    at least the largest body."""
    open_per_address = settings.SMEAR_CONNECTIONS_OPEN_PER_ADDRESS
    if settings.TRUSTED_PROXY_COUNT:
        open_per_address = 0
    bodies = settings.SMEAR_MAX_BODIES_BYTES
    largest_body = max(
        settings.SMEAR_MAX_BODY_BYTES, *settings.SMEAR_MAX_BODY_BYTES_BY_PATH.values()
    )
    return Limits(
        header_timeout_s=settings.SMEAR_HEADER_TIMEOUT_S,
        body_timeout_s=settings.SMEAR_BODY_TIMEOUT_S,
        max_body_bytes=settings.SMEAR_MAX_BODY_BYTES,
        open_per_address=open_per_address or None,
        max_body_bytes_by_path=dict(settings.SMEAR_MAX_BODY_BYTES_BY_PATH),
        max_bodies_bytes=max(bodies, largest_body) if bodies else None,
    )


# files a server process keeps for itself whatever its connections: the database, logs,
# the bot workers' pipes, the channel layer
FILES_RESERVED = 256


def max_open() -> int:
    """Connections all addresses together may hold: SMEAR_CONNECTIONS_MAX, or (0) the
    process's limit of open files less FILES_RESERVED, read afresh (it may be changed
    while the server runs: prlimit)."""
    if settings.SMEAR_CONNECTIONS_MAX:
        return settings.SMEAR_CONNECTIONS_MAX
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return max(64, soft - FILES_RESERVED)


def forwarded_headers_notice() -> str:
    """What the server says at start about X-Forwarded-For and -Proto: trusted from how
    many proxies, or ignored (TRUSTED_PROXY_COUNT=0, the default), and what follows."""
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies:
        return (
            f"Trusting X-Forwarded-For and X-Forwarded-Proto from {proxies} reverse "
            f"prox{'y' if proxies == 1 else 'ies'} (TRUSTED_PROXY_COUNT={proxies}): this "
            "server must be reachable only through them, or anyone can claim any address "
            "and the limits per address, pace and count of connections included, are off."
        )
    notice = (
        "X-Forwarded-For and X-Forwarded-Proto are ignored (TRUSTED_PROXY_COUNT=0): every "
        "client is counted by its own address. Behind reverse proxies, set "
        "TRUSTED_PROXY_COUNT to how many stand in front of this server."
    )
    if settings.HTTPS_ONLY:
        notice += (
            " SITE_URL is https:// and this server speaks plain HTTP, so TLS must end at a "
            "proxy: until TRUSTED_PROXY_COUNT says so, every request looks like plain HTTP "
            "and is redirected to HTTPS."
        )
    return notice


def serve(
    host: str, port: int, *, backlog: int, access_log: bool, worker: list[str] | None = None
) -> None:
    # daphne.server installs the asyncio reactor: before anything else imports twisted's
    from daphne.server import Server  # isort: skip

    from daphne.access import AccessLogGenerator

    from smearsite.asgi import application
    from smearsite.server import serve_daphne

    class BoundedServer(Server):
        """daphne's server listening through the site's door. daphne makes its HTTP
        factory in ``run``, just before listening; this takes that assignment and puts
        the bounded one in its place."""

        @property
        def http_factory(self):
            return self._door

        @http_factory.setter
        def http_factory(self, factory) -> None:
            self._door = serve_daphne.door_for(
                self, limits=configured_limits(), pace=configured_pace(), max_open=max_open
            )

    server = BoundedServer(
        application=application,
        endpoints=[f"tcp:port={port}:interface={host}:backlog={backlog}"],
        action_logger=AccessLogGenerator(sys.stdout) if access_log else None,
        websocket_max_message_size=MAX_MESSAGE_BYTES,
        websocket_max_frame_size=MAX_MESSAGE_BYTES,
        application_close_timeout=GRACEFUL_SHUTDOWN_S,
        server_name="",  # no Server header
    )
    print(f"serve: {forwarded_headers_notice()}", file=sys.stderr, flush=True)
    keeper = Keeper(worker) if worker else None
    if keeper is not None:
        from twisted.internet import reactor

        # a supervisor that ends while the server stops (Ctrl-C reaches both) is not
        # started again; keeper.stop() below then waits for it
        reactor.addSystemEventTrigger("before", "shutdown", keeper.stopping.set)
        keeper.start()
    from game.live import bot_runner

    bot_runner.keep_time()  # tables whose process died are taken here
    spare_the_collector()
    try:
        server.run()
    finally:
        if keeper is not None:
            keeper.stop()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve the site (HTTP and websockets).")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    # the listening socket's queue: a burst's connections past it wait a second to retry
    parser.add_argument("--backlog", type=int, default=1024)
    parser.add_argument("--access-log", action="store_true", help="log every request")
    parser.add_argument(
        "--worker",
        metavar="COMMAND",
        help="keep this command running beside the server, under a supervisor that the "
        "server starts again if it dies (make run: the review worker)",
    )
    args = parser.parse_args(argv)
    worker = shlex.split(args.worker) if args.worker else None
    serve(args.host, args.port, backlog=args.backlog, access_log=args.access_log, worker=worker)


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
