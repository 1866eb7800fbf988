"""Bots at a human pace off the event loop: the timetable's looks, the pace, a bot standing
in for an absent person, and a turn that moved on meanwhile."""

import multiprocessing
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from datetime import timedelta
from unittest import mock

import pytest
from django.template.loader import render_to_string
from django.utils import timezone

from game import selectors
from game.engine.rules import action_code
from game.live import bot_runner, events, store, turns
from game.live.bot_runner import Runner
from game.models import ActionLog, Seat, Table
from game.players.identity import SeatOwner
from game.services import play

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("quiet_timetable"),
]

GUEST = SeatOwner(session_key="guest-token")
FOREVER = 3600.0


def new_table(levels=("greedy", "greedy", "greedy")) -> Table:
    return play.table_create_vs_bots(
        owner=GUEST, players=4, teams=[[0, 2], [1, 3]], bot_levels=list(levels)
    )


def to_act(table: Table) -> int | None:
    return store.match_for_table(table).current_player()


def bots_settle(runner: Runner, table: Table) -> None:
    for _ in range(20):
        if to_act(table) == 0:
            return
        runner.look(table.pk)
    raise AssertionError("the bots did not settle")


def test_looks_play_the_bots_until_the_person_is_to_act_then_wait_for_them():
    table = new_table()
    runner = Runner(pace_s=0, away_after_s=FOREVER, think=None)

    bots_settle(runner, table)
    stored = ActionLog.objects.filter(table=table).count()
    again = runner.look(table.pk)

    assert again is not None and again - time.monotonic() > FOREVER - 60
    assert ActionLog.objects.filter(table=table).count() == stored


def test_a_bot_waits_out_the_pace_then_plays_the_move_it_chose():
    table = new_table()
    patient = Runner(pace_s=0, away_after_s=FOREVER, think=None)
    bots_settle(patient, table)
    while to_act(table) == 0:  # the guest may win the auction and lead: play on to a bot
        match = store.match_for_table(table)
        play.table_play(table_id=table.pk, seat_owner=GUEST, action=match.legal_actions()[0])
    bot = to_act(table)
    runner = Runner(pace_s=30, away_after_s=FOREVER, think=None)
    stored = ActionLog.objects.filter(table=table).count()

    again = runner.look(table.pk)

    assert 25 < again - time.monotonic() <= 30
    assert ActionLog.objects.filter(table=table).count() == stored
    chosen = runner._chosen[table.pk].action
    runner.pace_s = 0
    runner.look(table.pk)
    last = ActionLog.objects.filter(table=table).order_by("-round", "-index").first()
    assert ActionLog.objects.filter(table=table).count() == stored + 1
    assert last.action == action_code(chosen) and last.seat == bot


def test_a_person_gone_on_their_turn_is_played_by_a_bot_until_they_return():
    table = new_table()
    runner = Runner(pace_s=0, away_after_s=0, think=None)
    bots_settle(Runner(pace_s=0, away_after_s=FOREVER, think=None), table)

    runner.look(table.pk)

    first = ActionLog.objects.filter(table=table, seat=0).first()
    assert first is not None
    seat = Seat.objects.get(table=table, number=0)
    assert seat.away_since is not None
    page = selectors.table_view_for(table=table, seat_owner=GUEST)
    assert any(info.stand_in for info in page.seats if info.number == 0)

    assert play.table_seat_back(table_id=table.pk, seat_owner=GUEST)
    assert Seat.objects.get(table=table, number=0).away_since is None
    # back: the next look at their turn waits for them again
    bots_settle(Runner(pace_s=0, away_after_s=FOREVER, think=None), table)
    if to_act(table) == 0:
        assert Runner(pace_s=0, away_after_s=FOREVER, think=None).look(table.pk) is not None
        assert ActionLog.objects.filter(table=table, seat=0).count() == 1


