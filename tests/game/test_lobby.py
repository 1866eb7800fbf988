"""Tables with friends through the services: the lobby, seats, bots, the start. Every
refusal raises TableError with a message for the player and changes nothing."""

import threading
from unittest import mock

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.db.models import QuerySet

from game import events, selectors, store
from game.engine.rules import action_code
from game.errors import TableError
from game.models import ActionLog, Round, Seat, Table
from game.players import profiles
from game.players.identity import SeatOwner
from game.services import lobby as lobby_services
from game.services import play
from smearsite import kernel

pytestmark = pytest.mark.django_db


@pytest.fixture
def users(django_user_model, fast_password_hashing):
    made = [
        django_user_model.objects.create_user(name, password="a long passphrase 42")
        for name in ("host", "bea", "cal", "dee")
    ]
    profiles.profile_update(user=made[1], display_name="Bea B.")
    return made


def owner(user) -> SeatOwner:
    return SeatOwner(user_id=user.pk)


def lobby(host, players=4, teams=((0, 2), (1, 3)), public=False) -> Table:
    return lobby_services.table_create_lobby(
        host_user=host,
        players=players,
        teams=[list(unit) for unit in teams],
        target=11,
        public=public,
    )


def seats_of(table: Table) -> list[tuple]:
    return list(
        Seat.objects.filter(table=table).values_list(
            "number", "user_id", "session_key", "bot_level", "display_name"
        )
    )


def snapshot(table: Table) -> tuple:
    fresh = Table.objects.get(pk=table.pk)
    return (
        fresh.status,
        fresh.public,
        seats_of(table),
        Round.objects.filter(table=table).count(),
        ActionLog.objects.filter(table=table).count(),
    )


def refused(table: Table, match: str, call, **kwargs) -> None:
    """``call`` raises TableError matching ``match`` and the table is as it was."""
    before = snapshot(table)
    with pytest.raises(TableError, match=match):
        call(table_id=table.pk, **kwargs)
    assert snapshot(table) == before


# --- Creating a table -----------------------------------------------------------------------


def test_create_lobby_seats_the_host_in_seat_0_and_deals_nothing(users):
    host = users[0]

    table = lobby(host, public=True)

    assert table.status == Table.Status.LOBBY and table.public and table.target == 11
    assert table.host_id == host.pk and len(table.code) == kernel.CODE_LENGTH
    assert seats_of(table) == [(0, host.pk, None, None, "host")]
    assert not Round.objects.filter(table=table).exists()
    assert 0 <= table.first_dealer < 4


def test_a_lobby_is_private_unless_asked(users):
    assert not lobby(users[0]).public


def test_create_lobby_refuses_a_guest_and_a_bad_layout(users):
    with pytest.raises(TableError, match="sign in"):
        lobby(AnonymousUser())
    with pytest.raises(TableError, match="partition"):
        lobby(users[0], teams=((0, 1), (1, 3)))
    with pytest.raises(TableError, match="players must be"):
        lobby(users[0], players=9, teams=[[n] for n in range(9)])
    assert not Table.objects.exists() and not Seat.objects.exists()


# --- Joining and leaving ------------------------------------------------------------------


def test_join_takes_the_first_free_seat_or_the_chosen_one(users):
    host, bea, cal, _ = users
    table = lobby(host)

    first = lobby_services.table_join(table_id=table.pk, owner=owner(bea))
    chosen = lobby_services.table_join(table_id=table.pk, owner=owner(cal), seat=3)

    assert (first.number, first.display_name) == (1, "Bea B.")
    assert (chosen.number, chosen.user_id) == (3, cal.pk)
    assert [s[0] for s in seats_of(table)] == [0, 1, 3]


def test_join_refuses_a_guest_even_with_a_session(users):
    table = lobby(users[0])
    refused(
        table,
        "sign in",
        lobby_services.table_join,
        owner=SeatOwner(session_key="guest-token-0123456789"),
    )


def test_one_person_one_seat(users):
    host, bea, *_ = users
    table = lobby(host)
    lobby_services.table_join(table_id=table.pk, owner=owner(bea), seat=1)

    refused(table, r"already have a seat .*seat 1", lobby_services.table_join, owner=owner(bea))
    refused(table, "already have a seat", lobby_services.table_join, owner=owner(bea), seat=2)
    refused(table, r"already have a seat .*seat 0", lobby_services.table_join, owner=owner(host))


def test_join_refuses_a_taken_seat_and_a_seat_that_does_not_exist(users):
    host, bea, cal, _ = users
    table = lobby(host)
    lobby_services.table_join(table_id=table.pk, owner=owner(bea), seat=2)

    refused(table, "seat 2 is taken by Bea B.", lobby_services.table_join, owner=owner(cal), seat=2)
    refused(table, "seat 0 is taken by host", lobby_services.table_join, owner=owner(cal), seat=0)
    for bad in (4, -1, 99, "1", True, 1.0):
        refused(table, "seats 0 to 3 only", lobby_services.table_join, owner=owner(cal), seat=bad)


