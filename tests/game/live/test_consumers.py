"""The table's websocket: moves in, the table as each seat sees it out, bad messages
refused, and no message ever carrying a card its seat may not see."""

import json
import random
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from game.engine.cards import card_code, cards_of
from game.engine.rules import action_code
from game.live import consumers, events, redraw, store
from game.models import ActionLog, Seat, Table
from game.players.identity import GUEST_TOKEN
from game.services import play
from smearsite.asgi import application
from smearsite.guards import websockets

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("release_sync_thread_connections"),
]

ORIGIN = (b"origin", b"http://localhost")
TIMEOUT = 10  # generous: each message replays the table from the database
CARD_ATTR = re.compile(r'(?:data-card|value)="([0-9JQKA]{1,2}[SHDC]|J[12])"')
GREEDY_4 = {
    "players": "4",
    "layout": "2v2",
    "bot_1": "greedy",
    "bot_2": "greedy",
    "bot_3": "greedy",
}


def _guest_with_table() -> tuple[Table, str]:
    client = Client()
    response = client.post("/play/", GREEDY_4)
    table = Table.objects.get(code=response.url.rstrip("/").rsplit("/", 1)[-1])
    return table, client.cookies["sessionid"].value


def _second_guest_in_seat(table: Table, seat: int) -> str:
    """Put another guest in a bot's seat; their session cookie."""
    client = Client()
    session = client.session
    session[GUEST_TOKEN] = f"second-guest-{table.pk}"
    session.save()
    Seat.objects.filter(table=table, number=seat).update(
        bot_level=None, session_key=session[GUEST_TOKEN], display_name="Second guest"
    )
    return session.session_key


def _truth(table_id: int):
    return store.match_for_table(Table.objects.get(pk=table_id))


def _actions_stored(table_id: int) -> int:
    return ActionLog.objects.filter(table_id=table_id).count()


def connection(code: str, session_key: str | None = None, origin=ORIGIN):
    headers = [origin]
    if session_key:
        headers.append((b"cookie", f"sessionid={session_key}".encode()))
    return WebsocketCommunicator(application, f"/ws/table/{code}/", headers=headers)


async def connected(code: str, session_key: str | None = None) -> WebsocketCommunicator:
    communicator = connection(code, session_key)
    ok, _ = await communicator.connect(timeout=TIMEOUT)
    assert ok
    return communicator


async def drain(communicator: WebsocketCommunicator) -> list[str]:
    messages = []
    while not await communicator.receive_nothing(timeout=0.3):
        messages.append(await communicator.receive_from(timeout=TIMEOUT))
    return messages


async def test_a_seated_guest_gets_the_table_as_their_seat_sees_it_on_connect():
    table, session = await sync_to_async(_guest_with_table)()
    match = await sync_to_async(_truth)(table.pk)
    hand = {card_code(c) for c in cards_of(match.round.hands[0])}

    socket = await connected(table.code, session)
    try:
        first = await socket.receive_from(timeout=TIMEOUT)
        assert first.lstrip().startswith('<section id="table"')
        assert hand <= set(CARD_ATTR.findall(first))
    finally:
        await socket.disconnect()


async def test_a_move_over_the_socket_is_stored_and_every_seat_hears_of_it():
    table, first_session = await sync_to_async(_guest_with_table)()
    second_session = await sync_to_async(_second_guest_in_seat)(table, 2)
    first = await connected(table.code, first_session)
    second = await connected(table.code, second_session)
    try:
        await drain(first), await drain(second)
        match = await sync_to_async(_truth)(table.pk)
        assert match.current_player() == 0  # the bots moved when the table was made
        before = await sync_to_async(_actions_stored)(table.pk)
        action = action_code(match.legal_actions()[0])

        await first.send_to(
            text_data=json.dumps({"action": action, "index": len(match.round.history)})
        )

        heard_by_first, heard_by_second = await drain(first), await drain(second)
        assert heard_by_first and heard_by_second
        assert await sync_to_async(_actions_stored)(table.pk) > before
        assert "Second guest" in heard_by_second[-1]
    finally:
        await first.disconnect()
        await second.disconnect()