def test_a_table_everyone_left_long_ago_waits_for_the_first_to_come_back():
    table = new_table()
    bots_settle(Runner(pace_s=0, away_after_s=FOREVER, think=None), table)
    Seat.objects.filter(table=table, number=0).update(
        away_since=timezone.now() - timedelta(hours=1)
    )
    stored = ActionLog.objects.filter(table=table).count()

    def look() -> float | None:
        return Runner(pace_s=0, away_after_s=0, think=None).look(table.pk)

    assert look() is None  # nobody to play for: not even a later look
    assert ActionLog.objects.filter(table=table).count() == stored
    spectator = selectors.table_page_context(
        table=table, seat_owner=SeatOwner(session_key="a-spectator")
    )
    page = render_to_string("game/table.html#table", spectator)
    assert "(away)" in page and "a bot is playing" not in page

    play.table_seat_back(table_id=table.pk, seat_owner=GUEST)
    look()  # they are back, and then gone on their turn again: a bot stands in
    assert ActionLog.objects.filter(table=table).count() == stored + 1


def test_while_one_person_is_here_the_bots_stand_in_for_the_others():
    table = new_table()
    Seat.objects.filter(table=table, number=2).update(bot_level=None, session_key="friend")
    for _ in range(20):
        if to_act(table) == 0:
            break
        Runner(pace_s=0, away_after_s=0, think=None).look(table.pk)  # stands in for 2
    Seat.objects.filter(table=table).update(away_since=None)
    Seat.objects.filter(table=table, number=0).update(
        away_since=timezone.now() - timedelta(hours=1)
    )
    stored = ActionLog.objects.filter(table=table).count()

    Runner(pace_s=0, away_after_s=FOREVER, think=None).look(table.pk)

    assert ActionLog.objects.filter(table=table).count() == stored + 1


def test_a_person_who_plays_again_gets_the_seat_back():
    table = new_table()
    bots_settle(Runner(pace_s=0, away_after_s=FOREVER, think=None), table)
    Runner(pace_s=0, away_after_s=0, think=None).look(table.pk)
    bots_settle(Runner(pace_s=0, away_after_s=FOREVER, think=None), table)
    match = store.match_for_table(table)
    # bots_settle returns only with the guest to act, whatever the deal: nothing to skip
    assert match.current_player() == 0

    play.table_play(table_id=table.pk, seat_owner=GUEST, action=match.legal_actions()[0])

    assert Seat.objects.get(table=table, number=0).away_since is None


def test_a_move_for_a_turn_the_table_has_left_is_not_stored():
    table = new_table()
    bots_settle(Runner(pace_s=0, away_after_s=FOREVER, think=None), table)
    turn = turns.table_turn(table_id=table.pk)
    play.table_play(table_id=table.pk, seat_owner=GUEST, action=turn.legal[0])
    stored = ActionLog.objects.filter(table=table).count()

    assert not play.table_play_for_turn(table_id=table.pk, turn=turn, action=turn.legal[0])
    assert ActionLog.objects.filter(table=table).count() == stored


def test_the_thinking_runs_in_a_worker_process():
    table = new_table(levels=("expert", "greedy", "random"))
    if to_act(table) == 0:
        match = store.match_for_table(table)
        play.table_play(table_id=table.pk, seat_owner=GUEST, action=match.legal_actions()[0])
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
    runner = Runner(pace_s=0, away_after_s=FOREVER, think=pool)
    bot_runner.use(runner)  # as in production: the process's timetable hears every move
    try:
        runner.wake(table.pk)  # a look asks the worker; its choice wakes the table again
        deadline = time.monotonic() + 60
        while to_act(table) != 0 and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        runner.stop()
        pool.shutdown()
    assert to_act(table) == 0
    assert ActionLog.objects.filter(table=table).exclude(seat=0).exists()


def test_the_timetable_thread_moves_the_bots_at_its_pace():
    table = new_table()
    runner = Runner(pace_s=0.05, away_after_s=FOREVER, think=None)
    bot_runner.use(runner)  # as in production: the process's timetable hears every move

    try:
        runner.wake(table.pk)
        deadline = time.monotonic() + 20
        while to_act(table) != 0 and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        runner.stop()  # no look may outlive the test's database
    assert to_act(table) == 0


