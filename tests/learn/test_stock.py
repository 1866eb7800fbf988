"""The stock of private positions the worker keeps: what it holds, what a refill stores,
and when a refill is queued."""

import pytest
from django_tasks_db.models import DBTaskResult

from learn import services, stock
from learn.bank import stock as plan
from learn.models import PracticePosition
from learn.selectors import Filters


@pytest.fixture
def full_but_one(monkeypatch):
    """Every bucket full but the three-player house auction, so a refill is quick."""

    def held():
        counts = {bucket: stock.PER_BUCKET for bucket in plan.buckets()}
        counts[plan.Bucket("house", 3, "auction")] = 0
        return counts

    monkeypatch.setattr(stock, "held", held)


def test_the_stock_counts_private_positions_nobody_was_served(bank, guest):
    private = [p for p in bank if not p.published]
    assert sum(stock.held().values()) == len(private)

    served = services.attempt_serve(learner=guest, filters=Filters())

    assert sum(stock.held().values()) == len(private) - 1
    assert served.rated
    PracticePosition.objects.update(published=True)
    assert not stock.held()


def test_a_refill_stores_private_positions_of_the_bucket_short(db, full_but_one):
    for _ in range(5):  # a job keeps what its round offers: a few tries find an auction
        if stock.stock_refill.call():
            break
    kept = PracticePosition.objects.all()

    assert kept.exists()
    assert all(not p.published and p.owner_id is None for p in kept)
    assert all((p.preset, p.players, p.phase) == ("house", 3, "auction") for p in kept)


def test_a_refill_is_queued_once_while_the_stock_is_short(db, full_but_one):
    assert stock.refill_enqueue()
    assert not stock.refill_enqueue()  # one is waiting already

    waiting = DBTaskResult.objects.ready().filter(task_path=stock.stock_refill.module_path)
    assert waiting.count() == 1
    assert waiting.get().priority < 0  # behind every review


def test_no_refill_is_queued_for_a_full_stock(db, monkeypatch):
    monkeypatch.setattr(stock, "held", lambda: {b: stock.PER_BUCKET for b in plan.buckets()})

    assert not stock.refill_enqueue()
    assert not DBTaskResult.objects.exists()


def test_a_refill_queues_the_next_while_the_stock_is_still_short(db, full_but_one):
    stock.stock_refill.call()

    waiting = DBTaskResult.objects.ready().filter(task_path=stock.stock_refill.module_path)
    assert waiting.count() == 1