@pytest.mark.parametrize(
    "message, reply",
    [
        ("not json", "not JSON"),
        ("[1, 2]", "not a JSON object"),
        ('{"index": 0}', "Say which bid"),
        ('{"action": "AS", "index": "x"}', "whole number"),
        ('{"action": "' + "A" * 600 + '"}', "too long"),
        ('{"action": "ZZ"}', "is not a bid, a pass or a card"),
        ('{"action": "pass", "index": 999}', "not your turn"),
    ],
)
async def test_a_bad_message_gets_an_error_reply_and_changes_nothing(message, reply):
    table, session = await sync_to_async(_guest_with_table)()
    socket = await connected(table.code, session)
    try:
        await drain(socket)
        before = await sync_to_async(_actions_stored)(table.pk)

        await socket.send_to(text_data=message)

        answer = await socket.receive_from(timeout=TIMEOUT)
        assert reply in answer and 'role="alert"' in answer
        assert await sync_to_async(_actions_stored)(table.pk) == before
    finally:
        await socket.disconnect()


async def test_a_flood_of_messages_is_slowed_down():
    table, session = await sync_to_async(_guest_with_table)()
    socket = await connected(table.code, session)
    try:
        await drain(socket)
        for _ in range(consumers.BURST + 4):
            await socket.send_to(text_data="{}")
        replies = await drain(socket)
        assert sum("Too many messages" in reply for reply in replies) >= 3
    finally:
        await socket.disconnect()


async def test_a_stranger_cannot_act_for_a_seat():
    table, _ = await sync_to_async(_guest_with_table)()
    stranger = connection(table.code)
    try:
        ok, code = await stranger.connect(timeout=TIMEOUT)
        if not ok:
            assert code == consumers.NOT_ALLOWED
            return
        # a spectator: sees no hand and may not move
        before = await sync_to_async(_actions_stored)(table.pk)
        await drain(stranger)
        await stranger.send_to(text_data='{"action": "pass"}')
        assert "no seat" in await stranger.receive_from(timeout=TIMEOUT)
        assert await sync_to_async(_actions_stored)(table.pk) == before
    finally:
        await stranger.disconnect()


async def test_an_unknown_table_or_a_foreign_origin_is_refused():
    table, session = await sync_to_async(_guest_with_table)()
    unknown = connection("NOSUCH", session)
    foreign = connection(table.code, session, origin=(b"origin", b"https://evil.example"))
    try:
        assert (await unknown.connect(timeout=TIMEOUT)) == (False, consumers.NOT_ALLOWED)
        ok, _ = await foreign.connect(timeout=TIMEOUT)
        assert not ok
    finally:
        await unknown.disconnect()
        await foreign.disconnect()


async def test_the_same_move_sent_twice_at_once_applies_once():
    table, session = await sync_to_async(_guest_with_table)()
    one, two = await connected(table.code, session), await connected(table.code, session)
    try:
        await drain(one), await drain(two)
        match = await sync_to_async(_truth)(table.pk)
        move = json.dumps(
            {"action": action_code(match.legal_actions()[0]), "index": len(match.round.history)}
        )
        before = await sync_to_async(_actions_stored)(table.pk)

        await one.send_to(text_data=move)
        await two.send_to(text_data=move)
        replies = await drain(one) + await drain(two)

        assert sum("not your turn" in reply for reply in replies) == 1
        # the move, then the greedy bots until it is the guest's turn again: one move of
        # the guest's is stored, not two
        guest_moves = await sync_to_async(
            lambda: ActionLog.objects.filter(table_id=table.pk, seat=0).count()
        )()
        assert guest_moves == 1 and await sync_to_async(_actions_stored)(table.pk) > before
    finally:
        await one.disconnect()
        await two.disconnect()


