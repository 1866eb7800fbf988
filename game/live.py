"""Keeping every connection to a table current, and moving its bots.

Services call ``table_changed`` after they store anything; each connection then re-renders
the table from its own seat's view, so the message itself carries no cards.
"""

from __future__ import annotations

import time

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction

TABLE_CHANGED = "table.changed"


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def table_changed(*, table_id: int) -> None:
    """Once the current transaction commits, tell the table's connections to re-render."""
    transaction.on_commit(lambda: _broadcast(table_id))


def _broadcast(table_id: int) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(table_group(table_id), {"type": TABLE_CHANGED})


def wake_bots(*, table_id: int) -> None:
    """Let the table's bots move: at a human pace in the background (game.bot_runner), or
    at once in the caller with ``SMEAR_BOTS_INLINE`` (tests, and a server without threads)."""
    from game import bot_runner, services  # both import this module

    if settings.SMEAR_BOTS_INLINE:
        services.table_advance_bots(table_id=table_id)
    else:
        bot_runner.wake(table_id)


def wake_bots_after_move(*, table_id: int, next_seat: int | None) -> None:
    """After a person's move is stored, with ``next_seat`` to act (None: the match is over).

    A bot's seat, or a person's that a bot stands in for, is woken at once. A person who is
    here cannot be played for before they would count as away, so the table is looked at
    only then, not now: a look replays the whole match, and at a table of people almost
    every move hands the turn to a person.
    """
    from game import bot_runner
    from game.models import Seat

    if next_seat is None:
        return
    seat = Seat.objects.filter(table_id=table_id, number=next_seat)
    bot_level, away_since = seat.values_list("bot_level", "away_since").first() or ("?", None)
    if bot_level or away_since is not None:
        wake_bots(table_id=table_id)
    elif not settings.SMEAR_BOTS_INLINE:  # inline bots never stand in for anyone
        # the timetable keeps a table's earliest wake: an earlier one still comes first
        bot_runner.runner().wake(table_id, at=time.monotonic() + settings.SMEAR_AWAY_AFTER_S)
