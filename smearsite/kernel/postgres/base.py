"""Django's PostgreSQL backend, checking each pooled connection it takes, without pauses.

When PostgreSQL restarts or terminates the site's backends (``pg_terminate_backend``), every
idle connection in a process's pool is dead at once. Django's own check of pooled
connections (``CONN_HEALTH_CHECKS``) is psycopg_pool's, which sleeps after each connection
that fails it: 1 s, then 2 s, then 4 s, while the dead ones are taken first. With the
site's four connections a request, a move or a bot's look then waited up to 7 s for a
database that had been up all along (issue 53: the table stood still 4.8-7 s after the
database's faults). Here the pool is built without a check (``CONN_HEALTH_CHECKS`` off
with the pool, ``smearsite/env.py``) and the backend checks each connection it takes: one
that fails is closed and given back at once (the pool drops it and opens another in the
background) and the next is taken. A database that is really down still makes the caller
wait for a new connection, until the pool's timeout, as before. Only public names: the
backend's ``get_new_connection`` and ``pool``, psycopg_pool's ``getconn``/``putconn`` (through
Django), ``timeout`` and ``check_connection``.
"""

from __future__ import annotations

import time

from django.db.backends.postgresql import base
from psycopg_pool import ConnectionPool


class DatabaseWrapper(base.DatabaseWrapper):
    def get_new_connection(self, conn_params):
        pool = self.pool
        if pool is None:
            return super().get_new_connection(conn_params)
        deadline = time.monotonic() + pool.timeout
        while True:
            connection = super().get_new_connection(conn_params)
            try:
                ConnectionPool.check_connection(connection)
            except Exception:
                connection.close()  # never handed out again, whatever failed
                pool.putconn(connection)  # dropped, and another one opened meanwhile
                if time.monotonic() >= deadline:
                    raise
                continue
            return connection
