"""Two server processes serve one table: the channel layer (channels-redis) carries a move
stored by one server to the connections held by the other.

The servers share Redis and a database: PostgreSQL when DATABASE_URL is set (a database of
this test's own on that server), else a SQLite file. Two guests sit at a table with two
greedy bots; the first guest talks to server A only, the second to server B only, and they
play a whole round. Skipped without Redis, except under CI=true, where that is a failure.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import time
import uuid
from dataclasses import dataclass, field
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.servers import Server, manage, server_env, serving

pytestmark = pytest.mark.slow

# channels-redis groups are named by table id, which restarts at 1 in a fresh database:
# a Redis database of this test's own keeps other runs' tables apart
REDIS_URL = "redis://127.0.0.1:6379/7"
TIMEOUT = 15  # seconds to wait for any one expected message
IDLE_S = 12  # longer than two of channels-redis's 5 s blocking reads
SECTION = re.compile(r'<section id="table"[^>]*data-round="(\d+)" data-index="(\d+)"')
LEGAL = re.compile(r'name="action" value="([^"]+)"')
ALERT = re.compile(r'id="table-error"[^>]*role="alert">')  # shown: no ``hidden``
# each side's row of the match score (the score table, not the score by round)
SCORES = re.compile(r'<th scope="row">([^<\d][^<]*)</th><td>(-?\d+)</td>')

# Run in the servers' own settings and database; prints what the test needs as JSON.
SEAT_TWO_GUESTS = """
import json
import secrets
from django.db import connection
from tests.servers import seat_guests

# a table id of its own: the channel group is named by it, and runs may share Redis
first_id = 10_000 + secrets.randbelow(10**9)
with connection.cursor() as cursor:
    if connection.vendor == "postgresql":
        cursor.execute("SELECT setval(pg_get_serial_sequence('game_table', 'id'), %s)", [first_id])
    else:
        cursor.execute("INSERT INTO sqlite_sequence VALUES ('game_table', %s)", [first_id])
table, sessions = seat_guests(["guest-on-server-a", "guest-on-server-b"])
print(json.dumps({"code": table.code, "id": table.pk, "sessions": sessions}))
"""

STORED = """
import json
from game.models import ActionLog, Round
by_seat = {}
for seat in ActionLog.objects.filter(table_id=%d).values_list("seat", flat=True):
    by_seat[seat] = by_seat.get(seat, 0) + 1
last = Round.objects.filter(table_id=%d).order_by("-number").first()
print(json.dumps({"by_seat": by_seat, "rounds": last.number + 1,
                  "index": ActionLog.objects.filter(table_id=%d, round=last.number).count()}))
"""


def _redis_or_skip() -> None:
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        message = f"Redis is not reachable at {REDIS_URL}: {error}"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)


def _postgres_database(url: str, name: str, *, create: bool) -> str:
    """Create (or drop) database ``name`` on the server of ``url``; the URL of ``name``."""
    import psycopg

    parts = urlsplit(url)
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if create:
            connection.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(parts._replace(path=f"/{name}"))


@pytest.fixture
def shared_env(tmp_path):
    """The servers' environment: Redis, bots moving at once, and a migrated database."""
    _redis_or_skip()
    postgres = os.environ.get("DATABASE_URL", "").strip()
    database = f"smear_two_servers_{uuid.uuid4().hex[:8]}"
    if postgres:
        database_url = _postgres_database(postgres, database, create=True)
    else:
        # two processes write to one file: each transaction takes the write lock when it
        # begins (a deferred one that reads first can fail at once with "database is
        # locked"), and WAL lets the other process read meanwhile
        database_url = (
            f"sqlite:///{tmp_path / 'shared.sqlite3'}?transaction_mode=IMMEDIATE"
            "&init_command=PRAGMA+journal_mode%3DWAL"
        )
    env = server_env(
        DJANGO_SETTINGS_MODULE="smearsite.settings",
        DATABASE_URL=database_url,
        REDIS_URL=REDIS_URL,
        SMEAR_BOT_PACE_MS="0",
        SMEAR_BOT_PROCESSES="0",
        DEBUG="true",
    )
    try:
        manage(["migrate", "--noinput"], env=env)
        yield env
    finally:
        if postgres:
            _postgres_database(postgres, database, create=False)


def _shell(code: str, env: dict) -> dict:
    return json.loads(manage(["shell", "-c", code], env=env).stdout.strip().splitlines()[-1])


@dataclass
class Guest:
    """One person's connection: every table partial it received, in order."""

    name: str
    socket: object
    states: list[tuple[int, int]] = field(default_factory=list)
    latest: str = ""
    errors: list[str] = field(default_factory=list)
    heard_at: float = field(default_factory=time.monotonic)  # the last message's arrival

    @property
    def at(self) -> tuple[int, int] | None:
        return self.states[-1] if self.states else None

    @property
    def legal(self) -> list[str]:
        return LEGAL.findall(self.latest)

    async def read(self) -> None:
        async for message in self.socket:
            self.heard_at = time.monotonic()
            found = SECTION.search(message)
            if found is None or ALERT.search(message):
                self.errors.append(message[:300])
            if found is not None:
                self.states.append((int(found[1]), int(found[2])))
                self.latest = message


