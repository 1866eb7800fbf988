"""Every number a request carries is bounded in length before it is parsed: a forged one
gets a 400 with a clear message and changes nothing (Python refuses to parse more than
4,300 digits, which used to surface as a 500)."""

import json

import pytest
from channels.testing import WebsocketCommunicator

from game.engine.rules import action_code
from game.live.consumers import parse_move
from game.models import ActionLog
from smearsite.asgi import application
from tests.game.test_table_views import play_until_a_round_is_finished, start_table, truth

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("release_sync_thread_connections"),
]

HUGE = "9" * 4301
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.mark.parametrize("index", [HUGE, "²", "1" * 7])
def test_a_forged_move_index_is_a_400_with_a_clear_message(client, index):
    table = start_table(client)
    moves = ActionLog.objects.filter(table=table).count()
    action = truth(table).legal_actions()[0]

    response = client.post(
        f"/table/{table.code}/play", {"action": action_code(action), "index": index}
    )

    assert response.status_code == 400
    assert "whole number" in response.text
    assert ActionLog.objects.filter(table=table).count() == moves


@pytest.mark.parametrize("trick", ["5" * 5000, "³", "-1"])
def test_a_forged_trick_on_the_replay_page_is_a_400(client, trick):
    table = start_table(client)
    play_until_a_round_is_finished(client, table)

    response = client.get(f"/table/{table.code}/rounds/1/", {"trick": trick})

    assert response.status_code == 400
    assert "whole number" in response.text


@pytest.mark.parametrize("seat", ["²", HUGE])
def test_a_forged_seat_number_is_refused_in_words(client, django_user_model, seat):
    client.force_login(django_user_model.objects.create_user("host"))
    created = client.post("/tables/new", {"players": "4", "layout": "2v2", "target": "11"})
    code = created.url.rstrip("/").rsplit("/", 1)[-1]

    response = client.post(f"/table/{code}/lobby", {"do": "join", "seat": seat}, **HTMX)

    assert response.status_code == 200
    assert "pick a seat by its number" in response.text


@pytest.mark.parametrize(
    "index",
    ["9" * 400, "²", 10**9, -1],
    ids=["long-text", "superscript", "huge", "negative"],
)
def test_a_socket_move_with_a_forged_index_is_refused_in_words(index):
    message, problem = parse_move(json.dumps({"action": "AS", "index": index}))

    assert message == {} and "index" in problem


async def test_a_socket_move_of_a_huge_index_gets_a_refusal_and_keeps_the_connection():
    from asgiref.sync import sync_to_async
    from django.test import Client

    client = Client()
    table = await sync_to_async(start_table)(client)
    communicator = WebsocketCommunicator(
        application,
        f"/ws/table/{table.code}/",
        headers=[(b"origin", b"http://testserver"), (b"host", b"testserver")],
    )
    connected, _ = await communicator.connect()
    assert connected
    await communicator.receive_from(timeout=5)

    await communicator.send_to(text_data=json.dumps({"action": "AS", "index": "9" * 400}))
    refusal = await communicator.receive_from(timeout=5)

    assert "index" in refusal
    await communicator.disconnect()


@pytest.mark.parametrize("players", ["9" * 5000, "²", "123"])
def test_a_forged_table_size_on_the_leaderboard_is_a_400(client, players):
    response = client.get("/leaderboard/", {"players": players})

    assert response.status_code == 400
    assert "whole number" in response.text
