"""What a review worker (``manage.py review_worker``) does beside its tasks, every
BEAT_EVERY_S from a thread of its own: it writes a heartbeat row, so that the review page
can tell whether a worker is running (one heard from within BEAT_FRESH_S is alive), and
it queues again every stale review (its worker died, or its task was lost), so that a
review carries on with no one looking at it: no page has to (a GET writes nothing).

The rows live in the database, the one thing the site's processes and the workers all
share whatever the cache (the in-memory cache is each process's own).
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from django.db import close_old_connections, connection
from django.utils import timezone

from learn.models import WorkerBeat
from learn.round_review import tasks

logger = logging.getLogger(__name__)

BEAT_EVERY_S = 5
BEAT_FRESH_S = 20
FORGET_AFTER = timedelta(days=1)


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"[:64]


def beat(*, name: str, now: datetime | None = None) -> None:
    now = now or timezone.now()
    WorkerBeat.objects.update_or_create(name=name, defaults={"seen_at": now})
    WorkerBeat.objects.filter(seen_at__lt=now - FORGET_AFTER).delete()


def worker_running(*, now: datetime | None = None) -> bool:
    now = now or timezone.now()
    return WorkerBeat.objects.filter(seen_at__gte=now - timedelta(seconds=BEAT_FRESH_S)).exists()


def periodic_work(*, name: str, jobs: Sequence[Callable[[], object]] = ()) -> int:
    """One round of the worker's periodic work: its heartbeat, the worker's other
    periodic ``jobs`` (the trainer's stock: ``learn.stock.refill_enqueue``), then every
    stale review queued again; how many were. A database hiccup in any of them is left
    to the next round."""
    try:
        beat(name=name)
    except Exception:  # the next beat tries again
        logger.warning("review worker %s: no heartbeat this time", name, exc_info=True)
    for job in jobs:
        try:
            job()
        except Exception:  # the next round tries again
            logger.warning("review worker %s: %s failed", name, job.__name__, exc_info=True)
    try:
        return tasks.reviews_resume()
    except Exception:  # the next round looks again
        logger.warning("review worker %s: stale reviews not resumed", name, exc_info=True)
        return 0


def periodic_in_background(
    *, name: str, jobs: Sequence[Callable[[], object]] = ()
) -> threading.Event:
    """Run ``periodic_work`` every BEAT_EVERY_S from a daemon thread, the first after one
    interval, until the returned event is set (or the process ends)."""
    done = threading.Event()

    def run() -> None:
        try:
            while not done.wait(BEAT_EVERY_S):
                close_old_connections()
                periodic_work(name=name, jobs=jobs)
        finally:
            connection.close()

    threading.Thread(target=run, name="worker-periodic", daemon=True).start()
    return done
