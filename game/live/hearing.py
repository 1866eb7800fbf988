"""Each server process hears a table's changes once, and hands them to its own connections.

The first connection to a table on an event loop joins the table's group with one
channel of the loop's own; the group message ("table changed", ``game.live.events``) is
received there once and handed to every connection to that table on the loop, in the
order the messages came, table by table (a slow redraw of one table holds up no other).
The last connection to leave takes the channel out of the group. Only public channel
layer calls: ``new_channel``, ``group_add``, ``receive``, ``group_discard``.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from channels.layers import get_channel_layer

from game.live.events import table_group

logger = logging.getLogger(__name__)
Handler = Callable[[dict], Awaitable[None]]


@dataclass
class _Hearing:
    """What one event loop hears: its channel, and by table the handlers of its connections."""

    layer: object
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # joins and leaves in turn
    channel: str | None = None
    reader: asyncio.Task | None = None
    tables: dict[int, dict[object, Handler]] = field(default_factory=dict)
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
    async with hearing.lock:
        members = hearing.tables.get(table_id)
        if members is None:
            if hearing.channel is None:
                hearing.channel = await hearing.layer.new_channel()
                hearing.reader = asyncio.create_task(_read(hearing, hearing.channel))
            await hearing.layer.group_add(table_group(table_id), hearing.channel)
            members = hearing.tables[table_id] = {}
        members[key] = handler


async def leave(table_id: int, key: object) -> None:
    """``key``'s handler hears the table no more; the last one out leaves the group."""
    hearing = _hearing()
    async with hearing.lock:
        members = hearing.tables.get(table_id)
        if members is None or members.pop(key, None) is None or members:
            return
        del hearing.tables[table_id]
        await hearing.layer.group_discard(table_group(table_id), hearing.channel)
        if not hearing.tables:  # nothing more to hear on this loop
            hearing.reader.cancel()
            hearing.channel = hearing.reader = None


async def _read(hearing: _Hearing, channel: str) -> None:
    while True:
        message = await hearing.layer.receive(channel)
        table_id = message.get("table")
        handlers = list(hearing.tables.get(table_id, {}).values())
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
