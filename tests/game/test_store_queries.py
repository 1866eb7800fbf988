"""The live path's queries compiled once (game.store.CompiledQuery) give what the ORM's
querysets give, row for row and field for field, and one query a call."""

import pytest
from django.db import transaction
from django.db.models import Model
from django.db.transaction import TransactionManagementError
from django.utils import timezone

from game import store
from game.models import ActionLog, Seat, Table
from game.players.identity import SeatOwner
from game.services import play

pytestmark = pytest.mark.django_db

GUEST = SeatOwner(session_key="guest-session-key-0123456789abcdef")


def _table() -> Table:
    table = play.table_create_vs_bots(
        owner=GUEST, players=4, teams=[[0, 2], [1, 3]], bot_levels=["greedy"] * 3
    )
    # a nullable time and a JSON field that differ from their defaults
    Seat.objects.filter(table=table, number=2).update(away_since=timezone.now())
    return table


def _fields(instance: Model) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def test_read_rows_gives_what_the_orm_gives(django_assert_num_queries):
    table = _table()
    expected = list(Seat.objects.select_related("table").filter(table_id=table.pk))

    with django_assert_num_queries(1):
        read, seats = store.read_rows(table.pk)

    assert [_fields(s) for s in seats] == [_fields(s) for s in expected]
    assert _fields(read) == _fields(expected[0].table)
    assert all(seat.table is read for seat in seats)  # one table object, shared
    assert read.teams == [[0, 2], [1, 3]] and seats[2].away_since.tzinfo is not None


def test_locked_rows_lock_the_table_and_give_the_seats_in_order(django_assert_num_queries):
    table = _table()
    with transaction.atomic():
        with django_assert_num_queries(1):
            read, seats = store.locked_rows(table.pk)
    assert [s.number for s in seats] == [0, 1, 2, 3]
    assert _fields(read) == _fields(Table.objects.get(pk=table.pk))


@pytest.mark.django_db(transaction=True)  # no test transaction around it
def test_a_locked_read_outside_a_transaction_is_refused_as_the_orm_refuses_it():
    table = _table()
    with transaction.atomic():
        store.locked_rows(table.pk)  # compiled inside one
    with pytest.raises(TransactionManagementError):
        store.locked_rows(table.pk)


def test_values_list_rows_and_several_parameters():
    table = _table()
    for index, code in enumerate(["pass", "bid:2"]):
        ActionLog.objects.create(table=table, round=0, index=index, seat=index, action=code)
    since = store.CompiledQuery(
        lambda table_id, after: (
            ActionLog.objects.filter(table_id=table_id, index__gte=after)
            .order_by("index")
            .values_list("index", "action")
        )
    )

    assert list(since(table.pk, 1)) == [(1, "bid:2")]
    assert list(since(table.pk, 0)) == [(0, "pass"), (1, "bid:2")]
    assert list(since(table.pk + 1, 0)) == []


def test_a_value_baked_into_the_sql_is_refused():
    baked = store.CompiledQuery(lambda table_id: Seat.objects.filter(table_id=table_id * 0 + 5))
    with pytest.raises(ValueError):
        list(baked(1))


def test_the_replay_reads_only_the_actions_after_the_place_it_has_reached():
    table = _table()
    ActionLog.objects.filter(table=table).delete()  # no bot has moved: start clean
    for number, index in [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1)]:
        ActionLog.objects.create(table=table, round=number, index=index, seat=0, action="pass")

    def places(first: int, index: int) -> list:
        return [(n, i) for n, i, _, _ in store._ACTIONS_FROM(table.pk, first, index, first)]

    assert places(0, 2) == [(0, 2), (1, 0), (1, 1)]
    assert places(1, 1) == [(1, 1)]
    assert places(0, 0) == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1)]
