"""The socket's Origin check: the host as Channels checks it, and the scheme on an
HTTPS-only site."""

import pytest
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.testing import WebsocketCommunicator

from smearsite.guards.websockets import site_origin_validator

# channels closes stale database connections around each handler
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("release_sync_thread_connections"),
]


class Accepting(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        await self.accept()


async def opens(origin: bytes) -> bool:
    app = site_origin_validator(Accepting.as_asgi())
    socket = WebsocketCommunicator(app, "/ws/", headers=[(b"origin", origin)])
    ok, _ = await socket.connect(timeout=5)
    await socket.disconnect()
    return ok


@pytest.mark.parametrize(
    "origin, allowed",
    [
        (b"https://smear.example", True),
        (b"http://smear.example", False),
        (b"https://evil.example", False),
    ],
)
async def test_an_https_site_refuses_a_plain_http_origin(settings, origin, allowed):
    settings.HTTPS_ONLY = True
    settings.ALLOWED_HOSTS = ["smear.example"]

    assert await opens(origin) is allowed


async def test_a_plain_http_site_accepts_its_own_http_origin(settings):
    settings.HTTPS_ONLY = False
    settings.ALLOWED_HOSTS = ["smear.example"]

    assert await opens(b"http://smear.example")
