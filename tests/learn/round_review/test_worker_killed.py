"""A real worker process killed in the middle of a review: the decisions it stored stay,
and the next worker finishes the review without doing them again."""

from __future__ import annotations

import json
import secrets
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from tests.servers import REPO, manage, server_env

pytestmark = pytest.mark.slow

SETUP = """
from random import Random
from game.engine.state import MatchSetup, MatchState
from tests.game.stored import greedy_round, stored_table
from learn.round_review import services
match = greedy_round(MatchState(MatchSetup.partnerships(6, 2), 0), Random(11))
table = stored_table(match, [{"session_key": "me"}] + [{"bot_level": "greedy"}] * 5)
services.review_request(table=table, seat=0, number=0)
"""

LEASE_RUNS_OUT = """
from datetime import timedelta
from django.db.models import F
from learn.round_review import tasks, worker
from learn.models import RoundReview
passed = tasks.LEASE + timedelta(seconds=1)
RoundReview.objects.update(
    enqueued_at=F("enqueued_at") - passed, lease_until=F("lease_until") - passed
)
assert worker.periodic_work(name="host:1") == 1
"""


def _review(path) -> tuple[str, int | None, list]:
    with sqlite3.connect(path) as db:
        status, total, decisions = db.execute(
            "select status, total, decisions from learn_roundreview"
        ).fetchone()
    return status, total, json.loads(decisions)


def _worker(env, *more: str) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            "manage.py",
            "db_worker",
            "--no-startup-delay",
            "--interval",
            "0.1",
            *more,
        ],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def test_a_killed_workers_review_is_finished_by_the_next_worker(tmp_path):
    path = tmp_path / "db.sqlite3"
    env = server_env(
        DATABASE_URL=f"sqlite:///{path}", DEBUG="false", SECRET_KEY=secrets.token_urlsafe(50)
    )
    manage(["migrate", "--noinput"], env=env)
    manage(["shell", "-c", SETUP], env=env)

    first = _worker(env)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            status, total, decisions = _review(path)
            if decisions:
                break
            time.sleep(0.01)
        first.send_signal(signal.SIGKILL)  # no chance to tidy up
        first.wait(10)
    finally:
        first.kill()
    status, total, kept = _review(path)
    assert status == "running" and 0 < len(kept) < total, "the kill came too late"

    manage(["shell", "-c", LEASE_RUNS_OUT], env=env)  # and a worker's periodic job finds it
    second = _worker(env, "--batch")
    assert second.wait(180) == 0
    status, total, decisions = _review(path)
    assert status == "done" and len(decisions) == total
    assert decisions[: len(kept)] == kept  # what the killed worker stored is kept as it was
    indices = [d["index"] for d in decisions]
    assert indices == sorted(set(indices))  # and no decision was analysed twice
