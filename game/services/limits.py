"""Limits that keep the site fair: no one visitor's tables use up the bots everyone shares.

- a person (guest or user) has at most SMEAR_BOT_TABLES_PER_PERSON unfinished tables
  against bots: a new one closes the oldest; and starts at most TABLE_STARTS_PER_MINUTE of
  them a minute (an address, TABLE_STARTS_PER_ADDRESS), so a flood is refused cheaply;
- a table in play whose people have all been away SMEAR_DESERTED_AFTER_S is closed;
- finished and closed tables where no signed-in player sat are deleted a while later
  (``manage.py prune_tables``): signed-in players' matches and records stay.

A closed table is announced like any change: its pages redraw, and its bots stop at once
(``game.turns`` finds no turn at a table that is not in play).
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Max, Q, QuerySet
from django.db.models.functions import Coalesce
from django.utils import timezone

from game import events
from game.models import Seat, Table
from game.players.identity import SeatOwner
from smearsite.kernel import ratelimit

TABLE_STARTS_PER_MINUTE = 10
TABLE_STARTS_PER_ADDRESS = 40


def _owned_seats(owner: SeatOwner) -> Q:
    if owner.user_id is not None:
        return Q(user_id=owner.user_id)
    return Q(user__isnull=True, session_key=owner.session_key)


def unfinished_bot_tables(owner: SeatOwner) -> QuerySet[Table]:
    """Tables in play where ``owner`` is the only person, oldest first."""
    mine = Seat.objects.filter(_owned_seats(owner), bot_level__isnull=True)
    return (
        Table.objects.filter(status=Table.Status.PLAYING, pk__in=mine.values("table_id"))
        .annotate(people=Count("seats", filter=Q(seats__bot_level__isnull=True), distinct=True))
        .filter(people=1)
        .order_by("created", "pk")
    )


def table_start_allowed(*, owner: SeatOwner, address: str) -> bool:
    """Count a start of a table against bots by ``owner`` from ``address``."""
    by_person = ratelimit.allow(
        "table-start", owner.person_key, limit=TABLE_STARTS_PER_MINUTE, per_s=60
    )
    by_address = ratelimit.allow(
        "table-start", f"address:{address}", limit=TABLE_STARTS_PER_ADDRESS, per_s=60
    )
    return by_person and by_address


def bot_tables_make_room(*, owner: SeatOwner) -> list[Table]:
    """Before ``owner`` starts another table against bots: close their oldest ones so that
    with the new one they have at most the allowed number. The tables closed."""
    return _keep_newest(owner, max(settings.SMEAR_BOT_TABLES_PER_PERSON - 1, 0))


def bot_tables_trim(*, owner: SeatOwner) -> list[Table]:
    """After a table against bots is stored: close the oldest beyond the allowed number.
    Two starts at once may both have made room for one; the later to look sees both."""
    return _keep_newest(owner, settings.SMEAR_BOT_TABLES_PER_PERSON)


def _keep_newest(owner: SeatOwner, keep: int) -> list[Table]:
    tables = list(unfinished_bot_tables(owner))
    closing = tables[: max(len(tables) - keep, 0)]
    _close(closing)
    return closing


def deserted_tables(now=None) -> QuerySet[Table]:
    """Tables in play whose every person has been away SMEAR_DESERTED_AFTER_S or longer."""
    now = now or timezone.now()
    since = now - timedelta(seconds=settings.SMEAR_DESERTED_AFTER_S)
    people = Q(seats__bot_level__isnull=True)
    return (
        Table.objects.filter(status=Table.Status.PLAYING)
        .annotate(
            people=Count("seats", filter=people, distinct=True),
            here=Count("seats", filter=people & Q(seats__away_since__isnull=True), distinct=True),
            last_seen=Max("seats__away_since", filter=people),
        )
        .filter(people__gt=0, here=0, last_seen__lte=since)
    )


def deserted_tables_close() -> int:
    """Close every deserted table; how many."""
    tables = list(deserted_tables())
    _close(tables)
    return len(tables)


def guest_tables_to_prune(older_than: timedelta, now=None) -> QuerySet[Table]:
    """Finished or closed tables where no signed-in player sat, untouched for
    ``older_than``: what nobody can come back to."""
    now = now or timezone.now()
    return (
        Table.objects.filter(status__in=[Table.Status.FINISHED, Table.Status.CLOSED])
        .exclude(seats__user__isnull=False)
        .exclude(host__isnull=False)
        .annotate(touched=Coalesce(Max("actions__created"), "created"))
        .filter(touched__lte=now - older_than)
    )


def guest_tables_prune(*, older_than: timedelta) -> int:
    """Delete finished guest tables (with their rounds and moves); how many."""
    ids = list(guest_tables_to_prune(older_than).values_list("pk", flat=True))
    Table.objects.filter(pk__in=ids).delete()
    return len(ids)


def _close(tables: list[Table]) -> None:
    for table in tables:
        with transaction.atomic():
            closed = Table.objects.filter(pk=table.pk, status=Table.Status.PLAYING).update(
                status=Table.Status.CLOSED
            )
            if closed:
                events.announce(events.TableChanged(table.pk))
