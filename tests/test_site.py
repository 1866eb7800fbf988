"""The site skeleton: home page, health check, static files, websockets, data stores."""

import contextlib
import re
import uuid

import pytest
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.staticfiles import finders

from smearsite.asgi import application


def _static_path(url: str) -> str:
    """The path a finder looks up for a URL produced by ``{% static %}``."""
    prefix = "/" + settings.STATIC_URL.lstrip("/")
    assert url.startswith(prefix), f"{url} is not under STATIC_URL {prefix}"
    return url.removeprefix(prefix)


def test_home_page_returns_200_and_names_the_game(client):
    response = client.get("/")

    assert response.status_code == 200
    body = response.content.decode()
    assert "<title>" in body and "Smear" in body
    assert "3 to 8 players" in body
    assert 'name="viewport"' in body


def test_home_page_refuses_post(client):
    assert client.post("/").status_code == 405


def test_healthz_answers_ok_in_plain_text(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    assert response.content == b"ok"


def test_htmx_script_comes_from_our_own_static_files(client):
    body = client.get("/").content.decode()
    sources = re.findall(r'<script[^>]*\ssrc="([^"]+)"', body)

    htmx = [src for src in sources if re.search(r"/htmx-2(\.min)?\.js$", src)]
    assert htmx, f"no htmx 2 script among {sources}"
    for src in sources:
        # no CDN: every script is a file our staticfiles finders know
        assert finders.find(_static_path(src)), f"{src} not found by the staticfiles finders"
    response = client.get(htmx[0])
    assert response.status_code == 200
    assert b"htmx" in b"".join(response.streaming_content)


def test_site_stylesheet_is_linked_found_and_served(client):
    body = client.get("/").content.decode()
    (href,) = re.findall(r'<link rel="stylesheet" href="([^"]+)"', body)

    assert _static_path(href) == "css/site.css"
    assert finders.find("css/site.css")
    response = client.get(href)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/css")


async def test_websocket_to_unknown_path_is_refused():
    communicator = WebsocketCommunicator(
        application, "/ws/no-such-path/", headers=[(b"origin", b"http://localhost")]
    )
    try:
        # the router has no route: the application fails the handshake, never accepts
        with pytest.raises(ValueError, match="No route found"):
            await communicator.connect()
    finally:
        # the application has already ended with that error, which disconnect re-raises
        with contextlib.suppress(ValueError):
            await communicator.disconnect()


async def test_websocket_from_a_foreign_origin_is_refused():
    communicator = WebsocketCommunicator(
        application, "/ws/no-such-path/", headers=[(b"origin", b"https://evil.example")]
    )
    try:
        connected, _ = await communicator.connect()
        assert not connected
    finally:
        await communicator.disconnect()


@pytest.mark.django_db
def test_database_stores_and_reads_back_a_row():
    get_user_model().objects.create_user(username="dealer", password="not-used-123")

    assert get_user_model().objects.filter(username="dealer").count() == 1


async def test_channel_layer_delivers_a_group_message():
    layer = get_channel_layer()
    group = f"test-{uuid.uuid4().hex}"
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    try:
        await layer.group_send(group, {"type": "table.changed", "table": 7})
        message = await layer.receive(channel)
    finally:
        await layer.group_discard(group, channel)

    assert message == {"type": "table.changed", "table": 7}
