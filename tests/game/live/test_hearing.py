"""A process hears a table's group once per event loop and hands every change to each of
its connections to that table, in order; a table left and joined again is still heard."""

import asyncio

from channels.layers import get_channel_layer

from game.live import events, hearing
from game.live.events import TABLE_CHANGED, table_group


async def _until(condition, seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("not heard in time")


async def test_each_connection_hears_its_tables_changes_once_and_in_order():
    layer = get_channel_layer()
    heard: dict[str, list[int]] = {"a": [], "b": [], "c": []}

    def handler(name):
        async def hear(message: dict) -> None:
            await asyncio.sleep(0.01 if message["n"] == 1 else 0)  # the first is slow
            heard[name].append(message["n"])

        return hear

    async def send(table_id: int, n: int) -> None:
        message = {"type": TABLE_CHANGED, "table": table_id, "n": n}
        await layer.group_send(table_group(table_id), message)

    await hearing.join(910_001, "a", handler("a"))
    await hearing.join(910_001, "b", handler("b"))
    await hearing.join(910_002, "c", handler("c"))
    await send(910_001, 1)
    await send(910_001, 2)
    await send(910_002, 3)
    await _until(lambda: len(heard["a"]) == 2 and len(heard["b"]) == 2 and heard["c"])

    assert heard == {"a": [1, 2], "b": [1, 2], "c": [3]}  # in order, each once

    await hearing.leave(910_001, "a")
    await hearing.leave(910_001, "b")
    await hearing.join(910_001, "a", handler("a"))  # a reconnect, at once
    await send(910_001, 4)
    await _until(lambda: heard["a"][-1] == 4)
    await hearing.leave(910_001, "a")
    await hearing.leave(910_002, "c")

    here = events.LINK.hearings[asyncio.get_running_loop()]
    assert not here.tables and here.reader is None  # nothing left to hear: the reader stops


class _FlakyLayer:
    """The in-memory layer, but every call fails while ``down`` (Redis unreachable), and
    what is sent is lost while ``deaf`` (Redis back, its subscriptions not yet)."""

    def __init__(self) -> None:
        from channels.layers import InMemoryChannelLayer

        self.inner = InMemoryChannelLayer()
        self.down = False
        self.deaf = False

    def __getattr__(self, name):
        call = getattr(self.inner, name)

        async def maybe(*args, **kwargs):
            if self.down:
                raise ConnectionError("Redis is down")
            if self.deaf and name in ("send", "group_send"):
                return None
            return await call(*args, **kwargs)

        return maybe


async def test_a_lost_layer_is_told_to_every_connection_and_its_return_redraws_them(monkeypatch):
    layer = _FlakyLayer()
    monkeypatch.setattr(hearing, "get_channel_layer", lambda: layer)
    monkeypatch.setattr(hearing, "WATCH_S", 0.02)
    heard: list[dict] = []

    async def hear(message: dict) -> None:
        heard.append(message)

    layer.down = True  # a connection opened during the outage is served all the same
    await hearing.join(910_003, "a", hear)
    await _until(lambda: heard)
    assert heard == [{"type": hearing.LIVE_STATUS, "up": False, "table": 910_003}]
    assert not hearing.layer_up()

    layer.down = False
    await _until(lambda: len(heard) == 3)
    await layer.inner.group_send(table_group(910_003), {"type": TABLE_CHANGED, "table": 910_003})
    await _until(lambda: len(heard) == 4)
    await hearing.leave(910_003, "a")

    # the return: a redraw read afresh (no version), then the notice's end; then the
    # group was joined again: what is sent to it is heard
    assert heard[1] == {"type": TABLE_CHANGED, "table": 910_003}
    assert heard[2] == {"type": hearing.LIVE_STATUS, "up": True, "table": 910_003}
    assert heard[3]["type"] == TABLE_CHANGED


async def test_the_return_waits_until_the_loop_hears_its_groups_again(monkeypatch):
    layer = _FlakyLayer()
    monkeypatch.setattr(hearing, "get_channel_layer", lambda: layer)
    monkeypatch.setattr(hearing, "WATCH_S", 0.02)
    monkeypatch.setattr(hearing, "PROBE_TIMEOUT_S", 0.05)
    heard: list[dict] = []

    async def hear(message: dict) -> None:
        heard.append(message)

    layer.down = True
    await hearing.join(910_004, "a", hear)
    await _until(lambda: heard)
    layer.down, layer.deaf = False, True  # a publish works, nothing is heard yet
    await asyncio.sleep(0.3)  # several checks of the layer, each one's probe unheard

    assert len(heard) == 1 and not hearing.layer_up()  # no redraw that would miss a change

    layer.deaf = False
    await _until(lambda: len(heard) == 3)
    await hearing.leave(910_004, "a")

    assert heard[1] == {"type": TABLE_CHANGED, "table": 910_004}
    assert heard[2] == {"type": hearing.LIVE_STATUS, "up": True, "table": 910_004}
