"""Django's PostgreSQL backend, with a pool that does not wait after a dropped connection.

When PostgreSQL restarts or terminates the site's backends (``pg_terminate_backend``), every
idle connection in a process's pool is dead at once. psycopg_pool checks each connection it
hands out (``CONN_HEALTH_CHECKS``), but after each one that fails its check it sleeps before
taking the next: 1 s, then 2 s, then 4 s, while the dead ones are taken first. With the
site's four connections a request, a move or a bot's look then waited up to 7 s for a
database that had been up all along (issue 53: the table stood still 4.8-7 s after the
database's faults). Here a connection that fails its check is given back at once (the pool
drops it and opens another in the background) and the next one is taken; a database
that is really down still makes the caller wait for a new connection, until the pool's
timeout, as before.
"""

from __future__ import annotations

import time

from django.db.backends.base.base import NO_DB_ALIAS
from django.db.backends.postgresql import base
from psycopg_pool import ConnectionPool


class PromptPool(ConnectionPool):
    """A pool whose ``check`` is run by ``getconn`` itself, without a pause between a
    connection that failed it and the next."""

    def __init__(self, *args, check=None, **kwargs) -> None:
        super().__init__(*args, check=None, **kwargs)  # the pool's own check would pause
        self.check_given = check

    def getconn(self, timeout: float | None = None):
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            # the time left; at none the pool raises PoolTimeout
            connection = super().getconn(deadline - time.monotonic())
            if self.check_given is None:
                return connection
            try:
                self.check_given(connection)
            except Exception:
                connection.close()  # never handed out again, whatever failed
                self.putconn(connection)  # dropped, and another one opened meanwhile
                continue
            return connection


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self):
        options = self.settings_dict["OPTIONS"].get("pool")
        if options and self.alias != NO_DB_ALIAS and self.alias not in self._connection_pools:
            # as Django builds its pool, but of PromptPool; the first one built is kept
            made = PromptPool(
                kwargs={**self.get_connection_params(), "autocommit": True},
                open=False,
                configure=self._configure_connection,
                check=ConnectionPool.check_connection
                if self.settings_dict["CONN_HEALTH_CHECKS"]
                else None,
                **({} if options is True else options),
            )
            self._connection_pools.setdefault(self.alias, made)
        return super().pool
