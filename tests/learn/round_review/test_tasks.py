"""The review on the task queue: asked twice it is worked once, and a worker killed in the
middle of it leaves the rest to the next worker, losing nothing and redoing nothing."""

import time
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import OperationalError
from django.db.models import F
from django_tasks_db.models import DBTaskResult

from game.engine.state import MatchState, RoundState
from learn.models import RoundReview
from learn.round_review import decisions, services, tasks, worker
from tests.game.stored import stored_table
from tests.learn.reviewing import BLUNDER_SEAT, monster_round

# the worker closes and reopens its database connection, as a real one does: no test
# transaction around it
pytestmark = pytest.mark.django_db(transaction=True)


class Killed(BaseException):
    """What a worker's death looks like from inside: the work stops where it is."""


def _table(user=None):
    seats = [{"bot_level": "greedy"} for _ in range(4)]
    seats[BLUNDER_SEAT] = {"session_key": "me"} if user is None else {"user": user}
    return stored_table(monster_round("pass"), seats, status="finished")


def _counting(calls: list, die_after: int | None = None):
    def analyse(moment, seed):
        if die_after is not None and len(calls) == die_after:
            raise Killed
        calls.append(moment.index)
        return decisions.review_moment(moment, seed=seed)

    return analyse


def _lease_runs_out() -> None:
    """The clock moves past every lease: as if a lease's length went by."""
    passed = tasks.LEASE + timedelta(seconds=1)
    RoundReview.objects.update(
        enqueued_at=F("enqueued_at") - passed, lease_until=F("lease_until") - passed
    )


def _worker() -> None:
    call_command("db_worker", batch=True, startup_delay=False, interval=0, verbosity=0)


def test_asking_twice_queues_one_task_and_the_worker_finishes_the_review():
    table = _table()
    first = services.review_request(table=table, seat=BLUNDER_SEAT, number=0)
    again = services.review_request(table=table, seat=BLUNDER_SEAT, number=0)
    assert first.pk == again.pk
    assert RoundReview.objects.count() == 1
    assert DBTaskResult.objects.count() == 1

    _worker()
    done = RoundReview.objects.get()
    assert done.status == RoundReview.Status.DONE
    expected = decisions.moments(monster_round("pass"), 0, BLUNDER_SEAT)
    assert done.total == len(expected) == len(done.decisions)
    assert [d["index"] for d in done.decisions] == [m.index for m in expected]
    assert done.decisions[0]["grade"] == "blunder"
    assert DBTaskResult.objects.get().status == "SUCCESSFUL"


def test_a_second_task_for_a_done_review_does_no_work():
    table = _table()
    found = services.review_request(table=table, seat=BLUNDER_SEAT, number=0)
    tasks.review_round.enqueue(found.pk)  # a duplicate, as a retry might queue
    calls = []
    assert tasks.review_work(review_id=found.pk, analyse=_counting(calls))
    assert not tasks.review_work(review_id=found.pk, analyse=_counting(calls))
    _worker()  # both queued tasks run: the review is done, so neither analyses again
    assert len(calls) == RoundReview.objects.get().total
    assert len(RoundReview.objects.get().decisions) == len(calls)


def test_a_live_lease_keeps_a_second_worker_off_the_review():
    found = services.review_request(table=_table(), seat=BLUNDER_SEAT, number=0)
    calls = []
    with pytest.raises(Killed):
        tasks.review_work(review_id=found.pk, analyse=_counting(calls, die_after=2))
    # the worker is gone, but its lease has not run out yet: nobody else starts
    assert not tasks.review_work(review_id=found.pk, analyse=_counting(calls))
    assert calls == [m.index for m in decisions.moments(monster_round("pass"), 0, 1)][:2]
    assert not tasks.stale_reviews().exists()


def test_a_worker_killed_mid_review_leaves_the_rest_to_the_next_one():
    found = services.review_request(table=_table(), seat=BLUNDER_SEAT, number=0)
    DBTaskResult.objects.all().delete()  # the killed worker's task: it stays "running"
    first = []
    with pytest.raises(Killed):
        tasks.review_work(review_id=found.pk, analyse=_counting(first, die_after=2))
    stored = RoundReview.objects.get()
    assert stored.status == RoundReview.Status.RUNNING
    assert [d["index"] for d in stored.decisions] == first  # kept, not lost

    # the lease runs out: asking for the review again queues it again, once
    _lease_runs_out()
    assert list(tasks.stale_reviews()) == [stored]
    services.review_request(table=stored.table, seat=BLUNDER_SEAT, number=0)
    services.review_keep_going(review=stored)
    assert DBTaskResult.objects.count() == 1

    second = []
    assert tasks.review_work(review_id=found.pk, analyse=_counting(second))
    done = RoundReview.objects.get()
    assert done.status == RoundReview.Status.DONE
    assert not set(first) & set(second)  # no decision analysed twice
    assert [d["index"] for d in done.decisions] == first + second
    assert len(done.decisions) == done.total


