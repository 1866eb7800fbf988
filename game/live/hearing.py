"""Each server process hears a table's changes once, and hands them to its own connections.

The first connection to a table on an event loop joins the table's group with one
channel of the loop's own; the group message ("table changed", ``game.live.events``) is
received there once and handed to every connection to that table on the loop, in the
order the messages came, table by table (a slow redraw of one table holds up no other).
The last connection to leave takes the channel out of the group. Tables join and leave
independently; one table's join waits for its own leave before it. Only public channel
layer calls: ``new_channel``, ``group_add``, ``receive``, ``group_discard``, ``group_send``,
``send``.

While a loop hears tables it watches its layer (a message to a group nobody joined, every
``WATCH_S``): when the layer cannot be reached (Redis down) every connection is told
(``LIVE_STATUS``: the page says live updates are interrupted), and a connection that
opens meanwhile is served all the same. When the layer is back, the loop joins its tables'
groups again, waits until its own channel hears a message sent to it (the Redis client
subscribes again only at its next read, up to a second after a publish works: a redraw
before that would miss what is published meanwhile), has every connection redrawn from
the database (what was published during the outage is lost: Pub/Sub keeps nothing), tells
them the layer is back, and announces again the changes this process could not broadcast
(``events.unsent_tables``), for the other processes' connections.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from channels.layers import get_channel_layer

from game.live import events
from game.live.events import TABLE_CHANGED, table_group

logger = logging.getLogger(__name__)
Handler = Callable[[dict], Awaitable[None]]
LIVE_STATUS = "live.status"  # {"type": LIVE_STATUS, "up": bool}: the layer lost or back
WATCH_S = 1.0  # how often a loop that hears tables checks its layer
WATCH_TIMEOUT_S = 2.0  # a check that takes longer counts as a failure (Redis paused)
HEALTH_GROUP = "live-health"  # joined by nobody: a message there is one PUBLISH
PROBE = "live.probe"  # {"type": PROBE, "probe": id}: sent to the loop's own channel
PROBE_TIMEOUT_S = 2.0  # not heard by then: the layer is not back yet


@dataclass
class _Table:
    """A table heard on a loop: its connections' handlers, and its join of the group."""

    handlers: dict[object, Handler]
    joined: asyncio.Future | None = None


@dataclass
class _Hearing:
    """What one event loop hears: its channel, and the tables it hears."""

    layer: object
    opening: asyncio.Future | None = None  # the loop's channel, once made
    reader: asyncio.Task | None = None
    tables: dict[int, _Table] = field(default_factory=dict)
    leaving: dict[int, asyncio.Future] = field(default_factory=dict)  # a group being left
    # by table, the delivery of its last message: the next waits for it (their order)
    last: dict[int, asyncio.Task] = field(default_factory=dict)
    up: bool = True  # the layer answered its last check
    watcher: asyncio.Task | None = None
    probes: dict[str, asyncio.Future] = field(default_factory=dict)  # by id, until heard


def layer_up() -> bool:
    """Whether this loop's layer answered its last check (True on a loop that hears
    nothing)."""
    hearing = events.LINK.hearings.get(asyncio.get_running_loop())
    return hearing is None or hearing.up


def _hearing() -> _Hearing:
    loop = asyncio.get_running_loop()
    hearing = events.LINK.hearings.get(loop)
    if hearing is None:
        hearing = events.LINK.hearings[loop] = _Hearing(get_channel_layer())
    return hearing


async def join(table_id: int, key: object, handler: Handler) -> None:
    """From now on ``handler`` hears every change of the table (``key``: whose it is)."""
    hearing = _hearing()
    table = hearing.tables.get(table_id)
    if table is None:
        table = hearing.tables[table_id] = _Table({})
        table.joined = asyncio.ensure_future(_join_group(hearing, table_id, table))
    table.handlers[key] = handler
    if hearing.watcher is None:
        hearing.watcher = asyncio.ensure_future(_watch(hearing))
    await asyncio.shield(table.joined)


async def _join_group(hearing: _Hearing, table_id: int, table: _Table) -> None:
    try:
        leaving = hearing.leaving.get(table_id)
        if leaving is not None:  # the table's last connection here is leaving the group
            await leaving
        await hearing.layer.group_add(table_group(table_id), await _channel(hearing))
    except asyncio.CancelledError:
        if hearing.tables.get(table_id) is table:
            del hearing.tables[table_id]
        raise
    except Exception as error:
        # the layer cannot be reached: the connection is served all the same, and the
        # watch joins the group again once the layer is back
        _lost(hearing, error)


async def _channel(hearing: _Hearing) -> str:
    if hearing.opening is None:
        hearing.opening = asyncio.ensure_future(_open(hearing))
    try:
        return await asyncio.shield(hearing.opening)
    except Exception:
        hearing.opening = None  # asked again at the next join or when the layer is back
        raise


async def _open(hearing: _Hearing) -> str:
    channel = await hearing.layer.new_channel()
    hearing.reader = asyncio.create_task(_read(hearing, channel))
    return channel


