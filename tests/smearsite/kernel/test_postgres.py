"""The PostgreSQL pool hands out a live connection at once after the server dropped every
connection it held (issue 53), without the pauses psycopg_pool takes between checks."""

from __future__ import annotations

import pytest
from django.db import connection
from psycopg_pool import ConnectionPool
from psycopg_pool import pool as psycopg_pool_module

from smearsite.kernel.postgres.base import PromptPool

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL"),
    pytest.mark.django_db,
]


def _pool(check) -> PromptPool:
    params = {**connection.get_connection_params(), "autocommit": True}
    params.pop("pool", None)
    made = PromptPool(kwargs=params, min_size=2, check=check, open=True, timeout=10)
    made.wait()
    return made


def _dropped(pool: PromptPool) -> set[int]:
    """Every connection the pool holds, terminated by the server: their backends' ids."""
    held = [pool.getconn(), pool.getconn()]
    pids = {c.info.backend_pid for c in held}
    for c in held:
        pool.putconn(c)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM unnest(%s::int[]) AS pid", [list(pids)]
        )
    return pids


def test_after_every_connection_was_dropped_a_live_one_is_handed_out_without_a_pause(
    monkeypatch,
):
    pool = _pool(ConnectionPool.check_connection)

    def no_pause(seconds):  # psycopg_pool's own loop sleeps 0, 1, 2, 4 s between checks
        raise AssertionError("the pool slept between a failed check and the next")

    monkeypatch.setattr(psycopg_pool_module, "sleep", no_pause)
    try:
        dropped = _dropped(pool)
        given = pool.getconn()
        assert given.execute("SELECT 1").fetchone() == (1,)
        assert given.info.backend_pid not in dropped
        pool.putconn(given)
    finally:
        pool.close()


def test_the_sites_connections_come_from_that_pool():
    assert isinstance(connection.pool, PromptPool)
    assert connection.pool.check_given is not None  # CONN_HEALTH_CHECKS: checked
