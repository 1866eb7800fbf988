"""The trainer's figures: how fast a position and its reveal are served, and how many
positions the generator keeps per minute at its default budget.

    python bench/trainer.py [--bank PATH] [--requests 200] [--generate-seconds 60]
                            [--players 3,4,5,6] [--workers 1] [--stock-seconds 0]

Serving runs through Django's test client (middleware, views, templates) against a
temporary SQLite database loaded with the bank (the starter bank, else the test sample).
Prints p50/p95/max of serving a position (the post, and the practice page it redirects
to) and of an htmx answer (grade, rate, render the reveal). The analysis is precomputed,
so both should take tens of ms.
Generation plays real matches with ``learn.bank.generation.run_job`` at the default Budget and
Keep on ``--workers`` processes (one unless told); ``--generate-seconds 0`` skips it.
``--stock-seconds N`` fills the worker's stock of private positions (``learn.bank.stock``)
game by game from empty, at most N s each, and prints each game's refill rate.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

STARTER = REPO / "learn" / "fixtures" / "starter_positions.jsonl"
SAMPLE = REPO / "tests" / "learn" / "fixtures" / "sample_positions.jsonl"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(name: str, seconds: list[float]) -> None:
    ms = [s * 1000 for s in seconds]
    print(
        f"{name:<34} n={len(ms):<4} p50={percentile(ms, 0.5):6.1f} ms  "
        f"p95={percentile(ms, 0.95):6.1f} ms  max={max(ms):6.1f} ms  "
        f"mean={statistics.fmean(ms):6.1f} ms"
    )


def bench_serving(bank: Path, requests: int) -> None:
    import django
    from django.core.management import call_command
    from django.test import Client

    django.setup()
    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    call_command("load_positions", str(bank))
    print(f"loaded {bank.name} in {time.perf_counter() - started:.1f} s")

    from learn import services
    from learn.models import Attempt, PracticePosition

    # one client asks for every position within a minute or two: no limit to hit here
    services.SERVES_PER_MINUTE = services.SERVES_PER_ADDRESS = requests + 1

    print(f"bank: {PracticePosition.objects.count()} positions")
    client = Client()
    client.post("/learn/serve/")  # warm up: the session, the learner, the template cache
    serve, reveal = [], []
    for _ in range(requests):
        started = time.perf_counter()
        # the button's post, and the page it redirects to
        page = client.post("/learn/serve/", {"next": "1"}, follow=True)
        serve.append(time.perf_counter() - started)
        assert page.status_code == 200, page.status_code
        token = re.search(r'/learn/attempts/([^/"]+)/answer/', page.text).group(1)
        attempt = Attempt.objects.select_related("position").get(token=token)
        choice = attempt.position.core.options[-1].code
        started = time.perf_counter()
        answered = client.post(
            f"/learn/attempts/{token}/answer/",
            {"choice": choice, "position": attempt.position.key},
            HTTP_HX_REQUEST="true",
        )
        reveal.append(time.perf_counter() - started)
        assert answered.status_code == 200 and 'data-state="reveal"' in answered.text
    report("serve a position (POST + page)", serve)
    report("answer + reveal (htmx POST)", reveal)


def bench_generation(seconds: float, players: list[int], workers: int) -> None:
    from contextlib import closing

    from learn.bank import generation
    from learn.core.analysis import Budget, Keep

    jobs = generation.job_stream(0, players, 0)
    progress = generation.Progress()
    played = 0
    results = generation.job_results(jobs, Budget(), Keep(), workers)
    with closing(results):
        for result in results:
            played += 1
            progress.count(result)
            if time.perf_counter() - progress.started >= seconds:
                break
    elapsed = time.perf_counter() - progress.started
    print(
        f"generation (default budget, {workers} worker(s), players {players}): "
        f"{progress.kept} positions kept from {progress.examined} decisions analysed in "
        f"{played} matches, {elapsed:.0f} s: {60 * progress.kept / elapsed:.1f} positions/minute"
    )
    for line in progress.by_kind():
        print(f"  {line}")


def bench_stock(seconds: float) -> None:
    """The worker's stock refill, game by game, from empty: the jobs ``learn.bank.stock``
    plans, run one after another as the worker runs them (one process, default budget)."""
    from collections import Counter

    from game.engine.variants import PRESETS
    from learn.bank import generation
    from learn.bank import stock as plan

    per_bucket = 3  # learn.stock.PER_BUCKET, without importing Django
    for preset in PRESETS:
        held = Counter({b: per_bucket for b in plan.buckets() if b.preset != preset})
        wanted = sum(1 for b in plan.buckets() if b.preset == preset) * per_bucket
        started = time.perf_counter()
        first = None
        number = 0
        while time.perf_counter() - started < seconds:
            job = plan.next_job(held, per_bucket=per_bucket, seed=f"bench/{preset}/{number}")
            if job is None:
                break
            number += 1
            for item in generation.run_job(job).positions:
                position = _core(item)
                bucket = plan.bucket_of(
                    preset, position.players, position.phase, position.tricks_done
                )
                held[bucket] += 1
                first = first or time.perf_counter() - started
        elapsed = time.perf_counter() - started
        stocked = sum(min(held[b], per_bucket) for b in plan.buckets() if b.preset == preset)
        kept = sum(held[b] for b in plan.buckets() if b.preset == preset)
        print(
            f"stock {preset:<12} {kept} positions in {elapsed:.0f} s "
            f"({60 * kept / elapsed:.1f}/minute, {number} jobs); first after "
            f"{first or float('nan'):.1f} s; {stocked} of {wanted} places filled"
        )


def _core(item: dict):
    from learn.core.positions import AnalysedPosition

    return AnalysedPosition.from_json(item)


def serve_from(bank: Path, requests: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["DATABASE_URL"] = f"sqlite:///{tmp}/bench.sqlite3"
        os.environ.pop("REDIS_URL", None)
        # the test client's host; no setup_test_environment(), which slows template rendering
        os.environ["ALLOWED_HOSTS"] = "testserver"
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "smearsite.settings")
        bench_serving(bank, requests)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bank", type=Path, default=STARTER if STARTER.exists() else SAMPLE)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--generate-seconds", type=float, default=60.0)
    parser.add_argument("--players", default="3,4,5,6")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--stock-seconds",
        type=float,
        default=0.0,
        help="fill the worker's stock of private positions, each game for at most this long",
    )
    args = parser.parse_args()

    if args.requests > 0:
        serve_from(args.bank, args.requests)
    if args.generate_seconds > 0:
        players = [int(n) for n in args.players.split(",")]
        bench_generation(args.generate_seconds, players, args.workers)
    if args.stock_seconds > 0:
        bench_stock(args.stock_seconds)


if __name__ == "__main__":
    main()