async def leave(table_id: int, key: object) -> None:
    """``key``'s handler hears the table no more; the last one out leaves the group."""
    hearing = _hearing()
    table = hearing.tables.get(table_id)
    if table is None or table.handlers.pop(key, None) is None or table.handlers:
        return
    del hearing.tables[table_id]
    left = hearing.leaving[table_id] = asyncio.get_running_loop().create_future()
    try:
        with contextlib.suppress(Exception):
            await asyncio.shield(table.joined)
        joined = table.joined
        if joined.done() and not joined.cancelled() and joined.exception() is None:
            with contextlib.suppress(Exception):  # a layer that is down forgets it anyway
                channel = await asyncio.shield(hearing.opening)
                await hearing.layer.group_discard(table_group(table_id), channel)
    finally:
        left.set_result(None)
        if hearing.leaving.get(table_id) is left:
            del hearing.leaving[table_id]
        if not hearing.tables and not hearing.leaving:
            if hearing.reader is not None:
                hearing.reader.cancel()  # nothing more to hear on this loop
                hearing.reader = hearing.opening = None
            if hearing.watcher is not None:
                hearing.watcher.cancel()
                hearing.watcher = None


async def _read(hearing: _Hearing, channel: str) -> None:
    while True:
        message = await hearing.layer.receive(channel)
        if message.get("type") == PROBE:
            heard = hearing.probes.get(message.get("probe"))
            if heard is not None and not heard.done():
                heard.set_result(None)
            continue
        table_id = message.get("table")
        table = hearing.tables.get(table_id)
        if table is not None:
            _hand_over(hearing, table_id, message)


def _hand_over(hearing: _Hearing, table_id: int, message: dict) -> None:
    """Deliver ``message`` to the table's connections on this loop, after its last one."""
    table = hearing.tables.get(table_id)
    handlers = [] if table is None else list(table.handlers.values())
    if not handlers:
        return
    before = hearing.last.get(table_id)
    delivery = asyncio.create_task(_deliver(before, handlers, message))
    hearing.last[table_id] = delivery
    delivery.add_done_callback(lambda done, t=table_id: _finished(hearing, t, done))


async def _deliver(before: asyncio.Task | None, handlers: list[Handler], message: dict) -> None:
    if before is not None:
        await asyncio.wait([before])
    for result in await asyncio.gather(*(h(message) for h in handlers), return_exceptions=True):
        if isinstance(result, Exception):
            logger.error("a connection's redraw failed", exc_info=result)


def _finished(hearing: _Hearing, table_id: int, done: asyncio.Task) -> None:
    if hearing.last.get(table_id) is done:
        del hearing.last[table_id]


async def _watch(hearing: _Hearing) -> None:
    """Check the layer every WATCH_S while the loop hears tables; tell every connection
    when it is lost, and bring them up to date when it is back."""
    while True:
        await asyncio.sleep(WATCH_S)
        try:
            await asyncio.wait_for(
                hearing.layer.group_send(HEALTH_GROUP, {"type": "health"}), WATCH_TIMEOUT_S
            )
        except Exception as error:
            _lost(hearing, error)
            continue
        if not hearing.up:
            try:
                await _recover(hearing)
            except Exception as error:
                _lost(hearing, error)


def _lost(hearing: _Hearing, error: Exception) -> None:
    if not hearing.up:
        return
    hearing.up = False
    logger.error("the channel layer is unreachable: live updates interrupted (%s)", error)
    _tell_all(hearing, {"type": LIVE_STATUS, "up": False})


async def _recover(hearing: _Hearing) -> None:
    """The layer answers again: join every table's group again, redraw every connection
    from the database, and announce what this process could not broadcast."""
    channel = await _channel(hearing)
    for table_id in list(hearing.tables):
        await hearing.layer.group_add(table_group(table_id), channel)
    await _hears(hearing, channel)
    hearing.up = True
    logger.warning("the channel layer is back: redrawing %d tables", len(hearing.tables))
    for table_id in list(hearing.tables):
        # no version and no move: every redraw reads the table as it now stands
        _hand_over(hearing, table_id, {"type": TABLE_CHANGED, "table": table_id})
    _tell_all(hearing, {"type": LIVE_STATUS, "up": True})
    for table_id in events.unsent_tables():
        await hearing.layer.group_send(
            table_group(table_id), {"type": TABLE_CHANGED, "table": table_id}
        )


async def _hears(hearing: _Hearing, channel: str) -> None:
    """Return once the loop's channel hears a message sent to it (its groups, subscribed
    on the same connection, are then heard too); raise if not within PROBE_TIMEOUT_S."""
    probe = uuid.uuid4().hex
    heard = hearing.probes[probe] = asyncio.get_running_loop().create_future()
    try:
        await hearing.layer.send(channel, {"type": PROBE, "probe": probe})
        await asyncio.wait_for(heard, PROBE_TIMEOUT_S)
    finally:
        del hearing.probes[probe]


def _tell_all(hearing: _Hearing, message: dict) -> None:
    for table_id in list(hearing.tables):
        _hand_over(hearing, table_id, {**message, "table": table_id})
