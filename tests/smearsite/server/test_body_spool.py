"""A real server keeps request bodies in memory, bounded to what the site needs, and never
spools one to a temporary file: bodies in flight hold no file however many there are.

twisted writes a body it does not know to be small (chunked, or declared at 100,000
bytes or more) to a temporary file (``tempfile``, under TMPDIR) until it is whole; the
server here points TMPDIR at a folder of its own and counts the files it holds open
there while the bodies are in flight."""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path

import pytest

from tests.servers import manage, server_env, serving
from tests.smearsite.server.test_serve import status

WEBHOOK_PATH = "/donate/stripe/webhook/"  # tests/smearsite/guards holds it to the URL
DEFAULT_MAX_BODY = 64 * 1024
DEFAULT_MAX_WEBHOOK_BODY = 256 * 1024


@pytest.fixture(scope="module")
def spool_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("spool")
    tmp = folder / "tmp"
    tmp.mkdir()
    env = server_env(
        DJANGO_SETTINGS_MODULE="smearsite.settings",
        DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}",
        REDIS_URL=None,
        TRUSTED_PROXY_COUNT="0",
        SMEAR_MAX_BODY_BYTES=None,  # the defaults are under test
        SMEAR_MAX_WEBHOOK_BODY_BYTES=None,
        SMEAR_BODY_TIMEOUT_S="20",
        TMPDIR=str(tmp),
    )
    manage(["migrate", "--noinput"], env=env)
    with serving(env=env, log=folder / "server.log") as server:
        server.tmp = tmp
        yield server


def files_held_in(pid: int, folder: Path) -> int:
    """Files the process holds open under ``folder`` (a spooled body is unlinked as it is
    made, so only its open descriptor shows it)."""
    held = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            held += os.readlink(f"/proc/{pid}/fd/{fd}").startswith(str(folder))
        except OSError:
            pass
    return held


def head(path: str, length: int | None) -> bytes:
    size = "Transfer-Encoding: chunked" if length is None else f"Content-Length: {length}"
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{size}\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\n\r\n"
    ).encode()


def chunk(size: int) -> bytes:
    return b"%x\r\n%s\r\n" % (size, b"a" * size)


def connect(server, n: int) -> socket.socket:
    return socket.create_connection(
        ("127.0.0.1", server.port), timeout=10, source_address=(f"127.0.3.{n + 1}", 0)
    )


def answer_of(s: socket.socket, seconds: float = 10) -> bytes:
    s.settimeout(seconds)
    answer = b""
    try:
        while len(answer) < 64 and (data := s.recv(4096)):
            answer += data
    except (TimeoutError, ConnectionResetError):
        pass
    return answer


def still_open(s: socket.socket) -> bool:
    s.setblocking(False)
    try:
        return s.recv(1, socket.MSG_PEEK) != b""  # anything sent back: not in flight
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        s.setblocking(True)


@pytest.mark.slow
def test_bodies_in_flight_under_the_limit_hold_no_temporary_file(spool_server):
    """Chunked bodies with no final chunk, and bodies declared between twisted's 100,000
    bytes and the limit, held open: each once held a temporary file to the body timeout."""
    sockets = []
    try:
        for n in range(10):
            s = connect(spool_server, n)
            s.sendall(head("/donate/", None) + chunk(60_000))  # no final chunk
            sockets.append(s)
        for n in range(10, 20):
            s = connect(spool_server, n)
            s.sendall(head(WEBHOOK_PATH, 200_000) + b"a" * 150_000)  # the webhook's more
            sockets.append(s)
        time.sleep(1.5)  # for the server to read what was sent

        held = files_held_in(spool_server.process.pid, spool_server.tmp)
        in_flight = sum(still_open(s) for s in sockets)
    finally:
        for s in sockets:
            s.close()

    assert in_flight == 20  # all under their limits: waiting for the rest of their body
    assert held == 0


@pytest.mark.slow
@pytest.mark.parametrize("length", [500_000, None], ids=["declared", "chunked"])
def test_a_body_past_what_a_form_needs_is_refused_before_it_is_kept(spool_server, length):
    with connect(spool_server, 30) as s:
        s.sendall(head("/donate/", length))
        try:
            s.sendall(b"a" * 400_000 if length else chunk(DEFAULT_MAX_BODY + 1))
        except (BrokenPipeError, ConnectionResetError):
            pass
        answer = answer_of(s)

    assert status(answer) == 413
    assert files_held_in(spool_server.process.pid, spool_server.tmp) == 0


@pytest.mark.slow
def test_the_webhook_takes_more_than_a_form_and_no_more_than_its_own_limit(spool_server):
    body = b"{" + b" " * (DEFAULT_MAX_BODY * 2) + b"}"
    with connect(spool_server, 40) as s:
        s.sendall(head(WEBHOOK_PATH, len(body)) + body)
        within = answer_of(s)
    with connect(spool_server, 41) as s:
        s.sendall(head(WEBHOOK_PATH, DEFAULT_MAX_WEBHOOK_BODY + 1))
        past = answer_of(s)

    assert status(within) == 400  # read whole, then refused for its signature
    assert status(past) == 413