def test_the_next_worker_resumes_a_dead_workers_review_on_its_own():
    found = services.review_request(table=_table(), seat=BLUNDER_SEAT, number=0)
    DBTaskResult.objects.all().delete()
    with pytest.raises(Killed):
        tasks.review_work(review_id=found.pk, analyse=_counting([], die_after=1))
    _lease_runs_out()
    # any other review's task resumes stale ones before its own work
    other = services.review_request(table=_table(), seat=BLUNDER_SEAT, number=0)
    _worker()
    assert set(RoundReview.objects.values_list("status", flat=True)) == {"done"}
    assert RoundReview.objects.get(pk=found.pk).total == len(
        RoundReview.objects.get(pk=found.pk).decisions
    )
    assert other.pk != found.pk


def test_a_round_in_play_cannot_be_reviewed():
    match = monster_round("pass")
    seats = [{"bot_level": "greedy"}] * 4
    state = match.rounds[0]
    cut = RoundState(state.setup, state.deal, state.scores)
    for action in state.history[:5]:
        cut = cut.apply(action)
    table = stored_table(MatchState(match.setup, 0, (cut,)), seats)
    with pytest.raises(services.NoSuchRound):
        services.review_request(table=table, seat=BLUNDER_SEAT, number=0)
    assert not RoundReview.objects.exists()


def test_a_worker_keeps_its_lease_while_one_decision_takes_longer_than_it(monkeypatch):
    monkeypatch.setattr(tasks, "LEASE", timedelta(seconds=1))
    monkeypatch.setattr(tasks, "LEASE_RENEW_EVERY_S", 0.1)
    found = services.review_request(table=_table(), seat=BLUNDER_SEAT, number=0)
    held_while_working = []

    def slow(moment, seed):
        time.sleep(1.5)  # past the lease's length: only its renewal keeps the review
        held_while_working.append(not tasks.stale_reviews().filter(pk=found.pk).exists())
        return decisions.review_moment(moment, seed=seed)

    assert tasks.review_work(review_id=found.pk, analyse=slow)
    assert held_while_working and all(held_while_working)


def test_a_dead_workers_review_is_free_for_another_within_the_lease():
    found = services.review_request(table=_table(), seat=BLUNDER_SEAT, number=0)
    with pytest.raises(Killed):
        tasks.review_work(review_id=found.pk, analyse=_counting([], die_after=1))

    assert tasks.LEASE <= timedelta(seconds=30)
    _lease_runs_out()
    assert tasks.stale_reviews().filter(pk=found.pk).exists()


def test_the_review_worker_never_reloads_and_beats(monkeypatch):
    from learn.management.commands import review_worker

    ran = {}
    monkeypatch.setattr(review_worker, "call_command", lambda *a, **kw: ran.update(kw))

    call_command("review_worker", interval=1)

    assert ran["reload"] is False
    assert worker.worker_running()


def test_the_workers_periodic_job_resumes_a_dead_workers_review_once():
    found = services.review_request(table=_table(), seat=BLUNDER_SEAT, number=0)
    DBTaskResult.objects.all().delete()  # the killed worker's task: it stays "running"
    with pytest.raises(Killed):
        tasks.review_work(review_id=found.pk, analyse=_counting([], die_after=1))
    _lease_runs_out()

    assert worker.periodic_work(name="host:1") == 1
    assert DBTaskResult.objects.count() == 1 and not tasks.stale_reviews().exists()
    assert worker.periodic_work(name="host:2") == 0  # another worker's round: queued already
    assert DBTaskResult.objects.count() == 1
    assert worker.worker_running()

    _worker()
    done = RoundReview.objects.get()
    assert done.status == RoundReview.Status.DONE and len(done.decisions) == done.total


def test_a_running_worker_resumes_stale_reviews_on_its_own(monkeypatch):
    monkeypatch.setattr(worker, "BEAT_EVERY_S", 0.05)
    found = services.review_request(table=_table(), seat=BLUNDER_SEAT, number=0)
    DBTaskResult.objects.all().delete()
    with pytest.raises(Killed):
        tasks.review_work(review_id=found.pk, analyse=_counting([], die_after=1))
    _lease_runs_out()

    stop = worker.periodic_in_background(name="host:1")
    try:
        queued = _soon(DBTaskResult.objects.exists)
    finally:
        stop.set()
        time.sleep(10 * worker.BEAT_EVERY_S)  # its last round done, the thread ends
    assert queued
    assert DBTaskResult.objects.count() == 1
    assert not tasks.stale_reviews().exists()


def _soon(happened, seconds: float = 10.0) -> bool:
    """Whether ``happened()`` comes true within ``seconds``, asked while a worker's thread
    writes (the test database, SQLite in memory, refuses a read of a table being written
    for a moment: ask again)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if happened():
                return True
        except OperationalError:
            pass
        time.sleep(0.05)
    return False