def test_join_refuses_a_full_table(users):
    host, bea, cal, dee = users
    table = lobby(host, players=3, teams=((0,), (1,), (2,)))
    lobby_services.table_join(table_id=table.pk, owner=owner(bea))
    lobby_services.table_join(table_id=table.pk, owner=owner(cal))

    refused(table, "the table is full", lobby_services.table_join, owner=owner(dee))


def test_join_refuses_an_unknown_table(users):
    with pytest.raises(TableError, match="no such table"):
        lobby_services.table_join(table_id=987654, owner=owner(users[1]))
    assert not Seat.objects.exists()


def test_leave_frees_the_seat_for_someone_else(users):
    host, bea, cal, _ = users
    table = lobby(host)
    lobby_services.table_join(table_id=table.pk, owner=owner(bea), seat=1)

    assert lobby_services.table_leave(table_id=table.pk, owner=owner(bea)) == 1
    lobby_services.table_join(table_id=table.pk, owner=owner(cal), seat=1)

    assert seats_of(table)[1][:2] == (1, cal.pk)


def test_leave_refuses_the_host_and_someone_without_a_seat(users):
    host, bea, *_ = users
    table = lobby(host)

    refused(table, "the host keeps", lobby_services.table_leave, owner=owner(host))
    refused(table, "no seat", lobby_services.table_leave, owner=owner(bea))
    refused(table, "no seat", lobby_services.table_leave, owner=SeatOwner(session_key="x" * 20))


# --- Bots and the start -------------------------------------------------------------------


def test_the_host_seats_changes_and_removes_bots(users):
    host = users[0]
    table = lobby(host)

    lobby_services.table_set_bot(table_id=table.pk, host=owner(host), seat=1, level="greedy")
    lobby_services.table_set_bot(table_id=table.pk, host=owner(host), seat=3, level="random")
    lobby_services.table_set_bot(table_id=table.pk, host=owner(host), seat=3, level="expert")
    assert [(s[0], s[3], s[4]) for s in seats_of(table)] == [
        (0, None, "host"),
        (1, "greedy", "Greedy bot 1"),
        (3, "expert", "Expert bot 3"),
    ]

    lobby_services.table_set_bot(table_id=table.pk, host=owner(host), seat=1, level=None)
    assert [s[0] for s in seats_of(table)] == [0, 3]


def test_only_the_host_handles_bots_and_never_over_a_person(users):
    host, bea, cal, _ = users
    table = lobby(host)
    lobby_services.table_join(table_id=table.pk, owner=owner(bea), seat=1)
    lobby_services.table_set_bot(table_id=table.pk, host=owner(host), seat=2, level="greedy")

    for who in (owner(bea), owner(cal), SeatOwner(session_key="guest-token-0123456789")):
        refused(
            table, "only the host", lobby_services.table_set_bot, host=who, seat=3, level="greedy"
        )
        refused(table, "only the host", lobby_services.table_set_bot, host=who, seat=2, level=None)
    me = owner(host)
    refused(table, "taken by Bea B.", lobby_services.table_set_bot, host=me, seat=1, level="greedy")
    refused(table, "taken by Bea B.", lobby_services.table_set_bot, host=me, seat=1, level=None)
    refused(table, "taken by host", lobby_services.table_set_bot, host=me, seat=0, level="expert")
    refused(table, "no bot called", lobby_services.table_set_bot, host=me, seat=3, level="cheater")
    refused(table, "no bot to take out", lobby_services.table_set_bot, host=me, seat=3, level=None)
    refused(
        table, "seats 0 to 3 only", lobby_services.table_set_bot, host=me, seat=4, level="greedy"
    )


def test_the_host_frees_a_friends_seat_for_someone_else(users):
    host, bea, cal, _ = users
    table = lobby(host)
    lobby_services.table_join(table_id=table.pk, owner=owner(bea), seat=1)

    lobby_services.table_free_seat(table_id=table.pk, host=owner(host), seat=1)

    assert [s[0] for s in seats_of(table)] == [0]
    lobby_services.table_join(table_id=table.pk, owner=owner(cal), seat=1)
    assert [(s[0], s[1]) for s in seats_of(table)] == [(0, host.pk), (1, cal.pk)]


