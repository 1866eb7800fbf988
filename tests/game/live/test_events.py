"""Broadcasts after a commit: from a thread that serves no event loop, one loop of the
process's own sends them, in order."""

import asyncio
import threading
import time

from channels.layers import get_channel_layer

from game.live import events


def test_broadcasts_from_threads_without_a_loop_arrive_in_order_through_one_loop():
    layer = get_channel_layer()
    group = events.table_group(987_654)
    loops = []

    def send(n: int) -> None:  # as the bots' timetable does: a thread that serves no loop
        events._broadcast(layer, group, {"type": events.TABLE_CHANGED, "n": n})
        loops.append(events._sending_loop())

    async def listen() -> list[int]:
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        try:
            for n in range(3):
                await asyncio.to_thread(send, n)
            return [(await asyncio.wait_for(layer.receive(channel), 5))["n"] for _ in range(3)]
        finally:
            await layer.group_discard(group, channel)

    assert asyncio.run(listen()) == [0, 1, 2]
    assert len(set(map(id, loops))) == 1 and loops[0].is_running()


def test_a_bots_broadcast_wakes_a_connection_waiting_on_the_servers_loop():
    """The in-memory layer's queues wake only the loop that waits on them: a broadcast from
    the bots' thread must be sent from the connections' loop, or the socket hears nothing
    until something else happens to wake that loop (a table stood still at a bot's move)."""
    layer = get_channel_layer()
    group = events.table_group(987_655)

    async def listen() -> tuple[dict, float]:
        loop = asyncio.get_running_loop()
        events.connections_live_on(loop)  # as the table's consumer does on connecting
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        bot = threading.Thread(
            target=events._broadcast, args=(layer, group, {"type": events.TABLE_CHANGED})
        )
        began = time.monotonic()
        loop.call_later(0.05, bot.start)  # nothing else wakes the loop meanwhile
        try:
            message = await asyncio.wait_for(layer.receive(channel), 5)
            return message, time.monotonic() - began
        finally:
            await asyncio.to_thread(bot.join)  # it waits for this loop to send
            await layer.group_discard(group, channel)

    message, waited = asyncio.run(listen())
    assert message["type"] == events.TABLE_CHANGED
    assert waited < 2.5  # not woken only by the 5 s timeout


def test_a_listener_taken_off_hears_nothing_more(monkeypatch):
    monkeypatch.setattr(events.LINK, "listeners", [])  # this test's listener alone
    heard = []
    events.listen(heard.append)
    events.table_opened(table_id=1)
    events.unlisten(heard.append)
    events.table_opened(table_id=2)
    assert heard == [events.TableOpened(1)]
