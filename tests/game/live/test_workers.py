"""A server's bot workers think below its priority and end with it: a server killed outright
(SIGKILL, as the OOM killer would) leaves no worker process behind."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import sqlite3
import time
import urllib.request
from concurrent.futures import ProcessPoolExecutor
from contextlib import closing
from pathlib import Path

import pytest

from game.live import workers
from tests.servers import child_processes, manage, server_env, serving

pytestmark = pytest.mark.slow

NEW_TABLE = """
import json
from game.live import workers
from tests.servers import seat_guests
table, _ = seat_guests(["nobody-here"], bot_level="expert")
print(json.dumps({"code": table.code}))
"""


def children_of(pid: int) -> list[int]:
    return [child for child, _ in child_processes({pid})]


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has ended: only its exit status is left to collect


def moves_stored(tmp_path) -> int:
    """The moves the server has stored in its SQLite file (read beside it)."""
    with closing(sqlite3.connect(tmp_path / "db.sqlite3", timeout=10)) as db:
        return db.execute("SELECT COUNT(*) FROM game_actionlog").fetchone()[0]


def busy_server_env(tmp_path) -> tuple[dict, str]:
    """A migrated database with a table of expert bots whose guest is never here."""
    env = server_env(
        DJANGO_SETTINGS_MODULE="smearsite.settings",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        REDIS_URL=None,
        SMEAR_BOT_PROCESSES="2",
        SMEAR_AWAY_AFTER_S="0",  # the guest is never here: a bot thinks for them too
        SMEAR_BOT_PACE_MS="0",
        DEBUG="true",
    )
    manage(["migrate", "--noinput"], env=env)
    code = json.loads(manage(["shell", "-c", NEW_TABLE], env=env).stdout.splitlines()[-1])["code"]
    return env, code


def test_a_worker_thinks_at_a_lower_priority_than_its_server():
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(
        1, mp_context=context, initializer=workers.start, initargs=(os.getpid(), 5)
    ) as pool:
        worker_niceness = pool.submit(os.nice, 0).result(timeout=60)

    assert worker_niceness == min(os.nice(0) + 5, 19)


def test_a_server_killed_outright_takes_its_bot_workers_with_it(tmp_path):
    env, code = busy_server_env(tmp_path)
    with serving(env=env, log=tmp_path / "server.log") as server:
        urllib.request.urlopen(f"{server.url}/table/{code}/", timeout=10).read()  # wakes bots
        deadline = time.monotonic() + 60
        workers: list[int] = []
        while time.monotonic() < deadline and len(workers) < 2:
            time.sleep(0.2)
            workers = children_of(server.process.pid)
        assert workers, "the bots never started a worker"

        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait(timeout=10)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(alive(pid) for pid in workers):
            time.sleep(0.1)

        assert not [pid for pid in workers if alive(pid)]


def test_a_server_stopped_while_its_bots_think_logs_no_traceback(tmp_path):
    env, code = busy_server_env(tmp_path)
    with serving(env=env, log=tmp_path / "server.log") as server:
        urllib.request.urlopen(f"{server.url}/table/{code}/", timeout=10).read()
        # the bots play on, thinking in their workers: stop the server once they visibly do
        deadline = time.monotonic() + 60
        while not (children_of(server.process.pid) and moves_stored(tmp_path) >= 4):
            assert time.monotonic() < deadline, "the bots never played in their workers"
            time.sleep(0.1)

        server.stop()

        log = server.log_text()
    assert "Traceback" not in log and "cannot schedule new futures" not in log
