"""What a stored change tells the rest of the site, once its transaction commits.

A leaf: services announce here, and this module imports none of the game's own. After the
commit every connection to the table hears "table changed" (the message carries no hand:
each re-renders from its own seat's view; after a plain move it carries that move as every
seat saw it played, so that another server advances the match it keeps instead of reading
the table), and every listener registered at start (the bots' timetable, ``game.apps``)
hears who is to act. A listener never reaches back into the code that announced, so
nothing here can form an import cycle.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
import threading
import weakref
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from enum import Enum
from typing import NamedTuple

from channels.layers import get_channel_layer
from django.db import transaction

from smearsite.kernel.ratelimit import SharedBuckets

TABLE_CHANGED = "table.changed"
TABLE_CHAT = "table.chat"  # a line said at the table, or its chat turned on or off
logger = logging.getLogger(__name__)
SEND_TIMEOUT_S = 5.0  # a thread waits no longer for a broadcast (a Redis that hangs)
# per session (all its sockets together): a burst of this many messages, refilled at
# RATE_PER_S (``game.live.consumers``)
BURST = 8
RATE_PER_S = 4.0


class Next(Enum):
    """Who is to act once a change is stored."""

    NOBODY = "nobody"  # a lobby, a finished match, a table that is gone
    BOT = "bot"  # a bot's seat, or a person's that a bot stands in for while they are away
    PERSON = "person"  # a person who is here


class PublicMove(NamedTuple):
    """A move as every seat saw it made: what the record says of it, and where. Only a
    plain one is announced so (no deal after it, the match goes on, the seats as they
    were): the other processes' redraws advance the table they keep by it, and read the
    table when they cannot (a gap in the versions, a deal, a seat changed)."""

    before: int  # the table's version (``Table.moves``) the move was made at
    round: int
    index: int  # the number of actions before it in its round
    seat: int
    code: str  # the record's code of the bid, pass or card: public once made
    away: tuple[bool, ...]  # by seat number: whose seat a bot stands in for, after it

    @classmethod
    def heard(cls, value) -> PublicMove | None:
        """The move a group message carried (the layer sends tuples as lists), or None."""
        if not value:
            return None
        before, round_, index, seat, code, away = value
        return cls(before, round_, index, seat, code, tuple(away))


@dataclass(frozen=True)
class TableChanged:
    """Something about the table was stored: its seats, its moves, its status."""

    table_id: int
    next: Next = Next.NOBODY
    # the table's version (``Table.moves``) a stored move made: in the process that stored
    # it the table's store holds the rows it left, so a redraw there reads nothing. Never
    # cards: each connection renders its own seat's view.
    version: int | None = None
    move: PublicMove | None = None  # a plain move, for the other processes' redraws


@dataclass(frozen=True)
class TableOpened:
    """Someone opened the table's page or connected to it; nothing was stored. After a
    server restart nothing else would remind the bots whose turn it is."""

    table_id: int


Listener = Callable[[TableChanged | TableOpened], None]


@dataclass(eq=False)
class Link:
    """This process's link between its connections and the channel layer: the second of
    the live layer's three places of state (README, "One owner per table"). Everything a
    process keeps about hearing and telling, and nothing about any one table's play."""

    listeners: list[Listener] = field(default_factory=list)  # registered at start
    # tables whose change could not be broadcast (the layer was down): announced again,
    # read afresh, once the layer is back (``game.live.hearing``)
    unsent: set[int] = field(default_factory=set)
    connections: tuple[int, asyncio.AbstractEventLoop] | None = None  # (pid, sockets' loop)
    sender: tuple[int, asyncio.AbstractEventLoop] | None = None  # (pid, a loop of its own)
    # by event loop, what it hears (``game.live.hearing``): its channel, its tables
    hearings: weakref.WeakKeyDictionary = field(default_factory=weakref.WeakKeyDictionary)
    # per session, its sockets' one message budget (``game.live.consumers``)
    budgets: SharedBuckets = field(default_factory=lambda: SharedBuckets(BURST, RATE_PER_S))
    lock: threading.Lock = field(default_factory=threading.Lock)  # for unsent and sender


LINK = Link()


def listen(listener: Listener) -> None:
    if listener not in LINK.listeners:
        LINK.listeners.append(listener)


def unlisten(listener: Listener) -> None:
    if listener in LINK.listeners:
        LINK.listeners.remove(listener)


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def table_opened(*, table_id: int) -> None:
    for listener in LINK.listeners:
        listener(TableOpened(table_id))


