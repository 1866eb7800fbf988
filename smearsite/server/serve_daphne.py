"""daphne's HTTP side, bounded: what one connection, and one address, may cost the server.

daphne (twisted) reads a request's head line by line and buffers its whole body before the
application sees any of it. Its own bounds are loose for a site with nothing in front of
it: an idle timer that every byte resets (a header sent a byte a second never times out),
and a body of any size, chunked or declared at 100,000 bytes or more, written to a
temporary file until it is whole (300 connections each sending a 1 MB chunk and no last
one held 300 MB of files to the body timeout). Here:

- ``Door`` stands at the listening socket: each address's new connections are paced
  (``smearsite.server.serve.ConnectionPace``) and its open ones counted; one past either is
  answered a fixed 429 as it is accepted, before anything is parsed. All addresses
  together hold at most ``max_open()`` connections (below the process's limit of open
  files): past it, a new connection takes the place of the one that has waited longest
  for a request's head (a slow or idle one, never a request being served or a
  websocket), so a flood of slow connections from many addresses sheds itself, oldest
  first, and a newcomer, whose head arrives at once, is served.
- ``BoundedChannel`` gives a request ``header_timeout_s`` for its head, counted from the
  connection's opening or its last response and never reset by a trickle, then
  ``body_timeout_s`` for its body; bounds its head's size and count (431);
  and refuses a body over its path's limit (``Limits.body_limits``, 413) as soon as its
  length is declared or, chunked, as soon as it passes the limit. ``BoundedRequest``
  keeps the body it accepts in memory: what it holds is bounded by that limit, never a
  file; and all unfinished bodies together by ``Limits.max_bodies_bytes``: past it the
  body that has waited longest is shed (its connection closed), never the one arriving,
  so bodies held open by the thousand shed themselves, oldest first, and a newcomer's,
  which arrives at once, is served.

A refusal is written, the connection half-closed, and what the client still sends is read
and dropped for a moment (closing with it unread would reset the connection, refusal and
all) until the client closes or LINGER_S is up.

Only twisted's and daphne's public names are used: HTTPChannel's documented bounds
(``MAX_LENGTH``, ``maxHeaders``, ``totalHeadersSize``), its hooks for each line, header,
head and request, the request's headers, and ``LineReceiver.clearLineBuffer``; the head's
size, header count and path are measured here as they arrive. The real-server tests
(tests/smearsite/server) hold every bound to its answer, so an upgrade that changes one
of those hooks fails CI.

Import ``daphne.server`` before this module's classes are used: it installs the asyncio
reactor that twisted then uses.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from io import BytesIO

from daphne.http_protocol import HTTPFactory, WebRequest
from twisted.internet.protocol import Protocol
from twisted.protocols.policies import ProtocolWrapper, WrappingFactory
from twisted.web import http

LINGER_S = 2.0


def answer(status: int, reason: str, text: str, *, retry_after: int | None = None) -> bytes:
    """A whole plain-text HTTP response that closes its connection."""
    body = text.encode()
    head = [
        f"HTTP/1.1 {status} {reason}",
        "Content-Type: text/plain; charset=utf-8",
        f"Content-Length: {len(body)}",
        "Connection: close",
    ]
    if retry_after is not None:
        head.append(f"Retry-After: {retry_after}")
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


TOO_MANY_NEW = answer(
    429,
    "Too Many Requests",
    "Too many new connections from your address. Wait a moment, then try again.\n",
    retry_after=1,
)
TOO_MANY_OPEN = answer(
    429,
    "Too Many Requests",
    "Too many open connections from your address. Close some pages, then try again.\n",
    retry_after=5,
)
TOO_BUSY = answer(
    503,
    "Service Unavailable",
    "The server is too busy to take another connection. Try again in a moment.\n",
    retry_after=1,
)
TOO_SLOW = answer(
    408, "Request Timeout", "Your request took too long to arrive. Please send it again.\n"
)
HEADERS_TOO_LARGE = answer(
    431,
    "Request Header Fields Too Large",
    "Your request's headers are too large. Clearing this site's cookies may help.\n",
)


def body_too_large(limit: int) -> bytes:
    return answer(
        413,
        "Content Too Large",
        f"This request is larger than this site accepts ({limit} bytes at most).\n",
    )


def linger_and_close(transport, reply: bytes) -> object:
    """Write ``reply``, half-close, and abort after LINGER_S unless the client closes first.
    Returns the pending abort, for the caller to cancel when the connection is lost."""
    from twisted.internet import reactor

    transport.write(reply)
    if hasattr(transport, "loseWriteConnection"):
        transport.loseWriteConnection()
    else:  # pragma: no cover - every TCP transport can
        transport.loseConnection()
    return reactor.callLater(LINGER_S, transport.abortConnection)


class Refusal(Protocol):
    """A connection turned away at the door: its fixed answer, and nothing parsed. When
    the server is short of connections (``linger`` off) it is closed at once, its answer
    written on the way out."""

    def __init__(self, reply: bytes, *, linger: bool = True) -> None:
        self.reply = reply
        self.linger = linger
        self.abort = None

    def connectionMade(self) -> None:
        if not self.linger:
            self.transport.write(self.reply)
            self.transport.loseConnection()
            return
        self.abort = linger_and_close(self.transport, self.reply)

    def dataReceived(self, data: bytes) -> None:
        pass

    def connectionLost(self, reason=None) -> None:
        if self.abort is not None and self.abort.active():
            self.abort.cancel()


class Counted(ProtocolWrapper):
    """An accepted connection, counted against its address until it closes (whatever it
    became: daphne hands a websocket's connection to autobahn through this wrapper)."""

    address: str | None = None


class Door(WrappingFactory):
    """The listening socket's factory: paces and counts each address's connections, sheds
    the longest-waiting one when all of them together reach ``max_open()``, and hands the
    rest to daphne's HTTP factory."""

    protocol = Counted

    def __init__(
        self,
        wrapped: HTTPFactory,
        *,
        pace,
        open_per_address: int | None,
        max_open: Callable[[], int],
        max_bodies_bytes: int | None = None,
    ) -> None:
        super().__init__(wrapped)
        self.pace = pace
        self.open_per_address = open_per_address
        self.max_open = max_open
        self.open: Counter[str] = Counter()
        self.total = 0
        # connections awaiting a request's head, the longest-waiting first
        self.waiting: dict[BoundedChannel, None] = {}
        # unfinished request bodies held in memory, the longest-waiting first: their bytes
        self.max_bodies_bytes = max_bodies_bytes
        self.bodies: dict[BoundedRequest, int] = {}
        self.bodies_bytes = 0

    def buildProtocol(self, addr):
        address = getattr(addr, "host", None)  # a UNIX socket's peer has none
        pressed = self.total >= self.max_open()
        if address is not None:
            if self.pace is not None and not self.pace.admit(address):
                return Refusal(TOO_MANY_NEW, linger=not pressed)
            if self.open_per_address and self.open[address] >= self.open_per_address:
                return Refusal(TOO_MANY_OPEN, linger=not pressed)
        if pressed:
            if not self.waiting:
                return Refusal(TOO_BUSY, linger=False)
            # one out for one in: the shed connection is counted off as it closes
            self.waiting_done(oldest := next(iter(self.waiting)))
            oldest.shed()
        wrapper = super().buildProtocol(addr)
        wrapper.address = address
        return wrapper

    def waiting_for_head(self, channel: BoundedChannel) -> None:
        self.waiting.pop(channel, None)
        self.waiting[channel] = None  # the newest at the end

    def waiting_done(self, channel: BoundedChannel) -> None:
        self.waiting.pop(channel, None)

    def body_received(self, request: BoundedRequest, size: int) -> None:
        """``size`` more bytes of ``request``'s body are held; past ``max_bodies_bytes``,
        the unfinished bodies that have waited longest (never this one) are shed."""
        self.bodies[request] = self.bodies.get(request, 0) + size
        self.bodies_bytes += size
        if self.max_bodies_bytes is None:
            return
        while self.bodies_bytes > self.max_bodies_bytes:
            oldest = next((held for held in self.bodies if held is not request), None)
            if oldest is None:
                return
            self.body_done(oldest)  # counted off now: its connection closes a moment later
            oldest.shed()

    def body_done(self, request: BoundedRequest) -> None:
        """``request``'s body is whole (handed on), refused or gone: no longer held here."""
        self.bodies_bytes -= self.bodies.pop(request, 0)

    def registerProtocol(self, p: Counted) -> None:
        super().registerProtocol(p)
        self.total += 1
        if p.address is not None:
            self.open[p.address] += 1

    def unregisterProtocol(self, p: Counted) -> None:
        super().unregisterProtocol(p)
        self.total -= 1
        if p.address is not None:
            self.open[p.address] -= 1
            if self.open[p.address] <= 0:
                del self.open[p.address]


class BoundedChannel(http.HTTPChannel):
    """twisted's HTTP/1.1 channel with deadlines and bounds (see the module's docstring)."""

    def __init__(self, limits, door: Door | None = None) -> None:
        super().__init__()
        self.limits = limits
        self.door = door
        self.MAX_LENGTH = limits.max_header_bytes  # one line of the head
        self.totalHeadersSize = limits.max_header_bytes
        self.maxHeaders = limits.max_headers
        self.deadline = None
        self.abort = None
        self.heard = False  # a byte of the request awaited has arrived
        # the head awaited, as read here: its bytes (lines without their ends), its header
        # lines, the path of its request line, the request it opened (``BoundedRequest``)
        self.head_bytes = 0
        self.head_fields = 0
        self.head_path: str | None = None
        self.request: BoundedRequest | None = None

    def connectionMade(self) -> None:
        super().connectionMade()
        self.await_head()

    def await_request(self, seconds: float) -> None:
        self.cancel_deadline()
        self.deadline = self.callLater(seconds, self.too_slow)

    def await_head(self) -> None:
        self.head_bytes = self.head_fields = 0
        self.head_path = None
        self.await_request(self.limits.header_timeout_s)
        if self.door is not None:
            self.door.waiting_for_head(self)

    def head_done(self) -> None:
        if self.door is not None:
            self.door.waiting_done(self)

    def shed(self) -> None:
        """Closed at once to make room for a newcomer (``Door``)."""
        self.cancel_deadline()
        self.transport.abortConnection()

    def cancel_deadline(self) -> None:
        if self.deadline is not None and self.deadline.active():
            self.deadline.cancel()
        self.deadline = None

    def too_slow(self) -> None:
        self.deadline = None
        if self.heard:
            self.refuse(TOO_SLOW)
        else:  # an idle connection, between requests: nothing to answer
            self.transport.loseConnection()

    def dataReceived(self, data: bytes) -> None:
        self.heard = True
        super().dataReceived(data)

    def lineReceived(self, line: bytes) -> None:
        self.head_bytes += len(line)
        if self.head_bytes > self.totalHeadersSize:
            self.refuse(HEADERS_TOO_LARGE)
            return
        if self.head_path is None and line:  # the request line: method, path, version
            parts = line.split(b" ")
            self.head_path = parts[1].split(b"?", 1)[0].decode("latin1") if len(parts) == 3 else ""
        super().lineReceived(line)

    def lineLengthExceeded(self, line: bytes) -> None:
        self.refuse(HEADERS_TOO_LARGE)

    def headerReceived(self, line: bytes) -> bool:
        if self.head_fields >= self.maxHeaders:
            self.refuse(HEADERS_TOO_LARGE)
            return False
        self.head_fields += 1
        return super().headerReceived(line)

    def allHeadersReceived(self) -> None:
        self.head_done()
        request = self.request
        request.max_body_bytes = self.limits.body_limits().for_path(self.head_path or "/")
        declared = request.requestHeaders.getRawHeaders(b"content-length")
        if declared and int(declared[0]) > request.max_body_bytes:
            request.gotLength(0)  # an empty body to close with the request
            self.refuse(body_too_large(request.max_body_bytes))
            return
        self.await_request(self.limits.body_timeout_s)  # cancelled once the body is in
        super().allHeadersReceived()

    def allContentReceived(self) -> None:
        self.cancel_deadline()
        self.bodies_done()
        super().allContentReceived()

    def bodies_done(self) -> None:
        # only the request whose head or body is being read can hold an unfinished body
        if self.door is not None and self.request is not None:
            self.door.body_done(self.request)

    def requestDone(self, request) -> None:
        # before the parent's, which may read a pipelined request's head at once: it hands
        # what came while this request was served to ``dataReceived``, which hears it
        self.heard = False
        self.await_head()
        super().requestDone(request)

    def refuse(self, reply: bytes) -> None:
        """Answer ``reply`` and stop reading requests on this connection."""
        if self.abort is not None:
            return  # refused already
        self.head_done()
        self.bodies_done()
        self.cancel_deadline()
        self.setTimeout(None)
        self.clearLineBuffer()
        self.dataReceived = self.lineReceived = self.rawDataReceived = _drop
        self.abort = linger_and_close(self.transport, reply)

    def connectionLost(self, reason) -> None:
        self.head_done()
        self.bodies_done()
        self.cancel_deadline()
        if self.abort is not None and self.abort.active():
            self.abort.cancel()
        super().connectionLost(reason)


def _drop(*args) -> None:
    """What a refused connection does with what it is still sent."""


class BoundedRequest(WebRequest):
    """daphne's request, its body in memory and refused once it passes its path's limit
    (``max_body_bytes``, set by the channel as the head is in)."""

    received = 0
    max_body_bytes = 0

    def __init__(self, channel: BoundedChannel, *args, **kwargs) -> None:
        super().__init__(channel, *args, **kwargs)
        channel.request = self  # the request whose head the channel is reading

    def gotLength(self, length: int | None) -> None:
        # twisted's own spools a body to a temporary file unless it is declared under
        # 100,000 bytes; every body here is bounded, so memory holds it
        self.content = BytesIO()

    def handleContentChunk(self, data: bytes) -> None:
        self.received += len(data)
        if self.received > self.max_body_bytes:
            self.channel.refuse(body_too_large(self.max_body_bytes))
            return
        super().handleContentChunk(data)
        if self.channel.door is not None:
            self.channel.door.body_received(self, len(data))

    def shed(self) -> None:
        """Closed at once to make room for newer bodies (``Door.body_received``)."""
        if self.channel is not None:
            self.channel.shed()


class BoundedHTTPFactory(HTTPFactory):
    """daphne's HTTP factory, its connections ``BoundedChannel``s of ``BoundedRequest``s."""

    def __init__(self, server, limits) -> None:
        super().__init__(server)
        self.limits = limits
        self.door: Door | None = None

    def protocol(self) -> BoundedChannel:
        # twisted's own factory wraps its channel in one that can switch to HTTP/2 when TLS
        # negotiates it; this server speaks HTTP/1.1 over plain TCP (TLS ends in front)
        return BoundedChannel(self.limits, self.door)

    def buildProtocol(self, addr):
        built = super().buildProtocol(addr)
        built.requestFactory = BoundedRequest
        return built


def door_for(server, *, limits, pace, max_open: Callable[[], int]) -> Door:
    """The factory daphne's ``server`` listens with."""
    http_factory = BoundedHTTPFactory(server, limits)
    door = Door(
        http_factory,
        pace=pace,
        open_per_address=limits.open_per_address,
        max_open=max_open,
        max_bodies_bytes=limits.max_bodies_bytes,
    )
    http_factory.door = door
    return door
