"""Whether a person was shown their turn: the away countdown runs from there.

A stand-in bot plays for a person who lets their turn run SMEAR_AWAY_AFTER_S. That time
counts from when their page showed them the turn (the page says so over its socket:
``seat_shown``), never from when the move before was stored: a broadcast lost with Redis,
or a server that died, must not bench anyone. A person whose page is not heard from
(``seat_heard``: every message, and the page's heartbeat every ``HEARTBEAT_S``) for
UNREACHABLE_S counts as unreachable from their side: their countdown then runs from the
turn's start, as before, or from when they went silent if that was later.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Q
from django.utils import timezone

from game.models import Seat
from game.players.identity import SeatOwner

HEARTBEAT_S = 10  # static/game/live.js asks for the table's version this often
UNREACHABLE_S = 25  # two heartbeats and a margin: the page is closed, asleep or cut off


def _owners_seat(table_id: int, owner: SeatOwner):
    if owner.user_id is not None:
        whose = Q(user_id=owner.user_id)
    elif owner.session_key:
        whose = Q(user_id__isnull=True, session_key=owner.session_key)
    else:
        return Seat.objects.none()
    return Seat.objects.filter(whose, table_id=table_id, bot_level__isnull=True)


def seat_heard(*, table_id: int, owner: SeatOwner) -> None:
    """The owner's page at the table spoke (a spectator has no seat: nothing is stored)."""
    _owners_seat(table_id, owner).update(heard_at=timezone.now())


def seat_shown(*, table_id: int, owner: SeatOwner, version: int) -> bool:
    """The owner's page showed the table at ``version``: if that is the table's version
    now, the owner's turn (if it is theirs) was shown from now on. The first showing of a
    version counts (a second tab, a reconnect, change nothing); True if this was it."""
    now = timezone.now()
    seats = _owners_seat(table_id, owner)
    seats.update(heard_at=now)
    shown = seats.filter(table__moves=version).exclude(shown_version=version)
    return bool(shown.update(shown_version=version, shown_at=now))


def countdown_from(
    *,
    since: datetime,
    version: int,
    shown_version: int | None,
    shown_at: datetime | None,
    heard_at: datetime | None,
) -> datetime | None:
    """When a person's away countdown began for the turn that began at ``since``, at the
    table's ``version``: when their page showed it; else, if their page has gone silent,
    UNREACHABLE_S after it was last heard (or ``since``, if later). None: their page is
    here and has not shown the turn yet (its heartbeat will bring it)."""
    if shown_version == version and shown_at is not None:
        return max(shown_at, since)
    if heard_at is None:
        return since
    silent_from = heard_at + timedelta(seconds=UNREACHABLE_S)
    if silent_from <= timezone.now():
        return max(silent_from, since)
    return None
