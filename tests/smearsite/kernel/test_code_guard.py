"""Codes are capabilities: guessing them is paced per address and per session, in words,
and the codes are long; codes made when they were short still work."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client

from game.models import Table
from game.players.identity import SeatOwner
from game.services import lobby
from scoresheet import ledger, services
from smearsite import kernel
from smearsite.asgi import application

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("isolated_cache"),
]

MISSES = 4


@pytest.fixture(autouse=True)
def few_misses(settings):
    settings.SMEAR_CODE_MISSES = MISSES


@pytest.fixture
def table(make_user):
    return lobby.table_create_lobby(host_user=make_user("host"), players=4, teams=[[0, 2], [1, 3]])


@pytest.fixture
def sheet(make_user):
    return services.sheet_create(
        owner=SeatOwner(user_id=make_user("sam").pk),
        sides=["Us", "Them"],
        rules=ledger.CLASSIC_FOUR_POINT,
    )


def guess(client: Client, n: int, **extra) -> int:
    return client.get(f"/table/ZZZZZZ{n:04d}/", **extra).status_code


def test_an_address_that_keeps_missing_codes_is_told_to_wait_and_others_are_not(table):
    guesser = Client(REMOTE_ADDR="198.51.100.7")
    assert [guess(guesser, n) for n in range(MISSES)] == [404] * MISSES

    refused = guesser.get(f"/table/{table.code}/")  # even a right code, for now

    assert refused.status_code == 429
    assert "Too many codes that match nothing" in refused.text
    assert Client(REMOTE_ADDR="203.0.113.9").get(f"/table/{table.code}/").status_code == 200


def test_typing_a_few_wrong_codes_costs_nothing(table):
    person = Client(REMOTE_ADDR="203.0.113.9")
    for n in range(MISSES - 1):
        person.get("/join", {"code": f"ZZZZZZ{n:04d}"})

    assert person.get("/join", {"code": table.code}).status_code == 302


def test_joining_a_sheet_by_guessed_codes_is_paced_per_session_across_addresses(sheet, make_user):
    guesser = Client()
    guesser.force_login(make_user("guesser"))
    for n in range(MISSES):
        wrong = guesser.post(
            "/sheets/join/", {"code": f"ZZZZZZ{n:04d}"}, REMOTE_ADDR=f"198.51.100.{n}"
        )
        assert "No sheet has that code" in wrong.text

    refused = guesser.post("/sheets/join/", {"code": sheet.invite_code}, REMOTE_ADDR="192.0.2.1")

    assert refused.status_code == 429
    assert "Too many codes that match nothing" in refused.text
    assert not sheet.members.filter(user__username="guesser").exists()


def test_invite_links_and_the_lobby_count_misses_too(table, make_user):
    guesser = Client(REMOTE_ADDR="198.51.100.7")
    guesser.force_login(make_user("guesser"))
    guesser.get("/sheets/join/ZZZZZZ0001/")
    guesser.post("/table/ZZZZZZ0002/lobby", {"do": "join"})
    guesser.get("/join", {"code": "ZZZZZZ0003"})
    guesser.post("/sheets/join/", {"code": "ZZZZZZ0004"})

    assert guesser.get(f"/table/{table.code}/").status_code == 429


async def socket_opens(code: str, address: str) -> bool:
    headers = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]
    communicator = WebsocketCommunicator(application, f"/ws/table/{code}/", headers=headers)
    communicator.scope["client"] = (address, 5000)
    connected, _ = await communicator.connect()
    await communicator.disconnect()
    return connected


async def test_a_socket_is_no_way_around_the_pace(table):
    for n in range(MISSES):
        assert not await socket_opens(f"ZZZZZZ{n:04d}", "198.51.100.7")

    assert not await socket_opens(table.code, "198.51.100.7")
    assert await socket_opens(table.code, "203.0.113.9")


def test_new_codes_are_long_and_a_short_old_code_still_works(table):
    Table.objects.filter(pk=table.pk).update(code="K7M2QX")

    assert len(kernel.new_share_code()) == kernel.CODE_LENGTH == 10
    assert Client().get("/table/K7M2QX/").status_code == 200
    assert Client().get("/join", {"code": "k7m2qx"}).url == "/table/K7M2QX/"
