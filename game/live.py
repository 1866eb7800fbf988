"""Keeping every connection to a table current, and moving its bots.

Services call ``table_changed`` after they store anything; each connection then re-renders
the table from its own seat's view, so the message itself carries no cards.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
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
    """Let the table's bots move until a person is to act."""
    from game import services  # services import this module

    if services.table_advance_bots(table_id=table_id):
        table_changed(table_id=table_id)
