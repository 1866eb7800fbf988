"""Limits that keep the site fair: a few unfinished bot tables per person, deserted tables
closed (their bots stop at once), finished guest tables pruned while signed-in players'
matches stay."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from game import turns
from game.models import ActionLog, Round, Seat, Table
from game.players.identity import SeatOwner
from game.services import limits, play

pytestmark = pytest.mark.django_db(transaction=True)

GREEDY = {"players": "4", "layout": "2v2", "bot_1": "greedy", "bot_2": "greedy", "bot_3": "greedy"}


def vs_bots(owner: SeatOwner) -> Table:
    return play.table_create_vs_bots(
        owner=owner, players=4, teams=[[0, 2], [1, 3]], bot_levels=["greedy"] * 3
    )


def test_one_guest_asking_for_many_bot_tables_keeps_only_a_few_in_play(client, settings):
    for _ in range(8):
        assert client.post("/play/", GREEDY).status_code == 302

    playing = Table.objects.filter(status=Table.Status.PLAYING)
    assert playing.count() == settings.SMEAR_BOT_TABLES_PER_PERSON
    assert Table.objects.filter(status=Table.Status.CLOSED).count() == 8 - playing.count()
    # the newest are the ones kept
    assert set(playing) == set(Table.objects.order_by("-pk")[: playing.count()])


def test_the_person_is_told_which_table_was_closed_for_room(client, settings):
    settings.SMEAR_BOT_TABLES_PER_PERSON = 1
    client.post("/play/", GREEDY)
    first = Table.objects.get()

    page = client.post("/play/", GREEDY, follow=True).text

    assert f"Your oldest table against bots, {first.code}, is closed" in page


def test_the_cap_is_per_person_and_a_closed_table_has_no_turn_for_its_bots(settings):
    settings.SMEAR_BOT_TABLES_PER_PERSON = 2
    alice, bob = SeatOwner(session_key="alice"), SeatOwner(user_id=None, session_key="bob")
    a1, a2, b1 = vs_bots(alice), vs_bots(alice), vs_bots(bob)

    a3 = vs_bots(alice)

    statuses = {t.pk: t.status for t in Table.objects.all()}
    assert statuses[a1.pk] == Table.Status.CLOSED
    assert statuses[a2.pk] == statuses[a3.pk] == statuses[b1.pk] == Table.Status.PLAYING
    assert turns.table_turn(table_id=a1.pk) is None


def test_a_signed_in_players_tables_count_by_user_not_by_session(django_user_model, settings):
    settings.SMEAR_BOT_TABLES_PER_PERSON = 1
    user = django_user_model.objects.create_user("ann")
    first = vs_bots(SeatOwner(user_id=user.pk, session_key="tab-1"))

    vs_bots(SeatOwner(user_id=user.pk, session_key="tab-2"))

    first.refresh_from_db()
    assert first.status == Table.Status.CLOSED


def test_a_table_whose_people_all_left_long_ago_is_closed_and_others_are_not(settings):
    deserted, waiting = vs_bots(SeatOwner(session_key="gone")), vs_bots(SeatOwner(session_key="x"))
    long_ago = timezone.now() - timedelta(seconds=settings.SMEAR_DESERTED_AFTER_S + 5)
    Seat.objects.filter(table=deserted, bot_level__isnull=True).update(away_since=long_ago)
    Seat.objects.filter(table=waiting, bot_level__isnull=True).update(away_since=timezone.now())

    call_command("prune_tables")

    deserted.refresh_from_db()
    waiting.refresh_from_db()
    assert deserted.status == Table.Status.CLOSED
    assert waiting.status == Table.Status.PLAYING


def test_pruning_deletes_old_finished_guest_tables_and_keeps_signed_in_players(
    django_user_model,
):
    user = django_user_model.objects.create_user("kept")
    guest_old = vs_bots(SeatOwner(session_key="old"))
    guest_new = vs_bots(SeatOwner(session_key="new"))
    signed_in = vs_bots(SeatOwner(user_id=user.pk))
    guest_playing = vs_bots(SeatOwner(session_key="playing"))
    Table.objects.filter(pk__in=[guest_old.pk, guest_new.pk, signed_in.pk]).update(
        status=Table.Status.FINISHED
    )
    two_days_ago = timezone.now() - timedelta(days=2)
    Table.objects.filter(pk__in=[guest_old.pk, signed_in.pk, guest_playing.pk]).update(
        created=two_days_ago
    )
    ActionLog.objects.filter(table__in=[guest_old, signed_in, guest_playing]).update(
        created=two_days_ago
    )

    call_command("prune_tables", "--older-than-hours", "24")

    left = set(Table.objects.values_list("pk", flat=True))
    assert left == {guest_new.pk, signed_in.pk, guest_playing.pk}
    # with its deal and moves: nothing of a pruned table is left, all of a kept one is
    assert not Round.objects.filter(table_id=guest_old.pk).exists()
    assert Round.objects.filter(table=signed_in).exists()


def test_the_unfinished_bot_tables_count_only_tables_where_the_person_is_alone():
    alice = SeatOwner(session_key="alice")
    table = vs_bots(alice)
    Seat.objects.filter(table=table, number=2).update(bot_level=None, session_key="friend")

    assert list(limits.unfinished_bot_tables(alice)) == []


def test_starting_tables_quickly_is_refused_past_a_few_a_minute(client, isolated_cache):
    answers = [
        client.post("/play/", GREEDY).status_code for _ in range(limits.TABLE_STARTS_PER_MINUTE + 2)
    ]

    assert answers.count(302) == limits.TABLE_STARTS_PER_MINUTE
    assert answers[-2:] == [429, 429]
    assert Table.objects.count() == limits.TABLE_STARTS_PER_MINUTE
