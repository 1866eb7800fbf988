"""Background work on the task queue (django-tasks, its database backend): the review of
a round, run by ``manage.py review_worker`` (``db_worker`` with its periodic work).

A review may be worked by any number of tasks, at once or one after another, and is done
once: a task first takes the review's lease (one UPDATE that succeeds for one task only,
and only when nobody holds a live lease), then analyses the decisions not stored yet, one
at a time, storing each with the lease renewed. A worker killed mid-review stops renewing:
once its lease runs out, the next task for the review carries on from the last decision
stored. The workers queue that task themselves: each queues every stale review again
every few seconds (``worker.periodic_work``), and every review task does before its own
work; someone asking for the review again (``services.review_keep_going``, a POST) does
too. A look at the review's page never does: a GET writes nothing.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta

from django.db import DatabaseError, close_old_connections, connection, transaction
from django.db.models import F, Q
from django.utils import timezone
from django_tasks import task

from game.live import store
from learn.models import RoundReview
from learn.round_review import decisions

# A worker holding a review renews its lease every LEASE_RENEW_EVERY_S while it works
# (a thread beside the analysis), so a live worker keeps it however long one decision
# takes, and a dead worker's review is free for another within LEASE.
LEASE = timedelta(seconds=30)
LEASE_RENEW_EVERY_S = 5.0
# a queued review no worker has started after this long is queued again
QUEUE_PATIENCE = timedelta(minutes=10)


@task()
def review_round(review_id: int) -> None:
    reviews_resume()
    review_work(review_id=review_id)


def review_enqueue(review_id: int) -> None:
    """Queue a task for the review (in the caller's transaction: the queue is a table)."""
    RoundReview.objects.filter(pk=review_id).update(enqueued_at=timezone.now())
    review_round.enqueue(review_id)


def stale_reviews():
    """Unfinished reviews no live worker holds and no task queued since can finish: their
    worker died (its lease ran out since it took the review), or their task has waited
    past all patience."""
    now = timezone.now()
    unfinished = RoundReview.objects.exclude(status=RoundReview.Status.DONE)
    died = Q(lease_until__lt=now, enqueued_at__lt=F("lease_until"))
    unheld = Q(lease_until__isnull=True) | Q(lease_until__lt=now)
    forgotten = Q(enqueued_at__lt=now - QUEUE_PATIENCE) & unheld
    return unfinished.filter(died | forgotten)


def review_resume(review_id: int) -> bool:
    """Queue a task for the review if it is stale; whether it was. Only a stale review
    passes the UPDATE that marks it queued, so two workers (or a worker and someone asking
    again) that find it stale at once queue it once."""
    with transaction.atomic():
        if not stale_reviews().filter(pk=review_id).update(enqueued_at=timezone.now()):
            return False
        review_round.enqueue(review_id)
    return True


def reviews_resume() -> int:
    """Queue a task for every stale review; how many. Every worker does this every few
    seconds (``worker.periodic_work``), and every review task before its own work."""
    found = list(stale_reviews().values_list("pk", flat=True))
    return sum(review_resume(review_id) for review_id in found)


Analyse = Callable[[decisions.Moment, str], decisions.Decision]


def _analyse(moment: decisions.Moment, seed: str) -> decisions.Decision:
    return decisions.review_moment(moment, seed=seed)


def review_work(*, review_id: int, analyse: Analyse = _analyse) -> bool:
    """Finish the review if no live worker holds it; whether this call worked on it."""
    token = secrets.token_hex(8)
    if not _claim(review_id, token):
        return False
    review = RoundReview.objects.select_related("table").get(pk=review_id)
    match = store.finished_match_for_table(review.table)
    found = decisions.moments(match, review.round, review.seat)
    RoundReview.objects.filter(pk=review_id, worker=token).update(total=len(found))
    seed = f"{review.table.code}/{review.round}/{review.seat}"
    with _lease_kept(review_id, token):
        for moment in found[len(review.decisions) :]:
            decision = analyse(moment, seed)
            if not _store(review_id, token, decision):
                return True  # the lease was lost (this worker stalled past it): another goes on
    RoundReview.objects.filter(pk=review_id, worker=token).update(
        status=RoundReview.Status.DONE, finished_at=timezone.now(), lease_until=None, worker=""
    )
    return True


@contextmanager
def _lease_kept(review_id: int, token: str) -> Iterator[None]:
    """Renew the lease from a thread while the block runs (and only while it is ours)."""
    if connection.in_atomic_block:
        # the claim is not committed: another connection could neither see nor renew it
        # (a caller's transaction, as in tests), and its row lock would block the renewal
        yield
        return
    done = threading.Event()

    def renew() -> None:
        try:
            while not done.wait(LEASE_RENEW_EVERY_S):
                close_old_connections()
                try:
                    RoundReview.objects.filter(pk=review_id, worker=token).update(
                        lease_until=timezone.now() + LEASE
                    )
                except DatabaseError:  # a busy database: the next renewal tries again
                    pass
        finally:
            connection.close()

    keeper = threading.Thread(target=renew, name=f"lease-{review_id}", daemon=True)
    keeper.start()
    try:
        yield
    finally:
        done.set()
        keeper.join()


def _claim(review_id: int, token: str) -> bool:
    now = timezone.now()
    free = Q(lease_until__isnull=True) | Q(lease_until__lt=now)
    claimed = (
        RoundReview.objects.filter(free, pk=review_id)
        .exclude(status=RoundReview.Status.DONE)
        .update(worker=token, lease_until=now + LEASE, status=RoundReview.Status.RUNNING)
    )
    return claimed == 1


def _store(review_id: int, token: str, decision: decisions.Decision) -> bool:
    """Append one decision while the lease is still ours, and renew it."""
    with transaction.atomic():
        review = RoundReview.objects.select_for_update().filter(pk=review_id, worker=token).first()
        if review is None:
            return False
        if any(d["index"] == decision.index for d in review.decisions):
            return True
        review.decisions = [*review.decisions, decision.to_json()]
        review.lease_until = timezone.now() + LEASE
        review.save(update_fields=["decisions", "lease_until"])
    return True
