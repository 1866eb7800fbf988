"""The stock's plan: which buckets the trainer keeps, and which job fills it next."""

from game.engine.variants import PRESETS
from learn.bank import stock
from learn.bank.stock import Bucket


def test_every_game_size_and_kind_has_a_bucket():
    found = stock.buckets()

    for name, rules in PRESETS.items():
        for players in rules.players:
            kinds = {b.kind for b in found if (b.preset, b.players) == (name, players)}
            assert kinds == set(stock.kinds_for(rules)), (name, players)
    assert set(stock.kinds_for(PRESETS["house"])) == {"auction", "opening", "lead", "follow"}
    assert "discard" in stock.kinds_for(PRESETS["six_handed"])
    assert "opening" not in stock.kinds_for(PRESETS["classic"])  # the bidder names trump


def test_a_stored_position_falls_into_its_bucket():
    assert stock.bucket_of("house", 4, "lead", 0) == Bucket("house", 4, "opening")
    assert stock.bucket_of("house", 4, "lead", 2) == Bucket("house", 4, "lead")
    assert stock.bucket_of("classic", 4, "lead", 0) == Bucket("classic", 4, "lead")
    assert stock.bucket_of("seven_point", 4, "discard", 0) == Bucket("seven_point", 4, "discard")


def test_an_empty_stock_starts_with_the_smallest_table_and_every_kind_short_there():
    job = stock.next_job({}, per_bucket=2, seed="s")

    smallest = min(min(rules.players) for rules in PRESETS.values())
    assert job.players == smallest
    assert set(job.kinds) == set(stock.kinds_for(PRESETS[job.preset]))
    assert job.seed == "s"


def test_the_emptiest_bucket_goes_first_and_only_the_kinds_still_short_are_examined():
    held = {bucket: 2 for bucket in stock.buckets()}
    held[Bucket("house", 6, "auction")] = 0
    held[Bucket("house", 6, "follow")] = 1

    job = stock.next_job(held, per_bucket=2, seed="s")

    assert (job.preset, job.players) == ("house", 6)
    assert set(job.kinds) == {"auction", "follow"}


def test_a_full_stock_needs_no_job():
    held = {bucket: 3 for bucket in stock.buckets()}
    assert stock.next_job(held, per_bucket=3, seed="s") is None
    assert stock.next_job(held, per_bucket=4, seed="s") is not None