async def wait_until(done, what: str, guests: list[Guest], timeout: float = TIMEOUT) -> None:
    """Wait for ``done()``, which may look at any guest: it is checked every 20 ms."""
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            seen = "; ".join(f"{g.name} at {g.states[-4:]}, legal {g.legal}" for g in guests)
            raise AssertionError(f"no {what} within {timeout} s: {seen}")
        await asyncio.sleep(0.02)


async def _connect(server: Server, code: str, session: str, name: str) -> Guest:
    from websockets.asyncio.client import connect

    socket = await connect(
        server.ws_url(f"/ws/table/{code}/"),
        origin=server.url,  # the site's AllowedHostsOriginValidator wants one it knows
        additional_headers={"Cookie": f"sessionid={session}"},
        open_timeout=TIMEOUT,
    )
    return Guest(name, socket)


async def test_two_servers_share_a_table_through_redis(shared_env, tmp_path):
    made = _shell(SEAT_TWO_GUESTS, shared_env)
    with (
        serving(env=shared_env, log=tmp_path / "a.log") as server_a,
        serving(env=shared_env, log=tmp_path / "b.log") as server_b,
    ):
        guests = [
            await _connect(server_a, made["code"], made["sessions"][0], "guest on server A"),
            await _connect(server_b, made["code"], made["sessions"][1], "guest on server B"),
        ]
        readers = [asyncio.create_task(guest.read()) for guest in guests]
        rng = random.Random(5)
        sent = [0, 0]
        heard_across = [0, 0]  # moves of each guest that the other guest's server delivered
        try:
            for _ in range(200):
                # the table stands still once both see the same state and a person is to act
                # (the bots move in the servers' timetables, after the move that woke them)
                await wait_until(lambda: all(g.at for g in guests), "table", guests)
                await wait_until(
                    lambda: guests[0].at == guests[1].at and any(g.legal for g in guests),
                    "settled table",
                    guests,
                )
                if guests[0].at[0] > 0:
                    break  # round 0 is over and round 1 dealt
                mover = next(n for n, g in enumerate(guests) if g.legal)
                other = guests[1 - mover]
                at = guests[mover].at
                action = rng.choice(guests[mover].legal)
                await guests[mover].socket.send(json.dumps({"action": action, "index": at[1]}))
                sent[mover] += 1
                # stored by the mover's server, heard on the other server's connection
                await wait_until(
                    lambda other=other, at=at: other.at > at,
                    "move heard through the other server",
                    guests,
                )
                heard_across[mover] += 1
            else:
                raise AssertionError("round 0 did not finish in 200 moves")
        finally:
            for guest in guests:
                await guest.socket.close()
            await asyncio.gather(*readers, return_exceptions=True)

    assert not guests[0].errors and not guests[1].errors, guests[0].errors + guests[1].errors
    # a 4-seat round: each person bids once and plays six cards
    assert sent == [7, 7] and heard_across == sent
    stored = _shell(STORED % ((made["id"],) * 3), shared_env)
    assert stored["by_seat"]["0"] == sent[0] and stored["by_seat"]["1"] == sent[1]
    assert guests[0].at == guests[1].at == (stored["rounds"] - 1, stored["index"])
    assert SCORES.findall(guests[0].latest) == SCORES.findall(guests[1].latest)
    assert len(SCORES.findall(guests[0].latest)) == 2


async def test_a_connection_idle_for_longer_than_the_layers_blocking_read_stays_open(
    shared_env, tmp_path
):
    made = _shell(SEAT_TWO_GUESTS, shared_env)
    with serving(env=shared_env, log=tmp_path / "a.log") as server:
        guest = await _connect(server, made["code"], made["sessions"][0], "idle guest")
        reader = asyncio.create_task(guest.read())
        try:
            await wait_until(lambda: guest.at is not None, "table", [guest])
            # no message for two of the layer's 5 s blocking reads: the bots move first
            # (the guest is seated with two), and a table that never fell quiet fails here
            await wait_until(
                lambda: time.monotonic() - guest.heard_at >= IDLE_S,
                f"{IDLE_S} s without a message",
                [guest],
                timeout=IDLE_S + TIMEOUT,
            )
            await guest.socket.send("{}")  # answered with an error line, if still connected
            await wait_until(lambda: guest.errors, "answer after the idle time", [guest])
        finally:
            await guest.socket.close()
            await asyncio.gather(reader, return_exceptions=True)
        assert "Say which bid" in guest.errors[-1]
