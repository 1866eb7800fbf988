"""Broadcasts after a commit: from a thread that serves no event loop, one loop of the
process's own sends them, in order."""

import threading

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from game import events


def test_broadcasts_from_threads_without_a_loop_arrive_in_order_through_one_loop():
    layer = get_channel_layer()
    group = events.table_group(987_654)
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(group, channel)
    loops = []

    def send(n: int) -> None:  # as the bots' timetable does, in a thread of its own
        events._broadcast(layer, group, {"type": events.TABLE_CHANGED, "n": n})
        loops.append(events._sending_loop())

    for n in range(3):
        sender = threading.Thread(target=send, args=(n,))
        sender.start()
        sender.join()

    heard = [async_to_sync(layer.receive)(channel)["n"] for _ in range(3)]
    assert heard == [0, 1, 2]
    assert len(set(map(id, loops))) == 1 and loops[0].is_running()
    async_to_sync(layer.group_discard)(group, channel)
