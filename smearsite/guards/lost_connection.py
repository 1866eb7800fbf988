"""A page load whose database connection was lost under it is answered again, once.

PostgreSQL's restart or ``pg_terminate_backend`` can drop a connection between the pool's
check of it and the request's query (issue 53's fault suite: one page load in a few runs
answered 500, its session read on a terminated connection). A GET or HEAD reads and
changes nothing a second run would change twice, so its view is run once more on a fresh
connection; a form's POST is not (its page says what happened, and the person sends it
again). The live table's socket has its own retry (``game/live/db_retry.py``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError, connection
from django.http import HttpRequest, HttpResponse

logger = logging.getLogger(__name__)
SAFE_METHODS = ("GET", "HEAD")


class AnswerAgainMiddleware:
    """Last in MIDDLEWARE, so that its ``process_exception`` hears a view's error first."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view, args, kwargs) -> None:
        request.answer_again = (view, args, kwargs)

    def process_exception(self, request: HttpRequest, error: Exception) -> HttpResponse | None:
        again = getattr(request, "answer_again", None)
        if (
            again is None
            or request.method not in SAFE_METHODS
            or not isinstance(error, (OperationalError, InterfaceError))
            or connection.in_atomic_block
        ):
            return None
        request.answer_again = None  # once
        logger.warning("database connection lost (%s): answering %s again", error, request.path)
        connection.close()  # the pool drops a broken connection as it takes it back
        view, args, kwargs = again
        return view(request, *args, **kwargs)
