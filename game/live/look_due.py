"""When a table's bots' timetable should next look at it, held in the database
(``Table.look_at``), so that a table whose server process died is taken by another.

Every stored change writes it in its own transaction (``due_after_change``): a bot to act,
its pace from now; a person, when their countdown would next need a look; nobody, None.
The process that stored the change looks at the table when due, as before; every process
also claims, every ``CLAIM_EVERY_S``, the tables overdue by ``TAKEOVER_S`` (their process
died or is stuck), each claim a conditional update that one process alone wins, with a
lease of ``LEASE_S`` after which another may claim it again. Two processes looking at one
table store nothing twice (``game.services.play.table_play_for_turn``).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from game.models import Table

CLAIM_EVERY_S = 1.0
TAKEOVER_S = 3.0  # overdue this long: the process that should have looked is gone
LEASE_S = 5.0  # a claimed table is the claimer's this long
CLAIMS_AT_ONCE = 50


def schedule(table_id: int, at: datetime | None) -> None:
    """The table's next look is due ``at`` (None: nobody is to act)."""
    Table.objects.filter(pk=table_id).update(look_at=at)


def due_in(seconds: float) -> datetime:
    return timezone.now() + timedelta(seconds=seconds)


def claim_overdue() -> list[int]:
    """The tables overdue by TAKEOVER_S that this process claimed, each for LEASE_S."""
    now = timezone.now()
    overdue = Table.objects.filter(
        status=Table.Status.PLAYING, look_at__lte=now - timedelta(seconds=TAKEOVER_S)
    ).values_list("pk", "look_at")[:CLAIMS_AT_ONCE]
    leased = now + timedelta(seconds=LEASE_S)
    return [
        table_id
        for table_id, look_at in overdue
        if Table.objects.filter(pk=table_id, look_at=look_at).update(look_at=leased)
    ]
