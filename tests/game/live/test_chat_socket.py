"""The chat over the table's websocket: a line reaches every page whose room may read it,
as inert text; the spectators' room never reaches a player; a refusal comes back in words."""

import json

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from game.models import ChatLine, Seat, Table
from game.players.identity import GUEST_TOKEN
from tests.game.live.test_consumers import GREEDY_4, connected, drain

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("release_sync_thread_connections", "isolated_cache"),
]


def _table_of_two_guests_and_a_spectator() -> tuple[Table, str, str, str]:
    first = Client()
    response = first.post("/play/", GREEDY_4)
    table = Table.objects.get(code=response.url.rstrip("/").rsplit("/", 1)[-1])
    second = Client()
    session = second.session
    session[GUEST_TOKEN] = f"bea-{table.pk}"
    session.save()
    Seat.objects.filter(table=table, number=2).update(
        bot_level=None, session_key=session[GUEST_TOKEN], display_name="Bea"
    )
    rail = Client()
    watcher = rail.session
    watcher[GUEST_TOKEN] = f"rail-{table.pk}"
    watcher.save()
    return (
        table,
        first.cookies["sessionid"].value,
        session.session_key,
        watcher.session_key,
    )


async def test_a_line_reaches_players_and_spectators_and_the_rail_stays_apart():
    table, first_key, bea_key, rail_key = await sync_to_async(
        _table_of_two_guests_and_a_spectator
    )()
    first = await connected(table.code, first_key)
    bea = await connected(table.code, bea_key)
    rail = await connected(table.code, rail_key)
    try:
        for socket in (first, bea, rail):
            await drain(socket)

        await bea.send_to(text_data=json.dumps({"chat": "<img src=x onerror=alert(1)> hi"}))
        heard = [" ".join(await drain(socket)) for socket in (first, bea, rail)]
        for messages in heard:
            assert "&lt;img src=x onerror=alert(1)&gt; hi" in messages
            assert "<img" not in messages
            assert 'data-append-to="chat-lines"' in messages

        await rail.send_to(text_data=json.dumps({"say": "wow"}))
        at_table = " ".join(await drain(first)) + " ".join(await drain(bea))
        on_rail = " ".join(await drain(rail))
        assert "😮" in on_rail and "(watching)" in on_rail
        assert "😮" not in at_table
        rooms = await sync_to_async(
            lambda: list(ChatLine.objects.order_by("pk").values_list("room", flat=True))
        )()
        assert rooms == ["players", "spectators"]
    finally:
        for socket in (first, bea, rail):
            await socket.disconnect()


async def test_a_refused_line_comes_back_in_words_and_nothing_is_stored():
    table, first_key, bea_key, _ = await sync_to_async(_table_of_two_guests_and_a_spectator)()
    bea = await connected(table.code, bea_key)
    try:
        await drain(bea)
        await bea.send_to(text_data=json.dumps({"chat": "x" * 201}))
        reply = " ".join(await drain(bea))
        assert 'id="chat-error"' in reply and "too long" in reply
        await bea.send_to(text_data=json.dumps({"chat": {"not": "text"}}))
        assert "in words" in " ".join(await drain(bea))
        assert not await sync_to_async(ChatLine.objects.exists)()
    finally:
        await bea.disconnect()
