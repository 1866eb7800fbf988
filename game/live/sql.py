"""The live path's SQL, in one place: the statements a move and a redraw make on every
call, written out once per database vendor from the models' own table and column names,
run on Django's connection (``connection.cursor()``), their rows made into model
instances by ``Model.from_db``. Building them through the ORM on every call cost a move
more than the database did.

Every other query of the site goes through the ORM. ``tests/game/live/test_sql.py`` holds
each statement here to what the ORM's queryset gives, row for row and field for field.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import cache

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections, models, transaction
from django.db.transaction import TransactionManagementError
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from game.models import ActionLog, Round, Seat, Table


def _columns(model: type[models.Model]) -> list[models.Field]:
    return list(model._meta.concrete_fields)


def _reader(field: models.Field, connection) -> Callable | None:
    """What turns a column's raw value into the field's Python value, as the ORM would
    (None: the value is already it)."""
    if isinstance(field, models.JSONField):
        return lambda v: field.from_db_value(v, None, connection) if isinstance(v, str) else v
    if isinstance(field, models.DateTimeField):
        zone = connection.timezone  # the same for every connection to the database

        def aware(value):
            if isinstance(value, str):
                value = parse_datetime(value)
            if value is not None and settings.USE_TZ and timezone.is_naive(value):
                value = timezone.make_aware(value, zone)
            return value

        return aware
    if isinstance(field, models.BooleanField):
        return lambda v: v if v is None else bool(v)
    return None


@dataclass(frozen=True)
class _Statements:
    seats_with_table: str
    locked_seats_with_table: str
    actions_from: str
    deals_from: str
    last_move_at: str
    insert_action: str
    count_move: str
    insert_action_and_count: str | None  # one statement where the database allows it


def _build(connection) -> _Statements:
    quote = connection.ops.quote_name
    table_name, seat_name = quote(Table._meta.db_table), quote(Seat._meta.db_table)
    actions, rounds = quote(ActionLog._meta.db_table), quote(Round._meta.db_table)

    def col(model, name: str) -> str:
        return quote(model._meta.get_field(name).column)

    selected = ", ".join(
        [f"{seat_name}.{quote(f.column)}" for f in _columns(Seat)]
        + [f"{table_name}.{quote(f.column)}" for f in _columns(Table)]
    )
    joined = (
        f"SELECT {selected} FROM {seat_name} INNER JOIN {table_name} "
        f"ON ({seat_name}.{col(Seat, 'table')} = {table_name}.{quote(Table._meta.pk.column)}) "
        f"WHERE {seat_name}.{col(Seat, 'table')} = %s"
    )
    features = connection.features
    lock = ""
    if features.has_select_for_update_of:
        lock = f" FOR UPDATE OF {table_name}"
    elif features.has_select_for_update:
        lock = " FOR UPDATE"
    a_table, a_round, a_index = col(ActionLog, "table"), col(ActionLog, "round"), "index"
    a_index = col(ActionLog, a_index)
    insert_columns = ", ".join(
        col(ActionLog, name) for name in ("table", "round", "index", "seat", "action", "created")
    )
    insert = f"INSERT INTO {actions} ({insert_columns}) VALUES (%s, %s, %s, %s, %s, %s)"
    moves, pk = col(Table, "moves"), quote(Table._meta.pk.column)
    look_at = col(Table, "look_at")
    count = f"UPDATE {table_name} SET {moves} = {moves} + 1, {look_at} = %s WHERE {pk} = %s"
    return _Statements(
        seats_with_table=joined,
        locked_seats_with_table=f"{joined} ORDER BY {seat_name}.{col(Seat, 'number')}{lock}",
        # the rest of round ``first`` from ``index``, then every later round
        actions_from=(
            f"SELECT {a_round}, {a_index}, {col(ActionLog, 'seat')}, {col(ActionLog, 'action')} "
            f"FROM {actions} WHERE {a_table} = %s AND "
            f"(({a_round} = %s AND {a_index} >= %s) OR {a_round} > %s) "
            f"ORDER BY {a_round}, {a_index}"
        ),
        deals_from=(
            f"SELECT {col(Round, 'number')}, {col(Round, 'dealer')}, {col(Round, 'hands')}, "
            f"{col(Round, 'hidden')} FROM {rounds} WHERE {col(Round, 'table')} = %s AND "
            f"{col(Round, 'number')} >= %s ORDER BY {col(Round, 'number')}"
        ),
        last_move_at=(
            f"SELECT {col(ActionLog, 'created')} FROM {actions} WHERE {a_table} = %s "
            f"ORDER BY {a_round} DESC, {a_index} DESC LIMIT 1"
        ),
        insert_action=insert,
        count_move=count,
        # a data-modifying WITH runs whether or not the statement reads it
        insert_action_and_count=(
            f"WITH stored AS ({insert}) {count}" if connection.vendor == "postgresql" else None
        ),
    )


def _prepared(connection) -> tuple[_Statements, dict]:
    return _prepared_for(connection.vendor)


@cache
def _prepared_for(vendor: str) -> tuple[_Statements, dict]:
    """The statements and the readers by model for a database vendor: built once, the same
    for every connection to it (two threads building them at once build the same)."""
    connection = connections[DEFAULT_DB_ALIAS]
    readers = {
        model: [_reader(f, connection) for f in _columns(model)]
        for model in (Seat, Table, Round, ActionLog)
    }
    return _build(connection), readers


def _run(sql: str, params: Iterable) -> list[tuple]:
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute(sql, list(params))
        return cursor.fetchall()


def _instances(model: type[models.Model], rows: list[tuple], readers: list) -> list:
    names = [f.attname for f in _columns(model)]
    made = []
    for row in rows:
        values = [v if read is None else read(v) for v, read in zip(row, readers, strict=True)]
        made.append(model.from_db(DEFAULT_DB_ALIAS, names, values))
    return made


def _seats_and_table(rows: list[tuple], readers: dict) -> list[Seat]:
    """Seats, each with their one table filled in (as ``select_related("table")`` would,
    but one table object for all of them)."""
    if not rows:
        return []
    width = len(readers[Seat])
    seats = _instances(Seat, [row[:width] for row in rows], readers[Seat])
    [table] = _instances(Table, [rows[0][width:]], readers[Table])
    for seat in seats:
        seat.table = table
    return seats


def seats_with_table(table_id: int) -> list[Seat]:
    """The table's seats, each with its table: one query."""
    statements, readers = _prepared(connections[DEFAULT_DB_ALIAS])
    rows = _run(statements.seats_with_table, [table_id])
    return _seats_and_table(rows, readers)