def test_only_the_host_frees_a_seat_and_only_a_friends(users):
    host, bea, cal, _ = users
    table = lobby(host)
    lobby_services.table_join(table_id=table.pk, owner=owner(bea), seat=1)
    lobby_services.table_set_bot(table_id=table.pk, host=owner(host), seat=2, level="greedy")

    for who in (owner(bea), owner(cal), SeatOwner(session_key="guest-token-0123456789")):
        refused(table, "only the host", lobby_services.table_free_seat, host=who, seat=1)
    me = owner(host)
    refused(table, "the host keeps", lobby_services.table_free_seat, host=me, seat=0)
    refused(table, "nobody to ask", lobby_services.table_free_seat, host=me, seat=2)  # a bot
    refused(table, "nobody to ask", lobby_services.table_free_seat, host=me, seat=3)  # empty
    refused(table, "seats 0 to 3 only", lobby_services.table_free_seat, host=me, seat=4)


def test_the_host_closes_the_table_and_then_nothing_in_it_changes(users):
    host, bea, cal, _ = users
    table = lobby(host, public=True)
    lobby_services.table_join(table_id=table.pk, owner=owner(bea), seat=1)
    refused(table, "only the host", lobby_services.table_close, host=owner(bea))

    lobby_services.table_close(table_id=table.pk, host=owner(host))

    assert Table.objects.get(pk=table.pk).status == "closed"
    closed = "the host closed this table"
    refused(table, closed, lobby_services.table_join, owner=owner(cal))
    refused(table, closed, lobby_services.table_leave, owner=owner(bea))
    refused(table, closed, lobby_services.table_set_bot, host=owner(host), seat=2, level="greedy")
    refused(table, closed, lobby_services.table_free_seat, host=owner(host), seat=1)
    refused(table, closed, lobby_services.table_start, host=owner(host))
    refused(table, closed, lobby_services.table_close, host=owner(host))
    assert not selectors.open_public_tables()
    assert not selectors.tables_for_user(user_id=bea.pk)


def test_start_needs_the_host_and_every_seat_taken(users):
    host, bea, *_ = users
    table = lobby(host)
    lobby_services.table_join(table_id=table.pk, owner=owner(bea), seat=1)

    refused(table, "2 seats are still empty", lobby_services.table_start, host=owner(host))
    lobby_services.table_set_bot(table_id=table.pk, host=owner(host), seat=2, level="greedy")
    refused(table, "1 seat is still empty", lobby_services.table_start, host=owner(host))
    lobby_services.table_set_bot(table_id=table.pk, host=owner(host), seat=3, level="greedy")
    refused(table, "only the host", lobby_services.table_start, host=owner(bea))


def full_table(users, players=4) -> Table:
    """host in 0, Bea in 1, greedy bots in the rest, started."""
    host, bea, *_ = users
    teams = ((0, 2), (1, 3)) if players == 4 else tuple((n,) for n in range(players))
    table = lobby(host, players=players, teams=teams)
    lobby_services.table_join(table_id=table.pk, owner=owner(bea), seat=1)
    for seat in range(2, players):
        lobby_services.table_set_bot(table_id=table.pk, host=owner(host), seat=seat, level="greedy")
    lobby_services.table_start(table_id=table.pk, host=owner(host))
    table.refresh_from_db()
    return table


@pytest.mark.django_db(transaction=True)  # the bots answer once the start commits
def test_start_deals_the_first_round_and_the_bots_move_until_a_person_is_to_act(users):
    table = full_table(users)

    assert table.status == Table.Status.PLAYING
    (dealt,) = Round.objects.filter(table=table)
    assert dealt.dealer == table.first_dealer and [len(h) for h in dealt.hands] == [6] * 4
    match = store.match_for_table(table)
    assert match.current_player() in (0, 1)  # the people: the bots have moved
    assert all(log.seat in (2, 3) for log in ActionLog.objects.filter(table=table))


def test_nothing_in_the_lobby_changes_once_the_match_has_started(users):
    host, bea, cal, _ = users
    table = full_table(users)

    started = "already started"
    refused(table, started, lobby_services.table_join, owner=owner(cal))
    refused(table, started, lobby_services.table_leave, owner=owner(bea))
    refused(table, started, lobby_services.table_set_bot, host=owner(host), seat=2, level=None)
    refused(table, started, lobby_services.table_set_bot, host=owner(host), seat=3, level="expert")
    refused(table, started, lobby_services.table_start, host=owner(host))


@pytest.mark.django_db(transaction=True)  # the bots answer once the start commits
def test_only_the_seated_user_acts_for_a_seat(users):
    host, bea, cal, _ = users
    table = full_table(users)
    match = store.match_for_table(table)
    to_act = match.current_player()
    other = {0: bea, 1: host}[to_act]
    mover = {0: host, 1: bea}[to_act]
    action = action_code(match.legal_actions()[0])
    before = ActionLog.objects.filter(table=table).count()

    with pytest.raises(TableError, match="not your turn"):
        play.table_play(table_id=table.pk, seat_owner=owner(other), action=action)
    with pytest.raises(TableError, match="no seat"):
        play.table_play(table_id=table.pk, seat_owner=owner(cal), action=action)
    assert ActionLog.objects.filter(table=table).count() == before

    play.table_play(table_id=table.pk, seat_owner=owner(mover), action=action)
    # the mover's move, then the bots' answers
    assert ActionLog.objects.filter(table=table).order_by("round", "index")[before].seat == to_act