def test_a_stopped_timetable_looks_no_more():
    table = new_table()
    bots_settle(Runner(pace_s=0, away_after_s=FOREVER, think=None), table)
    play.table_play(
        table_id=table.pk, seat_owner=GUEST, action=store.match_for_table(table).legal_actions()[0]
    )
    stored = ActionLog.objects.filter(table=table).count()
    runner = Runner(pace_s=0, away_after_s=FOREVER, think=None)
    started = _bot_threads_started_by(
        lambda: runner.wake(table.pk, at=time.monotonic() + 3600)  # nothing due yet
    )
    assert started, "the wake started no timetable thread"
    runner.stop()
    assert not [t for t in started if t.is_alive()]  # stop() joined the timetable thread

    # a bot is due now; a wake that started a thread again would show it at once, since
    # Thread.start() returns only once the thread runs: there is nothing to wait out
    assert not _bot_threads_started_by(lambda: runner.wake(table.pk))
    assert ActionLog.objects.filter(table=table).count() == stored


def _bot_threads_started_by(call) -> list[threading.Thread]:
    """The timetable's and its looks' threads that ``call()`` started and left running."""
    before = set(threading.enumerate())
    call()
    return [t for t in set(threading.enumerate()) - before if t.name.startswith("bot-")]


def test_an_away_person_sees_why_and_takes_the_seat_back_from_the_page(client):
    client.post(
        "/play/",
        {"players": "4", "layout": "2v2", "bot_1": "greedy", "bot_2": "greedy", "bot_3": "greedy"},
    )
    table = Table.objects.get()
    Seat.objects.filter(table=table, number=0).update(away_since=timezone.now())

    page = client.get(f"/table/{table.code}/").text
    assert "a bot has been playing for you" in page

    response = client.post(f"/table/{table.code}/back", HTTP_HX_REQUEST="true")
    assert "a bot has been playing for you" not in response.text
    assert Seat.objects.get(table=table, number=0).away_since is None


def test_a_returning_persons_move_is_announced_once():
    table = new_table()
    bots_settle(Runner(pace_s=0, away_after_s=FOREVER, think=None), table)
    Seat.objects.filter(table=table, number=0).update(away_since=timezone.now())
    match = store.match_for_table(table)

    with mock.patch.object(events, "_deliver") as announced:
        play.table_play(table_id=table.pk, seat_owner=GUEST, action=match.legal_actions()[0])

    assert Seat.objects.get(table=table, number=0).away_since is None
    assert announced.call_count == 1  # the move and the return: one redraw for every seat


class HeldPool:
    """An executor whose work waits until the test lets it finish: what was handed out,
    in order."""

    def __init__(self) -> None:
        self.handed: list[tuple[Future, tuple]] = []

    def submit(self, fn, *args):
        future = Future()
        self.handed.append((future, args))
        return future

    def finish_first(self) -> None:
        future, args = self.handed.pop(0)
        _, view, legal, *_ = args
        future.set_result(legal[0])


def guest_table(token: str) -> Table:
    return play.table_create_vs_bots(
        owner=SeatOwner(session_key=token),
        players=4,
        teams=[[0, 2], [1, 3]],
        bot_levels=["greedy"] * 3,
    )


def _turn_of(table: Table, *, someone_here: bool):
    import dataclasses

    return dataclasses.replace(turns.table_turn(table_id=table.pk), someone_here=someone_here)


def test_the_workers_serve_tables_with_a_person_here_first():
    pool = HeldPool()
    runner = Runner(
        pace_s=FOREVER, away_after_s=FOREVER, think=pool, think_slots=1, synchronous=True
    )
    busy, deserted, present = (guest_table(token) for token in ("busy", "deserted", "here"))

    runner._think_about(busy.pk, "greedy", _turn_of(busy, someone_here=False))
    runner._think_about(deserted.pk, "greedy", _turn_of(deserted, someone_here=False))
    runner._think_about(present.pk, "greedy", _turn_of(present, someone_here=True))
    assert len(pool.handed) == 1  # one worker, one choice at a time
    pool.finish_first()

    # the table with a person here goes before the one that asked earlier
    assert len(pool.handed) == 1
    assert pool.handed[0][1][1] == turns.table_turn(table_id=present.pk).view


