"""A real server bounds what one connection, one address and all of them together may
hold: a head's time and size, a body's size and time, open connections."""

from __future__ import annotations

import socket
import time

import pytest

from tests.servers import manage, server_env, serving
from tests.smearsite.server.test_serve import HEALTH, ask, status

HEADER_TIMEOUT_S = 2
MAX_BODY_BYTES = 100_000
OPEN_PER_ADDRESS = 5
MAX_OPEN = 20
MAX_BODIES_BYTES = 250_000


@pytest.fixture(scope="module")
def bounded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bounded")
    env = server_env(
        DJANGO_SETTINGS_MODULE="smearsite.settings",
        DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}",
        REDIS_URL=None,
        TRUSTED_PROXY_COUNT="0",
        SMEAR_CONNECTIONS_BURST_PER_ADDRESS="1000",
        SMEAR_CONNECTIONS_PER_SECOND_PER_ADDRESS="1000",
        SMEAR_CONNECTIONS_OPEN_PER_ADDRESS=str(OPEN_PER_ADDRESS),
        SMEAR_CONNECTIONS_MAX=str(MAX_OPEN),
        SMEAR_HEADER_TIMEOUT_S=str(HEADER_TIMEOUT_S),
        SMEAR_BODY_TIMEOUT_S="3",
        SMEAR_MAX_BODY_BYTES=str(MAX_BODY_BYTES),
        SMEAR_MAX_WEBHOOK_BODY_BYTES=str(MAX_BODY_BYTES),
        SMEAR_MAX_BODIES_BYTES=str(MAX_BODIES_BYTES),
        TMPDIR=str(folder),
    )
    manage(["migrate", "--noinput"], env=env)
    with serving(env=env, log=folder / "server.log") as server:
        yield server


def connect(server, source: str) -> socket.socket:
    return socket.create_connection(
        ("127.0.0.1", server.port), timeout=10, source_address=(source, 0)
    )


def read_all(s: socket.socket) -> bytes:
    answer = b""
    try:
        while chunk := s.recv(65536):
            answer += chunk
    except ConnectionResetError:
        pass
    return answer


@pytest.mark.slow
def test_a_head_that_trickles_in_is_cut_off_at_its_deadline_not_kept_alive_by_it(bounded):
    with connect(bounded, "127.0.0.11") as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        s.settimeout(0.25)
        began = time.monotonic()
        answer = b""
        # a header line every quarter of a second, for four times the deadline
        while time.monotonic() - began < 4 * HEADER_TIMEOUT_S:
            try:
                s.sendall(b"X-Slow: 1\r\n")
                chunk = s.recv(65536)
            except TimeoutError:
                continue
            except (BrokenPipeError, ConnectionResetError):
                break
            if not chunk:
                break
            answer += chunk
        closed_after = time.monotonic() - began

    assert status(answer) == 408
    assert b"took too long" in answer
    assert closed_after < 4 * HEADER_TIMEOUT_S


@pytest.mark.slow
def test_a_connection_that_sends_nothing_is_closed_at_the_header_deadline(bounded):
    with connect(bounded, "127.0.0.12") as s:
        s.settimeout(4 * HEADER_TIMEOUT_S)
        assert s.recv(65536) == b""  # closed, with nothing to answer


@pytest.mark.slow
def test_a_kept_alive_connection_serves_request_after_request(bounded):
    with connect(bounded, "127.0.0.13") as s:
        s.sendall(HEALTH.replace(b"Connection: close", b"Connection: keep-alive") * 2 + HEALTH)
        answer = read_all(s)

    assert answer.count(b"HTTP/1.1 200 OK") == 3


@pytest.mark.slow
@pytest.mark.parametrize(
    "head",
    [
        b"X-Big: " + b"a" * 20_000 + b"\r\n",
        b"".join(b"X-Many-%d: 1\r\n" % n for n in range(150)),
        b"X-Endless: " + b"a" * 300_000,  # never ends its line
    ],
    ids=["one-long-line", "many-lines", "no-line-end"],
)
def test_a_head_past_its_bound_is_answered_431_in_words(bounded, head):
    with connect(bounded, "127.0.0.14") as s:
        try:
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + head + b"\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass
        answer = read_all(s)

    assert status(answer) == 431
    assert b"headers are too large" in answer


def post_head(length: int | None) -> bytes:
    size = f"Content-Length: {length}" if length is not None else "Transfer-Encoding: chunked"
    return (
        f"POST /donate/ HTTP/1.1\r\nHost: 127.0.0.1\r\n{size}\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\n\r\n"
    ).encode()


