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


async def opens_with(headers: list[tuple[bytes, bytes]], **scope) -> bool:
    app = site_origin_validator(Accepting.as_asgi())
    socket = WebsocketCommunicator(app, "/ws/", headers=headers)
    socket.scope.update(scope)
    ok, _ = await socket.connect(timeout=5)
    await socket.disconnect()
    return ok


@pytest.mark.parametrize(
    "origin, allowed",
    [
        (b"http://127.0.0.1:8000", True),
        (b"http://127.0.0.1:9999", False),  # another server on the same host
        (b"http://127.0.0.1", False),
        (b"https://127.0.0.1:8000", False),  # https on this plain-http site
        (b"http://localhost:8000", False),  # not where this page was asked
        (b"null", False),
    ],
)
async def test_a_socket_opens_only_from_its_own_origin_scheme_host_and_port(
    settings, origin, allowed
):
    settings.HTTPS_ONLY = False
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
    headers = [(b"host", b"127.0.0.1:8000"), (b"origin", origin)]

    assert await opens_with(headers, server=["127.0.0.1", 8000]) is allowed


async def test_a_host_the_site_does_not_serve_opens_nothing_even_from_itself(settings):
    settings.HTTPS_ONLY = False
    settings.ALLOWED_HOSTS = ["smear.example"]
    headers = [(b"host", b"evil.example"), (b"origin", b"http://evil.example")]

    assert not await opens_with(headers)


@pytest.mark.parametrize(
    "origin, allowed",
    [
        (b"https://smear.example", True),
        (b"https://smear.example:443", True),  # the default port, spelt out
        (b"https://smear.example:8443", False),
        (b"http://smear.example", False),
    ],
)
async def test_behind_a_tls_proxy_the_origin_is_https_on_the_public_port(settings, origin, allowed):
    settings.HTTPS_ONLY = True
    settings.TRUSTED_PROXY_COUNT = 1
    settings.ALLOWED_HOSTS = ["smear.example"]
    headers = [(b"host", b"smear.example"), (b"x-forwarded-proto", b"https"), (b"origin", origin)]

    assert await opens_with(headers, server=["10.0.0.5", 8001]) is allowed


async def test_the_site_url_is_an_origin_of_its_own_when_the_proxy_drops_the_port(settings):
    # nginx's $host carries no port: SITE_URL says where the pages are
    settings.HTTPS_ONLY = True
    settings.TRUSTED_PROXY_COUNT = 1
    settings.ALLOWED_HOSTS = ["smear.example"]
    settings.CSRF_TRUSTED_ORIGINS = ["https://smear.example:8443"]
    headers = [(b"host", b"smear.example"), (b"x-forwarded-proto", b"https")]

    assert await opens_with([*headers, (b"origin", b"https://smear.example:8443")])
    assert not await opens_with([*headers, (b"origin", b"https://smear.example:9443")])


async def test_without_a_host_header_the_servers_own_address_is_the_origin(settings):
    settings.HTTPS_ONLY = False
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    server = ["127.0.0.1", 8000]

    assert await opens_with([(b"origin", b"http://127.0.0.1:8000")], server=server)
    assert not await opens_with([(b"origin", b"http://127.0.0.1:9999")], server=server)