def test_the_choices_handed_out_at_once_scale_with_the_worker_count():
    pool = HeldPool()
    runner = Runner(
        pace_s=FOREVER, away_after_s=FOREVER, think=pool, think_slots=2, synchronous=True
    )
    tables = [guest_table(f"guest-{n}") for n in range(5)]

    for table in tables:
        runner._think_about(table.pk, "greedy", _turn_of(table, someone_here=True))
        runner._think_about(table.pk, "greedy", _turn_of(table, someone_here=True))  # again

    assert len(pool.handed) == 2
    for _ in range(5):
        pool.finish_first()
    assert len(pool.handed) == 0 and not runner._waiting


def test_with_choices_waiting_behind_it_a_bot_thinks_its_share_of_one_pace():
    pool = HeldPool()
    pace_s = 40.0
    runner = Runner(
        pace_s=pace_s, away_after_s=FOREVER, think=pool, think_slots=1, synchronous=True
    )
    tables = [guest_table(f"guest-{n}") for n in range(5)]
    for table in tables:
        runner._think_about(table.pk, "greedy", _turn_of(table, someone_here=True))
    first_until = pool.handed[0][1][5]
    pool.finish_first()  # the next is handed out with three still waiting behind it
    handed_at = time.time()
    second_until = pool.handed[0][1][5]

    assert first_until > handed_at + pace_s - 5  # nothing behind it: until its move is due
    assert second_until == pytest.approx(handed_at + pace_s / 4, abs=2)


def test_a_choice_asked_while_the_process_ends_is_dropped_without_a_traceback(caplog):
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
    pool.shutdown()
    runner = Runner(pace_s=0, away_after_s=0, think=pool)
    table = new_table()

    runner.look(table.pk)  # someone is always to act: the guest's stand-in at least

    assert runner._stopped
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]


def test_a_person_whose_page_is_here_but_was_never_shown_the_turn_is_not_benched():
    # the broadcast of their turn was lost: their page speaks (its heartbeat), shows nothing
    table = new_table()
    bots_settle(Runner(pace_s=0, away_after_s=FOREVER, think=None), table)
    Seat.objects.filter(table=table, number=0).update(heard_at=timezone.now())
    runner = Runner(pace_s=0, away_after_s=0, think=None)

    again = runner.look(table.pk)

    assert again is not None and again - time.monotonic() <= bot_runner.SHOWN_RECHECK_S
    assert Seat.objects.get(table=table, number=0).away_since is None


def test_the_away_countdown_runs_from_when_the_page_showed_the_turn():
    table = new_table()
    bots_settle(Runner(pace_s=0, away_after_s=FOREVER, think=None), table)
    table.refresh_from_db()
    # the turn began 40 s ago; the page showed it 30 s ago (its broadcast was late)
    began = timezone.now() - timedelta(seconds=40)
    ActionLog.objects.filter(table=table).update(created=began)
    Table.objects.filter(pk=table.pk).update(created=began)  # no move yet: the turn's start
    shown = timezone.now() - timedelta(seconds=30)
    Seat.objects.filter(table=table, number=0).update(
        heard_at=timezone.now(), shown_version=table.moves, shown_at=shown
    )

    waiting = Runner(pace_s=0, away_after_s=60, think=None).look(table.pk)
    assert 25 < waiting - time.monotonic() <= 30  # 60 s from the showing, not the turn
    Runner(pace_s=0, away_after_s=20, think=None).look(table.pk)
    assert Seat.objects.get(table=table, number=0).away_since is not None  # 30 s > 20 s


def test_a_table_whose_look_is_overdue_is_claimed_by_one_process_for_a_lease():
    from game.live import look_due

    table = new_table()
    late = timezone.now() - timedelta(seconds=look_due.TAKEOVER_S + 1)
    Table.objects.filter(pk=table.pk).update(look_at=late)

    first, second = look_due.claim_overdue(), look_due.claim_overdue()

    assert table.pk in first and table.pk not in second
    assert Table.objects.get(pk=table.pk).look_at > timezone.now()


def test_a_stored_move_says_when_the_table_is_next_due_a_look():
    table = new_table()
    bots_settle(Runner(pace_s=0, away_after_s=FOREVER, think=None), table)

    look_at = Table.objects.get(pk=table.pk).look_at  # the person's turn: their countdown

    assert look_at is not None and look_at > timezone.now() + timedelta(seconds=10)
