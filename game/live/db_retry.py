"""A socket's work done again, once, when its database connection was lost under it.

A PostgreSQL restart or ``pg_terminate_backend`` kills the connections the pool holds; the
pool checks each one it hands out from then on (``CONN_HEALTH_CHECKS``), but work already
holding one fails with OperationalError or InterfaceError. Such work (a move, a redraw, a
handshake's read) is a whole transaction or none, so it is run once more on a fresh
connection. A move cannot be stored twice: a retry of a move that did commit finds the
turn gone and is refused (``game.services.play``'s index check).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from django.db import InterfaceError, OperationalError, connection

logger = logging.getLogger(__name__)
P = ParamSpec("P")
R = TypeVar("R")


def once_more(work: Callable[P, R]) -> Callable[P, R]:
    """``work``, run a second time on a fresh connection if the first lost its own."""

    @functools.wraps(work)
    def retried(*args: P.args, **kwargs: P.kwargs) -> R:
        if connection.in_atomic_block:  # inside a caller's transaction: theirs to retry
            return work(*args, **kwargs)
        try:
            return work(*args, **kwargs)
        except (OperationalError, InterfaceError) as lost:
            logger.warning("database connection lost (%s): trying once more", lost)
            connection.close()  # the pool drops a broken connection as it takes it back
            return work(*args, **kwargs)

    return retried
