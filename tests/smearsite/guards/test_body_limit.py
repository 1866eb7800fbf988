"""A body over the limit is answered 413 before it is read whole; one within it reaches the
app unchanged, however it was split."""

from __future__ import annotations

from smearsite.guards.body_limit import BodyLimit, BodyLimits

LIMIT = 1000
WEBHOOK = "/donate/stripe/webhook/"
LIMITS = BodyLimits(default=LIMIT, by_path={WEBHOOK: 4 * LIMIT})


class Recorder:
    """An ASGI app that reads the whole body, as Django does, and answers 200."""

    def __init__(self) -> None:
        self.bodies: list[bytes] = []

    async def __call__(self, scope, receive, send):
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        self.bodies.append(body)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


class Client:
    """The server's side: hands out ``chunks`` and counts how many were asked for."""

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks
        self.read = 0
        self.sent: list[dict] = []

    async def receive(self):
        if self.read >= len(self.chunks):
            return {"type": "http.disconnect"}
        chunk = self.chunks[self.read]
        self.read += 1
        return {"type": "http.request", "body": chunk, "more_body": self.read < len(self.chunks)}

    async def send(self, message):
        self.sent.append(message)

    @property
    def status(self) -> int:
        return self.sent[0]["status"]

    @property
    def text(self) -> bytes:
        return b"".join(m.get("body", b"") for m in self.sent[1:])


def http_scope(length: int | None = None, path: str = "/") -> dict:
    headers = [(b"content-type", b"application/x-www-form-urlencoded")]
    if length is not None:
        headers.append((b"content-length", str(length).encode()))
    return {"type": "http", "method": "POST", "path": path, "headers": headers}


async def test_a_declared_length_over_the_limit_is_refused_without_reading_the_body():
    app, client = Recorder(), Client([b"x" * 100] * 30)

    await BodyLimit(app, limits=LIMITS)(http_scope(3000), client.receive, client.send)

    assert client.status == 413
    assert b"larger than this site accepts" in client.text
    assert client.read == 0
    assert app.bodies == []


async def test_a_body_that_grows_past_the_limit_is_refused_as_soon_as_it_does():
    app, client = Recorder(), Client([b"x" * 300] * 30)  # chunked: no length declared

    await BodyLimit(app, limits=LIMITS)(http_scope(), client.receive, client.send)

    assert client.status == 413
    assert client.read == 4  # the fourth chunk passed 1000 bytes; the other 26 stay unread
    assert app.bodies == []


async def test_a_body_within_the_limit_reaches_the_app_whole():
    app, client = Recorder(), Client([b"a" * 400, b"b" * 400, b"c" * 200])

    await BodyLimit(app, limits=LIMITS)(http_scope(LIMIT), client.receive, client.send)

    assert client.status == 200
    assert app.bodies == [b"a" * 400 + b"b" * 400 + b"c" * 200]


async def test_websockets_pass_untouched():
    seen = []

    async def app(scope, receive, send):
        seen.append(scope["type"])

    await BodyLimit(app, limits=LIMITS)({"type": "websocket"}, None, None)

    assert seen == ["websocket"]


async def test_a_path_with_a_limit_of_its_own_takes_more_and_no_more():
    app = Recorder()
    within, past = Client([b"x" * 3000, b"y" * 1000]), Client([b"x" * 3000, b"y" * 1001])

    await BodyLimit(app, limits=LIMITS)(http_scope(path=WEBHOOK), within.receive, within.send)
    await BodyLimit(app, limits=LIMITS)(http_scope(path=WEBHOOK), past.receive, past.send)

    assert within.status == 200 and past.status == 413
    assert f"{4 * LIMIT} bytes at most".encode() in past.text


async def test_another_spelling_of_that_path_gets_the_default_limit():
    app, client = Recorder(), Client([b"x" * 1001])

    await BodyLimit(app, limits=LIMITS)(
        http_scope(path=WEBHOOK.rstrip("/")), client.receive, client.send
    )

    assert client.status == 413


def test_the_settings_larger_limit_is_the_stripe_webhooks_own_path(settings):
    from django.urls import reverse

    assert list(settings.SMEAR_MAX_BODY_BYTES_BY_PATH) == [reverse("donations:stripe_webhook")]
    # Django keeps whatever is accepted in memory too, never spooled to disk
    largest = max(settings.SMEAR_MAX_BODY_BYTES, *settings.SMEAR_MAX_BODY_BYTES_BY_PATH.values())
    assert settings.FILE_UPLOAD_MAX_MEMORY_SIZE == largest
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE == largest
