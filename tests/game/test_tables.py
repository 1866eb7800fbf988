"""Tables over the database: creating one against bots, storing moves, bots, rounds, match end."""

import pytest
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from game import selectors, store
from game.engine import record
from game.engine.rules import action_code
from game.errors import TableError
from game.models import ActionLog, Round, Seat, Table
from game.players.identity import SeatOwner
from game.services import play
from smearsite import kernel
from tests.game.driving import bots_answer

pytestmark = pytest.mark.django_db

GUEST = SeatOwner(session_key="guest-session-key-0123456789abcdef")
STRANGER = SeatOwner(session_key="someone-else-0123456789abcdef")


def make_table(players=4, teams=((0, 2), (1, 3)), target=21) -> Table:
    return play.table_create_vs_bots(
        owner=GUEST,
        players=players,
        teams=[list(unit) for unit in teams],
        bot_levels=["greedy"] * (players - 1),
        target=target,
    )


def match_of(table: Table):
    table.refresh_from_db()
    return store.match_for_table(table)


def play_first_legal(table: Table) -> None:
    """Seat 0 plays its first legal action, then the bots answer."""
    match = match_of(table)
    play.table_play(
        table_id=table.pk, seat_owner=GUEST, action=action_code(match.legal_actions()[0])
    )
    bots_answer(table.pk)


def finish_round(table: Table) -> None:
    rounds = Round.objects.filter(table=table).count()
    bots_answer(table.pk)
    while Round.objects.filter(table=table).count() == rounds:
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED:
            return
        play_first_legal(table)


def test_create_seats_the_owner_and_bots_and_deals_the_first_round():
    table = make_table()

    assert table.status == Table.Status.PLAYING and len(table.code) == kernel.CODE_LENGTH
    seats = list(table.seats.all())
    assert [s.number for s in seats] == [0, 1, 2, 3]
    assert seats[0].session_key == GUEST.session_key and seats[0].bot_level is None
    assert [s.bot_level for s in seats[1:]] == ["greedy"] * 3
    (dealt,) = Round.objects.filter(table=table)
    assert dealt.dealer == table.first_dealer
    assert [len(hand) for hand in dealt.hands] == [6] * 4 and len(dealt.hidden) == 2
    assert not ActionLog.objects.filter(table=table).exists()


def test_create_refuses_a_layout_that_is_not_a_partition():
    with pytest.raises(TableError):
        make_table(teams=((0, 1), (1, 3)))
    assert not Table.objects.exists()


def test_bots_advance_until_the_person_is_to_act():
    table = make_table()

    bots_answer(table.pk)

    match = match_of(table)
    assert match.current_player() == 0
    stored = list(ActionLog.objects.filter(table=table))
    assert all(log.seat != 0 for log in stored)
    assert [log.index for log in stored] == list(range(len(stored)))


def test_a_legal_play_is_stored_in_order():
    table = make_table()
    bots_answer(table.pk)
    before = ActionLog.objects.filter(table=table).count()
    legal = match_of(table).legal_actions()

    play.table_play(table_id=table.pk, seat_owner=GUEST, action=action_code(legal[-1]))

    last = ActionLog.objects.filter(table=table).last()
    assert (last.index, last.seat, last.action) == (before, 0, action_code(legal[-1]))


def test_a_stored_move_is_one_row_with_its_time_and_counts_on_the_table():
    table = make_table()
    bots_answer(table.pk)
    match = match_of(table)
    number, index = len(match.rounds) - 1, len(match.round.history)
    moves, action = table.moves, action_code(match.legal_actions()[0])
    before = timezone.now()

    play.table_play(table_id=table.pk, seat_owner=GUEST, action=action)

    row = ActionLog.objects.get(table=table, round=number, index=index)
    assert (row.seat, row.action) == (0, action)
    assert before <= row.created <= timezone.now()
    table.refresh_from_db()
    assert table.moves == moves + 1


