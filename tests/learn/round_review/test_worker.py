"""A review worker is running when one was heard from lately; old beats are forgotten."""

from datetime import timedelta

import pytest
from django.utils import timezone

from learn.models import WorkerBeat
from learn.round_review import worker

pytestmark = pytest.mark.django_db


def test_no_beat_means_no_worker():
    assert not worker.worker_running()


def test_a_worker_heard_lately_is_running_and_one_long_silent_is_not():
    now = timezone.now()
    worker.beat(name="host:1", now=now - timedelta(seconds=worker.BEAT_FRESH_S + 1))
    assert not worker.worker_running(now=now)

    worker.beat(name="host:2", now=now)
    assert worker.worker_running(now=now)


def test_a_beat_updates_its_row_and_old_rows_are_forgotten():
    now = timezone.now()
    worker.beat(name="host:1", now=now - worker.FORGET_AFTER - timedelta(hours=1))
    worker.beat(name="host:2", now=now)
    worker.beat(name="host:2", now=now)

    assert list(WorkerBeat.objects.values_list("name", flat=True)) == ["host:2"]