@pytest.mark.slow
def test_a_body_declared_over_the_limit_is_answered_413_before_it_is_sent(bounded):
    with connect(bounded, "127.0.0.15") as s:
        s.sendall(post_head(2 * 1024**3) + b"a" * 65536)  # 2 GiB declared, 64 KiB sent
        answer = read_all(s)

    assert status(answer) == 413
    assert f"{MAX_BODY_BYTES} bytes at most".encode() in answer


@pytest.mark.slow
def test_a_chunked_body_is_answered_413_once_it_passes_the_limit(bounded):
    chunk = b"%x\r\n%s\r\n" % (10_000, b"a" * 10_000)
    with connect(bounded, "127.0.0.16") as s:
        s.sendall(post_head(None))
        try:
            for _ in range(100):  # a megabyte offered, a tenth of it accepted
                s.sendall(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass
        answer = read_all(s)

    assert status(answer) == 413


@pytest.mark.slow
def test_a_body_that_stalls_is_answered_408(bounded):
    with connect(bounded, "127.0.0.17") as s:
        s.sendall(post_head(100) + b"amount=1")
        answer = read_all(s)

    assert status(answer) == 408


@pytest.mark.slow
def test_an_address_holds_so_many_open_connections_and_the_next_is_told_why(bounded):
    held = [connect(bounded, "127.0.0.18") for _ in range(OPEN_PER_ADDRESS)]
    try:
        with connect(bounded, "127.0.0.18") as extra:
            extra.sendall(HEALTH)
            refused = read_all(extra)
        other = ask(bounded.port, HEALTH, source="127.0.0.19")
    finally:
        for s in held:
            s.close()

    assert status(refused) == 429
    assert b"Too many open connections from your address" in refused
    assert status(other) == 200


@pytest.mark.slow
def test_slow_connections_from_many_addresses_make_room_for_a_newcomer_oldest_first(bounded):
    # every address within its own count, all of them together at the server's limit
    slow = [connect(bounded, f"127.0.1.{n // 4 + 1}") for n in range(MAX_OPEN)]
    try:
        for s in slow:
            s.sendall(b"GET / HTTP/1.1\r\n")  # a head begun, never finished
        time.sleep(0.2)
        newcomer = ask(bounded.port, HEALTH, source="127.0.0.20")
        slow[0].settimeout(1)
        try:
            oldest = slow[0].recv(65536)
        except ConnectionResetError:
            oldest = b""
        slow[-1].settimeout(0.2)
        with pytest.raises(TimeoutError):
            slow[-1].recv(65536)  # the newest slow one is still open
    finally:
        for s in slow:
            s.close()

    assert status(newcomer) == 200
    assert oldest == b""  # shed to make room


class Body:
    """A request's body as the door sees it: it can be shed."""

    def __init__(self) -> None:
        self.was_shed = False

    def shed(self) -> None:
        self.was_shed = True


def test_past_the_budget_the_body_waiting_longest_is_shed_never_the_one_arriving():
    from smearsite.server.serve_daphne import Door

    door = Door(
        object(), pace=None, open_per_address=None, max_open=lambda: 100, max_bodies_bytes=1000
    )
    first, second, third = Body(), Body(), Body()
    door.body_received(first, 400)
    door.body_received(second, 400)
    door.body_received(first, 100)  # still the longest waiting, however it goes on
    door.body_received(third, 300)  # 1,200 held: the first goes

    assert (first.was_shed, second.was_shed, third.was_shed) == (True, False, False)
    assert door.bodies_bytes == 700
    door.body_received(third, 900)  # alone past the budget: the others go, never itself
    assert second.was_shed and not third.was_shed
    door.body_done(third)
    assert door.bodies_bytes == 0 and not door.bodies


@pytest.mark.slow
def test_unfinished_bodies_past_the_budget_shed_the_oldest_and_a_newcomer_is_served(bounded):
    # each of four addresses holds a body of 90,000 bytes never finished: 360,000 > 250,000
    held = [connect(bounded, f"127.0.2.{n + 1}") for n in range(4)]
    try:
        for s in held:
            s.sendall(post_head(None) + b"%x\r\n%s\r\n" % (90_000, b"a" * 90_000))
            time.sleep(0.3)  # in this order: the first is the oldest
        with connect(bounded, "127.0.2.9") as newcomer:
            newcomer.sendall(post_head(8) + b"amount=1")
            answer = read_all(newcomer)
        held[0].settimeout(2)
        try:
            oldest = held[0].recv(65536)
        except ConnectionResetError:
            oldest = b""
        held[-1].settimeout(0.2)
        with pytest.raises(TimeoutError):
            held[-1].recv(65536)  # the newest is still open, waiting for its body
    finally:
        for s in held:
            s.close()

    assert status(answer) == 403  # read whole and handed to Django (no CSRF token)
    assert oldest == b""  # shed, unanswered
