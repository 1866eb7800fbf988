"""Whether a review worker is running: each worker (``manage.py review_worker``) writes a
heartbeat row every BEAT_EVERY_S, and one heard from within BEAT_FRESH_S is alive.

The rows live in the database, the one thing the site's processes and the workers all
share whatever the cache (the in-memory cache is each process's own).
"""

from __future__ import annotations

import os
import socket
import threading
from datetime import datetime, timedelta

from django.db import close_old_connections, connection
from django.utils import timezone

from learn.models import WorkerBeat

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


def beat_in_background(*, name: str) -> threading.Event:
    """Beat from a daemon thread until the returned event is set (or the process ends)."""
    done = threading.Event()

    def run() -> None:
        try:
            while True:
                close_old_connections()
                try:
                    beat(name=name)
                except Exception:  # a database hiccup: the next beat tries again
                    pass
                if done.wait(BEAT_EVERY_S):
                    return
        finally:
            connection.close()

    threading.Thread(target=run, name="worker-beat", daemon=True).start()
    return done
