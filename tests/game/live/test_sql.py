"""The live path's plain SQL (game.live.sql) gives what the ORM's querysets give, row for
row and field for field, and one query a call."""

import pytest
from django.db import transaction
from django.db.models import Model, Q
from django.db.transaction import TransactionManagementError
from django.utils import timezone

from game.live import sql, store
from game.models import ActionLog, Round, Seat, Table
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
        store.locked_rows(table.pk)  # inside one: read and locked
    with pytest.raises(TransactionManagementError):
        store.locked_rows(table.pk)


def test_the_actions_from_a_place_are_the_orms_rows_for_several_parameters():
    table = _table()
    ActionLog.objects.filter(table=table).delete()
    for index, code in enumerate(["pass", "bid:2"]):
        ActionLog.objects.create(table=table, round=0, index=index, seat=index, action=code)

    def orm(first: int, index: int) -> list:
        return list(
            ActionLog.objects.filter(
                Q(round=first, index__gte=index) | Q(round__gt=first), table_id=table.pk
            )
            .order_by("round", "index")
            .values_list("round", "index", "seat", "action")
        )

    assert sql.actions_from(table.pk, 0, 1) == orm(0, 1) == [(0, 1, 1, "bid:2")]
    assert sql.actions_from(table.pk, 0, 0) == orm(0, 0) == [(0, 0, 0, "pass"), (0, 1, 1, "bid:2")]
    assert sql.actions_from(table.pk + 1, 0, 0) == []


def test_the_deals_and_the_last_moves_time_are_the_orms(django_assert_num_queries):
    table = _table()
    expected = list(
        Round.objects.filter(table_id=table.pk, number__gte=0)
        .order_by("number")
        .values_list("number", "dealer", "hands", "hidden")
    )
    last = ActionLog.objects.filter(table=table).order_by("-round", "-index").first()

    with django_assert_num_queries(2):
        deals, at = sql.deals_from(table.pk, 0), sql.last_move_at(table.pk)

    assert deals == expected and len(deals[0][2]) == 4
    assert at == (last.created if last else None)
    assert sql.deals_from(table.pk, 1) == [] and sql.last_move_at(table.pk + 1) is None
    if at is not None:
        assert at.tzinfo is not None


def test_the_replay_reads_only_the_actions_after_the_place_it_has_reached():
    table = _table()
    ActionLog.objects.filter(table=table).delete()  # no bot has moved: start clean
    for number, index in [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1)]:
        ActionLog.objects.create(table=table, round=number, index=index, seat=0, action="pass")

    def places(first: int, index: int) -> list:
        return [(n, i) for n, i, _, _ in sql.actions_from(table.pk, first, index)]

    assert places(0, 2) == [(0, 2), (1, 0), (1, 1)]
    assert places(1, 1) == [(1, 1)]
    assert places(0, 0) == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1)]