def locked_seats_with_table(table_id: int) -> list[Seat]:
    """The table's seats in seat order, each with its table, the table row locked until the
    transaction ends: one query. Refused outside a transaction, as the ORM refuses it."""
    connection = connections[DEFAULT_DB_ALIAS]
    if transaction.get_autocommit():
        raise TransactionManagementError(
            "select_for_update cannot be used outside of a transaction."
        )
    statements, readers = _prepared(connection)
    rows = _run(statements.locked_seats_with_table, [table_id])
    return _seats_and_table(rows, readers)


def actions_from(table_id: int, first: int, index: int) -> list[tuple[int, int, int, str]]:
    """(round, index, seat, action) of the table's actions from ``index`` of round ``first``
    on, then every later round's, in order."""
    statements, _ = _prepared(connections[DEFAULT_DB_ALIAS])
    rows = _run(statements.actions_from, [table_id, first, index, first])
    return rows


def deals_from(table_id: int, first: int) -> list[tuple[int, int, list, list]]:
    """(number, dealer, hands, hidden) of the table's rounds from ``first`` on, in order."""
    statements, readers = _prepared(connections[DEFAULT_DB_ALIAS])
    rows = _run(statements.deals_from, [table_id, first])
    names = [f.name for f in _columns(Round)]
    read_hands, read_hidden = (readers[Round][names.index(name)] for name in ("hands", "hidden"))
    return [(n, dealer, read_hands(h), read_hidden(x)) for n, dealer, h, x in rows]


def last_move_at(table_id: int) -> datetime | None:
    """When the table's last action was stored, or None before the first."""
    statements, readers = _prepared(connections[DEFAULT_DB_ALIAS])
    rows = _run(statements.last_move_at, [table_id])
    if not rows:
        return None
    names = [f.name for f in _columns(ActionLog)]
    return readers[ActionLog][names.index("created")](rows[0][0])


_CREATED = ActionLog._meta.get_field("created")
_LOOK_AT = Table._meta.get_field("look_at")


def store_action(
    table_id: int, number: int, index: int, seat: int, code: str, look_at: datetime | None
) -> None:
    """Insert the ``ActionLog`` row and count the move on the table row, with when the
    bots' timetable should next look at the table (``game.live.look_due``): what
    ``ActionLog.objects.create`` and an ``F("moves") + 1`` update do, in one statement
    where the database allows it (PostgreSQL)."""
    connection = connections[DEFAULT_DB_ALIAS]
    statements, _ = _prepared(connection)
    created = _CREATED.get_db_prep_value(timezone.now(), connection)
    look = _LOOK_AT.get_db_prep_value(look_at, connection)
    with connection.cursor() as cursor:
        if statements.insert_action_and_count is not None:
            cursor.execute(
                statements.insert_action_and_count,
                (table_id, number, index, seat, code, created, look, table_id),
            )
        else:
            cursor.execute(statements.insert_action, (table_id, number, index, seat, code, created))
            cursor.execute(statements.count_move, (look, table_id))
