"""Each visitor's share of the server: a few requests at a time, the rest waiting in order,
and nobody else waits behind them."""

import asyncio

import pytest

from smearsite.guards.fair_share import TOO_MANY_WAITING, FairShare


class HeldApp:
    """An ASGI app whose every request stays inside until the test lets it finish."""

    def __init__(self) -> None:
        self.inside: list[str] = []
        self.served: list[str] = []
        self.release: dict[str, asyncio.Event] = {}

    async def __call__(self, scope, receive, send):
        name = scope["path"]
        self.release[name] = asyncio.Event()
        self.inside.append(name)
        try:
            await self.release[name].wait()
        finally:
            self.inside.remove(name)
        self.served.append(name)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


def scope(path: str, *, session: str | None = None, address: str = "203.0.113.5") -> dict:
    headers = [(b"cookie", f"sessionid={session}".encode())] if session else []
    return {"type": "http", "path": path, "headers": headers, "client": (address, 5000)}


async def request(share: FairShare, scope: dict) -> list[dict]:
    sent: list[dict] = []

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request", "body": b""}

    await share(scope, receive, send)
    return sent


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


@pytest.fixture
def limits(settings):
    settings.SMEAR_REQUESTS_AT_ONCE = 2
    settings.SMEAR_REQUESTS_AT_ONCE_PER_ADDRESS = 3
    settings.SMEAR_REQUESTS_WAITING = 4
    return settings


async def test_a_visitors_third_request_waits_while_another_visitor_goes_straight_in(limits):
    app = HeldApp()
    share = FairShare(app)
    flood = [asyncio.create_task(request(share, scope(f"/f{i}", session="A"))) for i in range(3)]
    await settle()
    assert app.inside == ["/f0", "/f1"]

    newcomer = asyncio.create_task(request(share, scope("/", address="198.51.100.9")))
    await settle()
    assert "/" in app.inside
    app.release["/"].set()
    assert (await newcomer)[0]["status"] == 200
    assert app.inside == ["/f0", "/f1"]  # the flood's third still waits

    app.release["/f0"].set()
    await settle()
    assert app.inside == ["/f1", "/f2"]
    app.release["/f1"].set()
    app.release["/f2"].set()
    await asyncio.gather(*flood)
    assert app.served == ["/", "/f0", "/f1", "/f2"]
    assert share.gates == {}  # nobody's requests left: nothing kept


async def test_requests_without_a_cookie_share_their_addresss_places(limits):
    app = HeldApp()
    share = FairShare(app)
    tasks = [asyncio.create_task(request(share, scope(f"/n{i}"))) for i in range(4)]
    await settle()
    assert len(app.inside) == 3
    for name in ["/n0", "/n1", "/n2"]:
        app.release[name].set()
    await settle()
    assert app.inside == ["/n3"]
    app.release["/n3"].set()
    await asyncio.gather(*tasks)


async def test_a_session_waiting_for_its_place_holds_no_place_of_its_address(limits):
    app = HeldApp()
    share = FairShare(app)
    flood = [asyncio.create_task(request(share, scope(f"/f{i}", session="A"))) for i in range(6)]
    await settle()
    neighbour = asyncio.create_task(request(share, scope("/", session="B")))
    await settle()
    assert sorted(app.inside) == ["/", "/f0", "/f1"]
    for name in ["/", "/f0", "/f1"]:
        app.release[name].set()
    await neighbour
    for task in flood:
        task.cancel()
    await asyncio.gather(*flood, return_exceptions=True)


async def test_past_the_waiting_limit_a_request_is_told_429_and_never_reaches_the_site(limits):
    app = HeldApp()
    share = FairShare(app)
    held = [asyncio.create_task(request(share, scope(f"/f{i}", session="A"))) for i in range(6)]
    await settle()

    answer = await request(share, scope("/one-too-many", session="A"))

    assert answer[0]["status"] == 429
    assert (b"retry-after", b"1") in answer[0]["headers"]
    assert answer[1]["body"] == TOO_MANY_WAITING
    assert "/one-too-many" not in app.release
    for task in held:
        task.cancel()
    await asyncio.gather(*held, return_exceptions=True)
    assert share.gates == {}


async def test_a_request_given_up_while_waiting_frees_its_turn(limits):
    app = HeldApp()
    share = FairShare(app)
    first = [asyncio.create_task(request(share, scope(f"/f{i}", session="A"))) for i in range(2)]
    gave_up = asyncio.create_task(request(share, scope("/gone", session="A")))
    after = asyncio.create_task(request(share, scope("/next", session="A")))
    await settle()
    gave_up.cancel()
    await asyncio.gather(gave_up, return_exceptions=True)

    app.release["/f0"].set()
    await settle()

    assert app.inside == ["/f1", "/next"]
    app.release["/f1"].set()
    app.release["/next"].set()
    await asyncio.gather(*first, after)
    assert share.gates == {}


async def test_websockets_pass_untouched(limits):
    seen = []

    async def app(scope, receive, send):
        seen.append(scope["type"])

    await FairShare(app)({"type": "websocket", "headers": []}, None, None)
    assert seen == ["websocket"]