async def test_a_connection_that_drops_and_returns_resumes_where_the_table_is():
    table, session = await sync_to_async(_guest_with_table)()
    socket = await connected(table.code, session)
    await drain(socket)
    match = await sync_to_async(_truth)(table.pk)
    await socket.send_to(
        text_data=json.dumps(
            {"action": action_code(match.legal_actions()[0]), "index": len(match.round.history)}
        )
    )
    await drain(socket)
    await socket.disconnect()

    again = await connected(table.code, session)
    try:
        resumed = await again.receive_from(timeout=TIMEOUT)
        now = await sync_to_async(_truth)(table.pk)
        assert f'data-index="{len(now.round.history)}"' in resumed
    finally:
        await again.disconnect()


async def test_a_move_stored_while_a_connection_opens_still_reaches_it(monkeypatch):
    # the move lands after the table was read for the first message: the connection must
    # hear of it all the same, or it shows the table as it was until the next change
    table, session = await sync_to_async(_guest_with_table)()
    read = redraw.table_html
    moved = []

    def read_then_move(table_row: Table, owner) -> str:
        html = read(table_row, owner)
        if not moved:
            match = _truth(table_row.pk)
            action, index = action_code(match.legal_actions()[0]), len(match.round.history)
            play.table_play(table_id=table_row.pk, seat_owner=owner, action=action, index=index)
            moved.append(index)
        return html

    monkeypatch.setattr(redraw, "table_html", read_then_move)
    socket = await connected(table.code, session)
    try:
        messages = await drain(socket)
        now = await sync_to_async(_truth)(table.pk)  # the bots answered inside the move
        assert f'data-index="{moved[0]}"' in messages[0]
        assert f'data-index="{len(now.round.history)}"' in messages[-1]
    finally:
        await socket.disconnect()


def _allowed(table_id: int, seat: int) -> set[str]:
    """Every card ``seat`` may have seen by now: its own hands and every card played."""
    match = _truth(table_id)
    seen = set()
    for state in match.rounds:
        seen |= {card_code(c) for c in cards_of(state.deal.hands[seat])}
        seen |= {card_code(card) for _, card in state.view_for(seat).plays}
    return seen


async def test_no_message_to_any_seat_ever_holds_a_card_that_seat_may_not_see():
    """Two people and two bots play whole rounds over the socket; every message each
    person's connection receives is scanned for cards."""
    table, first_session = await sync_to_async(_guest_with_table)()
    second_session = await sync_to_async(_second_guest_in_seat)(table, 1)
    sockets = {
        0: await connected(table.code, first_session),
        1: await connected(table.code, second_session),
    }
    rng = random.Random(7)
    checked = 0
    try:
        for _ in range(200):
            for seat, socket in sockets.items():
                messages = await drain(socket)
                # after the messages: the table only moves on when this test sends a move
                allowed = await sync_to_async(_allowed)(table.pk, seat)
                for message in messages:
                    assert set(CARD_ATTR.findall(message)) <= allowed, f"seat {seat}"
                    checked += 1
            match = await sync_to_async(_truth)(table.pk)
            if match.is_terminal() or len(match.rounds) > 2:
                break
            to_act = match.current_player()
            if to_act not in sockets:
                # a bot that no move has woken yet
                await sync_to_async(_wake)(table.pk)
                continue
            action = action_code(rng.choice(match.legal_actions()))
            await sockets[to_act].send_to(
                text_data=json.dumps({"action": action, "index": len(match.round.history)})
            )
        assert len((await sync_to_async(_truth)(table.pk)).rounds) >= 2
        assert checked > 20
    finally:
        for socket in sockets.values():
            await socket.disconnect()


def _wake(table_id: int) -> None:
    events.table_opened(table_id=table_id)


async def test_one_session_opening_many_sockets_is_refused_past_its_cap_in_words(settings):
    table, session = await sync_to_async(_guest_with_table)()
    held = [await connected(table.code, session) for _ in range(settings.SMEAR_SOCKETS_PER_SESSION)]
    extra = connection(table.code, session)
    try:
        ok, _ = await extra.connect(timeout=TIMEOUT)
        assert ok  # accepted only to say why, then closed
        assert "too many live tables open" in await extra.receive_from(timeout=TIMEOUT)
        assert (await extra.receive_output(timeout=TIMEOUT))["code"] == websockets.TOO_MANY

        await held[0].disconnect()  # a closed tab makes room again
        again = await connected(table.code, session)
        assert (await again.receive_from(timeout=TIMEOUT)).lstrip().startswith("<section")
        held[0] = again
    finally:
        for socket in held:
            await socket.disconnect()
        await extra.disconnect()


