"""The table's owner in this process: its matches by version (the last few), its rows,
and a table that reuses another's id never gets that table's match or rows."""

import copy

import pytest

from game import selectors
from game.live import store
from game.models import Seat, Table
from game.players.identity import SeatOwner
from game.services import play

pytestmark = pytest.mark.django_db

OWNERS = [SeatOwner(session_key=f"guest-{n}-0123456789abcdef") for n in range(4)]


def _people_table() -> Table:
    table = play.table_create_vs_bots(
        owner=OWNERS[0], players=4, teams=[[0, 2], [1, 3]], bot_levels=["greedy"] * 3
    )
    for n in range(1, 4):
        Seat.objects.filter(table=table, number=n).update(
            bot_level=None, session_key=OWNERS[n].session_key
        )
    return table


def test_a_table_keeps_its_last_versions_and_the_match_each_move_made(
    django_capture_on_commit_callbacks,
):
    table = _people_table()
    for _ in range(store.VERSIONS_KEPT + 2):
        match = store.match_for_table(table)
        seat = match.current_player()
        with django_capture_on_commit_callbacks(execute=True):  # as once the move commits
            play.table_play(
                table_id=table.pk, seat_owner=OWNERS[seat], action=match.legal_actions()[0]
            )
    table.refresh_from_db()
    owner = store._owners[table.pk]

    assert len(owner.matches) <= store.VERSIONS_KEPT
    assert owner.latest[0] == table.moves
    assert store.kept_match(table) is owner.latest[1] is store.match_for_table(table)
    assert store.stored_rows(table.pk, table.moves)[0].moves == table.moves
    assert store.stored_rows(table.pk, None) is None


def test_a_table_that_reuses_an_id_gets_nothing_of_the_table_before():
    table = _people_table()
    store.match_for_table(table)
    store.read_rows(table.pk)
    other = copy.copy(table)
    other.code = "ANOTHER"  # a test database may give a table's id to a new table

    assert store.kept_match(table) is not None
    assert store.kept_match(other) is None
    store.match_for_table(other, fresh=True)  # its own owner from now on
    assert store._owners[table.pk].identity == store._identity(other)
    assert store.kept_match(table) is None


def test_a_tables_public_page_is_built_once_per_version_and_kept_by_its_owner():
    table = _people_table()
    seats = list(table.seats.all())

    first = selectors.public_page(table=table, seat_rows=seats)
    again = selectors.public_page(table=table, seat_rows=seats)
    Seat.objects.filter(table=table, number=1).update(display_name="Renamed")
    renamed = selectors.public_page(table=table, seat_rows=list(table.seats.all()))

    assert again is first and store._owners[table.pk].page[1] is renamed
    assert "Renamed" in [seat.name for seat in renamed.seats]