def test_a_move_whose_place_is_taken_is_refused_and_counts_nothing():
    """Another process stored a move at that place first (this one's match does not know
    it yet): the unique index refuses the second, and the move count stays as it was."""
    table = make_table()
    bots_answer(table.pk)
    match = match_of(table)  # kept for the table's version, which the row below leaves
    number, index = len(match.rounds) - 1, len(match.round.history)
    moves, action = table.moves, action_code(match.legal_actions()[0])
    ActionLog.objects.create(table=table, round=number, index=index, seat=0, action=action)

    with pytest.raises(TableError, match="already made"):
        play.table_play(table_id=table.pk, seat_owner=GUEST, action=action)

    table.refresh_from_db()
    assert table.moves == moves
    assert ActionLog.objects.filter(table=table, round=number, index=index).count() == 1


def test_an_illegal_action_raises_and_stores_nothing():
    table = make_table()
    bots_answer(table.pk)
    before = ActionLog.objects.filter(table=table).count()
    hand_card = match_of(table).round.deal.hands[0].bit_length() - 1

    for bad in (action_code(hand_card), "bid:9", "XQ", "", "play"):  # a card in the auction
        with pytest.raises(TableError):
            play.table_play(table_id=table.pk, seat_owner=GUEST, action=bad)

    assert ActionLog.objects.filter(table=table).count() == before


def test_out_of_turn_and_strangers_are_refused():
    table = make_table()
    bots_answer(table.pk)

    with pytest.raises(TableError, match="no seat"):
        play.table_play(table_id=table.pk, seat_owner=STRANGER, action="pass")
    play.table_play(
        table_id=table.pk, seat_owner=GUEST, action=action_code(match_of(table).legal_actions()[0])
    )
    count = ActionLog.objects.filter(table=table).count()
    if match_of(table).current_player() != 0:
        with pytest.raises(TableError, match="not your turn"):
            play.table_play(table_id=table.pk, seat_owner=GUEST, action="pass")
    assert ActionLog.objects.filter(table=table).count() == count


def test_a_double_submit_of_the_same_move_applies_once():
    table = make_table()
    bots_answer(table.pk)
    match = match_of(table)
    index = len(match.round.history)
    action = action_code(match.legal_actions()[0])

    play.table_play(table_id=table.pk, seat_owner=GUEST, action=action, index=index)
    with pytest.raises(TableError, match="not your turn"):
        play.table_play(table_id=table.pk, seat_owner=GUEST, action=action, index=index)

    assert ActionLog.objects.filter(table=table, seat=0).count() == 1


def test_a_finished_round_deals_the_next_one_from_the_next_dealer():
    table = make_table()

    finish_round(table)

    first, second = Round.objects.filter(table=table)
    assert second.dealer == (first.dealer + 1) % 4
    match = match_of(table)
    assert len(match.rounds) == 2 and match.rounds[0].result is not None
    assert not match.round.is_terminal()


def test_the_match_ends_when_a_bidder_reaches_the_target():
    table = make_table(players=3, teams=((0,), (1,), (2,)), target=2)

    for _ in range(40):
        finish_round(table)
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED:
            break

    assert table.status == Table.Status.FINISHED
    match = match_of(table)
    assert match.is_terminal() and match.winner is not None
    assert Round.objects.filter(table=table).count() == len(match.rounds)  # no round dealt after
    with pytest.raises(TableError, match="over"):
        play.table_play(table_id=table.pk, seat_owner=GUEST, action="pass")
    assert bots_answer(table.pk) == 0


def test_the_stored_table_replays_as_a_game_record():
    table = make_table()
    finish_round(table)

    written = record.write(store.finished_match_for_table(table))
    replayed = record.replay(written)

    assert "error" not in replayed and len(replayed["rounds"]) == 1
    assert written["rounds"][0]["hands"] == Round.objects.get(table=table, number=0).hands


def test_a_rematch_seats_the_same_bots_at_a_new_table():
    table = make_table(players=3, teams=((0,), (1,), (2,)), target=1)
    with pytest.raises(TableError, match="not over"):
        play.table_rematch(table_id=table.pk, owner=GUEST)
    table.status = Table.Status.FINISHED
    table.save()

    fresh = play.table_rematch(table_id=table.pk, owner=GUEST)

    assert fresh.pk != table.pk and fresh.teams == table.teams and fresh.target == 1
    assert [s.bot_level for s in fresh.seats.all()] == [None, "greedy", "greedy"]


