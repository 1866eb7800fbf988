"""The site's PostgreSQL connections after the server dropped every one the pool held
(issue 53): the next one taken is live, at once, without psycopg_pool's pauses."""

from __future__ import annotations

import psycopg
import pytest
from django.db import connection
from psycopg_pool import pool as psycopg_pool_module

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL"),
    pytest.mark.django_db(transaction=True),
]


def _pooled_pids() -> set[int]:
    """The backends of connections the site's pool holds idle (taken, then given back)."""
    pool = connection.pool
    held = [pool.getconn() for _ in range(min(2, pool.max_size))]
    pids = {c.info.backend_pid for c in held}
    for c in held:
        pool.putconn(c)
    return pids


def _terminate_all_but_this() -> None:
    """As a restart does: every other backend on the test database terminated."""
    params = {**connection.get_connection_params(), "autocommit": True}
    params.pop("pool", None)
    with psycopg.connect(**params) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


def test_after_every_pooled_connection_was_dropped_the_next_query_runs_at_once(monkeypatch):
    assert connection.pool is not None  # CI's PostgreSQL pass runs with the pool
    connection.close()  # the test's own connection given back to the pool
    dropped = _pooled_pids()
    _terminate_all_but_this()

    def no_pause(seconds):  # psycopg_pool's own check loop sleeps 0, 1, 2, 4 s
        raise AssertionError("the pool slept between a failed check and the next")

    monkeypatch.setattr(psycopg_pool_module, "sleep", no_pause)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()

    assert pid not in dropped