async def test_one_address_opening_many_sockets_is_refused_past_its_cap(settings):
    settings.SMEAR_SOCKETS_PER_ADDRESS = 3
    table, _ = await sync_to_async(_guest_with_table)()

    def from_address(session=None):
        socket = connection(table.code, session)
        socket.scope["client"] = ["203.0.113.9", 5000]
        return socket

    held = []
    try:
        for _ in range(3):  # spectators without a session: only the address counts them
            held.append(from_address())
            assert (await held[-1].connect(timeout=TIMEOUT))[0]
        extra = from_address()
        held.append(extra)
        await extra.connect(timeout=TIMEOUT)
        assert "too many live tables open" in await extra.receive_from(timeout=TIMEOUT)
    finally:
        for socket in held:
            await socket.disconnect()


async def test_more_sockets_of_one_session_do_not_buy_more_messages():
    table, session = await sync_to_async(_guest_with_table)()
    sockets = [await connected(table.code, session) for _ in range(4)]
    try:
        for socket in sockets:
            await drain(socket)
        for socket in sockets:
            for _ in range(consumers.BURST // 2):
                await socket.send_to(text_data="{}")
        replies = [reply for socket in sockets for reply in await drain(socket)]
        # 4 x BURST/2 = 2 x BURST messages: the session's one bucket refuses about half
        assert sum("Too many messages" in reply for reply in replies) >= consumers.BURST - 2
    finally:
        for socket in sockets:
            await socket.disconnect()


async def test_on_an_https_site_a_plain_http_origin_is_refused(settings):
    settings.HTTPS_ONLY = True
    table, session = await sync_to_async(_guest_with_table)()
    plain = connection(table.code, session, origin=(b"origin", b"http://localhost"))
    secure = connection(table.code, session, origin=(b"origin", b"https://localhost"))
    try:
        assert not (await plain.connect(timeout=TIMEOUT))[0]
        assert (await secure.connect(timeout=TIMEOUT))[0]
    finally:
        await plain.disconnect()
        await secure.disconnect()


VERSION = re.compile(r'<template id="live-version" data-version="(\d+)">')


async def test_the_heartbeat_brings_a_stale_page_the_table_and_says_whether_live_is_up():
    table, session = await sync_to_async(_guest_with_table)()
    socket = await connected(table.code, session)
    try:
        first = await socket.receive_from(timeout=TIMEOUT)
        version = int(VERSION.search(first).group(1))
        await drain(socket)

        await socket.send_to(text_data=json.dumps({"sync": version}))
        current = await drain(socket)
        # any other version is stale (a table the bots have not moved yet stands at 0)
        await socket.send_to(text_data=json.dumps({"sync": version + 1}))
        stale = await drain(socket)
    finally:
        await socket.disconnect()

    assert len(current) == 1 and current[0].startswith('<p id="live-notice"')
    assert " hidden>" in current[0]  # the layer is up: no notice shown
    assert stale[0].lstrip().startswith('<section id="table"')
    assert VERSION.search(stale[0]).group(1) == str(version)
    assert stale[-1].startswith('<p id="live-notice"')


async def test_a_page_that_shows_its_player_their_turn_starts_their_countdown():
    table, session = await sync_to_async(_guest_with_table)()
    socket = await connected(table.code, session)
    try:
        first = await socket.receive_from(timeout=TIMEOUT)
        version = int(VERSION.search(first).group(1))
        await socket.send_to(text_data=json.dumps({"shown": version}))
        await socket.send_to(text_data=json.dumps({"shown": "soon"}))
        refusal = await socket.receive_from(timeout=TIMEOUT)
    finally:
        await socket.disconnect()
    seat = await sync_to_async(Seat.objects.get)(table=table, number=0)

    assert seat.shown_version == version and seat.shown_at is not None
    assert seat.heard_at is not None
    assert "version is a whole number" in refusal