def announce(change: TableChanged) -> None:
    """Once the current transaction commits (at once outside one): broadcast, then tell
    the listeners. A rolled-back change announces nothing."""
    transaction.on_commit(lambda: _deliver(change))


def _deliver(change: TableChanged) -> None:
    layer = get_channel_layer()
    if layer is not None:
        move = None if change.move is None else list(change.move)
        message = {
            "type": TABLE_CHANGED,
            "table": change.table_id,
            "version": change.version,
            "move": move,
        }
        _broadcast(layer, table_group(change.table_id), message)
    # the listeners hear it even when the broadcast failed: the bots keep time
    for listener in LINK.listeners:
        listener(change)


def unsent_tables() -> list[int]:
    """The tables whose changes this process could not broadcast since it last asked."""
    with LINK.lock:
        tables = sorted(LINK.unsent)
        LINK.unsent.clear()
    return tables


def _not_sent(group_message: dict, error: BaseException) -> None:
    table_id = group_message.get("table")
    if isinstance(table_id, int):
        with LINK.lock:
            LINK.unsent.add(table_id)
    logger.error("a table's change was not broadcast: %s", error)


def chat_said(*, table_id: int, line: dict) -> None:
    """A chat line was stored (call it once committed): every connection to the table
    hears it, and each shows it only if its room may read it (``game.live.consumers``)."""
    _chat(table_id, {"line": line})


def chat_switched(*, table_id: int, on: bool) -> None:
    _chat(table_id, {"on": on})


def _chat(table_id: int, fields: dict) -> None:
    layer = get_channel_layer()
    if layer is not None:
        message = {"type": TABLE_CHAT, "table": table_id, **fields}
        _broadcast(layer, table_group(table_id), message)


def _broadcast(layer, group: str, message: dict) -> None:
    """Send ``message`` to ``group``. From a thread that runs for a server's event loop
    (``database_sync_to_async``: a socket's move) the loop sends it and this thread goes
    on at once: it is the process's one database thread, and would otherwise sit through
    a hop to the loop and a Redis round trip per move. Sends keep their order: the loop
    starts them in the order they were handed over."""
    loop = _loop_served()
    if loop is None:
        # any other thread (the bots' timetable): the loop the connections live on sends
        # it (an in-memory layer's queues wake only their own loop), else a loop of this
        # process's own; the thread waits, as it would through async_to_sync, which would
        # start a loop and a thread, and the layer a connection to Redis, for every send
        sender = _connections_loop() or _sending_loop()
        try:
            sending = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), sender)
            sending.result(timeout=SEND_TIMEOUT_S)
        except Exception as error:
            _not_sent(message, error)
        return
    sent = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop)
    sent.add_done_callback(lambda done: _log_failure(message, done))


# The event loop whose socket handed the current work to the database thread: set on the
# loop by the socket's consumer, and carried into that thread with the context, as
# ``sync_to_async`` carries every context variable.
_served_loop: ContextVar[asyncio.AbstractEventLoop | None] = ContextVar("served", default=None)


def connections_live_on(loop: asyncio.AbstractEventLoop) -> None:
    """A connection joined its table's group on ``loop`` (the server's event loop), and
    runs its handlers there: the broadcasts of threads that serve no loop are sent from
    it, and those of the work this connection hands to the database thread are handed
    back to it (the context this is called in is that connection's)."""
    LINK.connections = (os.getpid(), loop)
    _served_loop.set(loop)


def _connections_loop() -> asyncio.AbstractEventLoop | None:
    connections = LINK.connections
    if connections is None or connections[0] != os.getpid():
        return None
    loop = connections[1]
    try:
        here = asyncio.get_running_loop()
    except RuntimeError:
        here = None
    # never the loop of this very thread (a test's sync code run inside it): it could not
    # send while this thread waits for it
    return loop if loop.is_running() and loop is not here else None


def _sending_loop() -> asyncio.AbstractEventLoop:
    """An event loop of this process's own, run by a daemon thread started on first use
    (afresh in a forked child), for the broadcasts of threads that serve no loop."""
    with LINK.lock:
        if LINK.sender is None or LINK.sender[0] != os.getpid():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="broadcasts", daemon=True).start()
            LINK.sender = (os.getpid(), loop)
        return LINK.sender[1]


def _loop_served() -> asyncio.AbstractEventLoop | None:
    """The running event loop whose socket handed this work over, if any (a connection's
    handlers set it: ``connections_live_on``)."""
    loop = _served_loop.get()
    return loop if loop is not None and loop.is_running() else None


def _log_failure(message: dict, sent: concurrent.futures.Future) -> None:
    if not sent.cancelled() and sent.exception() is not None:
        _not_sent(message, sent.exception())
