"""Whose turn it is at a table, as the bots' timetable reads it at every bot move: the seat,
its view and legal actions, and when the turn began, in two queries; and a bot's move for
that turn stored."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from game import store, turns
from game.models import ActionLog, Seat, Table
from game.players.identity import SeatOwner
from game.services import play

pytestmark = pytest.mark.django_db

GUEST = SeatOwner(session_key="guest-session-key-0123456789abcdef")


def _table_with_moves(moves: int) -> Table:
    table = play.table_create_vs_bots(
        owner=GUEST, players=4, teams=[[0, 2], [1, 3]], bot_levels=["greedy"] * 3
    )
    for _ in range(moves):  # as the bots would play, whoever's turn it is
        turn = turns.table_turn(table_id=table.pk)
        assert play.table_play_for_turn(table_id=table.pk, turn=turn, action=turn.legal[0])
    return table


def test_the_turn_is_the_engines_and_began_with_the_last_stored_move(django_assert_num_queries):
    table = _table_with_moves(3)
    match = store.match_for_table(table)  # kept: a live table's match is in the cache
    last = ActionLog.objects.filter(table=table).order_by("-round", "-index").first()

    with django_assert_num_queries(2):  # the table with its seats, the last move's time
        turn = turns.table_turn(table_id=table.pk)

    assert turn.seat == match.current_player()
    assert turn.legal == tuple(match.legal_actions())
    assert turn.view == match.view_for(turn.seat)
    assert (turn.round, turn.index) == (0, 3)
    assert turn.since == last.created
    assert turn.bot_level == Seat.objects.get(table=table, number=turn.seat).bot_level


def test_before_any_move_the_turn_began_when_the_table_was_made():
    table = _table_with_moves(0)

    assert turns.table_turn(table_id=table.pk).since == table.created


def test_a_table_not_in_play_has_no_turn():
    table = _table_with_moves(0)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)

    assert turns.table_turn(table_id=table.pk) is None
    assert turns.table_turn(table_id=table.pk + 1000) is None


def test_a_bot_move_for_the_turn_reads_the_table_once():
    table = _table_with_moves(2)
    turn = turns.table_turn(table_id=table.pk)
    while turn.bot_level is None:  # a bot's own seat: no stand-in to mark as away
        assert play.table_play_for_turn(table_id=table.pk, turn=turn, action=turn.legal[0])
        turn = turns.table_turn(table_id=table.pk)
    stored = ActionLog.objects.filter(table=table).count()

    with CaptureQueriesContext(connection) as run:
        assert play.table_play_for_turn(table_id=table.pk, turn=turn, action=turn.legal[0])

    statements = [q["sql"].split()[0].upper() for q in run.captured_queries]
    statements = [s for s in statements if s not in ("SAVEPOINT", "RELEASE")]
    # one read, the table locked with its seats, then the move stored (an INSERT and an
    # UPDATE on SQLite, one statement with a CTE on PostgreSQL)
    assert statements[0] == "SELECT" and statements.count("SELECT") == 1
    assert len(statements) <= 3
    assert ActionLog.objects.filter(table=table).count() == stored + 1