# --- Live updates and locking -----------------------------------------------------------


def test_every_change_tells_the_table_and_the_start_wakes_the_bots(users):
    host, bea, *_ = users
    with mock.patch.object(events, "announce") as announced:
        table = lobby(host)
        lobby_services.table_join(table_id=table.pk, owner=owner(bea), seat=1)
        lobby_services.table_leave(table_id=table.pk, owner=owner(bea))
        lobby_services.table_set_bot(table_id=table.pk, host=owner(host), seat=1, level="random")
        lobby_services.table_set_bot(table_id=table.pk, host=owner(host), seat=1, level=None)
        lobby_services.table_join(table_id=table.pk, owner=owner(bea), seat=1)
        lobby_services.table_free_seat(table_id=table.pk, host=owner(host), seat=1)
        for seat in (1, 2, 3):
            lobby_services.table_set_bot(
                table_id=table.pk, host=owner(host), seat=seat, level="random"
            )
        lobby_services.table_start(table_id=table.pk, host=owner(host))
        closing = lobby(host)
        lobby_services.table_close(table_id=closing.pk, host=owner(host))

    changes = [call.args[0] for call in announced.call_args_list]
    assert len(changes) == 13
    assert {change.table_id for change in changes} == {table.pk, closing.pk}
    # only the start has someone to act: the one change the bots' timetable looks at
    started = [change for change in changes if change.next is not events.Next.NOBODY]
    assert [change.table_id for change in started] == [table.pk] and changes[10] == started[0]


def test_a_refusal_tells_nobody(users):
    host, bea, *_ = users
    table = lobby(host)
    with mock.patch.object(events, "announce") as announced:
        with pytest.raises(TableError):
            lobby_services.table_start(table_id=table.pk, host=owner(host))
        with pytest.raises(TableError):
            lobby_services.table_leave(table_id=table.pk, owner=owner(bea))
    assert not announced.called


def test_every_lobby_change_locks_the_table_row_first(users):
    """Two people reaching for the same seat are served one after the other: each service
    reads the seats only after locking the table row (select_for_update)."""
    host, bea, *_ = users
    table = lobby(host)
    locked = []
    real = QuerySet.select_for_update

    def spy(queryset, *args, **kwargs):
        locked.append(queryset.model)
        return real(queryset, *args, **kwargs)

    with mock.patch.object(QuerySet, "select_for_update", autospec=True, side_effect=spy):
        calls = [
            lambda: lobby_services.table_join(table_id=table.pk, owner=owner(bea), seat=1),
            lambda: lobby_services.table_leave(table_id=table.pk, owner=owner(bea)),
            lambda: lobby_services.table_set_bot(
                table_id=table.pk, host=owner(host), seat=1, level="random"
            ),
            lambda: lobby_services.table_start(table_id=table.pk, host=owner(host)),
        ]
        for call in calls:
            locked.clear()
            try:
                call()
            except TableError:
                pass
            assert locked and locked[0] is Table


RACES = 8


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    not connection.features.has_select_for_update,
    reason="a real race needs row locks (PostgreSQL)",
)
@pytest.mark.parametrize("other", [("cal", 2), ("bea", 3)], ids=["rival", "same-person"])
def test_a_race_for_seats_ends_with_one_seat_each(django_user_model, fast_password_hashing, other):
    """Two joins at once: for the same seat, one wins; one person reaching for two seats
    (two tabs) gets one. Only the table row lock serves the second case (without it this
    fails about one race in three: hence several races)."""
    users = {
        name: django_user_model.objects.create_user(f"race{name}", password="passphrase 42")
        for name in ("host", "bea", "cal")
    }
    for _ in range(RACES):
        table = lobby(users["host"], players=4, teams=((0, 2), (1, 3)))
        lobby_services.table_set_bot(
            table_id=table.pk, host=owner(users["host"]), seat=1, level="random"
        )
        start = threading.Barrier(2)
        outcomes = []

        def reach(name, seat, table=table, start=start, outcomes=outcomes):
            start.wait()
            try:
                lobby_services.table_join(table_id=table.pk, owner=owner(users[name]), seat=seat)
                outcomes.append("seated")
            except TableError as error:
                outcomes.append(str(error))
            finally:
                connection.close()

        threads = [threading.Thread(target=reach, args=pair) for pair in (("bea", 2), other)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

        assert outcomes.count("seated") == 1, outcomes
        assert Seat.objects.filter(table=table).count() == 3
