"""Broadcasts after a commit: from a thread that serves no event loop, one loop of the
process's own sends them, in order."""

import asyncio

from channels.layers import get_channel_layer

from game import events


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
