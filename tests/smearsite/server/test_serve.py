"""The server paces each address's new connections as they are accepted: a burst, then a
few a second, and past that a fixed 429 that never reaches Django. Other addresses, and
servers behind proxies, are not paced."""

from __future__ import annotations

import gc
import socket

import pytest

from smearsite.server.serve import (
    YOUNG_COLLECTION_EVERY,
    ConnectionPace,
    configured_limits,
    configured_pace,
    forwarded_headers_notice,
    spare_the_collector,
)
from tests.servers import manage, server_env, serving


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_an_address_gets_its_burst_then_waits_for_the_refill():
    clock = Clock()
    pace = ConnectionPace(per_second=2, burst=3, clock=clock)

    assert [pace.admit("198.51.100.7") for _ in range(4)] == [True, True, True, False]
    clock.now += 0.4  # 0.8 of a connection refilled: not yet one
    assert not pace.admit("198.51.100.7")
    clock.now += 0.2
    assert pace.admit("198.51.100.7")
    assert not pace.admit("198.51.100.7")


def test_one_address_out_of_connections_leaves_the_others_their_own():
    pace = ConnectionPace(per_second=1, burst=2, clock=Clock())
    for _ in range(10):
        pace.admit("198.51.100.7")

    assert pace.admit("203.0.113.9")
    assert not pace.admit("198.51.100.7")


def test_the_pace_forgets_refilled_addresses_so_its_memory_stays_bounded():
    clock = Clock()
    pace = ConnectionPace(per_second=10, burst=5, clock=clock)
    for n in range(ConnectionPace.FORGET_AFTER):
        pace.admit(f"10.0.{n // 256}.{n % 256}")
    clock.now += 1.0  # every bucket is full again, the same as never seen
    pace.admit("198.51.100.7")
    pace.admit("198.51.100.7")

    assert list(pace.buckets) == ["198.51.100.7"]
    assert not [pace.admit("198.51.100.7") for _ in range(4)][-1]  # still counted


@pytest.mark.parametrize(
    "burst, per_second, proxies", [(0, 20, 0), (40, 0, 0), (40, 20, 1)], ids=str
)
def test_no_pace_when_a_number_is_0_or_behind_proxies(settings, burst, per_second, proxies):
    settings.SMEAR_CONNECTIONS_BURST_PER_ADDRESS = burst
    settings.SMEAR_CONNECTIONS_PER_SECOND_PER_ADDRESS = per_second
    settings.TRUSTED_PROXY_COUNT = proxies

    assert configured_pace() is None


def test_the_pace_is_the_settings(settings):
    settings.SMEAR_CONNECTIONS_BURST_PER_ADDRESS = 40
    settings.SMEAR_CONNECTIONS_PER_SECOND_PER_ADDRESS = 20
    settings.TRUSTED_PROXY_COUNT = 0

    pace = configured_pace()
    assert (pace.burst, pace.per_second) == (40, 20)


def test_the_server_says_at_start_that_forwarded_headers_are_ignored_by_default(settings):
    settings.TRUSTED_PROXY_COUNT = 0
    settings.HTTPS_ONLY = False

    notice = forwarded_headers_notice()

    assert "ignored (TRUSTED_PROXY_COUNT=0)" in notice
    assert "set TRUSTED_PROXY_COUNT" in notice
    assert "redirected" not in notice


def test_an_https_site_with_no_proxy_trusted_is_told_why_every_request_is_redirected(settings):
    settings.TRUSTED_PROXY_COUNT = 0
    settings.HTTPS_ONLY = True

    assert "looks like plain HTTP and is redirected to HTTPS" in forwarded_headers_notice()


def test_a_server_trusting_proxies_says_how_many_and_what_that_demands(settings):
    settings.TRUSTED_PROXY_COUNT = 2

    notice = forwarded_headers_notice()

    assert "from 2 reverse proxies (TRUSTED_PROXY_COUNT=2)" in notice
    assert "reachable only through them" in notice


@pytest.mark.parametrize("budget, expected", [(0, None), (1000, 4000), (10_000, 10_000)])
def test_the_budget_of_all_bodies_holds_at_least_the_largest_body(settings, budget, expected):
    settings.SMEAR_MAX_BODY_BYTES = 2000
    settings.SMEAR_MAX_BODY_BYTES_BY_PATH = {"/hook/": 4000}
    settings.SMEAR_MAX_BODIES_BYTES = budget

    limits = configured_limits()

    assert limits.max_bodies_bytes == expected
    assert limits.body_limits().for_path("/hook/") == 4000
    assert limits.body_limits().for_path("/form/") == 2000


def ask(port: int, request: bytes, *, source: str = "127.0.0.1") -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0)) as s:
        s.sendall(request)
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
        return answer


HEALTH = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
DONATE = (
    b"POST /donate/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
    b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 9\r\n\r\namount=10"
)


def status(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1])


def paced_env(tmp_path, **overrides: str) -> dict:
    env = server_env(
        DJANGO_SETTINGS_MODULE="smearsite.settings",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        REDIS_URL=None,
        SMEAR_CONNECTIONS_BURST_PER_ADDRESS="3",
        SMEAR_CONNECTIONS_PER_SECOND_PER_ADDRESS="1",
        **{"TRUSTED_PROXY_COUNT": "0", **overrides},
    )
    manage(["migrate", "--noinput"], env=env)
    return env


@pytest.mark.slow
def test_an_address_past_its_pace_is_answered_429_in_words_and_others_are_served(tmp_path):
    with serving(env=paced_env(tmp_path), log=tmp_path / "server.log") as server:
        answers = [status(ask(server.port, HEALTH)) for _ in range(10)]
        refusal = ask(server.port, DONATE)  # a body the refusal never reads: still answered
        other = ask(server.port, HEALTH, source="127.0.0.2")
        log = server.log_text()

    assert "X-Forwarded-For and X-Forwarded-Proto are ignored" in log

    assert 429 in answers[:6] and answers[-1] == 429
    assert status(refusal) == 429
    assert b"Retry-After: 1" in refusal
    assert b"Too many new connections from your address" in refusal
    assert status(other) == 200


@pytest.mark.slow
def test_behind_a_proxy_every_connection_is_the_proxys_so_none_is_paced(tmp_path):
    env = paced_env(tmp_path, TRUSTED_PROXY_COUNT="1")
    with serving(env=env, log=tmp_path / "server.log") as server:
        answers = [status(ask(server.port, HEALTH)) for _ in range(10)]

    assert answers == [200] * 10


def test_the_server_freezes_start_up_and_collects_the_young_less_often():
    threshold = gc.get_threshold()
    try:
        spare_the_collector()
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (YOUNG_COLLECTION_EVERY, *threshold[1:])
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
