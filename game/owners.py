"""Who is asking, over HTTP or a websocket: a signed-in user and/or a guest token.

The guest token lives in the session's data, which log-in keeps (Django's session key
does not survive it), so what a guest started (a seat, practice progress) stays theirs
after signing in.
"""

from __future__ import annotations

import secrets

from django.http import HttpRequest

from game.selectors import SeatOwner

GUEST_TOKEN = "guest_token"


def request_owner(request: HttpRequest, *, start_session: bool = False) -> SeatOwner:
    """The asker of a request; ``start_session`` gives a guest without a token one."""
    token = request.session.get(GUEST_TOKEN)
    if token is None and start_session and not request.user.is_authenticated:
        token = request.session[GUEST_TOKEN] = secrets.token_urlsafe(18)
    user_id = request.user.pk if request.user.is_authenticated else None
    return SeatOwner(user_id=user_id, session_key=token)


def scope_owner(scope: dict) -> SeatOwner:
    """The asker of a websocket connection (scope filled by AuthMiddlewareStack)."""
    user = scope.get("user")
    session = scope.get("session") or {}
    return SeatOwner(
        user_id=user.pk if user is not None and user.is_authenticated else None,
        session_key=session.get(GUEST_TOKEN),
    )
