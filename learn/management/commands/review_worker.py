"""python manage.py review_worker [--interval 1]: run the task queue's worker for reviews.

django-tasks-db's ``db_worker``, never reloading itself on code changes (its reloader
runs the worker in a child that a ``kill -9`` takes its parent down with, and orphans when
the parent is killed), with its periodic work (``learn.round_review.worker``): a heartbeat
the review page reads, stale reviews queued again, as it starts (so a worker that
replaces a dead one takes over its reviews at once) and every few seconds after, and a
refill of the trainer's stock of private positions queued while it is short
(``learn.stock``: its tasks wait behind every review). Run it
under a supervisor that restarts it: ``make run`` uses ``smearsite.server.supervise``,
production systemd or the like (docs/deployment.md).
"""

from django.core.management import call_command
from django.core.management.base import BaseCommand

from learn import stock
from learn.round_review import worker


class Command(BaseCommand):
    help = "Run the review worker (db_worker without autoreload, with its periodic work)."

    def add_arguments(self, parser):
        parser.add_argument("--interval", type=float, default=1.0)

    def handle(self, *args, interval: float, **options):
        name = worker.worker_name()
        jobs = (stock.refill_enqueue,)  # the trainer's stock of private positions
        resumed = worker.periodic_work(name=name, jobs=jobs)
        stop = worker.periodic_in_background(name=name, jobs=jobs)
        if resumed:
            self.stdout.write(f"{resumed} stale review(s) queued again")
        try:
            call_command("db_worker", interval=interval, reload=False, startup_delay=False)
        finally:
            stop.set()
