"""Who is asking, over HTTP or a websocket: a signed-in user and/or a guest token.

The guest token lives in the session's data, which log-in keeps (Django's session key
does not survive it), so what a guest started (a seat, practice progress) stays theirs
after signing in.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from django.http import HttpRequest

    from game.models import Seat

GUEST_TOKEN = "guest_token"


@dataclass(frozen=True)
class SeatOwner:
    """Who is asking: a signed-in user and/or a guest token from their session.

    ``session_key`` holds the guest token kept in the session's data (not Django's
    session key, which changes at log-in), so a guest who signs in mid-game keeps
    the seats they took as a guest.
    """

    user_id: int | None = None
    session_key: str | None = None

    def owns(self, seat: Seat) -> bool:
        if seat.bot_level:
            return False
        if self.user_id is not None and seat.user_id == self.user_id:
            return True
        return (
            bool(self.session_key)
            and seat.user_id is None
            and (seat.session_key == self.session_key)
        )

    @property
    def person_key(self) -> str:
        """One text per person, for counting what they do: ``user:7`` or ``guest:<token>``."""
        if self.user_id is not None:
            return f"user:{self.user_id}"
        return f"guest:{self.session_key}"

    def seat_in(self, seats) -> Seat | None:
        """The owner's seat among ``seats``, or None."""
        return next((seat for seat in seats if self.owns(seat)), None)


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
