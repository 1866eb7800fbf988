"""The site skeleton: home page, health check, static files, websockets, data stores."""

import ast
import contextlib
import inspect
import re
import uuid

import pytest
from asgiref.testing import ApplicationCommunicator
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.staticfiles import finders
from django.core.asgi import get_asgi_application
from django.core.management import call_command
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import URLPattern, URLResolver, get_resolver

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


@pytest.mark.parametrize("path", ["/", "/learn/", "/healthz", "/rules/", "/tables/"])
@pytest.mark.django_db
def test_head_on_a_page_that_only_reads_answers_200_like_get(client, path):
    # uptime monitors ask with HEAD; a page GET serves must answer it too
    assert client.head(path).status_code == client.get(path).status_code == 200


@pytest.mark.parametrize(
    "path",
    ["/", "/rules/", "/play/", "/tables/", "/donate/", "/learn/", "/learn/tutorial/deck/"],
)
@pytest.mark.django_db
def test_a_crawlers_look_at_a_public_page_starts_no_session_and_writes_nothing(client, path):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200
    writes = ("INSERT", "UPDATE", "DELETE")
    assert [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith(writes)] == []
    assert settings.SESSION_COOKIE_NAME not in response.cookies


def _our_views(patterns=None, prefix=""):
    """(route, view function) for every URL whose view is this project's code."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(entry, URLResolver):
            yield from _our_views(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            view = entry.callback
            if view.__module__.split(".")[0] in {"game", "learn", "scoresheet", "donations"}:
                yield prefix + str(entry.pattern), view


def _allowed_methods(view) -> set[str] | None:
    """The methods a view's decorator admits, read from its source; None if it has none."""
    source = inspect.getsource(inspect.getmodule(view))
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and node.name == view.__name__:
            for decorator in node.decorator_list:
                name = ast.unparse(decorator)
                if name == "require_safe":
                    return {"GET", "HEAD"}
                if name == "require_POST":
                    return {"POST"}
                if name == "require_GET":
                    return {"GET"}
                if name.startswith("require_http_methods("):
                    return set(ast.literal_eval(decorator.args[0]))
    return None


def test_the_scan_finds_every_view_of_the_site():
    routes = dict(_our_views())
    assert "" in routes and "healthz" in routes and "learn/" in routes


def test_every_view_that_serves_get_serves_head_too():
    # require_GET refuses HEAD with 405; require_safe (GET and HEAD) is the read-only decorator
    wrong = {
        route: methods
        for route, view in _our_views()
        if (methods := _allowed_methods(view)) is None or ("GET" in methods) != ("HEAD" in methods)
    }
    assert wrong == {}


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


async def _asgi_get(app, path: str) -> dict:
    """One GET through an ASGI app, the way the server calls it."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
    communicator = ApplicationCommunicator(app, scope)
    await communicator.send_input({"type": "http.request", "body": b""})
    start = await communicator.receive_output(timeout=10)
    body = b""
    while True:
        # the last message may carry no "body" key at all (ASGI makes it optional)
        message = await communicator.receive_output(timeout=10)
        body += message.get("body", b"")
        if not message.get("more_body", False):
            break
    await communicator.wait(timeout=10)
    return {"status": start["status"], "headers": start["headers"], "body": body}


# whitenoise is WSGI-style: under ASGI Django reads its file iterator in a thread and says so
@pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous iterators")
async def test_production_mode_serves_collected_hashed_static_files_under_asgi(tmp_path):
    """DEBUG off: collectstatic writes hashed files, pages link them, whitenoise serves them."""
    production = override_settings(
        DEBUG=False,
        STATIC_ROOT=tmp_path,
        STORAGES={
            **settings.STORAGES,
            "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
        },
        WHITENOISE_USE_FINDERS=False,
        WHITENOISE_AUTOREFRESH=False,
    )
    with production:
        call_command("collectstatic", "--noinput", verbosity=0)
        # a fresh ASGI app, as the server builds it: whitenoise indexes STATIC_ROOT at start
        app = get_asgi_application()
        page = await _asgi_get(app, "/")
        body = page["body"].decode()
        (css,) = re.findall(r'<link rel="stylesheet" href="([^"]+)"', body)
        scripts = re.findall(r'<script[^>]*\ssrc="([^"]+)"', body)
        styles = await _asgi_get(app, css)
        htmx = await _asgi_get(app, next(src for src in scripts if "htmx" in src))

    assert page["status"] == 200
    assert re.fullmatch(r"/static/css/site\.[0-9a-f]{12}\.css", css), css
    assert styles["status"] == 200
    headers = {name.decode().lower(): value.decode() for name, value in styles["headers"]}
    assert headers["content-type"].startswith("text/css")
    assert "immutable" in headers["cache-control"]  # hashed name: cache forever
    assert styles["body"] == (tmp_path / css.removeprefix("/static/")).read_bytes()
    assert htmx["status"] == 200 and b"htmx" in htmx["body"]
