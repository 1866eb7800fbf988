"""Each server process hears a table's changes once, and hands them to its own connections.

The first connection to a table on an event loop joins the table's group with one
channel of the loop's own; the group message ("table changed", ``game.live.events``) is
received there once and handed to every connection to that table on the loop, in the
order the messages came, table by table (a slow redraw of one table holds up no other).
The last connection to leave takes the channel out of the group. Tables join and leave
independently; one table's join waits for its own leave before it. Only public channel
layer calls: ``new_channel``, ``group_add``, ``receive``, ``group_discard``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from channels.layers import get_channel_layer

from game.live.events import table_group

logger = logging.getLogger(__name__)
Handler = Callable[[dict], Awaitable[None]]


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


_by_loop: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _hearing() -> _Hearing:
    loop = asyncio.get_running_loop()
    hearing = _by_loop.get(loop)
    if hearing is None:
        hearing = _by_loop[loop] = _Hearing(get_channel_layer())
    return hearing


async def join(table_id: int, key: object, handler: Handler) -> None:
    """From now on ``handler`` hears every change of the table (``key``: whose it is)."""
    hearing = _hearing()
    table = hearing.tables.get(table_id)
    if table is None:
        table = hearing.tables[table_id] = _Table({})
        table.joined = asyncio.ensure_future(_join_group(hearing, table_id, table))
    table.handlers[key] = handler
    await asyncio.shield(table.joined)


async def _join_group(hearing: _Hearing, table_id: int, table: _Table) -> None:
    try:
        leaving = hearing.leaving.get(table_id)
        if leaving is not None:  # the table's last connection here is leaving the group
            await leaving
        await hearing.layer.group_add(table_group(table_id), await _channel(hearing))
    except BaseException:
        if hearing.tables.get(table_id) is table:
            del hearing.tables[table_id]
        raise


async def _channel(hearing: _Hearing) -> str:
    if hearing.opening is None:
        hearing.opening = asyncio.ensure_future(_open(hearing))
    return await asyncio.shield(hearing.opening)


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
            channel = await asyncio.shield(hearing.opening)
            await hearing.layer.group_discard(table_group(table_id), channel)
    finally:
        left.set_result(None)
        if hearing.leaving.get(table_id) is left:
            del hearing.leaving[table_id]
        if not hearing.tables and not hearing.leaving and hearing.reader is not None:
            hearing.reader.cancel()  # nothing more to hear on this loop
            hearing.reader = hearing.opening = None


async def _read(hearing: _Hearing, channel: str) -> None:
    while True:
        message = await hearing.layer.receive(channel)
        table_id = message.get("table")
        table = hearing.tables.get(table_id)
        handlers = [] if table is None else list(table.handlers.values())
        if not handlers:
            continue
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
