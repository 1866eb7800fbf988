"""The stock of private positions: analysed by the task queue's worker, so that rated
practice works from the first minute of a fresh site.

A rated answer needs a position whose analysis nobody could have read first, so the
starter bank (in the repository) never rates. The worker keeps ``PER_BUCKET`` positions
nobody has been served yet of every game, table size and decision kind
(``learn.bank.stock``), analysing one job at a time at a low priority on the task queue
(a review waiting goes first), and refilling as positions are served. They are written
to the database only.
"""

from __future__ import annotations

import logging
import secrets
from collections import Counter

from django.db.models import Case, Count, QuerySet, Value, When
from django_tasks import task
from django_tasks_db.models import DBTaskResult

from learn import services
from learn.bank import generation
from learn.bank import stock as plan
from learn.models import PracticePosition

logger = logging.getLogger(__name__)

PER_BUCKET = 3
# below every review task's priority (the default, 0): the worker takes a review first
PRIORITY = -50


def unserved() -> QuerySet[PracticePosition]:
    """Private positions of the bank that were never served to anyone."""
    return PracticePosition.objects.filter(
        owner__isnull=True, published=False, attempt_set__isnull=True
    )


def held() -> Counter:
    """How many unserved private positions each bucket holds: counted by the database,
    grouped by game, size, phase and whether any trick was done (a private bank loaded
    by hand may hold thousands)."""
    tricks = Case(When(tricks=0, then=Value(0)), default=Value(1))
    rows = (
        unserved()
        .annotate(after_first=tricks)
        .values_list("preset", "players", "phase", "after_first")
        .annotate(n=Count("pk"))
        .order_by()
    )
    counts = Counter()
    for preset, players, phase, after_first, n in rows:
        counts[plan.bucket_of(preset, players, phase, after_first)] += n
    return counts


def short() -> bool:
    return plan.next_job(held(), per_bucket=PER_BUCKET, seed="") is not None


@task(priority=PRIORITY)
def stock_refill() -> int:
    """Run the job that fills the stock next, and store what it keeps; how many stored."""
    job = plan.next_job(held(), per_bucket=PER_BUCKET, seed=f"stock/{secrets.token_hex(8)}")
    if job is None:
        return 0
    result = generation.run_job(job)
    report = services.positions_add(items=result.positions)
    if report.errors:  # a job's positions are read back through the rules before storing
        logger.warning("stock: %d analysed position(s) refused: %s", len(report.errors), report)
    refill_enqueue()  # the next at once, not at the worker's next beat
    return report.created


def refill_enqueue() -> bool:
    """Queue a refill when the stock is short and none is waiting; whether one was. A
    worker calls this every few seconds, so one refill follows another while any bucket
    is short, and a worker that died mid-refill holds nothing up (only a waiting task
    counts, not a running one)."""
    waiting = DBTaskResult.objects.ready().filter(task_path=stock_refill.module_path)
    if waiting.exists() or not short():
        return False
    stock_refill.enqueue()
    return True