def test_the_database_refuses_a_second_action_at_the_same_place():
    table = make_table()
    ActionLog.objects.create(table=table, round=0, index=0, seat=1, action="pass")

    with pytest.raises(IntegrityError), transaction.atomic():
        ActionLog.objects.create(table=table, round=0, index=0, seat=1, action="bid:1")


def test_a_rematch_keeps_the_people_in_their_seats_and_everyone_goes_to_the_same_one():
    table = make_table(players=3, teams=((0,), (1,), (2,)), target=1)
    friend = SeatOwner(session_key="friend-token")
    Seat.objects.filter(table=table, number=2).update(
        bot_level=None, session_key=friend.session_key, display_name="Friend"
    )
    table.status = Table.Status.FINISHED
    table.save()

    fresh = play.table_rematch(table_id=table.pk, owner=GUEST)
    again = play.table_rematch(table_id=table.pk, owner=friend)

    assert again.pk == fresh.pk and Table.objects.count() == 2
    seats = list(fresh.seats.all())
    assert [s.bot_level for s in seats] == [None, "greedy", None]
    assert seats[2].session_key == "friend-token" and fresh.status == Table.Status.PLAYING
    table.refresh_from_db()
    old_page = selectors.table_view_for(table=table, seat_owner=friend)
    assert old_page.rematch_code == fresh.code


def test_the_rebuilt_match_is_reused_until_the_table_moves_on(django_assert_num_queries):
    table = make_table()
    first = match_of(table)

    with django_assert_num_queries(1):  # the table's version, not the deals and actions
        assert store.match_for_table(table) is first

    if first.current_player() == 0:
        play_first_legal(table)
    else:
        bots_answer(table.pk, max_moves=1)
    moved = match_of(table)
    assert moved is not first and len(moved.round.history) > len(first.round.history)
    assert moved.round.history == store._replay(table).round.history


def test_each_version_built_from_the_last_equals_a_full_replay():
    table = make_table(players=3, teams=((0,), (1,), (2,)))  # nobody reaches 21 in a round
    for _ in range(200):
        match = store.match_for_table(table)
        if len(match.rounds) > 2:
            break
        full = store._replay(table)
        assert [r.history for r in match.rounds] == [r.history for r in full.rounds]
        assert match.scores == full.scores
        if match.current_player() == 0:
            play_first_legal(table)
        else:
            bots_answer(table.pk, max_moves=1)
    assert len(store.match_for_table(table).rounds) > 2


def test_a_stored_move_is_remembered_for_the_redraws_once_committed(
    django_capture_on_commit_callbacks, django_assert_num_queries
):
    table = make_table()
    bots_answer(table.pk)
    legal = match_of(table).legal_actions()

    with django_capture_on_commit_callbacks(execute=True):
        play.table_play(table_id=table.pk, seat_owner=GUEST, action=legal[0])

    with django_assert_num_queries(1):  # the table's version: the move's own match, no replay
        remembered = store.match_for_table(table)
    assert remembered.round.history == store._replay(table).round.history


def test_a_move_rolled_back_is_never_remembered(django_capture_on_commit_callbacks):
    table = make_table()
    bots_answer(table.pk)
    before = match_of(table)
    undone, stored = before.legal_actions()[0], before.legal_actions()[-1]
    assert undone != stored

    with django_capture_on_commit_callbacks(execute=True):
        with pytest.raises(RuntimeError), transaction.atomic():
            play.table_play(table_id=table.pk, seat_owner=GUEST, action=undone)
            raise RuntimeError("the transaction fails after the move")
    # another server process stores the other move there: this process only reads it
    ActionLog.objects.create(
        table=table, round=0, index=len(before.round.history), seat=0, action=action_code(stored)
    )
    Table.objects.filter(pk=table.pk).update(moves=F("moves") + 1)

    assert match_of(table).round.history[-1] == stored
